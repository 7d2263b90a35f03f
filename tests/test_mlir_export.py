"""`-t mlir-gpu` against MLIR 22: the device module it writes is compiled by
`mlir-opt-22 --gpu-module-to-binary=format=isa`, and that PTX needs, per kernel, the registers
that gpuir's own PTX (`-t ptx`) needs, as ptxas counts them. Skipped without mlir-opt-22
(Debian's mlir-22-tools) or ptxas (pip's nvidia-cuda-nvcc)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuir.lowering.nvptx.ptxas import find_ptxas, resource_usage

EXAMPLES = Path(__file__).parent.parent / "examples"
PROGRAMS = ["array", "histogram", "matmul", "warp-reduce", "compaction", "workgroup-collectives"]


def gpu_opt(*args: str) -> str:
    gpu_opt = shutil.which("gpu-opt", path=str(Path(sys.executable).parent)) or "gpu-opt"
    return subprocess.run([gpu_opt, *args], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("name", PROGRAMS)
def test_mlir_compiles_the_export_to_ptx_of_the_same_registers(name: str):
    mlir_opt, ptxas = shutil.which("mlir-opt-22"), find_ptxas()
    if mlir_opt is None or ptxas is None:
        pytest.skip("needs mlir-opt-22 (mlir-22-tools) and ptxas (nvidia-cuda-nvcc)")
    program = str(EXAMPLES / f"{name}.mlir")
    exported = gpu_opt(program, "-t", "mlir-gpu")
    binary = subprocess.run(
        [mlir_opt, "--gpu-module-to-binary=format=isa"],
        input=exported,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    match = re.search(r'assembly = "(.*?)"[>\]]', binary, re.S)
    assert match is not None, binary[:400]
    theirs = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), match.group(1))
    ours = resource_usage(gpu_opt(program, "-t", "ptx"))
    assert ours, "gpuir's PTX has no kernel"
    found = resource_usage(theirs)
    assert {k: v["registers"] for k, v in found.items()} == {
        k: v["registers"] for k, v in ours.items()
    }
