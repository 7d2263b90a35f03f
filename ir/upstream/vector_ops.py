"""Upstream MLIR's `vector` dialect as the upstream reader takes it (`UpstreamVector`): xDSL's
`vector` (memory ops on memrefs included) and gpuir's additions (`vector.from_elements`,
`vector.shape_cast`, `vector.contract`), with the ops xDSL lacks or reads differently from MLIR 22:
`vector.print` (of a scalar or a vector, `punctuation <…>`, `str "…"`),
`vector.constant_mask`, `vector.step`, and the older MLIR's `vector.splat`,
`vector.extractelement` and `vector.insertelement` (MLIR 22 has removed them; programs that
older vectorizers wrote still use them). The importer (`gpuir.ir.upstream.vectors`) makes
gpuir's ops of them.
"""

from __future__ import annotations

from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.vector_ext import vector_extension_ops

PUNCTUATIONS = ("no_punctuation", "newline", "comma", "open", "close")
"""`vector.print`'s `punctuation <…>` kinds (MLIR's `PrintPunctuation`)."""


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`vector.print %x : T` (a scalar or a vector, then a newline), `vector.print %x : T
    punctuation <comma>` (then that instead), `vector.print [punctuation <…>]` (a newline, or
    that), `vector.print str "…"`."""

    name = "vector.print"
    source = opt_operand_def()
    punctuation = opt_prop_def(StringAttr)
    string = opt_prop_def(StringAttr)

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        properties: dict[str, Attribute] = {}
        value = parser.parse_optional_operand()
        if value is not None:
            parser.parse_punctuation(":")
            parser.parse_type()
        elif parser.parse_optional_keyword("str") is not None:
            properties["string"] = StringAttr(parser.parse_str_literal())
        if parser.parse_optional_keyword("punctuation") is not None:
            parser.parse_punctuation("<")
            kind = parser.parse_identifier()
            if kind not in PUNCTUATIONS:
                parser.raise_error(f"expected one of {', '.join(PUNCTUATIONS)}, found {kind}")
            parser.parse_punctuation(">")
            properties["punctuation"] = StringAttr(kind)
        return cls.create(operands=[value] if value is not None else [], properties=properties)


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`%m = vector.constant_mask [2, 3] : vector<4x8xi1>`: true where every index is below
    its dimension's size."""

    name = "vector.constant_mask"
    mask_dim_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType)
    assembly_format = "$mask_dim_sizes attr-dict `:` type($result)"

    def verify_(self) -> None:
        type_ = self.result.type
        assert isinstance(type_, VectorType)
        sizes = self.mask_dim_sizes.get_values()
        if len(sizes) != type_.get_num_dims():
            raise VerifyException(
                f"'{self.name}' expects {type_.get_num_dims()} sizes for {type_}, "
                f"found {len(sizes)}"
            )


@irdl_op_definition
class StepOp(IRDLOperation):
    """`%s = vector.step : vector<4xindex>`: 0, 1, 2, 3."""

    name = "vector.step"
    result = result_def(VectorType)
    assembly_format = "attr-dict `:` type($result)"


def _parse_vector_type(parser: Parser) -> VectorType:
    """`: vector<…>`, the type these ops end with."""
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    if not isinstance(type_, VectorType):
        parser.raise_error(f"expected a vector type, found {type_}")
    return type_


def _parse_position(parser: Parser) -> list:
    """`[%i : index]` or `[]`."""
    parser.parse_punctuation("[")
    if parser.parse_optional_punctuation("]") is not None:
        return []
    position = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    position_type = parser.parse_type()
    parser.parse_punctuation("]")
    return [parser.resolve_operand(position, position_type)]


@irdl_op_definition
class SplatOp(IRDLOperation):
    """`%v = vector.splat %x : vector<4xf32>` (before MLIR 22): `vector.broadcast`."""

    name = "vector.splat"
    input = operand_def()
    result = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser) -> SplatOp:
        unresolved = parser.parse_unresolved_operand()
        type_ = _parse_vector_type(parser)
        value = parser.resolve_operand(unresolved, type_.element_type)
        return cls.create(operands=[value], result_types=[type_])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%x = vector.extractelement %v[%i : index] : vector<4xf32>` (before MLIR 22)."""

    name = "vector.extractelement"
    vector = operand_def(VectorType)
    position = opt_operand_def()
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        unresolved = parser.parse_unresolved_operand()
        position = _parse_position(parser)
        type_ = _parse_vector_type(parser)
        value = parser.resolve_operand(unresolved, type_)
        return cls.create(operands=[value, *position], result_types=[type_.element_type])


@irdl_op_definition
class InsertElementOp(IRDLOperation):
    """`%w = vector.insertelement %x, %v[%i : index] : vector<4xf32>` (before MLIR 22)."""

    name = "vector.insertelement"
    source = operand_def()
    dest = operand_def(VectorType)
    position = var_operand_def(IndexType)
    result = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser) -> InsertElementOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        position = _parse_position(parser)
        type_ = _parse_vector_type(parser)
        operands = [
            parser.resolve_operand(source, type_.element_type),
            parser.resolve_operand(dest, type_),
            *position,
        ]
        return cls.create(operands=operands, result_types=[type_])


UpstreamVector = Dialect(
    "vector",
    [
        *(op for op in vector.Vector.operations if op.name != PrintOp.name),
        *vector_extension_ops(),
        PrintOp,
        ConstantMaskOp,
        StepOp,
        SplatOp,
        ExtractElementOp,
        InsertElementOp,
    ],
    list(vector.Vector.attributes),
)
"""xDSL's `vector`, gpuir's additions, and the ops above."""
