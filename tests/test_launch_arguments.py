"""The cpu provider's launcher writes each Python argument as the usual way does.

`Kernel.__call__` on the default stream goes through `CpuProvider.launcher`, whose `fill`
(`CompiledKernel.filler`) writes the common arguments inline: a Python `int` in range, a float
of the parameter's own numpy type, a Python `float` for f32 / f64, the buffer of the last
launch. Everything else goes through the converters. Here every kind of scalar, at and past the
edges of its type, is stored by a kernel launched that way, and compared bit for bit with the
same launch on a stream (the provider's `launch`, which converts each argument) and with
numpy's own conversion; an argument out of range is the same error both ways. Buffers: the same
buffer again, a freed one, another one, a view.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import gpuir
from gpuir.runtime import unavailable_reason
from gpuir.runtime.provider import ProviderError

pytestmark = pytest.mark.skipif(unavailable_reason("cpu") is not None, reason="no cpu provider")

TYPES = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}


def store_kernel(name: str, type_: str) -> str:
    """`@name(%v: type_, %out)`: `out[item] = v`."""
    return f"""
func.func @{name}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %v: {type_},
                  %out: !mem.ptr<!mem.array<? x {type_}>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {{gpu.kernel}} {{
  %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x {type_}>, 1>
  %n1 = mem.store %m1, %p, %v : !mem.ptr<{type_}, 1>
  func.return %n1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}}
"""


KERNELS = (
    "".join(store_kernel(f"store_{t}", t) for t in TYPES)
    + """
func.func @store_i1(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %v: i1, %out: !mem.ptr<!mem.array<? x i8>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %w = arith.extui %v : i1 to i8
  %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i8>, 1>
  %n1 = mem.store %m1, %p, %w : !mem.ptr<i8, 1>
  func.return %n1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""
)


def int_values(dtype: type[np.integer]) -> list[object]:
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    unsigned = np.dtype(f"u{np.dtype(dtype).itemsize}").type
    return [
        0,
        1,
        -1,
        low,
        high,
        low + 1,
        high - 1,
        np.int8(-5),
        dtype(7),
        unsigned(high + 1),
        True,
        np.bool_(True),
    ]


FLOAT_VALUES: list[object] = [
    0.1,
    -0.0,
    1.0 / 3.0,
    1e300,
    -1e300,
    3.4028235e38,
    3.4028236e38,
    65504.0,
    65520.0,
    1e-46,
    1.4e-45,
    5e-324,
    float("nan"),
    float("inf"),
    -float("inf"),
    np.float64(0.1),
    np.float32(0.1),
    np.float16(0.1),
    7,
    -(2**60) - 1,
    np.int32(3),
]


def expected(value: object, dtype: type) -> np.ndarray:
    """numpy's conversion of `value` to `dtype`, as one element (a Python number through
    float64, which is exact for these)."""
    source = value if isinstance(value, np.generic) else np.float64(value)
    with np.errstate(all="ignore"):
        return np.array([source]).astype(dtype)


def bits(array: np.ndarray) -> np.ndarray:
    return array.view(f"u{array.dtype.itemsize}")


@pytest.fixture(scope="module")
def device():
    with gpuir.Device("cpu") as opened:
        yield opened


@pytest.fixture(scope="module")
def program(device):
    return device.compile(KERNELS)


def launch_both(device, kernel, value, dtype) -> tuple[np.ndarray, np.ndarray]:
    """`value` stored by a launch on the fast path and by one on a stream."""
    fast, usual = device.empty(1, dtype), device.empty(1, dtype)
    kernel(1, 1, value, fast)
    kernel(1, 1, value, fast)  # the second launch: the launcher exists, the buffer is known
    stream = device.stream()
    kernel(1, 1, value, usual, stream=stream)
    device.synchronize(stream)
    device.destroy_stream(stream)
    return fast.download(), usual.download()


@pytest.mark.parametrize("type_", ["i8", "i16", "i32", "i64", "index"])
def test_integers_are_written_as_the_converters_write_them(device, program, type_):
    dtype = TYPES[type_]
    kernel = program.kernel(f"store_{type_}")
    for value in int_values(dtype):
        fast, usual = launch_both(device, kernel, value, dtype)
        assert fast.tolist() == usual.tolist(), value
        want = (
            int(value)
            if int(value) <= np.iinfo(dtype).max
            else int(value) - 2 ** (8 * np.dtype(dtype).itemsize)
        )
        assert fast.tolist() == [want], value


@pytest.mark.parametrize("type_", ["i8", "i32", "i64"])
def test_an_integer_out_of_range_is_the_same_error_on_either_path(device, program, type_):
    dtype = TYPES[type_]
    kernel = program.kernel(f"store_{type_}")
    out = device.empty(1, dtype)
    kernel(1, 1, 0, out)
    info = np.iinfo(dtype)
    for value in (int(info.max) + 1, int(info.min) - 1, 2**70, "3", 1.5):
        with pytest.raises(TypeError) as fast:
            kernel(1, 1, value, out)
        with pytest.raises(TypeError) as usual:
            kernel(1, 1, value, out, stream=device.stream())
        assert str(fast.value) == str(usual.value)
        assert f"argument 0 of @store_{type_}" in str(fast.value)
    assert out.download().tolist() == [0]  # nothing was launched


def test_i1_takes_0_1_and_booleans_only(device, program):
    kernel = program.kernel("store_i1")
    for value, want in ((0, 0), (1, 1), (True, 1), (np.bool_(False), 0), (np.uint8(1), 1)):
        fast, usual = launch_both(device, kernel, value, np.int8)
        assert fast.tolist() == usual.tolist() == [want], value
    out = device.empty(1, np.int8)
    with pytest.raises(ValueError, match=r"^argument 0 of @store_i1: 2 does not fit in i1"):
        kernel(1, 1, 2, out)
    with pytest.raises(ValueError, match=r"-1 does not fit in i1"):
        kernel(1, 1, -1, out)


@pytest.mark.parametrize("type_", ["f16", "f32", "f64"])
def test_floats_are_rounded_as_numpy_rounds_them(device, program, type_):
    dtype = TYPES[type_]
    kernel = program.kernel(f"store_{type_}")
    for value in FLOAT_VALUES:
        fast, usual = launch_both(device, kernel, value, dtype)
        want = expected(value, dtype)
        assert bits(fast).tolist() == bits(usual).tolist() == bits(want).tolist(), (value, fast)


def test_a_python_float_that_overflows_f32_is_an_infinity_not_an_error(device, program):
    kernel = program.kernel("store_f32")
    out = device.empty(1, np.float32)
    kernel(1, 1, 1e39, out)
    kernel(1, 1, -1e39, out)
    assert out.download().tolist() == [-np.inf]


def test_the_same_buffer_after_free_is_a_use_after_free(device, program):
    kernel = program.kernel("store_f32")
    out = device.empty(1, np.float32)
    kernel(1, 1, 1.0, out)
    kernel(1, 1, 2.0, out)
    out.free()
    with pytest.raises(ProviderError, match=r"use after free: cpu: argument 1 of @store_f32"):
        kernel(1, 1, 3.0, out)


def test_each_launch_writes_into_the_buffer_it_is_given(device, program):
    kernel = program.kernel("store_i32")
    buffers = [device.empty(4, np.int32) for _ in range(3)]
    for buffer in buffers:
        buffer.upload(np.zeros(4, np.int32))
    for round_ in range(3):
        for k, buffer in enumerate(buffers):
            kernel(1, 1, 10 * round_ + k, buffer)
            kernel(1, 1, 10 * round_ + k, buffer[2:])  # a view: another pointer, same memory
    assert [b.download().tolist() for b in buffers] == [[20 + k, 0, 20 + k, 0] for k in range(3)]
    for _ in range(20):  # new buffers, made and dropped: a dead one's memo never matches
        fresh = device.empty(1, np.int32)
        kernel(1, 1, 5, fresh)
        assert fresh.download().tolist() == [5]
        del fresh


def test_concurrent_launches_of_one_kernel_from_threads_each_write_their_own(device, program):
    kernel = program.kernel("store_i64")
    outs = [device.empty(1, np.int64) for _ in range(4)]
    errors: list[BaseException] = []

    def launches(k: int) -> None:
        try:
            for n in range(300):
                kernel(1, 1, k * 1000 + n, outs[k])
                device.synchronize()
                got = outs[k].download().tolist()
                assert got == [k * 1000 + n], (k, n, got)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=launches, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


def block_sum(name: str, items: int) -> str:
    """`@name`: a group's sum of `x` through static shared memory of `items` i32 (the items
    store, a barrier, item 0 adds them up and writes out[0])."""
    smem = f"!mem.ptr<!mem.array<{items} x i32>, 3>"
    return f"""
func.func @{name}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %smem: {smem},
                  %x: !mem.ptr<!mem.array<? x i32>, 1>, %out: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {{gpu.kernel}} {{
  %px = mem.lea %x, %item : !mem.ptr<!mem.array<? x i32>, 1>
  %a1, %v = mem.load %m1, %px : !mem.ptr<i32, 1>
  %ps = mem.lea %smem, %item : {smem}
  %a3 = mem.store %m3, %ps, %v : !mem.ptr<i32, 3>
  %b1, %b3 = gpu.sync_work_items %a1, %a3
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant {items} : index
  %first = arith.cmpi eq, %item, %zero : index
  %r1, %r3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {{
    %z = arith.constant 0 : i32
    %s3, %s = scf.for %k = %zero to %n step %one iter_args(%t3 = %b3, %acc = %z)
        -> (!mem.M<3>, i32) {{
      %pk = mem.lea %smem, %k : {smem}
      %u3, %w = mem.load %t3, %pk : !mem.ptr<i32, 3>
      %acc1 = arith.addi %acc, %w : i32
      scf.yield %u3, %acc1 : !mem.M<3>, i32
    }}
    %po = mem.lea %out, %zero : !mem.ptr<!mem.array<? x i32>, 1>
    %c1 = mem.store %b1, %po, %s : !mem.ptr<i32, 1>
    scf.yield %c1, %s3 : !mem.M<1>, !mem.M<3>
  }} else {{
    scf.yield %b1, %b3 : !mem.M<1>, !mem.M<3>
  }}
  func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}}
"""


def test_a_launcher_keeps_its_shared_memory_when_a_larger_kernel_grows_the_threads():
    """The launcher remembers this thread's shared-memory buffer; a kernel with more shared
    memory makes the thread a larger one, and the smaller stays until `close` (were it given
    back, memory allocated after would be what the first kernel's items store into)."""
    with gpuir.Device("cpu") as device:
        program = device.compile(block_sum("small", 16) + block_sum("large", 8192))
        small, large = program.kernel("small"), program.kernel("large")
        x = device.upload(np.arange(8192, dtype=np.int32))
        out = device.empty(1, np.int32)
        small(1, 16, x, out)
        small(1, 16, x, out)  # the launcher's block holds this thread's (small) buffer now
        assert out.download().tolist() == [120]
        large(1, 1024, x, out)  # 1024 items of 8192 elements: only the first 1024 are stored
        others = [device.upload(np.full(16, 7, np.int32)) for _ in range(64)]
        small(1, 16, x, out)
        device.synchronize()
        assert out.download().tolist() == [120]
        assert all(o.download().tolist() == [7] * 16 for o in others)
