"""A pass that crashes, for gpu-reduce's tests: `crash-on-subf` raises on any `arith.subf` in a
kernel (a function that a `gpu.launch` names), as a pass with a bug would."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from gpuir.dialects.gpu import LaunchOp


@dataclass(frozen=True)
class CrashOnSubfPass(ModulePass):
    """Crash on an arith.subf in a launched kernel (a bug, for gpu-reduce's tests)."""

    name = "crash-on-subf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = {
            launch.kernel.string_value() for launch in op.walk() if isinstance(launch, LaunchOp)
        }
        for func in op.walk():
            if func.name != "func.func" or func.properties["sym_name"].data not in kernels:
                continue
            if any(inner.name == "arith.subf" for inner in func.walk()):
                raise RuntimeError("arith.subf in a kernel")
