// RUN: gpu-opt %s -p convert-printf-to-llvm | filecheck %s
// RUN: gpu-opt %s -p convert-printf-to-llvm --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// The statistics of the whole file: the two printf ops below.
// STATS:      {{^}}ConvertPrintfToLlvm
// STATS-NEXT:   (S) 2 num-printf-lowered - Number of printf ops made runtime print calls

// Host printf becomes the runtime's print calls, piece by piece: each literal text a constant
// string (its UTF-8 bytes, no terminator) and its length, integers sign-extended to i64 (i1
// zero-extended), floats widened to f64 with their width; the op id of a print is -1.

func.func @main(%m: !mem.M<0>, %a: i8, %b: i1, %c: index, %x: f32, %y: f64) -> !mem.M<0> {
  printf.print_format "a={} b={} c={}\n", %a : i8, %b : i1, %c : index
  printf.print_format "{} then {}, done\n", %y : f64, %x : f32
  func.return %m : !mem.M<0>
}

// CHECK-DAG:  llvm.mlir.global internal constant @{{.*}}("a=") {{.*}} : !llvm.array<2 x i8>
// CHECK-DAG:  llvm.mlir.global internal constant @{{.*}}(", done\0A") {{.*}} : !llvm.array<7 x i8>
// CHECK:      func.func @main(
// CHECK:        llvm.call @gpuirPrintString(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64) -> ()
// CHECK:        %[[A:.*]] = llvm.sext %{{.*}} : i8 to i64
// CHECK:        llvm.call @gpuirPrintInt(%[[A]], %{{.*}}) : (i64, i64) -> ()
// CHECK:        %[[B:.*]] = llvm.zext %{{.*}} : i1 to i64
// CHECK:        llvm.call @gpuirPrintInt(%[[B]], %{{.*}}) : (i64, i64) -> ()
// CHECK:        llvm.call @gpuirPrintInt(
// CHECK:        llvm.call @gpuirPrintString(
// CHECK:        %[[BITS:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK:        llvm.call @gpuirPrintFloat(%{{.*}}, %[[BITS]], %{{.*}}) : (f64, i32, i64) -> ()
// CHECK:        llvm.call @gpuirPrintString(
// CHECK:        %[[X:.*]] = llvm.fpext %{{.*}} : f32 to f64
// CHECK:        %[[BITS32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK:        llvm.call @gpuirPrintFloat(%[[X]], %[[BITS32]], %{{.*}})
// CHECK-NOT:    printf.
