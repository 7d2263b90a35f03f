"""gpu-opt's parser (`gpuir.ir.locating_parser`):
- a dialect type or attribute whose body was parsed before in the same input is that value
  again, without parsing it again; the module is the one xDSL's own parser builds, and a body
  that does not parse is still an error where it stands;
- its lexer forms the tokens and errors xDSL's forms, on every test program and on random text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from gpuir.dialects import make_context
from gpuir.ir.locating_parser import CommonTokenLexer, LocatingParser

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = """\
func.func @f(%p: !mem.ptr<f32, 1>, %q: !mem.ptr<f32, 1>, %m: !mem.M<1>) -> !mem.ptr<i32, 1> {
  %a, %b = "test.op"() : () -> (!mem.ptr<i32, 1>, !mem.ptr<f64, 1>)
  func.return %a : !mem.ptr<i32, 1>
}
"""


def printed(module) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_a_body_parsed_again_is_the_same_value_and_the_module_is_xdsls():
    ctx = make_context()
    parser = LocatingParser(ctx, PROGRAM, "t.mlir")
    module = parser.parse_module()
    func = next(iter(module.ops))
    p, q, _ = func.body.block.args
    assert p.type is q.type  # parsed once
    made = next(op for op in module.walk() if op.name == "test.op")
    assert made.results[0].type != made.results[1].type != p.type
    assert {key[2] for key in parser.dialect_bodies} >= {"<f32, 1>", "<i32, 1>", "<f64, 1>", "<1>"}
    assert printed(module) == printed(Parser(ctx, PROGRAM, "t.mlir").parse_module())


@pytest.mark.parametrize(("bad", "at"), [("!mem.ptr<f32, x>", "x>"), ('!mem.ptr<f32, "1>', '"1>')])
def test_a_body_that_does_not_parse_is_an_error_where_it_stands(bad, at):
    """After the same body parsed well: a wrong parameter, and a string never closed."""
    text = PROGRAM.replace("%q: !mem.ptr<f32, 1>", f"%q: {bad}")
    with pytest.raises(ParseError) as caught:
        LocatingParser(make_context(), text, "t.mlir").parse_module()
    assert caught.value.span.start == text.index(at)


def tokens(lexer: type[MLIRLexer], text: str) -> list[tuple[object, ...]]:
    """The tokens of `text` (kind and span), up to the end or the first error (its message and
    span)."""
    lex = lexer(Input(text, "t.mlir"))
    found: list[tuple[object, ...]] = []
    while not found or found[-1][0] is not MLIRTokenKind.EOF:
        try:
            token = lex.lex()
        except ParseError as e:
            return [*found, ("error", e.msg, e.span.start, e.span.end)]
        found.append((token.kind, token.span.start, token.span.end))
    return found


def test_the_lexer_forms_xdsls_tokens_on_every_test_program():
    paths = sorted(ROOT.glob("tests/lit/**/*.mlir")) + sorted(ROOT.glob("examples/*.mlir"))
    assert len(paths) > 300
    for path in paths:
        text = path.read_text(errors="replace")
        assert tokens(CommonTokenLexer, text) == tokens(MLIRLexer, text), path


PIECES = [
    *' \n\t/%!^#@$._-{}<>()[]:,=+*?|"aZ0é\u00a0\\',
    *["// c\n", "//", "->", "{-#", "#-}", '"s"', "x1", "42", "1.5e3", "0x1F", "..."],
]
"""Characters and pieces of MLIR text (and a few that are none), for random texts."""


def test_the_lexer_forms_xdsls_tokens_and_errors_on_random_text():
    rng = random.Random(0)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 24)))
        assert tokens(CommonTokenLexer, text) == tokens(MLIRLexer, text), repr(text)
