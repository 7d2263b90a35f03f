"""The memory layout of gpuir's types, one rule for every layer: how many bytes a value of a type
occupies (LLVM's alloc size, padding included), its alignment, and the bytes a load or store of
it touches (LLVM's store size). NVPTX's and x86-64's data layouts agree on every type here, so
the lowerings (`llvm.alloca` sizes, array strides) and the providers (allocations, copies,
argument blocks) read the same numbers.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

from gpuir.dialects.gpu import StreamType
from gpuir.dialects.mem import ArrayType, MemType, PtrType

POINTER_SIZE = 8
MAX_ALIGN = 16
"""No type is aligned to more than this (LLVM's `i128` on x86-64 and NVPTX)."""
INDEX_WIDTH = 64
FLOAT_BYTES: dict[type[Attribute], int] = {
    Float16Type: 2,
    BFloat16Type: 2,
    Float32Type: 4,
    Float64Type: 8,
}


class LayoutError(ValueError):
    """A type that has no memory layout (a token, an unknown type)."""


def int_width(type_: Attribute) -> int | None:
    """The bit width of an integer or `index` type; None for any other type."""
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType):
        return INDEX_WIDTH
    return None


def size_of(type_: Attribute) -> int:
    """The bytes `type_` occupies in memory, padding included (LLVM's alloc size); a `?` array
    has none (see `alloc_size`)."""
    if (width := int_width(type_)) is not None:
        return 1 << max((width + 7) // 8 - 1, 0).bit_length()
    if (nbytes := FLOAT_BYTES.get(type(type_))) is not None:
        return nbytes
    if isinstance(type_, PtrType | StreamType):
        return POINTER_SIZE
    if isinstance(type_, ArrayType):
        if type_.is_dynamic:
            raise LayoutError(f"{type_} has no static size")
        return type_.size.data * size_of(type_.element_type)
    if isinstance(type_, VectorType):  # LLVM's: its elements, rounded up to a power of two
        count = prod(type_.get_shape())
        return 1 << max(count * size_of(type_.element_type) - 1, 0).bit_length()
    if isinstance(type_, MemType):
        raise LayoutError(f"a memory token ({type_}) is not data")
    raise LayoutError(f"no memory layout for {type_}")


def align_of(type_: Attribute) -> int:
    if isinstance(type_, ArrayType):
        return align_of(type_.element_type)
    return min(size_of(type_), MAX_ALIGN)


def store_size(type_: Attribute) -> int:
    """The bytes a load or store of `type_` touches (LLVM's store size)."""
    if (width := int_width(type_)) is not None:
        return (width + 7) // 8
    return size_of(type_)


def alloc_size(pointee: Attribute, extent: int | None = None) -> int:
    """The bytes of one `pointee`; `extent` is the run-time extent of a `!mem.array<? x T>`."""
    if isinstance(pointee, ArrayType) and pointee.is_dynamic:
        if extent is None:
            raise LayoutError(f"{pointee} needs a run-time extent")
        return extent * size_of(pointee.element_type)
    return size_of(pointee)
