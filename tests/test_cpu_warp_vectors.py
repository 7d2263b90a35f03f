"""The cpu provider's warp-vector form (`lowering/cpu/warp_vectors.py`): which kernels
`choose_form` gives it and why (and why not), and its results against numpy, computed lane by
lane from CUDA's rules, for shuffles of every mode, ballots, partial warps, lane-0 atomics and
branches that split a warp."""

from __future__ import annotations

import numpy as np
import pytest
from kernels import constants, if_then, item_index, kernel
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from gpuir.api import Device
from gpuir.dialects import make_context
from gpuir.lowering.cpu.forms import choose_form, warp_vector_misfit
from gpuir.lowering.cpu.workgroups import Helpers

ARRAYS = "%x: !mem.ptr<!mem.array<? x i32>, 1>, %out: !mem.ptr<!mem.array<? x i32>, 1>"
PARAMS = f"%group: index, %item: index, %n: index, %t: i32, {ARRAYS}"
LOAD = (
    item_index("%n")
    + """  %px = mem.lea %x, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %a1, %v = mem.load %m1, %px : !mem.ptr<i32, 1>
  %po = mem.lea %out, %i : !mem.ptr<!mem.array<? x i32>, 1>
"""
)


def shuffle_kernel(mode: str, offset: str, width: int) -> str:
    """out[i] = the shuffle's value, plus 1000 where it is not valid; `offset` an i32 constant,
    or `%t` (an argument)."""
    constant = "" if offset == "%t" else f"  %off = arith.constant {offset} : i32\n"
    body = (
        LOAD
        + constant
        + f"""  %w = arith.constant {width} : i32
  %big = arith.constant 1000 : i32
  %b1, %b3, %s, %ok = gpu.shuffle "{mode}" %a1, %m3, %v, {"%t" if offset == "%t" else "%off"}, %w : i32
  %plus = arith.addi %s, %big : i32
  %r = arith.select %ok, %s, %plus : i32
  %e1 = mem.store %b1, %po, %r : !mem.ptr<i32, 1>
"""
    )
    return kernel("k", PARAMS, body, "%e1, %b3, %m4, %m5")


BALLOT = kernel(
    "k",
    PARAMS,
    LOAD
    + """  %keep = arith.cmpi sgt, %v, %t : i32
  %b1, %b3, %mask = gpu.ballot %a1, %m3, %keep
  %e1 = mem.store %b1, %po, %mask : !mem.ptr<i32, 1>
""",
    "%e1, %b3, %m4, %m5",
)
"""out[i] = the ballot of x > t of i's warp."""

LANE_ATOMIC = kernel(
    "k",
    PARAMS,
    LOAD
    + constants("i32", w=32, o1=1, o2=2, c0="0 : index", c3="3 : index")
    + """  %p1, %p3, %y1, %k1 = gpu.shuffle "xor" %a1, %m3, %v, %o1, %w : i32
  %s1 = arith.addi %v, %y1 : i32
  %p2, %q3, %y2, %k2 = gpu.shuffle "xor" %p1, %p3, %s1, %o2, %w : i32
  %s2 = arith.addi %s1, %y2 : i32
  %lane = gpu.lane_id
  %lead = arith.cmpi eq, %lane, %c0 : index
  %cell = mem.lea %out, %c0 : !mem.ptr<!mem.array<? x i32>, 1>
"""
    + if_then(
        "%f1",
        "%lead",
        '    %t1, %old = mem.atomic_rmw "add" %p2, %cell, %s2 : !mem.ptr<i32, 1>',
        "%t1",
        "%p2",
    )
    + """  %third = arith.cmpi eq, %c3, %lane : index
  %c1 = arith.constant 1 : index
  %at = arith.addi %i, %c1 : index
  %pat = mem.lea %out, %at : !mem.ptr<!mem.array<? x i32>, 1>
"""
    + if_then(
        "%g1", "%third", "    %u1 = mem.store %f1, %pat, %s2 : !mem.ptr<i32, 1>", "%u1", "%f1"
    ),
    "%g1, %q3, %m4, %m5",
)
"""Per group of 4 lanes their sum (two xor shuffles); lane 0 of each warp adds its group's
sum to out[0] atomically, lane 3 stores its group's sum at out[i + 1]."""

SPLIT = kernel(
    "k",
    PARAMS,
    LOAD
    + constants("i32", w=32, o=1, c7="7 : index", two=2, one=1)
    + """  %b1, %b3, %s, %ok = gpu.shuffle "up" %a1, %m3, %v, %o, %w : i32
  %bit = arith.andi %v, %one : i32
  %odd = arith.cmpi eq, %bit, %one : i32
  %r1, %r = scf.if %odd -> (!mem.M<1>, i32) {
    %i7 = arith.muli %i, %c7 : index
    %j = arith.remui %i7, %n_all : index
    %pj = mem.lea %x, %j : !mem.ptr<!mem.array<? x i32>, 1>
    %g1, %got = mem.load %b1, %pj : !mem.ptr<i32, 1>
    %sum = arith.addi %got, %s : i32
    %h1 = mem.store %g1, %po, %sum : !mem.ptr<i32, 1>
    %q = arith.divsi %v, %t : i32
    scf.yield %h1, %q : !mem.M<1>, i32
  } else {
    %d = arith.muli %v, %two : i32
    %h1 = mem.store %b1, %po, %d : !mem.ptr<i32, 1>
    scf.yield %h1, %d : !mem.M<1>, i32
  }
  %n32 = arith.index_cast %n : index to i32
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %n_all : index
  %pn = mem.lea %out, %next : !mem.ptr<!mem.array<? x i32>, 1>
  %e1 = mem.store %r1, %pn, %r : !mem.ptr<i32, 1>
""",
    "%e1, %b3, %m4, %m5",
).replace("%t: i32,", "%t: i32, %n_all: index,")
"""A branch on x[i] odd, which splits warps: odd items store x[(7 i) mod n_all] plus their
"up" neighbour at out[i] and yield x[i] / t; even ones store and yield 2 x[i]; every item
stores what its branch yielded at out[n_all + i]."""


FLOATS = kernel(
    "k",
    PARAMS,
    LOAD
    + constants("i32", w=32, o=3, half="0.5 : f32")
    + """  %f = arith.sitofp %v : i32 to f32
  %h = arith.mulf %f, %half : f32
  %b1, %b3, %s, %ok = gpu.shuffle "xor" %a1, %m3, %h, %o, %w : f32
  %tf = arith.sitofp %t : i32 to f32
  %more = arith.cmpf ogt, %s, %tf : f32
  %c1, %c3, %mask = gpu.ballot %b1, %b3, %more
  %a = math.absi %v : i32
  %g = arith.fptosi %s : f32 to i32
  %ga = arith.addi %g, %a : i32
  %r = arith.xori %ga, %mask : i32
  %e1 = mem.store %c1, %po, %r : !mem.ptr<i32, 1>
""",
    "%e1, %c3, %m4, %m5",
)
"""Floats: h = x / 2 shuffled by xor 3, the ballot of h > t; out = int(h') + |x| ^ mask (an
`fptosi` and a `math.absi` lane by lane)."""


def parse(text: str) -> FuncOp:
    """The kernel of `text` as `cpu-workgroup-loops` has it when it chooses (lane ids lowered)."""
    from gpuir.lowering.cpu.workgroup_loops import lower_lane_ids

    module = Parser(make_context(), text).parse_module()
    k = next(op for op in module.walk() if isinstance(op, FuncOp))
    lower_lane_ids(k)
    return k


def form_of(text: str):
    k = parse(text)
    module = k.parent_op()
    before = str(module)
    form = choose_form(k, Helpers(module))  # type: ignore[arg-type]
    assert str(module) == before  # an analysis: nothing rewritten
    return form, warp_vector_misfit(k)


# --- which kernels take the form -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", [shuffle_kernel("down", "16", 32), BALLOT, LANE_ATOMIC, SPLIT, FLOATS]
)
def test_top_level_warp_operations_take_the_warp_vector_form(text: str):
    form, misfit = form_of(text)
    assert misfit is None
    assert form.name == "warp-vectors"
    assert "whole warps reach its warp operations" in form.why


def test_a_warp_operation_under_a_branch_is_not_warp_vectors():
    """A shuffle inside an `scf.if` (here one the whole group takes): Fission's form, which
    says why not the warp-vector one."""
    text = shuffle_kernel("xor", "1", 32).replace(
        '  %b1, %b3, %s, %ok = gpu.shuffle "xor" %a1, %m3, %v, %off, %w : i32\n',
        """  %yes = arith.constant true
  %b1, %b3, %s, %ok = scf.if %yes -> (!mem.M<1>, !mem.M<3>, i32, i1) {
    %c1, %c3, %cs, %cok = gpu.shuffle "xor" %a1, %m3, %v, %off, %w : i32
    scf.yield %c1, %c3, %cs, %cok : !mem.M<1>, !mem.M<3>, i32, i1
  } else {
    %no = arith.constant false
    scf.yield %a1, %m3, %v, %no : !mem.M<1>, !mem.M<3>, i32, i1
  }
""",
    )
    form, misfit = form_of(text)
    assert form.name == "fission"
    assert misfit is not None and misfit.op is not None and misfit.op.name == "gpu.shuffle"
    assert "inside 'scf.if', not at the kernel's top level" in form.why


def test_a_barrier_keeps_fission():
    text = BALLOT.replace(
        "  func.return %e1, %b3,",
        "  %z1, %z3 = gpu.sync_work_items %e1, %b3\n  func.return %z1, %z3,",
    )
    form, misfit = form_of(text)
    assert form.name == "fission"
    assert "'gpu.sync_work_items' has no form on a warp's lanes as vectors" in form.why


def test_a_loop_whose_bounds_differ_between_lanes_keeps_fission():
    text = BALLOT.replace(
        "  %e1 = mem.store",
        """  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = scf.for %k = %c0 to %i step %c1 iter_args(%a = %mask) -> (i32) {
    %b = arith.addi %a, %mask : i32
    scf.yield %b : i32
  }
  %e1 = mem.store""",
    )
    form, misfit = form_of(text)
    assert form.name == "item-loops" or form.name == "fission"
    assert misfit is not None and "'scf.for' whose bounds differ between a warp's lanes" in str(
        misfit
    )


def test_checked_kernels_keep_their_form():
    """Under --check each access calls the checker with its item: the old forms, which find
    the planted bugs (tests/test_cpu_check.py)."""
    text = BALLOT.replace("attributes {gpu.kernel}", "attributes {gpu.kernel, gpu.checked}")
    form, misfit = form_of(text)
    assert form.name == "fission"
    assert misfit is not None and "under --check" in str(misfit)


def test_kernels_without_warp_operations_keep_their_form():
    text = kernel("k", PARAMS, LOAD + "  %e1 = mem.store %a1, %po, %v : !mem.ptr<i32, 1>\n")
    form, misfit = form_of(text)
    assert form.name == "item-loops"
    assert misfit is not None and str(misfit) == "no warp operation"


# --- numbers, against numpy ------------------------------------------------------------------------


def run(
    text: str,
    groups: int,
    items: int,
    x: np.ndarray,
    t: int,
    out_size: int,
    *extra: int,
    provider: str = "cpu",
):
    """`@k` of `text` on `provider` over x (its arguments `t`, `extra`, x, out): out."""
    with Device(provider) as device:
        xs, out = device.upload(x), device.upload(np.zeros(out_size, np.int32))
        args = (t, *extra, xs, out)
        device.compile(text).kernel("k")(groups, items, items, *args)
        return out.download()


def run_random(text: str, groups: int, items: int, t: int, bound: int, seed: int):
    """`run` of `text` (its argument `t`, out as large as x) on random x in [-bound, bound)
    from `seed`: x and out."""
    x = np.random.default_rng(seed).integers(-bound, bound, groups * items, np.int32)
    return x, run(text, groups, items, x, t, x.size)


def lanes_of(groups: int, items: int) -> tuple[np.ndarray, np.ndarray]:
    """Per item of the grid: its lane, and its warp's lane count."""
    item = np.tile(np.arange(items), groups)
    lane = item % 32
    count = np.minimum(items - (item - lane), 32)
    return lane, count


def shuffled(mode: str, x: np.ndarray, offset: int, width: int, items: int, groups: int):
    """CUDA's `__shfl_*_sync` on every warp, lane by lane; invalid lanes get 1000 + own."""
    lane, count = lanes_of(groups, items)
    start = lane // width * width
    source = {"xor": lane ^ offset, "up": lane - offset, "down": lane + offset}.get(
        mode, start + offset
    )
    valid = (1 <= width <= 32) & (source >= start) & (source < np.minimum(start + width, count))
    at = np.arange(x.size) - lane + np.where(valid, source, lane)
    return np.where(valid, x[at], x + 1000).astype(np.int32)


SHUFFLES = [
    ("down", 16, 32),
    ("down", 1, 32),
    ("up", 3, 32),
    ("xor", 5, 32),
    ("xor", 1, 8),
    ("idx", 7, 16),
    ("idx", 31, 32),
    ("down", 2, 4),
]


@pytest.mark.parametrize(("mode", "offset", "width"), SHUFFLES)
@pytest.mark.parametrize("items", [256, 80, 7])
def test_shuffles_match_numpy(mode: str, offset: int, width: int, items: int):
    """Whole warps (256 items), a partial last warp of 16 (80 items), a group smaller than
    a warp (7)."""
    groups = 3
    text = shuffle_kernel(mode, str(offset), width)
    x, found = run_random(text, groups, items, 0, 500, seed=items + offset)
    np.testing.assert_array_equal(found, shuffled(mode, x, offset, width, items, groups))


@pytest.mark.parametrize("offset", [0, 9, 40])
def test_a_shuffle_of_a_run_time_offset_matches_numpy(offset: int):
    groups, items = 2, 96
    text = shuffle_kernel("down", "%t", 32)
    x, found = run_random(text, groups, items, offset, 500, seed=offset)
    np.testing.assert_array_equal(found, shuffled("down", x, offset, 32, items, groups))


@pytest.mark.parametrize("items", [256, 50])
def test_ballots_match_numpy(items: int):
    groups = 4
    x, found = run_random(BALLOT, groups, items, 10, 100, seed=items)
    lane, _ = lanes_of(groups, items)
    bits = np.where(x > 10, np.left_shift(1, lane, dtype=np.int64), 0)
    warp = np.repeat(np.arange(groups), items) * 64 + np.tile(np.arange(items) // 32, groups)
    masks = np.zeros(warp.max() + 1, np.int64)
    np.bitwise_or.at(masks, warp, bits)
    np.testing.assert_array_equal(found.view(np.uint32), masks[warp].astype(np.uint32))


@pytest.mark.parametrize("items", [256, 70])
def test_lane_zero_atomics_and_a_lane_s_store_match_numpy(items: int):
    groups = 3
    n = groups * items
    x = np.random.default_rng(items).integers(-1000, 1000, n, np.int32)
    found = run(LANE_ATOMIC, groups, items, x, 0, n + 1)
    lane, _ = lanes_of(groups, items)
    leads = np.flatnonzero(lane == 0)  # each warp's quad of lanes 0 to 3 exists
    third = np.flatnonzero(lane == 3)
    expected = np.zeros(n + 1, np.int64)
    expected[0] = sum(int(x[i : i + 4].sum()) for i in leads)
    expected[third + 1] = [x[i - 3 : i + 1].sum() for i in third]
    np.testing.assert_array_equal(found, expected.astype(np.int32))


@pytest.mark.parametrize("items", [128, 45])
def test_a_branch_that_splits_warps_matches_numpy(items: int):
    groups = 3
    n = groups * items
    x = np.random.default_rng(items).integers(1, 1000, n, np.int32)
    found = run(SPLIT, groups, items, x, 7, 2 * n, n)
    lane, _ = lanes_of(groups, items)
    i = np.arange(n)
    up = np.where(lane >= 1, x[i - (lane >= 1)], x)
    odd = x % 2 == 1
    expected = np.zeros(2 * n, np.int32)
    expected[:n] = np.where(odd, x[(7 * i) % n] + up, 2 * x)
    expected[n:] = np.where(odd, x // 7, 2 * x)
    np.testing.assert_array_equal(found, expected)


@pytest.mark.parametrize("items", [96, 40])
def test_floats_and_lane_by_lane_ops_match_numpy(items: int):
    groups = 2
    x, found = run_random(FLOATS, groups, items, 20, 300, seed=items)
    lane, count = lanes_of(groups, items)
    h = x.astype(np.float32) * np.float32(0.5)
    source = lane ^ 3
    valid = source < count
    s = np.where(valid, h[np.arange(x.size) - lane + np.where(valid, source, lane)], h)
    bits = np.where(s > 20, np.left_shift(1, lane, dtype=np.int64), 0)
    warp = np.repeat(np.arange(groups), items) * 64 + np.tile(np.arange(items) // 32, groups)
    masks = np.zeros(warp.max() + 1, np.int64)
    np.bitwise_or.at(masks, warp, bits)
    expected = (s.astype(np.int64) + np.abs(x)) ^ masks[warp]
    np.testing.assert_array_equal(found.view(np.uint32), expected.astype(np.uint32))


MIN_MAX_KINDS = {
    "minnumf": np.fmin,
    "maxnumf": np.fmax,
    "minimumf": np.minimum,
    "maximumf": np.maximum,
}
"""arith's float minimum and maximum, and numpy's function of the same NaN rule."""


def min_max_kernel(kind: str) -> str:
    """x[i] as f32 bits, and its `kind` with the value of lane i xor 1."""
    body = """  %w = arith.constant 32 : i32
  %o = arith.constant 1 : i32
  %f = arith.bitcast %v : i32 to f32
  %b1, %b3, %s, %ok = gpu.shuffle "xor" %a1, %m3, %f, %o, %w : f32
  %r = arith.KIND %f, %s : f32
  %bits = arith.bitcast %r : f32 to i32
  %e1 = mem.store %b1, %po, %bits : !mem.ptr<i32, 1>
"""
    return kernel("k", PARAMS, LOAD + body.replace("KIND", kind), "%e1, %b3, %m4, %m5")


@pytest.mark.parametrize("kind", MIN_MAX_KINDS)
def test_float_minimum_and_maximum_are_vector_ops_with_their_nan_rules(
    kind: str, monkeypatch: pytest.MonkeyPatch
):
    """NaN, infinities and ordinary values against their neighbour lane's: one LLVM vector
    intrinsic per warp (no lane-by-lane unrolling), with numpy's results."""
    from gpuir.lowering.cpu.warp_vectors import WarpVectors

    def unrolled(*args: object) -> None:
        raise AssertionError(f"arith.{kind} ran lane by lane")

    monkeypatch.setattr(WarpVectors, "per_lane", unrolled)
    groups, items = 2, 45
    choices = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0, 3.25, 0.0], np.float32)
    f = np.random.default_rng(len(kind)).choice(choices, groups * items)
    found = run(min_max_kernel(kind), groups, items, f.view(np.int32), 0, f.size)
    lane, count = lanes_of(groups, items)
    source = lane ^ 1
    valid = source < count
    s = np.where(valid, f[np.arange(f.size) - lane + np.where(valid, source, lane)], f)
    np.testing.assert_array_equal(found.view(np.float32), MIN_MAX_KINDS[kind](f, s))


SQUARES = kernel(
    "k",
    "%group: index, %item: index, %n: index, %total: !mem.ptr<i64, 1>",
    item_index("%n")
    + """  %c0 = arith.constant 0 : index
  %w = arith.constant 32 : i32
  %v = arith.index_cast %i : index to i64
  %x0 = arith.muli %v, %v : i64
"""
    + "".join(
        f"""  %o{k} = arith.constant {k} : i32
  %a{k}, %b{k}, %y{k}, %ok{k} = gpu.shuffle "down" {m1}, {m3}, {x}, %o{k}, %w : i64
  %s{k} = arith.addi {x}, %y{k} : i64
  %x{k} = arith.select %ok{k}, %s{k}, {x} : i64
"""
        for k, m1, m3, x in (
            (16, "%m1", "%m3", "%x0"),
            (8, "%a16", "%b16", "%x16"),
            (4, "%a8", "%b8", "%x8"),
            (2, "%a4", "%b4", "%x4"),
            (1, "%a2", "%b2", "%x2"),
        )
    )
    + """  %lane = gpu.lane_id
  %lead = arith.cmpi eq, %lane, %c0 : index
  %f1 = scf.if %lead -> (!mem.M<1>) {
    %t1, %old = mem.atomic_rmw "add" %a1, %total, %x1 : !mem.ptr<i64, 1>
    scf.yield %t1 : !mem.M<1>
  } else {
    scf.yield %a1 : !mem.M<1>
  }
""",
    "%f1, %b1, %m4, %m5",
)
"""examples/warp-reduce.mlir's @warp_sum, every item in: each warp sums i * i over its lanes
(five "down" shuffles), lane 0 adds the sum to total; its only access, so the group's warps'
atomics become one (`lanes.deferred_atomic`)."""


@pytest.mark.parametrize("items", [256, 80, 20])
def test_a_warp_sum_s_atomics_per_group_match_numpy(items: int):
    from gpuir.lowering.cpu.lanes import deferred_atomic

    assert deferred_atomic(parse(SQUARES)) is not None
    groups = 5
    with Device("cpu") as device:
        total = device.upload(np.zeros(1, np.int64))
        device.compile(SQUARES).kernel("k")(groups, items, items, total)
        found = int(total.download()[0])
    i = np.arange(groups * items, dtype=np.int64)
    assert found == int(np.sum(i * i))


def test_an_atomic_beside_other_accesses_stays_per_warp():
    from gpuir.lowering.cpu.lanes import deferred_atomic

    assert deferred_atomic(parse(LANE_ATOMIC)) is None  # it stores to out too


def test_a_warp_reduction_is_found_by_its_lanes_terms():
    """Lane 0 of the five "down" shuffles adds every lane of i * i once; lane 3 only lanes 3
    to 31; a butterfly of "xor" shuffles (no select: always valid) gives every lane the
    total; a chain with offset 16 twice counts lanes twice."""
    from gpuir.lowering.cpu.lanes import warp_total

    k = parse(SQUARES)
    atomic = next(op for op in k.walk() if op.name == "mem.atomic_rmw")
    root = warp_total(atomic.value, 0)
    assert root is not None and root.name_hint == "x0"
    assert warp_total(atomic.value, 3) is None

    def chain(mode: str, offsets: list[int]) -> str:
        lines, x, m1, m3 = [], "%v", "%a1", "%m3"
        for k, o in enumerate(offsets):
            lines.append(
                f"  %o{k} = arith.constant {o} : i32\n"
                f'  %sa{k}, %sb{k}, %y{k}, %ok{k} = gpu.shuffle "{mode}" {m1}, {m3}, {x}, %o{k}, '
                f"%w : i32\n  %x{k} = arith.addi {x}, %y{k} : i32\n"
            )
            x, m1, m3 = f"%x{k}", f"%sa{k}", f"%sb{k}"
        body = LOAD + "  %w = arith.constant 32 : i32\n" + "".join(lines)
        body += f"  %e1 = mem.store {m1}, %po, {x} : !mem.ptr<i32, 1>\n"
        return kernel("k", PARAMS, body, f"%e1, {m3}, %m4, %m5")

    def total(text: str, lane: int):
        store = next(op for op in parse(text).walk() if op.name == "mem.store")
        return warp_total(store.value, lane)  # type: ignore[attr-defined]

    butterfly = chain("xor", [16, 8, 4, 2, 1])
    assert all(total(butterfly, lane) is not None for lane in (0, 7, 31))
    assert total(chain("xor", [16, 16, 8, 4, 2, 1]), 0) is None


@pytest.mark.parametrize(
    ("name", "text", "extra"),
    [
        ("shuffle idx", shuffle_kernel("idx", "5", 8), ()),
        ("shuffle run-time offset", shuffle_kernel("up", "%t", 32), ()),
        ("ballot", BALLOT, ()),
        ("lane atomics", LANE_ATOMIC, ()),
        ("split", SPLIT, (90,)),
        ("floats", FLOATS, ()),
    ],
)
def test_cpu_agrees_with_interp_bit_for_bit(name: str, text: str, extra: tuple[int, ...]):
    """Two groups of 45 items (a partial warp of 13): cpu's warp vectors against interp."""
    groups, items = 2, 45
    x = np.random.default_rng(len(name)).integers(-200, 200, groups * items, np.int32)
    x = np.abs(x) + 1 if extra else x
    found = {
        provider: run(text, groups, items, x, 3, 2 * x.size + 1, *extra, provider=provider)
        for provider in ("cpu", "interp")
    }
    np.testing.assert_array_equal(found["cpu"], found["interp"])


INDEXES = kernel(
    "k",
    f"%group: index, %item: index, %n: index, %t: i32, %n_all: index, {ARRAYS}, "
    "%ids: !mem.ptr<!mem.array<? x index>, 1>",
    LOAD
    + """  %w = arith.constant 32 : i32
  %o = arith.constant 2 : i32
  %c3 = arith.constant 3 : index
  %b1, %b3, %s, %ok = gpu.shuffle "down" %a1, %m3, %i, %o, %w : index
  %j = arith.muli %s, %c3 : index
  %pi = mem.lea %ids, %i : !mem.ptr<!mem.array<? x index>, 1>
  %e1 = mem.store %b1, %pi, %j : !mem.ptr<index, 1>
  %past = arith.addi %j, %n_all : index
  %pj = mem.lea %ids, %past : !mem.ptr<!mem.array<? x index>, 1>
  %f1, %back = mem.load %e1, %pj : !mem.ptr<index, 1>
  %v32 = arith.index_cast %back : index to i32
  %g1 = mem.store %f1, %po, %v32 : !mem.ptr<i32, 1>
""",
    "%g1, %b3, %m4, %m5",
)
"""Index values in lanes and in memory: ids[i] = j = 3 (i + 2, or i where not valid), then
out[i] = ids[n_all + j] (a gather of the 64-bit slots), under 64- and 32-bit index values."""


@pytest.mark.parametrize("bits", ["64", "32"])
def test_index_lanes_at_either_index_bitwidth(bits: str, monkeypatch: pytest.MonkeyPatch):
    from gpuir.runtime.cpu import INDEX_BITWIDTH_ENV

    monkeypatch.setenv(INDEX_BITWIDTH_ENV, bits)
    groups, items = 2, 48
    n = groups * items
    found = {}
    for provider in ("cpu", "interp"):
        with Device(provider) as device:
            ids = device.upload(
                np.concatenate([np.zeros(n), 7 * np.arange(4 * n)]).astype(np.int64)
            )
            xs, out = device.upload(np.zeros(n, np.int32)), device.upload(np.zeros(n, np.int32))
            device.compile(INDEXES).kernel("k")(groups, items, items, 0, n, xs, out, ids)
            found[provider] = (out.download(), ids.download())
    lane, count = lanes_of(groups, items)
    i = np.arange(n)
    s = np.where(lane + 2 < count, i + 2, i)
    np.testing.assert_array_equal(found["cpu"][1][:n], 3 * s)
    np.testing.assert_array_equal(found["cpu"][0], 7 * 3 * s)
    np.testing.assert_array_equal(found["cpu"][0], found["interp"][0])
    np.testing.assert_array_equal(found["cpu"][1], found["interp"][1])


LOOPS = kernel(
    "k",
    PARAMS,
    LOAD
    + constants(c0=0, c1=1, c5=5, c32=32)
    + constants("i32", w=32, sixteen=16, one=1, zero=0)
    + """  %r1, %r3, %sum, %off = scf.for %k = %c0 to %c5 step %c1
      iter_args(%t1 = %a1, %t3 = %m3, %acc = %v, %offset = %sixteen)
      -> (!mem.M<1>, !mem.M<3>, i32, i32) {
    %s1, %s3, %got, %ok = gpu.shuffle "down" %t1, %t3, %acc, %offset, %w : i32
    %plus = arith.addi %acc, %got : i32
    %next = arith.select %ok, %plus, %acc : i32
    %half = arith.shrui %offset, %one : i32
    scf.yield %s1, %s3, %next, %half : !mem.M<1>, !mem.M<3>, i32, i32
  }
  %tn = arith.index_cast %t : i32 to index
  %more = scf.for %k = %c0 to %tn step %c1 iter_args(%a = %zero) -> (i32) {
    %k32 = arith.index_cast %k : index to i32
    %vk = arith.muli %v, %k32 : i32
    %b = arith.addi %a, %vk : i32
    scf.yield %b : i32
  }
  %lane = gpu.lane_id
  %lead = arith.cmpi eq, %lane, %c0 : index
  %c8 = arith.constant 8 : index
  %in_group = arith.divui %item, %c32 : index
  %first = arith.muli %group, %c8 : index
  %warp = arith.addi %first, %in_group : index
  %pw = mem.lea %out, %warp : !mem.ptr<!mem.array<? x i32>, 1>
"""
    + if_then("%f1", "%lead", "    %u1 = mem.store %r1, %pw, %sum : !mem.ptr<i32, 1>", "%u1", "%r1")
    + """  %n_all = arith.muli %n, %c32 : index
  %at = arith.addi %i, %n_all : index
  %pa = mem.lea %out, %at : !mem.ptr<!mem.array<? x i32>, 1>
  %g1 = mem.store %f1, %pa, %more : !mem.ptr<i32, 1>
""",
    "%g1, %r3, %m4, %m5",
)
"""Loops of the warp's bounds: five "down" shuffles by a carried offset (16, 8, …: the block
reduction's loop), lane 0 storing its warp's sum at out[8 group + warp]; and a loop to t whose
accumulator starts uniform and becomes per lane, x[i] (0 + 1 + … + t - 1), at out[32 n + i]."""


@pytest.mark.parametrize("items", [96, 40])
def test_loops_of_the_warp_s_bounds_match_numpy_and_interp(items: int):
    form, misfit = form_of(LOOPS)
    assert misfit is None and form.name == "warp-vectors"
    groups, t = 2, 4
    n = groups * items
    x = np.random.default_rng(items).integers(-300, 300, n, np.int32)
    found = {
        provider: run(LOOPS, groups, items, x, t, 32 * items + n, provider=provider)
        for provider in ("cpu", "interp")
    }
    np.testing.assert_array_equal(found["cpu"], found["interp"])
    lane, count = lanes_of(groups, items)
    leads = np.flatnonzero(lane == 0)
    sums = [x[i : i + count[i]].sum() for i in leads]
    warps = leads // items * 8 + leads % items // 32
    np.testing.assert_array_equal(found["cpu"][warps], sums)
    np.testing.assert_array_equal(found["cpu"][32 * items :], x * (t * (t - 1) // 2))


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_launch_s_threads_add_their_sums_once_each(threads: str, monkeypatch: pytest.MonkeyPatch):
    """The deferred atomic's address is an argument: each thread's groups add into its shared
    memory, its launch entry adds that once (`cpu_llvm.add_launch_entry`); 3000 groups of 64
    items in chunks over the threads, and a launch after it starts from zero again."""
    from gpuir.runtime.cpu import THREADS_ENV

    monkeypatch.setenv(THREADS_ENV, threads)
    groups, items = 3000, 64
    i = np.arange(groups * items, dtype=np.int64)
    with Device("cpu") as device:
        total = device.upload(np.zeros(1, np.int64))
        k = device.compile(SQUARES).kernel("k")
        k(groups, items, items, total)
        k(groups, items, items, total)
        assert int(total.download()[0]) == 2 * int(np.sum(i * i))
