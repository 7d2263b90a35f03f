"""gpuir's passes, one per file; `get_all_passes()` lists them, and importing this package adds
them to the one registry of passes (`gpuir.ir.registry`).

Each entry (`PASSES`: name → `module:Class`) imports its pass on first use (`gpuir.ir.lazy`),
so that gpu-opt starts fast.
"""

from gpuir.ir.lazy import lazy_group
from gpuir.ir.registry import register_pass_group

PASSES: dict[str, str] = {
    "check-addr-spaces": "gpuir.passes.checks.check_addr_spaces:CheckAddrSpacesPass",
    "host-malloc-to-gpualloc": "gpuir.passes.host_malloc_to_gpualloc:HostMallocToGpuAllocPass",
    "mem-checks": "gpuir.passes.checks.mem_checks:MemChecksPass",
    "remove-double-syncs": "gpuir.passes.remove_double_syncs:RemoveDoubleSyncsPass",
    "expand-gpu-composites": "gpuir.passes.expand_gpu_composites:ExpandGpuCompositesPass",
    "split-apply": "gpuir.passes.split_apply:SplitApplyPass",
    "fuse-map-reduce": "gpuir.passes.fuse_map_reduce:FuseMapReducePass",
    "lower-btensor-map-reduce": "gpuir.passes.lower_btensor_map_reduce:LowerBTensorMapReducePass",
    "merge-init-deinit": "gpuir.passes.merge_init_deinit:MergeInitDeinitPass",
    "btensor-lower-map-reduce": "gpuir.passes.btensor_lower_map_reduce:BTensorLowerMapReducePass",
    "buffer-lower-ptr": "gpuir.passes.buffer_lower_ptr:BufferLowerPtrPass",
    "check-barrier-divergence": "gpuir.passes.checks.check_barrier_divergence:CheckBarrierDivergencePass",
    "check-tokens": "gpuir.passes.checks.check_tokens:CheckTokensPass",
    "gpu-pipeline": "gpuir.passes.gpu_pipeline:GpuPipelinePass",
}


get_all_passes = lazy_group(PASSES)
"""Our passes by CLI name; each value imports and returns the pass class."""


register_pass_group("gpuir.passes", get_all_passes)
