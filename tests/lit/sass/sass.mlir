// gpu-opt -t sass: a kernel's machine code for the chosen architecture, through ptxas and
// nvdisasm. The kernel scales a buffer by a float: SASS loads it (LDG), multiplies (FMUL) and
// stores it (STG) under the bound check (ISETP, a predicated EXIT or branch).
// RUN: gpu-opt %s -t 'sass{sm=80}' | filecheck %s --check-prefixes=CHECK,SM80
// RUN: gpu-opt %s -t 'sass{sm=90 opt=2}' | filecheck %s --check-prefixes=CHECK,SM90
// print-commands: ptxas's and nvdisasm's command lines, and ptxas's log, on stderr:
// RUN: gpu-opt %s -t 'sass{sm=80 ptxas-options="-v --maxrregcount=32" print-commands=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=COMMANDS
// Options are checked before any work:
// RUN: not gpu-opt %s -t 'sass{ptxas-options="-arch=sm_90"}' 2>&1 | filecheck %s --check-prefix=BAD-ARCH
// RUN: not gpu-opt %s -t 'sass{print-commands=1}' 2>&1 | filecheck %s --check-prefix=BAD-FLAG

// SM80:  .target sm_80
// SM90:  .target sm_90
// CHECK: .text.scale:
// CHECK: S2R R{{[0-9]+}}, SR_TID.X
// CHECK: LDG.E
// CHECK: FMUL
// CHECK: STG.E
// CHECK: EXIT

// COMMANDS:      ptxas -arch sm_80 -v --maxrregcount=32 -o {{.*}}.cubin {{.*}}.ptx
// COMMANDS-NEXT: ptxas info
// COMMANDS:      Compiling entry function 'scale' for 'sm_80'
// COMMANDS:      Used {{[0-9]+}} registers
// COMMANDS:      nvdisasm -c {{.*}}.cubin

// BAD-ARCH: ptxas-options cannot hold -arch=sm_90: the target gives ptxas the architecture (sm) and the files
// BAD-FLAG: gpu-opt: error: bad target 'sass{print-commands=1}': Incompatible types: given (1,), expected <class 'bool'>

gpu.module @lib {
  gpu.func @scale(%buf: memref<?xf32>, %k: f32) kernel {
    %c0 = arith.constant 0 : index
    %i = gpu.thread_id x
    %n = memref.dim %buf, %c0 : memref<?xf32>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %buf[%i] : memref<?xf32>
      %w = arith.mulf %v, %k : f32
      memref.store %w, %buf[%i] : memref<?xf32>
    }
    gpu.return
  }
}
