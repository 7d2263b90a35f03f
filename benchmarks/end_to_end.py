"""Whole programs as whole processes: `gpu-run --provider cpu` (host code compiled) against
numpy and against `mlir-opt-22 … | mlir-runner-22` on the same program written in upstream
MLIR (memref and scf), in one run, as ratios.

Programs:
- `vadd`: host loops fill two arrays of N f32 (a[k] = k, b[k] = 2k), copy them to the device,
  one launch adds them, the host copies the sum back and adds it up in f64 (gpuir:
  `programs/vadd.mlir`; MLIR: the same three loops over memrefs; numpy: `arange`, `+`, `sum`);
- `matmul`: an N×N f32 matmul of `buffer.lit` inputs through one `btensor.map_reduce` (one
  kernel launch), the result's corner printed (numpy: `a @ b`).

Each command is timed as a process (wall seconds, best of `repeats`, interleaved with its
peers); the rows are gpu-run / peer. gpu-run is timed three ways: with a cold disk cache (a new
empty `GPUIR_CACHE_DIR` each run: everything compiled, then stored; for vadd also in a tool
server of the user's own, `GPUIR_TOOL_SERVER=auto`, whose imports are done); warm, as a user's third run
of a program is (its native executable: `docs/native.md`); and warm with `GPUIR_NATIVE=0` (the
machine code of host and device loaded from the cache into Python: `gpuir.runtime.disk_cache`).
`gpu-run --time` splits the last into phases: the run phase (everything after the JIT) is
reported for the vadd sizes, to show it grows linearly.

    python benchmarks/end_to_end.py             # N = 1M, 4M, 16M; matmul 256, 512
    python benchmarks/end_to_end.py --quick     # N = 1M; matmul 256

MLIR 22's tools come from Debian (`apt-get install mlir-22-tools`); without them the MLIR rows
say so. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VADD = HERE / "programs" / "vadd.mlir"
RUNNER_UTILS = Path("/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1")

MLIR_VADD = """
func.func private @printF64(f64)
func.func private @printNewline()
func.func @main() {{
  %n = arith.constant {n} : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {{
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %kf2 = arith.mulf %kf, %two : f32
    memref.store %kf, %a[%k] : memref<?xf32>
    memref.store %kf2, %b[%k] : memref<?xf32>
  }}
  scf.for %k = %c0 to %n step %c1 {{
    %x = memref.load %a[%k] : memref<?xf32>
    %y = memref.load %b[%k] : memref<?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%k] : memref<?xf32>
  }}
  %init = arith.constant 0.0 : f64
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (f64) {{
    %x = memref.load %c[%k] : memref<?xf32>
    %xd = arith.extf %x : f32 to f64
    %acc2 = arith.addf %acc, %xd : f64
    scf.yield %acc2 : f64
  }}
  func.call @printF64(%sum) : (f64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}}
"""

NUMPY_VADD = (
    "import numpy as np; a = np.arange({n}, dtype=np.float32); b = 2 * a; "
    "print((a + b).sum(dtype=np.float64))"
)

MATMUL = """
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {{
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %m1, %a = buffer.lit %m, %one : f32 -> !buffer.buf<{n}x{n}xf32>
  %m2, %b = buffer.lit %m1, %half : f32 -> !buffer.buf<{n}x{n}xf32>
  %zero = arith.constant 0.0 : f32
  %m3, %c = btensor.map_reduce %m2 ins(%a, %b : !buffer.buf<{n}x{n}xf32>, !buffer.buf<{n}x{n}xf32>)
      init(%zero : f32) {{out_rank = 2 : i64, shape = array<i64: {n}, {n}, {n}>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      out_map = affine_map<(i, j) -> (i, j)>}} combiner {{
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  }} : !buffer.buf<{n}x{n}xf32>
  %i = arith.constant {last} : index
  %m4, %v = buffer.read %m3, %c[%i, %i] : !buffer.buf<{n}x{n}xf32>
  func.return %m4, %v : !mem.M<0>, f32
}}
"""

NUMPY_MATMUL = (
    "import numpy as np; a = np.full(({n}, {n}), 1.0, np.float32); "
    "b = np.full(({n}, {n}), 0.5, np.float32); print((a @ b)[-1, -1])"
)


def gpu_run() -> str:
    found = shutil.which("gpu-run", path=str(Path(sys.executable).parent))
    return found or "gpu-run"


def mlir_tools() -> tuple[str, str] | None:
    opt, runner = shutil.which("mlir-opt-22"), shutil.which("mlir-runner-22")
    if opt is None or runner is None or not RUNNER_UTILS.exists():
        return None
    return opt, runner


def timed(command: list[str] | str, shell: bool = False) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, shell=shell, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command} failed: {done.stderr[-2000:]}")
    return seconds, done.stdout + done.stderr


def best(commands: dict[str, list[str] | str], repeats: int) -> dict[str, tuple[float, str]]:
    """Best wall seconds of each command, run round-robin; the output of its best run."""
    results: dict[str, tuple[float, str]] = {}
    for _ in range(repeats):
        for name, command in commands.items():
            seconds, output = timed(command, shell=isinstance(command, str))
            if name not in results or seconds < results[name][0]:
                results[name] = (seconds, output)
    return results


def run_phase(output: str) -> float | None:
    """The `run` phase of `gpu-run --time`, in seconds."""
    match = re.search(r"time: run\s+([0-9.]+) ms", output)
    return float(match.group(1)) / 1000 if match else None


def ours(arguments: list[str], cache: Path | None, native: bool = True) -> str:
    """gpu-run as a shell command: with the disk cache in `cache` (warm; `native`: its native
    executable where it has one), or in a new empty folder each run (cold: compiles, then
    stores)."""
    command = " ".join(shlex.quote(a) for a in [gpu_run(), *arguments])
    if cache is not None:
        switch = "" if native else "GPUIR_NATIVE=0 "
        return f"{switch}GPUIR_CACHE_DIR={shlex.quote(str(cache))} {command}"
    return f'cold=$(mktemp -d) && GPUIR_CACHE_DIR="$cold" {command}; s=$?; rm -rf "$cold"; exit $s'


def measure(quick: bool = False, repeats: int = 3) -> list[tuple[str, float, float | None, str]]:
    """Rows `(measure, ours, peer, peer name)` in seconds (peer None: not measured)."""
    sizes = [1 << 20] if quick else [1 << 20, 1 << 22, 1 << 24]
    tools = mlir_tools()
    rows: list[tuple[str, float, float | None, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        warm = Path(scratch) / "cache"
        for n in sizes:
            arguments = [str(VADD), "--provider", "cpu", str(n)]
            for _ in range(2):  # fills the warm cache, then keeps the native executable
                timed(ours(arguments, warm), shell=True)
            served = (
                f"export GPUIR_TOOL_SERVER=auto GPUIR_TOOL_SERVER_IDLE=60; {ours(arguments, None)}"
            )
            timed(served, shell=True)  # starts the user's tool server
            commands: dict[str, list[str] | str] = {
                "cold": ours(arguments, None),
                "cold, GPUIR_TOOL_SERVER=auto": served,
                "warm": ours(arguments, warm),
                "warm, GPUIR_NATIVE=0": ours(arguments, warm, native=False),
                "numpy": [sys.executable, "-c", NUMPY_VADD.format(n=n)],
            }
            if tools is not None:
                source = Path(scratch) / f"vadd{n}.mlir"
                source.write_text(MLIR_VADD.format(n=n))
                commands["mlir"] = (
                    f"{tools[0]} {source} --convert-scf-to-cf --convert-to-llvm "
                    f"--reconcile-unrealized-casts | {tools[1]} -e main -O3 "
                    f"-entry-point-result=void -shared-libs={RUNNER_UTILS}"
                )
            found = best(commands, repeats)
            mlir = found.get("mlir")
            for cache in ("cold", "cold, GPUIR_TOOL_SERVER=auto", "warm", "warm, GPUIR_NATIVE=0"):
                label = f"vadd {n // (1 << 20)}M, {cache}"
                seconds = found[cache][0]
                rows.append((label, seconds, found["numpy"][0], "numpy"))
                rows.append((label, seconds, None if mlir is None else mlir[0], "mlir-runner-22"))
            _, timing = timed(ours([*arguments, "--time"], warm, native=False), shell=True)
            phase = run_phase(timing)
            if phase is not None:
                rows.append((f"vadd {n // (1 << 20)}M, run phase", phase, None, "—"))
        for n in [256] if quick else [256, 512]:
            source = Path(scratch) / f"matmul{n}.mlir"
            source.write_text(MATMUL.format(n=n, last=n - 1))
            arguments = [str(source), "--provider", "cpu"]
            for _ in range(2):
                timed(ours(arguments, warm), shell=True)
            found = best(
                {
                    "cold": ours(arguments, None),
                    "warm": ours(arguments, warm),
                    "warm, GPUIR_NATIVE=0": ours(arguments, warm, native=False),
                    "numpy": [sys.executable, "-c", NUMPY_MATMUL.format(n=n)],
                },
                repeats,
            )
            for cache in ("cold", "warm", "warm, GPUIR_NATIVE=0"):
                label = f"matmul {n}, {cache}"
                rows.append((label, found[cache][0], found["numpy"][0], "numpy"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if mlir_tools() is None:
        print("mlir-runner-22 not found: apt-get install mlir-22-tools", file=sys.stderr)
    for label, seconds, peer, name in measure(args.quick, args.repeats):
        ratio = "" if peer is None else f"  {seconds / peer:6.2f}x {name} ({peer:.3f} s)"
        print(f"{label:<36} {seconds:8.3f} s{ratio}")


if __name__ == "__main__":
    main()
