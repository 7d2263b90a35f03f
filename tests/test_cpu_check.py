"""`--provider cpu --check` (`CpuProvider(check=True)`): compiled kernels whose accesses a native
checker watches; a launch with a suspect access runs again under interp, whose first error is
the launch's. Every planted bug interp finds is found, in its words; a clean program gives
interp's results and is not run again."""

from __future__ import annotations

import io

import numpy as np
import pytest
from differential.generator import generate
from differential.planted import find_planted, planted
from differential.running import CHECKED, run, same
from kernels import SAXPY, constants, if_then, kernel, launching_main, store
from test_cpu_provider import ARGS, PROGRAMS

import gpuir
from gpuir.api import Device
from gpuir.runtime.cpu import CpuProvider
from gpuir.runtime.provider import ProviderError

FLAG = kernel(
    "flag",
    "%group: index, %item: index, %out: !mem.ptr<i32, 1>",
    """
  %one = arith.constant 1 : i32
  %s1 = mem.store %m1, %out, %one : !mem.ptr<i32, 1>""",
    "%s1, %m3, %m4, %m5",
)
KERNELS = SAXPY + FLAG


@pytest.fixture
def device():
    with Device(CpuProvider(check=True)) as found:
        yield found


def test_a_clean_launch_gives_the_results_and_is_not_run_again(device):
    saxpy = device.compile(KERNELS).kernel("saxpy")
    n = 10_000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    xs, ys = device.upload(x), device.upload(y)
    saxpy(-(-n // 256), 256, 256, n, np.float32(3.0), xs, ys)
    device.synchronize()
    assert np.array_equal(ys.download(), np.float32(3.0) * x + y)
    assert device.provider.replayed == 0


def test_writes_of_one_value_by_every_group_are_not_suspect(device):
    flag = device.compile(KERNELS).kernel("flag")
    out = device.upload(np.zeros(1, np.int32))
    flag(8, 32, out)
    device.synchronize()
    assert out.download()[0] == 1
    assert device.provider.replayed == 0


def test_an_overrun_is_interps_error_and_the_provider_stays_usable(device):
    saxpy = device.compile(KERNELS).kernel("saxpy")
    xs, ys = device.upload(np.ones(100, np.float32)), device.upload(np.ones(100, np.float32))
    with pytest.raises(ProviderError) as found:
        saxpy(1, 128, 128, 101, np.float32(1.0), xs, ys)  # n says 101: item 100 is one past
        device.synchronize()
    message = str(found.value)
    assert (
        "out of bounds: work-item (group 0, item 100) loads 4 bytes from byte offset 400 of a "
        "400-byte global allocation" in message
    )
    assert device.provider.replayed == 1
    # memory as interp left it at the error: items 0-99 ran before item 100's load
    assert np.array_equal(ys.download(), np.full(100, 2.0, np.float32))
    saxpy(1, 128, 128, 100, np.float32(1.0), xs, ys)
    device.synchronize()
    assert np.array_equal(ys.download(), np.full(100, 3.0, np.float32))
    assert device.provider.replayed == 1


def test_a_freed_buffer_is_a_use_after_free_at_the_access(device):
    saxpy = device.compile(KERNELS).kernel("saxpy")
    xs, ys = device.upload(np.ones(4, np.float32)), device.upload(np.ones(4, np.float32))
    xs.free()
    with pytest.raises(ProviderError, match=r"use after free: work-item \(group 0, item 0\) "):
        saxpy(1, 4, 4, 4, np.float32(1.0), xs, ys)
        device.synchronize()


@pytest.mark.parametrize(
    ("seed", "plant"),
    [(seed, plant) for plant in ("past-end", "freed") for seed in range(4)]
    + [(seed, "missing-barrier") for seed in (1, 17, 21)],
)
def test_every_planted_bug_is_found_in_interps_words(seed: int, plant: str):
    found, text, outcome = find_planted(seed, plant, CHECKED)
    expected = planted(seed, plant)
    assert expected is not None and text
    assert found, f"seed {seed}, {plant}: expected {expected[1]!r}, got {outcome}"


@pytest.mark.parametrize("seed", range(12))
def test_clean_programs_agree_with_interp_and_run_once(seed: int):
    text = generate(seed)
    provider = CpuProvider(check=True)
    results = gpuir.compile(text, provider=provider, out=io.StringIO()).main()
    results = results if isinstance(results, tuple) else (results,)
    assert same(results, run(text, "interp"))
    assert provider.replayed == 0, f"seed {seed}: a clean launch was suspect"


def test_check_needs_the_cpu_provider():
    from gpuir.tools.gpu_run import main

    assert main(["examples/simple.mlir", "--provider", "interp", "--check"]) == 1


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_checked_cpu_prints_what_interp_prints(path, capsys: pytest.CaptureFixture[str]):
    """The clean corpus (every example, the cpu provider's own run tests) under `--check`."""
    from gpuir.tools import gpu_run

    args = ARGS.get(path.stem, [])
    expected = gpu_run.main([str(path), "--provider", "interp", *args]), *capsys.readouterr()
    found = gpu_run.main([str(path), "--provider", "cpu", "--check", *args]), *capsys.readouterr()
    assert found == expected


def test_without_a_c_compiler_check_says_so(tmp_path):
    """The checker is built on first use; where the C compiler cannot run, `--check` is an
    error that says why (in a process of its own: the checker is built once per process)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    gpu_run = Path(sys.executable).with_name("gpu-run")
    program = Path(__file__).parent / "lit" / "run" / "race-global.mlir"
    env = {**os.environ, "CC": str(tmp_path / "no-cc"), "GPUIR_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [str(gpu_run), str(program), "--provider", "cpu", "--check"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"gpu-run: error: cpu --check cannot run the C compiler {tmp_path / 'no-cc'}: "
        "No such file or directory"
    )


def test_device_heap_cells_are_allocations_of_their_own():
    """scoped-sync: each item allocates a device-heap cell and frees it; libc gives the next
    item the same address, which is new memory, not a race with the item before."""
    from pathlib import Path

    source = (Path(__file__).parent.parent / "examples" / "scoped-sync.mlir").read_text()
    provider = CpuProvider(check=True)
    found = gpuir.compile(source, provider=provider, out=io.StringIO()).main(9)
    assert found == gpuir.compile(source, provider="interp", out=io.StringIO()).main(9)
    assert provider.replayed == 0


HEAP_AFTER_FREE = kernel(
    "k",
    "%group: index, %item: index",
    """
  %a1, %cell = mem.alloc %m1 : !mem.ptr<i32, 1>
  %b1 = mem.free %a1, %cell : !mem.ptr<i32, 1>
  %v = arith.constant 7 : i32
  %c1 = mem.store %b1, %cell, %v : !mem.ptr<i32, 1>""",
    "%c1, %m3, %m4, %m5",
    marked=False,
) + launching_main("%one, %one", "  %one = arith.constant 1 : index")


def test_a_freed_device_heap_cell_is_a_use_after_free():
    with pytest.raises(ProviderError) as checked:
        gpuir.compile(HEAP_AFTER_FREE, provider=CpuProvider(check=True), out=io.StringIO()).main()
    with pytest.raises(ProviderError) as interp:
        gpuir.compile(HEAP_AFTER_FREE, provider="interp", out=io.StringIO()).main()
    assert "use after free: work-item (group 0, item 0) stores 4 bytes to" in str(checked.value)
    assert str(checked.value) == str(interp.value)


UNDONE = kernel(
    "k",
    "%group: index, %item: index, %n: index,"
    " %count: !mem.ptr<i32, 1>, %y: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %one = arith.constant 1 : i32
  %a1, %old = mem.atomic_rmw "add" %m1, %count, %one : !mem.ptr<i32, 1>
  %p = mem.lea %y, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %b1 = mem.store %a1, %p, %old : !mem.ptr<i32, 1>
  %c1, %v = mem.load %b1, %p : !mem.ptr<i32, 1>
  %w = arith.addi %v, %one : i32
  %d1 = mem.store %c1, %p, %w : !mem.ptr<i32, 1>
  %last = arith.cmpi eq, %item, %n : index
"""
    + if_then("%r1", "%last", store("%e1", "%d1", "%y", "%n", "%one", "i32"), "%e1", "%d1"),
    "%r1, %m3, %m4, %m5",
)


def test_a_stopped_launch_leaves_the_memory_interp_leaves():
    """Atomics, stores and stores again to the same bytes, then an overrun by the last item:
    the checker's undo log puts the memory back before interp runs the launch, so the memory
    after the error is interp's, word for word."""
    found = {}
    for name, provider in (("checked", CpuProvider(check=True)), ("interp", "interp")):
        with Device(provider) as device:
            kernel = device.compile(UNDONE).kernel("k")
            count = device.upload(np.array([5], np.int32))
            y = device.upload(np.full(16, -1, np.int32))
            with pytest.raises(ProviderError, match="out of bounds: work-item"):
                kernel(1, 17, 16, count, y)  # item 16 stores y[16], one past the end
                device.synchronize()
            found[name] = (count.download().copy(), y.download().copy())
    assert np.array_equal(found["checked"][0], found["interp"][0])
    assert np.array_equal(found["checked"][1], found["interp"][1])
    assert list(found["interp"][1]) == [6 + i for i in range(16)]


HANDOVER = kernel(
    "k",
    "%group: index, %item: index, %n: index, %second: i32, %sync: i1,"
    " %y: !mem.ptr<!mem.array<? x i32>, 1>, %out: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %one = arith.constant 1 : index
  %seven = arith.constant 7 : i32
  %p = mem.lea %y, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %a1, %v = mem.load %m1, %p : !mem.ptr<i32, 1>
  %b1 = mem.store %a1, %p, %seven : !mem.ptr<i32, 1>
  %c1 = mem.store %b1, %p, %second : !mem.ptr<i32, 1>
"""
    + if_then("%d1", "%sync", "    %s1, %s3 = gpu.sync_work_items %c1, %m3", "%s1", "%c1")
    + """
  %next = arith.addi %item, %one : index
  %wrap = arith.remui %next, %n : index
  %q = mem.lea %y, %wrap : !mem.ptr<!mem.array<? x i32>, 1>
  %e1, %w = mem.load %d1, %q : !mem.ptr<i32, 1>
  %r = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %f1 = mem.store %e1, %r, %w : !mem.ptr<i32, 1>""",
    "%f1, %m3, %m4, %m5",
)


@pytest.mark.parametrize(("second", "dtype"), [(7, np.int32), (9, np.int32), (9, np.int64)])
def test_a_word_one_item_wrote_is_checked_against_every_write_when_another_reads(
    second: int, dtype: type
):
    """Each item reads its word and writes it twice (once with the same value, once with
    another), then reads its neighbour's. The checker's fast path keeps such a word as one
    item's until another touches it; the neighbour's read must then see both writes: with a
    barrier between, the launch is clean and runs once; without, it is interp's race. In
    i64, each access is two words of the inline path."""
    program = HANDOVER.replace("i32", "i64") if dtype is np.int64 else HANDOVER
    n = 64
    with Device(CpuProvider(check=True)) as device:
        kernel = device.compile(program).kernel("k")
        y, out = device.upload(np.zeros(n, dtype)), device.upload(np.zeros(n, dtype))
        kernel(1, n, n, dtype(second), True, y, out)
        device.synchronize()
        assert list(out.download()) == [second] * n
        assert device.provider.replayed == 0
        with pytest.raises(ProviderError, match="race") as checked:
            kernel(1, n, n, dtype(second), False, y, out)
            device.synchronize()
        assert device.provider.replayed == 1
    with Device("interp") as device:
        kernel = device.compile(program).kernel("k")
        y, out = device.upload(np.zeros(n, dtype)), device.upload(np.zeros(n, dtype))
        kernel(1, n, n, dtype(second), True, y, out)
        with pytest.raises(ProviderError, match="race") as interp:
            kernel(1, n, n, dtype(second), False, y, out)
            device.synchronize()
    assert str(checked.value) == str(interp.value)


BEFORE = kernel(
    "k",
    "%group: index, %item: index, %back: index,"
    " %y: !mem.ptr<!mem.array<? x f32>, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>",
    constants(zero=0, three=3, nothing="0.0 : f32")
    + """
  %q = mem.lea %out, %item : !mem.ptr<!mem.array<? x f32>, 1>
  %a1 = mem.store %m1, %q, %nothing : !mem.ptr<f32, 1>
  %last = arith.cmpi eq, %item, %three : index
  %d = arith.select %last, %back, %zero : index
  %i = arith.subi %item, %d : index
  %p = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
  %b1, %v = mem.load %a1, %p : !mem.ptr<f32, 1>
  %c1 = mem.store %b1, %q, %v : !mem.ptr<f32, 1>""",
    "%c1, %m3, %m4, %m5",
)


@pytest.mark.parametrize(
    ("back", "dtype"), [(4, np.float32), (16, np.float32), (1000, np.float32), (4, np.float64)]
)
def test_a_load_before_the_start_of_an_array_is_out_of_bounds(device, back: int, dtype: type):
    """The bytes just before a device array share its page, and the inline checks take only
    words of live allocations: item 3's load there (its group's first access went through the
    checker, this one does not) is interp's out of bounds (or, a page further, a fault that
    interp names the same way), then a good launch runs clean."""
    kernel = device.compile(BEFORE.replace("f32", "f64") if dtype is np.float64 else BEFORE).kernel(
        "k"
    )
    y = device.upload(np.arange(1000, dtype=dtype))
    out = device.upload(np.zeros(1000, dtype))
    with pytest.raises(ProviderError, match=r"out of bounds: work-item \(group 0, item 3\) loads"):
        kernel(1, 4, back, y, out)
        device.synchronize()
    assert device.provider.replayed == 1
    kernel(1, 4, 0, y, out)
    device.synchronize()
    assert list(out.download()[:4]) == [0.0, 1.0, 2.0, 3.0]
    assert device.provider.replayed == 1


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def test_device_memory_no_kernel_touches_costs_no_shadow(device):
    """The owners of the arena are written where accesses reach the checker, not at allocation:
    1 GiB allocated, 64K elements of it used, and the process grows by far less than the
    2 GiB of owners that marking the whole allocation took (11 s for 2 GiB)."""
    saxpy = device.compile(KERNELS).kernel("saxpy")
    n, used = 1 << 28, 1 << 16
    before = resident_bytes()
    xs, ys = device.empty(n, np.float32), device.empty(n, np.float32)
    saxpy(used // 256, 256, 256, used, np.float32(2.0), xs, ys)
    device.synchronize()
    grown = resident_bytes() - before
    assert np.array_equal(ys[: used + 1].download(), np.zeros(used + 1, np.float32))
    xs.free()
    ys.free()
    assert grown < 256 << 20, f"the process grew by {grown >> 20} MiB"


def test_memory_freed_and_allocated_again_has_the_new_allocations_bounds():
    """An allocation in the range of a freed one that kernels touched (`--check` keeps freed
    memory from reuse until its device closes): the owners the freed one left are gone, so
    item 3's load before the new array's start is out of bounds."""
    with Device(CpuProvider(check=True)) as first:
        saxpy = first.compile(KERNELS).kernel("saxpy")
        old = first.upload(np.arange(1 << 16, dtype=np.float32))
        saxpy(256, 256, 256, 1 << 16, np.float32(1.0), old, old)  # every word, checked
        first.synchronize()
        start = old.pointer.address
    with Device(CpuProvider(check=True)) as device:
        before = device.compile(BEFORE).kernel("k")
        # 64 bytes fewer: the same pages (first fit puts it where the old one was), its first
        # element 64 bytes after their start (an allocation ends where its pages do)
        y = device.upload(np.arange((1 << 16) - 16, dtype=np.float32))
        out = device.upload(np.zeros(1000, np.float32))
        assert y.pointer.address - 16 * 4 == start, "the old range was not reused"
        with pytest.raises(
            ProviderError, match=r"out of bounds: work-item \(group 0, item 3\) loads"
        ):
            before(1, 4, 16, y, out)
            device.synchronize()
        before(1, 4, 0, y, out)
        device.synchronize()
        assert list(out.download()[:4]) == [0.0, 1.0, 2.0, 3.0]


TABLE_FULL = """
import ctypes, sys
import numpy as np
library = ctypes.CDLL(sys.argv[1])
library.__gpuir_check_slow.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64,
                                       ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64]
library.gpuir_check_alloc.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
arrays = [np.zeros(1 << 18, np.float32) for _ in range(6)]  # 1 MiB each: 6 chunks of owners
for a in arrays:
    library.gpuir_check_alloc(a.ctypes.data, a.nbytes)
library.gpuir_check_begin(1, None)
for a in arrays:
    library.__gpuir_check_slow(a.ctypes.data, 4, 0, 0, 0, 0)  # a read by item 0 of group 0
print(library.gpuir_check_end())
"""


@pytest.mark.parametrize(("slots", "verdict"), [(4, "1"), (16, "0")])
def test_a_full_table_of_records_makes_an_access_suspect_and_never_hangs(tmp_path, slots, verdict):
    """Records of memory outside the arena are in chunks found through a table; when it is full
    (4 slots here; the checker has 65536: 4 GiB of byte records, 16 GiB of word records), a
    new chunk is no room, and the access is suspect (interp runs the launch), where the probe
    went round the table for ever before."""
    import shutil
    import subprocess
    import sys

    from gpuir.runtime.cpu import check as cpu_check

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    built = tmp_path / f"check{slots}.so"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", f"-DSLOTS={slots}", "-o", built, cpu_check.SOURCE],
        check=True,
    )
    found = subprocess.run(
        [sys.executable, "-c", TABLE_FULL, str(built)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert found.stdout.strip() == verdict
