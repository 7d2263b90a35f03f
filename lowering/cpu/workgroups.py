"""What the cpu provider's two forms of a kernel share (`gpuir.lowering.cpu.workgroup_loops`, the
work-item loops, and `gpuir.lowering.cpu.resume`, the resumable form): the work-group function's
signature and attributes, the group's static shared memory, the collectives' tree reduction
(`Helpers`) and small builders.

A work-group function

    func.func @k(M1, M3, M4, M5, %group_id: index, %n_items: index,
                 %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<MT, 3>, args…)
        -> (M1, M3, M4, M5) attributes {gpu.workgroup, gpu.shared_bytes = S : i64}

runs the `n_items` work-items of work-group `group_id`; `shared` is its static shared memory
(`S` bytes), `smem` its dynamic shared memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i1,
    i8,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS, WORKGROUP_FUNCTION_ATTR, smem_param
from gpuir.dialects.mem import LOCAL, SHARED, ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.llvm.conversion import index_type, size_and_align
from gpuir.lowering.llvm.rules import combine

WORKGROUP_ATTR = WORKGROUP_FUNCTION_ATTR
"""The unit attribute of a work-group function (the launch verifier knows it)."""
SHARED_BYTES_ATTR = "gpu.shared_bytes"
"""The bytes of static shared memory a work-group function needs (an `i64` attribute)."""
SHARED_ALIGN = 16
SLOT_ALIGN = 16
SHARED_BYTES = PtrType(ArrayType(DYNAMIC_INDEX, i8), SHARED)
LOCAL_BYTES = PtrType(ArrayType(DYNAMIC_INDEX, i8), LOCAL)
BARRIERS = (
    gpu.SyncWorkItemsOp,
    gpu.SyncedScopeOp,
    gpu.WorkgroupReduceOp,
    gpu.WorkgroupScanOp,
    *gpu.WARP_OPS,
)
"""Where work-items wait for others: the group's barriers and collectives, and the warp
operations (a warp's lanes wait there; where a whole group reaches one, as at a barrier)."""
NOT_HERE = "cannot run on the cpu provider"
ITEM_ID = 5
"""The index of the work-item id among a kernel's inputs."""


def is_token(value: SSAValue | Attribute) -> bool:
    return isinstance(value.type if isinstance(value, SSAValue) else value, MemType)


def first_barrier(op: Operation) -> Operation | None:
    return next((inner for inner in op.walk() if isinstance(inner, BARRIERS)), None)


def space_of(op: mem.SlotOp | mem.MslotOp) -> int:
    assert isinstance(op.res.type, PtrType)
    return op.res.type.space.data


def index_constant(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def align_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def takes_smem(kernel: func.FuncOp) -> bool:
    return smem_param(kernel.function_type.inputs.data) is not None


def workgroup_signature(kernel: func.FuncOp) -> tuple[list[Attribute], list[Attribute]]:
    inputs = list(kernel.function_type.inputs.data)
    smem = inputs[6] if takes_smem(kernel) else SHARED_BYTES
    args = inputs[7:] if takes_smem(kernel) else inputs[6:]
    return [*KERNEL_TOKENS, IndexType(), IndexType(), SHARED_BYTES, smem, *args], list(
        KERNEL_TOKENS
    )


def new_workgroup_function(kernel: func.FuncOp, shared_bytes: int) -> func.FuncOp:
    inputs, outputs = workgroup_signature(kernel)
    function = func.FuncOp(kernel.sym_name.data, (inputs, outputs), Region(Block(arg_types=inputs)))
    names = ("m1", "m3", "m4", "m5", "group_id", "n_items", "shared", "smem")
    for arg, name in zip(function.body.blocks[0].args, names, strict=False):
        arg.name_hint = name
    fixed = 7 if takes_smem(kernel) else 6
    kernel_args = kernel.body.blocks[0].args[fixed : len(kernel.function_type.inputs.data)]
    for arg, old in zip(function.body.blocks[0].args[8:], kernel_args, strict=True):
        arg.name_hint = old.name_hint
    function.attributes[WORKGROUP_ATTR] = UnitAttr()
    function.attributes[SHARED_BYTES_ATTR] = IntegerAttr(shared_bytes, 64)
    if kernel.location is not None:
        function.location = kernel.location
    return function


LOCAL_RUNTIME_SIZE = (
    "'{name}' of a run-time size in a kernel with barriers cannot run on the cpu provider: each "
    "work-item's slot must outlive the barriers, so its size must be a constant"
)
VARYING_SIZE = (
    "'{name}' in a kernel with barriers {not_here}: its run-time size must be the same for every "
    "work-item of a group (computed by arith ops from the kernel's arguments and the work-group "
    "id), as the group's slots are made before its work-items run"
)


@dataclass
class RuntimeSlot:
    """A local `mem.mslot` of a run-time size in a kernel with barriers: the group makes the
    slots of all its items at once (`n_items` times `stride(size)` bytes), so the size must be
    one for the whole group. `recipe` computes it from the kernel's inputs (its arguments are
    theirs); `size_at` makes it again at the work-group level."""

    recipe: Block
    size: SSAValue
    gap: int

    def size_at(self, b: Builder, inputs: Sequence[SSAValue | None]) -> SSAValue:
        """The size, computed at `b` from the kernel's `inputs` as the work-group function has
        them (None for the work-item id, which the size does not use)."""
        mapping: dict[SSAValue, SSAValue] = {
            arg: value for arg, value in zip(self.recipe.args, inputs, strict=True) if value
        }
        for op in self.recipe.ops:
            b.insert(op.clone(value_mapper=mapping))
        return mapping[self.size]

    def stride_at(self, b: Builder, inputs: Sequence[SSAValue | None]) -> SSAValue:
        """`slot_stride` of the size made at `b` (`size_at`): the bytes of an item's part."""
        return slot_stride(b, self.size_at(b, inputs), self.gap)


def local_slots(kernel: func.FuncOp) -> list[mem.SlotOp | mem.MslotOp]:
    """The slots of `kernel` in space 5, in walk order."""
    return [
        op
        for op in kernel.walk()
        if isinstance(op, mem.SlotOp | mem.MslotOp) and space_of(op) == LOCAL
    ]


def has_runtime_size(op: mem.SlotOp | mem.MslotOp) -> bool:
    """Whether `op` is a `mem.mslot` whose size is not a constant."""
    return isinstance(op, mem.MslotOp) and constant_index(op.size) is None


def runtime_slot(op: mem.MslotOp, kernel: func.FuncOp, gap: int) -> RuntimeSlot:
    """`op`'s size as a `RuntimeSlot`, or the error `VARYING_SIZE` at `op` when the size may
    differ between the work-items of a group."""
    entry = kernel.body.blocks[0]
    n_inputs = len(kernel.function_type.inputs.data)
    ops: list[Operation] = []

    def uniform(value: SSAValue) -> bool:
        if isinstance(value, BlockArgument):
            return value.block is entry and value.index < n_inputs and value.index != ITEM_ID
        found = value.owner
        assert isinstance(found, Operation)
        if found in ops:
            return True
        if found.regions or found.dialect_name() != "arith" or any(map(is_token, found.results)):
            return False
        if not all(uniform(operand) for operand in found.operands):
            return False
        ops.append(found)  # after its operands' ops: an order to make them in
        return True

    if not uniform(op.size):
        raise OpError(op, VARYING_SIZE.format(name=op.name, not_here=NOT_HERE))
    recipe = Block(arg_types=kernel.function_type.inputs.data)
    mapping: dict[SSAValue, SSAValue] = dict(zip(entry.args[:n_inputs], recipe.args, strict=True))
    for found in ops:
        recipe.add_op(found.clone(value_mapper=mapping))
    return RuntimeSlot(recipe, mapping[op.size], gap)


def slot_stride(b: Builder, size: SSAValue, gap: int) -> SSAValue:
    """`align_up(size + gap, SLOT_ALIGN)` at run time: the bytes between two items' slots."""
    padded = b.insert(arith.AddiOp(size, index_constant(b, gap + SLOT_ALIGN - 1))).result
    return b.insert(arith.AndIOp(padded, index_constant(b, -SLOT_ALIGN))).result


def group_inputs(inputs: Sequence[Attribute], args: Sequence[SSAValue]) -> list[SSAValue | None]:
    """The work-group function's value of each input of a kernel of input types `inputs`, from
    the function's arguments `args` (`workgroup_signature`); None for the work-item id."""
    fixed = 7 if smem_param(inputs) is not None else 6
    values: list[SSAValue | None] = [*args[:5], None]
    if fixed == 7:
        values.append(args[7])
    return [*values, *args[8 : 8 + len(inputs) - fixed]]


def slot_bytes(op: mem.SlotOp | mem.MslotOp, runtime_size: str) -> tuple[int, int]:
    """The bytes and alignment of what a slot makes; a `mem.mslot` of a run-time size is the
    error `runtime_size` at it."""
    assert isinstance(op.res.type, PtrType)
    if isinstance(op, mem.MslotOp):
        size = constant_index(op.size)
        if size is None:
            raise OpError(op, runtime_size)
        return size, SLOT_ALIGN
    return size_and_align(op.res.type.pointee, op)


def place(b: Builder, base: SSAValue, offset: SSAValue | int, type_: Attribute) -> SSAValue:
    """The bytes at `offset` (an `index`, or a constant) of the byte array `base`, seen as a
    pointer of type `type_`."""
    if isinstance(offset, int):
        offset = index_constant(b, offset)
    byte = b.insert(mem.LeaOp(base, offset)).res
    return b.insert(UnrealizedConversionCastOp.get([byte], [type_])).results[0]


def array_place(b: Builder, base: SSAValue, offset: int, element: Attribute) -> SSAValue:
    """`place` as an array of `element` in the space of `base`."""
    assert isinstance(base.type, PtrType)
    return place(b, base, offset, PtrType(ArrayType(DYNAMIC_INDEX, element), base.type.space))


def replace_slot(op: mem.SlotOp | mem.MslotOp, base: SSAValue, offset: SSAValue | int) -> None:
    """Put the slot `op` at `offset` in the byte array `base` (its token passes through)."""
    op.res.replace_all_uses_with(place(Builder(InsertPoint.before(op)), base, offset, op.res.type))
    op.res_mem.replace_all_uses_with(op.mem)
    Rewriter.erase_op(op)


def replace_slot_by_part(
    op: mem.SlotOp | mem.MslotOp, base: SSAValue, item: SSAValue, stride: SSAValue
) -> None:
    """Put the slot `op` at work-item `item`'s part of `base`, an array of parts of `stride`
    bytes (`items_array`)."""
    b = Builder(InsertPoint.before(op))
    replace_slot(op, base, b.insert(arith.MuliOp(item, stride)).result)


def items_array(b: Builder, token: SSAValue, n_items: SSAValue, stride: SSAValue) -> SSAValue:
    """A local byte array (a `mem.mslot` on `token`) of `n_items` parts of `stride` bytes: the
    slots of a group's work-items."""
    size = b.insert(arith.MuliOp(n_items, stride)).result
    return b.insert(mem.MslotOp(token, size, LOCAL_BYTES)).res


CHECKED_ATTR = "gpu.checked"
"""On a kernel whose accesses call the checker (`gpuir.lowering.cpu.check_accesses`)."""
REDZONE = 64
"""Bytes left unused after each shared array of a checked kernel: an overrun of one array lands
there, outside every allocation the checker knows, not in the next array."""


def redzone(kernel: func.FuncOp) -> int:
    """The bytes to leave unused after each slot of `kernel`: `REDZONE` when it is checked."""
    return REDZONE if CHECKED_ATTR in kernel.attributes else 0


def lower_shared_slots(kernel: func.FuncOp, shared: SSAValue) -> int:
    """Every slot in space 3 becomes an offset into `shared`; the bytes they take (with a
    `REDZONE` after each in a checked kernel)."""
    offset = 0
    gap = redzone(kernel)
    for op in list(kernel.walk()):
        if not isinstance(op, mem.SlotOp | mem.MslotOp) or space_of(op) != SHARED:
            continue
        size, align = slot_bytes(op, f"'{op.name}' in shared memory needs a constant size")
        offset = align_up(offset, align)
        replace_slot(op, shared, offset)
        offset += size + gap
    return align_up(offset, SHARED_ALIGN)


class Helpers:
    """The tree-reduction functions of a module, made on first use.

    `@__gpuir_workgroup_reduce_<kind>_<T>(M5, values, lo, hi, scratch) -> T` is `t(lo, hi)` of
    the fixed tree of `gpu.workgroup_reduce` (docs/dialects.md): split at `mid = (lo + hi) // 2` (two recursive calls) until the range's
    size is a power of two, whose tree is the perfect binary tree of neighbours: level by level,
    `scratch[i] = x[2i] ⊕ x[2i + 1]` (the first level from `values`, then in `scratch`, which
    holds at least half of the range)."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.made: dict[tuple[str, Attribute], str] = {}

    def reduce(self, kind: str, type_: Attribute) -> str:
        key = (kind, type_)
        if key not in self.made:
            self.made[key] = self._make(kind, type_)
        return self.made[key]

    def _make(self, kind: str, type_: Attribute) -> str:
        name = f"__gpuir_workgroup_reduce_{kind}_{type_}"
        array = PtrType(ArrayType(DYNAMIC_INDEX, type_), LOCAL)
        inputs = [MemType(LOCAL), array, IndexType(), IndexType(), array]
        body = Block(arg_types=inputs)
        m5, values, lo, hi, scratch = body.args
        b = Builder(InsertPoint.at_end(body))
        zero, one = index_constant(b, 0), index_constant(b, 1)
        count = b.insert(arith.SubiOp(hi, lo)).result
        below = b.insert(arith.SubiOp(count, one)).result
        low_bits = b.insert(arith.AndIOp(count, below)).result
        power_of_two = b.insert(arith.CmpiOp(low_bits, zero, "eq")).result

        def load(b: Builder, array: SSAValue, index: SSAValue) -> SSAValue:
            return b.insert(mem.LoadOp(m5, b.insert(mem.LeaOp(array, index)).res)).res

        def pairs(b: Builder, source: SSAValue, start: SSAValue, size: SSAValue) -> None:
            """`scratch[i] = source[start + 2i] ⊕ source[start + 2i + 1]`, i < size."""
            loop = Block(arg_types=[IndexType()])
            lb = Builder(InsertPoint.at_end(loop))
            i = loop.args[0]
            even = lb.insert(arith.AddiOp(start, lb.insert(arith.AddiOp(i, i)).result)).result
            odd = lb.insert(arith.AddiOp(even, one)).result
            total = combine(lb, kind, load(lb, source, even), load(lb, source, odd))
            lb.insert(mem.StoreOp(m5, lb.insert(mem.LeaOp(scratch, i)).res, total))
            lb.insert(scf.YieldOp())
            b.insert(scf.ForOp(zero, size, one, [], loop))

        tree = Block()  # a power of two: level by level
        tb = Builder(InsertPoint.at_end(tree))
        single = tb.insert(arith.CmpiOp(count, one, "eq")).result
        leaf = Block()
        fb = Builder(InsertPoint.at_end(leaf))
        fb.insert(scf.YieldOp(load(fb, values, lo)))
        levels = Block()
        vb = Builder(InsertPoint.at_end(levels))
        half = vb.insert(arith.ShRUIOp(count, one)).result
        pairs(vb, values, lo, half)
        level = Block(arg_types=[IndexType()])
        lvb = Builder(InsertPoint.at_end(level))
        width = lvb.insert(arith.ShRUIOp(half, level.args[0])).result
        more = lvb.insert(arith.CmpiOp(width, one, "ugt")).result
        step = Block()
        sb = Builder(InsertPoint.at_end(step))
        pairs(sb, scratch, zero, sb.insert(arith.ShRUIOp(width, one)).result)
        sb.insert(scf.YieldOp())
        lvb.insert(scf.IfOp(more, [], Region(step)))
        lvb.insert(scf.YieldOp())
        bits = index_constant(vb, index_type(self.module).width.data)  # shifts stay in range
        vb.insert(scf.ForOp(zero, bits, one, [], level))
        vb.insert(scf.YieldOp(load(vb, scratch, zero)))
        tree_value = tb.insert(scf.IfOp(single, [type_], Region(leaf), Region(levels))).results[0]
        tb.insert(scf.YieldOp(tree_value))

        split = Block()  # t(lo, mid) ⊕ t(mid, hi)
        eb = Builder(InsertPoint.at_end(split))
        total = eb.insert(arith.AddiOp(lo, hi)).result
        mid = eb.insert(arith.ShRUIOp(total, one)).result
        left = eb.insert(func.CallOp(name, [m5, values, lo, mid, scratch], [type_])).res[0]
        right = eb.insert(func.CallOp(name, [m5, values, mid, hi, scratch], [type_])).res[0]
        eb.insert(scf.YieldOp(combine(eb, kind, left, right)))
        result = b.insert(scf.IfOp(power_of_two, [type_], Region(tree), Region(split)))
        b.insert(func.ReturnOp(result.results[0]))
        function = func.FuncOp(name, (inputs, [type_]), Region(body))
        self.module.body.block.add_op(function)
        return name


def first_barrier_in(block: Block) -> Operation | None:
    return next((b for op in block.ops if (b := first_barrier(op)) is not None), None)


CHEAP_OPS = (mem.LeaOp, UnrealizedConversionCastOp)


PURE_OPS = (
    mem.LeaOp,
    UnrealizedConversionCastOp,
    scf.ForOp,
    scf.IfOp,
    scf.WhileOp,
    scf.ConditionOp,
    scf.IndexSwitchOp,
    scf.YieldOp,
)
"""Ops that are pure when their regions are (besides `arith` and `math`)."""


def is_pure(op: Operation) -> bool:
    """Whether `op` (with everything inside it) computes without memory effects or tokens."""
    for inner in op.walk():
        if any(is_token(v) for v in (*inner.operands, *inner.results)):
            return False
        if inner.dialect_name() not in ("arith", "math") and not isinstance(inner, PURE_OPS):
            return False
    return True


def is_cheap(op: Operation) -> bool:
    """A pure op without regions that costs about what a load costs: `mem.lea`, a cast, or an
    `arith` op that does not divide."""
    if op.regions or not is_pure(op):
        return False
    if isinstance(op, CHEAP_OPS):
        return True
    return op.dialect_name() == "arith" and "div" not in op.name and "rem" not in op.name


def defined_values(ops: Iterable[Operation]) -> set[SSAValue]:
    """The values that `ops` and the ops inside them define: their results and the arguments of
    their blocks."""
    found: set[SSAValue] = set()
    for op in ops:
        for inner in op.walk():
            found.update(inner.results)
            for region in inner.regions:
                for block in region.blocks:
                    found.update(block.args)
    return found


def external_values(ops: Iterable[Operation]) -> list[SSAValue]:
    """The values that `ops` (and the ops inside them) use but do not define, in order."""
    ops = list(ops)
    inside = defined_values(ops)
    found: dict[SSAValue, None] = {}
    for op in ops:
        for inner in op.walk():
            for value in inner.operands:
                if value not in inside:
                    found.setdefault(value)
    return list(found)


def kept_type(values: Sequence[SSAValue], op: Operation) -> PtrType:
    """The array that keeps `values` per work-item: `per_item_type`, but flags (`i1`) that no
    collective reads as bytes (`LOCAL_BYTES`), whose stores LLVM vectorizes (not `i1`s')."""
    collectives = (gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp)
    users = [u.operation for v in values for u in v.uses]
    if values[0].type == i1 and not any(isinstance(u, collectives) for u in users):
        return LOCAL_BYTES
    return per_item_type(values[0], op)


def per_item_type(value: SSAValue, op: Operation) -> PtrType:
    """The type of the array that keeps `value` per work-item."""
    try:
        size_and_align(value.type, op)
    except OpError:
        raise OpError(
            op,
            f"'{op.name}': a value of type {value.type} cannot be kept per work-item across a "
            f"barrier on the cpu provider",
        ) from None
    return PtrType(ArrayType(DYNAMIC_INDEX, value.type), LOCAL)


def inside(op: Operation | None, members: set[Operation]) -> bool:
    while op is not None:
        if op in members:
            return True
        op = op.parent_op()
    return False


def check_closed(function: func.FuncOp) -> None:
    """Every value the new function uses is defined in it (a bug otherwise)."""
    defined = defined_values([function])
    for op in function.walk():
        for value in op.operands:
            if value not in defined:
                raise OpError(op, f"cpu-workgroup-loops: '{op.name}' uses a value of the kernel")
