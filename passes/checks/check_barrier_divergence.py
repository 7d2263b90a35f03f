"""`check-barrier-divergence`: a barrier that some work-items of a group provably reach and
others provably do not is an error before the program runs.

A barrier (`gpu.sync_work_items`, `gpu.synced_scope`, `gpu.workgroup_reduce`,
`gpu.workgroup_scan`) must be reached by every work-item of its group, the same barriers in the
same order (reference §2.5); `interp` and the cpu provider report one that is not as a
`barrier divergence` when it happens. This pass finds the cases that need no run. For each
`gpu.launch` that `@main` makes whatever happens (an op of its entry block) with a constant
group size, it walks the kernel once per work-item of a group, as far as barriers go: through
`scf.if`, `scf.for`, `gpu.synced_scope`, `cf.br` / `cf.cond_br` blocks and early returns,
evaluating the conditions, bounds and branch arguments it needs when they are integer `arith`
over constants, the work-item id, the work-group id (the group-independent walk first, then the
first two and the last two groups, when the group count is a constant) and the kernel's
arguments that the launch passes as constants. Ops that hold no barrier are skipped unread.
When two work-items whose ways are both known wait at different barriers (or one at a barrier,
the other returned), the error is at the first such barrier, naming the work-items that reach
it, what the others do instead, and the op where their ways part.

A work-item whose way depends on anything else is left to the run: a loaded value, an
iteration value of `scf.for` / `scf.while`, a call, a division by zero, a walk longer than
`STEPS` (or walks of a launch longer than `BUDGET` together); so is a launch under control flow of the host (it may never run). The pass only reads
the module. A kernel whose barriers no branch, loop or block decides (`uniform`: every
work-item waits at the same barriers in the same order) is not walked at all. It runs in
`gpu-pipeline` before `split-apply` (host and kernels are one module there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from gpuir.dialects import gpu
from gpuir.dialects.traits import is_barrier
from gpuir.ir import integers
from gpuir.ir.diagnostics import OpError, describe_op, item_ranges, where
from gpuir.ir.integers import Undefined
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.device_code import functions

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


@dataclass
class Evaluator:
    """The values of a kernel's integers for one work-item: `known` holds the parameters the
    launch fixes (block arguments of the kernel's entry block)."""

    known: dict[SSAValue, int]
    results: dict[SSAValue, int] = field(default_factory=dict)

    def forget(self) -> None:
        """Block arguments changed: the results computed from them may differ now."""
        self.results.clear()

    def bits(self, value: SSAValue) -> int:
        """`value`'s bits, as an unsigned integer of its width; `Unknown` if the run decides."""
        if isinstance(value, BlockArgument):
            found = self.known.get(value)
            if found is None:
                raise Unknown  # an iteration value, a host value, a loaded one
            return found
        found = self.results.get(value)
        if found is None:
            found = self._op(value.owner, _width(value)) % (1 << _width(value))
            self.results[value] = found
        return found

    def _op(self, op: Operation, width: int) -> int:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return op.value.value.data
        binary = integers.BINARY.get(type(op))
        if binary is not None:
            a, b = self.bits(op.operands[0]), self.bits(op.operands[1])
            try:
                return binary(a, b, width)
            except Undefined:
                raise Unknown from None  # the run decides what it does
        if isinstance(op, arith.CmpiOp):
            lhs, rhs = self.bits(op.lhs), self.bits(op.rhs)
            return int(integers.cmpi(op.predicate.value.data, lhs, rhs, _width(op.lhs)))
        if isinstance(op, arith.SelectOp):
            taken = op.lhs if self.bits(op.cond) else op.rhs
            return self.bits(taken)
        if isinstance(op, arith.IndexCastOp | arith.ExtUIOp | arith.TruncIOp):
            return self.bits(op.operands[0])
        if isinstance(op, arith.ExtSIOp):
            source = op.operands[0]
            return integers.signed(self.bits(source), _width(source))
        raise Unknown


Stop = tuple[Operation, int]
"""A barrier a work-item waits at: the op, and 0 (a synced scope's exit: 1)."""
Decision = tuple[Operation, int]
"""A choice of control flow a work-item made: the op (`scf.if`, `scf.for`, `cf.cond_br`) and
the region, trip count or successor it took."""
STEPS = 4096
"""The ops and iterations one work-item's walk may take before it gives up (a long loop)."""
BUDGET = 200_000
"""The steps all the walks of one launch may take together (then nothing is proven)."""


class OutOfTime(Exception):
    """The walks of a launch took `BUDGET` steps."""


@dataclass
class Budget:
    left: int = BUDGET


class Symbols:
    """The module's top-level functions by name, read once: a lookup per launch and call is
    then constant time, where xDSL's `lookup_symbol` scans the module each time."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.by_name = functions(module)

    def lookup(self, ref: SymbolRefAttr) -> Operation | None:
        if ref.nested_references.data:
            return SymbolTable.lookup_symbol(self.module, ref)
        return self.by_name.get(ref.root_reference.data)


def holders(kernel: func.FuncOp, symbols: Symbols) -> set[Operation]:
    """The kernel's barriers, its calls of functions that may wait at one (the walk stops
    there), and the ops that hold either."""
    found: set[Operation] = set()
    for op in kernel.walk():
        if is_barrier(op) or (isinstance(op, func.CallOp) and _may_wait(op, symbols)):
            while op is not None and op is not kernel and op not in found:
                found.add(op)
                op = op.parent_op()
    return found


def uniform(kernel: func.FuncOp, holding: set[Operation]) -> bool:
    """Whether every work-item provably takes the same way through the kernel's barriers:
    its body is one block, and nothing that holds a barrier decides anything (the holders
    are barriers without regions, and synced scopes of one block). Then no walk can differ."""
    if len(kernel.body.blocks) != 1:
        return False
    for op in holding:
        if isinstance(op, gpu.SyncedScopeOp):
            if any(len(region.blocks) > 1 for region in op.regions):
                return False
        elif not is_barrier(op) or op.regions:
            return False
    return True


def _may_wait(call: func.CallOp, symbols: Symbols) -> bool:
    """Whether the callee has a barrier or calls on (or is not in the module)."""
    callee = symbols.lookup(call.callee)
    if not isinstance(callee, func.FuncOp):
        return True
    return any(is_barrier(op) or isinstance(op, func.CallOp) for op in callee.walk())


@dataclass
class Walk:
    """One work-item's way through a kernel, as far as the barriers go: the barriers it waits
    at in order and the choices that took it there (`Unknown` where the run decides one)."""

    evaluator: Evaluator
    holding: set[Operation]
    budget: Budget
    stops: list[Stop] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    steps: int = 0

    def step(self) -> None:
        self.steps += 1
        self.budget.left -= 1
        if self.budget.left < 0:
            raise OutOfTime
        if self.steps > STEPS:
            raise Unknown

    def bind(self, args: Sequence[BlockArgument], values: Sequence[int | None]) -> None:
        """New values of block arguments (None: not known): what depends on them is forgotten."""
        self.evaluator.forget()
        for arg, value in zip(args, values, strict=True):
            if value is None:
                self.evaluator.known.pop(arg, None)
            else:
                self.evaluator.known[arg] = value

    def maybe(self, value: SSAValue) -> int | None:
        try:
            return self.evaluator.bits(value)
        except Unknown:
            return None

    def function(self, body: Region) -> None:
        """Run a kernel's body: its blocks from the entry, along the branches, to a return."""
        block = body.blocks[0]
        while True:
            target = self.block(block)
            if target is None:
                return
            block, values = target
            self.bind(block.args, values)

    def block(self, block: Block) -> tuple[Block, list[int | None]] | None:
        """Run the ops of `block`; the successor it branches to with its arguments, or None at
        a return."""
        for op in block.ops:
            self.step()
            if isinstance(op, cf.BranchOp):
                return op.successor, [self.maybe(v) for v in op.arguments]
            if isinstance(op, cf.ConditionalBranchOp):
                taken = 0 if self.evaluator.bits(op.cond) else 1
                self.decisions.append((op, taken))
                arguments = op.then_arguments if taken == 0 else op.else_arguments
                return op.successors[taken], [self.maybe(v) for v in arguments]
            if isinstance(op, func.ReturnOp):
                return None
            if op.successors:
                raise Unknown  # a branch of another kind
            if op in self.holding:
                self.op(op)
        return None

    def op(self, op: Operation) -> None:
        """Run an op that waits at a barrier or holds one."""
        if isinstance(op, gpu.SyncedScopeOp):
            self.stops.append((op, 0))
            self.region(op.regions[0])
            self.stops.append((op, 1))
        elif is_barrier(op):
            self.stops.append((op, 0))
        elif isinstance(op, scf.IfOp):
            taken = 0 if self.evaluator.bits(op.cond) else 1
            self.decisions.append((op, taken))
            self.region(op.regions[taken])
        elif isinstance(op, scf.ForOp):
            width = _width(op.lb)  # scf.for compares signed
            lb, ub = (integers.signed(self.evaluator.bits(v), width) for v in (op.lb, op.ub))
            step = integers.signed(self.evaluator.bits(op.step), width)
            if step <= 0:
                raise Unknown
            trips = range(lb, ub, step)
            self.decisions.append((op, len(trips)))
            body = op.body.block
            for iv in trips:
                self.step()
                self.bind(body.args, [iv % (1 << width), *[None] * (len(body.args) - 1)])
                self.region(op.body)
        else:
            raise Unknown  # scf.while, a call, another region op: the run decides

    def region(self, region: Region) -> None:
        if not region.blocks:
            return
        if len(region.blocks) > 1:
            raise Unknown
        for op in region.blocks[0].ops:
            self.step()
            if op in self.holding:
                self.op(op)


@dataclass(frozen=True)
class Parting:
    """Where the work-items of a group part at a barrier: those that reach it (as their
    barrier number `k + 1`), the others and what they do instead, and the op where the two
    ways part."""

    group: int | None  # None: every group
    stop: Stop
    k: int
    reach: list[int]
    miss: list[int]
    instead: Stop | None  # None: they return
    at: Operation | None


def parting(
    kernel: func.FuncOp,
    holding: set[Operation],
    n_items: int,
    groups: Sequence[int | None],
    args: dict[SSAValue, int],
) -> Parting | None:
    """The first of `groups` (None: the group id is not known) where two work-items whose ways
    are known wait at different barriers, and where; None when none provably does."""
    params = kernel.body.blocks[0].args
    budget = Budget()
    for group in groups:
        walks: dict[int, Walk] = {}
        for item in range(n_items):
            known = {**args, params[ITEM_ARG]: item}
            if group is not None:
                known[params[GROUP_ARG]] = group
            walk = Walk(Evaluator(known), holding, budget)
            try:
                walk.function(kernel.body)
            except Unknown:
                continue
            walks[item] = walk
        found = _first_difference(walks)
        if found is not None:
            return Parting(group, *found)
    return None


def _first_difference(
    walks: dict[int, Walk],
) -> tuple[Stop, int, list[int], list[int], Stop | None, Operation | None] | None:
    """Where the barriers of the walks first differ: the barrier and its number, the items at
    it and the others, what the first of those does, and where their ways part."""
    if len(walks) < 2:
        return None
    longest = max(len(w.stops) for w in walks.values())
    for k in range(longest):
        at_k = {item: (w.stops[k] if k < len(w.stops) else None) for item, w in walks.items()}
        if len(set(at_k.values())) == 1:
            continue
        first = next(item for item, stop in at_k.items() if stop is not None)
        stop = at_k[first]
        assert stop is not None
        reach = [item for item, s in at_k.items() if s == stop]
        miss = [item for item, s in at_k.items() if s != stop]
        instead = at_k[miss[0]]
        mine, theirs = walks[first].decisions, walks[miss[0]].decisions
        at = next((a[0] for a, b in zip(mine, theirs, strict=False) if a != b), None)
        return stop, k, reach, miss, instead, at
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


def check_launch(
    symbols: Symbols, launch: gpu.LaunchOp, walked: Counter, same_way: Counter | None = None
) -> None:
    """Raise an `OpError` at the first barrier of the launched kernel that the work-items of a
    group provably part at (module docstring); `walked` counts the launches whose kernel is
    walked work-item by work-item, `same_way` those that need no walk (`uniform`)."""
    n_items = _constant(launch.n_items)
    kernel = symbols.lookup(launch.kernel)
    if n_items is None or not 1 < n_items <= MAX_ITEMS or not isinstance(kernel, func.FuncOp):
        return
    if not kernel.body.blocks:
        return
    holding = holders(kernel, symbols)
    if not any(is_barrier(op) for op in holding):
        return
    if uniform(kernel, holding):
        if same_way is not None:
            same_way.add()
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
    groups: list[int | None] = [None]  # first: ways that do not read the group id
    if n_groups is not None:
        groups += sorted({g for g in (0, 1, n_groups - 2, n_groups - 1) if 0 <= g < n_groups})
    walked.add()
    try:
        found = parting(kernel, holding, n_items, groups, args)
    except OutOfTime:
        return
    if found is None:
        return
    which = "every work-group" if found.group is None else f"work-group {found.group}"
    barrier, exit_ = found.stop
    this = "the exit of this synced scope" if exit_ else "this barrier"
    if found.instead is None:
        instead = f"return from the kernel after {found.k} barrier(s)"
    else:
        other, other_exit = found.instead
        instead = f"wait at {'the exit of ' if other_exit else ''}{describe_op(other)}"
    parts = f": their ways part at {describe_op(found.at)}" if found.at is not None else ""
    raise OpError(
        barrier,
        f"barrier divergence: in {which} of the launch of @{kernel.sym_name.data}"
        f"{where(launch)} ({n_items} work-items per group), work-item(s) "
        f"{item_ranges(found.reach)} reach {this} as their barrier {found.k + 1}, and "
        f"work-item(s) {item_ranges(found.miss)} {instead}{parts}; every work-item of a "
        "group must reach the same barriers",
    )


@dataclass(frozen=True)
class CheckBarrierDivergencePass(ModulePass):
    """Reject a barrier that the work-items of a group provably do not all reach."""

    name = "check-barrier-divergence"
    PRESERVES_IR: ClassVar[bool] = True
    """An analysis: it reports and leaves the IR as it is (not verified again after it)."""

    checked = Statistic("num-launches-checked", "Number of launches in @main's entry block checked")
    walked = Statistic(
        "num-launches-walked", "Number of launches whose kernel was walked work-item by work-item"
    )
    uniform = Statistic(
        "num-launches-uniform",
        "Number of launches whose kernel's barriers no branch decides (not walked)",
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        symbols = Symbols(op)
        for launch in _unconditional_launches(op):
            check_launch(symbols, launch, self.walked, self.uniform)
            self.checked.add()
