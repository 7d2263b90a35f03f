"""The matrix ops (`gpu.mma_load`, `mma_store`, `mma_compute`, `mma_constant`,
`mma_elementwise`) on the cpu provider: not lowered yet. `cpu-workgroup-loops` refuses a kernel
that holds one, with an error at the op that names it, before any form sees it; interp runs
them, and the NVPTX lowering makes them `wmma` (docs/ir-extensions.md, "Matrix ops")."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from gpuir.dialects import gpu
from gpuir.ir.diagnostics import OpError

CPU_MMA_OPS = (
    gpu.MmaLoadOp,
    gpu.MmaStoreOp,
    gpu.MmaComputeOp,
    gpu.MmaConstantOp,
    gpu.MmaElementwiseOp,
)


def refuse_mma(module: ModuleOp) -> None:
    """An error at the first matrix op of `module`, if it has one."""
    for op in module.walk():
        if isinstance(op, CPU_MMA_OPS):
            raise OpError(
                op,
                f"'{op.name}' does not run on the cpu provider (yet): the matrix ops run on "
                "--provider interp, and compile to wmma for NVPTX",
            )
