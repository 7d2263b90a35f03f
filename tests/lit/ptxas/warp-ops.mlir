// RUN: gpu-opt %S/../run/warp-ops.mlir -p gpu-pipeline -t 'ptx{sm=80}' > %t.ops.ptx
// RUN: ptxas -arch=sm_80 %t.ops.ptx -o %t.ops.cubin
// RUN: filecheck %s --input-file %t.ops.ptx
// RUN: gpu-opt %S/../run/warp-shuffle-types.mlir -p gpu-pipeline -t 'ptx{sm=90}' > %t.types.ptx
// RUN: ptxas -arch=sm_90 %t.types.ptx -o %t.types.cubin
// RUN: gpu-opt %S/../run/warp-shuffle-types.mlir -p gpu-pipeline -t 'ptx{sm=80 index-bitwidth=32}' > %t.32.ptx
// RUN: ptxas -arch=sm_80 %t.32.ptx -o %t.32.cubin
// RUN: gpu-opt %S/../run/block-reduce.mlir -p gpu-pipeline -t 'ptx{sm=80}' > %t.block.ptx
// RUN: ptxas -arch=sm_80 %t.block.ptx -o %t.block.cubin
// RUN: gpu-opt %S/../run/warp-divergence.mlir -p gpu-pipeline -t 'ptx{sm=90}' > %t.div.ptx
// RUN: ptxas -arch=sm_90 %t.div.ptx -o %t.div.cubin

// The warp operations' PTX (shuffles of 32 and 64 bits, ballots, the lane id, under the mask of
// the warp's existing lanes) assembles for sm_80 and sm_90, with 64- and 32-bit index values.
// CHECK-DAG: shfl.sync.idx.b32
// CHECK-DAG: vote.sync.ballot.b32
// CHECK-DAG: %laneid
