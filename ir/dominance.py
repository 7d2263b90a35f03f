"""SSA dominance: the check of MLIR's verifier that xDSL's verifier does not make.

xDSL verifies each op, not where its operands come from, so a value used before its definition,
in a block its definition does not dominate, or outside the region that defines it, verifies;
passes, lowerings and the interpreter then fail on it in their own ways (a value with no
translation, no run-time value). `verify_dominance(module)` rejects it as MLIR does: an `OpError`
at the use, `operand #i (%x) does not dominate this use`.

The rules are MLIR's: in a block, a definition dominates the ops after it (and what they
nest); across the blocks of a region, the defining block must dominate the using block in the
control-flow graph; a use in a block that the region's entry cannot reach is not checked; the
body of a `builtin.module` is a graph region (any order). A value is never visible outside the
region that defines it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from gpuir.ir.diagnostics import OpError


def verify_dominance(root: Operation) -> None:
    """Raise an `OpError` at the first op nested in `root` that uses a value its definition
    does not dominate."""
    dominators = Dominators()
    for user in root.walk():
        for i, operand in enumerate(user.operands):
            problem = dominators.check(operand, user)
            if problem is not None:
                raise OpError(user, f"operand #{i} ({describe(operand)}) {problem}")


def describe(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"of type {value.type}"


class Dominators:
    """Dominator sets of the blocks of each region, computed when first needed."""

    def __init__(self) -> None:
        self.sets: dict[Region, dict[Block, set[Block]]] = {}
        self.positions: dict[Block, dict[Operation, int]] = {}

    def check(self, value: SSAValue, user: Operation) -> str | None:
        """Why `value` cannot be used by `user`, or None when it can."""
        if isinstance(value, BlockArgument):
            block, definition = value.block, None
        else:
            definition = value.owner
            assert isinstance(definition, Operation)
            block = definition.parent_block()
        if block is None or block.parent is None:
            return None  # a detached value: not a program's
        region = block.parent
        use = enclosing_op_in(region, user)
        if use is None:
            return "is defined in a region that does not enclose this use"
        if isinstance(region.parent_op(), ModuleOp):
            return None  # a graph region: any order
        use_block = use.parent_block()
        assert use_block is not None
        if use_block is block:
            if definition is None or self.position(definition) < self.position(use):
                return None
            return "does not dominate this use"
        dominators = self.dominators(region)
        if use_block not in dominators:
            return None  # unreachable from the entry: not checked, as in MLIR
        return None if block in dominators[use_block] else "does not dominate this use"

    def position(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        if block not in self.positions:
            self.positions[block] = {o: i for i, o in enumerate(block.ops)}
        return self.positions[block][op]

    def dominators(self, region: Region) -> dict[Block, set[Block]]:
        """Each block reachable from the region's entry → the blocks that dominate it."""
        if region not in self.sets:
            self.sets[region] = dominator_sets(region)
        return self.sets[region]


def enclosing_op_in(region: Region, op: Operation) -> Operation | None:
    """`op`, or the op that nests it, whose block is in `region`; None when `region` does not
    enclose `op`."""
    current: Operation | None = op
    while current is not None:
        block = current.parent_block()
        if block is None:
            return None
        if block.parent is region:
            return current
        current = block.parent_op()
    return None


def successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


def dominator_sets(region: Region) -> dict[Block, set[Block]]:
    """The textbook iteration over the blocks reachable from the entry block."""
    if not region.blocks:
        return {}
    entry = region.blocks[0]
    order, seen, stack = [], {entry}, [entry]
    while stack:
        block = stack.pop()
        order.append(block)
        for successor in successors(block):
            if successor not in seen and successor.parent is region:
                seen.add(successor)
                stack.append(successor)
    predecessors: dict[Block, list[Block]] = {block: [] for block in order}
    for block in order:
        for successor in successors(block):
            if successor in predecessors:
                predecessors[successor].append(block)
    sets = {block: set(order) for block in order}
    sets[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            new = {block} | set.intersection(*(sets[p] for p in predecessors[block]))
            if new != sets[block]:
                sets[block], changed = new, True
    return sets
