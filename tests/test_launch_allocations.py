"""A launch through the Python API allocates nothing that outlives it: after a warm-up, 2,000
launches leave the traced Python memory where it was (tracemalloc, after a collection), make no
allocation of any memory space (`memory.Allocation`s are numbered: the next number is the
same), and leave `Device.live_allocations()` alone. Not timed: `benchmarks/launch.py` measures
the overhead."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest
from kernels import TINY
from providers import PROVIDERS_WITHOUT_GPU

import gpuir
from gpuir.runtime import memory

LAUNCHES = 2000
KEPT_BYTES = 512
"""What 2,000 launches may leave allocated, in all (not per launch): tracemalloc's own noise."""

WITH_STRUCT = """
!params = !llvm.struct<(f32, i32)>

func.func @with_struct(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                       %group: index, %item: index, %x: !mem.ptr<!mem.array<? x f32>, 1>,
                       %p: !params)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a = llvm.extractvalue %p[0] : !params
  %q = mem.lea %x, %item : !mem.ptr<!mem.array<? x f32>, 1>
  %n1 = mem.store %m1, %q, %a : !mem.ptr<f32, 1>
  func.return %n1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""
KERNELS = TINY + WITH_STRUCT


def next_allocation_serial() -> int:
    return next(memory._serials)  # noqa: SLF001  # every Allocation takes the next number


@pytest.mark.parametrize("provider", PROVIDERS_WITHOUT_GPU)
@pytest.mark.parametrize(
    ("kernel", "extra"),
    [("tiny", (np.float32(2.5),)), ("with_struct", ((np.float32(2.5), 7),))],
    ids=["scalars", "struct"],
)
def test_launches_keep_no_memory_and_allocate_nothing(
    provider: str, kernel: str, extra: tuple[object, ...]
):
    with gpuir.Device(provider) as device:
        launch = device.compile(KERNELS).kernel(kernel)
        x = device.upload(np.zeros(4, np.float32))
        for _ in range(50):
            launch(1, 4, x, *extra)
        live = device.live_allocations()
        gc.collect()
        tracemalloc.start()
        try:
            serial = next_allocation_serial()
            before, _ = tracemalloc.get_traced_memory()
            for _ in range(LAUNCHES):
                launch(1, 4, x, *extra)
            gc.collect()
            after, _ = tracemalloc.get_traced_memory()
            assert next_allocation_serial() == serial + 1, "a launch made an allocation"
        finally:
            tracemalloc.stop()
        assert after - before < KEPT_BYTES, f"{LAUNCHES} launches kept {after - before} bytes"
        assert device.live_allocations() == live
        assert x.download().tolist() == [2.5] * 4


def test_the_measure_sees_a_launch_that_keeps_memory():
    """The same measure on a kernel whose launches are remembered (a list that grows, as a
    provider that leaked would) is far above the bound: the test above can fail."""
    kept: list[object] = []
    with gpuir.Device("interp") as device:
        launch = device.compile(KERNELS).kernel("tiny")
        x = device.upload(np.zeros(4, np.float32))
        launch(1, 4, x, np.float32(1))
        gc.collect()
        tracemalloc.start()
        try:
            before, _ = tracemalloc.get_traced_memory()
            for _ in range(LAUNCHES):
                launch(1, 4, x, np.float32(1))
                kept.append((1, 4))
            gc.collect()
            after, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert after - before > KEPT_BYTES
