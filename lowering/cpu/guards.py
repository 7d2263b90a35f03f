"""Guarded segments of `Fission`'s form: `if (item_id + u < bound) {…}` (`u`, `bound` uniform) as
one loop over the items for which the guard holds, with no test per item, so that it
vectorizes without masks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.lowering.cpu.workgroups import external_values, index_constant, is_pure, is_token
from gpuir.lowering.llvm.conversion import index_type

if TYPE_CHECKING:
    from gpuir.lowering.cpu.fission import Fission

SLT, SLE, SGT, SGE, ULT, ULE, UGT, UGE = 2, 3, 4, 5, 6, 7, 8, 9
"""`arith.cmpi` predicates."""
SWAPPED = {SLT: SGT, SLE: SGE, SGT: SLT, SGE: SLE, ULT: UGT, ULE: UGE, UGT: ULT, UGE: ULE}
"""The predicate of the same comparison with its operands swapped."""


def guard(
    f: Fission, items: list[Operation]
) -> tuple[scf.IfOp, int, SSAValue | None, SSAValue] | None:
    """A segment that is `if (item_id + u < bound) {…}` (`u`, `bound` uniform, `<` one of
    `ult`, `slt`, `ule`, `sle`, either way round), plus pure ops the branch uses, with nothing
    to do otherwise: the branch, the predicate, `u` (None for 0) and `bound`."""
    op = items[-1]
    if not isinstance(op, scf.IfOp) or not all(is_pure(o) for o in items[:-1]):
        return None
    if any(r in f.storage_of for o in items for r in o.results):
        return None
    if not all(is_token(r) for r in op.results) or len(op.false_region.blocks) > 1:
        return None
    if op.false_region.blocks and len(op.false_region.blocks[0].ops) != 1:
        return None
    compare = op.cond.owner
    if not isinstance(compare, arith.CmpiOp):
        return None
    predicate, lhs, rhs = compare.predicate.value.data, compare.lhs, compare.rhs
    if lhs not in f.varying and rhs in f.varying:
        predicate, lhs, rhs = SWAPPED.get(predicate, -1), rhs, lhs
    if predicate not in (SLT, SLE, ULT, ULE) or rhs in f.varying:
        return None
    if lhs is f.item_id:
        return op, predicate, None, rhs
    add = lhs.owner
    if isinstance(add, arith.AddiOp):
        for mine, other in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
            if mine is f.item_id and other not in f.varying:
                return op, predicate, other, rhs
    return None


def emit_guarded(f: Fission, b: Builder, items: list[Operation]) -> bool:
    """A guarded segment (`guard`) as one loop over the items for which the guard holds,
    `[0, limit)`, with no test per item, so that it vectorizes without masks:
    `limit = bound > u ? min(bound - u, n_items) : 0` for `<`,
    `limit = bound >= u ? min(bound - u, n_items - 1) + 1 : 0` for `<=` (exact in the
    index width, also where `bound - u` overflows the signed range). That the items passing the test are
    a prefix needs `u + item` not to wrap for the items: when `u + (n_items - 1)` would,
    the segment runs as it is, with the test."""
    found = guard(f, items)
    if found is None:
        return False
    branch, predicate, offset, bound = found
    signed = predicate in (SLT, SLE)
    inclusive = predicate in (SLE, ULE)
    gm = f.group_map
    start = gm[offset] if offset is not None else f.zero
    end = gm[bound]
    last = b.insert(arith.SubiOp(f.n_items, f.one)).result
    compare = ("sge" if signed else "uge") if inclusive else ("sgt" if signed else "ugt")
    above = b.insert(arith.CmpiOp(end, start, compare)).result
    difference = b.insert(arith.SubiOp(end, start)).result
    if inclusive:
        capped = b.insert(arith.MinUIOp(difference, last)).result
        capped = b.insert(arith.AddiOp(capped, f.one)).result
    else:
        capped = b.insert(arith.MinUIOp(difference, f.n_items)).result
    limit = b.insert(arith.SelectOp(above, capped, f.zero)).result
    body = list(branch.true_region.blocks[0].ops)[:-1]
    if offset is None:
        emit_prefix(f, b, body, limit)
        return True
    width = index_type(branch).width.data  # 64, or 32 (`gpu.index_bitwidth`)
    top = index_constant(b, (1 << (width - 1)) - 1 if signed else -1)
    highest = b.insert(arith.SubiOp(top, last)).result
    fits = b.insert(arith.CmpiOp(start, highest, "sle" if signed else "ule")).result
    prefix, tested = Block(), Block()
    emit_prefix(f, Builder(InsertPoint.at_end(prefix)), body, limit)
    prefix.add_op(scf.YieldOp())
    f.emit_items(Builder(InsertPoint.at_end(tested)), items, [])
    tested.add_op(scf.YieldOp())
    b.insert(scf.IfOp(fits, [], Region(prefix), Region(tested)))
    return True


def emit_prefix(f: Fission, b: Builder, body: list[Operation], limit: SSAValue) -> None:
    """The ops `body` (of a guarded branch) in a loop over the items `[0, limit)`."""
    lb, item = f.item_loop(b, limit)
    mapper: dict[SSAValue, SSAValue] = {}
    for value in external_values(body):
        f.value_at(lb, value, item, mapper)
    for op in body:
        lb.insert(op.clone(value_mapper=mapper))
