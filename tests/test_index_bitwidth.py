"""The 32-bit index lowering (`device-to-llvm{index-bitwidth=32}`) computes what interp computes:
the cpu provider runs the same lowering stages (`gpuir.lowering.cpu.cpu_llvm`), so with
`index_bitwidth=32` (`$GPUIR_CPU_INDEX_BITWIDTH=32`) it runs device code with 32-bit index
values. Every example and the cpu provider's run programs print what interp prints; a program
whose index arithmetic leaves 32 bits shows the wrap (so the option is in effect), and index
collectives, index memory (loads/stores of 64-bit index elements), kernel index parameters
(negative ones too) and the signed guarded-loop rewrite of `cpu-workgroup-loops` work on 32 bits.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from example_args import EXAMPLE_ARGS
from kernels import constants, if_then, kernel

from gpuir.runtime import ProviderUnavailable, unavailable_reason
from gpuir.runtime.cpu import INDEX_BITWIDTH_ENV, CpuProvider
from gpuir.tools import gpu_run

ROOT = Path(__file__).parent.parent
LIT_RUN = Path(__file__).parent / "lit" / "run"
PROGRAMS = [p for p in sorted((ROOT / "examples").glob("*.mlir")) if "invalid" not in p.stem] + [
    LIT_RUN / name
    for name in (
        "arguments.mlir",
        "collectives.mlir",
        "cpu-barriers.mlir",
        "print-floats.mlir",
        "race-free.mlir",
        "views-chaining.mlir",
        "views-fusion.mlir",
        "views-host.mlir",
        "views-post.mlir",
    )
]
ARGS = {
    **EXAMPLE_ARGS,
    "arguments": "127 -1 0x10 16777216 1 0.1 0.2 0.1".split(),
}

pytestmark = pytest.mark.skipif(
    unavailable_reason("cpu") is not None, reason=f"cpu provider: {unavailable_reason('cpu')}"
)


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bits: str
) -> tuple[int, str, str]:
    monkeypatch.setenv(INDEX_BITWIDTH_ENV, bits)
    status = gpu_run.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_cpu_with_32_bit_index_prints_what_interp_prints(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    args = ARGS.get(path.stem, [])
    expected = run([str(path), "--provider", "interp", *args], capsys, monkeypatch, "64")
    found = run([str(path), "--provider", "cpu", *args], capsys, monkeypatch, "32")
    assert found == expected
    assert found[0] == 0 and found[2] == ""


PARAMS = (
    "%group: index, %item: index, %u: index, %n: index, %out: !mem.ptr<!mem.array<32 x i64>, 1>"
)


def store_shifted(token: str, at: str) -> str:
    """`out[%s] = item + u` where `item + u < n` (signed), after `token`; the token after it is
    `%g1`. `at`: the lines that compute `%s`."""
    return """
  %shiftu = arith.addi %item, %u : index
  %inside = arith.cmpi slt, %shiftu, %n : index
""" + if_then(
        "%g1",
        "%inside",
        at
        + f"""
    %p = mem.lea %out, %s : !mem.ptr<!mem.array<32 x i64>, 1>
    %v = arith.index_cast %shiftu : index to i64
    %h1 = mem.store {token}, %p, %v : !mem.ptr<i64, 1>""",
        "%h1",
        token,
    )


WRAPS = (
    kernel(
        "k",
        PARAMS,
        constants(c4=4, c1=1, c2=2, c3=3, half=2147483648)
        + """
  %slot = arith.muli %item, %c4 : index
  %wrap = arith.muli %item, %half : index
  %wrap2 = arith.muli %wrap, %c2 : index
  %w = arith.index_cast %wrap2 : index to i64
  %p0 = mem.lea %out, %slot : !mem.ptr<!mem.array<32 x i64>, 1>
  %a1 = mem.store %m1, %p0, %w : !mem.ptr<i64, 1>
  %shifted = arith.subi %item, %c4 : index
  %b1, %b3, %sum = gpu.workgroup_reduce "add" %a1, %m3, %item : index
  %c1m, %c3m, %max = gpu.workgroup_reduce "max" %b1, %b3, %shifted : index
  %d1, %d3, %scan = gpu.workgroup_scan "add" %c1m, %c3m, %shifted : index
  %s1 = arith.addi %slot, %c1 : index
  %p1 = mem.lea %out, %s1 : !mem.ptr<!mem.array<32 x i64>, 1>
  %sum64 = arith.index_cast %sum : index to i64
  %e1 = mem.store %d1, %p1, %sum64 : !mem.ptr<i64, 1>
  %s2 = arith.addi %slot, %c2 : index
  %p2 = mem.lea %out, %s2 : !mem.ptr<!mem.array<32 x i64>, 1>
  %mix = arith.muli %max, %scan : index
  %mix64 = arith.index_cast %mix : index to i64
  %f1 = mem.store %e1, %p2, %mix64 : !mem.ptr<i64, 1>"""
        + store_shifted("%f1", "    %s = arith.addi %slot, %c3 : index"),
        "%g1, %d3, %m4, %m5",
        marked=False,
    )
    + kernel(
        "guard",
        PARAMS,
        store_shifted(
            "%m1",
            """
    %c24 = arith.constant 24 : index
    %s = arith.addi %item, %c24 : index""",
        ),
        "%g1, %m3, %m4, %m5",
        marked=False,
    )
    + r"""
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %a0, %host = mem.alloc %m0 : !mem.ptr<!mem.array<32 x i64>, 0>
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n32 = arith.constant 32 : index
  %z64 = arith.constant -1 : i64
  %i0 = scf.for %k = %zero to %n32 step %one iter_args(%tok = %a0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<32 x i64>, 0>
    %t2 = mem.store %tok, %e, %z64 : !mem.ptr<i64, 0>
    scf.yield %t2 : !mem.M<0>
  }
  %b0, %b1, %dev = gpu.alloc_copy.block %i0, %m1, %host : !mem.ptr<!mem.array<32 x i64>, 0> -> !mem.ptr<!mem.array<32 x i64>, 1>
  %stream = gpu.default_stream
  %c8 = arith.constant 8 : index
  %u = arith.constant -3 : index
  %n = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %c8) stream(%stream) mems(%b0, %b1, %m4)
      args(%u, %n, %dev) : (index, index, !mem.ptr<!mem.array<32 x i64>, 1>)
  %u2 = arith.constant 2 : index
  %n2 = arith.constant 7 : index
  %q0, %q1, %q4 = gpu.launch @guard grid(%one, %c8) stream(%stream) mems(%l0, %l1, %l4)
      args(%u2, %n2, %dev) : (index, index, !mem.ptr<!mem.array<32 x i64>, 1>)
  %d0, %d1 = gpu.copy_to_host.block %q0, %q1, %dev -> %host
      : !mem.ptr<!mem.array<32 x i64>, 1> -> !mem.ptr<!mem.array<32 x i64>, 0>
  %p0 = scf.for %k = %zero to %n32 step %one iter_args(%tok = %d0) -> (!mem.M<0>) {
    %e = mem.lea %host, %k : !mem.ptr<!mem.array<32 x i64>, 0>
    %t2, %x = mem.load %tok, %e : !mem.ptr<i64, 0>
    printf.print_format "{}\n", %x : i64
    scf.yield %t2 : !mem.M<0>
  }
  %f1 = gpu.free.block %d1, %dev : !mem.ptr<!mem.array<32 x i64>, 1>
  %f0 = mem.free %p0, %host : !mem.ptr<!mem.array<32 x i64>, 0>
  %done = gpu.deinit %f0, %f1, %q4
  func.return %done : !mem.M<0>
}
"""
)
"""Kernel @k, 8 items, writes per item 4 i64 slots: item * 2^31 * 2 (2^32 * item with 64-bit
index, 0 with 32-bit), the group's index sum (28), max(item - 4) * scan(item - 4), and, where
item + u < n (u = -3, n = 4, signed), item + u. Kernel @guard (no barrier: the guarded-loop
rewrite) writes item + 2 at slot 24 + item where item + 2 < 7."""


def expected_slots(index_bits: int) -> list[int]:
    scan = [sum(j - 4 for j in range(i + 1)) for i in range(8)]
    slots: list[int] = []
    for i in range(8):
        wrap = (i << 32) if index_bits == 64 else 0
        slots += [wrap, 28, 3 * scan[i], i - 3 if i - 3 < 4 else -1]
    for i in range(5):
        slots[24 + i] = i + 2
    return slots


@pytest.mark.parametrize("bits", [64, 32])
def test_index_arithmetic_wraps_at_the_index_bitwidth(
    bits: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    program = tmp_path / "wraps.mlir"
    program.write_text(WRAPS)
    status, out, err = run([str(program), "--provider", "cpu"], capsys, monkeypatch, str(bits))
    assert status == 0, err
    assert [int(line) for line in out.split()] == expected_slots(bits)
    if bits == 64:  # interp agrees with the 64-bit figures
        status, out, err = run([str(program), "--provider", "interp"], capsys, monkeypatch, "64")
        assert [int(line) for line in out.split()] == expected_slots(64)


def test_a_bad_index_bitwidth_is_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(INDEX_BITWIDTH_ENV, "16")
    with pytest.raises(ProviderUnavailable, match="index bitwidth must be 32 or 64, found '16'"):
        CpuProvider()
    with pytest.raises(ProviderUnavailable, match="found 48"):
        CpuProvider(index_bitwidth=48)
    assert CpuProvider(index_bitwidth=32).index_bitwidth == 32


def test_gpu_run_selects_the_index_bitwidth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    program = tmp_path / "wraps.mlir"
    program.write_text(WRAPS)
    argv = [str(program), "--provider", "cpu", "--index-bitwidth", "32"]
    status, out, err = run(argv, capsys, monkeypatch, "64")  # the flag wins over the default
    assert status == 0, err
    assert [int(line) for line in out.split()] == expected_slots(32)
    argv = [str(program), "--provider", "interp", "--index-bitwidth", "32"]
    status, out, err = run(argv, capsys, monkeypatch, "64")
    assert (status, out) == (1, "")
    assert (
        "--index-bitwidth is an option of the compiled providers (cpu, cuda), not of interp" in err
    )
