"""Native executables (runtime/native, tools/warm.py, docs/native.md): a program's third clean
run on the cpu provider is its executable's, with the cold run's output, diagnostics and exit
status; a damaged entry is rebuilt; `--emit-executable` writes one that runs without Python;
floats and integers print as gpu-run prints them (checked against numpy)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_compiled_host import lit_arguments

from gpuir.runtime.native import key as native_key
from gpuir.runtime.native.build import compiler, runtime_object
from gpuir.tools.launch import SERVER_ENV
from gpuir.tools.lit_config import served_commands

ROOT = Path(__file__).resolve().parents[1]
GPU_RUN = Path(sys.executable).parent / "gpu-run"
FALLBACK = 75

pytestmark = pytest.mark.skipif(
    compiler() is None or shutil.which("objcopy") is None or not GPU_RUN.exists(),
    reason="needs a C compiler, objcopy and the gpu-run console script",
)

PROGRAMS = [
    (ROOT / "benchmarks" / "programs" / "vadd.mlir", ["1000"]),
    (ROOT / "examples" / "manual-streams.mlir", ["7"]),
    (ROOT / "examples" / "scoped-streams.mlir", ["7"]),
    (ROOT / "examples" / "histogram.mlir", ["1000"]),
    (ROOT / "examples" / "compaction.mlir", ["1000"]),
    (ROOT / "examples" / "warp-reduce.mlir", ["1000"]),
    (ROOT / "examples" / "global-sum.mlir", ["1000"]),
    (ROOT / "examples" / "two-arguments.mlir", ["3"]),
    (
        ROOT / "tests" / "lit" / "run" / "arguments.mlir",
        ["127", "-1", "16", "16777216", "1", "0.1", "0.2", "0.5"],
    ),
    (ROOT / "examples" / "no-arguments.mlir", ["5"]),
    (ROOT / "examples" / "scoped-sync.mlir", ["5"]),
    (ROOT / "examples" / "kernel-printf.mlir", []),
]

FLOATS = """
func.func @main(%m: !mem.M<0>, %bits: i32, %wide: i64, %small: i16)
    -> (!mem.M<0>, f32, f64, f16, i1, i8, i16, index) {
  %f = arith.bitcast %bits : i32 to f32
  %d = arith.bitcast %wide : i64 to f64
  %h = arith.bitcast %small : i16 to f16
  %b = arith.trunci %bits : i32 to i1
  %c = arith.trunci %bits : i32 to i8
  %i = arith.index_cast %wide : i64 to index
  return %m, %f, %d, %h, %b, %c, %small, %i : !mem.M<0>, f32, f64, f16, i1, i8, i16, index
}
"""

COPY = """
func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %h0, %host = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %four = arith.constant 4 : index
  %d1, %dev = gpu.alloc.block %m1, %four : !mem.ptr<!mem.array<? x i32>, 1>
  %c0, %c1 = gpu.copy_to_device.block %h0, %d1, %host -> %dev : !mem.ptr<!mem.array<? x i32>, 0> -> !mem.ptr<!mem.array<? x i32>, 1>
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<? x i32>, 1>
  %q = mem.free %c0, %host : !mem.ptr<!mem.array<? x i32>, 0>
  %done = gpu.deinit %q, %f1, %m4
  %r = arith.constant 7 : i32
  func.return %done, %r : !mem.M<0>, i32
}
"""


@pytest.fixture(scope="module")
def runtime(tmp_path_factory) -> Path:
    """The C runtime's object, compiled once for this file (its own test is
    `test_the_c_runtime_compiles_without_a_warning`)."""
    folder = tmp_path_factory.mktemp("runtime")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GPUIR_CACHE_DIR", str(folder))
        return runtime_object(compiler())  # type: ignore[arg-type]


@pytest.fixture
def cache(tmp_path, runtime) -> Path:
    """An empty disk cache but for the C runtime's object, which each test's first build
    would compile again (half a second): the executables are these tests' subject."""
    folder = tmp_path / "cache"
    folder.mkdir()
    shutil.copy(runtime, folder / runtime.name)
    return folder


def environment(cache: Path, **extra: str) -> dict[str, str]:
    """The suite's environment without gpuir's knobs, but with the session's tool server
    (`SERVER_ENV`): the launcher tries the native executable before it calls the server, so a
    served call takes the same way as a plain process, less the imports of a cold run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUIR_") or k == SERVER_ENV}
    return {**env, "GPUIR_CACHE_DIR": str(cache), **extra}


def gpu_run(cache: Path, *args: str, **extra: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [str(GPU_RUN), *args, "--provider", "cpu"],
        capture_output=True,
        text=True,
        env=environment(cache, **extra),
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def executables(cache: Path) -> list[Path]:
    return sorted(p for p in cache.glob("native-*") if p.suffix == "" and "runtime" not in p.name)


def the_executable(cache: Path) -> Path:
    found = executables(cache)
    assert len(found) == 1, found
    return found[0]


def run_exe(exe: Path, *args: str, warm: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUIR_")}
    if warm:
        env["GPUIR_NATIVE_WARM"] = "1"
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("path,args", PROGRAMS, ids=lambda p: getattr(p, "stem", ""))
def test_the_third_run_is_native_and_prints_what_the_first_did(path, args, cache):
    first = gpu_run(cache, str(path), *args)
    assert first[0] == 0, first[2]
    assert executables(cache) == []  # the first run compiles; no executable yet
    assert gpu_run(cache, str(path), *args) == first
    exe = the_executable(cache)  # the second, from the compile cache, keeps one
    native = run_exe(exe, *args)
    assert (native.returncode, native.stdout, native.stderr) == first
    assert gpu_run(cache, str(path), *args) == first  # the third runs it
    assert executables(cache) == [exe]


VADD = ROOT / "benchmarks" / "programs" / "vadd.mlir"


def keep_a_stand_in(cache: Path) -> None:
    """Run vadd twice, so that it keeps its executable, and put in its place (with a record
    that vouches for it) a stand-in that prints its arguments (gpu-run would print 3000)."""
    for _ in range(2):
        gpu_run(cache, str(VADD), "1000")
    exe = the_executable(cache)
    exe.write_text('#!/bin/sh\necho "native $GPUIR_NATIVE_WARM $*"\n')
    record = Path(str(exe) + ".json")
    record.write_text(json.dumps({"sha256": hashlib.sha256(exe.read_bytes()).hexdigest()}))


def test_the_warm_path_runs_the_kept_executable(cache, tmp_path):
    """The launcher runs what the record vouches for, with @main's arguments."""
    keep_a_stand_in(cache)
    assert gpu_run(cache, str(VADD), "1000") == (0, "native 1 1000\n", "")
    # flags that the warm path does not take go the usual way
    code, out, _ = gpu_run(cache, str(VADD), "1000", "--time")
    assert (code, out) == (0, "1498500.0\n")


@pytest.mark.skipif(SERVER_ENV not in os.environ, reason="needs the session's tool server")
def test_the_server_takes_the_warm_path_for_lits_c_client(cache, tmp_path):
    """lit's C client (`tools/tool_client.c`) sends every call to the server, which tries the
    warm path first, as the Python launcher does before it sends one."""
    folder = tmp_path / "bin"
    folder.mkdir()
    if "gpu-run" not in served_commands(str(folder)):
        pytest.skip("no C compiler to build the tool client with")
    keep_a_stand_in(cache)
    done = subprocess.run(
        [str(folder / "gpu-run"), str(VADD), "1000", "--provider", "cpu"],
        capture_output=True,
        text=True,
        env=environment(cache),
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "native 1 1000\n", "")


@pytest.mark.skipif(SERVER_ENV not in os.environ, reason="needs the session's tool server")
def test_an_executable_kept_by_a_served_run_is_found_by_a_plain_one(cache):
    """The key of a program's executable does not depend on how the Python that computes it
    was started (a console script, or a tool server's `-m`): a served cold run keeps it where a
    plain launcher looks (a stand-in proves that it ran)."""
    program = ROOT / "benchmarks" / "programs" / "vadd.mlir"
    for _ in range(2):
        gpu_run(cache, str(program), "1000")  # served: cold, then from the compile cache
    exe = the_executable(cache)
    exe.write_text('#!/bin/sh\necho "native $*"\n')
    record = Path(str(exe) + ".json")
    record.write_text(json.dumps({"sha256": hashlib.sha256(exe.read_bytes()).hexdigest()}))
    plain = {k: v for k, v in environment(cache).items() if k != SERVER_ENV}
    done = subprocess.run(
        [str(GPU_RUN), str(program), "1000", "--provider", "cpu"],
        capture_output=True,
        text=True,
        env=plain,
        timeout=300,
    )
    assert (done.returncode, done.stdout) == (0, "native 1000\n")


def test_a_damaged_executable_is_rebuilt(cache):
    program = ROOT / "benchmarks" / "programs" / "vadd.mlir"
    first = gpu_run(cache, str(program), "1000")
    gpu_run(cache, str(program), "1000")
    exe = the_executable(cache)
    good = exe.read_bytes()
    exe.write_bytes(good[: len(good) // 2])  # cut short: its digest no longer matches
    # the launcher removes it and takes the usual way, which keeps a new one
    assert gpu_run(cache, str(program), "1000") == first
    assert exe.read_bytes() == good
    assert gpu_run(cache, str(program), "1000") == first
    record = json.loads(Path(str(exe) + ".json").read_text())
    assert record["sha256"] == hashlib.sha256(exe.read_bytes()).hexdigest()


def test_errors_and_unusual_arguments_fall_back_to_the_cold_run(cache, tmp_path):
    program = tmp_path / "copy.mlir"
    program.write_text(COPY)
    for _ in range(2):
        assert gpu_run(cache, str(program), "4") == (0, "7\n", "")
    exe = the_executable(cache)
    # a hex argument reads as gpu-run reads it
    assert run_exe(exe, "0x4").stdout == "7\n"
    # 8 host elements into 4 device ones: out of bounds; 4_0: Python's digit grouping, which
    # the executable leaves to gpu-run; -1: a negative size
    for args in (["8"], ["4_0"], ["-1"]):
        cold = gpu_run(cache, str(program), *args, GPUIR_NATIVE="0")
        native = run_exe(exe, *args)
        assert (native.returncode, native.stdout, native.stderr) == (FALLBACK, "", "")
        assert gpu_run(cache, str(program), *args) == cold
    assert gpu_run(cache, str(program), "8", GPUIR_NATIVE="0")[0] == 1
    assert "out of bounds" in gpu_run(cache, str(program), "8")[2]


def test_scalars_print_as_numpy_prints_them(cache, tmp_path):
    """Results of every width from bit patterns (random, and the edges: zeros, subnormals,
    the cutoffs between positional and scientific text, infinities, NaN), read back against
    numpy's text, an independent formatter."""
    program = tmp_path / "floats.mlir"
    program.write_text(FLOATS)
    exe = tmp_path / "floats"
    code, _, err = gpu_run(cache, str(program), "0", "0", "0", "--emit-executable", str(exe))
    assert code == 0, err
    rng = random.Random(7)
    singles = [0, 1, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x007FFFFF]
    singles += [np.float32(v).view(np.uint32).item() for v in (1e-4, 1e6, 999999.9, 0.1, 1e7)]
    doubles = [0, 0x8000000000000000, 0x7FF0000000000000, 0x0000000000000001]
    doubles += [np.float64(v).view(np.uint64).item() for v in (1e16, 9.999e15, 1e-4, 0.1)]
    halves = [0, 0x8000, 0x7C00, 0xFC00, 0x0001, 0x03FF, 0x7BFF, 0x6400, 0x63FF]
    for _ in range(60):
        singles.append(rng.getrandbits(32))
        doubles.append(rng.getrandbits(64))
        halves.append(rng.getrandbits(16))
    for s, d, h in zip(singles, doubles, halves, strict=False):
        s32 = np.uint32(s).view(np.int32).item()
        d64 = np.uint64(d).view(np.int64).item()
        h16 = np.uint16(h).view(np.int16).item()
        done = run_exe(exe, str(s32), str(d64), str(h16), warm=False)
        expected = [
            str(np.uint32(s).view(np.float32)),
            str(np.uint64(d).view(np.float64)),
            str(np.uint16(h).view(np.float16)),
            str(s & 1),
            str(np.int8(np.uint8(s & 0xFF).view(np.int8))),
            str(h16),
            str(d64),
        ]
        assert done.stdout.splitlines() == expected, (s, d, h)


DOUBLE_FREE = """
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>) {
  %m0, %m1, %m4 = gpu.init %m
  %d1, %da = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %g1 = gpu.free.block %d1, %da : !mem.ptr<i32, 1>
  %g2 = gpu.free.block %g1, %da : !mem.ptr<i32, 1>
  %done = gpu.deinit %m0, %g2, %m4
  func.return %done : !mem.M<0>
}
"""


@pytest.mark.parametrize(
    "text,args",
    [
        (COPY, ["8"]),
        (COPY, ["4"]),
        (DOUBLE_FREE, []),
        (COPY, ["1", "2"]),
        (COPY, ["x"]),
        (COPY, ["0x8000000000000000"]),
    ],
    ids=["out-of-bounds", "clean", "double-free", "argument-count", "not-a-number", "too-wide"],
)
def test_an_emitted_executable_runs_alone_as_gpu_run_does(text, args, cache, tmp_path):
    """Without Python: the same output, exit status and diagnostic, byte for byte (the error
    at the op with its source line, the op, the note; an argument's at @main)."""
    program = tmp_path / "program.mlir"
    program.write_text(text)
    exe = tmp_path / "program"
    assert gpu_run(cache, str(program), "--emit-executable", str(exe))[0] == 0
    assert exe.read_bytes().startswith(b"\x7fELF")
    done = run_exe(exe, *args, warm=False)
    code, out, err = gpu_run(cache, str(program), *args, GPUIR_NATIVE="0")
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)


def test_programs_that_cannot_be_native_say_why(cache, tmp_path):
    program = ROOT / "examples" / "struct-params.mlir"
    code, _, err = gpu_run(cache, str(program), "--emit-executable", str(tmp_path / "x"))
    assert (code, err) == (
        1,
        f"gpu-run: error: cannot make a native executable of {program}: @affine takes a struct\n",
    )
    assert not (tmp_path / "x").exists()
    # and gpu-run keeps none for them: every run is the usual one
    for _ in range(3):
        assert gpu_run(cache, str(program))[0] == 0
    assert executables(cache) == []


def test_the_key_follows_the_program_and_its_options(monkeypatch):
    one = native_key.key(b"a", {"provider": "cpu", "index_bitwidth": ""})
    assert one == native_key.key(b"a", {"provider": "cpu", "index_bitwidth": ""})
    assert one != native_key.key(b"b", {"provider": "cpu", "index_bitwidth": ""})
    assert one != native_key.key(b"a", {"provider": "cpu", "index_bitwidth": "32"})
    monkeypatch.setenv("GPUIR_NATIVE", "0")
    assert not native_key.enabled()


def test_the_c_runtime_compiles_without_a_warning(tmp_path):
    cc = compiler()
    source = ROOT / "runtime" / "native" / "gpuir_cpu.c"
    done = subprocess.run(
        [cc, "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-c", str(source), "-o", "/dev/null"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "name,args",
    [
        ("cpu-illegal-address", None),
        ("barrier-divergence", None),
        ("barrier-divergence-branches", None),
        ("barrier-divergence-loop", None),
        ("cpu-barrier-divergence", None),
        ("warp-divergence", ["1"]),
        ("warp-divergence", ["2"]),
    ],
)
def test_an_emitted_executable_reports_kernel_errors_as_gpu_run_does(name, args, cache, tmp_path):
    """A kernel's fault (the allocation next to the address, the work-group) and a barrier or
    warp divergence (the work-items, their barriers, the note at the other one): the same
    diagnostic at the same op; only a fault's address differs (each run maps its own pages)."""
    program = ROOT / "tests" / "lit" / "run" / f"{name}.mlir"
    args = lit_arguments(program) if args is None else args
    exe = tmp_path / name
    assert gpu_run(cache, str(program), "--emit-executable", str(exe))[0] == 0
    done = run_exe(exe, *args, warm=False)
    code, out, err = gpu_run(cache, str(program), *args, GPUIR_NATIVE="0")
    assert code == 1 and ("an illegal memory access" in err or "divergence" in err)
    address = re.compile(r"0x[0-9a-f]+")
    assert (done.returncode, done.stdout) == (code, out)
    assert address.sub("ADDRESS", done.stderr) == address.sub("ADDRESS", err)
