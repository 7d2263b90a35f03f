"""The memory model (gpuir.runtime.memory) and run-time values (gpuir.runtime.scalars)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)

from gpuir.dialects.gpu import StreamType
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.runtime import memory, scalars
from gpuir.runtime.memory import (
    ADDRESSES,
    Allocation,
    LayoutError,
    Pointer,
    alloc_size,
    size_of,
    store_size,
)
from gpuir.runtime.provider import ProviderError, Stream

DYN = DYNAMIC_INDEX  # `!mem.array<? x T>`


# --- layout --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_", "size", "stored"),
    [
        (i1, 1, 1),
        (i8, 1, 1),
        (IntegerType(16), 2, 2),
        (IntegerType(24), 4, 3),
        (i32, 4, 4),
        (IntegerType(33), 8, 5),
        (i64, 8, 8),
        (IndexType(), 8, 8),
        (f16, 2, 2),
        (f32, 4, 4),
        (f64, 8, 8),
        (PtrType(i32, 1), 8, 8),
        (StreamType(), 8, 8),
        (ArrayType(4, i32), 16, 16),
        (ArrayType(3, ArrayType(5, f16)), 30, 30),
        (ArrayType(2, i1), 2, 2),
    ],
)
def test_layout_is_llvms(type_, size, stored):
    assert size_of(type_) == size
    assert store_size(type_) == stored


def test_dynamic_arrays_need_their_extent():
    array = ArrayType(DYN, ArrayType(3, i32))
    assert alloc_size(array, 5) == 5 * 12
    with pytest.raises(LayoutError):
        size_of(array)
    with pytest.raises(LayoutError):
        alloc_size(array)


def test_tokens_have_no_layout():
    with pytest.raises(LayoutError):
        size_of(MemType(0))


# --- values in memory ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "type_", "raw"),
    [
        (-1, i32, b"\xff\xff\xff\xff"),
        (1, i1, b"\x01"),
        (-2, i8, b"\xfe"),
        (0x123456, IntegerType(24), b"\x56\x34\x12"),
        (np.float32(1.5), f32, np.float32(1.5).tobytes()),
        (np.float16(-2.0), f16, np.float16(-2.0).tobytes()),
    ],
)
def test_encode_decode_round_trip(value, type_, raw):
    assert memory.encode(value, type_) == raw
    decoded = memory.decode(raw, type_)
    assert decoded == value and type(decoded) is type(value)


def test_pointers_and_streams_are_stored_as_8_bytes():
    allocation = Allocation(1, 64, ArrayType(16, i32))
    ptr = Pointer(allocation, 0, ArrayType(16, i32)).lea(3)
    raw = memory.encode(ptr, PtrType(i32, 1))
    assert len(raw) == 8 and int.from_bytes(raw, "little") == allocation.address + 12
    back = memory.decode(raw, PtrType(i32, 1))
    assert back.allocation is allocation and back.offset == 12 and back.pointee == i32
    assert memory.decode(memory.encode(Stream(7), StreamType()), StreamType()) == Stream(7)


def test_an_address_in_no_allocation_reads_back_as_a_wild_pointer():
    back = memory.decode((0).to_bytes(8, "little"), PtrType(i32, 1))
    assert back.allocation is None and back.offset == 0
    with pytest.raises(ProviderError, match="out of bounds: .* address 0x0, which is in no"):
        memory.load(back)


def test_virtual_addresses_are_disjoint_and_never_reused():
    a = Allocation(0, 100, i8)
    b = Allocation(0, 100, i8)
    assert a.address >= memory.VIRTUAL_BASE
    assert b.address >= a.address + 100 + memory.GUARD
    assert ADDRESSES.resolve(a.address + 99) == (a, 99)
    assert ADDRESSES.resolve(a.address + 100)[0] is None  # the guard after a
    a.mark_freed(None)
    assert ADDRESSES.resolve(a.address)[0] is a  # still known: a later access is use after free


# --- accesses ----------------------------------------------------------------------------------


def test_load_and_store_are_bounds_checked():
    array = ArrayType(4, i32)
    ptr = Pointer(Allocation(0, 16, array), 0, array)
    memory.store(ptr.lea(3), -7)
    assert memory.load(ptr.lea(3)) == -7
    with pytest.raises(
        ProviderError,
        match=r"out of bounds: stores 4 bytes to byte offset 16 of a 16-byte host allocation \(bytes 16 to 19, valid 0 to 15\)",
    ) as e:
        memory.store(ptr.lea(4), 1)
    assert e.value.name == "out of bounds"
    with pytest.raises(ProviderError, match="out of bounds: loads 4 bytes from byte offset -4"):
        memory.load(ptr.lea(-1))


def test_a_wide_access_that_straddles_the_end_is_out_of_bounds():
    allocation = Allocation(1, 6, i8)
    with pytest.raises(ProviderError, match="bytes 4 to 7, valid 0 to 5"):
        memory.load(Pointer(allocation, 4, i32))


def test_access_after_free_is_use_after_free():
    ptr = Pointer(Allocation(1, 4, i32), 0, i32)
    memory.free(ptr, None, 1)
    with pytest.raises(
        ProviderError, match="use after free: loads 4 bytes from a 4-byte global allocation, freed"
    ) as e:
        memory.load(ptr)
    assert e.value.name == "use after free"


def test_free_checks_its_pointer():
    array = ArrayType(4, i32)
    allocation = Allocation(1, 16, array)
    ptr = Pointer(allocation, 0, array)
    with pytest.raises(ProviderError, match="frees byte offset 4 of .*, not its start"):
        memory.free(ptr.lea(1), None, 1)
    with pytest.raises(ProviderError, match="as host memory"):
        memory.free(ptr, None, 0)
    memory.free(ptr, None, 1)
    with pytest.raises(ProviderError, match="use after free: frees .* a second time"):
        memory.free(ptr, None, 1)
    with pytest.raises(ProviderError, match="frees a null pointer"):
        memory.free(memory.null_pointer(i32), None, 1)


def test_extent_bytes_of_a_dynamic_array_is_what_its_allocation_holds():
    array = ArrayType(DYN, i32)
    ptr = Pointer(Allocation(1, 40, array, 10), 0, array)
    assert ptr.extent_bytes() == 40
    inner = Pointer(ptr.allocation, 8, array)
    assert inner.extent_bytes() == 32
    assert Pointer(ptr.allocation, 0, ArrayType(3, i32)).extent_bytes() == 12


def test_real_addresses_for_compiled_host_code():
    a = Allocation(1, 0, i32, real_address=True)
    b = Allocation(1, 0, i32, real_address=True)
    assert a.address == a.data.ctypes.data and a.address != b.address
    assert ADDRESSES.resolve(a.address) == (a, 0)


def test_device_memory_of_a_real_device_has_no_host_bytes():
    allocation = Allocation(1, 16, i32, host_visible=False, address=0x7F00_0000_0000)
    assert allocation.data is None and allocation.address == 0x7F00_0000_0000
    with pytest.raises(ProviderError, match="cannot access .* from the host"):
        memory.load(Pointer(allocation, 0, i32))


# --- scalars -------------------------------------------------------------------------------------


def test_wrap_signed_unsigned():
    assert scalars.wrap(2**31, 32) == -(2**31)
    assert scalars.wrap(-1, 1) == 1 and scalars.wrap(2, 1) == 0
    assert scalars.unsigned(-1, 8) == 255
    assert scalars.signed(1, 1) == -1
    assert scalars.wrap(2**64 + 5, 64) == 5


def test_parse_integers():
    assert scalars.parse("0x10", i32) == 16
    assert scalars.parse("-5", i8) == -5
    assert scalars.parse("0xff", i8) == -1  # a bit pattern, read signed
    assert scalars.parse("true", i1) == 1
    assert scalars.parse("007", i32) == 7
    with pytest.raises(ValueError, match=r"^200 does not fit in i8 \(from -128 to 127; a bit "):
        scalars.parse("200", i8)  # a number out of range, not a bit pattern
    with pytest.raises(ValueError, match=r"256 does not fit in i8 \(from -128 to 127"):
        scalars.parse("0x100", i8)
    with pytest.raises(ValueError, match=r"^2 does not fit in i1 \(from 0 to 1\)$"):
        scalars.parse("2", i1)
    with pytest.raises(ValueError, match="'1.5' is not an integer"):
        scalars.parse("1.5", IndexType())


def test_parse_floats_rounds_once():
    # 1 + 2**-24 + 2**-80: a hair above the f32 halfway point between 1 and 1 + 2**-23. Through
    # f64 it becomes exactly the halfway point, which would round (to even) down to 1.
    exact = Fraction(1) + Fraction(1, 2**24) + Fraction(1, 2**80)
    text = _decimal(exact)
    assert np.float32(float(text)) == np.float32(1.0)  # the double rounding
    assert scalars.parse(text, f32) == np.float32(1 + 2**-23)
    assert scalars.parse("0.1", f64) == 0.1
    assert np.isinf(scalars.parse("-inf", f32)) and scalars.parse("-inf", f32) < 0
    assert np.isnan(scalars.parse("nan", f16))
    assert scalars.parse("0x1.8p1", f64) == 3.0
    assert str(scalars.parse("-0", f32)) == "-0.0"
    assert np.isinf(scalars.parse("1e39", f32))
    assert scalars.parse("3.4028235e38", f32) == np.finfo(np.float32).max


def _decimal(exact: Fraction) -> str:
    """The exact decimal expansion of a dyadic rational."""
    digits = 0
    while (exact * 10**digits).denominator != 1:
        digits += 1
    scaled = exact * 10**digits
    whole = str(scaled.numerator).rjust(digits + 1, "0")
    return f"{whole[:-digits]}.{whole[-digits:]}"


def test_int_to_float_rounds_once():
    value = 2**60 + 2**36 + 1  # just above the f32 halfway point between 2**60 and 2**60 + 2**37
    assert np.float32(float(value)) == np.float32(2**60)  # through f64: a tie, rounded to even
    assert scalars.int_to_float(value, np.float32) == np.float32(2**60 + 2**37)


@pytest.mark.parametrize(
    ("value", "type_", "text"),
    [
        (-3, i32, "-3"),
        (1, i1, "1"),
        (np.float32(0.1), f32, "0.1"),
        (np.float64(0.1) + np.float64(0.2), f64, "0.30000000000000004"),
        (np.float32(16777216.0), f32, "1.6777216e+07"),
        (np.float16(0.1) + np.float16(0.2), f16, "0.2998"),
        (np.float32("inf"), f32, "inf"),
    ],
)
def test_format_value(value, type_, text):
    assert scalars.format_value(value, type_) == text


def test_to_numpy_and_from_python():
    assert type(scalars.to_numpy(-1, i32)) is np.int32
    assert scalars.to_numpy(1, i1) == np.bool_(True)
    assert type(scalars.to_numpy(5, IndexType())) is np.int64
    assert scalars.from_python(np.uint32(0xFFFFFFFF), i32) == -1
    assert scalars.from_python(True, i1) == 1
    assert (
        scalars.from_python(1, f32) == np.float32(1)
        and type(scalars.from_python(1, f32)) is np.float32
    )
    assert scalars.from_python(np.float64(0.1), f32) == np.float32(0.1)
    with pytest.raises(ValueError, match="expected an integer"):
        scalars.from_python(1.5, i32)
    with pytest.raises(ValueError, match="does not fit"):
        scalars.from_python(2**40, i32)
