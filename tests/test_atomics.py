"""Atomics on the cpu and interp providers, checked against numpy: the histogram example's
kernel on random bytes (every count exact, against `np.bincount`), and each integer kind of
`mem.atomic_rmw` folding random values of every work-item into one cell (`np.add.reduce`,
`np.maximum.reduce`, … of the same values)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from kernels import if_then, item_index, kernel

import gpuir

ROOT = Path(__file__).parent.parent
HISTOGRAM = (ROOT / "examples" / "histogram.mlir").read_text()


@pytest.mark.parametrize(("provider", "n"), [("cpu", 1 << 20), ("interp", 3000)])
def test_the_histogram_counts_exactly_what_bincount_counts(provider: str, n: int):
    values = np.random.default_rng(5).integers(0, 256, n, dtype=np.int32)
    values[: n // 8] = 17  # one bin much fuller than the others: many atomics on one word
    with gpuir.Device(provider) as device:
        kernel = device.compile(HISTOGRAM).kernel("histogram")
        bins = device.upload(np.zeros(256, np.int32))
        kernel(64, 256, 256, n, device.upload(values), bins)
        assert np.array_equal(bins.download(), np.bincount(values, minlength=256))


FOLD = """
func.func @fold(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %n_items: index,
                %values: !mem.ptr<!mem.array<? x T>, 1>, %cell: !mem.ptr<T, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %base, %item : index
  %p = mem.lea %values, %i : !mem.ptr<!mem.array<? x T>, 1>
  %a1, %v = mem.load %m1, %p : !mem.ptr<T, 1>
  %b1, %old = mem.atomic_rmw "KIND" %a1, %cell, %v : !mem.ptr<T, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""


def unsigned(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint32 if x.dtype == np.int32 else np.uint64)


REFERENCE = {
    "add": lambda start, x: start + np.add.reduce(x),
    "sub": lambda start, x: start - np.add.reduce(x),
    "max": lambda start, x: max(start, x.max()),
    "min": lambda start, x: min(start, x.min()),
    "umax": lambda start, x: max(unsigned(np.array([start])), unsigned(x).max()),
    "umin": lambda start, x: min(unsigned(np.array([start])), unsigned(x).min()),
    "and": lambda start, x: start & np.bitwise_and.reduce(x),
    "or": lambda start, x: start | np.bitwise_or.reduce(x),
    "xor": lambda start, x: start ^ np.bitwise_xor.reduce(x),
}


@pytest.mark.parametrize("provider", ["cpu", "interp"])
@pytest.mark.parametrize("type_", ["i32", "i64"])
@pytest.mark.parametrize("kind", sorted(REFERENCE))
def test_every_integer_kind_folds_every_items_value(provider: str, type_: str, kind: str):
    dtype = np.int32 if type_ == "i32" else np.int64
    info = np.iinfo(dtype)
    rng = np.random.default_rng(len(kind))
    values = rng.integers(info.min, info.max, 4 * 32, dtype=dtype, endpoint=True)
    start = dtype(rng.integers(info.min, info.max, dtype=dtype, endpoint=True))
    text = FOLD.replace("KIND", kind).replace("x T>", f"x {type_}>").replace("<T,", f"<{type_},")
    with gpuir.Device(provider) as device:
        kernel = device.compile(text).kernel("fold")
        cell = device.upload(np.array([start], dtype))
        kernel(4, 32, 32, device.upload(values), cell)
        with np.errstate(over="ignore"):
            expected = np.array([REFERENCE[kind](start, values)]).astype(dtype)
        assert cell.download().view(dtype)[0] == expected.view(dtype)[0]


def shared_cell(type_: str, start: str) -> str:
    """The group's shared cell `%cell` of `type_`, which item 0 (`%first`) sets to `start`
    before a barrier (its tokens `%s1`, `%s3`); and the item's global index `%i`."""
    set_cell = f"    %s3 = mem.store %a3, %cell, {start} : !mem.ptr<{type_}, 3>"
    return (
        f"""
  %a3, %cell = mem.slot %m3 : !mem.ptr<{type_}, 3>
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %c0 : index
"""
        + if_then("%b3", "%first", set_cell, "%s3", "%a3", space=3)
        + "  %s1, %s3 = gpu.sync_work_items %m1, %b3\n"
        + item_index("%n_items")
    )


FOLD_SHARED = kernel(
    "fold",
    "%group: index, %item: index, %n_items: index, %values: !mem.ptr<!mem.array<? x T>, 1>,"
    " %start: T, %out: !mem.ptr<!mem.array<? x T>, 1>",
    shared_cell("T", "%start")
    + """
  %p = mem.lea %values, %i : !mem.ptr<!mem.array<? x T>, 1>
  %t1, %v = mem.load %s1, %p : !mem.ptr<T, 1>
  %u3, %old = mem.atomic_rmw "KIND" %s3, %cell, %v : !mem.ptr<T, 3>
  %e1, %e3 = gpu.sync_work_items %t1, %u3
  %r1, %r3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {
    %f3, %total = mem.load %e3, %cell : !mem.ptr<T, 3>
    %po = mem.lea %out, %group : !mem.ptr<!mem.array<? x T>, 1>
    %w1 = mem.store %e1, %po, %total : !mem.ptr<T, 1>
    scf.yield %w1, %f3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %e1, %e3 : !mem.M<1>, !mem.M<3>
  }""",
    "%r1, %r3, %m4, %m5",
)
FLOAT_REFERENCE = {
    "add": lambda start, x: start + np.add.reduce(x),
    "max": lambda start, x: max(start, x.max()),
    "min": lambda start, x: min(start, x.min()),
}


def fold_shared(provider: str, type_: str, kind: str, values: np.ndarray, start, groups: int):
    """Each group's values folded into one shared-memory cell that starts at `start`."""
    text = FOLD_SHARED.replace("KIND", kind).replace("x T>", f"x {type_}>")
    text = text.replace("<T,", f"<{type_},").replace(": T,", f": {type_},")
    with gpuir.Device(provider) as device:
        kernel = device.compile(text).kernel("fold")
        out = device.empty(groups, values.dtype)
        items = values.size // groups
        kernel(groups, items, items, device.upload(values), start, out)
        return out.download()


@pytest.mark.parametrize("type_", ["i32", "i64"])
@pytest.mark.parametrize("kind", sorted(REFERENCE))
def test_every_integer_kind_on_shared_memory_folds_each_groups_values(type_: str, kind: str):
    """On the cpu provider an atomic on shared memory is a plain read-modify-write (one
    thread runs the group): the same folds as numpy's, per group."""
    dtype = np.int32 if type_ == "i32" else np.int64
    info = np.iinfo(dtype)
    rng = np.random.default_rng(len(kind) + 7)
    values = rng.integers(info.min, info.max, 6 * 64, dtype=dtype, endpoint=True)
    start = dtype(rng.integers(info.min, info.max, dtype=dtype, endpoint=True))
    got = fold_shared("cpu", type_, kind, values, start, 6)
    with np.errstate(over="ignore"):
        expected = [REFERENCE[kind](start, part) for part in values.reshape(6, 64)]
    assert got.tolist() == np.array(expected).astype(dtype).tolist()


@pytest.mark.parametrize("type_", ["f32", "f64"])
@pytest.mark.parametrize("kind", sorted(FLOAT_REFERENCE))
def test_every_float_kind_on_shared_memory_folds_each_groups_values(type_: str, kind: str):
    dtype = np.float32 if type_ == "f32" else np.float64
    rng = np.random.default_rng(len(kind))
    values = rng.integers(-1000, 1000, 4 * 96).astype(dtype)  # whole numbers: any order is exact
    start = dtype(0.5)
    got = fold_shared("cpu", type_, kind, values, start, 4)
    expected = [FLOAT_REFERENCE[kind](start, part) for part in values.reshape(4, 96)]
    assert got.tolist() == np.array(expected, dtype).tolist()
    assert got.tolist() == fold_shared("interp", type_, kind, values, start, 4).tolist()


FIRST_COMES = kernel(
    "first",
    "%group: index, %item: index, %n_items: index,"
    " %olds: !mem.ptr<!mem.array<? x i32>, 1>, %won: !mem.ptr<!mem.array<? x i32>, 1>",
    "  %zero = arith.constant 0 : i32"
    + shared_cell("i32", "%zero")
    + """
  %i32 = arith.index_cast %i : index to i32
  %one = arith.constant 1 : i32
  %mine = arith.addi %i32, %one : i32
  %u3, %old, %ok = mem.cmpxchg %s3, %cell, %zero, %mine : !mem.ptr<i32, 3>
  %po = mem.lea %olds, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %t1 = mem.store %s1, %po, %old : !mem.ptr<i32, 1>
  %ok32 = arith.extui %ok : i1 to i32
  %pw = mem.lea %won, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %w1 = mem.store %t1, %pw, %ok32 : !mem.ptr<i32, 1>""",
    "%w1, %u3, %m4, %m5",
)


def test_cmpxchg_on_shared_memory_lets_one_item_per_group_win():
    with gpuir.Device("cpu") as device:
        kernel = device.compile(FIRST_COMES).kernel("first")
        olds, won = device.empty(3 * 50, np.int32), device.empty(3 * 50, np.int32)
        kernel(3, 50, 50, olds, won)
        olds, won = olds.download().reshape(3, 50), won.download().reshape(3, 50)
    for group in range(3):
        (winner,) = np.flatnonzero(won[group])  # exactly one item stored
        assert olds[group, winner] == 0
        others = np.delete(olds[group], winner)
        assert (others == group * 50 + winner + 1).all()  # they saw the winner's value


def test_the_cpu_code_has_no_locked_atomic_on_shared_memory_and_keeps_the_global_ones():
    """The histogram's LLVM IR for the host: its shared-memory atomics are plain loads and
    stores; its global atomic (one per bin and group) stays an `atomicrmw`."""
    from gpuir.lowering.cpu.cpu_llvm import host_program

    text = host_program(gpuir.compile(HISTOGRAM).device_module).llvm_ir
    assert "atomicrmw add ptr addrspace(1)" in text
    assert "addrspace(3)" in text  # the shared bins are there, as plain accesses
    assert "atomicrmw" not in "\n".join(
        line for line in text.splitlines() if "addrspace(3)" in line
    )
