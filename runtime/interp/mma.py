"""interp's matrix ops (`gpuir.dialects.gpu.mma`): each a warp collective, whose lanes meet at
the op (the scheduler's warp round: a lane missing is warp divergence), then run on.

A fragment is a lane's share of the warp's 16x16 matrix: lane `l` holds a numpy array of the
8 elements `8l … 8l + 7` of the row-major matrix (row `l / 2`, columns `8 (l % 2) …`). A load
or store meets first (`mma_results` checks that every lane gives the same pointer and index),
then each lane reads or writes its own 8 elements through the work-item's checked accesses: the
race check, bounds and token order see them, and the lanes of one warp never touch one element
twice. `gpu.mma_compute` gathers the lanes' shares at the meeting and hands each its share of
`a · b + c` (`product`: the products added to `c` in order in f32, rounded once to the
accumulator's type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from gpuir.dialects import gpu
from gpuir.dialects.gpu.mma import TILE, FragmentType, scalar_of
from gpuir.dialects.mem import PtrType
from gpuir.ir.diagnostics import item_ranges
from gpuir.runtime.engine.arith import _maximum, _minimum
from gpuir.runtime.memory import Pointer, size_of
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import TOKEN, float_dtype

if TYPE_CHECKING:
    from gpuir.runtime.interp.items import ItemMachine
    from gpuir.runtime.interp.scheduler import ItemCoroutine

SHARE = TILE * TILE // gpu.WARP
"""The elements each lane holds."""


def dtype_of(type_: object) -> type:
    assert isinstance(type_, FragmentType)
    found = float_dtype(type_.element_type)
    assert found is not None
    return found


def element_offsets(lane: int, lead: int, transpose: bool) -> list[int]:
    """Where lane `lane`'s elements are, in elements from the tile's first."""
    offsets = []
    for k in range(lane * SHARE, (lane + 1) * SHARE):
        r, c = divmod(k, TILE)
        offsets.append(c * lead + r if transpose else r * lead + c)
    return offsets


def lane_pointers(machine: ItemMachine, op: gpu.MmaLoadOp | gpu.MmaStoreOp, ptr: Pointer, at: int):
    """The pointers to this lane's elements of the tile at element `at` of `ptr`'s scalars."""
    assert isinstance(op.ptr.type, PtrType)
    scalar = scalar_of(op.ptr.type.pointee)
    size = size_of(scalar)
    lane = machine.item_id % gpu.WARP
    transpose = op.transpose is not None
    return [
        Pointer(ptr.allocation, ptr.offset + (at + k) * size, scalar)
        for k in element_offsets(lane, op.lead.value.data, transpose)
    ]


@register_impls
class MmaFunctions(InterpreterFunctions):
    """The matrix ops in a kernel (module docstring)."""

    @impl(gpu.MmaLoadOp)
    def run_load(self, machine: ItemMachine, op: gpu.MmaLoadOp, args: PythonValues):
        ptr, at = args[2], args[3]
        machine.barrier(op, (ptr, at))
        values = [machine.load(op, p) for p in lane_pointers(machine, op, ptr, at)]
        return (TOKEN, TOKEN, np.array(values, dtype=dtype_of(op.res.type)))

    @impl(gpu.MmaStoreOp)
    def run_store(self, machine: ItemMachine, op: gpu.MmaStoreOp, args: PythonValues):
        share, ptr, at = args[2], args[3], args[4]
        machine.barrier(op, (ptr, at))
        for p, value in zip(lane_pointers(machine, op, ptr, at), share, strict=True):
            machine.store(op, p, value)
        return (TOKEN, TOKEN)

    @impl(gpu.MmaComputeOp)
    def run_compute(self, machine: ItemMachine, op: gpu.MmaComputeOp, args: PythonValues):
        return (TOKEN, TOKEN, machine.barrier(op, tuple(args[2:5])))

    @impl(gpu.MmaConstantOp)
    def run_constant(self, machine: ItemMachine, op: gpu.MmaConstantOp, args: PythonValues):
        machine.barrier(op)
        return (TOKEN, TOKEN, np.full(SHARE, args[2], dtype=dtype_of(op.res.type)))

    @impl(gpu.MmaElementwiseOp)
    def run_elementwise(self, machine: ItemMachine, op: gpu.MmaElementwiseOp, args: PythonValues):
        machine.barrier(op)
        return (TOKEN, TOKEN, elementwise(op.kind.data, args[2:]))


def elementwise(kind: str, values: tuple) -> np.ndarray:
    """`gpu.mma_elementwise`'s kinds on a share (`maxf`, `minf`: `arith.maximumf` /
    `minimumf`, a NaN wins and -0 < +0)."""
    if kind == "negatef":
        return -values[0]
    x, y = values
    if kind in ("maxf", "minf"):
        pick = _maximum if kind == "maxf" else _minimum
        return np.array([pick(p, q) for p, q in zip(x, y, strict=True)], dtype=x.dtype)
    found = {
        "addf": np.add,
        "subf": np.subtract,
        "mulf": np.multiply,
        "divf": np.divide,
    }[kind]
    with np.errstate(all="ignore"):
        return found(x, y)


def product(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a · b + c` of row-major tiles: each element `c + a[i][0] b[0][j] + … + a[i][15]
    b[15][j]`, added in that order in f32 (a product of two f16 is exact there), rounded once
    to `c`'s type (the cpu provider adds in the same order: `gpuir.lowering.cpu.mma`)."""
    square = (TILE, TILE)
    a32, b32 = a.astype(np.float32).reshape(square), b.astype(np.float32).reshape(square)
    acc = c.astype(np.float32).reshape(square)
    for k in range(TILE):
        acc = acc + np.outer(a32[:, k], b32[k, :])
    return acc.astype(c.dtype).reshape(-1)


def mma_results(op: Operation, values: list[object], lanes: list[ItemCoroutine]) -> None:
    """Each lane's result of the matrix op `op`, from the lanes' `values` (module docstring):
    an error where the warp is not whole or its lanes give different addresses."""
    items = [t.machine.item_id for t in lanes]
    group = lanes[0].machine.group_id
    if len(lanes) < gpu.WARP:
        raise ProviderError(
            op,
            f"warp divergence in group {group}: '{op.name}' needs the {gpu.WARP} lanes of a "
            f"warp, but the warp of work-item(s) {item_ranges(items)} has {len(lanes)}",
            "barrier divergence",
        )
    if isinstance(op, gpu.MmaLoadOp | gpu.MmaStoreOp):
        first = values[0]
        other = next((k for k, v in enumerate(values) if v != first), None)
        if other is not None:
            raise ProviderError(
                op,
                f"in group {group}, the lanes of the warp of work-item(s) {item_ranges(items)} "
                f"give '{op.name}' different tiles: lane 0 element {first[1]} of its pointer, "  # type: ignore[index]
                f"lane {other} element {values[other][1]} of its own",  # type: ignore[index]
                "invalid value",
            )
    results: list[object] = [None] * len(lanes)
    if isinstance(op, gpu.MmaComputeOp):
        a, b, c = (np.concatenate([v[k] for v in values]) for k in range(3))  # type: ignore[index]
        d = product(a, b, c)
        results = [d[k * SHARE : (k + 1) * SHARE].copy() for k in range(len(lanes))]
    for thread, result in zip(lanes, results, strict=True):
        thread.result = result
