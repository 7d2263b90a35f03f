"""A kernel's Python arguments converted to what its provider takes: scalars of the
parameter types, pointers from buffers of the same device."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from gpuir.api.buffers import Buffer, Strided
from gpuir.api.elements import _fits, innermost
from gpuir.dialects.mem import GLOBAL, ArrayType, MemType, PtrType
from gpuir.runtime import structs
from gpuir.runtime.memory import Pointer, size_of
from gpuir.runtime.scalars import from_python

if TYPE_CHECKING:
    from gpuir.api import Device


Converter = Callable[[object], object]


def convert_args(
    func: FuncOp, types: Sequence[Attribute], args: Sequence[object], device: Device
) -> list[object]:
    """Python arguments as run-time values of `types` (buffers as pointers, structs as
    tuples)."""
    if len(args) != len(types):
        _wrong_arity(func, types, args)
    converters = _converters(func, types, device)
    return [convert(arg) for convert, arg in zip(converters, args, strict=True)]


def _wrong_arity(func: FuncOp, types: Sequence[Attribute], args: Sequence[object]) -> None:
    expected = ", ".join(map(str, types)) or "none"
    raise TypeError(
        f"@{func.sym_name.data} takes {len(types)} argument(s) ({expected}), got {len(args)}"
    )


def _converters(func: FuncOp, types: Sequence[Attribute], device: Device) -> list[Converter]:
    """One function per parameter that turns a Python argument into its run-time value, or
    raises a `TypeError` that names the argument (and the field of a struct)."""
    name = func.sym_name.data
    return [_converter(type_, device, f"argument {i} of @{name}") for i, type_ in enumerate(types)]


def _converter(type_: Attribute, device: Device, where: str) -> Converter:
    if isinstance(type_, PtrType):
        return _pointer_converter(type_, device, where)
    if isinstance(type_, MemType):

        def token(arg: object) -> object:
            raise TypeError(f"{where} is a memory token, which cannot be passed")

        return token
    if structs.is_struct(type_):

        def pointer_field(arg: object, field: PtrType, field_where: str) -> object:
            return _pointer_arg(arg, field, device, field_where)

        return lambda arg: structs.from_python(arg, type_, pointer_field, where)
    exact = {np.float16: Float16Type, np.float32: Float32Type, np.float64: Float64Type}

    def scalar(arg: object) -> object:
        kind = exact.get(type(arg))  # type: ignore[call-overload]
        if kind is not None and isinstance(type_, kind):
            return arg  # a numpy float of the parameter's type is its run-time value
        try:
            return from_python(arg, type_)
        except ValueError as e:
            raise ArgumentError(f"{where}: {e}") from None

    return scalar


class ArgumentError(TypeError, ValueError):
    """A scalar argument its parameter does not take (not a number, or out of the type's
    range): both a `TypeError` and a `ValueError`, so either `except` takes it."""


def _pointer_converter(type_: PtrType, device: Device, where: str) -> Converter:
    """`_pointer_arg`, remembered for the last buffer passed (by identity, weakly: a launch
    with the same buffer as the last one converts nothing)."""
    last: list[object] = [None, None]

    def pointer(arg: object) -> object:
        ref = last[0]
        if ref is not None and ref() is arg:  # type: ignore[operator]
            return last[1]
        converted = _pointer_arg(arg, type_, device, where)
        try:
            last[0], last[1] = weakref.ref(arg), converted
        except TypeError:  # no weak reference to it (a Pointer): convert it each time
            last[0] = last[1] = None
        return converted

    return pointer


def _pointer_arg(arg: object, type_: PtrType, device: Device, where: str) -> Pointer:
    """A buffer or view as a pointer argument: the address of its first element."""
    if isinstance(arg, Pointer):
        return arg.with_pointee(type_.pointee)
    strided = isinstance(arg, Strided)
    buffer = arg.buffer if strided else arg
    if not isinstance(buffer, Buffer):
        raise TypeError(f"{where} is {type_}: pass a Buffer, got {type(arg).__name__}")
    if buffer.device is not device:
        raise TypeError(f"{where}: the buffer lives on another device")
    if type_.space.data != GLOBAL:
        raise TypeError(f"{where} is {type_}, a pointer into address space {type_.space.data}")
    pointee = type_.pointee
    if not _fits(buffer.dtype, innermost(pointee)):
        raise TypeError(f"{where} is {type_}, got a buffer of {buffer.dtype}")
    dynamic = isinstance(pointee, ArrayType) and pointee.is_dynamic
    if strided and not dynamic:
        raise TypeError(
            f"{where} is {type_}: a strided() buffer passes as !mem.ptr<!mem.array<? x T>, 1>"
        )
    if isinstance(pointee, ArrayType) and not strided and not buffer.layout.is_contiguous:
        raise TypeError(
            f"{where} is {type_}, an array, but the view's {buffer.layout} is not contiguous; "
            "pass the strides explicitly: view.strided() to a !mem.ptr<!mem.array<? x T>, 1> "
            "parameter and *view.strides as index arguments"
        )
    if not dynamic and size_of(pointee) > buffer.nbytes:
        raise TypeError(f"{where} is {type_} ({size_of(pointee)} bytes), got {buffer!r}")
    return buffer._element(buffer.offset).with_pointee(pointee)
