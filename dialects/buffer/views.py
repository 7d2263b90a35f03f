"""The view ops (`buffer.subview`, `buffer.transpose`, `buffer.broadcast`, `buffer.view`): pure,
no token, the result aliases the source's storage; and where a view's element lies in the
storage it views (`storage_map`, `view_offset`, `view_extent`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
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

from gpuir.dialects.buffer.ops import WriteOp
from gpuir.dialects.buffer.types import BufType, row_major_strides

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


class ViewSyntaxOp(ViewOp):
    """The custom syntax of the views whose properties it writes (`buffer.subview`,
    `buffer.transpose`): `%source`, what `parse_extra` reads and `print_extra` writes
    (`[1, 0]`), `attr-dict : T_source to T_result`; the op is built as
    `cls(source, *extra, result_type)`."""

    @classmethod
    def parse_extra(cls, parser: Parser) -> tuple[object, ...]:
        """What the syntax has between the source and the attributes, as the arguments the op
        is built with after the source."""
        raise NotImplementedError

    def print_extra(self, printer: Printer) -> None:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> ViewSyntaxOp:
        source = parser.parse_unresolved_operand()
        extra = cls.parse_extra(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        resolved = parser.resolve_operand(source, source_type)
        op = cls(resolved, *extra, cast(BufType, parser.parse_type()))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        self.print_extra(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.res.type)


def expect_length(op: IRDLOperation, what: str, values: Sequence[int], rank: int) -> None:
    if len(values) != rank:
        raise VerifyException(
            f"'{op.name}' expects {rank} {what} (the source's rank), found {len(values)}"
        )


Mixed = int | SSAValue
"""An entry of a subview's offsets or sizes: static, or an `index` value (`?` in the type)."""


@irdl_op_definition
class SubviewOp(ViewSyntaxOp):
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
        super().verify_()

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
    def parse_extra(cls, parser: Parser) -> tuple[object, ...]:
        """`[offsets] [sizes] [strides]`."""
        return parse_mixed_list(parser), parse_mixed_list(parser), parse_int_list(parser)

    def print_extra(self, printer: Printer) -> None:
        for values in (self.mixed_offsets(), self.mixed_sizes()):
            printer.print_string("[")
            printer.print_list(values, lambda v: print_mixed(printer, v))
            printer.print_string("] ")
        printer.print_string("[")
        printer.print_list(self.static_strides.get_values(), lambda v: printer.print_string(str(v)))
        printer.print_string("]")


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
class TransposeOp(ViewSyntaxOp):
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
    def parse_extra(cls, parser: Parser) -> tuple[object, ...]:
        """`[permutation]`."""
        return (parse_int_list(parser),)

    def print_extra(self, printer: Printer) -> None:
        printer.print_string(" [")
        printer.print_list(self.permutation.get_values(), lambda v: printer.print_string(str(v)))
        printer.print_string("]")


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
