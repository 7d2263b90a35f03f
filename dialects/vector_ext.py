"""The ops of MLIR 22's `vector` dialect that xDSL 0.75's `vector` lacks and that gpuir runs:
`vector.from_elements`, `vector.shape_cast` and `vector.contract`, with MLIR's names, syntax
and checks.

`vector.contract` departs from MLIR in what it takes: no masks, an accumulator that is a
vector or (every dimension reduced) a scalar, `iterator_types` as strings (MLIR's custom form;
not `#vector.iterator_type<…>`), and lhs and rhs elements of the accumulator's type or a
narrower one of its kind (a float extended, an integer sign-extended, as MLIR lowers them).
Each product is rounded to the accumulator's type before it is combined (no fused
multiply-add), in the row-major order of the reduction dimensions (`contraction_lanes`).

gpuir's contexts add them to xDSL's `vector` (`make_context`), which has the other ops gpuir
runs: `broadcast`, `extract`, `insert`, `shuffle`, `fma`, `reduction`, `bitcast`. Vectors
in memory (`vector.load`, `transfer_read`, …) and `vector.print` are upstream MLIR's, on
memrefs: the upstream importer makes them `mem` loads and stores and `printf`
(`gpuir.ir.upstream.vectors`; docs/ir-extensions.md, "Vectors").
"""

from __future__ import annotations

import itertools
from math import prod

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineDimExpr
from xdsl.irdl import (
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


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`%v = vector.from_elements %a, %b, … : vector<2x2xT>`: a vector of its operands, in
    row-major order."""

    name = "vector.from_elements"
    elements = var_operand_def()
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, elements: list, result_type: VectorType):
        super().__init__(operands=[elements], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> FromElementsOp:
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        if not isinstance(type_, VectorType):
            parser.raise_error(f"'vector.from_elements' expects a vector type, found {type_}")
        elements = [parser.resolve_operand(u, type_.element_type) for u in unresolved]
        op = cls(elements, type_)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.elements, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        type_ = self.result.type
        assert isinstance(type_, VectorType)
        count = prod(type_.get_shape())
        if len(self.elements) != count:
            raise VerifyException(
                f"'{self.name}' expects {count} elements for {type_}, found {len(self.elements)}"
            )
        for element in self.elements:
            if element.type != type_.element_type:
                raise VerifyException(
                    f"'{self.name}' expects elements of type {type_.element_type}, "
                    f"found {element.type}"
                )


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """`%w = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>`: the same elements, in
    row-major order, in another shape."""

    name = "vector.shape_cast"
    source = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source, result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, VectorType) and isinstance(result, VectorType)
        if source.element_type != result.element_type:
            raise VerifyException(
                f"'{self.name}' keeps the element type: {source} to {result} changes it"
            )
        if prod(source.get_shape()) != prod(result.get_shape()):
            raise VerifyException(
                f"'{self.name}' keeps the number of elements: {source} has "
                f"{prod(source.get_shape())}, {result} {prod(result.get_shape())}"
            )


ITERATOR_TYPES = ("parallel", "reduction")
FLOAT_CONTRACT_KINDS = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
INT_CONTRACT_KINDS = ("add", "mul", "minsi", "minui", "maxsi", "maxui", "and", "or", "xor")
OPERAND_NAMES = ("lhs", "rhs", "acc")


@irdl_op_definition
class ContractionOp(IRDLOperation):
    """`%r = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel",
    …, "reduction", …], kind = #vector.kind<add>} %lhs, %rhs, %acc : vector<…>, vector<…> into
    T`: each element of the accumulator combined (`kind`, `add` when absent) with the products
    `lhs · rhs` of every point of the reduction dimensions; each map takes the iteration
    dimensions to an operand's (a projected permutation), `T` is a vector of the parallel
    dimensions in the acc map's order, or a scalar when there are none."""

    name = "vector.contract"
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def()
    result = result_def()
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[StringAttr])
    kind = prop_def(CombiningKindAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs,
        rhs,
        acc,
        indexing_maps: ArrayAttr[AffineMapAttr],
        iterator_types: ArrayAttr[StringAttr],
        kind: CombiningKindAttr | None = None,
    ):
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[acc.type],
            properties={
                "indexing_maps": indexing_maps,
                "iterator_types": iterator_types,
                "kind": kind or CombiningKindAttr(CombiningKindFlag.ADD),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        trait_at = parser.pos
        trait = parser.parse_optional_attr_dict()
        for key in ("indexing_maps", "iterator_types"):
            if key not in trait:
                parser.raise_error(f"'vector.contract' expects {key} in its attributes", trait_at)
        maps, iterators = trait.pop("indexing_maps"), trait.pop("iterator_types")
        kind = trait.pop("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        if not isinstance(maps, ArrayAttr) or not isinstance(iterators, ArrayAttr):
            parser.raise_error("'vector.contract' expects arrays of maps and iterator types")
        if not isinstance(kind, CombiningKindAttr):
            parser.raise_error(f"'vector.contract' expects a #vector.kind, found {kind}")
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(unresolved) != 3:
            parser.raise_error(
                f"'vector.contract' expects 3 operands (lhs, rhs, acc; no masks), "
                f"found {len(unresolved)}"
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        parser.parse_keyword("into")
        acc_type = parser.parse_type()
        lhs, rhs, acc = (
            parser.resolve_operand(u, t)
            for u, t in zip(unresolved, (lhs_type, rhs_type, acc_type), strict=True)
        )
        op = cls.create(
            operands=[lhs, rhs, acc],
            result_types=[acc_type],
            properties={"indexing_maps": maps, "iterator_types": iterators, "kind": kind},
        )
        op.attributes.update(trait | attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" {indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(", iterator_types = ")
        printer.print_attribute(self.iterator_types)
        printer.print_string(", kind = ")
        printer.print_attribute(self.kind)
        printer.print_string("} ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((self.lhs.type, self.rhs.type), printer.print_attribute)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    def operand_dims(self) -> list[list[int]]:
        """The iteration dimension of each dimension of lhs, rhs and acc (a verified op)."""
        return [
            [e.position for e in m.data.results if isinstance(e, AffineDimExpr)]
            for m in self.indexing_maps.data
        ]

    def dim_sizes(self) -> list[int]:
        """Each iteration dimension's size (a verified op: from lhs or rhs)."""
        sizes = [0] * len(self.iterator_types.data)
        for value, dims in zip((self.lhs, self.rhs), self.operand_dims(), strict=False):
            assert isinstance(value.type, VectorType)
            for dim, size in zip(dims, value.type.get_shape(), strict=True):
                sizes[dim] = size
        return sizes

    def verify_(self) -> None:
        iterators = [a.data for a in self.iterator_types.data]
        for iterator in iterators:
            if iterator not in ITERATOR_TYPES:
                raise VerifyException(
                    f'\'{self.name}\' expects iterator types "parallel" or "reduction", '
                    f'found "{iterator}"'
                )
        maps = [m.data for m in self.indexing_maps.data]
        if len(maps) != 3:
            raise VerifyException(
                f"'{self.name}' expects 3 indexing maps (lhs, rhs, acc), found {len(maps)}"
            )
        types = [v.type for v in self.operands]
        for k, (map_, type_) in enumerate(zip(maps, types, strict=True)):
            what = f"'{self.name}' expects indexing map {k} ({OPERAND_NAMES[k]})"
            if map_.num_dims != len(iterators) or map_.num_symbols:
                raise VerifyException(
                    f"{what} to take {len(iterators)} dimensions (one per iterator type) and "
                    f"no symbols, found {map_}"
                )
            dims = [e.position for e in map_.results if isinstance(e, AffineDimExpr)]
            if len(dims) != len(map_.results) or len(set(dims)) != len(dims):
                raise VerifyException(f"{what} to be a projected permutation, found {map_}")
            rank = type_.get_num_dims() if isinstance(type_, VectorType) else 0
            if len(dims) != rank:
                raise VerifyException(
                    f"{what} to have {rank} results (the rank of {type_}), found {map_}"
                )
        self._verify_dims(iterators)
        self._verify_types()

    def _verify_dims(self, iterators: list[str]) -> None:
        lhs_dims, rhs_dims, acc_dims = self.operand_dims()
        sizes: dict[int, tuple[int, str]] = {}
        for name, value, dims in (("lhs", self.lhs, lhs_dims), ("rhs", self.rhs, rhs_dims)):
            assert isinstance(value.type, VectorType)
            for dim, size in zip(dims, value.type.get_shape(), strict=True):
                seen = sizes.setdefault(dim, (size, name))
                if seen[0] != size:
                    raise VerifyException(
                        f"'{self.name}' expects one size of d{dim}, found {seen[0]} in the "
                        f"{seen[1]} and {size} in the {name}"
                    )
        for dim, iterator in enumerate(iterators):
            if dim not in sizes:
                raise VerifyException(
                    f"'{self.name}' expects every dimension in the lhs or the rhs map, "
                    f"d{dim} is in neither"
                )
            if iterator == "reduction" and dim in acc_dims:
                raise VerifyException(
                    f"'{self.name}' expects only parallel dimensions in the acc map, "
                    f"found the reduction d{dim}"
                )
            if iterator == "parallel" and dim not in acc_dims:
                raise VerifyException(
                    f"'{self.name}' expects every parallel dimension in the acc map, d{dim} is not"
                )
        acc = self.acc.type
        shape = [sizes[dim][0] for dim in acc_dims]
        if isinstance(acc, VectorType) and list(acc.get_shape()) != shape:
            raise VerifyException(
                f"'{self.name}' expects an accumulator of shape {shape} (the acc map's "
                f"dimensions), found {acc}"
            )
        if not isinstance(acc, VectorType) and shape:
            raise VerifyException(
                f"'{self.name}' expects a vector accumulator of shape {shape}, found {acc}"
            )

    def _verify_types(self) -> None:
        acc = self.acc.type
        element = acc.element_type if isinstance(acc, VectorType) else acc
        if self.result.type != acc:
            raise VerifyException(
                f"'{self.name}' expects a result of the accumulator's type {acc}, "
                f"found {self.result.type}"
            )
        for value in (self.lhs, self.rhs):
            assert isinstance(value.type, VectorType)
            if not contraction_extends(value.type.element_type, element):
                raise VerifyException(
                    f"'{self.name}' expects lhs and rhs elements of type {element} or a "
                    f"narrower one of its kind, found {value.type.element_type}"
                )
        kind = self.kind.data.value
        kinds = FLOAT_CONTRACT_KINDS if isinstance(element, AnyFloat) else INT_CONTRACT_KINDS
        if kind not in kinds:
            raise VerifyException(
                f"'{self.name}' combines {element} with one of {', '.join(kinds)}, found {kind}"
            )


def contraction_extends(source: Attribute, target: Attribute) -> bool:
    """Whether `vector.contract` takes elements of `source` into an accumulator of `target`:
    the same type, or a narrower float or integer."""
    if source == target:
        return True
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        return source.bitwidth < target.bitwidth
    if isinstance(source, IntegerType) and isinstance(target, IntegerType):
        return source.width.data < target.width.data
    return False


def contraction_lanes(op: ContractionOp) -> tuple[list[list[int]], list[list[int]]]:
    """For each lane of the accumulator (row-major; one of a scalar) and each point of the
    reduction dimensions (row-major, in the order of the dimensions), the lane of the lhs and
    of the rhs whose product it combines: the rule interp runs and LLVM lowers."""
    lhs_dims, rhs_dims, acc_dims = op.operand_dims()
    sizes = op.dim_sizes()
    iterators = [a.data for a in op.iterator_types.data]
    reduced = [d for d, it in enumerate(iterators) if it == "reduction"]

    def lane_of(dims: list[int], point: list[int]) -> int:
        offset = 0
        for dim in dims:
            offset = offset * sizes[dim] + point[dim]
        return offset

    lhs_lanes, rhs_lanes = [], []
    point = [0] * len(sizes)
    for at in itertools.product(*(range(sizes[d]) for d in acc_dims)):
        for dim, p in zip(acc_dims, at, strict=True):
            point[dim] = p
        lhs_row, rhs_row = [], []
        for q in itertools.product(*(range(sizes[d]) for d in reduced)):
            for dim, p in zip(reduced, q, strict=True):
                point[dim] = p
            lhs_row.append(lane_of(lhs_dims, point))
            rhs_row.append(lane_of(rhs_dims, point))
        lhs_lanes.append(lhs_row)
        rhs_lanes.append(rhs_row)
    return lhs_lanes, rhs_lanes


def vector_extension_ops() -> list[type[IRDLOperation]]:
    """The ops this module adds to xDSL's `vector` (`make_context`)."""
    return [FromElementsOp, ShapeCastOp, ContractionOp]
