"""gpu-opt's start-up (benchmarks/run_all.py measures it against xdsl-opt's): nothing is
imported before the input asks for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EMPTY = "builtin.module {\n}\n"


def test_llvm_extension_ops_are_imported_only_for_llvm_input(tmp_path: Path):
    empty, lowered = tmp_path / "empty.mlir", tmp_path / "lowered.mlir"
    empty.write_text(EMPTY)
    lowered.write_text(
        "llvm.func @f(%x: f32) {\n  %i = llvm.fptosi %x : f32 to i32\n  llvm.return\n}\n"
    )
    code = (
        "import sys; from gpuir.tools.gpu_opt import main; status = main([sys.argv[1]]); "
        "print(status, 'gpuir.lowering.llvm_ext' in sys.modules)"
    )
    for path, imported in ((empty, "False"), (lowered, "True")):
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == f"0 {imported}"
