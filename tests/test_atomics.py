"""Atomics on the cpu and interp providers, checked against numpy: the histogram example's
kernel on random bytes (every count exact, against `np.bincount`), and each integer kind of
`mem.atomic_rmw` folding random values of every work-item into one cell (`np.add.reduce`,
`np.maximum.reduce`, … of the same values)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

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
