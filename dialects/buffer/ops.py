"""The `buffer` ops that make, read, write, copy and print buffers (each threads `!mem.M<0>`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.buffer.types import M0, BufType
from gpuir.dialects.common import parse_type_of


def expect_static(op: IRDLOperation, buf: Attribute) -> BufType:
    assert isinstance(buf, BufType)
    expect_dense(op, buf)
    if buf.dynamic_dims:
        raise VerifyException(f"'{op.name}' needs a buffer of static shape, found {buf}")
    return buf


def expect_dense(op: IRDLOperation, buf: BufType) -> None:
    """A new buffer owns its storage: it has no layout."""
    if not buf.is_dense():
        raise VerifyException(f"'{op.name}' makes a dense buffer, found the view type {buf}")


@irdl_op_definition
class AllocOp(IRDLOperation):
    """A new buffer; one `index` operand per `?` extent, in order."""

    name = "buffer.alloc"
    mem = operand_def(M0)
    extents = var_operand_def(IndexType)
    res_mem = result_def(M0)
    res = result_def(BufType)

    assembly_format = "$mem (`(` $extents^ `)`)? attr-dict `:` type($res)"

    def __init__(self, mem: SSAValue, buf_type: BufType, extents: Sequence[SSAValue] = ()):
        super().__init__(operands=[mem, extents], result_types=[M0, buf_type])

    def verify_(self) -> None:
        assert isinstance(self.res.type, BufType)
        expect_dense(self, self.res.type)
        expected = self.res.type.dynamic_dims
        if len(self.extents) != expected:
            raise VerifyException(
                f"'{self.name}' of {self.res.type} expects {expected} extent operands "
                f"(one per '?'), found {len(self.extents)}"
            )


@irdl_op_definition
class LitOp(IRDLOperation):
    """A new buffer whose every element is `value` (MimIR's `lit` / `constant`)."""

    name = "buffer.lit"
    mem = operand_def(M0)
    value = operand_def()
    res_mem = result_def(M0)
    res = result_def(BufType)

    assembly_format = "$mem `,` $value attr-dict `:` type($value) `->` type($res)"

    def __init__(self, mem: SSAValue, value: SSAValue, buf_type: BufType):
        super().__init__(operands=[mem, value], result_types=[M0, buf_type])

    def verify_(self) -> None:
        buf = expect_static(self, self.res.type)
        if self.value.type != buf.element_type:
            raise VerifyException(
                f"'{self.name}' expects a value of the element type {buf.element_type}, "
                f"found {self.value.type}"
            )


@irdl_op_definition
class InitOp(IRDLOperation):
    """A new buffer holding the elements of `value` (a dense tensor of the buffer's shape)."""

    name = "buffer.init"
    mem = operand_def(M0)
    value = prop_def(DenseIntOrFPElementsAttr)
    res_mem = result_def(M0)
    res = result_def(BufType)

    def __init__(self, mem: SSAValue, value: DenseIntOrFPElementsAttr):
        assert isinstance(value.type, TensorType)
        buf = BufType(value.type.get_shape(), value.type.element_type)
        super().__init__(operands=[mem], properties={"value": value}, result_types=[M0, buf])

    def verify_(self) -> None:
        buf = expect_static(self, self.res.type)
        tensor = self.value.type
        expected = TensorType(buf.element_type, buf.get_shape())
        if tensor != expected:
            raise VerifyException(
                f"'{self.name}' of {buf} expects its value to be typed {expected}, found {tensor}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> InitOp:
        """`%m1, %b = buffer.init %m0 dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>`"""
        mem = parser.parse_operand(M0)
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr) or not isinstance(
            value.type, TensorType
        ):
            parser.raise_error(
                f"'{cls.name}' expects a dense tensor literal, found {value}", pos, parser.pos
            )
        attributes = parser.parse_optional_attr_dict()
        op = cls(mem, value)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mem)
        printer.print_string(" ")
        printer.print_attribute(self.value)
        printer.print_op_attributes(self.attributes)


def expect_indices(op: IRDLOperation, buf: Attribute, indices: Sequence[SSAValue]) -> BufType:
    assert isinstance(buf, BufType)
    if len(indices) != buf.rank:
        raise VerifyException(
            f"'{op.name}' of {buf} expects {buf.rank} indices (its rank), found {len(indices)}"
        )
    return buf


class ElementOp(IRDLOperation):
    """Shape of `buffer.read` and `buffer.write`: `%m0, %b[%i, %j]`, with `WRITES` then
    `, %v`, and `: !buffer.buf<…>`."""

    WRITES: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> ElementOp:
        mem = parser.parse_operand(M0)
        parser.parse_punctuation(",")
        buf = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        value = None
        if cls.WRITES:
            parser.parse_punctuation(",")
            value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buf_type = parse_type_of(parser, BufType, "!buffer.buf")
        operands = [mem, parser.resolve_operand(buf, buf_type), indices]
        if value is not None:
            operands.append(parser.resolve_operand(value, buf_type.element_type))
        op = cls(*operands)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.mem, self.buf), printer.print_operand)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        if self.WRITES:
            printer.print_string(", ")
            printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


@irdl_op_definition
class ReadOp(ElementOp):
    """`%m1, %v = buffer.read %m0, %b[%i, %j] : !buffer.buf<4x4xf32>`"""

    name = "buffer.read"
    mem = operand_def(M0)
    buf = operand_def(BufType)
    indices = var_operand_def(IndexType)
    res_mem = result_def(M0)
    res = result_def()

    def __init__(self, mem: SSAValue, buf: SSAValue, indices: Sequence[SSAValue]):
        assert isinstance(buf.type, BufType)
        super().__init__(operands=[mem, buf, indices], result_types=[M0, buf.type.element_type])

    def verify_(self) -> None:
        buf = expect_indices(self, self.buf.type, self.indices)
        if self.res.type != buf.element_type:
            raise VerifyException(
                f"'{self.name}' expects its result to be the element type {buf.element_type}, "
                f"found {self.res.type}"
            )


@irdl_op_definition
class WriteOp(ElementOp):
    """Write one element in place; the result is the same buffer.

    `%m1, %b1 = buffer.write %m0, %b[%i, %j], %v : !buffer.buf<4x4xf32>`
    """

    name = "buffer.write"
    WRITES: ClassVar[bool] = True
    T: ClassVar = VarConstraint("T", base(BufType))
    mem = operand_def(M0)
    buf = operand_def(T)
    indices = var_operand_def(IndexType)
    value = operand_def()
    res_mem = result_def(M0)
    res = result_def(T)

    def __init__(self, mem: SSAValue, buf: SSAValue, indices: Sequence[SSAValue], value: SSAValue):
        super().__init__(operands=[mem, buf, indices, value], result_types=[M0, buf.type])

    def verify_(self) -> None:
        buf = expect_indices(self, self.buf.type, self.indices)
        if self.value.type != buf.element_type:
            raise VerifyException(
                f"'{self.name}' expects a value of the element type {buf.element_type}, "
                f"found {self.value.type}"
            )


@irdl_op_definition
class ShapeOp(IRDLOperation):
    """The extent of dimension `dim`: `%n = buffer.shape %b[1] : !buffer.buf<4x?xf32>`"""

    name = "buffer.shape"
    buf = operand_def(BufType)
    dim = prop_def(IntegerAttr[I64])
    res = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, buf: SSAValue, dim: int):
        super().__init__(
            operands=[buf], properties={"dim": IntegerAttr(dim, 64)}, result_types=[IndexType()]
        )

    def verify_(self) -> None:
        assert isinstance(self.buf.type, BufType)
        dim = self.dim.value.data
        if not 0 <= dim < self.buf.type.rank:
            raise VerifyException(
                f"'{self.name}' expects dim in [0, {self.buf.type.rank}) for {self.buf.type}, "
                f"found {dim}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> ShapeOp:
        buf = parser.parse_unresolved_operand()
        with parser.in_square_brackets():
            dim = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(buf, parser.parse_type()), dim)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.buf)
        printer.print_string(f"[{self.dim.value.data}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copy every element of `src` into `dst`: same shape and element type, each with its own
    layout (dense or a view), element by element in row-major order. A `?` extent matches any
    (it must be the same at run time: the host executor checks, lowered code does not)."""

    name = "buffer.copy"
    mem = operand_def(M0)
    dst = operand_def(BufType)
    src = operand_def(BufType)
    res_mem = result_def(M0)

    def __init__(self, mem: SSAValue, dst: SSAValue, src: SSAValue):
        super().__init__(operands=[mem, dst, src], result_types=[M0])

    def verify_(self) -> None:
        dst, src = self.dst.type, self.src.type
        assert isinstance(dst, BufType) and isinstance(src, BufType)
        compatible = all(
            d == s or DYNAMIC_INDEX in (d, s)
            for d, s in zip(dst.get_shape(), src.get_shape(), strict=False)
        )
        if dst.rank != src.rank or not compatible or dst.element_type != src.element_type:
            raise VerifyException(
                f"'{self.name}' expects a source of the destination's shape and element type, "
                f"found {src} into {dst}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        """`buffer.copy %m, %dst, %src : T` (one type), or `: T_dst, T_src` when they differ."""
        mem = parser.parse_operand(M0)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        dst_type = parser.parse_type()
        src_type = dst_type
        if parser.parse_optional_punctuation(",") is not None:
            src_type = parser.parse_type()
        op = cls(mem, parser.resolve_operand(dst, dst_type), parser.resolve_operand(src, src_type))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.mem, self.dst, self.src), printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dst.type)
        if self.src.type != self.dst.type:
            printer.print_string(", ")
            printer.print_attribute(self.src.type)


@irdl_op_definition
class PrintOp(IRDLOperation):
    """Print one row per line, elements as `v, ` (floats with two decimals)."""

    name = "buffer.print"
    mem = operand_def(M0)
    buf = operand_def(BufType)
    res_mem = result_def(M0)

    assembly_format = "$mem `,` $buf attr-dict `:` type($buf)"

    def __init__(self, mem: SSAValue, buf: SSAValue):
        super().__init__(operands=[mem, buf], result_types=[M0])
