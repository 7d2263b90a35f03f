"""The ops a pattern puts in place of an op get that op's location (MLIR's patterns pass
`op->getLoc()` to what they build; xDSL's leave new ops at `loc(unknown)`).

`KeepLocations(pattern)` wraps a pattern; every pass in `passes/` and `lowering/` wraps its
patterns in it, so that a diagnostic at a made op (a later pass's, or a provider's at run time)
points into the source, and op locations reach the llvm dialect and become line info
(`gpuir.lowering.llvm.llvm_ir`). Given a `Counter` it also counts the ops the pattern rewrote.

    // before: a rewrite of `buffer.read` at 7:3
    %m1, %v = buffer.read %m, %b[%i] : !buffer.buf<8xf32>          loc(7:3)
    // after: every op the pattern made (and what they nest) is at 7:3
    %p = mem.lea %ptr, %i : !mem.ptr<!mem.array<8 x f32>, 0>        loc(7:3)
    %m1, %v = mem.load %m, %p : !mem.ptr<f32, 0>                    loc(7:3)

Made ops are those the pattern inserted through the rewriter and those it left where the op was
(a `Builder` of its own), with what they nest; an op that was inside the rewritten op before
(a region the pattern moved) keeps its location, and so does what it nests. Ops made elsewhere
with a `Builder` of its own (a declaration at the top of the module) stay at `loc(unknown)`.
A pass that builds ops without a pattern calls `locate` where it builds them. `rewrite_once` is
the walk that most lowerings make: each pattern kept in `KeepLocations`, each op visited once
(`apply_patterns`, with the patterns in `keeping`, when they count in different statistics).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from types import UnionType
from typing import Union, get_args, get_origin

from xdsl.dialects.builtin import ModuleOp, UnknownLoc
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from gpuir.ir.pass_manager import Counter


def locate(ops: Iterable[Operation], location: Attribute, kept: Container[Operation] = ()) -> None:
    """Give each op of `ops` without a location `location`, and so the ops it nests; an op of
    `kept` (one that was there before), or one with a location of its own, and what it nests
    are left alone."""
    for op in ops:
        if op in kept or not isinstance(op.location, UnknownLoc):
            continue
        op.location = location
        for region in op.regions:
            for block in region.blocks:
                locate(block.ops, location, kept)


class KeepLocations(RewritePattern):
    """`pattern`, giving what it makes the rewritten op's location (module docstring), and
    counting in `rewritten` (when given) each op it rewrote. `apply_patterns` merges the
    wrappers it is given in a row into one, which tries their patterns in order: an op's
    contents are then read once per visit, not once per pattern tried."""

    def __init__(self, pattern: RewritePattern, rewritten: Counter | None = None) -> None:
        self.alternatives: list[tuple[RewritePattern, Counter | None]] = [(pattern, rewritten)]
        self.op_types = op_types(pattern)
        """The op types one of the patterns may act on; None: any."""
        self.acts_on: dict[type[Operation], bool] = {}
        """Per class of op seen, whether it is one of `op_types`: an `isinstance` of a tuple of
        op classes (ABCs) costs microseconds per class, on every op of every walk."""

    def merged(self, other: KeepLocations) -> KeepLocations:
        both = KeepLocations.__new__(KeepLocations)
        both.alternatives = self.alternatives + other.alternatives
        known = self.op_types is not None and other.op_types is not None
        both.op_types = (*self.op_types, *other.op_types) if known else None  # type: ignore[misc]
        both.acts_on = {}
        return both

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if self.op_types is not None:
            acts = self.acts_on.get(op.__class__)
            if acts is None:
                acts = self.acts_on[op.__class__] = isinstance(op, self.op_types)
            if not acts:
                return  # none of the patterns acts on it: no location to keep
        acted = rewriter.has_done_action
        rewriter.has_done_action = False
        try:
            if type(op.location) is UnknownLoc:  # exact: an ABC's isinstance costs more
                self.rewrite(op, rewriter)
            else:
                self.rewrite_located(op, rewriter)
        finally:
            rewriter.has_done_action |= acted

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        """The first of the patterns that acts on `op`, counted."""
        for pattern, rewritten in self.alternatives:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                if rewritten is not None:
                    rewritten.add()
                return

    def rewrite_located(self, op: Operation, rewriter: PatternRewriter) -> None:
        location = op.location
        block, before, after = op.parent, op.prev_op, op.next_op
        # what the pattern may move into the ops that replace op
        kept = set(op.walk()) if op.regions else (op,)
        made: list[Operation] = []
        handler = made.append
        rewriter.operation_insertion_handler.append(handler)
        try:
            self.rewrite(op, rewriter)
        finally:
            rewriter.operation_insertion_handler.remove(handler)
        if not rewriter.has_done_action:
            return
        locate(made, location, kept)
        if block is None or (before is not None and before.parent is not block):
            return
        overrun = after is not None and after.parent is not block  # moved or erased
        new = before.next_op if before is not None else block.first_op
        while new is not None and new is not after:
            if overrun and new not in kept and new.location not in (location, UnknownLoc()):
                break  # an op that was after op (the pattern moved or erased `after`)
            locate([new], location, kept)
            new = new.next_op


def op_types(pattern: RewritePattern) -> tuple[type[Operation], ...] | None:
    """The op types that `pattern` acts on: its class's `OP_TYPES` where it has one (a pattern
    that tests the op's type itself), else what xDSL's `op_type_rewrite_pattern` says (the
    type of its method's op parameter, kept in the wrapper it makes); None: any op."""
    declared = getattr(type(pattern), "OP_TYPES", None)
    if declared is not None:
        return tuple(declared)
    method = type(pattern).match_and_rewrite
    code = getattr(method, "__code__", None)
    if code is None or "expected_type" not in code.co_freevars:
        return None
    expected = method.__closure__[code.co_freevars.index("expected_type")].cell_contents  # type: ignore[index]
    types = get_args(expected) if get_origin(expected) in (Union, UnionType) else (expected,)
    if not all(isinstance(t, type) and issubclass(t, Operation) for t in types):
        return None
    return tuple(types)


def keeping(rewritten: Counter | None, *patterns: RewritePattern) -> list[RewritePattern]:
    """Each of `patterns` in `KeepLocations`, counting in `rewritten`."""
    return [KeepLocations(p, rewritten) for p in patterns]


def merge_kept(patterns: Sequence[RewritePattern]) -> list[RewritePattern]:
    """`patterns`, each run of `KeepLocations` in a row merged into one (same order)."""
    merged: list[RewritePattern] = []
    for pattern in patterns:
        if isinstance(pattern, KeepLocations) and merged and isinstance(merged[-1], KeepLocations):
            merged[-1] = merged[-1].merged(pattern)
        else:
            merged.append(pattern)
    return merged


def apply_patterns(
    root: ModuleOp, patterns: Sequence[RewritePattern], *, once: bool = True, dce: bool = True
) -> None:
    """Rewrite the ops of `root` with xDSL's greedy applier: the first of `patterns` that
    matches an op rewrites it; with `dce`, an op that is trivially dead is erased first. With
    `once`, one walk over the ops there were (the ops the rewrites make are not visited); else
    the made and changed ops are rewritten too, until nothing changes."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(merge_kept(patterns), dce_enabled=dce),
        apply_recursively=not once,
    ).rewrite_module(root)


def rewrite_once(
    module: ModuleOp,
    patterns: Sequence[RewritePattern],
    rewritten: Counter | None = None,
    *,
    dce: bool = True,
) -> None:
    """`apply_patterns(module, …, once=True)` with each of `patterns` in `KeepLocations`,
    counting in `rewritten`: the walk most lowerings make."""
    apply_patterns(module, keeping(rewritten, *patterns), dce=dce)
