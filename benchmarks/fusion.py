"""Fusion: a chain of three elementwise maps, fused into one kernel and unfused, against numpy.

The chain is `w = (x * 2 + 1) * x` on N float32 (16M by default): three `btensor.map_reduce`
ops, y = x * 2, z = y + 1, w = z * x. `fuse-map-reduce` + `lower-btensor-map-reduce` make one
kernel that reads x and writes w; `lower-btensor-map-reduce` alone makes three, with y and z in
device memory. The peer is numpy evaluating the same expression (three passes, two temporaries).
All three are timed in this run, on the same input, with the kernels launched on resident
buffers (no copies timed) through `gpuir.Device`; every result is checked bit for bit against
numpy's before timing (the same float32 operations in the same order).

The table shows the best of `--repeat` runs: each measure's time (ours), numpy's (peer), and
peer / ours (above 1.0: faster than numpy). The goal: the fused chain at least 1.5x numpy.
Nothing is asserted. Without the provider (`--provider`, default cpu) it says so and exits 0.

    python benchmarks/fusion.py                     # 16M elements on the cpu provider
    python benchmarks/fusion.py --n 1000000 --repeat 5
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

import gpuir
from gpuir.runtime import unavailable_reason

GOAL = 1.5
"""numpy time / fused time that the fused chain should reach."""
PIPELINES = {
    "fused": "fuse-map-reduce,lower-btensor-map-reduce,buffer-lower-ptr,split-apply",
    "unfused": "lower-btensor-map-reduce,buffer-lower-ptr,split-apply",
}
IDENTITY = "affine_map<(i) -> (i)>"


CHAIN = [  # (result, its token's prefix, inputs, combiner body ending in %r)
    ("y", "", ["%x"], ["%c = arith.constant 2.0 : f32", "%r = arith.mulf %e0, %c : f32"]),
    ("z", "y", ["%y"], ["%c = arith.constant 1.0 : f32", "%r = arith.addf %e0, %c : f32"]),
    ("w", "z", ["%z", "%x"], ["%r = arith.mulf %e0, %e1 : f32"]),
]


def map_op(result: str, token: str, ins: list[str], body: list[str], n: int) -> str:
    """`%<result>m, %<result> = btensor.map_reduce %<token>m ins(…)`: a map over n elements."""
    buf = f"!buffer.buf<{n}xf32>"
    args = ", ".join(f"%e{i}: f32" for i in range(len(ins)))
    lines = "\n      ".join(body)
    return f"""
  %{result}m, %{result} = btensor.map_reduce %{token}m ins({", ".join(ins)} : {", ".join([buf] * len(ins))})
      init(%zero : f32) {{out_rank = 1 : i64, shape = array<i64: {n}>,
      maps = [{", ".join([IDENTITY] * len(ins))}], out_map = {IDENTITY}}} combiner {{
    ^bb0(%acc: f32, {args}):
      {lines}
      btensor.yield %r : f32
  }} : {buf}"""


def chain_program(n: int) -> str:
    """`@chain(x) -> w` of three map-reduce ops (only its kernels are launched here)."""
    buf = f"!buffer.buf<{n}xf32>"
    ops = "".join(map_op(*op, n) for op in CHAIN)
    return f"""
func.func @chain(%m: !mem.M<0>, %x: {buf}) -> (!mem.M<0>, {buf}) {{
  %zero = arith.constant 0.0 : f32{ops}
  func.return %wm, %w : !mem.M<0>, {buf}
}}
"""


def chain_runs(device, n: int, x) -> tuple[Callable[[], None], Callable[[], None], tuple]:
    """The chain on `device` over its buffer `x` of `n` f32, compiled fused (one kernel) and
    unfused (three, through `y` and `z`): a run of each, which writes `w` and synchronizes, and
    the buffers it made, `(y, z, w)`. The fused run's `kernel` and `grid` are what it
    launches."""
    fused = device.compile(chain_program(n), pipeline=PIPELINES["fused"])
    unfused = device.compile(chain_program(n), pipeline=PIPELINES["unfused"])
    if fused.kernels != ("map_reduce_kernel_0",) or len(unfused.kernels) != 3:
        raise RuntimeError(f"kernels: fused {fused.kernels}, unfused {unfused.kernels}")
    one, (k0, k1, k2) = fused.kernel(fused.kernels[0]), map(unfused.kernel, unfused.kernels)
    n_items = min(n, 1024)
    grid = (-(-n // n_items), n_items)
    y, z, w = (device.empty(n, np.float32) for _ in range(3))

    def run_fused() -> None:
        one(*grid, x, w)
        device.synchronize()

    run_fused.kernel, run_fused.grid = one, grid  # type: ignore[attr-defined]

    def run_unfused() -> None:
        k0(*grid, x, y)
        k1(*grid, y, z)
        k2(*grid, z, x, w)
        device.synchronize()

    return run_fused, run_unfused, (y, z, w)


def numpy_chain(x: np.ndarray) -> np.ndarray:
    return (x * np.float32(2) + np.float32(1)) * x


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 24, help="elements (default 16M)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per measure; the best counts")
    parser.add_argument("--provider", default="cpu", help="gpuir provider (default cpu)")
    args = parser.parse_args()

    reason = unavailable_reason(args.provider)
    if reason is not None:
        print(f"fusion: {args.provider} provider not available ({reason}); nothing measured")
        return 0
    n = args.n
    x_host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    expected = numpy_chain(x_host)

    with gpuir.Device(args.provider) as device:
        run_fused, run_unfused, (_, _, w) = chain_runs(device, n, device.upload(x_host))
        measures = {"fused (1 kernel)": run_fused, "unfused (3 kernels)": run_unfused}
        for name, run in measures.items():  # compiles and warms up, checks the bits
            run()
            found = w.download()
            if not np.array_equal(found.view(np.uint32), expected.view(np.uint32)):
                print(f"fusion: {name} differs from numpy", file=sys.stderr)
                return 1
            w.upload(np.zeros(n, np.float32))
        peer = best(lambda: numpy_chain(x_host), args.repeat)
        ours = {name: best(run, args.repeat) for name, run in measures.items()}

    print(f"fusion: w = (x * 2 + 1) * x on {n} float32, {args.provider} provider vs numpy")
    print(f"best of {args.repeat}; ratio = numpy / ours (> 1: faster); goal: fused >= {GOAL}x\n")
    print(f"{'measure':<22} {'ours (ms)':>10} {'numpy (ms)':>11} {'ratio':>7}  goal")
    for name, seconds in ours.items():
        ratio = peer / seconds
        goal = "-" if "unfused" in name else f">= {GOAL}: {'met' if ratio >= GOAL else 'not met'}"
        print(f"{name:<22} {seconds * 1e3:>10.2f} {peer * 1e3:>11.2f} {ratio:>7.2f}  {goal}")
    speedup = ours["unfused (3 kernels)"] / ours["fused (1 kernel)"]
    print(f"\nfused vs unfused: {speedup:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
