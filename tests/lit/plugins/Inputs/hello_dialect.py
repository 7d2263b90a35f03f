"""A dialect plugin: `hello.world`, an op with no operands, and a pass that counts them."""

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.passes import ModulePass


@irdl_op_definition
class WorldOp(IRDLOperation):
    name = "hello.world"
    assembly_format = "attr-dict"


Hello = Dialect("hello", [WorldOp], [])


@dataclass(frozen=True)
class CountWorldsPass(ModulePass):
    """Give the module the attribute `hello.worlds`: how many hello.world ops it holds."""

    name = "count-worlds"

    def apply(self, ctx, op) -> None:
        op.attributes["hello.worlds"] = IntegerAttr(sum(isinstance(o, WorldOp) for o in op.walk()), i64)
