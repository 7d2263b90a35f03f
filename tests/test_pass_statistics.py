"""`Statistic`, the counts a pass keeps (`gpuir.ir.pass_manager`): declared on the class,
counted on each pass object (frozen dataclasses too), listed by `statistics_of` with zeros for
the ones never counted, inherited by subclasses. The report that `--mlir-pass-statistics`
makes of them is lit-tested (tests/lit/passes/*.mlir, the STATS lines)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from gpuir.dialects import make_context
from gpuir.ir.pass_manager import Counter, Statistic, StatisticValue, statistics_of


@dataclass(frozen=True)
class CountOpsPass(ModulePass):
    """Count the ops of the module, and the functions among them."""

    name = "test-count-ops"

    ops = Statistic("num-ops", "Number of ops seen")
    funcs = Statistic("num-funcs", "Number of functions seen")
    unused = Statistic("num-unused", "Number of nothing")

    step: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            self.ops.add(self.step)
            if inner.name == "func.func":
                self.funcs.add()


TEXT = """
func.func @f() {
  func.return
}
func.func @g() {
  func.return
}
"""


def module() -> ModuleOp:
    return Parser(make_context(), TEXT).parse_module()


def counts(p: ModulePass) -> dict[str, int]:
    return {s.name: s.value for s in statistics_of(p)}


def test_a_frozen_pass_counts():
    p = CountOpsPass()
    p.apply(Context(), module())
    assert counts(p) == {"num-ops": 5, "num-funcs": 2, "num-unused": 0}
    assert int(p.ops) == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.step = 2  # type: ignore[misc]  # still frozen


def test_counts_add_up_over_runs_of_one_object():
    p = CountOpsPass(step=2)
    p.apply(Context(), module())
    p.apply(Context(), module())
    assert counts(p)["num-ops"] == 20
    assert counts(p)["num-funcs"] == 4


def test_two_objects_count_separately():
    first, second = CountOpsPass(), CountOpsPass()
    first.apply(Context(), module())
    assert counts(first)["num-ops"] == 5
    assert counts(second)["num-ops"] == 0
    second.apply(Context(), module())
    second.apply(Context(), module())
    assert (counts(first)["num-ops"], counts(second)["num-ops"]) == (5, 10)


def test_counts_are_not_part_of_equality_or_hash():
    counted, fresh = CountOpsPass(), CountOpsPass()
    counted.apply(Context(), module())
    assert counted == fresh
    assert hash(counted) == hash(fresh)
    assert counts(dataclasses.replace(counted)) == counts(fresh)  # a new object starts at 0


def test_statistics_of_lists_every_statistic_with_zeros_for_untouched_ones():
    assert statistics_of(CountOpsPass()) == [
        StatisticValue("num-ops", "Number of ops seen", 0),
        StatisticValue("num-funcs", "Number of functions seen", 0),
        StatisticValue("num-unused", "Number of nothing", 0),
    ]


def test_a_pass_without_statistics_has_none():
    @dataclass(frozen=True)
    class NothingPass(ModulePass):
        name = "test-nothing"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            pass

    assert statistics_of(NothingPass()) == []


def test_the_class_attribute_is_the_statistic_and_the_object_attribute_its_counter():
    assert isinstance(CountOpsPass.ops, Statistic)
    assert CountOpsPass.ops.name == "num-ops"
    p = CountOpsPass()
    assert isinstance(p.ops, Counter)
    assert p.ops is p.ops  # one counter per object and statistic
    p.ops.add(3)
    assert repr(p.ops) == "num-ops=3"


def test_a_subclass_inherits_the_statistics_and_adds_its_own():
    @dataclass(frozen=True)
    class CountMorePass(CountOpsPass):
        name = "test-count-more"

        returns = Statistic("num-returns", "Number of func.return ops seen")

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            super().apply(ctx, op)
            self.returns.add(sum(inner.name == "func.return" for inner in op.walk()))

    p = CountMorePass()
    p.apply(Context(), module())
    assert [s.name for s in statistics_of(p)] == [
        "num-ops",
        "num-funcs",
        "num-unused",
        "num-returns",
    ]
    assert counts(p) == {"num-ops": 5, "num-funcs": 2, "num-unused": 0, "num-returns": 2}
    assert counts(CountOpsPass()) == {"num-ops": 0, "num-funcs": 0, "num-unused": 0}


def test_a_subclass_may_redeclare_a_statistic_by_name():
    @dataclass(frozen=True)
    class RenamedPass(CountOpsPass):
        name = "test-renamed"

        ops = Statistic("num-ops", "Number of ops counted again")

    p = RenamedPass()
    p.apply(Context(), module())
    found = {s.name: s for s in statistics_of(p)}
    assert len(statistics_of(p)) == 3
    assert found["num-ops"] == StatisticValue("num-ops", "Number of ops counted again", 5)


def test_a_gpuir_pass_counts_what_it_did():
    from gpuir.passes.remove_double_syncs import RemoveDoubleSyncsPass

    text = """
    func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)
        attributes {gpu.kernel} {
      %a1, %a3 = gpu.sync_work_items %m1, %m3
      %b1, %b3 = gpu.sync_work_items %a1, %a3
      func.return %b1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }
    """
    p = RemoveDoubleSyncsPass()
    p.apply(Context(), Parser(make_context(), text).parse_module())
    assert counts(p) == {"num-barriers-removed": 2}
