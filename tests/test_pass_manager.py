"""The pass manager from Python (`gpuir.ir.pass_manager`): pipeline text, nesting, the
instrumentation's events (a composite's stages included), failures."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

import gpuir.passes  # noqa: F401  # gpuir's passes join the registry
from gpuir.dialects import make_context
from gpuir.ir.locating_parser import LocatingParser
from gpuir.ir.pass_manager import (
    Execution,
    OpPass,
    PassInstrumentation,
    PassManager,
    PipelineError,
    UnknownPass,
    failure_of,
    parse_pass_pipeline,
    run_passes,
)
from gpuir.ir.registry import pass_table

PROGRAM = """
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %b = arith.addi %a, %c : i32
  func.return %b : i32
}
func.func @g() {
  func.return
}
"""


def parse(text: str = PROGRAM) -> ModuleOp:
    return LocatingParser(make_context(), text, "t.mlir").parse_module()


@dataclass(frozen=True)
class NamePass(OpPass):
    """Record the name of each function it runs on."""

    name = "test-names"
    op_name = "func.func"

    def run_on_operation(self, ctx: Context, op: Operation) -> None:
        assert isinstance(op, FuncOp)
        SEEN.append(op.sym_name.data)


@dataclass(frozen=True)
class TwoStagesPass(ModulePass):
    """A composite: two stages through the pass manager."""

    name = "test-two-stages"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(ctx, op, [NamePass(), NamePass()])


@dataclass(frozen=True)
class FailPass(ModulePass):
    name = "test-fail"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise RuntimeError("boom")


SEEN: list[str] = []


def passes() -> dict:
    table = dict(pass_table())
    for cls in (NamePass, TwoStagesPass, FailPass):
        table[cls.name] = lambda cls=cls: cls
    return table


@dataclass
class Events(PassInstrumentation):
    log: list[str]

    def run_before_pipeline(self, anchor, op, path):
        self.log.append(f"pipeline {anchor} {len(path)}")

    def run_before_pass(self, p, op, path):
        self.log.append(f"before {p.name} on {op.name} at {'/'.join(k.name for k in path)}")

    def run_after_pass(self, p, op, path):
        self.log.append(f"after {p.name}")

    def run_after_pass_failed(self, p, op, path, error):
        self.log.append(f"failed {p.name}: {error}")


def test_pipeline_text_round_trips():
    for text in (
        "builtin.module(canonicalize, func.func(cse, test-names))",
        "builtin.module(any(cse))",
        'builtin.module(split-apply{host-pipeline="cse,canonicalize" device-pipeline=""})',
    ):
        pm = parse_pass_pipeline(text, passes())
        again = parse_pass_pipeline(str(pm), passes())
        assert str(again) == str(pm)
    flat = parse_pass_pipeline("cse,test-names", passes())
    assert flat.flat and str(flat) == "cse, test-names"


def test_nested_pipeline_runs_on_each_function_in_order():
    SEEN.clear()
    pm = parse_pass_pipeline(
        "builtin.module(func.func(test-names), func.func(test-names))", passes()
    )
    pm.run(Context(), parse())
    assert SEEN == ["f", "g", "f", "g"]


def test_a_flat_op_pass_walks_nested_modules():
    SEEN.clear()
    module = parse(f"builtin.module {{ builtin.module @inner {{ {PROGRAM} }} }}")
    parse_pass_pipeline("test-names", passes()).run(Context(), module)
    assert SEEN == ["f", "g"]


def test_a_module_pass_runs_on_a_function_inside_a_module_made_for_it():
    module = parse()
    parse_pass_pipeline("builtin.module(func.func(canonicalize))", passes()).run(Context(), module)
    f = next(iter(module.ops))
    assert [op.name for op in f.walk()] == ["func.func", "func.return"]  # a + 0 folded
    assert [op.sym_name.data for op in module.ops] == ["f", "g"]  # back in place, in order


def test_the_instrumentation_sees_a_composites_stages():
    SEEN.clear()
    log: list[str] = []
    pm = parse_pass_pipeline("builtin.module(test-two-stages, func.func(test-names))", passes())
    Execution([Events(log)]).run(Context(), parse(), pm)
    assert log == [
        "before test-two-stages on builtin.module at TwoStages",
        "before test-names on builtin.module at TwoStages/Name",
        "after test-names",
        "before test-names on builtin.module at TwoStages/Name",
        "after test-names",
        "after test-two-stages",
        "pipeline func.func 1",
        "before test-names on func.func at 'func.func' Pipeline/Name",
        "after test-names",
        "pipeline func.func 1",
        "before test-names on func.func at 'func.func' Pipeline/Name",
        "after test-names",
    ]


def test_a_failure_names_the_innermost_pass():
    log: list[str] = []
    pm = PassManager(elements=[TwoStagesPass(), FailPass()])
    with pytest.raises(RuntimeError) as caught:
        Execution([Events(log)]).run(Context(), parse(), pm)
    failure = failure_of(caught.value)
    assert failure is not None and failure.pass_.name == "test-fail"
    assert not failure.invalid_result
    assert log[-1] == "failed test-fail: boom"


def test_bad_pipelines_say_where():
    with pytest.raises(UnknownPass, match="unknown pass 'csee' \\(did you mean 'cse'\\?\\)"):
        parse_pass_pipeline("builtin.module(csee)", passes())
    with pytest.raises(PipelineError, match=re.escape("expected ')' to close 'builtin.module('")):
        parse_pass_pipeline("builtin.module(func.func(cse)", passes())
    with pytest.raises(PipelineError, match="runs on 'func.func' ops, not on 'builtin.module'"):
        parse_pass_pipeline("builtin.module(test-names)", passes())
    with pytest.raises(PipelineError, match="neither a pass nor an op"):
        parse_pass_pipeline("builtin.module(fnuc.func(cse))", passes(), lambda name: False)


def test_a_pass_that_preserves_the_ir_is_not_verified_again(monkeypatch):
    """As MLIR skips the verifier after a pass that preserved all analyses: not after a check
    pass (`PRESERVES_IR`), after any other."""
    import gpuir.ir.pass_manager as pass_manager

    verified: list[int] = []
    monkeypatch.setattr(pass_manager, "verify", lambda op: verified.append(1))
    pm = parse_pass_pipeline("builtin.module(check-tokens, check-addr-spaces)", passes())
    Execution().run(make_context(), parse(), pm)
    assert verified == []
    pm = parse_pass_pipeline("builtin.module(check-tokens, canonicalize)", passes())
    Execution().run(make_context(), parse(), pm)
    assert verified == [1]


def test_every_pass_that_declares_it_leaves_the_examples_as_they_are():
    """A pass that says it preserves the IR (no verifier after it) prints every example the
    same after it as before."""
    from pathlib import Path

    from xdsl.utils.exceptions import DiagnosticException

    from gpuir.ir.pass_manager import preserves_ir
    from gpuir.ir.registry import all_passes

    declared = [make() for make in all_passes().values() if preserves_ir(make())]
    assert {p.name for p in declared} >= {"check-tokens", "check-addr-spaces", "mem-checks"}
    examples = sorted((Path(__file__).parent.parent / "examples").glob("*.mlir"))
    for cls in declared:
        for example in examples:
            if example.name.startswith("invalid-"):
                continue
            module = LocatingParser(
                make_context(), example.read_text(), str(example)
            ).parse_module()
            before = str(module)
            try:
                cls().apply(make_context(), module)
            except DiagnosticException:
                continue  # an example the check rejects: nothing to compare
            assert str(module) == before, (cls.name, example.name)
