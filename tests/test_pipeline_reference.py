"""`docs/pipelines.md` is what `scripts/pipeline_reference.py` makes from `ir/pipelines.py`
(every stage a registered pass); the lists the code runs are those lists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gpuir.ir import pipelines
from gpuir.lowering.cpu.cpu_llvm import CPU_TO_LLVM
from gpuir.lowering.host.host_to_llvm import HOST_TO_LLVM
from gpuir.lowering.nvptx.device_to_llvm import DEVICE_TO_LLVM
from gpuir.passes.gpu_pipeline import GPU_PIPELINE, GpuPipelinePass

ROOT = Path(__file__).resolve().parents[1]


def test_the_reference_is_up_to_date():
    script = ROOT / "scripts" / "pipeline_reference.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_runs_the_lists_of_ir_pipelines():
    assert GPU_PIPELINE is pipelines.GPU_PIPELINE
    assert DEVICE_TO_LLVM is pipelines.DEVICE_TO_LLVM
    assert HOST_TO_LLVM is pipelines.HOST_TO_LLVM
    assert CPU_TO_LLVM is pipelines.CPU_TO_LLVM
    stages = [type(stage).name for stage in GpuPipelinePass().stages()]
    assert stages == list(GPU_PIPELINE)
    cpu = [name for name, _ in pipelines.CPU_DEVICE_STAGES]
    assert cpu == [
        "cpu-workgroup-loops",
        *(s for s in DEVICE_TO_LLVM if s not in pipelines.CPU_SKIPS),
    ]
