"""The `buffer` dialect: host-side multi-dimensional buffers (MimIR's `%buffer.Buf`).

A `!buffer.buf<4x?xf32>` is a row-major buffer in host memory whose extents are static or `?`.
Every op threads the host token `!mem.M<0>`. `buffer-lower-ptr` turns a buffer into a
`!mem.ptr<!mem.array<…>, 0>` (nested arrays, outermost dimension first) and the ops into `mem`
ops, so only the outermost extent may be `?` by then.

A buffer type may carry a strided layout (`!buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>`,
MLIR's strided memref layout): it is then a view of another buffer's storage, made by the view
ops `buffer.subview`, `buffer.transpose`, `buffer.broadcast` and `buffer.view`, which allocate
nothing. Every other op reads and writes through the layout; `storage_map` says where a view's
element lies in the dense buffer it views (`docs/ir-extensions.md`, "Layouts and views").
A subview's offsets and sizes may be `index` values (`buffer.subview %a[%i, 0] [1, %n] [1, 1]`,
MLIR's mixed lists): its type then has a `?` offset or `?` extents (a dynamic view), whose
run-time values `view_offset` and `view_extent` find in the view ops.

Departures from MimIR: MimIR's `constant` is `buffer.lit` (its later name); `buffer.print` is an
addition (MimIR's lit tests print through `print_int_matrix`), with the same output format; so are
layouts and views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.mem import HOST, MemType

M0 = MemType(HOST)


def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The strides (in elements) of a dense row-major buffer of static `shape`."""
    strides: list[int] = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def is_row_major(shape: Sequence[int], strides: Sequence[int], offset: int) -> bool:
    """Whether `strides`/`offset` address `shape` exactly as the dense layout does (the stride
    of an extent-1 dimension never moves, so it does not matter)."""
    dense = row_major_strides(shape)
    return offset == 0 and all(
        extent == 1 or stride == expected
        for extent, stride, expected in zip(shape, strides, dense, strict=True)
    )


def normalised_layout(
    shape: Sequence[int], layout: StridedLayoutAttr | NoneAttr
) -> StridedLayoutAttr | NoneAttr:
    """No layout for one that is the dense row-major one; `layout` itself otherwise (also when
    it is malformed: the type's verifier says what is wrong)."""
    if not isinstance(layout, StridedLayoutAttr):
        return layout
    strides, offset = layout.get_strides(), layout.get_offset()
    if DYNAMIC_INDEX in shape or len(strides) != len(shape) or offset is None:
        return layout
    if any(s is None for s in strides):
        return layout
    if is_row_major(shape, cast(Sequence[int], strides), offset):
        return NoneAttr()
    return layout


@irdl_attr_definition
class BufType(ParametrizedAttribute, TypeAttribute):
    """`!buffer.buf<S0xS1x…xT>`: a host buffer; each extent static or `?`.

    With a layout, `!buffer.buf<4x8xf32, strided<[1, 4], offset: 2>>`, it is a view: element
    `(i0, i1, …)` is element `offset + Σ i_k·stride_k` of the storage it views (the storage of
    the dense buffer the view ops started from). A layout's strides are static and `>= 0`; its
    offset is `>= 0` or `?`, and its shape's extents may be `?` (a dynamic layout: a
    `buffer.subview` with SSA offsets or sizes makes one; the run-time values come from the
    view ops, `docs/ir-extensions.md`). Without one the buffer is dense row-major at offset 0; a
    static layout that addresses like that is dropped (`normalised_layout`), so both spellings
    are one type.
    """

    name = "buffer.buf"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: StridedLayoutAttr | NoneAttr

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute,
        layout: StridedLayoutAttr | NoneAttr | None = None,
    ):
        layout = normalised_layout(shape, layout or NoneAttr())
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element_type, layout)

    @staticmethod
    def strided(
        shape: Sequence[int], element_type: Attribute, strides: Sequence[int], offset: int = 0
    ) -> BufType:
        """A view type; dense when `strides`/`offset` are the row-major ones (`offset`
        `DYNAMIC_INDEX`: `?`)."""
        layout_offset = None if offset == DYNAMIC_INDEX else offset
        return BufType(shape, element_type, StridedLayoutAttr(strides, layout_offset))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def rank(self) -> int:
        return len(self.shape.data)

    @property
    def dynamic_dims(self) -> int:
        return sum(1 for d in self.get_shape() if d == DYNAMIC_INDEX)

    def is_dense(self) -> bool:
        return isinstance(self.layout, NoneAttr)

    def strides(self) -> tuple[int, ...]:
        """The strides in elements (the row-major ones of a dense buffer, whose inner extents
        must be static)."""
        if isinstance(self.layout, StridedLayoutAttr):
            return tuple(cast(Sequence[int], self.layout.get_strides()))
        return row_major_strides(self.get_shape())

    def offset(self) -> int:
        """The layout's offset; `DYNAMIC_INDEX` for `?`."""
        if isinstance(self.layout, StridedLayoutAttr):
            offset = self.layout.get_offset()
            return DYNAMIC_INDEX if offset is None else offset
        return 0

    def is_dynamic_view(self) -> bool:
        """Whether this is a view whose offset or an extent is only known at run time."""
        return not self.is_dense() and (
            self.offset() == DYNAMIC_INDEX or DYNAMIC_INDEX in self.get_shape()
        )

    def storage_span(self) -> int:
        """How many elements of its storage a static buffer reaches, from the first: one past
        the last reachable element (0 when the buffer is empty)."""
        shape = self.get_shape()
        if 0 in shape:
            return 0
        return (
            self.offset() + sum((n - 1) * s for n, s in zip(shape, self.strides(), strict=True)) + 1
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape, element_type = parser.parse_ranked_shape()
            layout: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                layout = parser.parse_attribute()
                if not isinstance(layout, StridedLayoutAttr):
                    parser.raise_error(
                        f"expected a strided layout (strided<[…], offset: …>), found {layout}",
                        pos,
                        parser.pos,
                    )
        return (
            ArrayAttr(IntAttr(d) for d in shape),
            element_type,
            normalised_layout(shape, layout),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for extent in self.get_shape():
            printer.print_string("?x" if extent == DYNAMIC_INDEX else f"{extent}x")
        printer.print_attribute(self.element_type)
        if isinstance(self.layout, StridedLayoutAttr):
            printer.print_string(", ")
            printer.print_attribute(self.layout)
        printer.print_string(">")

    def verify(self) -> None:
        shape = self.get_shape()
        for extent in shape:
            if extent < 0 and extent != DYNAMIC_INDEX:
                raise VerifyException(f"!buffer.buf extents must be ? or >= 0, found {extent}")
        layout = self.layout
        if not isinstance(layout, StridedLayoutAttr):
            return
        strides, offset = layout.get_strides(), layout.get_offset()
        if len(strides) != len(shape):
            raise VerifyException(
                f"!buffer.buf layout {layout} needs {len(shape)} strides (one per dimension), "
                f"found {len(strides)}"
            )
        if any(s is None or s < 0 for s in strides) or (offset is not None and offset < 0):
            raise VerifyException(
                f"!buffer.buf layout strides must be static and >= 0, and its offset ? or "
                f">= 0, found {layout}"
            )
        if offset is None or DYNAMIC_INDEX in shape:
            return
        if is_row_major(shape, cast(Sequence[int], strides), offset):
            raise VerifyException(
                f"!buffer.buf layout {layout} is the dense one of {list(shape)}: spell the type "
                "without it"
            )


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


@irdl_op_definition
class ReadOp(IRDLOperation):
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

    @classmethod
    def parse(cls, parser: Parser) -> ReadOp:
        mem = parser.parse_operand(M0)
        parser.parse_punctuation(",")
        buf = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        buf_type = parser.parse_type()
        if not isinstance(buf_type, BufType):
            parser.raise_error(f"expected a !buffer.buf type, found {buf_type}", pos, parser.pos)
        op = cls(mem, parser.resolve_operand(buf, buf_type), indices)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.mem, self.buf), printer.print_operand)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


@irdl_op_definition
class WriteOp(IRDLOperation):
    """Write one element in place; the result is the same buffer.

    `%m1, %b1 = buffer.write %m0, %b[%i, %j], %v : !buffer.buf<4x4xf32>`
    """

    name = "buffer.write"
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

    @classmethod
    def parse(cls, parser: Parser) -> WriteOp:
        mem = parser.parse_operand(M0)
        parser.parse_punctuation(",")
        buf = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        buf_type = parser.parse_type()
        if not isinstance(buf_type, BufType):
            parser.raise_error(f"expected a !buffer.buf type, found {buf_type}", pos, parser.pos)
        op = cls(
            mem,
            parser.resolve_operand(buf, buf_type),
            indices,
            parser.resolve_operand(value, buf_type.element_type),
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.mem, self.buf), printer.print_operand)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


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


# --- views: pure, no token, the result aliases the source's storage --------------------------


def parse_int_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


class ViewOp(IRDLOperation):
    """A view of `source`'s storage: a new shape and layout, no allocation, no copy. The
    result type is what `view_type` computes from the source type and the properties."""

    source = operand_def(BufType)
    res = result_def(BufType)

    traits = traits_def(Pure())

    def view_type(self, source: BufType) -> BufType:
        """The result type; raises VerifyException when the properties do not fit `source`."""
        raise NotImplementedError

    DYNAMIC_VIEWS: ClassVar[bool] = False
    """Whether the source may be a dynamic view (`BufType.is_dynamic_view`)."""

    def verify_(self) -> None:
        self.expect_source()
        source = cast(BufType, self.source.type)
        expected = self.view_type(source)
        if self.res.type != expected:
            raise VerifyException(
                f"'{self.name}' expects the result type {expected}, found {self.res.type}"
            )

    def expect_source(self) -> None:
        source = self.source.type
        assert isinstance(source, BufType)
        if source.dynamic_dims and not (self.DYNAMIC_VIEWS and source.is_dynamic_view()):
            raise VerifyException(f"'{self.name}' needs a source of static shape, found {source}")
        if source.is_dynamic_view() and not self.DYNAMIC_VIEWS:
            raise VerifyException(
                f"'{self.name}' needs a source of static layout, found the dynamic view {source}"
            )

    def print_types(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.res.type)

    @staticmethod
    def parse_types(
        parser: Parser, source: UnresolvedOperand
    ) -> tuple[SSAValue, Attribute, dict[str, Attribute]]:
        """`attr-dict : T_source to T_result`: the source resolved, the result type, attrs."""
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        return parser.resolve_operand(source, source_type), parser.parse_type(), attributes


def expect_length(op: IRDLOperation, what: str, values: Sequence[int], rank: int) -> None:
    if len(values) != rank:
        raise VerifyException(
            f"'{op.name}' expects {rank} {what} (the source's rank), found {len(values)}"
        )


Mixed = int | SSAValue
"""An entry of a subview's offsets or sizes: static, or an `index` value (`?` in the type)."""


@irdl_op_definition
class SubviewOp(ViewOp):
    """The box `offsets + k·strides`, `0 <= k < sizes`, of each dimension (as
    `memref.subview`, no rank reduction). Offsets and sizes are static or `index` values,
    strides static:

    `%v = buffer.subview %a[0, 1] [4, 3] [1, 2] : !buffer.buf<4x6xf32>
        to !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>`
    `%r = buffer.subview %a[%i, 0] [1, %n] [1, 1] : !buffer.buf<4x6xf32>
        to !buffer.buf<1x?xf32, strided<[6, 1], offset: ?>>`

    `static_offsets`/`static_sizes` hold `DYNAMIC_INDEX` (MLIR's `kDynamic`) where the entry is
    an operand; the `offsets`/`sizes` operands are those entries, in order. The result's offset
    is `?` when the source's offset or an offset operand is; its extent `k` is `?` when size
    `k` is an operand. A dynamic box is not checked against the source's extents.
    """

    name = "buffer.subview"
    source = operand_def(BufType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    DYNAMIC_VIEWS: ClassVar[bool] = True

    def __init__(
        self,
        source: SSAValue,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        strides: Sequence[int],
        result_type: BufType | None = None,
    ):
        properties = {
            "static_offsets": i64_array([static_entry(v) for v in offsets]),
            "static_sizes": i64_array([static_entry(v) for v in sizes]),
            "static_strides": i64_array(strides),
        }
        if result_type is None:
            assert isinstance(source.type, BufType)
            result_type = subview_type(
                source.type,
                [static_entry(v) for v in offsets],
                [static_entry(v) for v in sizes],
                strides,
            )
        super().__init__(
            operands=[
                source,
                [v for v in offsets if isinstance(v, SSAValue)],
                [v for v in sizes if isinstance(v, SSAValue)],
            ],
            properties=properties,
            result_types=[result_type],
        )

    def mixed_offsets(self) -> list[Mixed]:
        return mixed(self.static_offsets, self.offsets)

    def mixed_sizes(self) -> list[Mixed]:
        return mixed(self.static_sizes, self.sizes)

    def verify_(self) -> None:
        for what, static, dynamic in (
            ("offsets", self.static_offsets, self.offsets),
            ("sizes", self.static_sizes, self.sizes),
        ):
            expected = sum(1 for v in static.get_values() if v == DYNAMIC_INDEX)
            if len(dynamic) != expected:
                raise VerifyException(
                    f"'{self.name}' expects {expected} {what} operands (one per dynamic entry "
                    f"of static_{what}), found {len(dynamic)}"
                )
        if DYNAMIC_INDEX in self.static_strides.get_values():
            raise VerifyException(f"'{self.name}' needs static strides (no '?' stride)")
        self.expect_source()
        source = cast(BufType, self.source.type)
        expected = self.view_type(source)
        if self.res.type != expected:
            raise VerifyException(
                f"'{self.name}' expects the result type {expected}, found {self.res.type}"
            )

    def view_type(self, source: BufType) -> BufType:
        offsets = cast(tuple[int, ...], self.static_offsets.get_values())
        sizes = cast(tuple[int, ...], self.static_sizes.get_values())
        strides = cast(tuple[int, ...], self.static_strides.get_values())
        for what, values in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
            expect_length(self, what, values, source.rank)
        for d, (offset, size, stride, extent) in enumerate(
            zip(offsets, sizes, strides, source.get_shape(), strict=True)
        ):
            if (
                (offset < 0 and offset != DYNAMIC_INDEX)
                or (size < 0 and size != DYNAMIC_INDEX)
                or stride < 1
            ):
                raise VerifyException(
                    f"'{self.name}' expects offsets >= 0, sizes >= 0 and strides >= 1, found "
                    f"offset {offset}, size {size}, stride {stride} in dimension {d}"
                )
            if DYNAMIC_INDEX in (offset, size, extent):
                continue
            last = offset + (size - 1) * stride if size else offset - 1
            if last >= extent or offset > extent:
                raise VerifyException(
                    f"'{self.name}' reaches index {max(last, offset)} of dimension {d}, outside "
                    f"the source's extent {extent}"
                )
        return subview_type(source, offsets, sizes, strides)

    @classmethod
    def parse(cls, parser: Parser) -> SubviewOp:
        source = parser.parse_unresolved_operand()
        offsets, sizes = parse_mixed_list(parser), parse_mixed_list(parser)
        strides = parse_int_list(parser)
        resolved, result_type, attributes = cls.parse_types(parser, source)
        op = cls(resolved, offsets, sizes, strides, cast(BufType, result_type))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        for values in (self.mixed_offsets(), self.mixed_sizes()):
            printer.print_string("[")
            printer.print_list(values, lambda v: print_mixed(printer, v))
            printer.print_string("] ")
        printer.print_string("[")
        printer.print_list(self.static_strides.get_values(), lambda v: printer.print_string(str(v)))
        printer.print_string("]")
        self.print_types(printer)


def static_entry(value: Mixed) -> int:
    return DYNAMIC_INDEX if isinstance(value, SSAValue) else value


def mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[Mixed]:
    """The entries of `static` with each `DYNAMIC_INDEX` replaced by the next of `dynamic`."""
    values = iter(dynamic)
    return [
        next(values) if v == DYNAMIC_INDEX else v
        for v in cast(tuple[int, ...], static.get_values())
    ]


def parse_mixed_list(parser: Parser) -> list[Mixed]:
    def entry() -> Mixed:
        operand = parser.parse_optional_operand(IndexType())
        if operand is not None:
            return operand
        return parser.parse_integer(allow_boolean=False)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)


def print_mixed(printer: Printer, value: Mixed) -> None:
    if isinstance(value, SSAValue):
        printer.print_operand(value)
    else:
        printer.print_string(str(value))


def subview_type(
    source: BufType, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> BufType:
    """The result type (`DYNAMIC_INDEX` in `offsets`/`sizes`: a run-time entry)."""
    base = source.strides()
    offset = source.offset()
    if offset == DYNAMIC_INDEX or DYNAMIC_INDEX in offsets:
        offset = DYNAMIC_INDEX
    else:
        offset += sum(o * s for o, s in zip(offsets, base, strict=True))
    result = [s * step for s, step in zip(base, strides, strict=True)]
    return BufType.strided(sizes, source.element_type, result, offset)


@irdl_op_definition
class TransposeOp(ViewOp):
    """Result dimension `k` is source dimension `permutation[k]`:

    `%t = buffer.transpose %a [1, 0] : !buffer.buf<4x6xf32> to !buffer.buf<6x4xf32, strided<[1, 6]>>`
    """

    name = "buffer.transpose"
    DYNAMIC_VIEWS: ClassVar[bool] = True
    permutation = prop_def(DenseArrayBase.constr(i64))

    def __init__(
        self, source: SSAValue, permutation: Sequence[int], result_type: BufType | None = None
    ):
        if result_type is None:
            assert isinstance(source.type, BufType)
            result_type = transpose_type(source.type, permutation)
        super().__init__(
            operands=[source],
            properties={"permutation": i64_array(permutation)},
            result_types=[result_type],
        )

    def view_type(self, source: BufType) -> BufType:
        permutation = cast(tuple[int, ...], self.permutation.get_values())
        if sorted(permutation) != list(range(source.rank)):
            raise VerifyException(
                f"'{self.name}' expects a permutation of [0, {source.rank}) (the source's "
                f"rank), found {list(permutation)}"
            )
        return transpose_type(source, permutation)

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        permutation = parse_int_list(parser)
        resolved, result_type, attributes = cls.parse_types(parser, source)
        op = cls(resolved, permutation, cast(BufType, result_type))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" [")
        printer.print_list(self.permutation.get_values(), lambda v: printer.print_string(str(v)))
        printer.print_string("]")
        self.print_types(printer)


def transpose_type(source: BufType, permutation: Sequence[int]) -> BufType:
    shape, strides = source.get_shape(), source.strides()
    return BufType.strided(
        [shape[p] for p in permutation],
        source.element_type,
        [strides[p] for p in permutation],
        source.offset(),
    )


@irdl_op_definition
class BroadcastOp(ViewOp):
    """The source broadcast to the result's (larger) shape by numpy's rules: the shapes are
    aligned at the last dimension; a new leading dimension, or a source extent 1 against a
    larger one, gets stride 0 (every index reads the same element):

    `%r = buffer.broadcast %v : !buffer.buf<6xf32> to !buffer.buf<4x6xf32, strided<[0, 1]>>`
    """

    name = "buffer.broadcast"

    assembly_format = "$source attr-dict `:` type($source) `to` type($res)"

    def __init__(self, source: SSAValue, shape: Sequence[int]):
        assert isinstance(source.type, BufType)
        super().__init__(operands=[source], result_types=[broadcast_type(self, source.type, shape)])

    def view_type(self, source: BufType) -> BufType:
        result = self.res.type
        assert isinstance(result, BufType)
        if result.dynamic_dims:
            raise VerifyException(f"'{self.name}' needs a result of static shape, found {result}")
        return broadcast_type(self, source, result.get_shape())


def broadcast_type(op: IRDLOperation, source: BufType, shape: Sequence[int]) -> BufType:
    new = len(shape) - source.rank
    if new < 0:
        raise VerifyException(
            f"'{op.name}' cannot broadcast {source} to the smaller rank {len(shape)}"
        )
    strides = [0] * new
    for d, (extent, stride) in enumerate(zip(source.get_shape(), source.strides(), strict=True)):
        target = shape[new + d]
        if extent == target:
            strides.append(stride)
        elif extent == 1:
            strides.append(0)
        else:
            raise VerifyException(
                f"'{op.name}' cannot broadcast extent {extent} of {source} to {target} (an "
                "extent broadcasts to itself, or from 1)"
            )
    return BufType.strided(shape, source.element_type, strides, source.offset())


@irdl_op_definition
class ViewStorageOp(ViewOp):
    """The storage of a dense `source` (its elements in row-major order) seen through the
    result type's shape and layout, which every reachable element must lie inside:

    `%v = buffer.view %a : !buffer.buf<24xf32> to !buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>`
    """

    name = "buffer.view"

    assembly_format = "$source attr-dict `:` type($source) `to` type($res)"

    def __init__(self, source: SSAValue, result_type: BufType):
        super().__init__(operands=[source], result_types=[result_type])

    def view_type(self, source: BufType) -> BufType:
        result = self.res.type
        assert isinstance(result, BufType)
        if not source.is_dense():
            raise VerifyException(
                f"'{self.name}' views the storage of a dense buffer, found the view {source}"
            )
        if result.dynamic_dims or result.offset() == DYNAMIC_INDEX:
            raise VerifyException(
                f"'{self.name}' needs a result of static shape and layout, found {result}"
            )
        if result.element_type != source.element_type:
            raise VerifyException(
                f"'{self.name}' expects the element type {source.element_type}, found "
                f"{result.element_type}"
            )
        size = 1
        for extent in source.get_shape():
            size *= extent
        if result.storage_span() > size:
            raise VerifyException(
                f"'{self.name}' reaches element {result.storage_span() - 1} of the storage of "
                f"{source}, which has {size}"
            )
        return result


def view_root(value: SSAValue) -> SSAValue:
    """The buffer whose storage `value` views: through view ops (and writes, whose result is
    their buffer) to the first value that is neither; `value` itself for a buffer that is not
    a view op's result."""
    while True:
        owner = value.owner
        if isinstance(owner, ViewOp):
            value = owner.source
        elif isinstance(owner, WriteOp):
            value = owner.buf
        else:
            return value


def is_view(value: SSAValue) -> bool:
    """Whether `value` is a view op's result (directly or through `buffer.write`s)."""
    while isinstance(value.owner, WriteOp):
        value = value.owner.buf
    return isinstance(value.owner, ViewOp)


def view_extent(value: SSAValue, dim: int) -> Mixed:
    """Extent `dim` of the view `value`: static, or the `index` value the view ops give it (a
    dynamic size of the `buffer.subview` it comes from, through transposes and writes)."""
    type_ = cast(BufType, value.type)
    extent = type_.get_shape()[dim]
    if extent != DYNAMIC_INDEX:
        return extent
    owner = value.owner
    if isinstance(owner, WriteOp):
        return view_extent(owner.buf, dim)
    if isinstance(owner, SubviewOp):
        return owner.mixed_sizes()[dim]
    if isinstance(owner, TransposeOp):
        return view_extent(owner.source, cast(int, owner.permutation.get_values()[dim]))
    raise ValueError(f"{value} of {type_} comes from no view op")


def view_offset(value: SSAValue) -> tuple[int, list[tuple[SSAValue, int]]]:
    """The offset of the view `value` in its storage as `c + Σ v·k`: the constant `c` and the
    terms `(v, k)`, each an `index` value (an offset operand of a `buffer.subview`) times the
    stride `k` it moves by. No terms when the type's offset is static."""
    type_ = cast(BufType, value.type)
    if type_.offset() != DYNAMIC_INDEX:
        return type_.offset(), []
    owner = value.owner
    if isinstance(owner, WriteOp):
        return view_offset(owner.buf)
    if isinstance(owner, TransposeOp):
        return view_offset(owner.source)
    if isinstance(owner, SubviewOp):
        source = cast(BufType, owner.source.type)
        constant, terms = view_offset(owner.source)
        for offset, stride in zip(owner.mixed_offsets(), source.strides(), strict=True):
            if isinstance(offset, SSAValue):
                terms.append((offset, stride))
            else:
                constant += offset * stride
        return constant, terms
    raise ValueError(f"{value} of {type_} comes from no view op")


def storage_map(view: BufType, root: BufType) -> AffineMap:
    """Where element `(d0, d1, …)` of `view` lies in the dense `root` whose storage it views:
    one affine expression of the view's indices per dimension of `root`.

    The linear position is `offset + Σ d_k·stride_k`. When every stride is a multiple of one of
    `root`'s row-major strides and no sum can carry into the next dimension (the view's extents
    bound it), each root index is a plain sum (`(d0, d1) -> (d1, d0)` for a transpose);
    otherwise the position is split with `floordiv` and `mod`.

    For a dynamic view (`BufType.is_dynamic_view`) the map has one more dimension after the
    view's indices, the run-time offset (`view_offset`), and always splits the position
    `d_offset + Σ d_k·stride_k`."""
    shape, strides, offset = view.get_shape(), view.strides(), view.offset()
    extents = root.get_shape()
    dynamic = view.is_dynamic_view()
    dims = len(shape) + dynamic
    if not extents:
        return AffineMap(dims, 0, ())
    root_strides = row_major_strides(extents)
    if 0 in root_strides:  # an empty root: nothing is ever read
        return AffineMap(dims, 0, tuple(AffineExpr.constant(0) for _ in extents))
    if dynamic:
        position: AffineExpr = AffineExpr.dimension(len(shape))
        for k, stride in enumerate(strides):
            position = AffineExpr.dimension(k) * stride + position
        return AffineMap(dims, 0, split_position(position, extents))
    digits: list[AffineExpr] = []
    rest = offset
    for step in root_strides:
        digits.append(AffineExpr.constant(rest // step))
        rest %= step
    largest = [digit.value for digit in cast(list[AffineConstantExpr], digits)]
    terms: list[list[AffineExpr]] = [[] for _ in extents]
    for k, (extent, stride) in enumerate(zip(shape, strides, strict=True)):
        if extent <= 1 or stride == 0:
            continue
        j = next(j for j, step in enumerate(root_strides) if stride % step == 0)
        terms[j].append(AffineExpr.dimension(k) * (stride // root_strides[j]))
        largest[j] += (extent - 1) * (stride // root_strides[j])
    for j, added in enumerate(terms):
        for term in reversed(added):
            digits[j] = term + digits[j]
    if all(top < extent for top, extent in zip(largest[1:], extents[1:], strict=True)):
        return AffineMap(len(shape), 0, tuple(digits))
    position = AffineExpr.constant(offset)
    for k, stride in enumerate(strides):
        position = AffineExpr.dimension(k) * stride + position
    return AffineMap(len(shape), 0, split_position(position, extents))


def split_position(position: AffineExpr, extents: Sequence[int]) -> tuple[AffineExpr, ...]:
    """The row-major indices of the linear `position` in a dense buffer of `extents`."""
    if not extents:
        return ()
    results: list[AffineExpr] = []
    for j, (step, extent) in enumerate(zip(row_major_strides(extents), extents, strict=True)):
        index = position if step == 1 else position // step
        results.append(index if j == 0 else index % extent)
    return tuple(results)


Buffer = Dialect(
    "buffer",
    [
        AllocOp,
        LitOp,
        InitOp,
        ReadOp,
        WriteOp,
        ShapeOp,
        CopyOp,
        PrintOp,
        SubviewOp,
        TransposeOp,
        BroadcastOp,
        ViewStorageOp,
    ],
    [BufType],
)
