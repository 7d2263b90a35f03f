"""`check-barrier-divergence`: a barrier that some work-items of a group provably reach and
others provably do not is an error before the program runs.

A barrier (`gpu.sync_work_items`, `gpu.synced_scope`, `gpu.workgroup_reduce`,
`gpu.workgroup_scan`) must be reached by every work-item of its group (reference §2.5);
`interp` and the cpu provider report one that is not as a `barrier divergence` when it happens.
This pass finds the cases that need no run: for each `gpu.launch` that `@main` makes whatever
happens (an op of its entry block) with a constant group size, it follows each barrier of the
kernel up to the kernel's entry block through `scf.if` and `scf.for` only, and evaluates, for
every work-item of the group, the conditions of those `scf.if`s and the bounds of those
`scf.for`s, when they are integer `arith` over constants, the work-item id, the work-group id
(for the first two and the last two groups, when the group count is a constant) and the
kernel's arguments that the launch passes as constants. When some work-items of a group reach
the barrier and others do not, the error is at the barrier, naming both sets of work-items,
the launch and the op where they part.

Anything else is left to the run: a condition on a loaded value, a loop variable or an argument
the host computes, a barrier under `scf.while`, in a called function or after `cf` branches,
and a launch under control flow of the host (it may never run). The pass only reads the
module. It runs in `gpu-pipeline` before `split-apply` (host and kernels are one module there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from gpuir.dialects import gpu
from gpuir.ir.diagnostics import OpError, describe_op, item_ranges, where

BARRIERS = (gpu.SyncWorkItemsOp, gpu.SyncedScopeOp, gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp)
GROUP_ARG, ITEM_ARG, FIRST_USER_ARG = 4, 5, 6
"""A kernel's parameters: four memory tokens, the work-group id, the work-item id, then the
launch's arguments."""
MAX_ITEMS = 1 << 16
"""Groups larger than this are not evaluated item by item."""


class Unknown(Exception):
    """A value that is not known before the run."""


def _width(value: SSAValue) -> int:
    type_ = value.type
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    raise Unknown


def _signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >> (width - 1) & 1 else bits


def _div(a: int, b: int) -> int:
    if b == 0:
        raise Unknown  # the run decides what it does
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _rem(a: int, b: int) -> int:
    return a - b * _div(a, b)


Binary = Callable[[int, int, int], int]
"""An op on two operands' bits of a width: its result's bits (unreduced)."""

UNSIGNED: dict[type[Operation], Binary] = {
    arith.AddiOp: lambda a, b, w: a + b,
    arith.SubiOp: lambda a, b, w: a - b,
    arith.MuliOp: lambda a, b, w: a * b,
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.ShLIOp: lambda a, b, w: a << b if b < w else _unknown(),
    arith.ShRUIOp: lambda a, b, w: a >> b if b < w else _unknown(),
    arith.DivUIOp: lambda a, b, w: a // b if b else _unknown(),
    arith.RemUIOp: lambda a, b, w: a % b if b else _unknown(),
    arith.MinUIOp: lambda a, b, w: min(a, b),
    arith.MaxUIOp: lambda a, b, w: max(a, b),
    arith.DivSIOp: lambda a, b, w: _div(_signed(a, w), _signed(b, w)),
    arith.RemSIOp: lambda a, b, w: _rem(_signed(a, w), _signed(b, w)),
    arith.MinSIOp: lambda a, b, w: min(_signed(a, w), _signed(b, w)),
    arith.MaxSIOp: lambda a, b, w: max(_signed(a, w), _signed(b, w)),
    arith.ShRSIOp: lambda a, b, w: _signed(a, w) >> b if b < w else _unknown(),
}

COMPARE: dict[str, Callable[[int, int, int], bool]] = {
    "eq": lambda a, b, w: a == b,
    "ne": lambda a, b, w: a != b,
    "ult": lambda a, b, w: a < b,
    "ule": lambda a, b, w: a <= b,
    "ugt": lambda a, b, w: a > b,
    "uge": lambda a, b, w: a >= b,
    "slt": lambda a, b, w: _signed(a, w) < _signed(b, w),
    "sle": lambda a, b, w: _signed(a, w) <= _signed(b, w),
    "sgt": lambda a, b, w: _signed(a, w) > _signed(b, w),
    "sge": lambda a, b, w: _signed(a, w) >= _signed(b, w),
}
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
"""`arith.cmpi`'s predicate numbers, in order."""


def _unknown() -> int:
    raise Unknown


@dataclass
class Evaluator:
    """The values of a kernel's integers for one work-item: `known` holds the parameters the
    launch fixes (block arguments of the kernel's entry block)."""

    known: dict[SSAValue, int]

    def bits(self, value: SSAValue) -> int:
        """`value`'s bits, as an unsigned integer of its width; `Unknown` if the run decides."""
        found = self.known.get(value)
        if found is not None:
            return found
        if isinstance(value, BlockArgument):
            raise Unknown  # a loop variable, a block argument of a branch, a host value
        width = _width(value)
        result = self._op(value.owner, width) % (1 << width)
        self.known[value] = result
        return result

    def _op(self, op: Operation, width: int) -> int:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return op.value.value.data
        binary = UNSIGNED.get(type(op))
        if binary is not None:
            return binary(self.bits(op.operands[0]), self.bits(op.operands[1]), width)
        if isinstance(op, arith.CmpiOp):
            w = _width(op.lhs)
            test = COMPARE[PREDICATES[op.predicate.value.data]]
            return int(test(self.bits(op.lhs), self.bits(op.rhs), w))
        if isinstance(op, arith.SelectOp):
            taken = op.lhs if self.bits(op.cond) else op.rhs
            return self.bits(taken)
        if isinstance(op, arith.IndexCastOp | arith.ExtUIOp | arith.TruncIOp):
            return self.bits(op.operands[0])
        if isinstance(op, arith.ExtSIOp):
            source = op.operands[0]
            return _signed(self.bits(source), _width(source))
        raise Unknown


@dataclass(frozen=True)
class Parting:
    """Where the work-items of a group part at a barrier: those that reach it, those that do
    not, and the op under which they part."""

    group: int | None  # None: every group
    reach: list[int]
    miss: list[int]
    at: Operation


def _path(barrier: Operation, kernel: func.FuncOp) -> list[tuple[Operation, int]] | None:
    """The ops the barrier is under, outermost first, each with the index of the region that
    holds it; None unless they are `scf.if`, `scf.for` and `gpu.synced_scope` only, and the
    outermost is in the kernel's entry block."""
    path: list[tuple[Operation, int]] = []
    op = barrier
    while True:
        block = op.parent_block()
        parent = op.parent_op()
        if parent is kernel:
            return path[::-1] if block is kernel.body.blocks[0] else None
        if parent is None or not isinstance(parent, scf.IfOp | scf.ForOp | gpu.SyncedScopeOp):
            return None
        assert block is not None
        region = block.parent_region()
        path.append((parent, parent.regions.index(region)))
        op = parent


def _reaches(op: Operation, region: int, evaluator: Evaluator) -> bool:
    """Whether the work-item `evaluator` is for goes into `region` of `op` (from the op)."""
    if isinstance(op, scf.IfOp):
        return bool(evaluator.bits(op.cond)) == (region == 0)
    if isinstance(op, scf.ForOp):
        width = _width(op.lb)  # scf.for compares signed
        lb, ub = (_signed(evaluator.bits(v), width) for v in (op.lb, op.ub))
        if evaluator.bits(op.step) == 0:
            raise Unknown
        return lb < ub
    return True  # a synced scope's body: every work-item that reaches the scope


def parting(
    path: Sequence[tuple[Operation, int]],
    n_items: int,
    groups: Sequence[int | None],
    args: dict[SSAValue, int],
    group_arg: SSAValue,
    item_arg: SSAValue,
) -> Parting | None:
    """The first of `groups` (None: the group id is not known) whose work-items part on
    `path`, the ops a barrier is under, and where; None when none provably does."""
    for group in groups:
        present = list(range(n_items))
        first_out: Operation | None = None
        try:
            for op, region in path:
                inside = []
                for item in present:
                    known = {**args, item_arg: item}
                    if group is not None:
                        known[group_arg] = group
                    if _reaches(op, region, Evaluator(known)):
                        inside.append(item)
                if len(inside) < len(present) and first_out is None:
                    first_out = op
                present = inside
                if not present:
                    break
        except Unknown:
            continue
        if present and first_out is not None:
            missed = sorted(set(range(n_items)) - set(present))
            return Parting(group, present, missed, first_out)
    return None


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _unconditional_launches(module: ModuleOp) -> list[gpu.LaunchOp]:
    main = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"),
        None,
    )
    if main is None or not main.body.blocks:
        return []
    entry: Block = main.body.blocks[0]
    return [op for op in entry.ops if isinstance(op, gpu.LaunchOp)]


def check_launch(module: ModuleOp, launch: gpu.LaunchOp) -> None:
    """Raise an `OpError` at the first barrier of the launched kernel that the work-items of a
    group provably part at (module docstring)."""
    n_items = _constant(launch.n_items)
    kernel = SymbolTable.lookup_symbol(module, launch.kernel)
    if n_items is None or not 1 < n_items <= MAX_ITEMS or not isinstance(kernel, func.FuncOp):
        return
    if not kernel.body.blocks:
        return
    params = kernel.body.blocks[0].args
    if len(params) < FIRST_USER_ARG:
        return
    args = {}
    for param, arg in zip(params[FIRST_USER_ARG:], launch.args, strict=False):
        value = _constant(arg)
        if value is not None and isinstance(param.type, IndexType | IntegerType):
            args[param] = value % (1 << _width(param))
    n_groups = _constant(launch.n_groups)
    groups: list[int | None] = [None]  # first: conditions that do not read the group id
    if n_groups is not None:
        groups += sorted({g for g in (0, 1, n_groups - 2, n_groups - 1) if 0 <= g < n_groups})
    for barrier in kernel.walk():
        if not isinstance(barrier, BARRIERS):
            continue
        path = _path(barrier, kernel)
        if not path:
            continue
        found = parting(path, n_items, groups, args, params[GROUP_ARG], params[ITEM_ARG])
        if found is None:
            continue
        which = "every work-group" if found.group is None else f"work-group {found.group}"
        raise OpError(
            barrier,
            f"barrier divergence: in {which} of the launch of @{kernel.sym_name.data}"
            f"{where(launch)} ({n_items} work-items per group), work-item(s) {item_ranges(found.reach)} reach this barrier and "
            f"work-item(s) {item_ranges(found.miss)} do not: they part at "
            f"{describe_op(found.at)}; every work-item of a group must reach the same barriers",
        )


@dataclass(frozen=True)
class CheckBarrierDivergencePass(ModulePass):
    """Reject a barrier that the work-items of a group provably do not all reach."""

    name = "check-barrier-divergence"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for launch in _unconditional_launches(op):
            check_launch(op, launch)
