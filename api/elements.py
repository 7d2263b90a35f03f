"""numpy dtypes as gpuir element types, and nested array types of a shape."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute

from gpuir.dialects.mem import ArrayType
from gpuir.runtime.scalars import float_dtype, int_width

# --- element types -------------------------------------------------------------------------------


def element_type(dtype: np.dtype) -> Attribute:
    """The MLIR element type of a numpy dtype (`float32` → `f32`, `int32`/`uint32` → `i32`,
    `bool` → `i1`)."""
    from xdsl.dialects.builtin import IntegerType

    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return IntegerType(1)
    if dtype.kind in "iu":
        return IntegerType(8 * dtype.itemsize)
    floats = {2: Float16Type, 4: Float32Type, 8: Float64Type}
    if dtype.kind == "f" and dtype.itemsize in floats:
        return floats[dtype.itemsize]()
    raise TypeError(f"no gpuir element type for numpy dtype {dtype}")


def nested_array(shape: Sequence[int], element: Attribute) -> Attribute:
    for extent in reversed(shape):
        element = ArrayType(extent, element)
    return element


def innermost(type_: Attribute) -> Attribute:
    while isinstance(type_, ArrayType):
        type_ = type_.element_type
    return type_


def _fits(dtype: np.dtype, type_: Attribute) -> bool:
    """Whether numpy elements of `dtype` are `type_` elements (same kind and size)."""
    if (width := int_width(type_)) is not None:
        if width == 1:
            return dtype == np.bool_
        return dtype.kind in "iu" and 8 * dtype.itemsize == width
    found = float_dtype(type_)
    return found is not None and np.dtype(found) == dtype
