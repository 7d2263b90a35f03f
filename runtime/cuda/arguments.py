"""Kernel arguments on the cuda provider: the `struct` format PyCUDA packs a kernel's parameters
with, each value as it is packed, and the dynamic shared memory a kernel needs (pure functions,
tested without a GPU)."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Attribute

from gpuir.dialects.gpu import smem_param
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.runtime import structs
from gpuir.runtime.memory import Pointer, size_of
from gpuir.runtime.scalars import float_dtype, int_width, unsigned


def arg_format(types: Sequence[Attribute]) -> str:
    """The `struct` format (native alignment, as PyCUDA's `Function.prepare` takes it) of a
    kernel's parameters: `P` for pointers, `Q` for `index`, `B`/`H`/`I`/`Q` for `i1`/`i8`,
    `i16`, `i32`, `i64`, `H` for `f16` (its bits), `f`, `d`; a struct is its bytes (`12s`),
    after `x` pad bytes up to its alignment (`gpuir.runtime.structs.layout`: the
    `.param .align A .b8 name[size]` of the PTX). A `ValueError` names a type that cannot be
    passed."""
    fmt = ""
    for type_ in types:
        if structs.is_struct(type_):
            shape = structs.layout(type_)
            fmt += "x" * (-struct.calcsize(fmt) % shape.align) + f"{shape.size}s"
        else:
            fmt += _arg_char(type_)
    return fmt


def _arg_char(type_: Attribute) -> str:
    if isinstance(type_, PtrType):
        return "P"
    if (width := int_width(type_)) is not None:
        chars = {1: "B", 8: "B", 16: "H", 32: "I", 64: "Q"}
        if width not in chars:
            raise ValueError(
                f"the cuda provider passes integer kernel arguments of 1, 8, 16, 32 or 64 bits, "
                f"not {type_}"
            )
        return chars[width]
    dtype = float_dtype(type_)
    if dtype is np.float16:
        return "H"
    if dtype is np.float32:
        return "f"
    if dtype is np.float64:
        return "d"
    raise ValueError(f"a value of type {type_} cannot be a kernel argument")


def arg_value(
    value: object, type_: Attribute, address: Callable[[object, int], int] | None = None
) -> int | float | bytes:
    """`value` (a run-time value of `type_`) as PyCUDA packs it by `arg_format`; a struct's
    bytes (`address(pointer, field)`: the device address of a pointer field, checked)."""
    if structs.is_struct(type_):
        assert isinstance(value, tuple)
        return structs.pack(value, type_, address or (lambda ptr, _: ptr.address))  # type: ignore[attr-defined]
    if isinstance(type_, PtrType):
        assert isinstance(value, Pointer)
        return value.address & (2**64 - 1)
    if (width := int_width(type_)) is not None:
        assert isinstance(value, int)
        return unsigned(value, width)
    if float_dtype(type_) is np.float16:
        return int(np.float16(value).view(np.uint16))
    return float(value)  # type: ignore[arg-type]  # a numpy float32 / float64


def smem_pointee(func_inputs: Sequence[Attribute]) -> Attribute | None:
    """The pointee of a kernel's shared-memory parameter (`gpu.smem_param`), or None."""
    found = smem_param(func_inputs)
    return None if found is None else found.pointee


def min_smem_bytes(pointee: Attribute) -> int:
    """The least dynamic shared memory a kernel whose shared pointer points to `pointee` can be
    launched with: `sizeof(T)` for a static type, one element for `!mem.array<? x T>`."""
    if isinstance(pointee, ArrayType) and pointee.is_dynamic:
        return 0
    return size_of(pointee)
