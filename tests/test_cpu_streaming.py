"""Streaming stores on the cpu provider (`gpuir.lowering.cpu.streaming`): a kernel's write-only
output gets a stream entry whose stores to it are non-temporal (and only to it), the launch
picks that entry by size, alignment and `$GPUIR_CPU_STREAMING`, and the results are the same
either way."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.parser import Parser

import gpuir
from gpuir.dialects import make_context
from gpuir.lowering.cpu.cpu_llvm import LAUNCH_PREFIX, device_only, host_program
from gpuir.lowering.cpu.streaming import STREAM_SUFFIX
from gpuir.runtime import unavailable_reason
from gpuir.runtime.cpu import compile_module
from gpuir.runtime.cpu.provider import STREAMING_ENV, streaming_threshold

pytestmark = pytest.mark.skipif(unavailable_reason("cpu") is not None, reason="no cpu provider")

KERNEL = """
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %n: index,
             %x: !mem.ptr<!mem.array<? x f32>, 1>, %y: !mem.ptr<!mem.array<? x f32>, 1>,
             %w: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %n_items = arith.constant 256 : index
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %base, %item : index
  %inside = arith.cmpi ult, %i, %n : index
  %r1 = scf.if %inside -> (!mem.M<1>) {
    %px = mem.lea %x, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %py = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %pw = mem.lea %w, %i : !mem.ptr<!mem.array<? x f32>, 1>
    %a1, %vx = mem.load %m1, %px : !mem.ptr<f32, 1>
    %b1, %vy = mem.load %a1, %py : !mem.ptr<f32, 1>
    %s = arith.addf %vx, %vy : f32
    %c1 = mem.store %b1, %py, %s : !mem.ptr<f32, 1>
    %t = arith.mulf %s, %vx : f32
    %d1 = mem.store %c1, %pw, %t : !mem.ptr<f32, 1>
    scf.yield %d1 : !mem.M<1>
  } else {
    scf.yield %m1 : !mem.M<1>
  }
  func.return %r1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""
"""`y[i] += x[i]; w[i] = y[i] * x[i]` for `i = group * 256 + item < n`: `x` read, `y` read and
written, `w` (argument 3) written only."""
ITEMS = 256
UNALIGNED = KERNEL.replace("%n: index,", "%n: index, %n_items: index,").replace(
    "  %n_items = arith.constant 256 : index\n", ""
)
"""The kernel with its items per group an argument, as `saxpy`'s: LLVM cannot know a group's
first `w[i]` aligned."""


def device_module(text: str = KERNEL):
    return device_only(Parser(make_context(), text).parse_module())


def functions(text: str) -> dict[str, str]:
    """The optimized IR's function bodies by name."""
    found = re.findall(r"^define [^@]*@\"?([\w.]+)\"?\(.*?^}", text, re.MULTILINE | re.DOTALL)
    bodies = re.split(r"^define ", text, flags=re.MULTILINE)[1:]
    return dict(zip(found, bodies, strict=True))


def test_only_the_stream_entry_stores_non_temporally_and_only_to_the_write_only_output():
    program = host_program(device_module())
    assert program.kernels["k"].write_only == (3,)
    bodies = functions(program.llvm_ir)
    plain, stream = bodies[LAUNCH_PREFIX + "k"], bodies[LAUNCH_PREFIX + "k" + STREAM_SUFFIX]
    assert "!nontemporal" not in plain
    stores = [line for line in stream.splitlines() if line.lstrip().startswith("store ")]
    streamed = [line for line in stores if "!nontemporal" in line]
    assert any("store <" in line and "align 64" in line for line in streamed)  # vector, aligned
    assert any("!nontemporal" not in line and "float" in line for line in stores)  # y's
    assert "fence seq_cst" in stream


def test_no_stream_entry_is_taken_where_its_stores_are_not_aligned_or_checked():
    assert host_program(device_module(UNALIGNED)).kernels["k"].write_only == ()
    assert host_program(device_module(), check=True).kernels["k"].write_only == ()


def test_the_stream_entry_is_taken_for_a_large_aligned_launch_only():
    code = compile_module(device_module()).kernels["k"]
    assert code.stream_address and code.stream_bytes == 4
    code.slots[3] = 1 << 20  # w's address
    big = (1 << 16, ITEMS)  # 64 MB of w
    assert code.entry_for(*big, 16 << 20) == code.stream_address
    assert code.entry_for(*big, None) == code.address  # $GPUIR_CPU_STREAMING=0
    assert code.entry_for(1, ITEMS, 16 << 20) == code.address  # too small
    assert code.entry_for(1, ITEMS, 0) == code.stream_address  # $GPUIR_CPU_STREAMING=1
    assert code.entry_for(1 << 17, 100, 0) == code.address  # n_items not a multiple of 16
    code.slots[3] = (1 << 20) + 4
    assert code.entry_for(*big, 0) == code.address  # w not 64-byte aligned


@pytest.mark.parametrize("setting", ["0", "1", ""])
@pytest.mark.parametrize("n", [1000, (1 << 22) + 40], ids=["small", "large"])
def test_results_are_the_same_with_and_without_streaming(
    setting: str, n: int, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv(STREAMING_ENV, setting)
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    with gpuir.Device("cpu") as device:
        k = device.compile(KERNEL).kernel("k")
        xs, ys, ws = device.upload(x), device.upload(y), device.empty(n, np.float32)
        k(-(-n // ITEMS), ITEMS, n, xs, ys, ws)
        device.synchronize()
        expected_y = x + y
        assert np.array_equal(ys.download(), expected_y)
        assert np.array_equal(ws.download(), expected_y * x)


@pytest.mark.parametrize("setting", ["x", "2"])
def test_a_bad_setting_is_an_error(setting: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(STREAMING_ENV, setting)
    with pytest.raises(ValueError, match=STREAMING_ENV):
        streaming_threshold()
