"""The PTX back end's API: `PtxOptions` validation, `compile_ptx`, and the ptxas step
(`gpuir.lowering.nvptx.ptxas`): its error carries ptxas's log and a command that repeats the
failure; `resource_usage` reports ptxas -v's figures per kernel."""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess

import pytest
from kernels import SAXPY_UNGUARDED
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.lowering.nvptx import ptxas
from gpuir.lowering.nvptx.ptx import PtxOptions, compile_ptx
from gpuir.lowering.targets import lowered_device_module

needs_ptxas = pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas is not installed")


def device(source: str) -> ModuleOp:
    ctx = make_context()
    return lowered_device_module(ctx, Parser(ctx, source).parse_module())


# PtxOptions ------------------------------------------------------------------------------------


def test_defaults_load_on_current_drivers():
    options = PtxOptions()
    assert (options.sm, options.ptx, options.opt, options.fast_math) == (80, 8.0, 3, False)
    assert options.arch == "sm_80"
    assert options.features == "+ptx80"
    assert PtxOptions(sm=90, ptx=8.5).features == "+ptx85"


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PtxOptions().sm = 90  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sm": 42}, "sm_42 is not a known NVIDIA architecture; known: 50, 52"),
        ({"sm": "80"}, "sm must be an integer such as 80 or 90, found '80'"),
        ({"sm": True}, "sm must be an integer"),
        ({"sm": 90, "ptx": 7.0}, "sm_90 needs PTX ISA 7.8 or later, found 7.0"),
        ({"ptx": 9.5}, "PTX ISA version 9.5 is not one LLVM can emit; known: 4.0"),
        ({"ptx": 8.05}, "PTX ISA version 8.05 is not one LLVM can emit"),
        ({"ptx": "8.0"}, "ptx must be a version number such as 8.0, found '8.0'"),
        ({"opt": 4}, "opt must be 0, 1, 2 or 3, found 4"),
        ({"fast_math": "yes"}, "fast_math must be true or false, found 'yes'"),
    ],
)
def test_bad_options_are_rejected_on_construction(kwargs: dict[str, object], message: str):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        PtxOptions(**kwargs)  # type: ignore[arg-type]


def test_compile_ptx_emits_an_entry_per_kernel():
    ptx = compile_ptx(device(SAXPY_UNGUARDED), PtxOptions(sm=90))
    assert ".version 8.0" in ptx and ".target sm_90" in ptx
    assert ".visible .entry saxpy(" in ptx
    assert "ld.global" in ptx and "st.global" in ptx


def test_no_contraction_unless_fast_math():
    """a * x + y stays a rounded multiply and a rounded add (as the CPU computes it), unless
    fast math allows the fused multiply-add."""
    precise = compile_ptx(device(SAXPY_UNGUARDED), PtxOptions())
    assert "mul.rn.f32" in precise and "add.rn.f32" in precise and "fma" not in precise
    assert "fma.rn.f32" in compile_ptx(device(SAXPY_UNGUARDED), PtxOptions(fast_math=True))


def test_fast_math_changes_the_code():
    divide = SAXPY_UNGUARDED.replace("arith.mulf %a, %vx", "arith.divf %vx, %a")
    precise = compile_ptx(device(divide), PtxOptions())
    fast = compile_ptx(device(divide), PtxOptions(fast_math=True))
    assert "div.rn.f32" in precise
    assert "div.rn.f32" not in fast and "div.approx" in fast


# ptxas ----------------------------------------------------------------------------------------


def test_resource_usage_parses_ptxas_v():
    log = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_80'
ptxas info    : Function properties for k
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 42 registers, used 1 barriers, 256 bytes smem, 360 bytes cmem[0]
ptxas info    : Compiling entry function 'other' for 'sm_80'
ptxas info    : Function properties for other
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, 368 bytes cmem[0]
"""
    assert ptxas.parse_resource_usage(log) == {
        "k": {
            "registers": 42,
            "spill_stores": 8,
            "spill_loads": 4,
            "stack": 16,
            "shared": 256,
            "barriers": 1,
        },
        "other": {
            "registers": 8,
            "spill_stores": 0,
            "spill_loads": 0,
            "stack": 0,
            "shared": 0,
            "barriers": 0,
        },
    }


def test_missing_ptxas_is_a_clear_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(ptxas, "find_ptxas", lambda: None)
    with pytest.raises(ptxas.PtxasNotFound, match="ptxas not found"):
        ptxas.assemble(".version 8.0\n.target sm_80\n.address_size 64\n")


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_assemble_gives_a_cubin(sm: int):
    cubin = ptxas.assemble(compile_ptx(device(SAXPY_UNGUARDED), PtxOptions(sm=sm)), sm)
    assert cubin[:4] == b"\x7fELF"


@needs_ptxas
def test_broken_ptx_error_carries_the_log_and_a_repro_command():
    ptx = compile_ptx(device(SAXPY_UNGUARDED)).replace("ld.global.b32", "ld.global.bogus32", 1)
    with pytest.raises(ptxas.PtxasError) as caught:
        ptxas.assemble(ptx, 80)
    error = caught.value
    assert error.returncode != 0
    assert "bogus32" in error.log or "syntax error" in error.log
    assert error.log.rstrip() in str(error)
    assert f"repro: {error.command}" in str(error)
    command = shlex.split(error.command)
    assert command[1:3] == ["-arch", "sm_80"]
    kept = command[-1]
    assert kept.endswith(".ptx") and os.path.isfile(kept)
    with open(kept) as f:
        assert f.read() == ptx
    rerun = subprocess.run(command, capture_output=True, text=True)
    assert rerun.returncode == error.returncode
    assert rerun.stdout + rerun.stderr == error.log


@needs_ptxas
def test_resource_usage_per_kernel():
    usage = ptxas.resource_usage(compile_ptx(device(SAXPY_UNGUARDED), PtxOptions(sm=90)), 90)
    assert set(usage) == {"saxpy"}
    figures = usage["saxpy"]
    assert 0 < figures["registers"] < 32
    assert figures["spill_stores"] == figures["spill_loads"] == 0


# the sass target (ptxas, then nvdisasm) -------------------------------------------------------

WRITE_IDS = """\
gpu.module @m {
  gpu.func @ids(%out: memref<64xi32>) kernel {
    %i = gpu.thread_id x
    %v = arith.index_cast %i : index to i32
    memref.store %v, %out[%i] : memref<64xi32>
    gpu.return
  }
}
"""
"""A library of one kernel (no @main), in upstream syntax: it stores each thread's id."""


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ptxas_options": 3}, "ptxas-options must be a string, found 3"),
        ({"ptxas_options": "-arch=sm_90"}, "ptxas-options cannot hold -arch=sm_90"),
        ({"ptxas_options": "-o out.cubin"}, "ptxas-options cannot hold -o"),
        ({"ptxas_options": "'-v"}, "ptxas-options: No closing quotation"),
        ({"print_commands": "yes"}, "print-commands must be true or false, found 'yes'"),
        ({"sm": 42}, "sm_42 is not a known NVIDIA architecture"),
    ],
)
def test_sass_target_rejects_bad_options(kwargs: dict[str, object], message: str):
    from gpuir.lowering.targets import SassTarget

    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        SassTarget(**kwargs)  # type: ignore[arg-type]


def test_missing_nvdisasm_is_a_diagnostic(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    from gpuir.tools.gpu_opt import main

    if ptxas.find_ptxas() is None:
        pytest.skip("ptxas is not installed")
    found = ptxas.find_tool
    monkeypatch.setattr(ptxas, "find_tool", lambda n: None if n == "nvdisasm" else found(n))
    source = tmp_path / "ids.mlir"
    source.write_text(WRITE_IDS)
    assert main([str(source), "-t", "sass"]) == 1
    err = capsys.readouterr().err
    assert "nvdisasm not found: install nvidia-cuda-nvdisasm or put nvdisasm on PATH" in err
    assert "Traceback" not in err


@needs_ptxas
def test_sass_of_a_kernel_and_the_commands_it_ran(tmp_path, capsys: pytest.CaptureFixture[str]):
    from gpuir.tools.gpu_opt import main

    if ptxas.find_tool("nvdisasm") is None:
        pytest.skip("nvdisasm is not installed")
    source = tmp_path / "ids.mlir"
    source.write_text(WRITE_IDS)
    target = 'sass{sm=90 ptxas-options="-v --maxrregcount=24" print-commands=true}'
    assert main([str(source), "-t", target]) == 0
    captured = capsys.readouterr()
    assert ".target\tsm_90" in captured.out
    assert "S2R R" in captured.out and "SR_TID.X" in captured.out and "STG.E" in captured.out
    ptxas_line, *_ = [line for line in captured.err.splitlines() if "-arch sm_90" in line]
    words = shlex.split(ptxas_line)
    assert os.path.basename(words[0]) == "ptxas"
    assert words[1:5] == ["-arch", "sm_90", "-v", "--maxrregcount=24"]
    assert "Compiling entry function 'ids' for 'sm_90'" in captured.err  # ptxas -v's log
    nvdisasm_line = captured.err.splitlines()[-1]  # after ptxas's log
    assert os.path.basename(shlex.split(nvdisasm_line)[0]) == "nvdisasm"
    assert shlex.split(nvdisasm_line)[1] == "-c"
