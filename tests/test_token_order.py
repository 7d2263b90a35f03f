"""interp's token-order check (`gpuir.runtime.engine.token_order`): the order the chains give, which
modules are tracked, and the conflicts found while a program runs. The lit programs
`tests/lit/run/token-order-*.mlir` check the diagnostics of whole programs."""

from __future__ import annotations

import glob
import io

import pytest
from xdsl.dialects import test
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.passes.checks.check_tokens import forked_spaces
from gpuir.runtime.engine.token_order import consume, fork_of, ordered, root
from gpuir.runtime.host import HostExecutor
from gpuir.runtime.interp import InterpProvider
from gpuir.runtime.provider import ProviderError

OPS = [test.TestOp() for _ in range(6)]


def test_a_linear_chain_orders_every_pair():
    t0 = root()
    t1 = consume(t0, OPS[0])
    t2 = consume(t1, OPS[1])
    t3 = consume(t2, OPS[2])
    assert ordered(t1, t2) and ordered(t1, t3) and ordered(t2, t3)
    assert not ordered(t3, t1) and not ordered(t2, t1)
    assert ordered(t2, t2)  # one op's own read and write (an atomic)


def test_a_token_consumed_twice_forks_the_chain():
    t0 = root()
    a = consume(t0, OPS[0])  # the first consumer goes on along the chain
    b = consume(t0, OPS[1])  # the second starts a branch
    a2 = consume(a, OPS[2])
    b2 = consume(b, OPS[3])
    assert not ordered(a, b) and not ordered(b, a)
    assert not ordered(a2, b2) and not ordered(b2, a2) and not ordered(a, b2)
    assert ordered(a, a2) and ordered(b, b2)
    fork = fork_of(a2, b2)
    assert fork is not None and fork.op is OPS[1] and fork.parent is t0
    assert fork.parent.consumer is OPS[0]


def test_what_came_before_the_fork_is_ordered_before_both_sides():
    t0 = root()
    before = consume(t0, OPS[0])
    a = consume(before, OPS[1])
    b = consume(before, OPS[2])
    c = consume(b, OPS[3])
    d = consume(b, OPS[4])  # a fork on the branch
    for later in (a, b, c, d):
        assert ordered(before, later)
    assert ordered(b, c) and ordered(b, d) and not ordered(c, d) and not ordered(a, d)
    branch = fork_of(c, d)
    assert branch is not None and branch.op is OPS[4]
    assert fork_of(a, d) is not None and fork_of(a, d).op is OPS[2]  # the earlier fork


def module(text: str):
    parsed = Parser(make_context(), text, "t.mlir").parse_module()
    parsed.verify()
    return parsed


STORES = """
func.func @main(%t: !mem.M<0>, %p: !mem.ptr<i32, 0>, %q: !mem.ptr<i32, 0>) -> !mem.M<0> {
  %one = arith.constant 1 : i32
  %t1 = mem.store %t, %p, %one : !mem.ptr<i32, 0>
  %t2 = mem.store %SECOND, %q, %one : !mem.ptr<i32, 0>
  func.return %t2 : !mem.M<0>
}
"""


def test_only_forked_spaces_are_tracked():
    assert forked_spaces(module(STORES.replace("%SECOND", "%t1"))) == frozenset()
    assert forked_spaces(module(STORES.replace("%SECOND", "%t"))) == {0}


@pytest.mark.parametrize("path", sorted(glob.glob("examples/*.mlir")))
def test_linear_examples_run_with_plain_tokens(path: str):
    """A program whose chains never fork runs as it did before the check: no machine tracks."""
    from gpuir.tools.gpu_reduce import read_module

    try:
        parsed = read_module(open(path).read(), path)
    except Exception:
        pytest.skip("not a program gpu-run reads as is")
    if forked_spaces(parsed):
        pytest.skip("its chains fork")
    executor = HostExecutor(parsed, InterpProvider(io.StringIO()))
    assert executor.machine.code.wrap is None and executor.machine.order is None


CONFLICT = """
func.func @main(%t: !mem.M<0>, %same: i1) -> (!mem.M<0>, i32) {
  %t0, %p = mem.slot %t : !mem.ptr<i32, 0>
  %t1, %q = mem.slot %t0 : !mem.ptr<i32, 0>
  %r = arith.select %same, %p, %q : !mem.ptr<i32, 0>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %a = mem.store %t1, %p, %one : !mem.ptr<i32, 0>
  %b = mem.store %t1, %r, %two : !mem.ptr<i32, 0>
  %c, %v = mem.load %a, %p : !mem.ptr<i32, 0>
  func.return %c, %v : !mem.M<0>, i32
}
"""


def test_an_unordered_write_is_an_error_naming_both_ops():
    executor = HostExecutor(module(CONFLICT), InterpProvider(io.StringIO()))
    assert [value for value, _ in executor.run_main([0])] == [1]  # two slots: no conflict
    executor = HostExecutor(module(CONFLICT), InterpProvider(io.StringIO()))
    with pytest.raises(ProviderError) as caught:
        executor.run_main([1])
    error = caught.value
    assert error.name == "unordered access"
    assert error.op.name == "mem.store" and "both consume one token" in str(error)
    assert error.op.operands[2].owner.value.value.data == 2  # the second store
    assert [op.name for op, _ in error.related] == ["mem.store"]
