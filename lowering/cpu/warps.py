"""The warp operations of a kernel in `Fission`'s form: loops over a group's lanes.

`choose_form` (`gpuir.lowering.cpu.forms`) gives a kernel with `gpu.shuffle` / `gpu.ballot` to
`Fission` where each is reached by the whole group (its control flow there is uniform), so every
warp reaches it with all its lanes. It is then a step between two item loops, as a barrier is:
the items before it store what they give (`given`), one loop over the group computes each
item's results from the others' values, the items after it load them. Every loop is a plain
loop over arrays, which LLVM vectorizes (the shuffle's read is a gather, the ballot a vector
compare and an or-reduction per warp):

    shuffle: for item in [0, n): lane = item % 32, lo = item - lane,
             read, valid = shuffle_source(mode, lane, offset, width, min(n - lo, 32))
             res[item] = values[lo + read]; ok[item] = valid
    ballot:  for warp in [0, ceil(n / 32)): mask = OR over its lanes of (pred << lane);
             mask[item] = mask for each of its items

A warp's lanes are 32 consecutive items; the last warp of a group may have fewer
(`gpuir.lowering.llvm.rules.shuffle_source` takes their count). The results are `interp`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import LOCAL, ArrayType, PtrType
from gpuir.lowering.cpu.guards import SGE, SGT, SLE, SLT, SWAPPED, UGE, UGT, ULE, ULT
from gpuir.lowering.cpu.workgroups import (
    LOCAL_BYTES,
    array_place,
    constant_index,
    index_constant,
    is_pure,
)
from gpuir.lowering.llvm.conversion import FLOAT_TYPES, size_and_align
from gpuir.lowering.llvm.rules import shuffle_source

if TYPE_CHECKING:
    from gpuir.lowering.cpu.fission import Fission


def given(op: Operation) -> SSAValue:
    """What each item gives a collective or warp operation: its value, or a ballot's
    predicate."""
    if isinstance(op, gpu.BallotOp):
        return op.pred
    return op.value  # type: ignore[attr-defined]


def warp_results(op: Operation) -> list[SSAValue]:
    """The results of a warp operation that later items use (each kept per item)."""
    if isinstance(op, gpu.ShuffleOp):
        found = [op.res, op.valid]
    else:
        assert isinstance(op, gpu.BallotOp)
        found = [op.mask]
    return [r for r in found if r.uses]


def emit_warp_op(f: Fission, b: Builder, op: Operation) -> None:
    """The loops of warp operation `op` at group level (module docstring)."""
    values = f.values_array(b, op)
    if isinstance(op, gpu.BallotOp):
        emit_ballot(f, b, op, values)
        return
    assert isinstance(op, gpu.ShuffleOp)
    if not warp_results(op):
        return
    start = f.lo
    if constant_index(op.offset) is not None and constant_index(op.width) is not None:
        start = emit_whole_warps(f, b, op, values)
    body = Block(arg_types=[IndexType()])
    lb = Builder(InsertPoint.at_end(body))
    item = body.args[0]
    known: dict[SSAValue, SSAValue] = {}
    offset = lb.insert(arith.IndexCastOp(f.value_at(lb, op.offset, item, known), IndexType()))
    width = lb.insert(arith.IndexCastOp(f.value_at(lb, op.width, item, known), IndexType()))
    one, warp = index_constant(lb, 1), index_constant(lb, gpu.WARP)
    lane = lb.insert(arith.RemUIOp(item, warp)).result
    lo = lb.insert(arith.SubiOp(item, lane)).result
    left = lb.insert(arith.SubiOp(f.hi, lo)).result
    count = lb.insert(arith.MinUIOp(left, warp)).result
    read, valid = shuffle_source(
        lb, op.mode.data, lane, offset.result, width.result, count, one, warp
    )
    if op.mode.data in ("up", "down") and op.res in f.storage_of:
        near = neighbour(lb, op.mode.data, item, offset.result)
        own = f.load(lb, values, item)
        value = lb.insert(arith.SelectOp(valid, f.load(lb, values, near), own)).result
        f.store(lb, f.array_of(op.res), item, value)
        if op.valid in f.storage_of:
            f.store(lb, f.array_of(op.valid), item, valid)
    else:
        source = lb.insert(arith.AddiOp(lo, read)).result
        store_results(f, lb, op, values, item, source, valid)
    lb.insert(scf.YieldOp())
    b.insert(scf.ForOp(start, f.hi, f.one, [], body))


def neighbour(b: Builder, mode: str, item: SSAValue, offset: SSAValue) -> SSAValue:
    """The item an "up" or "down" shuffle reads where its read is valid (`offset` is then
    within ±31), else one within 32 of `item`, inside the padding of `padded`: a contiguous
    read where the offset is the group's (no gather), its value left out where not valid."""
    low, high = index_constant(b, -gpu.WARP), index_constant(b, gpu.WARP)
    shift = b.insert(arith.MinSIOp(b.insert(arith.MaxSIOp(offset, low)).result, high)).result
    step = arith.AddiOp(item, shift) if mode == "down" else arith.SubiOp(item, shift)
    return b.insert(step).result


def padded(f: Fission, b: Builder, op: gpu.ShuffleOp) -> SSAValue:
    """The array of a shuffle's values, with room for 32 values before and after the items'
    (read by `neighbour`, never used)."""
    type_ = op.value.type
    size, _ = size_and_align(type_, op)
    count = b.insert(arith.AddiOp(f.n_items, index_constant(b, 2 * gpu.WARP))).result
    length = b.insert(arith.MuliOp(count, index_constant(b, size))).result
    area = b.insert(mem.MslotOp(f.tokens[LOCAL], length, LOCAL_BYTES)).res
    return array_place(b, area, gpu.WARP * size, type_)


def emit_whole_warps(f: Fission, b: Builder, op: gpu.ShuffleOp, values: SSAValue) -> SSAValue:
    """A shuffle of a constant offset and width on the group's whole warps. Each lane's source
    and valid flag are then known here (`gpu.shuffle_source`), so per warp it is one vector
    load of the 32 values, a `vector.shuffle` by the sources (LLVM's `shufflevector`) and one
    vector store; the flags are a constant vector. Values that LLVM keeps otherwise than in
    memory (`i1`, `index`) are 32 scalar moves from their known lanes. Returns the first item
    of the partial warp that is left, if any."""
    offset, width = constant_index(op.offset), constant_index(op.width)
    assert offset is not None and width is not None
    reads = [gpu.shuffle_source(op.mode.data, lane, offset, width, gpu.WARP) for lane in range(32)]
    warp = index_constant(b, gpu.WARP)
    first = f.zero if f.lo is f.zero else b.insert(arith.DivUIOp(f.lo, warp)).result
    whole = b.insert(arith.DivUIOp(f.hi, warp)).result
    body = Block(arg_types=[IndexType()])
    wb = Builder(InsertPoint.at_end(body))
    lo = wb.insert(arith.MuliOp(body.args[0], warp)).result
    if op.res in f.storage_of:
        sources = [lane if read is None else read for lane, read in enumerate(reads)]
        move_lanes(f, wb, values, f.array_of(op.res), lo, sources)
    if op.valid in f.storage_of:
        store_flags(f, wb, f.array_of(op.valid), lo, [read is not None for read in reads])
    wb.insert(scf.YieldOp())
    b.insert(scf.ForOp(first, whole, f.one, [], body))
    return b.insert(arith.MuliOp(whole, warp)).result


def in_memory(array: SSAValue) -> Attribute | None:
    """The element type of a work-item array when 32 of them load as one LLVM vector (an
    integer of 8 bits or more, or an f16, f32 or f64), else None."""
    assert isinstance(array.type, PtrType) and isinstance(array.type.pointee, ArrayType)
    element = array.type.pointee.element_type
    if isinstance(element, IntegerType) and element.width.data >= 8:
        return element
    return element if isinstance(element, FLOAT_TYPES) else None


def warp_vector(b: Builder, array: SSAValue, lo: SSAValue, element: Attribute) -> SSAValue:
    """The address of items `lo` to `lo + 31` of `array`, as one `vector<32 x element>`
    (16-aligned: `array` is a 16-aligned slot, `lo` a multiple of 32)."""
    assert isinstance(array.type, PtrType)
    at = b.insert(mem.LeaOp(array, lo)).res
    vector_ptr = PtrType(VectorType(element, [gpu.WARP]), array.type.space)
    return b.insert(UnrealizedConversionCastOp.get([at], [vector_ptr])).results[0]


def move_lanes(
    f: Fission, b: Builder, values: SSAValue, results: SSAValue, lo: SSAValue, sources: list[int]
) -> None:
    """`results[lo + lane] = values[lo + sources[lane]]` for the 32 lanes of a warp."""
    element = in_memory(values)
    if element is None or in_memory(results) != element:
        for lane, source in enumerate(sources):
            at = b.insert(arith.AddiOp(lo, index_constant(b, source))).result
            item = b.insert(arith.AddiOp(lo, index_constant(b, lane))).result
            f.store(b, results, item, f.load(b, values, at))
        return
    token = f.tokens[LOCAL]
    loaded = b.insert(mem.LoadOp(token, warp_vector(b, values, lo, element))).res
    mask = DenseArrayBase.from_list(i64, sources)
    moved = b.insert(vector.ShuffleOp(loaded, loaded, mask, result_type=loaded.type)).result
    b.insert(mem.StoreOp(token, warp_vector(b, results, lo, element), moved))


def store_flags(f: Fission, b: Builder, flags: SSAValue, lo: SSAValue, valid: list[bool]) -> None:
    """`flags[lo + lane] = valid[lane]` for the 32 lanes of a warp: a vector of constants (a
    shuffle of a true and a false splat), or 32 stores where the flags are `i1`s."""
    element = in_memory(flags)
    if element is None:
        for lane, flag in enumerate(valid):
            item = b.insert(arith.AddiOp(lo, index_constant(b, lane))).result
            constant = b.insert(arith.ConstantOp(IntegerAttr(int(flag), i1))).result
            f.store(b, flags, item, constant)
        return
    assert isinstance(element, IntegerType)
    type_ = VectorType(element, [gpu.WARP])
    splats = [
        b.insert(vector.BroadcastOp(b.insert(arith.ConstantOp(IntegerAttr(v, element))), type_))
        for v in (1, 0)
    ]
    mask = DenseArrayBase.from_list(
        i64, [lane if ok else gpu.WARP + lane for lane, ok in enumerate(valid)]
    )
    made = b.insert(vector.ShuffleOp(splats[0].vector, splats[1].vector, mask, result_type=type_))
    b.insert(mem.StoreOp(f.tokens[LOCAL], warp_vector(b, flags, lo, element), made.result))


def store_results(
    f: Fission,
    b: Builder,
    op: gpu.ShuffleOp,
    values: SSAValue,
    item: SSAValue,
    source: SSAValue,
    valid: SSAValue,
) -> None:
    """Item `item`'s shuffle results: the value of item `source`, and `valid`."""
    if op.res in f.storage_of:
        f.store(b, f.array_of(op.res), item, f.load(b, values, source))
    if op.valid in f.storage_of:
        f.store(b, f.array_of(op.valid), item, valid)


def emit_ballot(f: Fission, b: Builder, op: gpu.BallotOp, preds: SSAValue) -> None:
    """Per warp: the or of its lanes' `pred << lane`, then into each lane's mask."""
    if op.mask not in f.storage_of:
        return
    masks = f.array_of(op.mask)
    wb, lo, hi = warp_loop(f, b, f.lo, f.hi)
    vote = Block(arg_types=[IndexType(), i32])
    vb = Builder(InsertPoint.at_end(vote))
    item, mask = vote.args
    lane = vb.insert(arith.IndexCastOp(vb.insert(arith.SubiOp(item, lo)).result, i32)).result
    bit = vb.insert(arith.ExtUIOp(f.load(vb, preds, item), i32)).result
    shifted = vb.insert(arith.ShLIOp(bit, lane)).result
    vb.insert(scf.YieldOp(vb.insert(arith.OrIOp(mask, shifted)).result))
    zero32 = wb.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
    total = wb.insert(scf.ForOp(lo, hi, f.one, [zero32], vote)).results[0]
    give = Block(arg_types=[IndexType()])
    gb = Builder(InsertPoint.at_end(give))
    f.store(gb, masks, give.args[0], total)
    gb.insert(scf.YieldOp())
    wb.insert(scf.ForOp(lo, hi, f.one, [], give))
    wb.insert(scf.YieldOp())


def warp_loop(
    f: Fission, b: Builder, start: SSAValue, stop: SSAValue
) -> tuple[Builder, SSAValue, SSAValue]:
    """An `scf.for` at `b` over the warps of items `start` (a warp's first item) to `stop`: a
    builder at the end of its body, which the caller ends with its yield, and the body's warp's
    first item and end (at most `stop`)."""
    warp = index_constant(b, gpu.WARP)
    first = f.zero if start is f.zero else b.insert(arith.DivUIOp(start, warp)).result
    last = b.insert(arith.AddiOp(stop, index_constant(b, gpu.WARP - 1))).result
    n_warps = b.insert(arith.DivUIOp(last, warp)).result
    body = Block(arg_types=[IndexType()])
    b.insert(scf.ForOp(first, n_warps, f.one, [], body))
    wb = Builder(InsertPoint.at_end(body))
    lo = wb.insert(arith.MuliOp(body.args[0], warp)).result
    end = wb.insert(arith.AddiOp(lo, warp)).result
    return wb, lo, wb.insert(arith.MinUIOp(end, stop)).result


# --- warp operations that whole warps reach, not the whole group ----------------------------------

GROUP_WAITS = (gpu.SyncWorkItemsOp, gpu.SyncedScopeOp, gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp)
"""Where the whole group waits: never inside a branch or loop that each warp takes by itself."""
PER_WARP = "a value of a branch or loop that each warp takes by itself"
CASTS = (arith.IndexCastOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)
DEPTH = 16
"""How deep `lane_free` follows a value's ops."""


def analyze_per_warp(f: Fission, op: scf.IfOp | scf.ForOp, controls: list[SSAValue]) -> bool:
    """Whether `op` (with warp operations, its condition or bounds `controls` varying between
    the items) runs once per warp: nothing in it waits for the whole group, and each of
    `controls` is the same for the 32 lanes of every warp (`lane_free`). Its results then vary
    (each item keeps them), as do a loop's carried values."""
    if any(isinstance(inner, GROUP_WAITS) for inner in op.walk()):
        return False
    if not all(lane_free(f, value) for value in controls):
        return False
    f.per_warp.append(op)
    f.mark(op.results, PER_WARP)
    if isinstance(op, scf.ForOp):
        f.mark(op.body.block.args[1:], PER_WARP)
        f.analyze_loop(op)
        return True
    for region in op.regions:
        for block in region.blocks:
            f.analyze_block(block)
    return True


def lane_free(f: Fission, value: SSAValue, depth: int = 0) -> bool:
    """Whether `value` is the same for the 32 lanes of each warp (32 consecutive items from a
    multiple of 32): uniform, `item < c` or `item >= c` with `c` a multiple of 32 (`<=` / `>`
    with `c + 1` one), `item / c` or `item & c` with `c` one, `item >> s` with `s >= 5`
    (`item` the item id, cast, plus a multiple of 32), or a pure op of such values."""
    if value not in f.varying:
        return True
    op = value.owner
    if depth >= DEPTH or not isinstance(op, Operation) or op.regions or not is_pure(op):
        return False
    if isinstance(op, arith.CmpiOp) and compares_whole_warps(f, op, depth):
        return True
    if isinstance(op, arith.DivUIOp | arith.DivSIOp | arith.AndIOp):
        divisor = constant_index(op.rhs)
        signed_ok = not isinstance(op, arith.DivSIOp) or item_like(f, op.lhs) == "exact"
        if divisor is not None and divisor % gpu.WARP == 0 and divisor != 0 and signed_ok:
            return item_like(f, op.lhs) is not None
    if isinstance(op, arith.ShRUIOp | arith.ShRSIOp):
        shift = constant_index(op.rhs)
        if shift is not None and shift >= 5 and item_like(f, op.lhs) is not None:
            return True
    return all(lane_free(f, operand, depth + 1) for operand in op.operands)


def compares_whole_warps(f: Fission, op: arith.CmpiOp, depth: int) -> bool:
    """`item < c`, `item >= c` (`c` a multiple of 32), `item <= c`, `item > c` (`c + 1` one),
    either way round: every warp's lanes are on one side of `c`."""
    predicate, lhs, rhs = op.predicate.value.data, op.lhs, op.rhs
    if item_like(f, lhs) is None:
        predicate, lhs, rhs = SWAPPED.get(predicate, -1), rhs, lhs
    if item_like(f, lhs) is None or not lane_free(f, rhs, depth + 1):
        return False
    if predicate in (SLT, SGE, ULT, UGE):
        return multiple_of_warp(rhs)
    bound = constant_index(rhs)
    return predicate in (SLE, SGT, ULE, UGT) and bound is not None and (bound + 1) % gpu.WARP == 0


def item_like(f: Fission, value: SSAValue) -> str | None:
    """ "exact" for the item id (cast to at least 32 bits), "aligned" for that plus a multiple
    of 32 (each warp's lanes still 32 consecutive values from a multiple of 32), else None."""
    if value is f.item_id:
        return "exact"
    op = value.owner
    if isinstance(op, CASTS):
        width = getattr(op.result.type, "width", None)
        if width is None or width.data >= 32:
            return item_like(f, op.input)
        return None
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        if item_like(f, op.lhs) is not None and multiple_of_warp(op.rhs):
            return "aligned"
        if (
            isinstance(op, arith.AddiOp)
            and item_like(f, op.rhs) is not None
            and multiple_of_warp(op.lhs)
        ):
            return "aligned"
    return None


def multiple_of_warp(value: SSAValue) -> bool:
    """Whether `value` is a multiple of 32 that the IR shows: a constant, a product or left
    shift by 5 or more, a sum or difference of two, a cast of one."""
    op = value.owner
    found = constant_index(value)
    if found is not None:
        return found % gpu.WARP == 0
    if isinstance(op, arith.MuliOp):
        return multiple_of_warp(op.lhs) or multiple_of_warp(op.rhs)
    if isinstance(op, arith.ShLIOp):
        shift = constant_index(op.rhs)
        return (shift is not None and shift >= 5) or multiple_of_warp(op.lhs)
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        return multiple_of_warp(op.lhs) and multiple_of_warp(op.rhs)
    if isinstance(op, CASTS):
        return multiple_of_warp(op.input)
    return False


def emit_per_warp(f: Fission, b: Builder, op: Operation) -> None:
    """A branch or loop that each warp takes by itself (`analyze_per_warp`): a loop over the
    group's warps, its condition or bounds those of the warp's first lane, its item loops
    and warp operations over the warp's lanes (`f.lo`, `f.hi`); inside a warp, just that."""
    if f.in_warp:
        emit_in_warp(f, b, op)
        return
    wb, lo, hi = warp_loop(f, b, f.zero, f.n_items)
    f.lo, f.hi, f.in_warp = lo, hi, True
    try:
        emit_in_warp(f, wb, op)
    finally:
        f.lo, f.hi, f.in_warp = f.zero, f.n_items, False
    wb.insert(scf.YieldOp())


def emit_in_warp(f: Fission, b: Builder, op: Operation) -> None:
    known: dict[SSAValue, SSAValue] = {}
    if isinstance(op, scf.IfOp):
        f.emit_if(b, op, f.value_at(b, op.cond, f.lo, known))
        return
    assert isinstance(op, scf.ForOp)
    f.emit_for(b, op, [f.value_at(b, v, f.lo, known) for v in (op.lb, op.ub, op.step)])
