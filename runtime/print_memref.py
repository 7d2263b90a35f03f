"""The text of `mem.print_memref`: a memref as mlir-runner's `printMemrefF32` (and `I32`, `I64`,
`F64`) prints it, byte for byte but for the address (MLIR's `impl::printMemRef`).

    Unranked Memref base@ = 0x55db27b2fb20 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
    [[0.5,   0.5,   0.5],
     [0.5,   1.5,   2.5]]

(each line but the last ends with a space after its comma). An element prints as a C++ stream
prints it: an integer in decimal, a float as C's `%g` (six significant digits: `3`, `0.333333`,
`1e+06`, `inf`, `-nan`). Elements of a row are `", "` apart plus one space per dimension of
depth; rows after the first start on a new line, indented by their depth.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir import Attribute, Operation

from gpuir.dialects.mem import ArrayType
from gpuir.runtime.memory import Pointer, check_access, host_bytes, size_of
from gpuir.runtime.scalars import float_dtype, int_width


def element_and_shape(pointee: Attribute) -> tuple[Attribute, list[int | None]]:
    """The element type and the dimensions of a pointee (`None` for a `?` extent)."""
    shape: list[int | None] = []
    while isinstance(pointee, ArrayType):
        shape.append(None if pointee.is_dynamic else pointee.size.data)
        pointee = pointee.element_type
    return pointee, shape


def read_memref(data: np.ndarray, offset: int, pointee: Attribute) -> np.ndarray:
    """The elements of a `pointee` at byte `offset` of an allocation's bytes `data`, shaped; an
    outer `?` extent takes every whole element that follows."""
    element, shape = element_and_shape(pointee)
    dtype = float_dtype(element)
    if dtype is None:
        width = int_width(element)
        assert width in (32, 64)
        dtype = np.int32 if width == 32 else np.int64
    inner = math.prod(d for d in shape[1:] if d is not None) * np.dtype(dtype).itemsize
    if shape and shape[0] is None:
        shape[0] = (len(data) - offset) // inner if inner else 0
    dims = [d for d in shape if d is not None]
    count = math.prod(dims)
    values = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
    return values.reshape(dims)


def format_element(value: object) -> str:
    if isinstance(value, np.floating):
        number = float(value)
        if math.isnan(number):
            return "-nan" if math.copysign(1.0, number) < 0 else "nan"
        return format(number, "g")
    return str(int(value))  # type: ignore[call-overload]


def memref_text(values: np.ndarray, address: int) -> str:
    """The whole text printMemref prints for `values` at `address`, its last newline included."""
    rank = values.ndim
    sizes = list(values.shape)
    strides = [math.prod(sizes[i + 1 :]) for i in range(rank)]
    out = [
        f"Unranked Memref base@ = {hex(address)} rank = {rank} offset = 0 "
        f"sizes = [{', '.join(map(str, sizes))}] strides = [{', '.join(map(str, strides))}] "
        "data = \n"
    ]
    if rank == 0:
        out.append(f"[{format_element(values[()])}]")
    else:
        _print(out, values, rank, rank)
    out.append("\n")
    return "".join(out)


def _print(out: list[str], values: np.ndarray, dim: int, rank: int) -> None:
    if dim == 0:
        out.append(format_element(values[()]))
        return
    count = values.shape[0]
    out.append("[")
    if count == 0:
        out.append("]")
        return
    _print(out, values[0], dim - 1, rank)
    if count == 1:
        out.append("]")
        return
    rest = ", \n" if dim > 1 else ", "
    out.append(rest)
    indent = " " * (rank - dim + 1)
    for i in range(1, count - 1):
        out.append(indent)
        _print(out, values[i], dim - 1, rank)
        out.append(rest)
    out.append(indent)
    _print(out, values[count - 1], dim - 1, rank)
    out.append("]")


def pointee_text(ptr: Pointer, op: Operation | None, who: str = "") -> str:
    """What `mem.print_memref` prints for the host pointer `ptr` (its checks: the pointee must
    lie within a live host allocation)."""
    element, shape = element_and_shape(ptr.pointee)
    fixed = math.prod(d for d in shape[1:] if d is not None) * size_of(element)
    first = shape[0] if shape else 1
    nbytes = fixed if first is None else fixed * first
    allocation, offset = check_access(ptr, nbytes, op, f"prints {nbytes} bytes of", who)
    data = host_bytes(allocation, op)
    end = offset + nbytes if first is not None else None
    return memref_text(read_memref(data[:end], offset, ptr.pointee), ptr.address)
