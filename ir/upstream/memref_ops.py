"""Upstream MLIR's `memref` ops whose custom syntax xDSL does not read (it reads their generic
form only): `memref.cast`, `memref.copy`, `memref.atomic_rmw` and `memref.global` (with MLIR's
untyped `dense<…>`), in `UpstreamMemref` with the rest of xDSL's `memref` (`vector`:
`vector_ops`).
"""

from __future__ import annotations

from xdsl.dialects import builtin, memref
from xdsl.dialects.builtin import MemRefType, StringAttr, UnitAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class CastOp(IRDLOperation):
    """`memref.cast %m : t to u` (xDSL reads only its generic form)."""

    name = "memref.cast"
    source = var_operand_def()
    dest = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> CastOp:
        value = parser.parse_operand()
        parser.parse_punctuation(":")
        parser.parse_type()
        parser.parse_keyword("to")
        return cls.create(operands=[value], result_types=[parser.parse_type()])


@irdl_op_definition
class CopyOp(IRDLOperation):
    """`memref.copy %src, %dst : t to u` (xDSL reads only its generic form)."""

    name = "memref.copy"
    source = operand_def(MemRefType)
    destination = operand_def(MemRefType)

    def verify_(self) -> None:
        source, target = self.source.type, self.destination.type
        assert isinstance(source, MemRefType) and isinstance(target, MemRefType)
        if source.get_shape() != target.get_shape():
            raise VerifyException(f"copies {source} to {target}: the shapes differ")
        if source.element_type != target.element_type:
            raise VerifyException(f"copies {source} to {target}: the element types differ")

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        source = parser.parse_operand()
        parser.parse_punctuation(",")
        target = parser.parse_operand()
        parser.parse_punctuation(":")
        parser.parse_type()
        parser.parse_keyword("to")
        parser.parse_type()
        return cls.create(operands=[source, target])


@irdl_op_definition
class AtomicRmwOp(IRDLOperation):
    """`memref.atomic_rmw kind %v, %m[%i, …] : (T, memref<…>) -> T` (xDSL reads only its
    generic form): operands the value, the memref, the indices."""

    name = "memref.atomic_rmw"
    kind = prop_def(StringAttr)
    args = var_operand_def()
    result = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRmwOp:
        kind = parser.parse_identifier()
        value = parser.parse_operand()
        parser.parse_punctuation(",")
        ref = parser.parse_operand()
        indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_operand)
        parser.parse_punctuation(":")
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(
            operands=[value, ref, *indices],
            result_types=[result],
            properties={"kind": StringAttr(kind)},
        )


def parse_initial_value(parser: Parser, type_: Attribute) -> Attribute:
    """A memref.global's `dense<…>`, whose type MLIR takes from the memref's (`dense<1>` for a
    `memref<4xi32>`): read with that tensor type when the literal has none."""
    text = parser.lexer.input.content
    start = parser.pos
    if not text.startswith("dense<", start) or not isinstance(type_, builtin.MemRefType):
        return parser.parse_attribute()
    depth, end = 0, start + len("dense")
    while end < len(text):
        depth += {"<": 1, ">": -1}.get(text[end], 0)
        end += 1
        if depth == 0:
            break
    rest = text[end:].lstrip()
    if rest.startswith(":"):
        return parser.parse_attribute()
    shape = "x".join(map(str, type_.get_shape()))
    literal = f"{text[start:end]} : tensor<{shape}{'x' if shape else ''}{type_.element_type}>"
    found = Parser(parser.ctx, literal).parse_attribute()
    parser.lexer.pos = end
    parser._parser_state.current_token = parser.lexer.lex()  # noqa: SLF001  # past the literal
    return found


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`memref.global ["private"] [constant] @name : type [= value | uninitialized]` (xDSL
    reads only its generic form)."""

    name = "memref.global"
    sym_name = prop_def(StringAttr)
    type = prop_def(Attribute)
    initial_value = opt_prop_def(Attribute)
    constant = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        parser.parse_optional_str_literal()  # the visibility
        constant = parser.parse_optional_keyword("constant") is not None
        name = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        properties: dict[str, Attribute] = {"sym_name": name, "type": type_}
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is None:
                properties["initial_value"] = parse_initial_value(parser, type_)
        if constant:
            properties["constant"] = UnitAttr()
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(properties=properties)
        op.attributes.update(attributes)
        return op


UpstreamMemref = Dialect(
    "memref",
    [
        *(
            op
            for op in memref.MemRef.operations
            if op.name not in (CastOp.name, GlobalOp.name, AtomicRmwOp.name, CopyOp.name)
        ),
        CastOp,
        GlobalOp,
        AtomicRmwOp,
        CopyOp,
    ],
    list(memref.MemRef.attributes),
)
"""xDSL's `memref`, with the custom syntax of `memref.cast`, `memref.global`,
`memref.atomic_rmw` and `memref.copy`."""
