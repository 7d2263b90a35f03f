"""A researcher's own lit suite, outside gpuir's tree, configured by `gpuir.tools.lit_config`
(docs/lit-suites.md): written into a temporary folder and run by `lit` in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LIT_CFG = """\
from gpuir.tools.lit_config import configure

configure(config, name="my-suite")
"""

PRINT = """\
// RUN: gpu-opt %s | filecheck %s
func.func @twice(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  func.return %b : i32
}
// CHECK:      func.func @twice(%a: i32) -> i32 {
// CHECK-NEXT:   %b = arith.addi %a, %a : i32
"""

ROUNDTRIP = """\
// RUN: ROUNDTRIP
// RUN: GENERIC_ROUNDTRIP
func.func @f(%a: index) -> index {
  func.return %a : index
}
// CHECK: func.func @f(%a: index) -> index {
// CHECK-GENERIC: "func.func"() <{sym_name = "f", function_type = (index) -> index}>
"""

LLVM_FILECHECK = """\
// `FileCheck` is LLVM's when one is installed, else the Python filecheck.
// RUN: not gpu-opt %s 2>&1 | FileCheck %s
func.func @f(%a: i32) -> i32 {
  func.return %nope : i32
}
// CHECK: error: use of undeclared SSA value name %nope
"""

RUN = """\
// RUN: gpu-run %s --provider interp | filecheck %s
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %n = arith.constant 42 : i32
  func.return %m, %n : !mem.M<0>, i32
}
// CHECK: 42
"""


def lit(*args: str) -> subprocess.CompletedProcess[str]:
    """lit, run by the Python that runs the tests (the one gpuir is installed in)."""
    beside = Path(sys.executable).parent / "lit"
    command = [str(beside)] if beside.exists() else [shutil.which("lit") or "lit"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUIR_")}
    return subprocess.run(
        [*command, "-v", *args], capture_output=True, text=True, timeout=300, env=env
    )


def write_suite(root: Path, tests: dict[str, str]) -> Path:
    root.mkdir()
    (root / "lit.cfg").write_text(LIT_CFG)
    for name, text in tests.items():
        (root / name).write_text(text)
    return root


def test_an_out_of_tree_suite_passes(tmp_path: Path):
    suite = write_suite(
        tmp_path / "suite",
        {
            "print.mlir": PRINT,
            "roundtrip.mlir": ROUNDTRIP,
            "filecheck-command.mlir": LLVM_FILECHECK,
            "run.mlir": RUN,
            "notes.txt": "not a test: its suffix is not .mlir",
        },
    )
    done = lit(str(suite))
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("print", "roundtrip", "filecheck-command", "run"):
        assert f"PASS: my-suite :: {name}.mlir" in done.stdout
    assert "notes.txt" not in done.stdout


def test_a_broken_test_fails(tmp_path: Path):
    broken = PRINT.replace("arith.addi %a, %a", "arith.muli %a, %a", 1)  # the input, not CHECK
    suite = write_suite(tmp_path / "suite", {"print.mlir": PRINT, "broken.mlir": broken})
    done = lit(str(suite))
    assert done.returncode == 1
    assert "PASS: my-suite :: print.mlir" in done.stdout
    assert "FAIL: my-suite :: broken.mlir" in done.stdout
    assert 'broken.mlir:7: error: Couldn\'t match "%b = arith.addi %a, %a : i32"' in done.stdout


@pytest.mark.skipif(shutil.which("FileCheck-22") is None, reason="LLVM's FileCheck-22 absent")
def test_filecheck_is_llvms_when_installed(tmp_path: Path):
    which = "// REQUIRES: llvm-filecheck\n// RUN: echo FileCheck | filecheck %s\n"
    suite = write_suite(tmp_path / "suite", {"which.mlir": which + "// CHECK: FileCheck-22\n"})
    done = lit(str(suite))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS: my-suite :: which.mlir" in done.stdout  # not UNSUPPORTED


def test_filecheck_runs_in_the_tool_server(tmp_path: Path):
    """A RUN line's `filecheck` is the command that `use_tool_server` writes (the Python
    filecheck, run by the fork server), and it still fails a check that does not match."""
    which = (
        "// RUN: which filecheck | filecheck %s\n// CHECK: gpuir-lit-tools-{{.*}}/bin/filecheck\n"
    )
    mismatch = "// RUN: echo hello | not filecheck %s\n// CHECK: goodbye\n"
    suite = write_suite(tmp_path / "suite", {"which.mlir": which, "mismatch.mlir": mismatch})
    done = lit(str(suite))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS: my-suite :: which.mlir" in done.stdout
    assert "PASS: my-suite :: mismatch.mlir" in done.stdout
