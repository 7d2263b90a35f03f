"""The lowering registries: each key is its object's name, each lowering pass has its lit test
(`tests/lit/lowering/<pass-name>.mlir`), and gpu-opt knows them all."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuir.ir.pipelines import DEVICE_TO_LLVM
from gpuir.lowering import get_all_lowering_passes, get_all_targets
from gpuir.lowering.llvm.conversion import stage_passes
from gpuir.tools.gpu_opt import GpuOptMain

LIT = Path(__file__).parent / "lit" / "lowering"


@pytest.mark.parametrize("name", sorted(get_all_lowering_passes()))
def test_lowering_pass_key_is_its_name_and_it_has_a_lit_test(name: str):
    assert get_all_lowering_passes()[name]().name == name
    assert (LIT / f"{name}.mlir").is_file()


@pytest.mark.parametrize("name", ["llvm", "ptx", "host-llvm"])
def test_target_key_is_its_name(name: str):
    assert get_all_targets()[name]().name == name


def test_every_stage_of_device_to_llvm_exists():
    assert list(stage_passes()) == list(DEVICE_TO_LLVM)


def test_gpu_opt_registers_the_lowerings():
    tool = GpuOptMain(args=["-t", "ptx"])
    assert set(get_all_lowering_passes()) <= set(tool.available_passes)
    assert {"llvm", "ptx"} <= set(tool.available_targets)
