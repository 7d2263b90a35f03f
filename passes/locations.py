"""The ops a pattern puts in place of an op get that op's location.

xDSL's rewriter leaves the ops a pattern inserts without a location (MLIR's builders take one),
so a diagnostic at them, a later pass's or a provider's at run time (`out of bounds` in the
`mem.load` that `buffer.read` became), could not point into the source. Wrapping a pass's
patterns in `KeepLocations` gives each op that replaced the matched op (and every op it nests)
the matched op's location, unless it has its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern


@dataclass
class KeepLocations(RewritePattern):
    pattern: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        block, before, after = op.parent_block(), op.prev_op, op.next_op
        self.pattern.match_and_rewrite(op, rewriter)
        if block is None or isinstance(op.location, UnknownLoc):
            return
        current = block.first_op if before is None else before.next_op
        while current is not None and current is not after:
            if current is not op:  # what op nests is the patterns' business when op stays
                for new in current.walk():
                    if isinstance(new.location, UnknownLoc):
                        new.location = op.location
            current = current.next_op
