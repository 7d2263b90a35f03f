"""Struct kernel parameters (`!llvm.struct<(…)>` passed by value): their C layout and bytes
(`gpuir.runtime.structs`, checked against `ctypes.Structure`), the cuda provider's argument
format (no GPU needed), and launches through the Python API on `interp` and `cpu`."""

from __future__ import annotations

import ctypes
import struct
from functools import cache

import numpy as np
import pytest
from kernels import if_then, kernel, load, store
from providers import PROVIDERS_WITHOUT_GPU
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IndexType, f16, f32, f64, i1, i8, i16, i32, i64
from xdsl.ir import Attribute

import gpuir
from gpuir.dialects.mem import PtrType
from gpuir.runtime import structs
from gpuir.runtime.cuda import arg_format
from gpuir.runtime.memory import Pointer


def literal(*fields: Attribute) -> llvm.LLVMStructType:
    return llvm.LLVMStructType.from_type_list(list(fields))


PTR = PtrType(f32, 1)
C_TYPES: dict[Attribute, type] = {
    i1: ctypes.c_bool,
    i8: ctypes.c_int8,
    i16: ctypes.c_int16,
    i32: ctypes.c_int32,
    i64: ctypes.c_int64,
    IndexType(): ctypes.c_int64,
    f16: ctypes.c_uint16,  # ctypes has no half; same size and alignment
    f32: ctypes.c_float,
    f64: ctypes.c_double,
    PTR: ctypes.c_void_p,
}


@cache
def c_struct(type_: Attribute) -> type:
    """The `ctypes.Structure` of a struct type: C's layout, for comparison."""
    if type_ in C_TYPES:
        return C_TYPES[type_]
    fields = [(f"f{i}", c_struct(t)) for i, t in enumerate(type_.types.data)]  # type: ignore[attr-defined]
    return type("S", (ctypes.Structure,), {"_fields_": fields})


STRUCTS = [
    literal(f32, f32, i32),
    literal(i32, f32, IndexType()),
    literal(i8, f64),
    literal(i8, i16, i8),
    literal(i1, i64, i8),
    literal(f16, i8, f16),
    literal(i8, literal(i8, f64), i8),
    literal(i32, f32, IndexType(), PTR, literal(i8, f64)),
    literal(literal(i16), literal(i8, i8, i8)),
]


@pytest.mark.parametrize("type_", STRUCTS, ids=str)
def test_layout_is_c_layout(type_: llvm.LLVMStructType):
    c = c_struct(type_)
    shape = structs.layout(type_)
    assert (shape.size, shape.align) == (ctypes.sizeof(c), ctypes.alignment(c))
    assert shape.offsets == tuple(getattr(c, f"f{i}").offset for i in range(len(c._fields_)))


def test_pack_gives_the_bytes_of_the_c_struct():
    type_ = literal(i8, f32, IndexType(), PTR, literal(i1, f64), i16)
    fake = Pointer(None, 0x1234_5678_9ABC, f32)
    value = (-3, np.float32(1.5), 2**40 + 7, fake, (1, np.float64(-0.25)), -2)
    c = c_struct(type_)(
        -3, 1.5, 2**40 + 7, 0x1234_5678_9ABC, c_struct(literal(i1, f64))(1, -0.25), -2
    )
    packed = structs.pack(value, type_, lambda ptr, field: ptr.address)  # type: ignore[attr-defined]
    assert packed == bytes(c)  # ctypes zero-fills its padding, as pack does


def test_pack_wraps_integers_and_rounds_floats_to_the_field():
    type_ = literal(i8, f16, i32)
    packed = structs.pack((-1, np.float16(0.1), -(2**31)), type_, lambda p, f: 0)
    assert packed[0] == 0xFF
    assert packed[2:4] == np.float16(0.1).tobytes()
    assert packed[4:8] == struct.pack("<i", -(2**31))


def test_cuda_format_pads_to_the_struct_alignment():
    """PyCUDA packs the parameters with `struct` (native alignment); a struct's bytes start at
    a multiple of its alignment, as the PTX's `.param .align A .b8 p[size]`."""
    s, n = literal(f32, f32, i32), literal(i8, f64)
    fmt = arg_format([i8, s, PTR, i8, n, f32])
    assert fmt == "Bxxx12sPBxxxxxxx16sf"
    assert struct.calcsize(fmt) == 52


def test_from_python_names_the_argument_and_field():
    type_ = literal(f32, literal(i8, IndexType()))

    def no_pointer(arg: object, field: PtrType, where: str) -> object:
        raise AssertionError

    assert structs.from_python((1, (2, 3)), type_, no_pointer, "argument 0 of @k") == (
        np.float32(1),
        (2, 3),
    )
    with pytest.raises(
        TypeError, match=r"argument 0 of @k is the struct .* of 2 field\(s\), got 3"
    ):
        structs.from_python((1, 2, 3), type_, no_pointer, "argument 0 of @k")
    with pytest.raises(TypeError, match=r"field 1 of argument 0 of @k is the struct"):
        structs.from_python((1, 2), type_, no_pointer, "argument 0 of @k")
    with pytest.raises(TypeError, match=r"field 0 of field 1 of argument 0 of @k \(i8\): 300"):
        structs.from_python((1, (300, 0)), type_, no_pointer, "argument 0 of @k")
    with pytest.raises(TypeError, match=r"pass a tuple of 2 field values"):
        structs.from_python(1.0, type_, no_pointer, "argument 0 of @k")


# --- through the Python API ----------------------------------------------------------------------

ALIASES = """
!params = !llvm.struct<(f32, f32, i32)>
!inner = !llvm.struct<(i8, f64)>
!mixed = !llvm.struct<(i32, index, !mem.ptr<!mem.array<? x f64>, 1>, !inner)>
"""
AFFINE = kernel(
    "affine",
    "%group: index, %item: index, %p: !params,"
    " %a: !mem.ptr<!mem.array<? x f32>, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>",
    """
  %scale = llvm.extractvalue %p[0] : !params
  %bias = llvm.extractvalue %p[1] : !params
  %n32 = llvm.extractvalue %p[2] : !params
  %n = arith.index_cast %n32 : i32 to index
  %inside = arith.cmpi slt, %item, %n : index
"""
    + if_then(
        "%r1",
        "%inside",
        load("%x1, %x", "%m1", "%a", "%item", "f32")
        + """
    %ax = arith.mulf %x, %scale : f32
    %y = arith.addf %ax, %bias : f32
"""
        + store("%y1", "%x1", "%out", "%item", "%y", "f32"),
        "%y1",
    ),
    "%r1, %m3, %m4, %m5",
)
"""`out[item] = scale * a[item] + bias` for `item < n`: the fields of `%p`."""
MIXED = kernel(
    "mixed",
    "%group: index, %item: index, %p: !mixed",
    """
  %k32 = llvm.extractvalue %p[0] : !mixed
  %offset = llvm.extractvalue %p[1] : !mixed
  %out = llvm.extractvalue %p[2] : !mixed
  %small = llvm.extractvalue %p[3, 0] : !mixed
  %big = llvm.extractvalue %p[3, 1] : !mixed
  %k = arith.sitofp %k32 : i32 to f64
  %item32 = arith.index_cast %item : index to i32
  %itemf = arith.sitofp %item32 : i32 to f64
  %smallf = arith.sitofp %small : i8 to f64
  %kx = arith.mulf %k, %itemf : f64
  %v1 = arith.addf %kx, %big : f64
  %v = arith.addf %v1, %smallf : f64
  %at = arith.addi %item, %offset : index
  %po = mem.lea %out, %at : !mem.ptr<!mem.array<? x f64>, 1>
  %n1 = mem.store %m1, %po, %v : !mem.ptr<f64, 1>""",
    "%n1, %m3, %m4, %m5",
)
"""`out[item + offset] = k * item + inner.1 + inner.0`, through the pointer field."""
KERNELS = ALIASES + AFFINE + MIXED


@pytest.mark.parametrize("provider", PROVIDERS_WITHOUT_GPU)
def test_struct_argument_as_tuple_and_structured_scalar(provider: str):
    with gpuir.Device(provider) as device:
        affine = device.compile(KERNELS).kernel("affine")
        a = device.upload(np.arange(1, 9, dtype=np.float32))
        out = device.upload(np.full(8, -1, np.float32))
        affine(1, 8, (2.0, 0.5, 6), a, out)
        assert out.download().tolist() == [2.5, 4.5, 6.5, 8.5, 10.5, 12.5, -1, -1]
        dtype = np.dtype([("scale", np.float32), ("bias", np.float32), ("n", np.int32)])
        params = np.array((-1.0, 3.0, 8), dtype)[()]
        affine(1, 8, params, a, out)
        assert out.download().tolist() == [2, 1, 0, -1, -2, -3, -4, -5]
        assert device.live_allocations() == 2


@pytest.mark.parametrize("provider", PROVIDERS_WITHOUT_GPU)
def test_nested_struct_with_index_and_pointer_fields(provider: str):
    with gpuir.Device(provider) as device:
        mixed = device.compile(KERNELS).kernel("mixed")
        out = device.upload(np.zeros(6, np.float64))
        mixed(1, 4, (3, 2, out, (-1, 0.25)))
        assert out.download().tolist() == [0, 0, -0.75, 2.25, 5.25, 8.25]


@pytest.mark.parametrize("provider", PROVIDERS_WITHOUT_GPU)
def test_wrong_struct_arguments_are_type_errors(provider: str):
    with gpuir.Device(provider) as device:
        affine = device.compile(KERNELS).kernel("affine")
        a = device.upload(np.arange(8, dtype=np.float32))
        with pytest.raises(TypeError, match=r"argument 0 of @affine is the struct .* got 2"):
            affine(1, 8, (2.0, 0.5), a, a)
        with pytest.raises(TypeError, match=r"field 2 of argument 0 of @affine \(i32\)"):
            affine(1, 8, (2.0, 0.5, 1.5), a, a)
        with pytest.raises(TypeError, match=r"field 2 of argument 0 of @mixed is"):
            device.compile(KERNELS).kernel("mixed")(1, 1, (1, 0, 7, (0, 0.0)))


def test_array_pointee_of_pointer_field_must_fit():
    """A pointer field takes a buffer as a pointer argument does (its dtype checked)."""
    with gpuir.Device("interp") as device:
        mixed = device.compile(KERNELS).kernel("mixed")
        wrong = device.upload(np.zeros(4, np.float32))
        with pytest.raises(TypeError, match="field 2 of argument 0 of @mixed"):
            mixed(1, 1, (1, 0, wrong, (0, 0.0)))


# --- the cuda provider on the fake driver of test_cuda_provider (no GPU) -------------------------


def test_cuda_packs_a_struct_into_the_kernels_argument_buffer(monkeypatch):
    """Each launch packs its arguments into the prepared kernel's one buffer (the struct's C
    bytes at their offset) and hands that buffer to PyCUDA's `_launch_kernel`."""
    from test_cuda_provider import FakeDriver

    from gpuir.runtime import cuda
    from gpuir.runtime.cuda import driver_api

    fake = FakeDriver()
    monkeypatch.setattr(driver_api, "driver", lambda: fake)
    real = fake.Module.get_function
    buffers: list[bytearray] = []

    def get_function(module: object, name: str) -> object:
        function = real(module, name)

        def launch_kernel(grid, block, buffer, shared_size, stream) -> None:
            fake.launches.append({"grid": grid, "block": block, "bytes": bytes(buffer)})
            buffers.append(buffer)

        function._launch_kernel = launch_kernel  # noqa: SLF001
        return function

    monkeypatch.setattr(fake.Module, "get_function", get_function)
    with gpuir.Device(cuda.CudaProvider()) as device:
        mixed = device.compile(KERNELS).kernel("mixed")
        out = device.upload(np.zeros(6, np.float64))
        mixed(1, 4, (3, 2, out, (-1, 0.25)))
        mixed(2, 8, (4, 0, out, (5, -1.0)))
        inner = c_struct(literal(i8, f64))
        mixed_type = literal(i32, IndexType(), PTR, literal(i8, f64))
        address = out.pointer.address
        expected = [
            bytes(c_struct(mixed_type)(3, 2, address, inner(-1, 0.25))),
            bytes(c_struct(mixed_type)(4, 0, address, inner(5, -1.0))),
        ]
        assert [launch["bytes"] for launch in fake.launches] == expected
        assert [launch["grid"] for launch in fake.launches] == [(1, 1), (2, 1)]
        assert buffers[0] is buffers[1]
