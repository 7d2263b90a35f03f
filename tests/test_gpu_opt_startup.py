"""gpu-opt's start-up and process settings (benchmarks/run_all.py measures the start-up against
xdsl-opt's): nothing is imported before the input asks for it, and the garbage collector's
thresholds that gpu-opt sets for a run are put back after it."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from gpuir.tools.gpu_opt import GC_THRESHOLDS, main

EMPTY = "builtin.module {\n}\n"


def test_llvm_extension_ops_are_imported_only_for_llvm_input(tmp_path: Path):
    empty, lowered = tmp_path / "empty.mlir", tmp_path / "lowered.mlir"
    empty.write_text(EMPTY)
    lowered.write_text(
        "llvm.func @f(%x: f32) {\n  %i = llvm.fptosi %x : f32 to i32\n  llvm.return\n}\n"
    )
    code = (
        "import sys; from gpuir.tools.gpu_opt import main; status = main([sys.argv[1]]); "
        "print(status, 'gpuir.lowering.llvm.llvm_ext' in sys.modules)"
    )
    for path, imported in ((empty, "False"), (lowered, "True")):
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == f"0 {imported}"


def test_main_puts_the_gc_thresholds_back(tmp_path: Path, capsys):
    program = tmp_path / "empty.mlir"
    program.write_text(EMPTY)
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    assert main([str(program)]) == 0
    assert main([str(tmp_path / "missing.mlir")]) == 1
    assert gc.get_threshold() == before
    capsys.readouterr()
