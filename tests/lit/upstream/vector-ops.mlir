// Vectors in registers on the host: broadcast, insert and extract (static and dynamic positions,
// rows of a 2-d vector), fma, reductions of float and integer kinds, shape_cast, bitcast (to
// i32 bits, to halves), shuffle, from_elements, step, arith and math on vectors (lane by lane),
// a vector carried by scf.for, constant_mask, and vector.print of each, with punctuation and a
// string. mlir-runner-22 prints the same lines for this program (lowered by mlir-opt-22's own
// vector-to-llvm); the floats and bits are small enough to check by hand (0.5 is 0x3f000000 =
// 1056964608; 3 and -8 as i16 halves are 3, 0, -8, -1).
// RUN: gpu-run %s --provider interp --upstream | filecheck %s --match-full-lines
// RUN: gpu-run %s --provider cpu --upstream | filecheck %s --match-full-lines

// CHECK:      ( 1.5, 1.5, 1.5, 1.5 )
// CHECK-NEXT: ( ( 1, -2, 3.5, 4 ), ( 0.5, 0.25, -1, 2 ) )
// CHECK-NEXT: -1
// CHECK-NEXT: 3.5
// CHECK-NEXT: ( 0.5, 0.25, -1, 2 )
// CHECK-NEXT: ( 1, 1.5, 3.5, 4 )
// CHECK-NEXT: ( 2, 1, -2, 9.5 )
// CHECK-NEXT: 6.5
// CHECK-NEXT: -42
// CHECK-NEXT: 4
// CHECK-NEXT: -1
// CHECK-NEXT: 9
// CHECK-NEXT: -8
// CHECK-NEXT: -8
// CHECK-NEXT: -4
// CHECK-NEXT: ( ( 1, -2 ), ( 3.5, 4 ), ( 0.5, 0.25 ), ( -1, 2 ) )
// CHECK-NEXT: ( 1056964608, 1048576000, -1082130432, 1073741824 )
// CHECK-NEXT: ( 3, 0, -8, -1, 5, 0, 2, 0 )
// CHECK-NEXT: ( 2, 1, 0.25, 3.5 )
// CHECK-NEXT: ( 1.5, -1, 3.5 )
// CHECK-NEXT: ( 0, 1, 2, 3 )
// CHECK-NEXT: ( 2.25, -2.625, 3.75, 9 )
// CHECK-NEXT: ( 1.22474, 1.22474, 1.22474, 1.22474 )
// CHECK-NEXT: ( 1, 0.25, 3.5, 4 )
// CHECK-NEXT: ( 9, 64, 25, 4 )
// CHECK-NEXT: ( 3, 3, -0.5, 12 )
// CHECK-NEXT: ( ( 1, 1, 1, 0 ), ( 0, 0, 0, 0 ) )
// CHECK-NEXT: 7, 1.5
// CHECK-NEXT: done

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %x = arith.constant 1.5 : f32
  %k = arith.constant 7 : i32
  %v = arith.constant dense<[1.0, -2.0, 3.5, 4.0]> : vector<4xf32>
  %w = arith.constant dense<[0.5, 0.25, -1.0, 2.0]> : vector<4xf32>
  %n = arith.constant dense<[3, -8, 5, 2]> : vector<4xi32>
  %b = vector.broadcast %x : f32 to vector<4xf32>
  vector.print %b : vector<4xf32>
  %b2 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %r = vector.insert %w, %b2 [1] : vector<4xf32> into vector<2x4xf32>
  vector.print %r : vector<2x4xf32>
  %e = vector.extract %r[1, 2] : f32 from vector<2x4xf32>
  %ed = vector.extract %r[%c0, %c2] : f32 from vector<2x4xf32>
  %row = vector.extract %r[1] : vector<4xf32> from vector<2x4xf32>
  vector.print %e : f32
  vector.print %ed : f32
  vector.print %row : vector<4xf32>
  %s = vector.insert %x, %v [%c1] : f32 into vector<4xf32>
  vector.print %s : vector<4xf32>
  %f = vector.fma %v, %w, %b : vector<4xf32>
  vector.print %f : vector<4xf32>
  %radd = vector.reduction <add>, %v : vector<4xf32> into f32
  %rmul = vector.reduction <mul>, %v, %x : vector<4xf32> into f32
  %rmax = vector.reduction <maxnumf>, %v : vector<4xf32> into f32
  %rmin = vector.reduction <minimumf>, %w : vector<4xf32> into f32
  vector.print %radd : f32
  vector.print %rmul : f32
  vector.print %rmax : f32
  vector.print %rmin : f32
  %iadd = vector.reduction <add>, %n, %k : vector<4xi32> into i32
  %imax = vector.reduction <maxui>, %n : vector<4xi32> into i32
  %imin = vector.reduction <minsi>, %n : vector<4xi32> into i32
  %ixor = vector.reduction <xor>, %n : vector<4xi32> into i32
  vector.print %iadd : i32
  vector.print %imax : i32
  vector.print %imin : i32
  vector.print %ixor : i32
  %sc = vector.shape_cast %r : vector<2x4xf32> to vector<4x2xf32>
  vector.print %sc : vector<4x2xf32>
  %bits = vector.bitcast %w : vector<4xf32> to vector<4xi32>
  vector.print %bits : vector<4xi32>
  %halves = vector.bitcast %n : vector<4xi32> to vector<8xi16>
  vector.print %halves : vector<8xi16>
  %sh = vector.shuffle %v, %w [7, 0, 5, 2] : vector<4xf32>, vector<4xf32>
  vector.print %sh : vector<4xf32>
  %fe = vector.from_elements %x, %e, %ed : vector<3xf32>
  vector.print %fe : vector<3xf32>
  %st = vector.step : vector<4xindex>
  vector.print %st : vector<4xindex>
  %sum = arith.addf %v, %w : vector<4xf32>
  %prod = arith.mulf %sum, %b : vector<4xf32>
  %sq = math.sqrt %b : vector<4xf32>
  %ab = math.absf %v : vector<4xf32>
  vector.print %prod : vector<4xf32>
  vector.print %sq : vector<4xf32>
  %mx = arith.maximumf %v, %w : vector<4xf32>
  vector.print %mx : vector<4xf32>
  %ni = arith.muli %n, %n : vector<4xi32>
  vector.print %ni : vector<4xi32>
  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %ab) -> (vector<4xf32>) {
    %next = arith.addf %a, %w : vector<4xf32>
    scf.yield %next : vector<4xf32>
  }
  vector.print %acc : vector<4xf32>
  %cm = vector.constant_mask [1, 3] : vector<2x4xi1>
  vector.print %cm : vector<2x4xi1>
  vector.print %k : i32 punctuation <comma>
  vector.print %x : f32 punctuation <no_punctuation>
  vector.print
  vector.print str "done\n"
  return
}
