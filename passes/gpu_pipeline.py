"""`gpu-pipeline`: gpuir's default pipeline, the GPU phases in the order of MimIR's `opt`
(reference §4).

`GPU_PIPELINE` is the list of stages; `gpu-run` runs the same list. Each stage is looked up by
name in `gpuir.passes.get_all_passes()` when the pipeline runs, so this module imports no pass
itself. The options `host-pipeline` and `device-pipeline` go to `split-apply`, the last stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from gpuir.passes import get_all_passes
from gpuir.passes.split_apply import SplitApplyPass

GPU_PIPELINE: tuple[str, ...] = (
    "fuse-map-reduce",  # a chain of elementwise maps → one map-reduce, bit for bit the same
    "lower-btensor-map-reduce",  # btensor.map_reduce(_post) → a kernel launch, when it can
    "merge-init-deinit",  # back-to-back compiler-created sessions → one
    "btensor-lower-map-reduce",  # the rest → loops over buffers (the CPU path)
    "expand-gpu-composites",  # alloc_copy, with_streams, synced_scope → their definitions
    "mem-checks",  # no token across the device boundary, none in main's signature
    "buffer-lower-ptr",  # !buffer.buf → pointers to nested arrays
    "check-addr-spaces",  # no heap, slot or store op where its address space lacks it
    "split-apply",  # @host and @device, then a sub-pipeline on each
)


@dataclass(frozen=True)
class GpuPipelinePass(ModulePass):
    """Run the stages of `GPU_PIPELINE` in order."""

    name = "gpu-pipeline"

    host_pipeline: str = SplitApplyPass.host_pipeline
    device_pipeline: str = SplitApplyPass.device_pipeline

    def stages(self) -> tuple[ModulePass, ...]:
        """The stages as passes, `split-apply` with this pipeline's options."""
        passes = get_all_passes()
        stages: list[ModulePass] = []
        for name in GPU_PIPELINE:
            if name == SplitApplyPass.name:
                stages.append(SplitApplyPass(self.host_pipeline, self.device_pipeline))
            else:
                stages.append(passes[name]()())
        return tuple(stages)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in self.stages():
            stage.apply(ctx, op)
