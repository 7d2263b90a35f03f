"""The sanitizer at the sizes people debug at: `interp` (every access checked) against the
unchecked `cpu` provider on the same programs, each a process of its own, its wall time and peak
memory (the whole process: `ru_maxrss`, taken by `peak.py`'s launcher).

- `matmul N`: the N x N x N f32 product of two `buffer.lit` inputs through one
  `btensor.map_reduce`, lowered to a kernel launch (`end_to_end.MATMUL`), run by `gpu-run`;
  N = 64, 96, 128 (`--quick`: 64, 96). Every run's result is checked (N * 0.5).
- `saxpy 1M`: `cpu_provider.py`'s saxpy kernel on 2**20 f32 through the Python API (`--quick`:
  2**18), its result checked against numpy's.
- `1024 MiB allocated, 1 MiB used`: two device arrays of 512 MiB (`--quick`: 128 MiB), of which
  the saxpy uses the first 2**18 elements, on `cpu` and `cpu --check` (whose shadow records
  should cost what the kernel touches, not what the program allocates).

Also the memory interp keeps per byte the kernels touch (its peak less that of an empty
program), which is what "memory that grows with the data" means. `cpu --check` (the compiled
sanitizer: native checks of every global and shared access, a suspect launch run again under
interp) runs the same programs.

    python benchmarks/sanitizer.py            # the rows of `make bench`
    python benchmarks/sanitizer.py --quick
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peak import run as measured_run  # noqa: E402

SAXPY = """
import sys
import numpy as np
import gpuir
import cpu_provider

provider, n = sys.argv[1], int(sys.argv[2])
if provider == "cpu --check":
    from gpuir.runtime.cpu import CpuProvider

    provider = CpuProvider(check=True)
rng = np.random.default_rng(0)
x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
a = np.float32(2.5)
with gpuir.Device(provider) as device:
    saxpy = device.compile(cpu_provider.KERNELS).kernel("saxpy")
    xs, ys = device.upload(x), device.upload(y)
    items = cpu_provider.ITEMS
    times = []
    for run in range(1 if isinstance(provider, str) and provider == "interp" else 10):
        ys.upload(y)
        start = time.perf_counter()
        saxpy(-(-n // items), items, items, n, a, xs, ys)
        device.synchronize()
        times.append(time.perf_counter() - start)
        if not np.array_equal(ys.download(), a * x + y):
            sys.exit("saxpy: the result differs from numpy's")
    print(min(times))
"""

SPARSE = """
import sys
import numpy as np
import gpuir
import cpu_provider

provider, total, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if provider == "cpu --check":
    from gpuir.runtime.cpu import CpuProvider

    provider = CpuProvider(check=True)
a = np.float32(2.5)
with gpuir.Device(provider) as device:
    saxpy = device.compile(cpu_provider.KERNELS).kernel("saxpy")
    start = time.perf_counter()
    xs, ys = (device.empty(total // 8, np.float32) for _ in range(2))
    items = cpu_provider.ITEMS
    saxpy(-(-n // items), items, items, n, a, xs, ys)
    device.synchronize()
    if ys[:n].download().any():
        sys.exit("sparse: a * 0 + 0 is not 0")
    xs.free()
    ys.free()
    print(time.perf_counter() - start)
"""
"""Two arrays of `total` bytes in all, of which a saxpy uses the first `n` elements: what
memory a checked run needs for memory that no kernel touches."""

EMPTY = """
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  func.return %m : !mem.M<0>
}
"""


def run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak memory (MB) and stdout of one process (`peak.run`: measured from a
    launcher of its own, so the figures are the process's, not this one's)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        env = {**os.environ, "PYTHONPATH": str(HERE)}
        seconds, peak_mb, returncode = measured_run(
            command, cwd=HERE, env=env, stdout=out, stderr=err
        )
        out.seek(0)
        err.seek(0)
        if returncode != 0:
            last = err.read().strip().splitlines()[-1:]
            raise RuntimeError(f"{' '.join(command)} failed: {last}")
        return seconds, peak_mb, out.read()


PROVIDERS = ("cpu", "cpu --check", "interp")


def measure(quick: bool = False) -> list[tuple[str, str, float, float]]:
    """Rows `(program, provider, seconds, peak MB)`, from the smallest program up, and the
    empty program's peak first (`("empty", "interp", s, MB)`); for the saxpy also
    `("saxpy …K launch", provider, s, 0)`: the launch alone, the best of ten (interp: one)."""
    from end_to_end import MATMUL, gpu_run

    rows = []
    sizes = [64, 96] if quick else [64, 96, 128]
    with tempfile.TemporaryDirectory() as scratch:
        empty = Path(scratch) / "empty.mlir"
        empty.write_text(EMPTY)
        seconds, peak, _ = run([gpu_run(), str(empty), "--provider", "interp"])
        rows.append(("empty", "interp", seconds, peak))
        for n in sizes:
            source = Path(scratch) / f"matmul{n}.mlir"
            source.write_text(MATMUL.format(n=n, last=n - 1))
            for provider in PROVIDERS:
                command = [gpu_run(), str(source), "--provider", *provider.split()]
                seconds, peak, out = run(command)
                if float(out.split()[-1]) != n * 0.5:
                    raise RuntimeError(f"matmul {n} on {provider}: {out.strip()}, not {n * 0.5}")
                rows.append((f"matmul {n}", provider, seconds, peak))
        n = 1 << (18 if quick else 20)
        for provider in PROVIDERS:
            seconds, peak, out = run([sys.executable, "-c", SAXPY, provider, str(n)])
            rows.append((f"saxpy {n // 1024}K", provider, seconds, peak))
            rows.append((f"saxpy {n // 1024}K launch", provider, float(out.split()[-1]), 0.0))
        total = 1 << (28 if quick else 30)
        for provider in ("cpu", "cpu --check"):
            command = [sys.executable, "-c", SPARSE, provider, str(total), str(1 << 18)]
            seconds, peak, out = run(command)
            rows.append((f"{total >> 20} MiB allocated, 1 MiB used", provider, seconds, peak))
    return rows


def touched_bytes(program: str) -> int:
    """The bytes of device memory the program's kernel reads or writes."""
    kind, size = program.split()
    if kind == "matmul":
        return 3 * int(size) ** 2 * 4
    return 2 * int(size.rstrip("K")) * 1024 * 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rows = measure(args.quick)
    base = rows[0][3]
    for program, provider, seconds, peak in rows[1:]:
        if program.endswith("launch"):
            print(f"{program:<18} {provider:<12} {seconds * 1e3:8.2f} ms")
            continue
        extra = ""
        if provider == "interp":
            extra = f"  {(peak - base) * 2**20 / touched_bytes(program):6.0f} B per byte touched"
        print(f"{program:<18} {provider:<12} {seconds:8.2f} s {peak:8.1f} MB{extra}")


if __name__ == "__main__":
    main()
