"""The compiled host (`gpuir.runtime.compiled_host`): `@host` as machine code on the cpu provider.

- the C header `runtime/gpuir_runtime.h` and the ABI table `gpuir.lowering.host.host_abi` agree;
- every example and every `tests/lit/run` program prints, returns and fails exactly as with the
  interpreted host (`--interpret-host`), byte for byte, stdout and stderr;
- results are checked against independent computations (a vector add filled by host loops);
- each runtime fault of compiled code (a copy out of bounds, a double free of device memory, a
  copy from the wrong space, out of memory, a bad launch configuration) is a located
  diagnostic with exit status 1, and the device stays usable from the Python API.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

import gpuir
from gpuir.api import Device, ProviderError
from gpuir.lowering.host.host_abi import ABI
from gpuir.tools.gpu_run import main as gpu_run

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "runtime" / "gpuir_runtime.h"
UNCHECKED = {"views-dynamic-host-bounds"}
"""Programs whose point is a check of host code that compiled code does not make (README)."""
PROGRAMS = [
    path
    for path in sorted((ROOT / "examples").glob("*.mlir"))
    + sorted((ROOT / "tests" / "lit" / "run").glob("*.mlir"))
    if path.stem not in UNCHECKED and "--interpret-host" not in path.read_text()
]
"""The programs run with compiled host code (here and in test_disk_cache.py), but those whose
point is a check of host code (`UNCHECKED`, and those whose RUN lines run the cpu provider's
host code interpreted): compiled, they run on past the error, reading memory no one wrote
(`views-dynamic-host-bounds.mlir` prints what it finds there) or waiting forever for a kernel
(`stream-failure.mlir`)."""
C_TYPES = {
    "int64_t": "i64",
    "int32_t": "i32",
    "double": "f64",
    "void*": "ptr",
    "gpuirStream": "ptr",
}


def c_type(declaration: str) -> str:
    """The ABI kind of a C parameter or result (`int64_t n`, `void *ptr`, `gpuirStream`)."""
    words = declaration.replace("*", " * ").split()
    if len(words) > 1 and words[-1] != "*" and words[-1] not in C_TYPES:
        words = words[:-1]  # the parameter's name
    return C_TYPES["".join(words)]


def header_prototypes() -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """`name: (result, params)` of each function the header declares."""
    source = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    source = re.sub(r"\s+", " ", source)
    found = {}
    for result, name, params in re.findall(r"(\w+ ?\*?) ?(gpuir[A-Z]\w+)\(([^)]*)\);", source):
        kind = None if result.strip() == "void" else c_type(result)
        found[name] = (kind, tuple(c_type(p) for p in params.split(",")))
    return found


def test_the_header_is_the_abi_table():
    expected = {f.name: (f.result, f.params) for f in ABI}
    assert header_prototypes() == expected


def lit_arguments(path: Path) -> list[str]:
    """@main's arguments from the program's first `gpu-run %s` RUN line (none if it has none)."""
    for line in path.read_text().splitlines():
        match = re.search(r"RUN:.*?gpu-run %s(.*?)(\||2>|$)", line)
        if match:
            words = shlex.split(match.group(1))
            args, skip = [], False
            for word in words:
                if skip:
                    skip = False
                elif word in ("--provider", "-p", "--index-bitwidth"):
                    skip = True
                elif not word.startswith("--"):
                    args.append(word)
            return args
    return []


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = gpu_run(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_compiled_host_prints_what_the_interpreted_host_prints(path, capsys):
    args = [str(path), "--provider", "cpu", *lit_arguments(path)]
    compiled = run(args, capsys)
    interpreted = run([*args, "--interpret-host"], capsys)
    assert compiled == interpreted


VADD = (ROOT / "benchmarks" / "programs" / "vadd.mlir").read_text()


@pytest.mark.parametrize("n", [1, 255, 1000, 70_001])
def test_vector_add_filled_by_host_loops(n: int):
    program = gpuir.compile(VADD, provider="cpu")
    a = np.arange(n, dtype=np.float32)
    expected = float(np.sum((a + 2 * a).astype(np.float64)))
    assert program.main(n) == expected


def test_main_takes_and_returns_every_scalar_type():
    text = """
    func.func @main(%m: !mem.M<0>, %a: i8, %b: i1, %c: index, %x: f16, %y: f64, %z: i64)
        -> (!mem.M<0>, i8, i1, index, f16, f64, i64, f32) {
      %one = arith.constant 1 : i8
      %a2 = arith.addi %a, %one : i8
      %c2 = arith.muli %c, %c : index
      %x2 = arith.addf %x, %x : f16
      %y2 = arith.negf %y : f64
      %f = arith.truncf %y : f64 to f32
      func.return %m, %a2, %b, %c2, %x2, %y2, %z, %f : !mem.M<0>, i8, i1, index, f16, f64, i64, f32
    }
    """
    program = gpuir.compile(text, provider="cpu")
    values = program.main(127, 1, -3, 1.5, 2.25, -(2**63))
    assert values == (-128, 1, 9, 3.0, -2.25, -(2**63), 2.25)
    assert [np.asarray(v).dtype for v in values[4:]] == [np.float64, np.int64, np.float32]
    assert np.asarray(values[3]).dtype == np.float16


def fault_program(body: str, result: str = "%m9") -> str:
    return f"""
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %p: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {{
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {{
  %m0, %m1, %m4 = gpu.init %m
{body}
  func.return {result} : !mem.M<0>
}}
"""


FAULTS = {
    "copy-out-of-bounds": (
        """  %eight = arith.constant 8 : index
  %four = arith.constant 4 : index
  %h0, %host = mem.alloc %m0, %eight : !mem.ptr<!mem.array<? x i32>, 0>
  %d1, %dev = gpu.alloc.block %m1, %four : !mem.ptr<!mem.array<? x i32>, 1>
  %c0, %c1 = gpu.copy_to_device.block %h0, %d1, %host -> %dev
      : !mem.ptr<!mem.array<? x i32>, 0> -> !mem.ptr<!mem.array<? x i32>, 1>
  %m9 = gpu.deinit %c0, %c1, %m4""",
        14,
        "out of bounds: writes 32 bytes to byte offset 0 of a 16-byte global allocation",
    ),
    "double-free": (
        """  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %f1 = gpu.free.block %d1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %f2 = gpu.free.block %f1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %m9 = gpu.deinit %m0, %f2, %m4""",
        12,
        "use after free",
    ),
    "copy-after-free": (
        """  %h0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<4 x i32>, 0>
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %f1 = gpu.free.block %d1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %c0, %c1 = gpu.copy_to_host.block %h0, %f1, %dev -> %host
      : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 0>
  %m9 = gpu.deinit %c0, %c1, %m4""",
        13,
        "use after free: reads 16 bytes from a 16-byte global allocation",
    ),
    "copy-from-device-memory-as-host": (
        """  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %d2, %dev2 = gpu.alloc.block %d1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %cast = arith.constant 0 : index
  %c0, %c1 = gpu.copy_to_host.block %m0, %d2, %dev -> %dev2
      : !mem.ptr<!mem.array<4 x i32>, 1> -> !mem.ptr<!mem.array<4 x i32>, 1>
  %m9 = gpu.deinit %c0, %c1, %m4""",
        None,
        None,
    ),
    "out-of-memory": (
        """  %n = arith.constant 1099511627776 : index
  %d1, %dev = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %m9 = gpu.deinit %m0, %d1, %m4""",
        11,
        "out of memory",
    ),
    "launch-configuration": (
        """  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %s = gpu.default_stream
  %zero = arith.constant 0 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%zero, %zero) stream(%s) mems(%m0, %d1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %m9 = gpu.deinit %l0, %l1, %l4""",
        13,
        "invalid launch configuration of @k: 0 work-group(s) of 0 work-item(s)",
    ),
}


@pytest.mark.parametrize("name", list(FAULTS))
def test_runtime_faults_are_located_diagnostics(name, tmp_path, capsys):
    body, line, words = FAULTS[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(fault_program(body))
    compiled = run([str(path), "--provider", "cpu"], capsys)
    interpreted = run([str(path), "--provider", "cpu", "--interpret-host"], capsys)
    assert compiled == interpreted
    status, out, err = compiled
    if line is None:  # the verifier already rejects it: the same error either way
        assert status == 1 and "error" in err
        return
    assert status == 1 and out == ""
    assert err.startswith(f"{path}:{line}:"), err
    assert words in err
    assert "Traceback" not in err


def test_the_device_stays_usable_after_a_fault():
    body, _, _ = FAULTS["double-free"]
    with Device("cpu") as device:
        bad = gpuir.compile(fault_program(body), provider=device)
        with pytest.raises(ProviderError, match="use after free"):
            bad.main()
        good = gpuir.compile(VADD, provider=device)
        assert good.main(10) == 3.0 * 45
        assert device.live_allocations() == 0


def test_host_loads_from_device_memory_are_refused_when_compiling(tmp_path, capsys):
    path = tmp_path / "load.mlir"
    path.write_text(
        fault_program(
            """  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %d2, %v = mem.load %d1, %dev : !mem.ptr<i32, 1>
  %m9 = gpu.deinit %m0, %d2, %m4"""
        )
    )
    status, out, err = run([str(path), "--provider", "cpu"], capsys)
    assert status == 1
    assert f"{path}:11:3: error: host code loads from global memory" in err


def test_interpret_host_keeps_the_checked_interpreter(capsys, tmp_path):
    # The interpreter checks host loads; compiled code does not (README): a load past the end
    # of a host allocation is an error only with --interpret-host.
    path = tmp_path / "oob.mlir"
    path.write_text(
        """
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %h0, %host = mem.alloc %m : !mem.ptr<!mem.array<4 x i32>, 0>
  %i = arith.constant 6 : index
  %e = mem.lea %host, %i : !mem.ptr<!mem.array<4 x i32>, 0>
  %h1, %v = mem.load %h0, %e : !mem.ptr<i32, 0>
  %h2 = mem.free %h1, %host : !mem.ptr<!mem.array<4 x i32>, 0>
  func.return %h2, %v : !mem.M<0>, i32
}
"""
    )
    assert run([str(path), "--provider", "cpu"], capsys)[0] == 0
    status, out, err = run([str(path), "--provider", "cpu", "--interpret-host"], capsys)
    assert status == 1 and f"{path}:6:" in err and "out of bounds" in err
