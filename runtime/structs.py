"""Struct kernel arguments (`!llvm.struct<(f32, f32, i32)>`): their values, their bytes.

A struct value at run time is a Python tuple of its fields' values (`gpuir.runtime.scalars`'
scalars, `memory.Pointer`s for `!mem.ptr<T, 1>` fields, tuples for nested structs), in the
host executor, in `interp` kernels and across the provider interface.

A provider passes a struct argument as its bytes, laid out as C lays out the same struct
(LLVM's default data layout, NVPTX's and x86-64's alike): each field aligned to its size
(`i1`/`i8` 1, `i16`/`f16` 2, `i32`/`f32` 4, `i64`/`index`/`f64`/pointers 8, a nested struct to
its largest field), the size rounded up to the struct's alignment. `layout` computes that once
per type, `pack` fills the bytes (`cpu`: behind the argument's slot; `cuda`: in the prepared
parameter buffer), `from_python` is what the Python API takes (a tuple, or a numpy structured
scalar, of field values).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
from xdsl.ir import Attribute

from gpuir.dialects.gpu import struct_fields
from gpuir.dialects.mem import PtrType
from gpuir.runtime.scalars import float_dtype, int_width
from gpuir.runtime.scalars import from_python as scalar_from_python

POINTER_SIZE = 8


def is_struct(type_: Attribute) -> bool:
    return struct_fields(type_) is not None


@dataclass(frozen=True)
class Layout:
    """Bytes, alignment and field offsets of a struct (or the size and alignment of a field)."""

    size: int
    align: int
    offsets: tuple[int, ...] = ()
    fields: tuple[Attribute, ...] = ()


@cache
def layout(type_: Attribute) -> Layout:
    """The C layout of a struct or field type (module docstring); a `ValueError` for a type
    that has none (a token, an array, a host pointer is not rejected here: the launch
    verifier does that)."""
    fields = struct_fields(type_)
    if fields is None:
        if isinstance(type_, PtrType):
            return Layout(POINTER_SIZE, POINTER_SIZE)
        if (width := int_width(type_)) is not None:
            size = 1 << max((width + 7) // 8 - 1, 0).bit_length()
            return Layout(size, size)
        if (dtype := float_dtype(type_)) is not None:
            size = np.dtype(dtype).itemsize
            return Layout(size, size)
        raise ValueError(f"a struct field of type {type_} has no layout")
    offsets = []
    offset, align = 0, 1
    for field in fields:
        inner = layout(field)
        offset = -(-offset // inner.align) * inner.align
        offsets.append(offset)
        offset += inner.size
        align = max(align, inner.align)
    return Layout(-(-offset // align) * align, align, tuple(offsets), fields)


def pack_into(
    buffer: bytearray | memoryview | np.ndarray,
    offset: int,
    value: tuple,
    type_: Attribute,
    address: Callable[[object, int], int],
) -> None:
    """Write the struct `value` of `type_` into `buffer` at `offset` (its padding is left as
    it is). `address(pointer, field)` gives the device address of a pointer field."""
    shape = layout(type_)
    view = memoryview(buffer).cast("B") if not isinstance(buffer, memoryview) else buffer
    for i, (field_value, field, at) in enumerate(
        zip(value, shape.fields, shape.offsets, strict=True)
    ):
        start = offset + at
        if is_struct(field):
            pack_into(view, start, field_value, field, address)  # type: ignore[arg-type]
            continue
        size = layout(field).size
        if isinstance(field, PtrType):
            raw = address(field_value, i) & (2**64 - 1)
        elif (width := int_width(field)) is not None:
            raw = field_value & ((1 << width) - 1) if width > 1 else field_value & 1  # type: ignore[operator]
        else:
            dtype = float_dtype(field)
            assert dtype is not None
            raw = int(np.array(field_value, dtype).view(f"u{size}"))
        view[start : start + size] = raw.to_bytes(size, "little")


def pack(value: tuple, type_: Attribute, address: Callable[[object, int], int]) -> bytes:
    """The bytes of the struct `value` of `type_` (padding zeroed)."""
    out = bytearray(layout(type_).size)
    pack_into(out, 0, value, type_, address)
    return bytes(out)


def undef(type_: Attribute) -> object:
    """The value `llvm.mlir.undef` / `llvm.mlir.zero` gives a struct or field: zeros (any value
    is a valid undef); a pointer field is the null pointer."""
    from gpuir.runtime.memory import Pointer

    fields = struct_fields(type_)
    if fields is not None:
        return tuple(undef(field) for field in fields)
    if isinstance(type_, PtrType):
        return Pointer(None, 0, type_.pointee)
    if (dtype := float_dtype(type_)) is not None:
        return dtype(0)
    return 0


def from_python(
    value: object, type_: Attribute, pointer: Callable[[object, PtrType, str], object], where: str
) -> tuple:
    """A Python tuple (or list, or numpy structured scalar) of field values as the run-time
    value of the struct `type_`; a `TypeError` that names `where` and the field. `pointer`
    converts a pointer field (a `Buffer`)."""
    fields = struct_fields(type_)
    assert fields is not None
    if isinstance(value, np.void) and value.dtype.names is not None:
        value = tuple(value.item())
    if not isinstance(value, tuple | list):
        raise TypeError(
            f"{where} is the struct {type_}: pass a tuple of {len(fields)} field values "
            f"(or a numpy structured scalar), got {type(value).__name__}"
        )
    if len(value) != len(fields):
        raise TypeError(
            f"{where} is the struct {type_} of {len(fields)} field(s), got {len(value)} value(s)"
        )
    converted: list[object] = []
    for i, (field_value, field) in enumerate(zip(value, fields, strict=True)):
        field_where = f"field {i} of {where}"
        if is_struct(field):
            converted.append(from_python(field_value, field, pointer, field_where))
        elif isinstance(field, PtrType):
            converted.append(pointer(field_value, field, field_where))
        else:
            try:
                converted.append(scalar_from_python(field_value, field))
            except ValueError as e:
                raise TypeError(f"{field_where} ({field}): {e}") from None
    return tuple(converted)
