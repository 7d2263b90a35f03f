"""`scripts/run_mlir_integration.py`'s reading of RUN lines: a compile-only RUN line's mlir-opt
pipeline as gpu-opt's target (`compile_plan`), or why it has none, and the upstream passes a
program's RUN line names (in a `-pass-pipeline` too); its `--expect` check; and
`scripts/fetch_mlir_integration.py`'s copy of MLIR's files, from a stand-in for LLVM's tree."""

from __future__ import annotations

import hashlib
import importlib.util
import json
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


FETCH = Path(__file__).resolve().parents[1] / "scripts" / "fetch_mlir_integration.py"
fetch_spec = importlib.util.spec_from_file_location("fetch_mlir_integration", FETCH)
assert fetch_spec is not None and fetch_spec.loader is not None
fetcher = importlib.util.module_from_spec(fetch_spec)
fetch_spec.loader.exec_module(fetcher)


def mirror(folder: Path) -> Path:
    """A stand-in for LLVM's tree: each file the fetcher asks for, with its own name as text."""
    for name in fetcher.FILES:
        path = folder / fetcher.PREFIX / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"// {name}\n")
    return folder


def test_the_fetch_keeps_llvms_paths_and_each_files_checksum(tmp_path):
    source, into = mirror(tmp_path / "llvm"), tmp_path / "corpus"
    assert len(fetcher.FILES) == 44 and fetcher.PINNED.startswith("llvmorg-22.")
    assert fetcher.fetch(str(source), into) == []
    shuffle = into / "mlir/test/Integration/GPU/CUDA/shuffle.mlir"
    assert shuffle.read_text() == "// CUDA/shuffle.mlir\n"
    manifest = json.loads((into / "MANIFEST.json").read_text())
    assert manifest["tag"] == fetcher.PINNED and manifest["source"] == str(source)
    digest = hashlib.sha256(b"// CUDA/shuffle.mlir\n").hexdigest()
    assert manifest["files"]["mlir/test/Integration/GPU/CUDA/shuffle.mlir"] == digest


def test_a_second_fetch_reads_only_what_is_missing_or_damaged(tmp_path):
    source, into = mirror(tmp_path / "llvm"), tmp_path / "corpus"
    fetcher.fetch(str(source), into)
    shuffle = into / "mlir/test/Integration/GPU/CUDA/shuffle.mlir"
    shuffle.write_text("damaged")
    (into / "mlir/test/Integration/GPU/ROCM/vecadd.mlir").unlink()
    gone = tmp_path / "llvm-without-one"
    mirror(gone)
    (gone / fetcher.PREFIX / "CUDA/printf.mlir").unlink()  # vouched for: not read again
    assert fetcher.fetch(str(gone), into) == []
    assert shuffle.read_text() == "// CUDA/shuffle.mlir\n"
    assert (into / "mlir/test/Integration/GPU/ROCM/vecadd.mlir").is_file()


def test_a_file_the_source_lacks_is_named_and_nothing_half_written(tmp_path):
    source, into = mirror(tmp_path / "llvm"), tmp_path / "corpus"
    (source / fetcher.PREFIX / "CUDA/async.mlir").unlink()
    failed = fetcher.fetch(str(source), into)
    assert len(failed) == 1 and failed[0].startswith("mlir/test/Integration/GPU/CUDA/async.mlir: ")
    assert not (into / fetcher.PREFIX / "CUDA/async.mlir").exists()
    assert not [p for p in into.rglob("*") if ".mlir." in p.name]  # no partial files left


def test_expected_statuses_name_each_difference():
    statuses = {"a.mlir": "interp=pass cpu=pass", "b.mlir (compile-only)": "gpu-opt=FAIL"}
    expected = "# comment\na.mlir: interp=pass cpu=pass\nb.mlir (compile-only): gpu-opt=pass\n"
    assert script.unexpected(statuses, expected) == [
        "b.mlir (compile-only): gpu-opt=FAIL, expected gpu-opt=pass"
    ]
    assert script.unexpected(statuses, "c.mlir: interp=pass cpu=pass") == ["c.mlir: not found"]
