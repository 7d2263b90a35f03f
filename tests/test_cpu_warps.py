"""Warp operations that whole warps reach but not the whole group (`lowering/cpu/warps.py`): a
branch or loop whose condition or bounds are the same for the 32 lanes of each warp runs once
per warp in `Fission`'s form, and gives `interp`'s results bit for bit; a condition that splits
a warp keeps the resumable form."""

from __future__ import annotations

import numpy as np
import pytest
from kernels import constants, item_index, kernel
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from gpuir.api import Device
from gpuir.dialects import make_context
from gpuir.lowering.cpu.forms import choose_form
from gpuir.lowering.cpu.workgroups import Helpers

PARAMS = "%group: index, %item: index, %n: index, %out: !mem.ptr<!mem.array<? x i32>, 1>"
HEAD = (
    constants(c0=0, c1=1, c2=2, c5=5, c32=32)
    + """
  %three = arith.constant 3 : i32
  %w = arith.constant WIDTH : i32
  %off = arith.constant OFFSET : i32
"""
    + item_index("%n")
    + """
  %v0 = arith.index_cast %i : index to i32
  %v = arith.muli %v0, %three : i32
  %item32 = arith.index_cast %item : index to i32
"""
)
BRANCH = """
  %r1, %r3, %r = scf.if %cond -> (!mem.M<1>, !mem.M<3>, i32) {
    %a1, %a3, %s, %ok = gpu.shuffle "MODE" %m1, %m3, %v, %off, %w : i32
    %b1, %b3, %mask = gpu.ballot %a1, %a3, %ok
    %sel = arith.select %ok, %s, %v : i32
    %mix = arith.xori %sel, %mask : i32
    scf.yield %b1, %b3, %mix : !mem.M<1>, !mem.M<3>, i32
  } else {
    %t = arith.addi %v, %three : i32
    scf.yield %m1, %m3, %t : !mem.M<1>, !mem.M<3>, i32
  }
"""
LOOP = """
  %r1, %r3, %r = scf.for %k = %c0 to %bound step %c1
      iter_args(%t1 = %m1, %t3 = %m3, %acc = %v) -> (!mem.M<1>, !mem.M<3>, i32) {
    %a1, %a3, %s, %ok = gpu.shuffle "MODE" %t1, %t3, %acc, %off, %w : i32
    %sel = arith.select %ok, %s, %three : i32
    %next = arith.addi %acc, %sel : i32
    scf.yield %a1, %a3, %next : !mem.M<1>, !mem.M<3>, i32
  }
"""
STORE = """
  %p = mem.lea %out, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %e1 = mem.store %r1, %p, %r : !mem.ptr<i32, 1>
"""

PER_WARP = {
    "item < 64": "%cond = arith.cmpi ult, %item, %c64 : index",
    "item < 224": "%cond = arith.cmpi ult, %item, %c224 : index",
    "64 > item": "%cond = arith.cmpi ugt, %c64, %item : index",
    "item <= 95": "%cond = arith.cmpi ule, %item, %c95 : index",
    "item >= 32 (i32)": "%cond = arith.cmpi sge, %item32, %k32 : i32",
    "item > 63": "%cond = arith.cmpi sgt, %item, %c63 : index",
    "odd warp": """%wid = arith.divui %item, %c32 : index
  %par = arith.remui %wid, %c2 : index
  %cond = arith.cmpi eq, %par, %c1 : index""",
    "item >> 5 == 1": """%sh = arith.shrui %item, %c5 : index
  %cond = arith.cmpi eq, %sh, %c1 : index""",
    "(item & -32) < 2 * 32": """%hi = arith.andi %item, %cm32 : index
  %twice = arith.muli %c2, %c32 : index
  %cond = arith.cmpi ult, %hi, %twice : index""",
    "item + 32 < 96": """%plus = arith.addi %item, %c32 : index
  %cond = arith.cmpi ult, %plus, %c96 : index""",
}
CONSTANTS = constants(c63=63, c64=64, c95=95, c96=96, c224=224, cm32=-32) + constants("i32", k32=32)
SPLITS_A_WARP = {
    "item < 40": "%cond = arith.cmpi ult, %item, %c40 : index",
    "item <= 32": "%cond = arith.cmpi ule, %item, %c32 : index",
    "lane < 16": """%lane = gpu.lane_id
  %cond = arith.cmpi ult, %lane, %c16 : index""",
    "item / 16 < 2": """%h = arith.divui %item, %c16 : index
  %cond = arith.cmpi ult, %h, %c2 : index""",
}
MORE = constants(c16=16, c40=40)


def text(condition: str, mode: str = "down", offset: int = 1, width: int = 32) -> str:
    head = HEAD.replace("WIDTH", str(width)).replace("OFFSET", str(offset))
    body = head + CONSTANTS + MORE + "  " + condition + "\n" + BRANCH.replace("MODE", mode)
    return kernel("k", PARAMS, body + STORE, "%e1, %r3, %m4, %m5")


def loop_text(bound: str, mode: str = "xor", offset: int = 1) -> str:
    head = HEAD.replace("WIDTH", "32").replace("OFFSET", str(offset))
    body = head + "  " + bound + "\n" + LOOP.replace("MODE", mode)
    return kernel("k", PARAMS, body + STORE, "%e1, %r3, %m4, %m5")


def form_of(source: str):
    from gpuir.lowering.cpu.workgroup_loops import lower_lane_ids

    module = Parser(make_context(), source).parse_module()
    k = next(op for op in module.walk() if isinstance(op, FuncOp))
    lower_lane_ids(k)
    return choose_form(k, Helpers(module))


def run_both(source: str, groups: int, items: int) -> dict[str, list[int]]:
    found = {}
    for provider in ("cpu", "interp"):
        with Device(provider) as device:
            out = device.upload(np.zeros(groups * items, np.int32))
            device.compile(source).kernel("k")(groups, items, items, out)
            found[provider] = out.download().tolist()
    return found


@pytest.mark.parametrize("condition", list(PER_WARP))
def test_a_condition_the_same_for_each_warp_s_lanes_runs_per_warp(condition: str):
    form = form_of(text(PER_WARP[condition]))
    assert form.name == "fission"
    assert form.op is not None and form.op.name == "scf.if"
    assert "the same for the 32 lanes of each warp" in form.why


@pytest.mark.parametrize("condition", list(SPLITS_A_WARP))
def test_a_condition_that_splits_a_warp_is_resumable(condition: str):
    form = form_of(text(SPLITS_A_WARP[condition]))
    assert form.name == "resumable"
    assert form.op is not None and form.op.name == "gpu.shuffle"


@pytest.mark.slow  # interp runs each (about a second); `make test-quick` leaves them out
@pytest.mark.parametrize(
    ("condition", "mode", "offset", "width"),
    [
        ("item < 64", "down", 1, 32),
        ("item < 224", "up", 3, 32),
        ("64 > item", "xor", 5, 32),
        ("item <= 95", "idx", 7, 16),
        ("item >= 32 (i32)", "down", 16, 32),
        ("item > 63", "down", 2, 8),
        ("odd warp", "up", 1, 32),
        ("item >> 5 == 1", "idx", 31, 32),
        ("(item & -32) < 2 * 32", "xor", 17, 32),
        ("item + 32 < 96", "down", 40, 32),
    ],
)
@pytest.mark.parametrize(("groups", "items"), [(3, 200), (2, 96), (1, 17)])
def test_per_warp_branches_give_interp_s_results(
    condition: str, mode: str, offset: int, width: int, groups: int, items: int
):
    found = run_both(text(PER_WARP[condition], mode, offset, width), groups, items)
    assert found["cpu"] == found["interp"]


LOOP_BOUNDS = {
    "warp id": "%bound = arith.divui %item, %c32 : index",
    "warp id >> 0 + 1": """%wid = arith.shrui %item, %c5 : index
  %bound = arith.addi %wid, %c1 : index""",
}


@pytest.mark.slow
@pytest.mark.parametrize("bound", list(LOOP_BOUNDS))
@pytest.mark.parametrize(("groups", "items"), [(2, 200), (1, 64)])
def test_a_loop_bounded_by_the_warp_id_runs_per_warp(bound: str, groups: int, items: int):
    source = loop_text(LOOP_BOUNDS[bound])
    form = form_of(source)
    assert form.name == "fission" and form.op is not None and form.op.name == "scf.for"
    found = run_both(source, groups, items)
    assert found["cpu"] == found["interp"]
