"""`-t mlir-upstream` round trips: every example and `tests/lit/run` program that uses only what
upstream MLIR has is exported, read back by gpu-run (which recognises upstream MLIR by its
content) and prints what the original prints, on interp and cpu; mlir-opt-22, where it is
installed, lowers the export with `--gpu-lower-to-nvvm-pipeline`. What MLIR cannot hold is a
located error, exit status 1, never a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent

ROUND_TRIPS: dict[str, tuple[str, ...]] = {
    "examples/array.mlir": (),
    "examples/compaction.mlir": ("1000",),
    "examples/global-sum.mlir": ("5000",),
    "examples/histogram.mlir": ("2000",),
    "examples/manual-streams.mlir": ("5",),
    "examples/manual-sync.mlir": ("9",),
    "examples/no-arguments.mlir": ("7",),
    "examples/simple.mlir": (),
    "examples/two-arguments.mlir": ("1",),
    "examples/two-configurations.mlir": (),
    "examples/warp-reduce.mlir": ("1000",),
    "tests/lit/run/cpu-barrier-early-return.mlir": (),
    "tests/lit/run/race-atomic.mlir": ("2",),
    "tests/lit/run/race-free.mlir": (),
    "tests/lit/run/token-order-reads.mlir": (),
}
"""The programs that export, with gpu-run's arguments."""

NOT_LOWERED = {"examples/global-sum.mlir"}
"""mlir-opt-22's pipeline cannot lower their `gpu.all_reduce` of an i64."""

REFUSED = {
    "examples/workgroup-collectives.mlir": "'gpu.workgroup_scan' cannot be exported",
    "examples/dynamic-shared-memory.mlir": "'gpu.launch' cannot be exported",
    "examples/scoped-sync.mlir": "'mem.alloc' cannot be exported",
    "examples/struct-params.mlir": "'func.func' cannot be exported",
    "examples/bias_relu.mlir": "'printf.print_format' cannot be exported",
    "tests/lit/run/warp-ops.mlir": "'gpu.ballot' cannot be exported",
    "tests/lit/run/atomics.mlir": "'mem.atomic_rmw' cannot be exported",
}


def tool(name: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    found = shutil.which(name, path=str(BIN)) or name
    return subprocess.run(
        [found, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def export(path: str) -> str:
    done = tool("gpu-opt", path, "-t", "mlir-upstream")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(ROUND_TRIPS))
def test_the_export_runs_as_the_original_on_interp_and_cpu(path: str, tmp_path: Path):
    exported = tmp_path / "exported.mlir"
    exported.write_text(export(path))
    assert "!mem." not in exported.read_text()
    args = ROUND_TRIPS[path]
    for provider in ("interp", "cpu"):
        original = tool("gpu-run", path, "--provider", provider, *args)
        back = tool("gpu-run", str(exported), "--provider", provider, *args)
        assert original.returncode == 0, original.stderr
        assert back.returncode == 0, back.stderr
        assert back.stdout == original.stdout, provider


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(set(ROUND_TRIPS) - NOT_LOWERED))
def test_mlir_opt_lowers_the_export(path: str):
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("needs mlir-opt-22 (mlir-22-tools)")
    pipeline = "cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa"
    exported = export(path)
    done = subprocess.run(
        ["mlir-opt-22", f"--gpu-lower-to-nvvm-pipeline={pipeline}"],
        input=exported,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert ("gpu.binary @device" in done.stdout) == ("gpu.module" in exported)
    assert "llvm.func @main(" in done.stdout


@pytest.mark.parametrize("path", sorted(REFUSED))
def test_what_mlir_cannot_hold_is_a_located_error(path: str):
    done = tool("gpu-opt", path, "-t", "mlir-upstream")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{path}:"), first
    assert REFUSED[path] in first
    assert "to upstream MLIR: " in first
