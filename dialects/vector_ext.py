"""The ops of MLIR 22's `vector` dialect that xDSL 0.75's `vector` lacks and that gpuir runs:
`vector.from_elements` and `vector.shape_cast`, with MLIR's names, syntax and checks.

gpuir's contexts add them to xDSL's `vector` (`make_context`), which has the other ops gpuir
runs: `broadcast`, `extract`, `insert`, `shuffle`, `fma`, `reduction`, `bitcast`. Vectors
in memory (`vector.load`, `transfer_read`, …) and `vector.print` are upstream MLIR's, on
memrefs: the upstream importer makes them `mem` loads and stores and `printf`
(`gpuir.ir.upstream.vectors`; docs/ir-extensions.md, "Vectors").
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import VectorType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
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


def vector_extension_ops() -> list[type[IRDLOperation]]:
    """The ops this module adds to xDSL's `vector` (`make_context`)."""
    return [FromElementsOp, ShapeCastOp]
