// An upstream MLIR GPU program through gpuir's NVPTX lowering: the kernels imported from its
// two gpu.launch regions (gpu.all_reduce; gpu.shuffle and gpu.printf) become PTX that ptxas
// assembles.
// RUN: gpu-opt %S/../upstream/collectives.mlir -t 'ptx{sm=90}' > %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: filecheck %s < %t.ptx
// gpu.subgroup_reduce as shuffles (gpuir's NVPTX lowering makes every mode an idx shuffle from
// the lane it computes):
// RUN: gpu-opt %S/../upstream/subgroup-reduce.mlir -t 'ptx{sm=80}' > %t.subgroup.ptx
// RUN: ptxas -arch=sm_80 %t.subgroup.ptx -o %t.subgroup.cubin
// RUN: filecheck %s --check-prefix=SUBGROUP < %t.subgroup.ptx
// SUBGROUP: .entry reduce(
// SUBGROUP: shfl.sync.idx.b32
// gpu.all_reduce and gpu.subgroup_reduce of minnumf, maxnumf, minimumf and maximumf on f32, f16
// and f64 (minnumf and maxnumf reduce integer keys; f16 is shuffled as i32), and of i8 and i16:
// RUN: gpu-opt %S/../upstream/all-reduce-nan.mlir -t 'ptx{sm=80}' > %t.all-nan.ptx
// RUN: ptxas -arch=sm_80 %t.all-nan.ptx -o %t.all-nan.cubin
// RUN: gpu-opt %S/../upstream/subgroup-reduce-nan.mlir -t 'ptx{sm=80}' > %t.subgroup-nan.ptx
// RUN: ptxas -arch=sm_80 %t.subgroup-nan.ptx -o %t.subgroup-nan.cubin
// RUN: gpu-opt %S/../upstream/subgroup-reduce-narrow.mlir -t 'ptx{sm=80}' > %t.narrow.ptx
// RUN: ptxas -arch=sm_80 %t.narrow.ptx -o %t.narrow.cubin
// gpu.printf with C conversions (widths, flags, %x, %c, floats): the kernel writes its values
// into the print buffer, which the host formats; the conversions are in the module's formats:
// RUN: gpu-opt %S/../upstream/printf-formats.mlir -t 'ptx{sm=80}' > %t.printf.ptx
// RUN: ptxas -arch=sm_80 %t.printf.ptx -o %t.printf.cubin
// RUN: filecheck %s --check-prefix=PRINTF < %t.printf.ptx
// PRINTF: .entry formats(
// PRINTF: atom.global.add.u64

// CHECK: .entry launch_kernel(
// CHECK: bar.sync
// CHECK: .entry launch_kernel_1(
// CHECK: shfl.sync.idx.b32
// CHECK: [__gpuir_print_cursor]
