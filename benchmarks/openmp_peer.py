"""The cpu benchmark's C peer: the same kernels as plain C loops, `#pragma omp parallel for`,
built at run time with `gcc -O3 -march=native -fopenmp` (the compiler and flags a C programmer
would use), called through ctypes on the same numpy arrays as Numba. For a kernel that is
bound by memory bandwidth, as the 16M saxpy is, its time is what this machine's memory allows,
so the ratio against it says how far a peer is from the ceiling.

    python benchmarks/openmp_peer.py     # builds it and checks it against numpy

`openmp_peer()` is what `run_all.py` calls: the kernels, or why there are none (no gcc, no
OpenMP).
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SOURCE = r"""
#include <stddef.h>

void saxpy(ptrdiff_t n, float a, const float *x, float *y) {
#pragma omp parallel for schedule(static)
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

void chain(ptrdiff_t n, const float *x, float *w) {
#pragma omp parallel for schedule(static)
  for (ptrdiff_t i = 0; i < n; i++)
    w[i] = (x[i] * 2.0f + 1.0f) * x[i];
}
"""
FLAGS = ("-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-shared", "-fPIC")
"""`-ffp-contract=off`: `a * x + y` rounded twice, as numpy, Numba and gpuir compute it (gcc
would make it one fused multiply-add)."""


@dataclass
class OpenMP:
    """The C kernels (`saxpy(a, x, y)`, `chain(x, w)` on float32 arrays), or why there are
    none."""

    name: str
    kernels: dict[str, Callable] = field(default_factory=dict)
    missing: str | None = None


def openmp_peer() -> OpenMP:
    compiler = shutil.which("gcc")
    if compiler is None:
        return OpenMP("", missing="gcc not found: no C (OpenMP) peer")
    folder = Path(tempfile.mkdtemp(prefix="gpuir-openmp-"))
    source, library = folder / "peer.c", folder / "peer.so"
    source.write_text(SOURCE)
    built = subprocess.run(
        [compiler, *FLAGS, str(source), "-o", str(library)],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0:
        shutil.rmtree(folder)
        return OpenMP("", missing=f"gcc -fopenmp failed: {built.stderr.strip()[:200]}")
    version = subprocess.run(
        [compiler, "-dumpfullversion"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lib = ctypes.CDLL(str(library))
    shutil.rmtree(folder)  # loaded: the files are not needed any more
    pointer = ctypes.c_void_p
    lib.saxpy.argtypes = [ctypes.c_ssize_t, ctypes.c_float, pointer, pointer]
    lib.chain.argtypes = [ctypes.c_ssize_t, pointer, pointer]

    def saxpy(a: np.float32, x: np.ndarray, y: np.ndarray) -> None:
        lib.saxpy(x.size, a, x.ctypes.data, y.ctypes.data)

    def chain(x: np.ndarray, w: np.ndarray) -> None:
        lib.chain(x.size, x.ctypes.data, w.ctypes.data)

    return OpenMP(f"gcc {version} -O3 -fopenmp", {"saxpy": saxpy, "chain": chain})


def main() -> None:
    peer = openmp_peer()
    if peer.missing is not None:
        print(peer.missing)
        return
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(1 << 20).astype(np.float32), np.ones(1 << 20, np.float32)
    a = np.float32(2.5)
    expected = a * x + y
    peer.kernels["saxpy"](a, x, y)
    w = np.empty_like(x)
    peer.kernels["chain"](x, w)
    same = np.array_equal(y, expected) and np.array_equal(w, (x * 2 + 1) * x)
    print(f"{peer.name}: {'same as numpy' if same else 'DIFFERS from numpy'}")


if __name__ == "__main__":
    main()
