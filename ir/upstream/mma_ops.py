"""Upstream MLIR's matrix ops (tensor cores) and how a kernel imports them: MLIR 22's
`gpu.subgroup_mma_load_matrix`, `subgroup_mma_store_matrix`, `subgroup_mma_compute`,
`subgroup_mma_constant_matrix`, `subgroup_mma_elementwise` and `!gpu.mma_matrix<RxCxT,
"AOp" | "BOp" | "COp">`, in their custom syntax (read only, as `gpu_ops` reads the rest of the
`gpu` dialect), become gpuir's `gpu.mma_*` ops and `!gpu.fragment` (`gpuir.dialects.gpu.mma`).

A load's or store's memref and indices become the memref's pointer and the linear index of the
element (through a subview's offsets and strides, row-major through the memory's extents);
`leadDimension` is the `lead`, `transpose` stays. Only 16x16 tiles of f16 (and f32
accumulators) and the `m8n8k4` tiles of f64 (8x4 `AOp`, 4x8 `BOp`, 8x8 `COp`) are imported;
`subgroup_mma_elementwise`'s kinds are the float ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer

from gpuir.dialects import gpu
from gpuir.dialects.gpu.mma import (
    ELEMENTWISE_KINDS,
    FragmentType,
    fragment_problem,
    parse_tile,
)
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.ir.upstream.common import OpTable, Scope, add, index, mul, unsupported

KINDS = {"AOp": "a", "BOp": "b", "COp": "c"}


@irdl_attr_definition
class MmaMatrixType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.mma_matrix<16x16xf16, "AOp">`."""

    name = "gpu.mma_matrix"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    operand: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            rows, cols, element, operand = parse_tile(parser, "the matrix's operand")
        return (ArrayAttr([IntAttr(rows), IntAttr(cols)]), element, StringAttr(operand))

    def print_parameters(self, printer: Printer) -> None:
        rows, cols = (d.data for d in self.shape.data)
        printer.print_string(f"<{rows}x{cols}x{self.element_type}, {self.operand}>")


class MmaOp(IRDLOperation):
    """The generic shape of the matrix ops: operands, results, the attributes as properties."""

    values = var_operand_def()
    results_ = var_result_def()

    @staticmethod
    def parse_types(parser: Parser, *between: str) -> tuple[dict[str, Attribute], list[Attribute]]:
        """`{attributes} : T1, T2 -> T3`: the attributes (the op's properties), then the types,
        with `between` (`,`, `->`) between each two."""
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        for punctuation in between:
            parser.parse_punctuation(punctuation)
            types.append(parser.parse_type())
        return attributes, types


def parse_indexed(parser: Parser) -> list[SSAValue]:
    """`%memref[%i, …]`: the memref, then the indices (all of type index)."""
    memref = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return [memref, *indices]  # type: ignore[list-item]


def resolve(parser: Parser, unresolved: list, first: Attribute) -> list[SSAValue]:
    types = [first, *[IndexType()] * (len(unresolved) - 1)]
    return [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]


@irdl_op_definition
class LoadMatrixOp(MmaOp):
    """`gpu.subgroup_mma_load_matrix %m[%i, …] {leadDimension = n : index[, transpose]} :
    memref<…> -> !gpu.mma_matrix<…>`."""

    name = "gpu.subgroup_mma_load_matrix"

    @classmethod
    def parse(cls, parser: Parser) -> MmaOp:
        unresolved = parse_indexed(parser)
        attributes, (memref, result) = cls.parse_types(parser, "->")
        operands = resolve(parser, unresolved, memref)
        return cls.create(operands=operands, result_types=[result], properties=attributes)


@irdl_op_definition
class StoreMatrixOp(MmaOp):
    """`gpu.subgroup_mma_store_matrix %v, %m[%i, …] {leadDimension = n : index[, transpose]} :
    !gpu.mma_matrix<…>, memref<…>`."""

    name = "gpu.subgroup_mma_store_matrix"

    @classmethod
    def parse(cls, parser: Parser) -> MmaOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        unresolved = parse_indexed(parser)
        attributes, (value_type, memref) = cls.parse_types(parser, ",")
        operands = [parser.resolve_operand(value, value_type)]
        operands += resolve(parser, unresolved, memref)
        return cls.create(operands=operands, result_types=[], properties=attributes)


@irdl_op_definition
class ComputeOp(MmaOp):
    """`gpu.subgroup_mma_compute %a, %b, %c [{a_transpose, b_transpose}] : A, B -> C`."""

    name = "gpu.subgroup_mma_compute"

    @classmethod
    def parse(cls, parser: Parser) -> MmaOp:
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes, (a, b, c) = cls.parse_types(parser, ",", "->")
        if len(unresolved) != 3:
            parser.raise_error("gpu.subgroup_mma_compute takes 3 operands")
        operands = [
            parser.resolve_operand(u, t) for u, t in zip(unresolved, (a, b, c), strict=True)
        ]
        return cls.create(operands=operands, result_types=[c], properties=attributes)


@irdl_op_definition
class ConstantMatrixOp(MmaOp):
    """`gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<…>`."""

    name = "gpu.subgroup_mma_constant_matrix"

    @classmethod
    def parse(cls, parser: Parser) -> MmaOp:
        value = parser.parse_unresolved_operand()
        attributes, (type_,) = cls.parse_types(parser)
        element = type_.element_type if isinstance(type_, MmaMatrixType) else type_
        operand = parser.resolve_operand(value, element)
        return cls.create(operands=[operand], result_types=[type_], properties=attributes)


@irdl_op_definition
class ElementwiseOp(IRDLOperation):
    """`gpu.subgroup_mma_elementwise kind %x[, %y] : (T[, T]) -> T`."""

    name = "gpu.subgroup_mma_elementwise"
    kind = prop_def(StringAttr)
    values = var_operand_def()
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> ElementwiseOp:
        kind = parser.parse_identifier()
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        result = parser.parse_type()
        if len(types) != len(unresolved):
            parser.raise_error(f"{len(unresolved)} operands, {len(types)} types")
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]
        return cls.create(
            operands=operands, result_types=[result], properties={"kind": StringAttr(kind)}
        )


UPSTREAM_MMA_OPS = (LoadMatrixOp, StoreMatrixOp, ComputeOp, ConstantMatrixOp, ElementwiseOp)


# --- the import -------------------------------------------------------------------------------


def fragment_of(op: Operation, type_: Attribute) -> FragmentType:
    """gpuir's fragment of an upstream `!gpu.mma_matrix`; an error at `op` for one it lacks."""
    if not isinstance(type_, MmaMatrixType):
        raise unsupported(op, f"of {type_}: expected a !gpu.mma_matrix")
    shape = tuple(d.data for d in type_.shape.data)
    kind = KINDS.get(type_.operand.data, type_.operand.data)
    problem = fragment_problem(shape, type_.element_type, kind)
    if problem is not None:
        raise unsupported(op, f"of {type_}: {problem}")
    return FragmentType(type_.element_type, kind)


def lead_of(op: Operation) -> tuple[int, bool]:
    lead = op.properties.get("leadDimension")
    if not isinstance(lead, IntegerAttr):
        raise unsupported(op, "without an integer leadDimension")
    return lead.value.data, "transpose" in op.properties


def linear_element(importer, op: Operation, values: Sequence[SSAValue], b: Builder, s: Scope):
    """The memref `values[0]`'s pointer and space, and the linear index (row-major through the
    memory's extents) of its element at the indices `values[1:]`."""
    ref = importer.ref(op, values[0], s, view=True)
    indices: list = list(importer.mapped(op, list(values[1:]), s))
    if ref.view is not None:
        indices = [
            add(b, o, mul(b, i, t))
            for i, o, t in zip(indices, ref.view.offsets, ref.view.strides, strict=True)
        ]
    assert isinstance(ref.ptr.type, PtrType)
    extents, inner = [], ref.ptr.type.pointee
    if isinstance(inner, ArrayType):
        inner = inner.element_type
        while isinstance(inner, ArrayType):
            extents.append(inner.size.data)
            inner = inner.element_type
    linear = 0
    for i, extent in zip(indices, [1, *extents], strict=True):  # Horner: the row times its width
        linear = add(b, mul(b, linear, extent), i) if linear != 0 else i
    at = index(b, linear) if isinstance(linear, int) else linear
    if ref.space not in (1, 3):
        raise unsupported(op, f"of memory in address space {ref.space}: only global or shared")
    return ref.ptr, at


def load_matrix(importer, op: LoadMatrixOp, b: Builder, s: Scope) -> None:
    type_ = fragment_of(op, op.results[0].type)
    lead, transpose = lead_of(op)
    ptr, at = linear_element(importer, op, list(op.operands), b, s)
    made = gpu.MmaLoadOp(s.tokens[1], s.tokens[3], ptr, at, lead, transpose, type_)
    s.tokens[1], s.tokens[3], s.values[op.results[0]] = b.insert(made).results


def store_matrix(importer, op: StoreMatrixOp, b: Builder, s: Scope) -> None:
    fragment_of(op, op.operands[0].type)
    lead, transpose = lead_of(op)
    (value,) = importer.mapped(op, [op.operands[0]], s)
    ptr, at = linear_element(importer, op, list(op.operands[1:]), b, s)
    made = gpu.MmaStoreOp(s.tokens[1], s.tokens[3], value, ptr, at, lead, transpose)
    s.tokens[1], s.tokens[3] = b.insert(made).results


def compute(importer, op: ComputeOp, b: Builder, s: Scope) -> None:
    for operand in op.operands:
        fragment_of(op, operand.type)
    a, b_, c = importer.mapped(op, list(op.operands), s)
    flags = ("a_transpose" in op.properties, "b_transpose" in op.properties)
    made = gpu.MmaComputeOp(s.tokens[1], s.tokens[3], a, b_, c, *flags)
    s.tokens[1], s.tokens[3], s.values[op.results[0]] = b.insert(made).results


def constant_matrix(importer, op: ConstantMatrixOp, b: Builder, s: Scope) -> None:
    type_ = fragment_of(op, op.results[0].type)
    (value,) = importer.mapped(op, list(op.operands), s)
    made = gpu.MmaConstantOp(s.tokens[1], s.tokens[3], value, type_)
    s.tokens[1], s.tokens[3], s.values[op.results[0]] = b.insert(made).results


def elementwise(importer, op: ElementwiseOp, b: Builder, s: Scope) -> None:
    kind = op.kind.data
    if ELEMENTWISE_KINDS.get(kind) != len(op.values):
        raise unsupported(
            op, f"of kind {kind} is not supported (yet): only {', '.join(ELEMENTWISE_KINDS)}"
        )
    for operand in op.operands:
        fragment_of(op, operand.type)
    values = importer.mapped(op, list(op.operands), s)
    made = gpu.MmaElementwiseOp(kind, s.tokens[1], s.tokens[3], values)
    s.tokens[1], s.tokens[3], s.values[op.result] = b.insert(made).results


MMA_IMPORTS: OpTable = {
    LoadMatrixOp: load_matrix,
    StoreMatrixOp: store_matrix,
    ComputeOp: compute,
    ConstantMatrixOp: constant_matrix,
    ElementwiseOp: elementwise,
}
"""The matrix ops a kernel imports (`KERNEL_OPS`)."""
