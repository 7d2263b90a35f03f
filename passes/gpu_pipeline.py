"""`gpu-pipeline`: gpuir's default pipeline, the GPU phases in the order of MimIR's `opt`
(reference §4).

`GPU_PIPELINE` is the list of stages; `gpu-run` runs the same list. Each stage is looked up by
name in `gpuir.passes.get_all_passes()` when the pipeline runs, so this module imports no pass
itself. The options `host-pipeline` and `device-pipeline` go to `split-apply`, the last stage.
The stages run through the pass manager (`gpuir.ir.pass_manager.run_passes`), so that IR
printing, timing, statistics and reproducers see each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from gpuir.ir.pass_manager import run_passes
from gpuir.ir.pipelines import GPU_PIPELINE
from gpuir.passes import get_all_passes
from gpuir.passes.split_apply import SplitApplyPass


@dataclass(frozen=True)
class GpuPipelinePass(ModulePass):
    """Run gpuir's default pipeline: its stages (docs/pipelines.md) in order, `split-apply`
    last with this pass's sub-pipelines."""

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
        run_passes(ctx, op, self.stages())
