"""Runtime faults: a bad launch configuration, a work-group larger than the device allows, wrong
kernel arguments from the Python API, and a device fault in a kernel each end in a clear error
that names what was wrong; afterwards the same `Device` still runs a correct launch, and no device
memory has leaked (`Device.live_allocations()`)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from kernels import item_load, kernel

from gpuir.api import CompileError, Device, ProviderError
from gpuir.runtime import unavailable_reason

PROVIDERS = ["interp", "cpu", "cuda"]

KERNELS = kernel(
    "scale",
    "%group: index, %item: index, %n: index, %k: f32, %x: !mem.ptr<!mem.array<? x f32>, 1>",
    item_load("%a1, %v", "%x", "f32")
    + "  %w = arith.mulf %v, %k : f32\n"
    + "  %b1 = mem.store %a1, %px, %w : !mem.ptr<f32, 1>\n",
    "%b1, %m3, %m4, %m5",
)
"""`x[i] = k * x[i]` for `i = group * n + item`."""

TOO_LARGE_GROUP = """
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %a1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %items = arith.constant 2048 : index
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %items) stream(%s) mems(%m0, %a1, %m4)
  %f1 = gpu.free.block %l1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  %r = arith.constant 0 : i32
  func.return %done, %r : !mem.M<0>, i32
}
"""


@pytest.fixture(params=PROVIDERS)
def device(request: pytest.FixtureRequest) -> Iterator[Device]:
    reason = unavailable_reason(request.param)
    if reason is not None:
        pytest.skip(reason)
    with Device(request.param) as device:
        yield device


def still_works(device: Device, allocations: int) -> None:
    """A correct launch on `device` gives the right answer, and `allocations` are live after
    its buffer is freed again."""
    x = device.upload(np.arange(8, dtype=np.float32))
    device.compile(KERNELS).kernel("scale")(2, 4, 4, 3.0, x)
    device.synchronize()
    assert x.download().tolist() == [3.0 * i for i in range(8)]
    x.free()
    assert device.live_allocations() == allocations


@pytest.mark.parametrize(("n_groups", "n_items"), [(0, 4), (1, 0), (1, 1025), (-1, 4), (1, 4096)])
def test_invalid_launch_configuration(device: Device, n_groups: int, n_items: int):
    scale = device.compile(KERNELS).kernel("scale")
    x = device.upload(np.ones(8, dtype=np.float32))
    with pytest.raises(ProviderError, match="invalid launch configuration") as error:
        scale(n_groups, n_items, 4, 2.0, x)
        device.synchronize()
    assert f"{n_groups} work-group(s) of {n_items} work-item(s)" in str(error.value)
    assert "@scale" in str(error.value)
    assert x.download().tolist() == [1.0] * 8  # nothing ran
    x.free()
    still_works(device, 0)


def test_work_group_larger_than_the_device_allows_in_main(device: Device):
    """A `gpu.launch` of 2048 items in `@main` fails at the launch, naming the limit; the
    allocation `@main` made before it is the only one left, and freeing it leaves none."""
    program = device.compile(TOO_LARGE_GROUP)
    with pytest.raises(ProviderError, match="1 to 1024 items"):
        program.main()
    assert device.live_allocations() == 1  # @main's, until the device closes
    still_works(device, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((4, 2.0, "x"), r"argument 2 of @scale is !mem.ptr<.*>: pass a Buffer, got str"),
        ((4, 2.0), r"@scale takes 3 argument\(s\) \(index, f32, .*\), got 2"),
        ((4, 2.0, None, 1), r"@scale takes 3 argument\(s\).*got 4"),
        ((4, "two", None), "argument 1 of @scale"),
        ((4, 2.0, "int32 buffer"), "argument 2 of @scale is .*, got a buffer of int32"),
    ],
)
def test_wrong_kernel_arguments(device: Device, args: tuple[object, ...], message: str):
    scale = device.compile(KERNELS).kernel("scale")
    x = device.upload(np.ones(8, dtype=np.float32))
    wrong = device.upload(np.ones(8, dtype=np.int32))
    values = [x if a is None else wrong if a == "int32 buffer" else a for a in args]
    with pytest.raises(TypeError, match=message):
        scale(2, 4, *values)
    assert x.download().tolist() == [1.0] * 8
    x.free()
    wrong.free()
    still_works(device, 0)


def test_out_of_bounds_access_in_a_kernel_is_reported(device: Device):
    if device.name == "cpu":
        pytest.skip("the cpu provider does not check accesses (compiled code)")
    if device.name == "cuda":
        pytest.skip("an illegal address poisons the CUDA context; see test_cuda_provider")
    scale = device.compile(KERNELS).kernel("scale")
    x = device.upload(np.ones(8, dtype=np.float32))
    with pytest.raises(ProviderError, match="out of bounds"):
        scale(4, 4, 4, 2.0, x)  # 16 items, 8 elements
        device.synchronize()
    x.free()
    still_works(device, 0)


def test_compile_errors_leave_the_device_usable(device: Device):
    with pytest.raises(CompileError):
        device.compile(KERNELS.replace("arith.mulf %v, %k", "arith.mulf %v, %nope"))
    still_works(device, 0)


def test_live_allocations_counts_what_is_not_freed(device: Device):
    assert device.live_allocations() == 0
    a = device.empty(4, np.float32)
    b = device.empty(4, np.int64)
    assert device.live_allocations() == 2
    a.free()
    assert device.live_allocations() == 1
    b.free()
    assert device.live_allocations() == 0
