"""interp's matrix ops (`gpuir.dialects.gpu.mma`): each a warp collective, whose lanes meet at
the op (the scheduler's warp round: a lane missing is warp divergence), then run on.

A fragment is a lane's share of the warp's matrix: lane `l` holds a numpy array of the `s`
elements `s l … s l + s - 1` of the row-major matrix (`share_of`: 8 of a 16x16 tile, row `l / 2`;
1 of an f64 `a` or `b`, 2 of an f64 `c`). A load
or store meets first (`mma_results` checks that every lane gives the same pointer and index),
then each lane reads or writes its own elements through the work-item's checked accesses: bounds
and token order see them, the race check records them for the warp (the access is the warp's:
`races.agent_of`), and the lanes of one warp never touch one element twice. `gpu.mma_compute` gathers the lanes' shares at the meeting and hands each its share of
`a · b + c` (`product`: the products added to `c` in order in f32, in f64 for f64 operands,
rounded once to the accumulator's type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from gpuir.dialects import gpu
from gpuir.dialects.gpu.mma import FragmentType, scalar_of, share_of
from gpuir.dialects.mem import PtrType
from gpuir.ir.diagnostics import item_ranges
from gpuir.runtime.engine.arith import _maximum, _minimum
from gpuir.runtime.memory import Pointer, size_of
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import TOKEN, float_dtype

if TYPE_CHECKING:
    from gpuir.runtime.interp.items import ItemMachine
    from gpuir.runtime.interp.scheduler import ItemCoroutine


def dtype_of(type_: object) -> type:
    assert isinstance(type_, FragmentType)
    found = float_dtype(type_.element_type)
    assert found is not None
    return found


def element_offsets(type_: FragmentType, lane: int, lead: int, transpose: bool) -> list[int]:
    """Where lane `lane`'s elements of a `type_` are, in elements from the tile's first."""
    share, cols = share_of(type_), type_.rows_cols[1]
    offsets = []
    for k in range(lane * share, (lane + 1) * share):
        r, c = divmod(k, cols)
        offsets.append(c * lead + r if transpose else r * lead + c)
    return offsets


def lane_pointers(machine: ItemMachine, op: gpu.MmaLoadOp | gpu.MmaStoreOp, ptr: Pointer, at: int):
    """The pointers to this lane's elements of the tile at element `at` of `ptr`'s scalars."""
    assert isinstance(op.ptr.type, PtrType)
    type_ = op.res.type if isinstance(op, gpu.MmaLoadOp) else op.value.type
    assert isinstance(type_, FragmentType)
    scalar = scalar_of(op.ptr.type.pointee)
    size = size_of(scalar)
    lane = machine.item_id % gpu.WARP
    transpose = op.transpose is not None
    return [
        Pointer(ptr.allocation, ptr.offset + (at + k) * size, scalar)
        for k in element_offsets(type_, lane, op.lead.value.data, transpose)
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
        assert isinstance(op.res.type, FragmentType)
        share = share_of(op.res.type)
        return (TOKEN, TOKEN, np.full(share, args[2], dtype=dtype_of(op.res.type)))

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


def product(op: gpu.MmaComputeOp, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a · b + c` of row-major tiles of `op`'s types: each element `c + a[i][0] b[0][j] + … +
    a[i][k - 1] b[k - 1][j]`, added in that order in f32 (a product of two f16 is exact there;
    f64 for f64 operands, each product rounded), rounded once to `c`'s type (the cpu provider
    adds in the same order: `gpuir.lowering.cpu.mma`)."""
    assert isinstance(op.a.type, FragmentType) and isinstance(op.b.type, FragmentType)
    wide = np.float64 if a.dtype == np.float64 else np.float32
    a_wide = a.astype(wide).reshape(op.a.type.rows_cols)
    b_wide = b.astype(wide).reshape(op.b.type.rows_cols)
    acc = c.astype(wide).reshape(a_wide.shape[0], b_wide.shape[1])
    for k in range(a_wide.shape[1]):
        acc = acc + np.outer(a_wide[:, k], b_wide[k, :])
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
        d = product(op, a, b, c)
        share = len(d) // len(lanes)
        results = [d[k * share : (k + 1) * share].copy() for k in range(len(lanes))]
    for item, result in zip(lanes, results, strict=True):
        item.result = result
