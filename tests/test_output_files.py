"""Output files are never corrupted: `gpu-opt -o FILE` writes FILE atomically (a temporary
file in the same folder, then a rename), only when the whole run succeeds, so a failing run never
touches it, even when FILE is the input (`gpu-opt x.mlir -p bad -o x.mlir`). gpu-run writes no
file at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpuir.tools import gpu_opt, gpu_run

PROGRAM = """\
func.func @f(%m: !mem.M<3>, %n: index) -> !mem.M<3> {
  %a, %p = mem.malloc %m, %n : !mem.ptr<i32, 3>
  func.return %a : !mem.M<3>
}
"""
"""Verifies and prints; `check-addr-spaces` rejects it (a heap op in shared memory)."""

FAILING_RUNS = {
    "unknown pass": ["-p", "no-such-pass"],
    "bad pipeline syntax": ["-p", "canonicalize{"],
    "bad pass option": ["-p", "split-apply{no-such-option=1}"],
    "bad target option": ["-t", "ptx{sm=42}"],
    "unknown target": ["-t", "no-such-target"],
    "failing pass": ["-p", "check-addr-spaces"],
    "failing pipeline": ["-p", "gpu-pipeline"],
}


@pytest.mark.parametrize("args", FAILING_RUNS.values(), ids=FAILING_RUNS.keys())
def test_a_failing_run_leaves_its_input_intact(tmp_path: Path, args: list[str], capsys):
    path = tmp_path / "x.mlir"
    path.write_text(PROGRAM)
    before = os.stat(path)
    assert gpu_opt.main([str(path), *args, "-o", str(path)]) == 1
    assert "error" in capsys.readouterr().err
    assert path.read_text() == PROGRAM
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert os.listdir(tmp_path) == ["x.mlir"]  # no temporary file left behind


def test_a_failing_parse_leaves_its_input_intact(tmp_path: Path, capsys):
    path = tmp_path / "x.mlir"
    path.write_text(PROGRAM + "}\n")
    assert gpu_opt.main([str(path), "-o", str(path)]) == 1
    assert path.read_text() == PROGRAM + "}\n"
    assert os.listdir(tmp_path) == ["x.mlir"]


def test_a_successful_run_replaces_its_input(tmp_path: Path):
    path = tmp_path / "x.mlir"
    path.write_text(PROGRAM)
    inode = os.stat(path).st_ino
    assert gpu_opt.main([str(path), "--print-op-generic", "-o", str(path)]) == 0
    assert '"mem.malloc"' in path.read_text()
    assert os.stat(path).st_ino != inode  # a new file renamed over it, not rewritten in place
    assert os.listdir(tmp_path) == ["x.mlir"]


@pytest.mark.parametrize(
    "interruption", [OSError(28, "No space left on device"), KeyboardInterrupt]
)
def test_an_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interruption: BaseException, capsys
):
    """The write fails (a full disk) or is interrupted (^C) after the temporary file was
    written: the old file stays, the temporary file goes."""
    path = tmp_path / "x.mlir"
    path.write_text(PROGRAM)

    def fail(*_: object) -> None:
        raise interruption

    monkeypatch.setattr(gpu_opt.os, "replace", fail)
    status = gpu_opt.main([str(path), "--print-op-generic", "-o", str(path)])
    assert status == (130 if interruption is KeyboardInterrupt else 1)
    assert path.read_text() == PROGRAM
    assert os.listdir(tmp_path) == ["x.mlir"]
    if status == 1:
        assert "gpu-opt: error: cannot write" in capsys.readouterr().err


def test_a_read_only_folder_is_a_diagnostic(tmp_path: Path, capsys):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    path = tmp_path / "x.mlir"
    path.write_text(PROGRAM)
    tmp_path.chmod(0o555)
    try:
        assert gpu_opt.main([str(path), "-o", str(path)]) == 1
    finally:
        tmp_path.chmod(0o755)
    assert "gpu-opt: error: cannot write" in capsys.readouterr().err
    assert path.read_text() == PROGRAM


RUN_PROGRAM = """\
func.func @main(%m: !mem.M<0>, %x: i32) -> (!mem.M<0>, i32) {
  func.return %m, %x : !mem.M<0>, i32
}
"""


@pytest.mark.parametrize("program", [RUN_PROGRAM, PROGRAM], ids=["succeeds", "fails"])
def test_gpu_run_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, program: str):
    """Neither next to its input, nor in the working folder, nor in TMPDIR."""
    path = tmp_path / "x.mlir"
    path.write_text(program)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    gpu_run.main([str(path), "--provider", "interp", "7"])
    assert sorted(os.listdir(tmp_path)) == ["tmp", "x.mlir"]
    assert os.listdir(temporary) == []
    assert path.read_text() == program
