"""What the ops of the `gpu` dialect share: the stream type, the token types, and the
verifier helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    TypeAttribute,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.buffer import BufType
from gpuir.dialects.common import expect_block_args, types_text
from gpuir.dialects.mem import (
    CONST,
    GLOBAL,
    HOST,
    LOCAL,
    SHARED,
    ArrayType,
    MemType,
    PtrType,
)


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.stream`: an ordered queue of device work."""

    name = "gpu.stream"


M0, M1, M3, M4, M5 = (MemType(a) for a in (HOST, GLOBAL, SHARED, CONST, LOCAL))
STREAM = StreamType()
KERNEL_TOKENS = (M1, M3, M4, M5)
WORKGROUP_FUNCTION_ATTR = "gpu.workgroup"
"""The attribute of a kernel that `cpu-workgroup-loops` made a work-group function; a launch
of it passes its arguments after the `WORKGROUP_PREFIX` parameters (tokens, group, n_items,
shared memory, dynamic shared memory)."""
WORKGROUP_PREFIX = 8


def expect_ptr(op: IRDLOperation, value: SSAValue, space: int, what: str) -> PtrType:
    """The type of `value`, checked to be a pointer into `space`."""
    ptr = value.type
    if not isinstance(ptr, PtrType) or ptr.space.data != space:
        raise VerifyException(
            f"'{op.name}' expects the {what} to be a !mem.ptr in address space {space}, found {ptr}"
        )
    return ptr


def expect_same_pointee(
    op: IRDLOperation, a: PtrType, b: PtrType, what: str = "source and destination"
) -> None:
    if a.pointee != b.pointee:
        raise VerifyException(
            f"'{op.name}' expects {what} of the same pointee type, "
            f"found {a.pointee} and {b.pointee}"
        )


def buffer_array_type(buf: BufType) -> Attribute:
    """The nested `!mem.array` a buffer of this type lowers to (outermost dimension first);
    for a rank-0 buffer, its element type."""
    element: Attribute = buf.element_type
    for extent in reversed(buf.get_shape()):
        element = ArrayType(extent, element)
    return element


def expect_region_signature(
    op: IRDLOperation,
    region: Region,
    arg_types: Sequence[Attribute],
    yield_types: Sequence[Attribute],
) -> None:
    """Check a single-block region's arguments and the types its `gpu.yield` returns."""
    block = region.block
    expect_block_args(op, "region", block, arg_types)
    last = block.last_op
    if last is None or last.name != "gpu.yield":  # YieldOp (device.py) names both holders
        raise VerifyException(f"'{op.name}' expects its region to end in gpu.yield")
    yielded = tuple(last.operand_types)
    if yielded != tuple(yield_types):
        raise VerifyException(
            f"'{op.name}' expects its region to yield {types_text(yield_types)}, "
            f"found {types_text(yielded)}"
        )


def parse_operands_of(parser: Parser, types: Sequence[Attribute]) -> list[SSAValue]:
    """`%a, %b, …`: one operand of each of `types`, in order."""
    operands: list[SSAValue] = []
    for i, type_ in enumerate(types):
        if i:
            parser.parse_punctuation(",")
        operands.append(parser.parse_operand(type_))
    return operands


class TokenRegionOp(IRDLOperation):
    """The custom syntax of the ops that run their region on their tokens (`gpu.with_streams`,
    `gpu.synced_scope`): the tokens (of the types `TOKENS`), what `parse_extra` reads and
    `print_extra` writes (`count 2`), `attributes {…}`, and the region with its arguments. The
    op is built as `cls(*tokens, *extra, region)`."""

    TOKENS: ClassVar[tuple[Attribute, ...]]

    @classmethod
    def parse_extra(cls, parser: Parser) -> tuple[object, ...]:
        return ()

    def print_extra(self, printer: Printer) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> TokenRegionOp:
        tokens = parse_operands_of(parser, cls.TOKENS)
        extra = cls.parse_extra(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(*tokens, *extra, parser.parse_region())
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        self.print_extra(printer)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.regions[0], print_entry_block_args=True)


def constant_int(value: SSAValue) -> int | None:
    """The signed value of an integer `value` that an `arith.constant` defines; None for any
    other value."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name != "arith.constant":
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
        return None
    width = attr.type.width.data
    n = attr.value.data & ((1 << width) - 1)
    return n - (1 << width) if n >> (width - 1) else n
