"""Where diagnostics point, through the Python API and the shared formatting (ir/source.py): an
undefined value at its first use, a terminator that does not match its parent at the
terminator, and the failing op in a note as one line (the CLI cases are lit tests in
tests/lit/tools/diagnostics/)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

import gpuir
from gpuir.api import CompileError
from gpuir.ir.source import ParsedChunk, format_diagnostic, op_text

UNDEFINED = """\
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %c : i32
  func.return %m, %b : !mem.M<0>, i32
}
"""

FOR_YIELD = """\
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %lb = arith.constant 0 : index
  %x = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %lb step %lb iter_args(%acc = %x) -> (f32) {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  func.return %m, %r : !mem.M<0>, f32
}
"""


def test_an_undefined_value_is_reported_at_its_first_use():
    with pytest.raises(CompileError) as caught:
        gpuir.compile(UNDEFINED)
    assert str(caught.value).splitlines() == [
        "<string>:3:23: error: use of undeclared SSA value name %c",
        "  %b = arith.addi %a, %c : i32",
        "                      ^^",
    ]


def test_a_mismatched_yield_is_reported_at_the_yield():
    with pytest.raises(CompileError) as caught:
        gpuir.compile(FOR_YIELD)
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("<string>:6:5: error: Expected yield arg #0 to be f32, but got i32")
    assert lines[1:] == [
        "    scf.yield %c : i32",
        "    ^",
        'note: see current operation: "scf.yield"(%c) : (i32) -> ()',
    ]


def test_an_op_with_regions_is_shown_as_its_first_line():
    with pytest.raises(CompileError) as caught:
        empty_body = "    %c = arith.constant 1 : i32\n    scf.yield %c : i32\n"
        gpuir.compile(FOR_YIELD.replace(empty_body, ""))
    assert str(caught.value).splitlines()[-1] == (
        'note: see current operation: %r = "scf.for"(%lb, %lb, %lb, %x) ({...}) : '
        "(index, index, index, f32) -> f32"
    )


def test_xdsls_module_dump_is_cut_to_the_failing_op():
    """A VerifyException whose op is not found again keeps, of the module xDSL printed into its
    note, only the line of the op it marked."""
    parsed = ParsedChunk(ModuleOp([]), "m.mlir", None, 0, {})
    inner = ModuleOp([])
    parsed.module.body.block.add_op(inner)
    try:
        inner.emit_error("the inner module is wrong", VerifyException("something broke"))
    except VerifyException as e:
        error = e
    assert len(error.__notes__[0].splitlines()) > 3  # the module, the marker, the message
    assert format_diagnostic(error, parsed).splitlines() == [
        "m.mlir: error: something broke",
        'note: see current operation: "builtin.module"() ({',
    ]
    assert op_text(parsed.module) == '"builtin.module"() ({...}) : () -> ()'
