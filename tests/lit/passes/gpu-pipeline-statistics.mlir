// RUN: gpu-opt %s -p gpu-pipeline --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s
// RUN: gpu-opt %S/../../../examples/scoped-sync.mlir -p gpu-pipeline --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=KERNEL

// gpu-pipeline's statistics: each stage's under it, split-apply's sub-pipelines nested in
// split-apply. This program is the map-reduce half: a map fused into its consumer, two kernels
// in two sessions that merge-init-deinit merges (only a host print between them), and the
// buffers lowered to pointers. scoped-sync.mlir is the kernel half: two synced scopes
// expanded, a kernel whose barriers every work-item passes the same way (not walked for
// barrier divergence), a host allocation of global memory
// rewritten on @host and the barriers the scopes leave back to back removed on @device.

// CHECK:       {{^}}GpuPipeline
// CHECK-NEXT:    FuseMapReduce
// CHECK-NEXT:      (S) 1 num-map-reduces-fused - Number of map-reduces fused into their consumer
// CHECK-NEXT:    LowerBTensorMapReduce
// CHECK-NEXT:      (S) 2 num-kernels-outlined       - Number of map-reduces outlined into kernels
// CHECK-NEXT:      (S) 0 num-left-on-cpu            - Number of map-reduces left to the CPU path
// CHECK-NEXT:      (S) 0 num-outputs-kept-on-device - Number of outputs that later kernels read on the device
// CHECK-NEXT:      (S) 2 num-sessions-opened        - Number of device sessions opened
// CHECK-NEXT:    MergeInitDeinit
// CHECK-NEXT:      (S) 1 num-sessions-merged - Number of device sessions merged into the previous one
// CHECK-NEXT:    BTensorLowerMapReduce
// CHECK-NEXT:      (S) 0 num-map-reduces-lowered - Number of map-reduces lowered to loop nests
// CHECK-NEXT:    ExpandGpuComposites
// CHECK-NEXT:      (S) 0 num-alloc-copy-asyn-expanded  - Number of gpu.alloc_copy.asyn ops expanded
// CHECK-NEXT:      (S) 0 num-alloc-copy-block-expanded - Number of gpu.alloc_copy.block ops expanded
// CHECK-NEXT:      (S) 0 num-synced-scopes-expanded    - Number of gpu.synced_scope ops expanded
// CHECK-NEXT:      (S) 0 num-with-streams-expanded     - Number of gpu.with_streams ops expanded
// CHECK-NEXT:    MemChecks
// CHECK-NEXT:      (S) 1 num-entry-points-checked - Number of @main signatures checked
// CHECK-NEXT:      (S) 2 num-launches-checked     - Number of gpu.launch ops checked
// CHECK-NEXT:    BufferLowerPtr
// CHECK-NEXT:      (S) 5 num-buffer-ops-lowered   - Number of buffer ops lowered to mem ops
// CHECK-NEXT:      (S) 4 num-transfers-lowered    - Number of gpu.buf_* transfers lowered to pointer transfers
// CHECK-NEXT:      (S) 0 num-view-accesses-folded - Number of view accesses rewritten to their buffer
// CHECK-NEXT:      (S) 0 num-view-loops-expanded  - Number of copies and prints of views expanded into loops
// CHECK-NEXT:      (S) 0 num-views-erased         - Number of view ops erased
// CHECK-NEXT:    CheckAddrSpaces
// CHECK-NEXT:      (S) 21 num-ops-checked - Number of heap, slot and store ops checked
// CHECK-NEXT:    CheckTokens
// CHECK-NEXT:      (S) 90 num-tokens-checked      - Number of memory tokens checked
// CHECK-NEXT:      (S)  2 num-tokens-forked       - Number of tokens used twice, or again in a loop, followed
// CHECK-NEXT:      (S)  0 num-unordered-conflicts - Number of forks that leave conflicting effects unordered
// CHECK-NEXT:    CheckBarrierDivergence
// CHECK-NEXT:      (S) 2 num-launches-checked - Number of launches in @main's entry block checked
// CHECK-NEXT:      (S) 0 num-launches-uniform - Number of launches whose kernel's barriers no branch decides (not walked)
// CHECK-NEXT:      (S) 0 num-launches-walked  - Number of launches whose kernel was walked work-item by work-item
// CHECK-NEXT:    SplitApply
// CHECK-NEXT:      (S) 0 num-functions-copied    - Number of functions copied into @host as well as @device
// CHECK-NEXT:      (S) 2 num-functions-to-device - Number of functions moved into @device
// CHECK-NEXT:      (S) 2 num-launches-retargeted - Number of launches pointed at their kernel in @device
// CHECK-NEXT:      (S) 1 num-modules-split       - Number of modules split into @host and @device
// CHECK-NEXT:      (S) 1 num-ops-to-host         - Number of top-level ops moved into @host
// CHECK-NEXT:      'builtin.module' Pipeline @host
// CHECK-NEXT:        HostMallocToGpuAlloc
// CHECK-NEXT:          (S) 0 num-allocs-rewritten  - Number of mem.alloc ops made gpu.alloc.block
// CHECK-NEXT:          (S) 0 num-frees-rewritten   - Number of mem.free ops made gpu.free.block
// CHECK-NEXT:          (S) 0 num-mallocs-rewritten - Number of mem.malloc ops made gpu.alloc.block
// CHECK-NEXT:      'builtin.module' Pipeline @device
// CHECK-NEXT:        RemoveDoubleSyncs
// CHECK-NEXT:          (S) 0 num-barriers-removed - Number of redundant barriers removed

// KERNEL:      {{^}}GpuPipeline
// KERNEL-NEXT:   FuseMapReduce
// KERNEL-NEXT:     (S) 0 num-map-reduces-fused - Number of map-reduces fused into their consumer
// KERNEL-NEXT:   LowerBTensorMapReduce
// KERNEL-NEXT:     (S) 0 num-kernels-outlined       - Number of map-reduces outlined into kernels
// KERNEL-NEXT:     (S) 0 num-left-on-cpu            - Number of map-reduces left to the CPU path
// KERNEL-NEXT:     (S) 0 num-outputs-kept-on-device - Number of outputs that later kernels read on the device
// KERNEL-NEXT:     (S) 0 num-sessions-opened        - Number of device sessions opened
// KERNEL-NEXT:   MergeInitDeinit
// KERNEL-NEXT:     (S) 0 num-sessions-merged - Number of device sessions merged into the previous one
// KERNEL-NEXT:   BTensorLowerMapReduce
// KERNEL-NEXT:     (S) 0 num-map-reduces-lowered - Number of map-reduces lowered to loop nests
// KERNEL-NEXT:   ExpandGpuComposites
// KERNEL-NEXT:     (S) 0 num-alloc-copy-asyn-expanded  - Number of gpu.alloc_copy.asyn ops expanded
// KERNEL-NEXT:     (S) 0 num-alloc-copy-block-expanded - Number of gpu.alloc_copy.block ops expanded
// KERNEL-NEXT:     (S) 2 num-synced-scopes-expanded    - Number of gpu.synced_scope ops expanded
// KERNEL-NEXT:     (S) 0 num-with-streams-expanded     - Number of gpu.with_streams ops expanded
// KERNEL-NEXT:   MemChecks
// KERNEL-NEXT:     (S) 1 num-entry-points-checked - Number of @main signatures checked
// KERNEL-NEXT:     (S) 1 num-launches-checked     - Number of gpu.launch ops checked
// KERNEL-NEXT:   BufferLowerPtr
// KERNEL-NEXT:     (S) 0 num-buffer-ops-lowered   - Number of buffer ops lowered to mem ops
// KERNEL-NEXT:     (S) 0 num-transfers-lowered    - Number of gpu.buf_* transfers lowered to pointer transfers
// KERNEL-NEXT:     (S) 0 num-view-accesses-folded - Number of view accesses rewritten to their buffer
// KERNEL-NEXT:     (S) 0 num-view-loops-expanded  - Number of copies and prints of views expanded into loops
// KERNEL-NEXT:     (S) 0 num-views-erased         - Number of view ops erased
// KERNEL-NEXT:   CheckAddrSpaces
// KERNEL-NEXT:     (S) 11 num-ops-checked - Number of heap, slot and store ops checked
// KERNEL-NEXT:   CheckTokens
// KERNEL-NEXT:     (S) 41 num-tokens-checked      - Number of memory tokens checked
// KERNEL-NEXT:     (S)  1 num-tokens-forked       - Number of tokens used twice, or again in a loop, followed
// KERNEL-NEXT:     (S)  0 num-unordered-conflicts - Number of forks that leave conflicting effects unordered
// KERNEL-NEXT:   CheckBarrierDivergence
// KERNEL-NEXT:     (S) 1 num-launches-checked - Number of launches in @main's entry block checked
// KERNEL-NEXT:     (S) 1 num-launches-uniform - Number of launches whose kernel's barriers no branch decides (not walked)
// KERNEL-NEXT:     (S) 0 num-launches-walked  - Number of launches whose kernel was walked work-item by work-item
// KERNEL-NEXT:   SplitApply
// KERNEL-NEXT:     (S) 0 num-functions-copied    - Number of functions copied into @host as well as @device
// KERNEL-NEXT:     (S) 1 num-functions-to-device - Number of functions moved into @device
// KERNEL-NEXT:     (S) 1 num-launches-retargeted - Number of launches pointed at their kernel in @device
// KERNEL-NEXT:     (S) 1 num-modules-split       - Number of modules split into @host and @device
// KERNEL-NEXT:     (S) 1 num-ops-to-host         - Number of top-level ops moved into @host
// KERNEL-NEXT:     'builtin.module' Pipeline @host
// KERNEL-NEXT:       HostMallocToGpuAlloc
// KERNEL-NEXT:         (S) 1 num-allocs-rewritten  - Number of mem.alloc ops made gpu.alloc.block
// KERNEL-NEXT:         (S) 1 num-frees-rewritten   - Number of mem.free ops made gpu.free.block
// KERNEL-NEXT:         (S) 0 num-mallocs-rewritten - Number of mem.malloc ops made gpu.alloc.block
// KERNEL-NEXT:     'builtin.module' Pipeline @device
// KERNEL-NEXT:       RemoveDoubleSyncs
// KERNEL-NEXT:         (S) 2 num-barriers-removed - Number of redundant barriers removed

// %y fuses into %z's op; %z's kernel and %s's (which reads %x transposed) each open a session,
// and the second session merges into the first across the host's buffer.print.
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m1, %x = buffer.init %m dense<[[0.0, 1.0, 2.0, 3.0], [-1.0, -2.5, 0.5, 0.1]]> : tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %m2, %y = btensor.map_reduce %m1 ins(%x : !buffer.buf<2x4xf32>) init(%zero : f32)
      {out_rank = 2 : i64, shape = array<i64: 2, 4>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      btensor.yield %r : f32
  } : !buffer.buf<2x4xf32>
  %m3, %z = btensor.map_reduce %m2 ins(%y, %x : !buffer.buf<2x4xf32>, !buffer.buf<2x4xf32>)
      init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 2, 4>,
      maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %u: f32, %v: f32):
      %p = arith.addf %u, %v : f32
      btensor.yield %p : f32
  } : !buffer.buf<2x4xf32>
  %m4 = buffer.print %m3, %z : !buffer.buf<2x4xf32>
  %t = buffer.transpose %x [1, 0] : !buffer.buf<2x4xf32> to !buffer.buf<4x2xf32, strided<[1, 4]>>
  %m5, %s = btensor.map_reduce %m4 ins(%t : !buffer.buf<4x2xf32, strided<[1, 4]>>) init(%zero : f32)
      {out_rank = 1 : i64, shape = array<i64: 4, 2>, maps = [affine_map<(i, j) -> (i, j)>],
      out_map = affine_map<(i) -> (i)>} combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      btensor.yield %r : f32
  } : !buffer.buf<4xf32>
  %m6 = buffer.print %m5, %s : !buffer.buf<4xf32>
  func.return %m6 : !mem.M<0>
}
