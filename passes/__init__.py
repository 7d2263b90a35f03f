"""gpuir's passes, one per file; `get_all_passes()` lists them, and importing this package adds
them to the one registry of passes (`gpuir.ir.registry`).

Each entry imports its pass on first use, so that gpu-opt starts fast.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass

from gpuir.ir.registry import register_pass_group


def get_check_addr_spaces() -> type[ModulePass]:
    from gpuir.passes.checks.check_addr_spaces import CheckAddrSpacesPass

    return CheckAddrSpacesPass


def get_host_malloc_to_gpualloc() -> type[ModulePass]:
    from gpuir.passes.host_malloc_to_gpualloc import HostMallocToGpuAllocPass

    return HostMallocToGpuAllocPass


def get_mem_checks() -> type[ModulePass]:
    from gpuir.passes.checks.mem_checks import MemChecksPass

    return MemChecksPass


def get_remove_double_syncs() -> type[ModulePass]:
    from gpuir.passes.remove_double_syncs import RemoveDoubleSyncsPass

    return RemoveDoubleSyncsPass


def get_expand_gpu_composites() -> type[ModulePass]:
    from gpuir.passes.expand_gpu_composites import ExpandGpuCompositesPass

    return ExpandGpuCompositesPass


def get_split_apply() -> type[ModulePass]:
    from gpuir.passes.split_apply import SplitApplyPass

    return SplitApplyPass


def get_lower_btensor_map_reduce() -> type[ModulePass]:
    from gpuir.passes.lower_btensor_map_reduce import LowerBTensorMapReducePass

    return LowerBTensorMapReducePass


def get_fuse_map_reduce() -> type[ModulePass]:
    from gpuir.passes.fuse_map_reduce import FuseMapReducePass

    return FuseMapReducePass


def get_merge_init_deinit() -> type[ModulePass]:
    from gpuir.passes.merge_init_deinit import MergeInitDeinitPass

    return MergeInitDeinitPass


def get_btensor_lower_map_reduce() -> type[ModulePass]:
    from gpuir.passes.btensor_lower_map_reduce import BTensorLowerMapReducePass

    return BTensorLowerMapReducePass


def get_buffer_lower_ptr() -> type[ModulePass]:
    from gpuir.passes.buffer_lower_ptr import BufferLowerPtrPass

    return BufferLowerPtrPass


def get_check_barrier_divergence() -> type[ModulePass]:
    from gpuir.passes.checks.check_barrier_divergence import CheckBarrierDivergencePass

    return CheckBarrierDivergencePass


def get_check_tokens() -> type[ModulePass]:
    from gpuir.passes.checks.check_tokens import CheckTokensPass

    return CheckTokensPass


def get_gpu_pipeline() -> type[ModulePass]:
    from gpuir.passes.gpu_pipeline import GpuPipelinePass

    return GpuPipelinePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Our passes by CLI name; each value imports and returns the pass class."""
    return {
        "check-addr-spaces": get_check_addr_spaces,
        "host-malloc-to-gpualloc": get_host_malloc_to_gpualloc,
        "mem-checks": get_mem_checks,
        "remove-double-syncs": get_remove_double_syncs,
        "expand-gpu-composites": get_expand_gpu_composites,
        "split-apply": get_split_apply,
        "fuse-map-reduce": get_fuse_map_reduce,
        "lower-btensor-map-reduce": get_lower_btensor_map_reduce,
        "merge-init-deinit": get_merge_init_deinit,
        "btensor-lower-map-reduce": get_btensor_lower_map_reduce,
        "buffer-lower-ptr": get_buffer_lower_ptr,
        "check-barrier-divergence": get_check_barrier_divergence,
        "check-tokens": get_check_tokens,
        "gpu-pipeline": get_gpu_pipeline,
    }


register_pass_group("gpuir.passes", get_all_passes)
