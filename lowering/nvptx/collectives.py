"""The NVPTX lowering of the work-group collectives, for `convert-gpu-to-nvvm`.

`gpu.workgroup_reduce "k" … : T` becomes a call of `@__gpuir_workgroup_reduce_<k>_<T>(T) -> T`
and `gpu.workgroup_scan` one of `@__gpuir_workgroup_scan_<k>_<T>`: device functions made on
first use (`Collectives`), of `arith`, `math` and `llvm` ops (their `scf` is lowered to `cf`
right away; the later stages of `device-to-llvm` lower the rest, as for any device function).
They read the item's id and the group's size from `%tid.x` / `%ntid.x` and work in
`@__gpuir_wg_scratch_<T>`, a static `addrspace(3)` global of 1024 `T`s (CUDA's most threads per
block), aligned to 16, shared by every collective on `T` of the module (never the launch's
dynamic shared memory). Barriers are `bar.sync 0`, always reached by the whole group (the
branches around them and the loops' bounds depend on `%ntid.x` only).

Reduce, the fixed tree of `gpu.workgroup_reduce` (docs/dialects.md) `t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`, `mid = (lo + hi) >> 1`,
branches on whether `n` is a power of two (`n & (n - 1) == 0`, the same for the whole group).

Power of two, warp shuffles. For `n = 2^k` every node of the tree is an aligned power-of-two
range split in halves, so its lowest `min(k, 5)` levels lie inside aligned warps (a 1-D block's
warp `w` is items `32w .. 32w + 31`, lane = item & 31). With `width = min(n, 32)`, member mask
`0xffffffff >> (32 - width)` (the lanes that exist) and clamp `((32 - width) << 8) | 31` (CUDA's
`__shfl_down_sync(…, width)`: a source beyond the lane's segment reads its own value): for
`o = 1, 2, 4, 8, 16` while `o < width`, every lane does `own = own ⊕ shfl.down(own, o)`, its own
(lower) item on the left: lane `i` with `i % 2o == 0` then holds `t(i, i + 2o)` of its warp; the
other lanes compute values that are never used. The levels are a loop of `log2(width)` trips,
the same in the whole warp, so every lane of the mask runs every `shfl.sync`. Lane 0 of each
warp stores its warp's tree at `scratch[warp]`; a barrier. If `n > 32`, the `n / 32` partials (a power of two, at most 32) are
the leaves of the tree's upper levels (a power-of-two tree over the warps' trees is the fixed
tree over `n`); warp 0 loads `scratch[lane]` (lanes past the partials load slots never written:
unused) and does the same rounds with the full mask and `width = n / 32`; item 0 stores the root
at `scratch[0]`; a barrier. Three barriers in all for `n > 32`, two for `n <= 32`, instead of
`ceil(log2 n) + 2`. `shfl.sync.down` moves 32 bits: an `f32` goes as it is, anything else as
the 32-bit words of its bits (bitcast to an integer, zero-extended to whole words, one shuffle
per word, rebuilt with shifts and ors, truncated and bitcast back), so 64-bit types take two
shuffles and `f16` / `i8` one. `tests/test_collective_schedule.py` checks this schedule, lane
by lane with PTX's clamp, against the recursion for n = 1 .. 1024.

Any other `n`, shared memory, one level per barrier, deepest first: every item stores its value
at `scratch[item]`; then for `d = ceil(log2 n) - 1` down to `0`, item `j < 2^d` finds node `j`
of depth `d` by walking down from the root `[0, n)` along the `d` bits of `j` (most significant
first: a 0 goes to `[lo, mid)`, a 1 to `[mid, hi)`), and if the node has two items or more does
`scratch[lo] = scratch[lo] ⊕ scratch[mid]` (both halves are done: they are one level deeper);
at the end everyone reads `scratch[0]`. The closed form `lo = floor(j n / 2^d)` is not this
tree (n = 11: `[2, 5)` splits at 3, the formula at 4), so the walk it is; `O(log² n)` integer
steps per item (`tests/test_collective_schedule.py` checks the schedule against the recursion
for n = 1..1024). Both paths end with everyone reading `scratch[0]`.

Scan, the left fold in item order (`docs/ir-extensions.md`). Floats: every item stores its
value, item 0 folds `scratch[1..n)` in order in place, everyone reads its slot. Integers (every
kind is exact and associative, so any bracketing of the same items in the same order has the
left fold's bits), any `n`: a Kogge–Stone scan in each warp, over its `min(n - 32w, 32)` lanes
(the member mask): for `o = 1 .. 16` every lane takes `shfl.up(own, o)` (clamp 0: below lane 0
a lane gets its own value) and lanes `>= o` keep `other ⊕ own`, no branch around the shuffles;
the warp's last lane stores the warp's total at `scratch[warp]`; a barrier; item 0 folds the
`ceil(n / 32)` totals in place; a barrier; items of warp `w > 0` do `scratch[w - 1] ⊕ own`.
Item 0 folds at most 32 values instead of `n`; three barriers either way.

Each collective ends with a barrier, so the next one may overwrite the scratch. `⊕` is
`gpuir.lowering.llvm.rules` (the cpu provider's too): integers wrap and compare signed, float
min/max are `arith.minimumf`/`maximumf` (LLVM's `llvm.minimum`/`llvm.maximum`: a NaN wins,
-0 < +0), as interp. With `fast-math=true` the additions get LLVM's `fast` flags like any
other, and the bit-exactness is the user's to give up.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, math, scf
from xdsl.dialects.builtin import IntegerType, ModuleOp, UnrealizedConversionCastOp, f32, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering

from gpuir.dialects import gpu
from gpuir.dialects.mem import SHARED
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.llvm.conversion import constant, from_llvm, llvm_type, ptr_type
from gpuir.lowering.llvm.rules import combine
from gpuir.passes.locations import KeepLocations

MAX_ITEMS = 1024
"""CUDA's most threads per block: the scratch's length."""
SCRATCH_ALIGN = 16
BARRIER = "llvm.nvvm.barrier.cta.sync.aligned.all"
ITEM_ID = "llvm.nvvm.read.ptx.sreg.tid.x"
N_ITEMS = "llvm.nvvm.read.ptx.sreg.ntid.x"
SHUFFLE = "llvm.nvvm.shfl.sync"  # .down / .up, .i32 / .f32
WARP = 32


class Collectives:
    """The collective functions and scratch globals of one device module, made on first use."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.made: set[str] = set()

    def call(
        self, b: Builder | PatternRewriter, op: gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp
    ) -> SSAValue:
        """A call of the function that computes `op`, at `b`; its result."""
        kind, type_ = op.kind.data, op.value.type
        element = llvm_type(type_)
        if element is None:
            raise OpError(op, f"'{op.name}' on {type_} has no NVPTX lowering")
        collective = "reduce" if isinstance(op, gpu.WorkgroupReduceOp) else "scan"
        name = f"__gpuir_workgroup_{collective}_{kind}_{type_}"
        if name not in self.made:
            if SymbolTable.lookup_symbol(self.module, name) is not None:
                raise OpError(op, f"'{op.name}' needs the symbol @{name}, which the module uses")
            scratch = self.scratch(element, op)
            make = make_reduce if collective == "reduce" else make_scan
            self.module.body.block.add_op(make(name, kind, type_, element, scratch))
            self.made.add(name)
        return b.insert(func.CallOp(name, [op.value], [type_])).res[0]

    def scratch(self, element: Attribute, op: gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp) -> str:
        name = f"__gpuir_wg_scratch_{element}"
        existing = SymbolTable.lookup_symbol(self.module, name)
        if existing is not None:
            if name in self.made:
                return name
            raise OpError(op, f"'{op.name}' needs the symbol @{name}, which the module uses")
        array = llvm.LLVMArrayType(MAX_ITEMS, element)
        glob = llvm.GlobalOp(array, name, "internal", addr_space=SHARED, alignment=SCRATCH_ALIGN)
        Rewriter.insert_op(glob, InsertPoint.at_start(self.module.body.block))
        self.made.add(name)
        return name


class Body:
    """What both collective functions start with: the item's value (as `element`), its id, the
    group's size (`i32` both) and the scratch's address."""

    def __init__(self, value_type: Attribute, element: Attribute, scratch: str):
        self.block = Block(arg_types=[value_type])
        self.element = element
        b = Builder(InsertPoint.at_end(self.block))
        self.b = b
        self.value = self.block.args[0]
        if self.value.type != element:  # index
            cast = UnrealizedConversionCastOp.get([self.value], [element])
            self.value = b.insert(cast).results[0]
        self.item = b.insert(llvm.CallIntrinsicOp(ITEM_ID, [], [i32])).results[0]
        self.n = b.insert(llvm.CallIntrinsicOp(N_ITEMS, [], [i32])).results[0]
        self.base = b.insert(llvm.AddressOfOp(scratch, ptr_type(SHARED))).result

    def publish(self, b: Builder) -> None:
        """Every item stores its value at `scratch[item]`, then a barrier."""
        self.store(b, self.value, self.item)
        barrier(b)

    def slot(self, b: Builder, index: SSAValue) -> SSAValue:
        gep = llvm.GEPOp.from_mixed_indices(
            self.base, [index], self.element, result_type=ptr_type(SHARED), inbounds=True
        )
        return b.insert(gep).result

    def load(self, b: Builder, index: SSAValue) -> SSAValue:
        return b.insert(llvm.LoadOp(self.slot(b, index), self.element)).dereferenced_value

    def store(self, b: Builder, value: SSAValue, index: SSAValue) -> None:
        b.insert(llvm.StoreOp(value, self.slot(b, index)))

    def finish(self, name: str, value_type: Attribute, index: SSAValue) -> func.FuncOp:
        """Everyone reads `scratch[index]`, a barrier (the scratch is free again), return it."""
        return self.finish_with(name, value_type, self.load(self.b, index))

    def finish_with(self, name: str, value_type: Attribute, result: SSAValue) -> func.FuncOp:
        """A barrier (the scratch is free again), return `result`."""
        b = self.b
        barrier(b)
        b.insert(func.ReturnOp(from_llvm(b, result, value_type)))
        function = func.FuncOp(name, ([value_type], [value_type]), Region(self.block))
        PatternRewriteWalker(
            KeepLocations(GreedyRewritePatternApplier([IfLowering(), ForLowering()]))
        ).rewrite_region(function.body)
        return function


@contextmanager
def then(b: Builder, condition: SSAValue) -> Iterator[Builder]:
    """A builder of the body of an `scf.if` of `condition` with no else; the `scf.if` is
    inserted at `b`, with the body's yield, when the body is done."""
    block = Block()
    inner = Builder(InsertPoint.at_end(block))
    yield inner
    inner.insert(scf.YieldOp())
    b.insert(scf.IfOp(condition, [], Region(block)))


def barrier(b: Builder) -> None:
    b.insert(llvm.CallIntrinsicOp(BARRIER, [constant(b, 0, i32)], []))


def i32_constant(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp.from_int_and_width(value, i32)).result


def make_reduce(
    name: str, kind: str, value_type: Attribute, element: Attribute, scratch: str
) -> func.FuncOp:
    """`t(0, n)` of the fixed tree: with warp shuffles when `n` is a power of two, else one level
    per barrier in the scratch (see the module's docstring). Both leave it in `scratch[0]`."""
    body = Body(value_type, element, scratch)
    b, n = body.b, body.n
    zero, one = i32_constant(b, 0), i32_constant(b, 1)
    below = b.insert(arith.SubiOp(n, one)).result
    power_of_two = b.insert(
        arith.CmpiOp(b.insert(arith.AndIOp(n, below)).result, zero, "eq")
    ).result
    warps = Block()
    warp_reduce(body, Builder(InsertPoint.at_end(warps)), kind)
    levels = Block()
    tree_reduce(body, Builder(InsertPoint.at_end(levels)), kind)
    b.insert(scf.IfOp(power_of_two, [], Region(warps), Region(levels)))
    return body.finish(name, value_type, zero)


def warp_reduce(body: Body, b: Builder, kind: str) -> None:
    """For `n = 2^k`: the tree's lowest levels (aligned pairs within a warp) by shuffles, the
    warps' partials through `scratch[warp]`, their tree by shuffles in warp 0 when `n > 32`."""
    item, n = body.item, body.n
    zero, lanes = i32_constant(b, 0), i32_constant(b, WARP)
    width = b.insert(arith.MinUIOp(n, lanes)).result  # the lanes of a warp in the group
    unused = b.insert(arith.SubiOp(lanes, width)).result
    mask = b.insert(arith.ShRUIOp(i32_constant(b, -1), unused)).result
    total = warp_tree(b, kind, body.value, mask, width)
    lane = b.insert(arith.AndIOp(item, i32_constant(b, WARP - 1))).result
    leader = b.insert(arith.CmpiOp(lane, zero, "eq")).result
    warp = b.insert(arith.ShRUIOp(item, i32_constant(b, 5))).result
    with then(b, leader) as sb:
        body.store(sb, total, warp)
    barrier(b)

    many = b.insert(arith.CmpiOp(n, lanes, "ugt")).result
    with then(b, many) as pb:  # n > 32: the n / 32 partials, a power-of-two tree in warp 0
        first_warp = pb.insert(arith.CmpiOp(item, lanes, "ult")).result
        with then(pb, first_warp) as wb:
            count = wb.insert(arith.ShRUIOp(n, i32_constant(wb, 5))).result
            partial = body.load(wb, item)  # slots count.. 31 hold no partial: never used
            total = warp_tree(wb, kind, partial, i32_constant(wb, -1), count)
            first = wb.insert(arith.CmpiOp(item, zero, "eq")).result
            with then(wb, first) as rb:
                body.store(rb, total, zero)
        barrier(pb)
    b.insert(scf.YieldOp())


def warp_tree(b: Builder, kind: str, value: SSAValue, mask: SSAValue, width: SSAValue) -> SSAValue:
    """The aligned pairwise tree over each `width` lanes (a power of two, at most 32) of the
    warp: at offset `o = 1, 2, 4, …, width / 2` lane `i` does `own ⊕ shfl.down(own, o)`, lower
    item on the left. Valid in lane `i` only where `i % 2o == 0` (so lane 0 ends with the whole
    tree); the others compute values never used. Every lane of `mask` runs every shuffle: the
    loop's bound, `log2(width)`, is the same in the whole warp."""
    zero, one = i32_constant(b, 0), i32_constant(b, 1)
    unused = b.insert(arith.SubiOp(i32_constant(b, WARP), width)).result
    segment = b.insert(arith.ShLIOp(unused, i32_constant(b, 8))).result
    # as CUDA's __shfl_down_sync(mask, v, o, width): a source stays in the lane's segment
    clamp = b.insert(arith.OrIOp(segment, i32_constant(b, WARP - 1))).result
    zeros = b.insert(math.CountLeadingZerosOp(width)).result
    levels = b.insert(arith.SubiOp(i32_constant(b, WARP - 1), zeros)).result  # log2(width)
    level = Block(arg_types=[i32, value.type])
    lb = Builder(InsertPoint.at_end(level))
    k, own = level.args
    offset = lb.insert(arith.ShLIOp(one, k)).result
    other = shuffle(lb, "down", own, mask, offset, clamp)
    lb.insert(scf.YieldOp(combine(lb, kind, own, other)))
    return b.insert(scf.ForOp(zero, levels, one, [value], level)).results[0]


def shuffle(
    b: Builder, mode: str, value: SSAValue, mask: SSAValue, offset: SSAValue, clamp: SSAValue
) -> SSAValue:
    """`shfl.sync.<mode>` of a value of any element type: an `f32` as it is, anything else as
    the 32-bit words of its bits (zero-extended to whole words), one shuffle per word."""
    type_ = value.type
    intrinsic = f"{SHUFFLE}.{mode}"
    if type_ == f32:
        call = llvm.CallIntrinsicOp(f"{intrinsic}.f32", [mask, value, offset, clamp], [f32])
        return b.insert(call).results[0]
    bits = type_.width.data if isinstance(type_, IntegerType) else type_.bitwidth
    as_int = IntegerType(bits)
    x = value if type_ == as_int else b.insert(arith.BitcastOp(value, as_int)).result
    words = (bits + WARP - 1) // WARP
    wide = IntegerType(WARP * words)
    if wide != as_int:
        x = b.insert(arith.ExtUIOp(x, wide)).result
    result: SSAValue | None = None
    for w in range(words):
        word = x
        if w:
            word = b.insert(arith.ShRUIOp(word, b.insert(const(wide, WARP * w)).result)).result
        if wide != i32:
            word = b.insert(arith.TruncIOp(word, i32)).result
        call = llvm.CallIntrinsicOp(f"{intrinsic}.i32", [mask, word, offset, clamp], [i32])
        got = b.insert(call).results[0]
        if wide != i32:
            got = b.insert(arith.ExtUIOp(got, wide)).result
        if w:
            got = b.insert(arith.ShLIOp(got, b.insert(const(wide, WARP * w)).result)).result
            got = b.insert(arith.OrIOp(result, got)).result  # type: ignore[arg-type]
        result = got
    assert result is not None
    if wide != as_int:
        result = b.insert(arith.TruncIOp(result, as_int)).result
    if type_ != as_int:
        result = b.insert(arith.BitcastOp(result, type_)).result
    return result


def const(type_: IntegerType, value: int) -> arith.ConstantOp:
    return arith.ConstantOp.from_int_and_width(value, type_)


def tree_reduce(body: Body, b: Builder, kind: str) -> None:
    """Any `n`: every item stores its value, then one level of the tree per barrier."""
    item, n = body.item, body.n
    body.publish(b)
    zero, one = i32_constant(b, 0), i32_constant(b, 1)
    below = b.insert(arith.SubiOp(n, one)).result
    zeros = b.insert(math.CountLeadingZerosOp(below)).result
    depth = b.insert(arith.SubiOp(i32_constant(b, 32), zeros)).result  # ceil(log2 n)

    level = Block(arg_types=[i32])  # i = 0 .. depth-1: depth d = depth - 1 - i
    lb = Builder(InsertPoint.at_end(level))
    d = lb.insert(arith.SubiOp(lb.insert(arith.SubiOp(depth, one)).result, level.args[0])).result
    nodes = lb.insert(arith.ShLIOp(one, d)).result
    active = lb.insert(arith.CmpiOp(item, nodes, "ult")).result

    with then(lb, active) as nb:
        walk = Block(arg_types=[i32, i32, i32])  # k = 0 .. d-1, lo, hi
        wb = Builder(InsertPoint.at_end(walk))
        k, lo, hi = walk.args
        mid = wb.insert(arith.ShRUIOp(wb.insert(arith.AddiOp(lo, hi)).result, one)).result
        shift = wb.insert(arith.SubiOp(wb.insert(arith.SubiOp(d, one)).result, k)).result
        bit = wb.insert(arith.AndIOp(wb.insert(arith.ShRUIOp(item, shift)).result, one)).result
        right = wb.insert(arith.CmpiOp(bit, zero, "ne")).result
        new_lo = wb.insert(arith.SelectOp(right, mid, lo)).result
        new_hi = wb.insert(arith.SelectOp(right, hi, mid)).result
        wb.insert(scf.YieldOp(new_lo, new_hi))
        found = nb.insert(scf.ForOp(zero, d, one, [zero, n], walk)).results
        lo, hi = found[0], found[1]
        size = nb.insert(arith.SubiOp(hi, lo)).result
        pair = nb.insert(arith.CmpiOp(size, one, "ugt")).result
        with then(nb, pair) as sb:
            mid = sb.insert(arith.ShRUIOp(sb.insert(arith.AddiOp(lo, hi)).result, one)).result
            total = combine(sb, kind, body.load(sb, lo), body.load(sb, mid))
            body.store(sb, total, lo)
    barrier(lb)
    lb.insert(scf.YieldOp())
    b.insert(scf.ForOp(zero, depth, one, [], level))
    b.insert(scf.YieldOp())


def make_scan(
    name: str, kind: str, value_type: Attribute, element: Attribute, scratch: str
) -> func.FuncOp:
    """Integers: warp scans and a fold of the warps' totals. Floats: the left fold in item
    order, by item 0 in place; each item reads its slot."""
    body = Body(value_type, element, scratch)
    if isinstance(element, IntegerType):
        return body.finish_with(name, value_type, warp_scan(body, kind))
    b, item, n = body.b, body.item, body.n
    body.publish(b)
    first = b.insert(arith.CmpiOp(item, i32_constant(b, 0), "eq")).result
    with then(b, first) as fb:
        fold_in_place(body, fb, kind, n)
    barrier(b)
    return body.finish(name, value_type, item)


def fold_in_place(body: Body, b: Builder, kind: str, count: SSAValue) -> None:
    """`scratch[i] = scratch[i - 1] ⊕ scratch[i]` for `i = 1 .. count - 1`, in order (item 0
    does it, in the body of an `scf.if`)."""
    zero, one = i32_constant(b, 0), i32_constant(b, 1)
    step = Block(arg_types=[i32, body.element])
    sb = Builder(InsertPoint.at_end(step))
    i, acc = step.args
    total = combine(sb, kind, acc, body.load(sb, i))
    body.store(sb, total, i)
    sb.insert(scf.YieldOp(total))
    b.insert(scf.ForOp(one, count, one, [body.load(b, zero)], step))


def warp_scan(body: Body, kind: str) -> SSAValue:
    """The inclusive scan of an integer kind (associative and exact, so any bracketing gives
    the left fold's bits): a Kogge–Stone scan in each warp (`shfl.sync.up`), the last lane of
    each warp stores the warp's total at `scratch[warp]`, item 0 folds the totals in place, and
    each item of warp `w > 0` combines `scratch[w - 1]` on its left."""
    b, item, n = body.b, body.item, body.n
    zero, lanes = i32_constant(b, 0), i32_constant(b, WARP)
    lane = b.insert(arith.AndIOp(item, i32_constant(b, WARP - 1))).result
    warp = b.insert(arith.ShRUIOp(item, i32_constant(b, 5))).result
    left = b.insert(arith.SubiOp(n, b.insert(arith.SubiOp(item, lane)).result)).result
    width = b.insert(arith.MinUIOp(left, lanes)).result  # the lanes of this warp
    unused = b.insert(arith.SubiOp(lanes, width)).result
    mask = b.insert(arith.ShRUIOp(i32_constant(b, -1), unused)).result
    one = i32_constant(b, 1)
    level = Block(arg_types=[i32, body.element])  # o = 1 << k, k = 0 .. 4, in every lane
    lb = Builder(InsertPoint.at_end(level))
    k, own = level.args
    offset = lb.insert(arith.ShLIOp(one, k)).result
    other = shuffle(lb, "up", own, mask, offset, zero)
    has = lb.insert(arith.CmpiOp(lane, offset, "uge")).result  # below lane o: own value
    lb.insert(scf.YieldOp(lb.insert(arith.SelectOp(has, combine(lb, kind, other, own), own))))
    levels = i32_constant(b, 5)
    value = b.insert(scf.ForOp(zero, levels, one, [body.value], level)).results[0]
    last = b.insert(arith.CmpiOp(lane, b.insert(arith.SubiOp(width, one)).result, "eq")).result
    with then(b, last) as sb:
        body.store(sb, value, warp)
    barrier(b)
    first = b.insert(arith.CmpiOp(item, zero, "eq")).result
    with then(b, first) as fb:
        warps = fb.insert(
            arith.ShRUIOp(
                fb.insert(arith.AddiOp(n, i32_constant(fb, WARP - 1))).result, i32_constant(fb, 5)
            )
        ).result
        fold_in_place(body, fb, kind, warps)
    barrier(b)
    later = b.insert(arith.CmpiOp(warp, zero, "ne")).result
    add_before = Block()
    ab = Builder(InsertPoint.at_end(add_before))
    before = body.load(ab, ab.insert(arith.SubiOp(warp, i32_constant(ab, 1))).result)
    ab.insert(scf.YieldOp(combine(ab, kind, before, value)))
    keep = Block()
    keep.add_op(scf.YieldOp(value))
    return b.insert(scf.IfOp(later, [value.type], Region(add_before), Region(keep))).results[0]
