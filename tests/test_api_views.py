"""Views of device buffers (`Buffer.view`, slicing, `.T`, `broadcast_to`, `as_strided`): they
allocate nothing, transfer dense, and kernels consume them through their layout. On `interp` and
`cpu`, and on the `cuda` provider over a fake driver (device memory in bytearrays, no kernel
runs), so that its addresses and interfaces are checked without a GPU."""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest

import gpuir
from gpuir.api import Buffer, Device
from gpuir.runtime.cuda import CudaProvider, driver_api
from gpuir.runtime.layout import Layout
from gpuir.runtime.provider import ProviderError

PROVIDERS = ["interp", "cpu"]

KERNELS = """
// out[r * cols + c] = src[r * s0 + c * s1]: a 2-D view of any layout, gathered dense; one
// work-group per row, one work-item per column.
func.func @gather2d(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %r: index, %c: index,
                    %src: !mem.ptr<!mem.array<? x f32>, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>,
                    %cols: index, %s0: index, %s1: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a = arith.muli %r, %s0 : index
  %b = arith.muli %c, %s1 : index
  %i = arith.addi %a, %b : index
  %ps = mem.lea %src, %i : !mem.ptr<!mem.array<? x f32>, 1>
  %m1a, %v = mem.load %m1, %ps : !mem.ptr<f32, 1>
  %row = arith.muli %r, %cols : index
  %j = arith.addi %row, %c : index
  %po = mem.lea %out, %j : !mem.ptr<!mem.array<? x f32>, 1>
  %m1b = mem.store %m1a, %po, %v : !mem.ptr<f32, 1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// dst[r * s0 + c * s1] = 10 * r + c: a write through a view's layout.
func.func @fill2d(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %r: index, %c: index,
                  %dst: !mem.ptr<!mem.array<? x i32>, 1>, %s0: index, %s1: index)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %a = arith.muli %r, %s0 : index
  %b = arith.muli %c, %s1 : index
  %i = arith.addi %a, %b : index
  %pd = mem.lea %dst, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %ten = arith.constant 10 : index
  %tens = arith.muli %r, %ten : index
  %value = arith.addi %tens, %c : index
  %v = arith.index_cast %value : index to i32
  %m1a = mem.store %m1, %pd, %v : !mem.ptr<i32, 1>
  func.return %m1a, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// out[g] = *x: a view's first element through an element pointer.
func.func @first(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                 %g: index, %item: index,
                 %x: !mem.ptr<f32, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %m1a, %v = mem.load %m1, %x : !mem.ptr<f32, 1>
  %po = mem.lea %out, %g : !mem.ptr<!mem.array<? x f32>, 1>
  %m1b = mem.store %m1a, %po, %v : !mem.ptr<f32, 1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

// y[i] = 2 * x[i] over a dense (or contiguous) 4 x 4 array.
func.func @double16(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %g: index, %item: index,
                    %x: !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>,
                    %y: !mem.ptr<!mem.array<? x f32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %row = mem.lea %x, %g : !mem.ptr<!mem.array<4 x !mem.array<4 x f32>>, 1>
  %px = mem.lea %row, %item : !mem.ptr<!mem.array<4 x f32>, 1>
  %m1a, %v = mem.load %m1, %px : !mem.ptr<f32, 1>
  %two = arith.constant 2.0 : f32
  %d = arith.mulf %v, %two : f32
  %four = arith.constant 4 : index
  %base = arith.muli %g, %four : index
  %i = arith.addi %base, %item : index
  %py = mem.lea %y, %i : !mem.ptr<!mem.array<? x f32>, 1>
  %m1b = mem.store %m1a, %py, %d : !mem.ptr<f32, 1>
  func.return %m1b, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""


def random_view(rng: random.Random, buffer: Buffer, host: np.ndarray) -> tuple[Buffer, np.ndarray]:
    """The same random view of a device buffer and of its host copy."""
    view, expected = buffer, host
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["slice", "slice", "T", "broadcast", "as_strided"])
        if kind == "slice":
            index = tuple(
                slice(rng.choice([None, rng.randint(-e, e)]), None, rng.choice([1, 2, -1, -3]))
                if e == 0 or rng.random() < 0.8
                else rng.randint(-e, e - 1)
                for e in expected.shape[: rng.randint(0, expected.ndim)]
            )
            view, expected = view[index], expected[(*index, ...)]
        elif kind == "T":
            view, expected = view.T, expected.T
        elif kind == "broadcast":
            shape = (rng.randint(1, 3), *expected.shape)
            view, expected = view.broadcast_to(shape), np.broadcast_to(expected, shape)
        else:
            shape = (rng.randint(0, 3), rng.randint(0, 3))
            strides = (rng.randint(0, 3), rng.randint(0, 3))
            reach = sum((e - 1) * s for e, s in zip(shape, strides, strict=True)) + 1
            if 0 in shape or view.offset + reach > buffer.size:
                continue
            step = host.itemsize
            view = view.as_strided(shape, strides)
            expected = np.lib.stride_tricks.as_strided(
                host.reshape(-1)[view.offset :], shape, [s * step for s in strides]
            )
    return view, expected


@pytest.mark.parametrize("provider", PROVIDERS)
def test_views_allocate_nothing(provider, monkeypatch):
    with Device(provider) as device:
        owner = device.upload(np.arange(24, dtype=np.float32).reshape(4, 6))
        made = []
        monkeypatch.setattr(device.provider, "alloc", lambda *a, **k: made.append(a))
        monkeypatch.setattr(device.provider, "new_allocation", lambda *a, **k: made.append(a))
        live = device.live_allocations()
        views = [owner[1:, ::2], owner.T, owner[:, 0].broadcast_to((3, 4)),
                 owner.as_strided((2, 2), (1, 6), 5), owner.view(Layout.dense(24)), owner[::-1][2]]  # fmt: skip
        for view in views:
            assert view.pointer is owner.pointer and view.base is owner
            view.download()
            np.asarray(view)
        assert made == [] and device.live_allocations() == live == 1
        assert owner.T.T.base is owner  # a view of a view: the storage's owner


@pytest.mark.parametrize("provider", PROVIDERS)
def test_random_views_download_what_numpy_views_hold(provider):
    rng = random.Random(2)
    with Device(provider) as device:
        host = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
        buffer = device.upload(host)
        for _ in range(150):
            view, expected = random_view(rng, buffer, host)
            got = view.download()
            assert got.shape == expected.shape and got.dtype == np.int32
            assert np.array_equal(got, expected), (view, expected)
            assert got.flags["C_CONTIGUOUS"] and got.flags["OWNDATA"]
            assert np.array_equal(np.asarray(view), expected)  # host-visible: no copy


@pytest.mark.parametrize("provider", PROVIDERS)
def test_uploads_write_through_the_layout(provider):
    rng = random.Random(3)
    with Device(provider) as device:
        host = np.zeros((6, 7), np.float64)
        buffer = device.upload(host)
        for n in range(60):
            index = (slice(rng.randint(0, 5), None, rng.choice([1, 2, -1])),
                     slice(rng.choice([None, 6, 1]), None, rng.choice([1, 3, -2])))  # fmt: skip
            if rng.random() < 0.5:
                index = index[::-1]
                view, target = buffer.T[index], host.T[index]
            else:
                view, target = buffer[index], host[index]
            values = np.full(target.shape, n + 1.0) + np.arange(target.size).reshape(target.shape)
            view.upload(values)
            target[...] = values
            assert np.array_equal(buffer.download(), host)
        buffer[2].upload(np.arange(7))  # contiguous: one copy of its own bytes
        host[2] = np.arange(7)
        assert np.array_equal(buffer.download(), host)
        empty = buffer[6:, 2:]  # no elements: nothing moves
        empty.upload(np.zeros((0, 5)))
        assert empty.download().shape == (0, 5) and np.array_equal(buffer.download(), host)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_read_only_and_misfitting_views_are_errors(provider):
    with Device(provider) as device:
        buffer = device.upload(np.arange(16, dtype=np.float32))
        row = buffer[:4]
        with pytest.raises(ValueError, match=r"is a broadcast \(stride 0\), .* read-only"):
            row.broadcast_to((2, 4)).upload(np.zeros((2, 4)))
        with pytest.raises(ValueError, match="is overlapping, .* read-only"):
            buffer.as_strided((3, 2), (1, 2)).upload(np.zeros((3, 2)))
        with pytest.raises(ValueError, match=r"cannot upload an array of shape \(4,\)"):
            buffer[::2].upload(np.zeros(4))
        with pytest.raises(
            ValueError,
            match=r"Layout\(shape=\(5,\), strides=\(4,\), offset=0\) reaches 17 elements, but "
            r"Buffer\(\(16,\), float32, on \w+\) holds 16 elements",
        ):
            buffer.as_strided(5, 4)
        with pytest.raises(ValueError, match="reaches 18 elements"):
            buffer[2:].as_strided((4, 4), (4, 1))
        with pytest.raises(IndexError, match="index 16 is out of bounds for axis 0 with size 16"):
            buffer[16]
        with pytest.raises(
            TypeError, match="a view takes a gpuir.runtime.layout.Layout, got tuple"
        ):
            buffer.view((4, 4))
        assert not np.asarray(row.broadcast_to((2, 4))).flags["WRITEABLE"]
        assert np.asarray(buffer[::4]).flags["WRITEABLE"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_views_of_a_freed_buffer_fail_cleanly(provider):
    device = Device(provider).open()
    buffer = device.upload(np.arange(8, dtype=np.float32))
    view = buffer[1::2]
    row = view[None].strided()  # made while the buffer is live
    with pytest.raises(ValueError, match=r"cannot free Buffer view\(.*\): a view owns no memory"):
        view.free()
    assert view.download().tolist() == [1, 3, 5, 7]
    buffer.free()
    with pytest.raises(ProviderError, match="use after free"):
        view.download()
    with pytest.raises(ProviderError, match="use after free"):
        view.upload(np.zeros(4))
    with pytest.raises(ProviderError, match=r"use after free: Buffer\(\(8,\), .*\) was freed"):
        buffer[2:]
    with pytest.raises(AttributeError, match="not host-visible"):
        view.__array_interface__  # noqa: B018
    kernel = device.compile(KERNELS).kernel("gather2d")
    out = device.empty(4, np.float32)
    tail = out[1:]
    with pytest.raises(ProviderError, match="use after free"):
        kernel(1, 4, row, out, 4, 0, 2)
        device.synchronize()
    device.close()
    with pytest.raises(ProviderError, match="needs an open device"):
        tail.download()
    with pytest.raises(ProviderError, match="was freed .* or by closing its device"):
        out[1:]


def test_interfaces_report_strides_in_bytes():
    with Device("interp") as device:
        buffer = device.upload(np.arange(12, dtype=np.float32).reshape(3, 4))
        interface = buffer[1:, ::-2].__array_interface__
        base = buffer.__array_interface__["data"][0]
        assert interface["shape"] == (2, 2) and interface["strides"] == (16, -8)
        assert interface["data"] == (base + 7 * 4, False)
        assert buffer.__array_interface__["strides"] is None
        assert buffer.strides == (4, 1) and buffer.T.strides == (1, 4)
        array = np.asarray(buffer.T)
        buffer.upload(np.zeros((3, 4)))
        assert not array.any()  # the same bytes


# --- kernels consume layouts ---------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_layout_aware_kernel_reads_any_view(provider):
    rng = random.Random(4)
    with Device(provider) as device:
        gather = device.compile(KERNELS).kernel("gather2d")
        host = rng.random() * np.arange(70, dtype=np.float32).reshape(7, 10)
        buffer = device.upload(host)
        cases = [
            (buffer.T, host.T),
            (buffer[1:6:2, ::-3], host[1:6:2, ::-3]),
            (buffer[::-1, 4:].T, host[::-1, 4:].T),
            (buffer[3].broadcast_to((5, 10)), np.broadcast_to(host[3], (5, 10))),
            (
                buffer[2:, 1].as_strided((3, 4), (1, 10), 1),  # element 22 + i + 10 j
                np.lib.stride_tricks.as_strided(host.reshape(-1)[22:], (3, 4), (4, 40)),
            ),
        ]
        for view, expected in cases:
            rows, cols = view.shape
            out = device.empty(rows * cols, np.float32)
            gather(rows, cols, view.strided(), out, cols, *view.strides)
            device.synchronize()
            assert np.array_equal(out.download().reshape(rows, cols), expected), view


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_layout_aware_kernel_writes_through_a_view(provider):
    with Device(provider) as device:
        fill = device.compile(KERNELS).kernel("fill2d")
        buffer = device.upload(np.full((6, 8), -1, np.int32))
        view = buffer[4:0:-2, 1::3].T
        fill(3, 2, view.strided(), *view.strides)
        expected = np.full((6, 8), -1, np.int32)
        expected[4:0:-2, 1::3].T[...] = 10 * np.arange(3)[:, None] + np.arange(2)
        assert np.array_equal(buffer.download(), expected)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_pointer_parameters_get_the_first_element(provider):
    with Device(provider) as device:
        program = device.compile(KERNELS)
        first, double = program.kernel("first"), program.kernel("double16")
        host = np.arange(40, dtype=np.float32).reshape(5, 8)
        buffer = device.upload(host)
        out = device.empty(1, np.float32)
        for view, expected in [(buffer[3, 5], 29), (buffer[2:, ::-1], 23), (buffer.T[4], 4)]:
            first(1, 1, view, out)
            assert out.download().tolist() == [expected]
        # a dense array parameter: a contiguous view of enough elements, from its first element
        y = device.empty(16, np.float32)
        double(4, 4, buffer[1:3], y)
        assert np.array_equal(y.download(), 2 * host[1:3].reshape(-1))
        double(4, 4, buffer.view(Layout.dense((4, 4), offset=20)), y)
        assert np.array_equal(y.download(), 2 * host.reshape(-1)[20:36])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_strided_views_must_say_so(provider):
    with Device(provider) as device:
        program = device.compile(KERNELS)
        gather, double = program.kernel("gather2d"), program.kernel("double16")
        buffer = device.upload(np.zeros((8, 8), np.float32))
        out = device.empty(64, np.float32)
        with pytest.raises(
            TypeError,
            match=r"argument 0 of @gather2d is !mem.ptr<!mem.array<\? x f32>, 1>, an array, but "
            r"the view's Layout\(shape=\(8, 8\), strides=\(1, 8\), offset=0\) is not "
            r"contiguous; pass the strides explicitly: view.strided\(\)",
        ):
            gather(8, 8, buffer.T, out, 8, 1, 8)
        with pytest.raises(TypeError, match="argument 0 of @double16 is .*: a strided"):
            double(4, 4, buffer.strided(), out)
        with pytest.raises(TypeError, match=r"argument 0 of @double16 is .* \(64 bytes\), got"):
            double(4, 4, buffer[7], out)
        with pytest.raises(TypeError, match="argument 0 of @double16 is .*, an array, but"):
            double(4, 4, buffer[:4, :4], out)
        with pytest.raises(TypeError, match="pass a Buffer, got str"):
            gather(8, 8, "x", out, 8, 8, 1)


# --- the cuda provider, on a fake driver ------------------------------------------------------


@pytest.fixture
def fake_cuda(monkeypatch):
    from test_cuda_provider import FakeDriver

    driver = FakeDriver()
    monkeypatch.setattr(driver_api, "driver", lambda: driver)
    return driver


def test_cuda_views_transfer_and_launch_by_address(fake_cuda):
    with Device(CudaProvider()) as device:
        host = np.arange(30, dtype=np.float32).reshape(5, 6)
        buffer = device.upload(host)
        assert len(fake_cuda.memory) == 1
        for view, expected in [(buffer.T, host.T), (buffer[::-2, 1:4], host[::-2, 1:4])]:
            assert np.array_equal(view.download(), expected)
        buffer[1::2, ::3].upload(-np.ones((2, 2)))
        host[1::2, ::3] = -1
        assert np.array_equal(buffer.download(), host)
        assert len(fake_cuda.memory) == 1 and device.live_allocations() == 1

        base = buffer.pointer.allocation.address
        interface = buffer[4:, ::-1].__cuda_array_interface__
        assert interface["data"] == (base + 29 * 4, False)
        assert interface["shape"] == (1, 6) and interface["strides"] == (24, -4)
        assert buffer[1:3].__cuda_array_interface__["strides"] is None
        assert buffer[0].broadcast_to((2, 6)).__cuda_array_interface__["data"][1]  # read-only

        gather = device.compile(KERNELS).kernel("gather2d")
        out = device.empty(6, np.float32)
        view = buffer[3:, ::2].T
        gather(3, 2, view.strided(), out, 2, *view.strides)
        launch = fake_cuda.launches[-1]
        args = struct.unpack(launch["format"], launch["buffer"])
        assert args[-5:] == (base + 18 * 4, out.pointer.allocation.address, 2, 2, 6)
        with pytest.raises(AttributeError, match="not host-visible"):
            view.__array_interface__  # noqa: B018


def test_gpuir_exports_layout():
    assert gpuir.Layout is Layout


def test_gpu_views_on_a_cuda_device():
    """The same on a real device (skipped without PyCUDA and a CUDA device)."""
    pytest.importorskip("pycuda", reason="PyCUDA is not installed")
    reason = CudaProvider.unavailable_reason()
    if reason is not None:
        pytest.skip(f"the cuda provider is not available: {reason}")
    with Device("cuda") as device:
        host = np.arange(70, dtype=np.float32).reshape(7, 10)
        buffer = device.upload(host)
        live = device.live_allocations()
        view = buffer[1:6:2, ::-3].T
        assert np.array_equal(view.download(), host[1:6:2, ::-3].T)
        assert device.live_allocations() == live
        gather = device.compile(KERNELS).kernel("gather2d")
        rows, cols = view.shape
        out = device.empty(rows * cols, np.float32)
        gather(rows, cols, view.strided(), out, cols, *view.strides)
        device.synchronize()
        assert np.array_equal(out.download().reshape(rows, cols), host[1:6:2, ::-3].T)
        buffer[::2, 1::4].upload(np.full((4, 3), -1.0))
        host[::2, 1::4] = -1
        assert np.array_equal(buffer.download(), host)


@pytest.mark.parametrize("provider", ["cpu", "interp"])
def test_host_visible_buffers_speak_dlpack_and_numpy(provider):
    with Device(provider) as device:
        host = np.arange(12, dtype=np.float32).reshape(3, 4)
        buffer = device.upload(host)
        assert len(buffer) == 3 and len(buffer.T) == 4
        assert buffer.__dlpack_device__() == (1, 0)
        shared = np.from_dlpack(buffer)  # no copy: a write shows in the device buffer
        shared[1, 2] = -7
        host[1, 2] = -7
        assert np.array_equal(buffer.download(), host)
        view = np.from_dlpack(buffer[1:, ::2])  # a strided view, still without a copy
        assert np.array_equal(view, host[1:, ::2])
        view[0, 0] = 99
        assert buffer.download()[1, 0] == 99
        copied = np.array(buffer)  # __array_interface__, then numpy's own copy
        copied[0, 0] = 1234
        assert buffer.download()[0, 0] == 0
        assert (
            np.asarray(buffer).__array_interface__["data"][0]
            == (buffer.__array_interface__["data"][0])
        )
        with pytest.raises(TypeError, match="has no dimension"):
            len(buffer[0, 0])


def test_cuda_buffers_export_dlpack_tensors_of_the_device_bytes(fake_cuda):
    """A cuda buffer's DLPack capsule: a kDLCUDA tensor of its device bytes (a view's first
    element, its strides in elements), which keeps the buffer alive until it is released."""
    import ctypes

    from gpuir.runtime import dlpack

    with Device(CudaProvider()) as device:
        buffer = device.upload(np.arange(30, dtype=np.int32).reshape(5, 6))
        assert buffer.__dlpack_device__() == (2, 0)
        base = buffer.pointer.allocation.address
        for view, data, strides in [
            (buffer, base, None),
            (buffer[4:, ::-1], base + 29 * 4, (6, -1)),
        ]:
            capsule = view.__dlpack__(stream=None)
            pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
                ("PyCapsule_GetPointer", ctypes.pythonapi)
            )
            tensor = dlpack.DLManagedTensor.from_address(pointer(capsule, b"dltensor")).dl_tensor
            assert (tensor.device.device_type, tensor.device.device_id) == (dlpack.KDL_CUDA, 0)
            assert tensor.data == data and tensor.byte_offset == 0
            assert (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) == (0, 32, 1)
            assert [tensor.shape[i] for i in range(tensor.ndim)] == list(view.shape)
            found = None if strides is None else tuple(tensor.strides[i] for i in range(2))
            assert found == strides
            assert len(dlpack._alive) == 1  # the tensor, its shape and the buffer live on
            del capsule  # never consumed: the capsule lets them go
            assert len(dlpack._alive) == 0
        assert np.array_equal(np.asarray(buffer), np.arange(30).reshape(5, 6))  # a download
