"""A pass plugin (docs/plugins.md): `count-launches` gives the module it runs on the attribute
`count.launches`, the number of `gpu.launch` ops in it."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass

from gpuir.dialects.gpu import LaunchOp


@dataclass(frozen=True)
class CountLaunchesPass(ModulePass):
    """Give the module the attribute `count.launches`: how many gpu.launch ops it holds."""

    name = "count-launches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        launches = sum(isinstance(inner, LaunchOp) for inner in op.walk())
        op.attributes["count.launches"] = IntegerAttr(launches, i64)
