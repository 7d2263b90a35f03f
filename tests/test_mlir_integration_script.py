"""`scripts/run_mlir_integration.py`'s reading of RUN lines: a compile-only RUN line's mlir-opt
pipeline as gpu-opt's target (`compile_plan`), or why it has none, and the upstream passes a
program's RUN line names (in a `-pass-pipeline` too)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "run_mlir_integration.py"
spec = importlib.util.spec_from_file_location("run_mlir_integration", SCRIPT)
assert spec is not None and spec.loader is not None
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        (
            "mlir-opt %s | mlir-opt -gpu-lower-to-nvvm-pipeline -debug-only=serialize-to-isa 2>&1"
            " | FileCheck %s",
            ["-t", "ptx"],
        ),
        (
            'mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-format=isa '
            'opt-level=2 cubin-features=+ptx85" | FileCheck %s',
            ["-t", "ptx{sm=90 opt=2 ptx=8.5}"],
        ),
        (
            "mlir-opt %s -gpu-lower-to-nvvm-pipeline -debug-only=dump-sass 2>&1 | FileCheck %s",
            ["-t", "sass"],
        ),
        (
            "mlir-opt %s -gpu-lower-to-nvvm-pipeline=\"cubin-chip=sm_80 ptxas-cmd-options='-v -O2'"
            ' allow-pattern-rollback=0" -debug-only=serialize-to-binary 2>&1 | FileCheck %s',
            ["-t", 'sass{sm=80 ptxas-options="-v -O2" print-commands=true}'],
        ),
    ],
)
def test_a_compile_only_pipeline_as_gpu_opts_target(command: str, arguments: list[str]):
    assert script.compile_plan(command) == arguments


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (
            "mlir-opt %s --gpu-module-to-binary=format=isa | FileCheck %s",
            "no gpu-opt equivalent of mlir-opt's --gpu-module-to-binary=format=isa",
        ),
        (
            "mlir-opt %s -gpu-lower-to-nvvm-pipeline | FileCheck %s",
            "no gpu-opt output for the gpu.binary of -gpu-lower-to-nvvm-pipeline (not "
            "cubin-format=isa)",
        ),
        (
            'mlir-opt %s -gpu-lower-to-nvvm-pipeline="host-bare-ptr-calling-convention=1 '
            'cubin-format=isa" | FileCheck %s',
            "no gpu-opt equivalent of -gpu-lower-to-nvvm-pipeline's "
            "host-bare-ptr-calling-convention",
        ),
        (
            "mlir-opt %s -gpu-lower-to-nvvm-pipeline -debug-only=dialect-conversion 2>&1",
            "no gpu-opt output for mlir-opt's -debug-only=dialect-conversion",
        ),
        (
            "mlir-opt %s | FileCheck %s",
            "no gpu-opt equivalent of a RUN line without one -gpu-lower-to-nvvm-pipeline",
        ),
    ],
)
def test_a_pipeline_without_an_equivalent_says_why(command: str, reason: str):
    assert script.compile_plan(command) == reason


def test_the_upstream_passes_of_a_program_are_found_in_a_pass_pipeline_too():
    text = (
        "// RUN: mlir-opt %s -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,"
        "convert-gpu-to-rocdl{index-bitwidth=32}),rocdl-attach-target{chip=gfx90a})' \\\n"
        "// RUN: | mlir-opt -convert-vector-to-gpu | mlir-runner 2>&1 | FileCheck %s -check-prefix=RUN\n"
    )
    plan = script.plan_of(text)
    assert plan.passes == ("rocdl-attach-target", "convert-vector-to-gpu")
    assert plan.prefixes == ("RUN",)
    assert plan.with_stderr and not plan.compile_only


def test_a_compile_only_file_keeps_its_filecheck_prefixes():
    text = "// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline | FileCheck %s --check-prefix=ISA\n"
    plan = script.plan_of(text)
    assert plan.compile_only and plan.prefixes == ("ISA",)
