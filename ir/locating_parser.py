"""An MLIR parser that remembers where each op starts, for gpu-opt's diagnostics.

Its own module so that `gpu-opt --help` does not import xDSL's parser.
"""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, AttributeInvT, Block, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.parser.core import ForwardDeclaredValue, UnresolvedOperand
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError
from xdsl.utils.lexer import Position, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

OP_NAME = re.compile(r'\s*(?:%[^=]*=\s*)?"?([\w.$-]+)')
"""The name at the start of an op's text (after its results)."""
REJECTED_BY_XDSL = (AssertionError, ValueError, OverflowError, MemoryError, IndexError)
"""What some of xDSL's op parsers raise on bad input instead of a ParseError: `cf.switch`
asserts that its flag is an integer and builds its case values without a range check; a dense
literal checks its elements' range only when it is built, and stores every element of a splat;
`llvm.extractvalue`/`insertvalue` index the struct's fields with the position unchecked."""
UNDEFINED_AT_END = "values used but not defined"
"""The start of xDSL's message for values still undefined at the end of the input; it points
at the end of the file. `LocatingParser` reports the first use instead."""


STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
"""xDSL's pattern of a string literal, the same strings without its nested repetition
(`(?:[^"…]+|…)*`), which backtracks exponentially on a string left open: a line of 40
characters after an unclosed `"` took xDSL's lexer minutes (docs/xdsl-gaps.md). Set once here,
as every parse of gpuir goes through this module."""
MLIRLexer._unescaped_characters_regex = STRING_LITERAL  # noqa: SLF001


SUFFIX_ID = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
COMMON_TOKEN = re.compile(
    # whitespace and comments, skipped as xDSL's lexer does: all of them, never given back
    # (a lookahead and its copy make the group atomic, as `*+` does from Python 3.11 on)
    r"(?=(?P<space>(?://[^\n]*\n?|\s+)*))(?P=space)"
    r"(?:(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    rf"|(?P<prefixed>[%!^]{SUFFIX_ID}|#(?!-\}})" + SUFFIX_ID + ")"
    r"|(?P<at>@[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<arrow>->)"
    r"|(?P<brace>\{(?!-#))"
    r"|(?P<punctuation>[:,()}\[\]<>=+/*?|-]))",
    re.ASCII,
)
"""The tokens that make up most of a program, each as xDSL's `MLIRLexer` forms it: bare, `%`,
`!`, `^`, `#` and bare `@` identifiers, `->`, `{` and one-character punctuation."""
KINDS = {
    "bare": MLIRTokenKind.BARE_IDENT,
    "at": MLIRTokenKind.AT_IDENT,
    "arrow": MLIRTokenKind.ARROW,
    "brace": MLIRTokenKind.L_BRACE,
    "%": MLIRTokenKind.PERCENT_IDENT,
    "!": MLIRTokenKind.EXCLAMATION_IDENT,
    "^": MLIRTokenKind.CARET_IDENT,
    "#": MLIRTokenKind.HASH_IDENT,
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "}": MLIRTokenKind.R_BRACE,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "+": MLIRTokenKind.PLUS,
    "/": MLIRTokenKind.SLASH,
    "*": MLIRTokenKind.STAR,
    "?": MLIRTokenKind.QUESTION,
    "|": MLIRTokenKind.VERTICAL_BAR,
    "-": MLIRTokenKind.MINUS,
}


class CommonTokenLexer(MLIRLexer):
    """xDSL's MLIR lexer, with the common tokens (`COMMON_TOKEN`) matched by one regular
    expression instead of a character at a time: lexing was a quarter of a parse. Every other
    token (numbers, strings, the ends of file metadata, the end of the input) and every error
    is xDSL's own, from the same position."""

    def lex(self) -> Token[MLIRTokenKind, str]:
        match = COMMON_TOKEN.match(self.input.content, self.pos)
        if match is None:
            return super().lex()
        group = match.lastgroup
        start, end = match.span(group)
        self.pos = end
        kind = KINDS.get(group) or KINDS[self.input.content[start]]  # type: ignore[arg-type]
        return Token(kind, Span(start, end, self.input))


class LocatingParser(Parser):
    """xDSL's MLIR parser, remembering where each op starts.

    xDSL's parser keeps only an explicit `loc(...)`; `gpu_opt.ParsedChunk.set_locations` gives the
    other ops the location of their first token, as MLIR's parser does. Bad input that xDSL's
    parsers reject with an exception (`REJECTED_BY_XDSL`), or accept with an operand left
    unresolved (`undefined_operand`), is a ParseError at the op; so is a block defined twice,
    and a value that is never defined (at its first use, as in MLIR).
    """

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        xdsls = self._parser_state.lexer  # it has read the first token; the rest are ours
        lexer = CommonTokenLexer(xdsls.input)
        lexer.pos = xdsls.pos
        self._parser_state.lexer = lexer
        self.op_starts: dict[Operation, int] = {}
        self.forward_names: dict[SSAValue, str] = {}
        self.defined_blocks: dict[Block, Span[str]] = {}
        self.first_uses: dict[str, Span[str]] = {}
        """Where each value name was first used before its definition."""
        self.dialect_bodies: dict[tuple[str, bool, str], Attribute] = {}
        """Each dialect type or attribute parsed so far, by its name and the text of its body."""

    def _parse_dialect_type_or_attribute_body(
        self,
        attr_name: str,
        is_type: bool,
        is_opaque: bool,
        starting_opaque_pos: Position | None,
    ) -> Attribute:
        """xDSL's, but a pretty type or attribute whose body (`<f32, 1>`) was parsed before in
        this input is that one again: a program names its few types over and over, and their
        parsers were a third of a parse. Attributes are immutable values, and a body means
        the same throughout one input (an alias is defined before its first use)."""
        token = self._current_token
        if is_opaque or token.kind is not MLIRTokenKind.LESS or "." not in attr_name:
            return super()._parse_dialect_type_or_attribute_body(
                attr_name, is_type, is_opaque, starting_opaque_pos
            )
        try:  # where the body ends, as xDSL finds the end of an opaque one
            end = self._raw_scan_balanced(token.span.end)
        except ParseError:  # unbalanced: xDSL's parser says where
            return super()._parse_dialect_type_or_attribute_body(
                attr_name, is_type, is_opaque, starting_opaque_pos
            )
        key = (attr_name, is_type, self.lexer.input.content[token.span.start : end + 1])
        known = self.dialect_bodies.get(key)
        if known is not None:
            self.lexer.pos = end + 1
            self._parser_state.current_token = self.lexer.lex()
            return known
        parsed = super()._parse_dialect_type_or_attribute_body(
            attr_name, is_type, is_opaque, starting_opaque_pos
        )
        if self._current_token.span.start > end:  # the parser read the body, all of it
            self.dialect_bodies[key] = parsed
        return parsed

    def _parse_external_resources(self) -> None:
        """MLIR's external resources (`{-# external_resources: {…} #-}`, as a crash
        reproducer's `mlir_reproducer`): data for other tools, read and set aside, as mlir-opt
        does with a key it has no handler for (xDSL raised NotImplementedError on them).
        gpu-opt's `--run-reproducer` reads the reproducer's pipeline itself."""
        self._parse_token(MLIRTokenKind.L_BRACE, "expected '{' after 'external_resources:'")
        depth = 1
        while depth:
            token = self._consume_token()
            if token.kind == MLIRTokenKind.L_BRACE:
                depth += 1
            elif token.kind == MLIRTokenKind.R_BRACE:
                depth -= 1
            elif token.kind == MLIRTokenKind.EOF:
                self.raise_error("the external resources' '{' is never closed", token.span)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as e:
            if not e.msg.startswith(UNDEFINED_AT_END):
                raise
            self.raise_undeclared(e)
        for op in module.walk():
            for i, operand in enumerate(op.operands):
                if isinstance(operand, ForwardDeclaredValue):  # see `undefined_operand`
                    start = self.op_starts.get(op, 0)
                    name = self.forward_names.get(operand, "")
                    self.raise_error(undefined_operand(i, name), start, start + 1)
        return module

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        value = super().resolve_operand(operand, type)
        if isinstance(value, ForwardDeclaredValue):
            self.forward_names[value] = operand.operand_name
            self.first_uses.setdefault(operand.operand_name, operand.span)
        return value

    def raise_undeclared(self, error: ParseError) -> None:
        """mlir-opt's `use of undeclared SSA value name`, at the first use of the first value
        (in the text) that is never defined; `error` (xDSL's, at the end of the input) when no
        use was seen."""
        uses = sorted(
            (self.first_uses[name].start, name)
            for name in self.forward_ssa_references
            if name in self.first_uses
        )
        if not uses:
            raise error
        (_, name), others = uses[0], [f"%{n}" for _, n in uses[1:]]
        more = f" (also undeclared: {', '.join(others)})" if others else ""
        self.raise_error(f"use of undeclared SSA value name %{name}{more}", self.first_uses[name])

    def _parse_block(self) -> Block:
        """xDSL's, but a second definition of a block that was referenced before its first
        definition is the error it is (xDSL forgets that first definition and fails with a
        KeyError), and a token that starts neither an op nor a block says what was expected
        (xDSL's message was ` in block definition`)."""
        token = self._current_token
        if token.kind is not MLIRTokenKind.CARET_IDENT:
            self.raise_error(
                f"expected an operation, a block label (^name) or '}}', found '{token.text}'",
                token.span.start,
                token.span.end,
            )
        known = self.blocks.get(token.text[1:]) if token.kind is MLIRTokenKind.CARET_IDENT else None
        if known is not None and known[0] in self.defined_blocks:
            raise MultipleSpansParseError(
                token.span,
                f"re-declaration of block '{token.text[1:]}'",
                "originally declared here:",
                [(self.defined_blocks[known[0]], None)],
            )
        block = super()._parse_block()
        self.defined_blocks[block] = token.span
        return block

    def parse_operation(self) -> Operation:
        start = self.pos
        try:
            op = super().parse_operation()
        except REJECTED_BY_XDSL as e:
            self.raise_error(
                rejected(e, self.lexer.input.content[start : self.pos]), start, self.pos
            )
        self.op_starts[op] = start
        return op


def undefined_operand(index: int, name: str) -> str:
    """xDSL's parser resolves a forward reference by the next definition of its name, even one
    in a region that the use is outside of; an op whose operand is defined in its own region
    (`init(%p)` with `%p` in the body) then keeps an unresolved value, which nothing reports
    and every verifier trips over."""
    shown = f" (%{name})" if name else ""
    return f"operand #{index}{shown} is not defined where it is used (is it a value of a region?)"


def rejected(error: BaseException, text: str) -> str:
    """The message for an op whose text (`text`) xDSL's parser rejected with `error`."""
    match = OP_NAME.match(text)
    name = match.group(1) if match else "op"
    if isinstance(error, MemoryError):
        return f"'{name}' is too large to hold in memory (a dense literal of a huge shape?)"
    detail = str(error).strip()
    if isinstance(error, IndexError):
        return f"'{name}' is malformed: a position or index is out of range"
    if isinstance(error, AssertionError) or not detail:
        return f"'{name}' is malformed: xDSL's parser rejects it (an operand of the wrong type?)"
    return f"'{name}': {detail}"
