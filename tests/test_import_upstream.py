"""Upstream MLIR GPU programs imported into gpuir's dialects (`gpuir.ir.upstream`):
an imported program prints what the same program written in gpuir's dialects prints, on interp
and cpu; the API reads upstream text by itself; what it cannot import is a `CompileError` at
the op; upstream input is told apart from gpuir's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_print_memref import ADDRESS
from test_print_memref import gpu_run as print_memref_run

import gpuir
from gpuir.api import CompileError
from gpuir.ir.upstream import is_upstream

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = (ROOT / "tests" / "lit" / "upstream" / "launch-region.mlir").read_text()

# The program of launch-region.mlir as one would write it in gpuir's dialects: a kernel over
# 2 groups of 6 items that triples data[group][item] after a barrier, host memory filled with
# 10 i + j, copied to the device and back, and printed as printMemrefI32 prints it.
OURS = """
func.func @triple(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index,
                  %data: !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>, %three: i32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %row = mem.lea %data, %group : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>
  %at = mem.lea %row, %item : !mem.ptr<!mem.array<6 x i32>, 1>
  %a1, %v = mem.load %m1, %at : !mem.ptr<i32, 1>
  %b1, %b3 = gpu.sync_work_items %a1, %m3
  %w = arith.muli %v, %three : i32
  %c1 = mem.store %b1, %at, %w : !mem.ptr<i32, 1>
  func.return %c1, %b3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %two = arith.constant 2 : index
  %six = arith.constant 6 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h0, %host = mem.alloc %m0, %two : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0>
  %f0 = scf.for %i = %c0 to %two step %c1 iter_args(%t0 = %h0) -> (!mem.M<0>) {
    %g0 = scf.for %j = %c0 to %six step %c1 iter_args(%u0 = %t0) -> (!mem.M<0>) {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %ii, %ten : i32
      %v = arith.addi %t, %jj : i32
      %row = mem.lea %host, %i : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0>
      %at = mem.lea %row, %j : !mem.ptr<!mem.array<6 x i32>, 0>
      %s0 = mem.store %u0, %at, %v : !mem.ptr<i32, 0>
      scf.yield %s0 : !mem.M<0>
    }
    scf.yield %g0 : !mem.M<0>
  }
  %a1, %dev = gpu.alloc.block %m1, %two : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>
  %k0, %k1 = gpu.copy_to_device.block %f0, %a1, %host -> %dev
      : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0> -> !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>
  %stream = gpu.default_stream
  %three = arith.constant 3 : i32
  %l0, %l1, %l4 = gpu.launch @triple grid(%two, %six) stream(%stream) mems(%k0, %k1, %m4)
      args(%dev, %three) : (!mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>, i32)
  %b0, %b1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1> -> !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0>
  %p0 = mem.print_memref %b0, %host : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0>
  %e1 = gpu.free.block %b1, %dev : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 1>
  %e0 = mem.free %p0, %host : !mem.ptr<!mem.array<? x !mem.array<6 x i32>>, 0>
  %done = gpu.deinit %e0, %e1, %l4
  func.return %done : !mem.M<0>
}
"""


def gpu_run(text: str, provider: str, tmp_path: Path, name: str) -> str:
    """gpu-run's output (`test_print_memref.gpu_run`), the addresses blurred."""
    path = tmp_path / name
    path.mkdir()
    return ADDRESS.sub("base@ = 0x0", print_memref_run(text, provider, path))


@pytest.mark.parametrize("provider", ["interp", "cpu"])
def test_an_imported_program_prints_what_the_same_program_in_gpuir_prints(provider, tmp_path):
    imported = gpu_run(UPSTREAM, provider, tmp_path, "upstream")
    ours = gpu_run(OURS, provider, tmp_path, "ours")
    assert imported == ours
    assert "[30,   33,   36,   39,   42,   45]]" in imported


def test_the_api_reads_upstream_text_by_itself(capfd):
    with gpuir.Device("cpu") as device:
        program = device.compile(UPSTREAM)
        assert program.kernels == ("launch_kernel",)
        program.main()
    out = capfd.readouterr().out
    assert out.splitlines()[1:] == [
        "[[0,   3,   6,   9,   12,   15], ",
        " [30,   33,   36,   39,   42,   45]]",
    ]


def test_what_cannot_be_imported_is_a_compile_error_at_the_op():
    text = UPSTREAM.replace(
        "    gpu.barrier\n", '    scf.if %true {\n      cf.assert %true, "x"\n    }\n'
    ).replace(
        "%three = arith.constant 3 : i32",
        "%three = arith.constant 3 : i32\n  %true = arith.constant true",
    )
    with pytest.raises(
        CompileError,
        match=r"<string>:\d+:7: error: importing upstream MLIR: 'cf.assert' inside an scf region of a kernel is not supported \(yet\)",
    ):
        gpuir.compile(text, provider="interp")


def test_upstream_input_is_told_apart_from_gpuirs():
    assert is_upstream(UPSTREAM)
    assert not is_upstream(OURS)
    # comments do not count: a gpuir program that mentions memref in a comment is gpuir's
    assert not is_upstream("// like memref.load\n" + OURS)
    assert is_upstream("// gpu.launch @k, !mem.ptr\n" + UPSTREAM)
    assert not is_upstream("func.func @main() {\n  return\n}\n")
