"""The cpu provider against numpy, in the same run: saxpy and a sum on 16M f32, and the cost of
one launch.

Each kernel is compiled once (`gpuir.compile(..., provider=device)`), its buffers stay on the
device (the resident-buffer API), and a measure is one launch (or two, for the sum) followed by
`device.synchronize()`. numpy computes the same thing on the same data: `a * x + y` and
`np.sum(x)`. Each measure reports the best of the repeats (the median in parentheses), and the
ratio numpy time / our time (above 1: faster than numpy); the goal for saxpy is a ratio of at
least 0.9. The launch overhead is an empty kernel on 1 group of 1 item, launched many times,
against a numpy call on one element. Nothing is asserted.

    python benchmarks/cpu_provider.py             # 16M elements, 10 repeats
    python benchmarks/cpu_provider.py --quick     # 1M elements, 3 repeats
    python benchmarks/cpu_provider.py --n 4194304 --repeats 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
from kernels import SAXPY, group_sum

import gpuir
from gpuir.api import Device

ITEMS = 256
"""Work-items per group."""
PER_ITEM = 64
"""Elements each work-item of the sum adds before the group's reduction."""

SUM_AND_EMPTY = (
    group_sum(
        "sum",
        '  %b1, %b3, %total = gpu.workgroup_reduce "add" %a1, %m3, %own : f32',
        total="%total",
        global_token="%b1",
        shared_token="%b3",
    )
    + """
func.func @empty(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""
)
"""`@sum` (`kernels.group_sum`: the group's items' sums reduced in the fixed tree) and `@empty`."""
KERNELS = SAXPY + SUM_AND_EMPTY
"""`@saxpy` (`kernels.SAXPY`), `@sum` and `@empty`."""


def timed(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Best and median seconds of `repeats` calls (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} us"
    return f"{seconds * 1e3:8.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16 * 2**20, help="elements (default 16M)")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--launches", type=int, default=2000, help="launches for the overhead")
    parser.add_argument("--quick", action="store_true", help="1M elements, 3 repeats")
    options = parser.parse_args()
    n, repeats, launches = options.n, options.repeats, options.launches
    if options.quick:
        n, repeats, launches = 2**20, 3, 500
    chunk = ITEMS * PER_ITEM
    n = max(chunk, n // chunk * chunk)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    a = np.float32(2.5)

    rows: list[tuple[str, tuple[float, float], tuple[float, float], str]] = []
    with Device("cpu") as device:
        start = time.perf_counter()
        program = gpuir.compile(KERNELS, provider=device)
        saxpy, total, empty = (program.kernel(k) for k in ("saxpy", "sum", "empty"))
        xs, ys = device.upload(x), device.upload(y)
        groups = (n + ITEMS - 1) // ITEMS
        empty(1, 1)
        compile_time = time.perf_counter() - start

        def ours_saxpy() -> None:
            saxpy(groups, ITEMS, ITEMS, n, a, xs, ys)
            device.synchronize()

        ny = y.copy()

        def numpy_saxpy() -> None:
            nonlocal ny
            ny = a * x + ny

        rows.append(
            (
                f"saxpy, {n / 2**20:g}M f32",
                timed(ours_saxpy, repeats),
                timed(numpy_saxpy, repeats),
                "≥ 0.9",
            )
        )

        sum_groups = n // chunk
        partial = device.empty(sum_groups, np.float32)
        result = device.empty(1, np.float32)

        def ours_sum() -> None:
            total(sum_groups, ITEMS, ITEMS, PER_ITEM, xs, partial)
            last = min(sum_groups, 1024)
            total(1, last, last, sum_groups // last, partial, result)
            device.synchronize()

        rows.append(
            (
                f"sum, {n / 2**20:g}M f32",
                timed(ours_sum, repeats),
                timed(lambda: np.sum(x), repeats),
                "",
            )
        )
        ours_value, numpy_value = float(result.download()[0]), float(np.sum(x, dtype=np.float64))

        def ours_empty() -> None:
            for _ in range(launches):
                empty(1, 1)
            device.synchronize()

        one = np.ones(1, np.float32)

        def numpy_one() -> None:
            for _ in range(launches):
                np.multiply(one, one, out=one)

        best, median = timed(ours_empty, 3)
        numpy_best, numpy_median = timed(numpy_one, 3)
        rows.append(
            (
                "launch overhead (empty kernel)",
                (best / launches, median / launches),
                (numpy_best / launches, numpy_median / launches),
                "",
            )
        )

    print(
        f"cpu provider vs numpy {np.__version__}: {os.cpu_count()} cores, compile {compile_time:.2f} s"
    )
    print(f"{'measure':<32}{'ours (median)':>24}{'numpy (median)':>24}{'ratio':>8}  goal")
    for name, (ours, ours_median), (theirs, theirs_median), goal in rows:
        ratio = theirs / ours
        print(
            f"{name:<32}{fmt(ours)} ({fmt(ours_median).strip():>9}){fmt(theirs)} "
            f"({fmt(theirs_median).strip():>9}){ratio:7.2f}x  {goal}"
        )
    error = abs(ours_value - numpy_value) / max(abs(numpy_value), 1e-30)
    print(
        f"sum: ours {ours_value:.6g}, numpy (f64) {numpy_value:.6g}, relative difference {error:.1e}"
    )


if __name__ == "__main__":
    main()
