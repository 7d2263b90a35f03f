"""`mem.print_memref` prints what mlir-runner's `printMemref{F32,F64,I32,I64}` prints: the same
memrefs written in upstream MLIR run through `mlir-runner-22` (where MLIR 22 is installed) and
in gpuir's dialects through `gpu-run` on interp and cpu; the texts agree but for the address.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuir.runtime.print_memref import memref_text

GPU_RUN = str(Path(sys.executable).parent / "gpu-run")
"""The console script: its calls go through the session's tool server (tests/conftest.py)."""

ROOT = Path(__file__).resolve().parents[1]
LIBDIR = Path("/usr/lib/llvm-22/lib")
RUNNER_LIBS = [LIBDIR / "libmlir_runner_utils.so.22.1", LIBDIR / "libmlir_c_runner_utils.so.22.1"]

CASES = {
    # name: (element type, shape, values)
    "f32-2x3": ("f32", (2, 3), [0.5, 1.0, -2.25, 1 / 3, 1e6, 123456789.0]),
    "f32-2x2x3": ("f32", (2, 2, 3), [float(k) * 0.75 - 3 for k in range(12)]),
    "f64-4": ("f64", (4,), [2.0**-30, -0.0, 1e300, 0.1]),
    "i32-5": ("i32", (5,), [0, -7, 2147483647, -2147483648, 42]),
    "i64-1x3": ("i64", (1, 3), [9007199254740993, -1, 0]),
    "f32-1": ("f32", (1,), [7.0]),
}
NAMES = {"f32": "F32", "f64": "F64", "i32": "I32", "i64": "I64"}
ADDRESS = re.compile(r"base@ = 0x[0-9a-f]+")


def constant(type_: str, value: float) -> str:
    if type_.startswith("i"):
        return f"{int(value)} : {type_}"
    if type_ == "f32":
        bits = np.float32(value).view(np.uint32)
        return f"0x{int(bits):08X} : f32"
    return f"0x{int(np.float64(value).view(np.uint64)):016X} : f64"


def upstream(type_: str, shape: tuple[int, ...], values: list[float]) -> str:
    """The memref in upstream MLIR, printed with mlir-runner's function."""
    memref = f"memref<{'x'.join(map(str, shape))}x{type_}>"
    lines = [
        f"func.func private @printMemref{NAMES[type_]}(memref<*x{type_}>)",
        "func.func @main() {",
    ]
    lines.append(f"  %m = memref.alloc() : {memref}")
    for flat, value in enumerate(values):
        index = np.unravel_index(flat, shape)
        names = []
        for d, i in enumerate(index):
            lines.append(f"  %i{flat}_{d} = arith.constant {int(i)} : index")
            names.append(f"%i{flat}_{d}")
        lines.append(f"  %v{flat} = arith.constant {constant(type_, value)}")
        lines.append(f"  memref.store %v{flat}, %m[{', '.join(names)}] : {memref}")
    lines.append(f"  %u = memref.cast %m : {memref} to memref<*x{type_}>")
    lines.append(f"  call @printMemref{NAMES[type_]}(%u) : (memref<*x{type_}>) -> ()")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def ours(type_: str, shape: tuple[int, ...], values: list[float]) -> str:
    """The same in gpuir's dialects: nested arrays of host memory and `mem.print_memref`."""
    pointee = type_
    for extent in reversed(shape):
        pointee = f"!mem.array<{extent} x {pointee}>"
    lines = ["func.func @main(%m: !mem.M<0>) -> !mem.M<0> {"]
    lines.append(f"  %t0, %p = mem.alloc %m : !mem.ptr<{pointee}, 0>")
    token = "%t0"
    for flat, value in enumerate(values):
        index = np.unravel_index(flat, shape)
        at, inner = "%p", pointee
        for d, i in enumerate(index):
            lines.append(f"  %i{flat}_{d} = arith.constant {int(i)} : index")
            inner_type = inner[len("!mem.array<") : -1].split(" x ", 1)[1]
            lines.append(f"  %e{flat}_{d} = mem.lea {at}, %i{flat}_{d} : !mem.ptr<{inner}, 0>")
            at, inner = f"%e{flat}_{d}", inner_type
        lines.append(f"  %v{flat} = arith.constant {constant(type_, value)}")
        lines.append(f"  %s{flat} = mem.store {token}, {at}, %v{flat} : !mem.ptr<{type_}, 0>")
        token = f"%s{flat}"
    lines.append(f"  %printed = mem.print_memref {token}, %p : !mem.ptr<{pointee}, 0>")
    lines.append(f"  %freed = mem.free %printed, %p : !mem.ptr<{pointee}, 0>")
    lines += ["  func.return %freed : !mem.M<0>", "}"]
    return "\n".join(lines) + "\n"


def gpu_run(text: str, provider: str, tmp_path: Path) -> str:
    path = tmp_path / f"ours-{provider}.mlir"
    path.write_text(text)
    done = subprocess.run(
        [GPU_RUN, str(path), "--provider", provider],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def runner(text: str, tmp_path: Path) -> str:
    path = tmp_path / "upstream.mlir"
    path.write_text(text)
    lowered = subprocess.run(
        [
            "mlir-opt-22",
            str(path),
            "--finalize-memref-to-llvm",
            "--convert-vector-to-llvm",
            "--convert-func-to-llvm",
            "--convert-arith-to-llvm",
            "--reconcile-unrealized-casts",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert lowered.returncode == 0, lowered.stderr
    libs = ",".join(map(str, RUNNER_LIBS))
    done = subprocess.run(
        ["mlir-runner-22", "-e", "main", "-entry-point-result=void", f"-shared-libs={libs}"],
        input=lowered.stdout,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("provider", ["interp", "cpu"])
def test_gpu_run_prints_what_the_formatter_says(name, provider, tmp_path):
    type_, shape, values = CASES[name]
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}[type_]
    expected = memref_text(np.array(values, dtype).reshape(shape), 0)
    got = gpu_run(ours(type_, shape, values), provider, tmp_path)
    assert ADDRESS.sub("base@ = 0x0", got) == expected


@pytest.mark.skipif(
    shutil.which("mlir-runner-22") is None or not all(p.exists() for p in RUNNER_LIBS),
    reason="needs MLIR 22's mlir-runner and runner utilities (apt-get install mlir-22-tools)",
)
@pytest.mark.parametrize("name", list(CASES))
def test_mlir_runner_prints_the_same(name, tmp_path):
    type_, shape, values = CASES[name]
    theirs = runner(upstream(type_, shape, values), tmp_path)
    got = gpu_run(ours(type_, shape, values), "cpu", tmp_path)
    assert ADDRESS.sub("base@ = 0x0", got) == ADDRESS.sub("base@ = 0x0", theirs)


VECTOR_PRINT = """
func.func @main() {
  %m = memref.alloc() : memref<1xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.5 : f32
  memref.store %f, %m[%c0] : memref<1xf32>
  %l = memref.load %m[%c0] : memref<1xf32>
  vector.print %l : f32
  %g = arith.constant 1.0e-7 : f64
  vector.print %g : f64
  %t = arith.constant true
  vector.print %t : i1
  %n = arith.constant false
  vector.print %n : i1
  %c7 = arith.constant 7 : index
  vector.print %c7 : index
  %neg = arith.constant -3 : i64
  vector.print %neg : i64
  %n5 = arith.constant -5 : i32
  vector.print %n5 : i32
  %n8 = arith.constant -1 : i8
  vector.print %n8 : i8
  memref.dealloc %m : memref<1xf32>
  return
}
"""


@pytest.mark.skipif(
    shutil.which("mlir-runner-22") is None or not all(p.exists() for p in RUNNER_LIBS),
    reason="needs MLIR 22's mlir-runner and runner utilities (apt-get install mlir-22-tools)",
)
@pytest.mark.parametrize("provider", ["interp", "cpu"])
def test_vector_print_of_scalars_prints_what_mlir_runner_prints(provider, tmp_path):
    """An upstream program's `vector.print` of floats, i1, index and integers of several
    widths, through gpu-run's import and through mlir-runner-22."""
    theirs = runner(VECTOR_PRINT, tmp_path)
    assert theirs == "2.5\n1e-07\n1\n0\n7\n-3\n-5\n-1\n"  # what the runner prints
    assert gpu_run(VECTOR_PRINT, provider, tmp_path) == theirs
