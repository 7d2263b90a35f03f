"""What the ops of gpuir's dialects share: the terminator that yields a region's values
(`gpu.yield`, `btensor.yield`), the checks of a region's arguments and of a value's type, and
the parser's check of a type's kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.ir import Attribute, Block, SSAValue
from xdsl.irdl import IRDLOperation, var_operand_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

AttributeT = TypeVar("AttributeT", bound=Attribute)


def parse_type_of(parser: Parser, kind: type[AttributeT], what: str) -> AttributeT:
    """A type of the class `kind`; any other is a parse error at it (`expected a {what} type,
    found …`)."""
    pos = parser.pos
    type_ = parser.parse_type()
    if not isinstance(type_, kind):
        parser.raise_error(f"expected a {what} type, found {type_}", pos, parser.pos)
    return type_


class YieldingOp(IRDLOperation):
    """A terminator that yields its operands, `… %a, %b : T1, T2`; each dialect's op gives
    its name and traits (`IsTerminator`, the ops it may end)."""

    values = var_operand_def()

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def types_text(types: Sequence[Attribute]) -> str:
    """`(T1, T2)`."""
    return f"({', '.join(map(str, types))})"


def expect_type(op: IRDLOperation, what: str, found: Attribute, expected: Attribute) -> None:
    """Check that `op`'s `what` (`result`, `token result`) is of the type `expected`."""
    if found != expected:
        raise VerifyException(f"'{op.name}' expects its {what} to be {expected}, found {found}")


def expect_block_args(
    op: IRDLOperation, what: str, block: Block, arg_types: Sequence[Attribute]
) -> None:
    """Check that `block` (of `op`'s region `what`) takes arguments of `arg_types`."""
    found = tuple(arg.type for arg in block.args)
    if found != tuple(arg_types):
        raise VerifyException(
            f"'{op.name}' expects its {what} to take {types_text(arg_types)}, "
            f"found {types_text(found)}"
        )
