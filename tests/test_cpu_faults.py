"""Kernel faults on the cpu provider (`gpuir.runtime.cpu.faults`, `gpuir.runtime.cpu.arena`):
a wild store, an overrun, a wild load and an integer division by zero each end in a located
error (the launch, the kernel, the address next to its allocation, the work-group), never a
dead process; the next launch works, device memory is given back, the interpreter's heap is
untouched; a fault outside a kernel still reaches the handler that was there before.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from kernels import if_then, kernel

import gpuir
from gpuir.api import ProviderError
from gpuir.runtime.cpu import arena as cpu_arena
from gpuir.runtime.cpu import faults
from gpuir.tools.gpu_run import main as gpu_run

pytestmark = pytest.mark.skipif(
    faults.install() is None or cpu_arena.arena() is None,
    reason="no fault guard or device arena on this system (Linux only)",
)

PARAMS = (
    "%group: index, %item: index, %at: index, %d: i32, %n: index,"
    " %p: !mem.ptr<!mem.array<? x i32>, 1>"
)
PROLOGUE = """
  %size = arith.constant 256 : index
  %base = arith.muli %group, %size : index
  %k = arith.addi %base, %item : index
"""
MAIN = """
func.func @main(%m: !mem.M<0>, %groups: index, %at: index, %div: i32) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %n = arith.constant 1000 : index
  %d1, %d = gpu.alloc.block %m1, %n : !mem.ptr<!mem.array<? x i32>, 1>
  %h0, %h = mem.alloc %m0, %n : !mem.ptr<!mem.array<? x i32>, 0>
  %s = gpu.default_stream
  %items = arith.constant 256 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%groups, %items) stream(%s) mems(%h0, %d1, %m4)
      args(%at, %div, %n, %d) : (index, i32, index, !mem.ptr<!mem.array<? x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %d -> %h
      : !mem.ptr<!mem.array<? x i32>, 1> -> !mem.ptr<!mem.array<? x i32>, 0>
  %last = arith.constant 700 : index
  %q = mem.lea %h, %last : !mem.ptr<!mem.array<? x i32>, 0>
  %r0, %r = mem.load %c0, %q : !mem.ptr<i32, 0>
  %f1 = gpu.free.block %c1, %d : !mem.ptr<!mem.array<? x i32>, 1>
  %f0 = mem.free %r0, %h : !mem.ptr<!mem.array<? x i32>, 0>
  %e = gpu.deinit %f0, %f1, %l4
  func.return %e, %r : !mem.M<0>, i32
}
"""
STORE_AT_K = """
    %q = mem.lea %p, %k : !mem.ptr<!mem.array<? x i32>, 1>
    %t1 = mem.store {token}, %q, %v : !mem.ptr<i32, 1>"""
"""`p[k] = %v` after `token`, in an `if_then`: the token `%t1`."""
KERNELS = {
    # every item stores k at p[k], with no bounds guard: 4 groups of 256 overrun 1000 elements
    "overrun": """  %v = arith.index_cast %k : index to i32
  %q = mem.lea %p, %k : !mem.ptr<!mem.array<? x i32>, 1>
  %t = mem.store %m1, %q, %v : !mem.ptr<i32, 1>
""",
    # item 0 of each group stores at p[at]; the others store in bounds
    "wild-store": """  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
  %where = arith.select %first, %at, %k : index
  %v = arith.constant 7 : i32
  %q = mem.lea %p, %where : !mem.ptr<!mem.array<? x i32>, 1>
  %t = mem.store %m1, %q, %v : !mem.ptr<i32, 1>
""",
    # every item loads p[at] and stores it at p[k] (in bounds)
    "wild-load": """  %a = mem.lea %p, %at : !mem.ptr<!mem.array<? x i32>, 1>
  %t0, %v = mem.load %m1, %a : !mem.ptr<i32, 1>
  %in = arith.cmpi ult, %k, %n : index
"""
    + if_then("%t", "%in", STORE_AT_K.format(token="%t0"), "%t1", "%t0"),
    # every item in bounds stores 1000 / d
    "division": """  %in = arith.cmpi ult, %k, %n : index
"""
    + if_then(
        "%t",
        "%in",
        """
    %thousand = arith.constant 1000 : i32
    %v = arith.divsi %thousand, %d : i32"""
        + STORE_AT_K.format(token="%m1"),
        "%t1",
    ),
}

# (kernel, @main's arguments, the error's words after "error: cpu: ")
FAULTS = {
    "overrun": (
        "overrun",
        [4, 0, 1],
        r"an illegal memory access in @k at address 0x[0-9a-f]+ \(32 bytes past the end of a "
        r"4000-byte global allocation \(by 'gpu.alloc.block' at .*:{alloc}:3\)\), in work-group 3",
    ),
    "wild-store": (
        "wild-store",
        [2, 10**11, 1],
        r"an illegal memory access in @k at address 0x[0-9a-f]+ "
        r"\((in no device allocation|outside device memory|a null pointer, or an address "
        r"outside the address space)\), "
        r"in work-group 0",
    ),
    "wild-load": (
        "wild-load",
        [4, -20, 1],
        r"an illegal memory access in @k at address 0x[0-9a-f]+ \(80 bytes before the start of "
        r"a 4000-byte global allocation \(by 'gpu.alloc.block' at .*:{alloc}:3\)\), in work-group 0",
    ),
    "division": ("division", [4, 0, 0], r"an integer division by zero in @k, in work-group 0"),
}
GOOD = {
    "overrun": [3, 0, 1],
    "wild-store": [3, 5, 1],
    "wild-load": [4, 5, 1],
    "division": [4, 0, 4],
}
"""Launches of the same kernels that do not fault; @main returns p[700]."""
EXPECTED = {"overrun": 700, "wild-store": 7, "wild-load": 0, "division": 250}


def program(name: str) -> str:
    return kernel("k", PARAMS, PROLOGUE + KERNELS[name], "%t, %m3, %m4, %m5", marked=False) + MAIN


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("name", list(FAULTS))
def test_a_fault_is_a_located_error(name, tmp_path, capsys):
    kernel, args, words = FAULTS[name]
    path = tmp_path / f"{name}.mlir"
    text = program(kernel)
    path.write_text(text)
    status = gpu_run([str(path), "--provider", "cpu", "--", *map(str, args)])
    captured = capsys.readouterr()
    assert (status, captured.out) == (1, "")
    first = captured.err.splitlines()[0]
    launch, alloc = line_of(text, "gpu.launch"), line_of(text, "gpu.alloc.block")
    words = words.replace("{alloc}", str(alloc))
    assert re.fullmatch(rf"{re.escape(str(path))}:{launch}:3: error: cpu: {words}", first), first


@pytest.mark.parametrize("name", list(FAULTS))
def test_after_a_fault_the_next_launch_works(name):
    kernel, args, _ = FAULTS[name]
    arena = cpu_arena.arena()
    assert arena is not None
    before = len(arena.blocks)
    with gpuir.Device("cpu") as device:
        bad = device.compile(program(kernel))
        with pytest.raises(ProviderError, match="illegal memory access|division by zero"):
            bad.main(*args)
        assert bad.main(*GOOD[name]) == EXPECTED[name]
    garbage = np.arange(100_000).sum()  # the heap is whole
    assert garbage == 4999950000
    assert len(arena.blocks) == before  # given back, shared memory too


def test_many_groups_on_many_threads_report_the_lowest_faulting_group():
    text = program("overrun")
    with gpuir.Device("cpu") as device:
        prog = device.compile(text)
        with pytest.raises(ProviderError, match=r"in work-group 3$"):
            prog.main(64, 0, 1)
        assert prog.main(3, 0, 1) == 700


def test_faults_one_after_another_on_one_thread_are_all_caught():
    with gpuir.Device("cpu") as device:
        prog = device.compile(program("wild-store"))
        for _ in range(3):  # one group: each on the calling thread, whose signals stay unblocked
            with pytest.raises(ProviderError, match="illegal memory access"):
                prog.main(1, 10**11, 1)
        assert prog.main(3, 5, 1) == 7


def test_a_fault_outside_a_kernel_still_kills_the_process():
    script = textwrap.dedent(
        """
        import ctypes
        from gpuir.runtime.cpu import faults
        assert faults.install() is not None
        ctypes.string_at(0)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert done.returncode == -11  # SIGSEGV, the default action: the guard only takes kernels


def test_device_memory_is_apart_and_guarded():
    arena = cpu_arena.arena()
    assert arena is not None
    address, view = arena.allocate(4000)
    try:
        assert arena.contains(address) and address % 64 == 0
        assert not view.any()  # zeroed
        view[:] = 1
        block = arena.blocks[address]
        assert address + 4000 <= block.start + block.span < address + 4000 + 64
    finally:
        arena.release(address)
    again, view = arena.allocate(4000)
    try:
        assert not view.any()  # given back as zeros
    finally:
        arena.release(again)


def test_the_arena_merges_what_is_given_back():
    arena = cpu_arena.Arena.make()
    assert arena is not None
    addresses = [arena.allocate(5000)[0] for _ in range(4)]
    top = arena.top
    for address in addresses:
        arena.release(address)
    assert arena.free_ranges == [(arena.base + cpu_arena.PAGE, top - arena.base - cpu_arena.PAGE)]
    big, _ = arena.allocate(4 * 3 * cpu_arena.PAGE - cpu_arena.PAGE)  # fits the merged range
    assert arena.top == top
    arena.release(big)


def vm_flags(address: int) -> list[str]:
    """The `VmFlags` of the mapping of this process that holds `address`."""
    inside = False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                low, high = (int(x, 16) for x in head.split("-"))
                inside = low <= address < high
            elif inside and head == "VmFlags:":
                return line.split()[1:]
    return []


def test_large_allocations_are_aligned_for_huge_pages_and_ask_for_them():
    """As numpy's large arrays: 2 MiB-aligned, `MADV_HUGEPAGE` (`hg` in the mapping's flags),
    so that a kernel streaming through them is not held up by TLB misses; small ones are
    not."""
    arena = cpu_arena.Arena.make()
    assert arena is not None
    small, _ = arena.allocate(5000)  # the arena's top is no longer aligned
    big, view = arena.allocate(8 << 20)
    assert big % cpu_arena.HUGE == 0
    view[:] = 1
    assert "hg" in vm_flags(big)
    assert "hg" not in vm_flags(small)
    arena.release(big)
    again, _ = arena.allocate(8 << 20)  # the aligned range, with what was around it, reused
    assert again == big
    arena.release(again)
    arena.release(small)
    assert len(arena.free_ranges) == 1


def test_gpu_run_reports_an_overrun_without_dying(tmp_path):
    path = tmp_path / "overrun.mlir"
    path.write_text(program("overrun"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpuir.tools.gpu_run",
            str(path),
            "--provider",
            "cpu",
            "4",
            "0",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "illegal memory access in @k" in done.stderr and "Traceback" not in done.stderr
