"""`make bench`, section 2: the cpu provider against Numba and C (OpenMP), each result checked
against numpy first."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from table import Row, failed, say

LAUNCHES = 1000


# --- 2. the cpu provider ------------------------------------------------------------------------------


SETTLE_SECONDS = 0.02
"""The pause before each run's turn in `race`: longer than the spinning of idle threads."""


def race(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Best wall seconds of each run: `repeats` rounds in turn (ours, numpy, Numba, ours, …),
    so that a busy moment of the machine hits all alike; in each round a run is timed right
    after an untimed run of itself, so that each starts with its own data hot in the caches.
    (A last-level cache can hold all of a measure's arrays; in plain turns the run after numpy
    would find numpy's inputs hot, which favours a peer that reads the same host arrays over
    one that reads its own device copies; so Numba, too, reads copies of its own.)

    Each turn starts after a pause (`SETTLE_SECONDS`): a parallel runtime's threads spin for a
    while after a parallel loop before they sleep (Numba's OpenMP threads about 4 ms, gpuir's
    pool 1 ms), so that its next loop starts at once. Without the pause the next peer's runs
    would share the cores with those spinning threads (measured on 2 cores, alternating a 16M
    saxpy with Numba's and no untimed runs: ours 1.4x slower at the median than Numba's, and
    1.0x with Numba's OpenMP threads told not to spin, `OMP_WAIT_POLICY=passive`)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            time.sleep(SETTLE_SECONDS)
            run()
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: min(t) for name, t in times.items()}


@dataclass
class Numba:
    """The peer kernels with `@njit(parallel=True)`, or why there are none."""

    name: str
    kernels: dict[str, Callable]
    missing: str | None = None


def numba_peer() -> Numba:
    try:
        import numba
        from numba import njit, prange
    except Exception as e:  # not installed, or a release that does not load with this llvmlite
        return Numba("", {}, f"Numba unavailable: {type(e).__name__}: {e}")
    two, one = np.float32(2), np.float32(1)

    @njit(parallel=True)
    def saxpy(a, x, y):
        for i in prange(x.size):
            y[i] = a * x[i] + y[i]

    @njit(parallel=True)
    def total(x):
        s = np.float32(0)
        for i in prange(x.size):
            s += x[i]
        return s

    @njit(parallel=True)
    def chain(x, w):
        for i in prange(x.size):
            w[i] = (x[i] * two + one) * x[i]

    return Numba(f"Numba {numba.__version__}", {"saxpy": saxpy, "sum": total, "chain": chain})


@cache
def openmp():
    """`openmp_peer.py`'s C kernels, built once per run."""
    from openmp_peer import openmp_peer

    return openmp_peer()


def add_openmp(runs: dict, kernel: str, args: tuple, output: np.ndarray, expected: np.ndarray):
    """The C peer's `kernel(*args)` as `runs["openmp"]`, once its `output` is checked bit for
    bit against `expected`; the peer (which says why, where it is missing)."""
    c = openmp()
    if c.missing is None:
        c.kernels[kernel](*args)
        if not np.array_equal(output.view(np.uint32), expected.view(np.uint32)):
            raise RuntimeError(f"the C peer's {kernel} differs from numpy's")
        runs["openmp"] = lambda: c.kernels[kernel](*args)
    return c


def openmp_row(label: str, best: dict[str, float], c, goal: str = "—", ours: str = "ours") -> Row:
    """`best[ours]` against the C loops with OpenMP (for a bandwidth-bound kernel: the memory's
    ceiling, which a run that moves fewer bytes can beat); the row says how far from the
    ceiling the figures above are, with `goal` where an issue sets one."""
    name = f"{label} (C, OpenMP)"
    if c.missing is not None:
        return Row(name, best[ours], None, "", "s", note=c.missing)
    return Row(name, best[ours], best["openmp"], c.name, "s", goal)


def numba_row(label: str, best: dict[str, float], numba: Numba, goal: str, ours: str = "ours"):
    """`best[ours]` against Numba, with `goal`."""
    if numba.missing is not None:
        return Row(f"{label} (Numba)", best[ours], None, "", "s", note=numba.missing)
    return Row(f"{label} (Numba)", best[ours], best["numba"], numba.name, "s", goal)


def peer_rows(
    label: str, goal: str, best: dict[str, float], numba: Numba, numba_goal: str = "<= 1.0"
) -> list[Row]:
    """Ours against numpy (with `goal`) and against Numba (with `numba_goal`)."""
    numpy_name = f"numpy {np.__version__}"
    return [
        Row(f"{label} (numpy)", best["ours"], best["numpy"], numpy_name, "s", goal),
        numba_row(label, best, numba, numba_goal),
    ]


PEER_GOAL = "<= 0.9"
"""Issue 32's goal for saxpy and the fused 3-map chain at 16M: at most 0.9 of Numba's time and
of the C OpenMP peer's."""


@contextmanager
def cpu_device(**environ: str) -> Iterator:
    """An open cpu `gpuir.Device` made with `environ` in the environment: the provider reads
    its settings (`GPUIR_CPU_STREAMING`, …) when it is made (`CpuProvider.__init__`) and its
    launches use them from then on, so the environment is set only around its making and is
    as before while anything runs; the device is closed on leaving."""
    import gpuir

    saved = {name: os.environ.get(name) for name in environ}
    os.environ.update(environ)
    try:
        device = gpuir.Device("cpu")
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    with device:
        yield device


def takes_stream_entry(run) -> bool:
    """Whether `run`'s last launch (`fusion.chain_runs`' fused run: its `kernel` and `grid`)
    took the kernel's stream entry (non-temporal stores, docs/cpu-provider.md): as the
    provider chooses it at launch, from the argument slots that launch filled and its device's
    threshold. Ask right after the run: devices share a kernel's compiled code and slots."""
    kernel = run.kernel
    device = kernel.program.device
    code = device.load(kernel.program).payload.kernels[kernel.name]
    if not code.stream_address:
        return False
    return code.entry_for(*run.grid, device.provider.streaming) == code.stream_address


def cpu_section(n: int, repeats: int) -> list[Row]:
    import warp

    import gpuir
    from gpuir.runtime import unavailable_reason

    reason = unavailable_reason("cpu")
    if reason is not None:
        return [Row("cpu provider", None, None, "", "", note=reason)]
    numba = numba_peer()
    rows: list[Row] = []
    with gpuir.Device("cpu") as device:
        measures = (
            ("saxpy", cpu_saxpy),
            ("sum", cpu_sum),
            ("3-map chain", cpu_chain),
            ("histogram", cpu_histogram),
            ("launch overhead", cpu_launch),
            ("launch path (benchmarks/launch.py)", cpu_launch_path),
            *warp.MEASURES,  # benchmarks/warp.py: warp code
        )
        for name, measure in measures:
            say(f"cpu provider: {name}")
            try:
                rows += measure(device, n, repeats, numba)
            except Exception as e:
                rows.append(failed(f"cpu {name}, {n / 2**20:g}M f32", e))
    return rows


def cpu_saxpy(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`y = a * x + y`: `cpu_provider.py`'s kernel in place, numpy's `a * x + y` (a new array),
    Numba in place."""
    import cpu_provider

    items = cpu_provider.ITEMS
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    a = np.float32(2.5)
    saxpy = device.compile(cpu_provider.KERNELS).kernel("saxpy")
    xs, ys = device.upload(x), device.upload(y)
    groups = -(-n // items)

    def ours() -> None:
        saxpy(groups, items, items, n, a, xs, ys)
        device.synchronize()

    ours()
    if not np.array_equal(ys.download(), a * x + y):
        raise RuntimeError("gpuir's saxpy differs from numpy's")
    runs = {"ours": ours, "numpy": lambda: a * x + y}
    if numba.missing is None:
        xn, check = x.copy(), y.copy()
        numba.kernels["saxpy"](a, xn, check)
        if not np.array_equal(check, a * x + y):
            raise RuntimeError("Numba's saxpy differs from numpy's")
        runs["numba"] = lambda: numba.kernels["saxpy"](a, xn, check)
    yc = y.copy()
    c = add_openmp(runs, "saxpy", (a, x.copy(), yc), yc, a * x + y)
    best = race(runs, repeats)
    for buffer in (xs, ys):
        buffer.free()
    label = f"cpu saxpy, {n / 2**20:g}M f32"
    return [
        *peer_rows(label, "<= 1.1", best, numba, PEER_GOAL),
        openmp_row(label, best, c, PEER_GOAL),
    ]


def cpu_sum(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`cpu_provider.py`'s sum (two launches: groups of 256 x 64 values, then their sums)
    against `np.sum` and Numba's parallel reduction."""
    import cpu_provider

    items, per_item = cpu_provider.ITEMS, cpu_provider.PER_ITEM
    chunk = items * per_item
    n = max(chunk, n // chunk * chunk)
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    exact = float(np.sum(x, dtype=np.float64))
    total = device.compile(cpu_provider.KERNELS).kernel("sum")
    xs = device.upload(x)
    groups = n // chunk
    ours, partial, result = sum_launches(
        device, total, xs, groups, items, per_item, min(groups, 1024)
    )
    ours()
    check_sum("gpuir's sum", float(result.download()[0]), exact, n)
    check_sum("numpy's sum", float(np.sum(x)), exact, n)
    runs = {"ours": ours, "numpy": lambda: np.sum(x)}
    if numba.missing is None:
        xn = x.copy()
        check_sum("Numba's sum", float(numba.kernels["sum"](xn)), exact, n)
        runs["numba"] = lambda: numba.kernels["sum"](xn)
    best = race(runs, repeats)
    for buffer in (xs, partial, result):
        buffer.free()
    return peer_rows(f"cpu sum, {n / 2**20:g}M f32", "—", best, numba)


def cpu_histogram(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`examples/histogram.mlir`'s kernel (shared-memory atomics per group, then one global
    atomic per bin and group) on `n` random byte values, against `np.bincount` of the same
    values (goal: within 1.5x). Checked bin for bin."""
    text = (Path(__file__).parent.parent / "examples" / "histogram.mlir").read_text()
    values = np.random.default_rng(3).integers(0, 256, n, dtype=np.int32)
    kernel = device.compile(text).kernel("histogram")
    xs, bins = device.upload(values), device.empty(256, np.int32)
    zeros = np.zeros(256, np.int32)

    def ours() -> None:
        bins.upload(zeros)
        kernel(64, 256, 256, n, xs, bins)
        device.synchronize()

    ours()
    if not np.array_equal(bins.download(), np.bincount(values, minlength=256)):
        raise RuntimeError("gpuir's histogram differs from numpy's bincount")
    best = race({"ours": ours, "numpy": lambda: np.bincount(values, minlength=256)}, repeats)
    for buffer in (xs, bins):
        buffer.free()
    return [
        Row(
            f"cpu histogram, 256 bins of {n / 2**20:g}M i32 (numpy: bincount)",
            best["ours"],
            best["numpy"],
            f"numpy {np.__version__}",
            "s",
            "<= 1.5",
        )
    ]


def cpu_launch(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """One launch of `cpu_provider.py`'s empty kernel on 1 group of 1 item, against one numpy
    call on one element: `LAUNCHES` of them, then one `synchronize()`."""
    import cpu_provider

    empty = device.compile(cpu_provider.KERNELS).kernel("empty")
    one = np.ones(1, np.float32)

    def ours() -> None:
        for _ in range(LAUNCHES):
            empty(1, 1)
        device.synchronize()

    def numpy() -> None:
        for _ in range(LAUNCHES):
            np.multiply(one, one, out=one)

    best = race({"ours": ours, "numpy": numpy}, max(3, repeats // 3))
    return [
        Row(
            "cpu launch overhead, empty kernel (numpy: a one-element multiply)",
            best["ours"] / LAUNCHES,
            best["numpy"] / LAUNCHES,
            f"numpy {np.__version__}",
            "s",
        )
    ]


def cpu_launch_path(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`benchmarks/launch.py`: `Kernel.__call__` of a kernel with a buffer and an f32 argument
    on the cpu provider against a call of a trivial `@njit(parallel=True)` function with a
    numpy array and a float (time per launch), and the bytes either keeps after its calls
    (tracemalloc, after a collection: 0 is the goal of both)."""
    import launch

    found = launch.measure(launch.LAUNCHES, max(3, repeats // 2))
    ours, peer = found["cpu"], found["numba"]
    name = str(found["numba_name"])
    label = "cpu launch, Kernel.__call__ of @tiny(buffer, f32) (Numba: a parallel njit call)"
    kept = f"bytes kept per {launch.LAUNCHES:,} launches (tracemalloc)"
    if peer is None:
        note = str(found["numba_missing"])
        return [
            Row(label, ours.seconds, None, "", "s", note=note),
            Row(kept, ours.kept_bytes * launch.LAUNCHES, None, "", "B", note=note),
        ]
    return [
        Row(label, ours.seconds, peer.seconds, name, "s", "<= 1.5"),
        Row(kept, ours.kept_bytes * launch.LAUNCHES, peer.kept_bytes * launch.LAUNCHES, name, "B"),
    ]


def sum_launches(device, kernel, xs, groups: int, items: int, per_item: int, last: int):
    """A sum in two launches of `kernel` (a group sum, `kernels.group_sum`): `groups` groups of
    `items` items, `per_item` values each, sum the device array `xs` into the groups' sums, then
    one group of `last` items sums those. The run (launches, then `synchronize()`), and the
    buffers of the groups' sums and of the result."""
    partial, result = device.empty(groups, np.float32), device.empty(1, np.float32)

    def ours() -> None:
        kernel(groups, items, items, per_item, xs, partial)
        kernel(1, last, last, groups // last, partial, result)
        device.synchronize()

    return ours, partial, result


def check_sum(who: str, found: float, exact: float, n: int) -> None:
    """A float32 sum of `n` standard normal values, in any order, is off by about sqrt(n) ulps
    of partial sums of size sqrt(n): well under n * 2^-22. A block of values missing or counted
    twice is off by far more."""
    if abs(found - exact) > n * 2**-22:
        raise RuntimeError(f"{who} is {found}, the float64 sum is {exact}")


def cpu_chain(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`fusion.py`'s chain `(x * 2 + 1) * x`: fused into one kernel, and unfused (three
    kernels, y and z in memory); numpy's three passes, Numba's one loop, the C peer's. The fused
    kernel also on a second cpu device made with `GPUIR_CPU_STREAMING=0` (no streaming stores,
    its own buffers), in the same race: the rows with and without, against Numba and C. Each
    checked bit for bit, and each row says whether its launches took the stream entry."""
    with cpu_device(GPUIR_CPU_STREAMING="0") as plain:
        return chain_rows(device, plain, n, repeats, numba)


def chain_rows(device, plain, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`cpu_chain` on `device` (the provider's own choice of streaming) and `plain` (none)."""
    import fusion

    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    expected = fusion.numpy_chain(x).view(np.uint32)
    xs, xp = device.upload(x), plain.upload(x)
    ours, unfused_run, (ys, zs, ws) = fusion.chain_runs(device, n, xs)
    off, _, (yp, zp, wp) = fusion.chain_runs(plain, n, xp)
    streams = {}
    for name, run, w in (("ours", ours, ws), ("unfused", unfused_run, ws), ("off", off, wp)):
        w.upload(np.zeros(n, np.float32))
        run()
        if name != "unfused":
            streams[name] = takes_stream_entry(run)
        if not np.array_equal(w.download().view(np.uint32), expected):
            raise RuntimeError(f"gpuir's chain ({name}) differs from numpy's")
    if streams["off"]:
        raise RuntimeError("the chain streams on a device made with GPUIR_CPU_STREAMING=0")
    runs = {
        "ours": ours,
        "off": off,
        "unfused": unfused_run,
        "numpy": lambda: fusion.numpy_chain(x),
    }
    if numba.missing is None:
        xn, w = x.copy(), np.empty_like(x)
        numba.kernels["chain"](xn, w)
        if not np.array_equal(w.view(np.uint32), expected):
            raise RuntimeError("Numba's chain differs from numpy's")
        runs["numba"] = lambda: numba.kernels["chain"](xn, w)
    wc = np.empty_like(x)
    c = add_openmp(runs, "chain", (x.copy(), wc), wc, expected)
    best = race(runs, repeats)
    for buffer in (xs, ys, zs, ws, xp, yp, zp, wp):
        buffer.free()
    label = f"cpu 3-map chain, {n / 2**20:g}M f32"
    fused = f"{label}, fused"
    setting = os.environ.get("GPUIR_CPU_STREAMING", "").strip()
    on = f"{fused}, {'streaming stores' if streams['ours'] else 'not streaming'}"
    on += f" (GPUIR_CPU_STREAMING={setting})" if setting else ""
    off_label = f"{fused}, GPUIR_CPU_STREAMING=0"
    numpy_name = f"numpy {np.__version__}"
    return [
        *peer_rows(on, f"<= {1 / fusion.GOAL:.2f}", best, numba, PEER_GOAL),
        openmp_row(on, best, c, PEER_GOAL),
        numba_row(off_label, best, numba, "—", ours="off"),
        openmp_row(off_label, best, c, ours="off"),
        Row(f"{on} against GPUIR_CPU_STREAMING=0", best["ours"], best["off"], "gpuir", "s"),
        Row(
            f"{label}, unfused: 3 kernels (numpy)", best["unfused"], best["numpy"], numpy_name, "s"
        ),
        Row(
            f"{fused} against unfused",
            best["ours"],
            best["unfused"],
            "gpuir unfused",
            "s",
            "<= 1.0",
        ),
    ]
