"""`check-tokens`: memory effects that the token chain leaves unordered, and that may conflict.

The token chain is the only ordering of memory effects (docs/ir-extensions.md), so a token that two ops consume
forks the chain: whatever follows one use is unordered against whatever follows the other, and
a pass may swap them. For each token consumed more than once (two uses that can both run for one
value of the token: not the two regions of one `scf.if`, not two blocks that no path joins, and
a use inside a loop that the token is defined outside of, which each iteration consumes again),
the pass follows each use along its chain (through `scf` results and iteration arguments, branch
arguments, region arguments) and compares what each side reads and writes in the token's address
space. Two effects conflict when one writes and they may touch the same memory:

- warning at the later op, naming the earlier: they may overlap (`docs/ir-extensions.md`);
- error: they provably touch the same bytes (the same pointer, or the same base and the same
  constant or SSA indices through `mem.lea`).

Different allocations never overlap, nor do different constant indices into one base. Reads
that share a token are fine. Barriers and fences count as writing all of their spaces' memory,
a launch as writing global and reading const memory, a call as its callee's accesses, anywhere.
The pass only reads the module (`docs/ir-extensions.md`, "Consumed-twice tokens").
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from gpuir.dialects import buffer, gpu, mem
from gpuir.dialects.mem import CONST, GLOBAL, HOST, SPACE_NAMES, MemType
from gpuir.ir.diagnostics import OpError, OpWarning, Related, describe_op
from gpuir.ir.pass_manager import Statistic

Index = int | SSAValue
"""A `mem.lea` index: its constant, or the SSA value when it is not one."""

STEPS = 20_000
"""The ops one side of a fork is followed through before the rest is left unchecked."""


@dataclass(frozen=True)
class Place:
    """Memory an access touches: everything under `path` (the `mem.lea` indices, outermost
    first) from the pointer `base`."""

    base: SSAValue
    path: tuple[Index, ...]


@dataclass(frozen=True)
class Effect:
    """What `op` does to memory of one address space: reads or writes `place` (None: any)."""

    op: Operation
    writes: bool
    place: Place | None


def place(ptr: SSAValue) -> Place:
    path: list[Index] = []
    while isinstance(ptr.owner, mem.LeaOp):
        index = ptr.owner.index
        owner = index.owner
        is_constant = isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)
        path.append(owner.value.value.data if is_constant else index)  # type: ignore[union-attr]
        ptr = ptr.owner.ptr
    return Place(ptr, tuple(reversed(path)))


ALLOCATIONS = (
    mem.AllocOp,
    mem.MallocOp,
    mem.SlotOp,
    mem.MslotOp,
    gpu.AllocBlockOp,
    gpu.AllocAsynOp,
    gpu.AllocCopyBlockOp,
    gpu.AllocCopyAsynOp,
    gpu.BufAllocCopyOp,
    buffer.AllocOp,
    buffer.LitOp,
    buffer.InitOp,
)
"""Ops whose pointer (or buffer) result is new memory: two of them never overlap."""


def may_overlap(a: Place | None, b: Place | None, varying: SSAValue | None = None) -> bool:
    """Whether `a` and `b` may share a byte. `varying`: an induction variable that differs
    between the two (they are in different iterations of its loop)."""
    if a is None or b is None:
        return True
    if a.base != b.base:
        fresh = isinstance(a.base.owner, ALLOCATIONS) and isinstance(b.base.owner, ALLOCATIONS)
        return not fresh
    for x, y in zip(a.path, b.path, strict=False):
        if isinstance(x, int) and isinstance(y, int) and x != y:
            return False
        if varying is not None and x == varying and y == varying:
            return False
    return True


def same_bytes(a: Place | None, b: Place | None, varying: SSAValue | None = None) -> bool:
    """Whether `a` and `b` provably share a byte (one lies under the other)."""
    if a is None or b is None or a.base != b.base:
        return False
    common = list(zip(a.path, b.path, strict=False))
    return all(x == y and (varying is None or x != varying) for x, y in common)


def effects_of(op: Operation, space: int, module: ModuleOp) -> list[Effect] | None:
    """What `op` does to memory of `space` when it takes a token of it; None for an op that
    only passes the token on (`effects_from` follows those)."""
    if isinstance(op, mem.LoadOp | mem.PrintMemrefOp):
        return [Effect(op, False, place(op.ptr))]
    if isinstance(op, mem.StoreOp | mem.FreeOp | mem.AtomicRmwOp | mem.CmpxchgOp):
        return [Effect(op, True, place(op.ptr))]
    if isinstance(op, gpu.FreeBlockOp | gpu.FreeAsynOp):
        return [Effect(op, True, place(op.ptr))]
    if isinstance(op, mem.RememOp) or (
        isinstance(op, ALLOCATIONS) and not isinstance(op, gpu.AllocCopyOp | gpu.BufAllocCopyOp)
    ):
        return []  # a fresh token, or new memory
    if isinstance(op, gpu.CopyOp):  # reads its source's space, writes its destination's
        reads = (space == HOST) == (op.SRC_SPACE == HOST)
        return [Effect(op, not reads, place(op.src if reads else op.dst))]
    if isinstance(op, gpu.AllocCopyOp | gpu.BufAllocCopyOp):
        source = op.src if isinstance(op, gpu.AllocCopyOp) else op.buf
        return [Effect(op, False, place(source))] if space == HOST else []
    if isinstance(op, gpu.BufCopyToHostOp):
        return [Effect(op, space == HOST, place(op.dst if space == HOST else op.src))]
    if isinstance(op, gpu.LaunchOp):  # kernels write global memory and read const memory
        return [Effect(op, space == GLOBAL, None)] if space in (GLOBAL, CONST) else []
    if isinstance(op, gpu.StreamInitOp):
        return [Effect(op, True, place(op.slot))] if space == HOST else []
    if isinstance(op, gpu.SyncWorkItemsOp | gpu.FenceOp | gpu.CollectiveOp):
        return [Effect(op, True, None)]  # other work-items' accesses become visible
    if isinstance(
        op,
        gpu.SessionOpenOp
        | gpu.SessionCloseOp
        | gpu.StreamUseOp
        | gpu.ShuffleOp
        | gpu.BallotOp
        | buffer.ShapeOp,
    ):
        return []
    if isinstance(op, buffer.ReadOp | buffer.PrintOp):
        return [Effect(op, False, place(op.buf))]
    if isinstance(op, buffer.WriteOp):
        return [Effect(op, True, place(op.buf))]
    if isinstance(op, buffer.CopyOp):
        return [Effect(op, True, place(op.dst)), Effect(op, False, place(op.src))]
    if isinstance(op, func.CallOp):
        return [Effect(op, _callee_writes(op, space, module), None)]
    if isinstance(op, PASSING):
        return None
    return [Effect(op, True, None)]  # an op this pass does not know: anything


PASSING = (
    scf.YieldOp,
    scf.ConditionOp,
    scf.ForOp,
    scf.WhileOp,
    scf.IfOp,
    scf.ExecuteRegionOp,
    cf.BranchOp,
    cf.ConditionalBranchOp,
    func.ReturnOp,
    gpu.YieldOp,
    gpu.SyncedScopeOp,
    gpu.WithStreamsOp,
)
"""Ops that hand a token on: to results, region or block arguments, or the caller."""


def _callee_writes(call: func.CallOp, space: int, module: ModuleOp) -> bool:
    callee = SymbolTable.lookup_symbol(module, call.callee)
    if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
        return True
    for op in callee.walk():
        for operand in op.operands:
            if isinstance(operand.type, MemType) and operand.type.space.data == space:
                found = effects_of(op, space, module) if not isinstance(op, func.CallOp) else None
                if found is None and isinstance(op, func.CallOp):
                    return True  # calls on: not followed
                if found and any(e.writes for e in found):
                    return True
    return False


def passed_to(use: Use) -> Sequence[SSAValue]:
    """The values a token becomes when `use`'s op passes it on (not a memory op)."""
    op, i = use.operation, use.index
    parent = op.parent_op()
    if isinstance(op, scf.YieldOp | gpu.YieldOp) and parent is not None:
        if isinstance(parent, scf.ForOp):  # the next iteration, and the loop's result
            return [parent.body.block.args[i + 1], parent.results[i]]
        if isinstance(parent, scf.WhileOp):  # from the after region: the before region again
            return [parent.before_region.block.args[i]]
        return [parent.results[i]]
    if isinstance(op, scf.ConditionOp) and isinstance(parent, scf.WhileOp):
        return [parent.after_region.block.args[i - 1], parent.results[i - 1]]
    if isinstance(op, scf.ForOp):
        return [op.body.block.args[i - 2], op.results[i - 3]]
    if isinstance(op, scf.WhileOp):
        return [op.before_region.block.args[i]]
    if isinstance(op, cf.BranchOp):
        return [op.successor.args[i]]
    if isinstance(op, cf.ConditionalBranchOp):
        then = len(op.then_arguments)
        if i - 1 < then:
            return [op.then_block.args[i - 1]]
        return [op.else_block.args[i - 1 - then]]
    if isinstance(op, gpu.SyncedScopeOp | gpu.WithStreamsOp):
        return [op.regions[0].blocks[0].args[i]]
    return []  # scf.if and scf.execute_region take no token operands; func.return: the caller


def effects_from(use: Use, module: ModuleOp) -> list[Effect]:
    """What follows `use` on its token's chain, in chain order (breadth first)."""
    token = use.operation.operands[use.index]
    assert isinstance(token.type, MemType)
    space = token.type.space.data
    found: list[Effect] = []
    seen: set[tuple[Operation, int]] = set()
    queue = deque([use])
    while queue and len(seen) < STEPS:
        u = queue.popleft()
        if (u.operation, u.index) in seen:
            continue
        seen.add((u.operation, u.index))
        effects = effects_of(u.operation, space, module)
        if effects is None:
            nexts: Iterable[SSAValue] = passed_to(u)
        else:
            found.extend(effects)
            nexts = [r for r in u.operation.results if r.type == token.type]
        for value in nexts:
            queue.extend(value.uses)
    return found


# Which uses of a token run for one value of it --------------------------------------------


def _ancestor_in(op: Operation, region: Region) -> Operation | None:
    while op.parent_region() is not region:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _reaches(start: Block, target: Block, avoid: Block | None) -> bool:
    """Whether a path of successors leads from `start` to `target` without entering `avoid`."""
    seen: set[Block] = set()
    stack = list(_successors(start))
    while stack:
        block = stack.pop()
        if block is avoid or block in seen:
            continue  # entering `avoid` defines the value anew
        if block is target:
            return True
        seen.add(block)
        stack.extend(_successors(block))
    return False


def _successors(block: Block) -> Sequence[Block]:
    last = block.last_op
    return list(last.successors) if last is not None else []


def both_run(a: Operation, b: Operation, region: Region, avoid: Block | None) -> bool:
    """Whether `a` and `b` (in `region`, at any depth) can both run for one value defined in
    `region` (in block `avoid`, whose next run defines another value)."""
    if a is b and a.successors:
        return False  # a branch that passes the token to each of its successors: one runs
    x, y = _ancestor_in(a, region), _ancestor_in(b, region)
    if x is None or y is None:
        return True
    if x is not y:
        bx, by = x.parent_block(), y.parent_block()
        if bx is by or bx is None or by is None:
            return True
        return _reaches(bx, by, avoid) or _reaches(by, bx, avoid)
    if x is a or x is b:
        return True  # one holds the other
    ra, rb = _region_of(a, x), _region_of(b, x)
    if ra is not rb:
        return not isinstance(x, scf.IfOp | scf.IndexSwitchOp)  # the regions of a choice
    return both_run(a, b, ra, None)


def _region_of(op: Operation, holder: Operation) -> Region:
    while op.parent_op() is not holder:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    region = op.parent_region()
    assert region is not None
    return region


@dataclass(frozen=True)
class Repeat:
    """How a use runs again for one value of its token: in `loop` (None: a cf loop), whose
    induction variable `varying` differs between iterations (None: not an `scf.for`)."""

    loop: Operation | None
    varying: SSAValue | None


def repeats(op: Operation, region: Region, avoid: Block | None) -> Repeat | None:
    """Whether `op` may run more than once for one value defined in `region` (in `avoid`)."""
    inner = op
    while (parent := inner.parent_op()) is not None and inner.parent_region() is not region:
        if isinstance(parent, scf.WhileOp):
            return Repeat(parent, None)
        if isinstance(parent, scf.ForOp) and _trips(parent) != 1:
            return Repeat(parent, parent.body.block.args[0])
        inner = parent
    block = inner.parent_block()
    if block is not None and block is not avoid and _reaches(block, block, avoid):
        return Repeat(None, None)
    return None


def _trips(loop: scf.ForOp) -> int | None:
    bounds = []
    for value in (loop.lb, loop.ub, loop.step):
        owner = value.owner
        if not (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)):
            return None
        bounds.append(owner.value.value.data)
    lb, ub, step = bounds
    return len(range(lb, ub, step)) if step > 0 else None


# Reports ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Conflict:
    first: Effect
    second: Effect
    proven: bool


def conflict(
    left: Sequence[Effect],
    right: Sequence[Effect],
    order: dict[Operation, int],
    varying: SSAValue | None = None,
    joined: set[Operation] | frozenset[Operation] = frozenset(),
) -> Conflict | None:
    """The first pair of `left` × `right` where one writes and they may overlap; a pair that
    provably overlaps wins. Two ops of `joined` (reached from both sides: where the sides
    join, as the results of an `scf.if` whose branches yield either) are not compared: what
    follows a join is one chain in every run."""
    found: Conflict | None = None
    for e in left:
        for f in right:
            if e.op in joined and f.op in joined:
                continue
            if not (e.writes or f.writes) or not may_overlap(e.place, f.place, varying):
                continue
            first, second = sorted((e, f), key=lambda x: order.get(x.op, 0))
            proven = same_bytes(e.place, f.place, varying)
            if proven:
                return Conflict(first, second, True)
            if found is None:
                found = Conflict(first, second, False)
    return found


def message(found: Conflict, token: SSAValue, fork: str | None) -> str:
    """The diagnostic: the two ops, how the chain leaves them unordered (`fork`; None: they
    are the token's two consumers), and what they do."""
    assert isinstance(token.type, MemType)
    first, second = found.first, found.second
    if first.op is second.op:
        pair = f"'{second.op.name}' in two iterations"
    else:
        pair = f"'{second.op.name}' and {describe_op(first.op)}"
    if fork is None:
        head = f"{pair} consume the same {token.type} token, so no token chain orders them"
    else:
        head = f"{pair} are not ordered by the token chain: {fork}"
    memory = f"{SPACE_NAMES.get(token.type.space.data, token.type.space.data)} memory"
    if found.proven:
        what = f"they touch the same bytes of {memory} and one of them writes"
        return f"{head}; {what}, so their order is not fixed: thread one's token into the other"
    what = f"one of them writes and they may touch the same {memory}"
    return f"{head}; {what}, so a pass may swap them: thread one's token into the other"


def warn(op: Operation, text: str, related: Related = ()) -> None:
    """Warn at `op` (with notes at `related`), every time (Python would show one warning per
    text and line)."""
    with warnings.catch_warnings(action="always"):
        warnings.warn(OpWarning(op, text, related), stacklevel=2)


def _defined_in(token: SSAValue) -> tuple[Region | None, Block | None]:
    if isinstance(token, BlockArgument):
        return token.block.parent, token.block
    return token.owner.parent_region(), token.owner.parent_block()  # type: ignore[union-attr]


def check_token(
    token: SSAValue, module: ModuleOp, order: dict[Operation, int]
) -> tuple[Conflict, str | None] | None:
    """The worst conflict among the effects that `token`'s uses leave unordered, and how the
    chain forks there (None: at the two ops themselves)."""
    region, block = _defined_in(token)
    if region is None:
        return None
    uses = sorted(token.uses, key=lambda u: order.get(u.operation, 0))
    sides = [effects_from(u, module) for u in uses]
    worst: tuple[Conflict, str | None] | None = None
    for i, u in enumerate(uses):
        again = repeats(u.operation, region, block)
        if again is not None:
            found = conflict(sides[i], sides[i], order, again.varying)
            if found is not None:
                where = (
                    "each time its block runs"
                    if again.loop is None
                    else (f"in each iteration of {describe_op(again.loop)}")
                )
                fork = f"{describe_op(u.operation)} consumes the {token.type} token again {where}"
                worst = _worse(worst, (found, fork))
        for j in range(i + 1, len(uses)):
            v = uses[j]
            if not both_run(u.operation, v.operation, region, block):
                continue
            joined = {e.op for e in sides[i]} & {e.op for e in sides[j]}
            found = conflict(sides[i], sides[j], order, joined=joined)
            if found is None:
                continue
            if {found.first.op, found.second.op} == {u.operation, v.operation}:
                worst = _worse(worst, (found, None))
                continue
            fork = (
                f"it forks where {describe_op(u.operation)} and {describe_op(v.operation)} "
                f"consume the same {token.type} token"
            )
            worst = _worse(worst, (found, fork))
    return worst


Found = tuple[Conflict, str | None]


def _worse(old: Found | None, new: Found) -> Found:
    return new if old is None or (new[0].proven and not old[0].proven) else old


def tokens(module: ModuleOp) -> Iterable[SSAValue]:
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                yield from (a for a in block.args if isinstance(a.type, MemType))
        yield from (r for r in op.results if isinstance(r.type, MemType))


def forked_spaces(module: ModuleOp) -> frozenset[int]:
    """The address spaces of the tokens of `module` that are consumed twice for one value: two
    uses that can both run, or a use that runs again (interp tracks the chains of these spaces,
    `gpuir.runtime.engine.token_order`)."""
    found: set[int] = set()
    for token in tokens(module):
        assert isinstance(token.type, MemType)
        space = token.type.space.data
        uses = list(token.uses)
        if space in found or not uses:
            continue
        region, block = _defined_in(token)
        if region is None:
            continue
        for i, u in enumerate(uses):
            if repeats(u.operation, region, block) is not None or any(
                both_run(u.operation, v.operation, region, block) for v in uses[i + 1 :]
            ):
                found.add(space)
                break
    return frozenset(found)


@dataclass(frozen=True)
class CheckTokensPass(ModulePass):
    """Warn about memory effects that a forked token chain leaves unordered and that may
    conflict; an error when they provably touch the same bytes."""

    name = "check-tokens"
    PRESERVES_IR: ClassVar[bool] = True
    """An analysis: it reports and leaves the IR as it is (not verified again after it)."""

    checked = Statistic("num-tokens-checked", "Number of memory tokens checked")
    forked = Statistic(
        "num-tokens-forked", "Number of tokens used twice, or again in a loop, followed"
    )
    unordered = Statistic(
        "num-unordered-conflicts", "Number of forks that leave conflicting effects unordered"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        order = {o: i for i, o in enumerate(op.walk())}
        for token in tokens(op):
            self.checked.add()
            uses = list(token.uses)
            region, block = _defined_in(token)
            if len(uses) < 2 and not (
                uses
                and region is not None
                and repeats(uses[0].operation, region, block) is not None
            ):
                continue
            self.forked.add()
            found = check_token(token, op, order)
            if found is None:
                continue
            self.unordered.add()
            conflict_, fork = found
            text = message(conflict_, token, fork)
            first = conflict_.first.op
            related = [] if first is conflict_.second.op else [(first, "the other op of the pair")]
            if conflict_.proven:
                raise OpError(conflict_.second.op, text, related)
            warn(conflict_.second.op, text, related)
