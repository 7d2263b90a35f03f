"""`vector` on gpuir's values: a vector is the tuple of its elements in row-major order, each
the scalar its element type has (`gpuir.runtime.scalars`). Lane arithmetic is the scalar ops'
(`vector.fma` is `math.fma`'s, correctly rounded); `vector.reduction` folds left from its
accumulator (or the kind's neutral value: `+0.0` for `add`, as MLIR's lowering starts
LLVM's ordered `vector.reduce.fadd`); `vector.contract` folds each accumulator element with
its products in the order `contraction_lanes` gives, each product rounded to the accumulator's
type (an element of a narrower type extended first)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects import vector
from xdsl.dialects.builtin import DYNAMIC_INDEX, VectorType
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Operation

from gpuir.dialects.vector_ext import (
    ContractionOp,
    FromElementsOp,
    ShapeCastOp,
    contraction_lanes,
)
from gpuir.ir.integers import signed
from gpuir.lowering.llvm.rules import broadcast_sources
from gpuir.runtime.engine.arith import _maximum, _minimum, maxnum, minnum
from gpuir.runtime.engine.machine import Machine, fail
from gpuir.runtime.engine.math import _fma
from gpuir.runtime.scalars import float_dtype, int_width, unsigned, wrap


def shape_of(type_: Attribute) -> tuple[int, ...]:
    assert isinstance(type_, VectorType)
    return tuple(type_.get_shape())


def flat(shape: Sequence[int], at: Sequence[int]) -> int:
    """The row-major offset of the block at position `at` (a prefix of a position)."""
    offset = 0
    for extent, p in zip(shape, at, strict=False):
        offset = offset * extent + p
    return offset * prod(shape[len(at) :])


def position(op: Operation, static: Sequence[int], dynamic: Sequence[int], shape: Sequence[int]):
    """`extract`'s or `insert`'s position, its dynamic indices in place; a diagnostic when one
    is out of the vector (LLVM's result would be poison)."""
    found = iter(dynamic)
    at = [next(found) if p == DYNAMIC_INDEX else p for p in static]
    for p, extent in zip(at, shape, strict=False):
        if not 0 <= p < extent:
            raise fail(op, f"'{op.name}': position {at} is outside {list(shape)}", "poison")
    return at


def _combine(kind: str, type_: Attribute) -> Callable[[Any, Any], Any]:
    """`x ⊕ y` of a reduction kind on `type_`."""
    dtype = float_dtype(type_)
    if dtype is not None:
        floats: dict[str, Callable[[Any, Any], Any]] = {
            "add": lambda x, y: dtype(x + y),
            "mul": lambda x, y: dtype(x * y),
            "maxnumf": maxnum,
            "minnumf": minnum,
            "maximumf": _maximum,
            "minimumf": _minimum,
        }
        return floats[kind]
    width = int_width(type_)
    assert width is not None
    ints: dict[str, Callable[[int, int], int]] = {
        "add": lambda x, y: x + y,
        "mul": lambda x, y: x * y,
        "and": lambda x, y: x & y,
        "or": lambda x, y: x | y,
        "xor": lambda x, y: x ^ y,
        "maxsi": max,
        "minsi": min,
        "maxui": lambda x, y: x if unsigned(x, width) >= unsigned(y, width) else y,
        "minui": lambda x, y: x if unsigned(x, width) <= unsigned(y, width) else y,
    }
    fn = ints[kind]
    return lambda x, y: wrap(fn(x, y), width)


FLOAT_KINDS = frozenset({"add", "mul", "maxnumf", "minnumf", "maximumf", "minimumf"})
INT_KINDS = frozenset({"add", "mul", "and", "or", "xor", "maxsi", "minsi", "maxui", "minui"})


_LANES: weakref.WeakKeyDictionary[Operation, tuple[list[list[int]], list[list[int]]]] = (
    weakref.WeakKeyDictionary()
)
"""Each `vector.contract`'s `contraction_lanes`, made at its first run."""


def _to_bytes(values: Sequence[Any], type_: Attribute) -> bytes:
    dtype = float_dtype(type_)
    if dtype is not None:
        return np.array(values, dtype=dtype).tobytes()
    width = int_width(type_)
    assert width is not None and width % 8 == 0
    return b"".join(unsigned(v, width).to_bytes(width // 8, "little") for v in values)


def _from_bytes(data: bytes, type_: Attribute) -> tuple[Any, ...]:
    dtype = float_dtype(type_)
    if dtype is not None:
        return tuple(np.frombuffer(data, dtype=dtype))
    width = int_width(type_)
    assert width is not None and width % 8 == 0
    n = width // 8
    return tuple(
        wrap(int.from_bytes(data[k : k + n], "little"), width) for k in range(0, len(data), n)
    )


@register_impls
class VectorFunctions(InterpreterFunctions):
    """The `vector` ops gpuir runs (`gpuir.ir.upstream.vectors` makes the others of them)."""

    @impl(FromElementsOp)
    def run_from_elements(self, machine: Machine, op: FromElementsOp, args: PythonValues):
        return (tuple(args),)

    @impl(ShapeCastOp)
    def run_shape_cast(self, machine: Machine, op: ShapeCastOp, args: PythonValues):
        return (args[0],)

    @impl(vector.ExtractOp)
    def run_extract(self, machine: Machine, op: vector.ExtractOp, args: PythonValues):
        shape = shape_of(op.vector.type)
        at = position(op, op.static_position.get_values(), args[1:], shape)
        start = flat(shape, at)
        if len(at) == len(shape):
            return (args[0][start],)
        return (args[0][start : start + prod(shape[len(at) :])],)

    @impl(vector.InsertOp)
    def run_insert(self, machine: Machine, op: vector.InsertOp, args: PythonValues):
        shape = shape_of(op.dest.type)
        at = position(op, op.static_position.get_values(), args[2:], shape)
        start = flat(shape, at)
        inserted = args[0] if isinstance(op.source.type, VectorType) else (args[0],)
        dest = args[1]
        return (dest[:start] + tuple(inserted) + dest[start + len(inserted) :],)

    @impl(vector.BroadcastOp)
    def run_broadcast(self, machine: Machine, op: vector.BroadcastOp, args: PythonValues):
        shape = shape_of(op.vector.type)
        if not isinstance(op.source.type, VectorType):
            return ((args[0],) * prod(shape),)
        source = shape_of(op.source.type)
        lead = len(shape) - len(source)
        if lead < 0 or any(s not in (1, shape[lead + k]) for k, s in enumerate(source)):
            raise fail(op, f"'{op.name}' cannot broadcast {op.source.type} to {op.vector.type}")
        return (tuple(args[0][k] for k in broadcast_sources(shape, source)),)

    @impl(vector.ShuffleOp)
    def run_shuffle(self, machine: Machine, op: vector.ShuffleOp, args: PythonValues):
        shape = shape_of(op.v1.type)
        row = prod(shape[1:])
        both = tuple(args[0]) + tuple(args[1])
        out: list[Any] = []
        for k in op.mask.get_values():
            if k < 0:  # -1: poison; a zero of the element type here
                raise fail(op, f"'{op.name}': an undefined (-1) mask index is not supported")
            out.extend(both[k * row : (k + 1) * row])
        return (tuple(out),)

    @impl(vector.FMAOp)
    def run_fma(self, machine: Machine, op: vector.FMAOp, args: PythonValues):
        assert isinstance(op.res.type, VectorType)
        dtype = float_dtype(op.res.type.element_type)
        if dtype is None:
            raise fail(op, f"'{op.name}' on {op.res.type} is not supported")
        return (tuple(_fma(a, b, c, dtype) for a, b, c in zip(*args, strict=True)),)

    @impl(vector.ReductionOp)
    def run_reduction(self, machine: Machine, op: vector.ReductionOp, args: PythonValues):
        kind = op.kind.data.value
        type_ = op.dest.type
        is_float = float_dtype(type_) is not None
        if kind not in (FLOAT_KINDS if is_float else INT_KINDS):
            raise fail(op, f"'{op.name}' <{kind}> on {type_} is not supported")
        combine = _combine(kind, type_)
        values = list(args[0])
        if len(args) > 1:
            values.insert(0, args[1])
        elif is_float and kind in ("add", "mul"):
            values.insert(0, float_dtype(type_)(0.0 if kind == "add" else 1.0))  # type: ignore[misc]
        result = values[0]
        for value in values[1:]:
            result = combine(result, value)
        return (result,)

    @impl(vector.BitcastOp)
    def run_bitcast(self, machine: Machine, op: vector.BitcastOp, args: PythonValues):
        source, result = op.source.type, op.result.type
        assert isinstance(source, VectorType) and isinstance(result, VectorType)
        for type_ in (source.element_type, result.element_type):
            width = int_width(type_)
            if float_dtype(type_) is None and (width is None or width % 8):
                raise fail(op, f"'{op.name}' of {source} to {result} is not supported")
        return (_from_bytes(_to_bytes(args[0], source.element_type), result.element_type),)

    @impl(ContractionOp)
    def run_contract(self, machine: Machine, op: ContractionOp, args: PythonValues):
        acc_type = op.acc.type
        element = acc_type.element_type if isinstance(acc_type, VectorType) else acc_type
        dtype = float_dtype(element)
        if dtype is None and int_width(element) is None:
            raise fail(op, f"'{op.name}' on {acc_type} is not supported")
        lhs, rhs = (_extended(v, args[k], element) for k, v in enumerate((op.lhs, op.rhs)))
        combine = _combine(op.kind.data.value, element)
        width = int_width(element)

        def times(x: Any, y: Any) -> Any:
            return dtype(x * y) if dtype is not None else wrap(x * y, width)  # type: ignore[arg-type]

        if op not in _LANES:
            _LANES[op] = contraction_lanes(op)
        lhs_lanes, rhs_lanes = _LANES[op]
        acc = args[2] if isinstance(acc_type, VectorType) else (args[2],)
        out = []
        for start, lhs_row, rhs_row in zip(acc, lhs_lanes, rhs_lanes, strict=True):
            result = start
            for i, j in zip(lhs_row, rhs_row, strict=True):
                result = combine(result, times(lhs[i], rhs[j]))
            out.append(result)
        return (tuple(out) if isinstance(acc_type, VectorType) else out[0],)


def _extended(value: Any, lanes: Sequence[Any], element: Attribute) -> Sequence[Any]:
    """An operand's lanes in the accumulator's element type (a float extended, an integer
    sign-extended)."""
    assert isinstance(value.type, VectorType)
    source = value.type.element_type
    if source == element:
        return lanes
    dtype = float_dtype(element)
    if dtype is not None:
        return [dtype(x) for x in lanes]
    width = int_width(source)
    assert width is not None
    return [signed(x, width) for x in lanes]
