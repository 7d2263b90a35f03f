// RUN: gpu-opt %S/../../../../examples/array.mlir -p gpu-pipeline --print-ir-after-all 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %S/../../../../examples/array.mlir -p gpu-pipeline --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s
// RUN: gpu-opt %S/../../../../examples/array.mlir -p gpu-pipeline --print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=OUT

// --mlir-print-ir-after-all (and its older spelling --print-ir-after-all) prints the IR after
// each pass to stderr with MLIR's header (stdout keeps the result, so that it still parses):
// each stage of gpu-pipeline in the order of docs/pipelines.md, the passes of split-apply's
// sub-pipelines on the module they run on, then gpu-pipeline itself.
// CHECK:      // -----// IR Dump After FuseMapReduce (fuse-map-reduce) //----- //
// CHECK-NEXT: builtin.module {
// CHECK:      // -----// IR Dump After LowerBTensorMapReduce (lower-btensor-map-reduce) //----- //
// CHECK:      // -----// IR Dump After MergeInitDeinit (merge-init-deinit) //----- //
// CHECK:      // -----// IR Dump After BTensorLowerMapReduce (btensor-lower-map-reduce) //----- //
// CHECK:      // -----// IR Dump After ExpandGpuComposites (expand-gpu-composites) //----- //
// CHECK:      // -----// IR Dump After MemChecks (mem-checks) //----- //
// CHECK:      // -----// IR Dump After BufferLowerPtr (buffer-lower-ptr) //----- //
// CHECK:      // -----// IR Dump After CheckAddrSpaces (check-addr-spaces) //----- //
// CHECK:      // -----// IR Dump After CheckTokens (check-tokens) //----- //
// CHECK:      // -----// IR Dump After CheckBarrierDivergence (check-barrier-divergence) //----- //
// CHECK:      // -----// IR Dump After HostMallocToGpuAlloc (host-malloc-to-gpualloc) //----- //
// CHECK-NEXT: builtin.module @host {
// CHECK:      // -----// IR Dump After RemoveDoubleSyncs (remove-double-syncs) //----- //
// CHECK-NEXT: builtin.module @device attributes {gpu.device} {
// CHECK:      // -----// IR Dump After SplitApply (split-apply) //----- //
// CHECK:        builtin.module @device attributes {gpu.device} {
// CHECK:      // -----// IR Dump After GpuPipeline (gpu-pipeline) //----- //
// OUT-NOT:    IR Dump
// OUT:        builtin.module @host {
