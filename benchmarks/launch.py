"""Launch overhead of the Python API: µs per launch of a tiny kernel and the memory a launch
allocates, our `cpu` provider side by side with Numba in the same run.

Ours: `Kernel.__call__` of `@tiny` (one pointer and one f32 argument; it stores the f32 into
the first element) on 1 group of 1 item, on a resident 1-element buffer. Peer: a call of a
trivial `@numba.njit(parallel=True)` function with a 1-element numpy array and a float, the
same work. Each is warmed up, then called `LAUNCHES` times, the best of `repeats` rounds (wall
time). Memory, with `tracemalloc` on, after a garbage collection on both sides: the bytes still
allocated after `LAUNCHES` calls, per launch (what a launch keeps: 0), and the peak above the
start during them (the most that one launch has allocated at once, freed again).

    python benchmarks/launch.py              # 10,000 launches, 5 rounds
    python benchmarks/launch.py --launches 2000 --repeats 3

`measure()` is what `run_all.py` calls. Nothing is asserted (the test of the same property is
`tests/test_launch_allocations.py`).
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from kernels import TINY

LAUNCHES = 10_000


@dataclass
class Figures:
    """Seconds per launch (best round), bytes kept per launch, the peak in bytes."""

    seconds: float
    kept_bytes: float
    peak_bytes: int


def timed(call: Callable[[], object], launches: int, repeats: int) -> Figures:
    for _ in range(100):  # warm-up: caches, lazily made buffers
        call()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(launches):
            call()
        best = min(best, time.perf_counter() - start)
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        for _ in range(launches):
            call()
        gc.collect()
        after, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return Figures(best / launches, (after - before) / launches, peak - before)


def ours(provider: str, launches: int, repeats: int) -> Figures:
    import gpuir

    with gpuir.Device(provider) as device:
        tiny = device.compile(TINY).kernel("tiny")
        x = device.upload(np.zeros(1, np.float32))
        a = np.float32(2.5)

        def call() -> None:
            tiny(1, 1, x, a)

        call()
        if x.download()[0] != a:
            raise RuntimeError(f"@tiny on {provider} did not store {a}")
        figures = timed(call, launches, repeats)
        x.free()
        return figures


def numba_peer(launches: int, repeats: int) -> tuple[str, Figures | None, str]:
    """Numba's figures, or None and why not."""
    try:
        import numba
        from numba import njit, prange
    except Exception as e:  # noqa: BLE001  # no Numba: the row says so
        return "Numba", None, f"unavailable: {type(e).__name__}: {e}"

    @njit(parallel=True)
    def tiny(x, a):
        for i in prange(x.size):
            x[i] = a

    x = np.zeros(1, np.float32)
    a = np.float32(2.5)
    tiny(x, a)
    if x[0] != a:
        raise RuntimeError("Numba's tiny did not store a")
    return f"Numba {numba.__version__}", timed(lambda: tiny(x, a), launches, repeats), ""


def measure(launches: int = LAUNCHES, repeats: int = 5) -> dict[str, object]:
    """Figures of ours (cpu, interp) and of Numba: `{"cpu": Figures, "interp": Figures,
    "numba": Figures | None, "numba_name": str, "numba_missing": str}`."""
    name, peer, missing = numba_peer(launches, repeats)
    return {
        "cpu": ours("cpu", launches, repeats),
        "interp": ours("interp", max(launches // 10, 100), 1),
        "numba": peer,
        "numba_name": name,
        "numba_missing": missing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=LAUNCHES)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    found = measure(args.launches, args.repeats)
    peer = found["numba"]
    print(f"{'':24} {'µs/launch':>10} {'kept B/launch':>14} {'peak B':>10}")
    for label, figures in (
        ("gpuir cpu provider", found["cpu"]),
        ("gpuir interp provider", found["interp"]),
        (str(found["numba_name"]), peer),
    ):
        if not isinstance(figures, Figures):
            print(f"{label:24} {found['numba_missing']}")
            continue
        print(
            f"{label:24} {figures.seconds * 1e6:10.2f} {figures.kept_bytes:14.3f} "
            f"{figures.peak_bytes:10d}"
        )
    if isinstance(peer, Figures):
        cpu = found["cpu"]
        assert isinstance(cpu, Figures)
        print(f"ratio cpu / Numba (time per launch): {cpu.seconds / peer.seconds:.2f}")


if __name__ == "__main__":
    main()
