"""Work-item loop fission: a kernel with barriers as a work-group function whose item loops run
between the barriers (the design is in `gpuir.lowering.cpu.workgroup_loops`'s docstring).
`Fission.placement` says first whether the kernel's barriers allow it; which values vary
between the items decides what each item keeps in arrays across a barrier."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, i1, i8
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import WARP_OPS
from gpuir.dialects.mem import LOCAL, SHARED, ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.cpu.guards import emit_guarded
from gpuir.lowering.cpu.warps import (
    analyze_per_warp,
    emit_per_warp,
    emit_warp_op,
    given,
    padded,
    warp_results,
)
from gpuir.lowering.cpu.workgroups import (
    BARRIERS,
    LOCAL_BYTES,
    LOCAL_RUNTIME_SIZE,
    NOT_HERE,
    SHARED_BYTES,
    SLOT_ALIGN,
    Helpers,
    RuntimeSlot,
    align_up,
    check_closed,
    external_values,
    first_barrier,
    first_barrier_in,
    has_runtime_size,
    index_constant,
    inside,
    is_cheap,
    is_pure,
    is_token,
    items_array,
    kept_type,
    local_slots,
    lower_shared_slots,
    new_workgroup_function,
    per_item_type,
    redzone,
    replace_slot_by_part,
    runtime_slot,
    slot_bytes,
    slot_stride,
    space_of,
    takes_smem,
)
from gpuir.lowering.llvm.conversion import (
    size_and_align,
)
from gpuir.lowering.llvm.rules import combine

RECOMPUTE_DEPTH = 8
"""How long a chain of cheap ops a later item loop computes again rather than keeping its
result per item."""
WHY = {
    mem.LoadOp: "a value loaded from memory",
    func.CallOp: "the result of a call",
    mem.AllocOp: "a per-item heap allocation",
    mem.MallocOp: "a per-item heap allocation",
}
HOW = (
    "(it stops every work-item of a group at the kernel's barriers, which it cannot do inside "
    "a call)"
)


# --- kernels with barriers -------------------------------------------------------------------------


@dataclass(eq=False)
class Segment:
    """A barrier-free run of ops of a group-level block: `hoisted` run once per group, `items`
    once per work-item (in an item loop)."""

    hoisted: list[Operation] = field(default_factory=list[Operation])
    items: list[Operation] = field(default_factory=list[Operation])


Step = Segment | Operation


class Fission:
    """Work-item loop fission of one kernel with barriers (`workgroup_loops`'s docstring)."""

    def __init__(self, kernel: func.FuncOp, helpers: Helpers, per_item_slots: bool = True):
        self.kernel = kernel
        self.helpers = helpers
        self.per_item_slots = per_item_slots
        self.entry = kernel.body.blocks[0]
        self.n_params = len(kernel.function_type.inputs.data)
        self.item_id = self.entry.args[5]
        self.reset()

    def placement(self) -> BarrierPlacement | None:
        """Where this kernel's barriers keep `Fission` from taking it (the kernel then runs in
        the resumable form): a barrier in a `cf` block other than the entry, or inside an
        `scf.for` / `scf.if` whose bounds or condition vary between the work-items. An
        analysis of the kernel as it is; nothing is rewritten."""
        kernel = self.kernel
        if len(kernel.body.blocks) != 1:
            blocks = list(kernel.body.blocks)
            barrier = next((b for block in blocks[1:] if (b := first_barrier_in(block))), None)
            barrier = barrier or first_barrier(kernel)
            assert barrier is not None
            return BarrierPlacement(
                barrier,
                f"a barrier ('{barrier.name}') in a cf block other than the kernel's entry "
                f"block {NOT_HERE} {HOW}",
            )
        try:
            self.analyze_block(self.entry)
        except BarrierPlacement as e:
            return e
        finally:
            self.found_per_warp = list(self.per_warp)
            self.reset()
        return None

    def prepare(self) -> None:
        """The kernel's shared slots become offsets into the group's shared bytes (a new entry
        argument), its local slots each item's part of an array."""
        self.shared = self.entry.insert_arg(SHARED_BYTES, len(self.entry.args))
        self.shared_bytes = lower_shared_slots(self.kernel, self.shared)
        self.locals: list[tuple[BlockArgument, int | RuntimeSlot]] = (
            self.lower_local_slots() if self.per_item_slots else []
        )

    def reset(self) -> None:
        """The analysis' state, empty."""
        self.varying: dict[SSAValue, str] = {self.item_id: "the work-item id"}
        self.steps: dict[Block, list[Step]] = {}
        self.storage_of: dict[SSAValue, int] = {}
        """Varying values kept per work-item → their array (an index into `storage_types`)."""
        self.storage_types: list[PtrType] = []
        self.temps: set[Operation] = set()
        """Collectives whose value is not kept per item: they fill a temporary array."""
        self.interchanged: set[Operation] = set()
        """Barrier-free loops run at group level (`try_interchange`)."""
        self.write_back: dict[Segment, list[tuple[SSAValue, SSAValue]]] = {}
        """Last segments of group-level loop bodies → (loop result, yielded value) pairs: the
        segment stores each item's yielded value into the loop's array itself."""
        self.written_back: set[Operation] = set()
        """The loop terminators whose varying values are written back so."""
        self.per_warp: list[Operation] = []
        """`scf.if` / `scf.for` with warp operations, under a condition or bounds that vary
        between the warps but not within one: run once per warp (`warps.emit_per_warp`)."""

    # -- preparation --

    def lower_local_slots(self) -> list[tuple[BlockArgument, int | RuntimeSlot]]:
        """Every slot in space 5 becomes this item's part of an array of `n_items` slots (of
        a stride the group computes, for a `mem.mslot` of a run-time size)."""
        found: list[tuple[BlockArgument, int | RuntimeSlot]] = []
        gap = redzone(self.kernel)
        for op in local_slots(self.kernel):
            b = Builder(InsertPoint.before(op))
            stride: int | RuntimeSlot
            if has_runtime_size(op):
                assert isinstance(op, mem.MslotOp)
                stride = runtime_slot(op, self.kernel, gap)
                step = slot_stride(b, op.size, gap)
            else:
                size, _ = slot_bytes(op, LOCAL_RUNTIME_SIZE.format(name=op.name))
                stride = align_up(max(size, 1) + gap, SLOT_ALIGN)
                step = index_constant(b, stride)
            base = self.entry.insert_arg(LOCAL_BYTES, len(self.entry.args))
            replace_slot_by_part(op, base, self.item_id, step)
            found.append((base, stride))
        return found

    # -- which values vary between the work-items --

    def why(self, values: Iterable[SSAValue]) -> str | None:
        for value in values:
            if value in self.varying:
                return self.varying[value]
        return None

    def mark(self, values: Iterable[SSAValue], why: str) -> None:
        for value in values:
            if not is_token(value):
                self.varying.setdefault(value, why)

    def analyze_block(self, block: Block) -> None:
        for op in block.ops:
            self.analyze_op(op)

    def analyze_op(self, op: Operation) -> None:
        barrier = first_barrier(op) if op.regions else None
        if barrier is not None:
            self.analyze_group_op(op, barrier)
        elif isinstance(op, scf.ForOp) and self.try_interchange(op):
            return
        elif isinstance(op, gpu.WorkgroupReduceOp | gpu.SyncWorkItemsOp):
            return  # a reduction's result is the group's
        elif isinstance(op, mem.SlotOp | mem.MslotOp) and space_of(op) == SHARED:
            return  # the group's memory (before `prepare`): one pointer for every item
        elif isinstance(op, gpu.WorkgroupScanOp):
            self.mark([op.res], "the result of a work-group scan")
        elif is_pure(op):
            why = self.why(external_values([op]))
            if why is not None:
                self.mark(op.results, why)
        else:
            why = self.why(external_values([op])) or WHY.get(type(op), "a per-item value")
            self.mark(op.results, why)

    def analyze_loop(self, op: scf.ForOp) -> None:
        """A group-level loop: which carried values vary (a fixed point over its body)."""
        body = op.body.block
        carried = body.args[1:]
        for init, arg, result in zip(op.iter_args, carried, op.results, strict=True):
            if init in self.varying:
                self.mark([arg, result], self.varying[init])
        while True:
            self.analyze_block(body)
            terminator = body.last_op
            assert terminator is not None
            changed = False
            for value, arg, result in zip(terminator.operands, carried, op.results, strict=True):
                if value in self.varying and arg not in self.varying:
                    self.mark([arg, result], self.varying[value])
                    changed = True
            if not changed:
                return

    def try_interchange(self, op: scf.ForOp) -> bool:
        """Make a barrier-free loop with uniform bounds group-level (item loops inside it)
        when it carries a per-item value, such as an accumulator: each item's chain of
        dependent ops then becomes one step of every item per iteration, which vectorizes
        across the items. Any order of the items' steps is a valid schedule without barriers
        (pocl's implicit loop barriers). Only loops without inner loops."""
        if self.why([op.lb, op.ub, op.step]) is not None or not any(
            not is_token(a) for a in op.iter_args
        ):
            return False
        if any(isinstance(inner, scf.ForOp | scf.WhileOp) for inner in op.body.walk()):
            return False
        before = dict(self.varying)
        self.analyze_loop(op)
        if any(r in self.varying for r in op.results):
            self.interchanged.add(op)
            return True
        self.varying = before
        return False

    def analyze_group_op(self, op: Operation, barrier: Operation) -> None:
        where = f"a barrier ('{barrier.name}') inside"
        if isinstance(op, scf.ForOp):
            why = self.why([op.lb, op.ub, op.step])
            if why is not None and analyze_per_warp(self, op, [op.lb, op.ub, op.step]):
                return
            if why is not None:
                raise BarrierPlacement(
                    barrier, f"{where} scf.for whose bounds depend on {why} {NOT_HERE} {HOW}"
                )
            self.analyze_loop(op)
        elif isinstance(op, scf.IfOp):
            why = self.why([op.cond])
            if why is not None and analyze_per_warp(self, op, [op.cond]):
                return
            if why is not None:
                raise BarrierPlacement(
                    barrier, f"{where} scf.if whose condition depends on {why} {NOT_HERE} {HOW}"
                )
            for region in op.regions:
                for block in region.blocks:
                    self.analyze_block(block)
                    terminator = block.last_op
                    assert terminator is not None
                    for value, result in zip(terminator.operands, op.results, strict=True):
                        if value in self.varying:
                            self.mark([result], self.varying[value])
        else:
            raise BarrierPlacement(
                barrier,
                f"{where} '{op.name}' {NOT_HERE} {HOW}; run expand-gpu-composites first"
                if isinstance(op, gpu.SyncedScopeOp)
                else f"{where} '{op.name}' {NOT_HERE} {HOW}",
            )

    # -- segments and what crosses them --

    def partition(self, block: Block) -> list[Step]:
        steps: list[Step] = []
        current = Segment()
        for op in block.ops:
            if op.has_trait(IsTerminator):
                break
            if (
                isinstance(op, BARRIERS)
                or op in self.interchanged
                or (op.regions and first_barrier(op) is not None)
            ):
                if current.hoisted or current.items:
                    steps.append(current)
                    current = Segment()
                steps.append(op)
                for region in op.regions:
                    for inner in region.blocks:
                        self.steps[inner] = self.partition(inner)
            elif is_pure(op) and self.why(external_values([op])) is None:
                current.hoisted.append(op)
            else:
                current.items.append(op)
        if current.hoisted or current.items:
            steps.append(current)
        return steps

    def keep(self, values: Sequence[SSAValue], op: Operation) -> None:
        """One array per work-item for `values` (which share it)."""
        index = len(self.storage_types)
        self.storage_types.append(kept_type(values, op))
        for value in values:
            self.storage_of[value] = index

    def find_write_backs(self) -> None:
        """A group-level loop whose body ends with a segment that makes every varying value
        it yields: that segment stores them into the loop's arrays (no copy loop)."""
        for steps in self.steps.values():
            for step in steps:
                if not isinstance(step, scf.ForOp):
                    continue
                body = step.body.block
                terminator = body.last_op
                varying = [j for j, r in enumerate(step.results) if r in self.varying]
                last = self.steps[body][-1] if self.steps[body] else None
                if terminator is None or not varying or not isinstance(last, Segment):
                    continue
                members = set(last.items)
                yielded = [terminator.operands[j] for j in varying]
                if all(isinstance(v.owner, Operation) and v.owner in members for v in yielded):
                    self.write_back[last] = [
                        (step.results[j], terminator.operands[j]) for j in varying
                    ]
                    self.written_back.add(terminator)

    def find_storage(self) -> None:
        self.find_write_backs()
        for home, steps in self.steps.items():
            for step in steps:
                if isinstance(step, Segment):
                    self.keep_crossing(step, home)
                elif isinstance(step, scf.ForOp):
                    carried = step.body.block.args[1:]
                    for arg, result in zip(carried, step.results, strict=True):
                        if result in self.varying:
                            self.keep([result, arg], step)
                elif isinstance(step, scf.IfOp):
                    for result in step.results:
                        if result in self.varying:
                            self.keep([result], step)
                elif isinstance(step, gpu.WorkgroupScanOp):
                    self.keep([step.res], step)
                elif isinstance(step, WARP_OPS):
                    for result in warp_results(step):
                        self.keep([result], step)
        for steps in self.steps.values():
            for step in steps:
                if isinstance(step, (gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp, *WARP_OPS)):
                    if given(step) not in self.storage_of or isinstance(step, gpu.ShuffleOp):
                        self.temps.add(step)  # a shuffle reads a padded array (`warps.padded`)

    def keep_crossing(self, segment: Segment, home: Block) -> None:
        """Keep per item what other segments use, unless they can compute it again."""
        members = set(segment.items)
        for op in segment.items:
            for result in op.results:
                if result not in self.varying or result in self.storage_of:
                    continue
                users = [
                    u.operation
                    for u in result.uses
                    if not inside(u.operation, members) and u.operation not in self.written_back
                ]
                if not users:
                    continue
                collective = any(
                    isinstance(u, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp) for u in users
                )
                if (
                    not collective
                    and self.recomputable(result)
                    and all(self.under(u, home) for u in users)
                ):
                    continue
                self.keep([result], op)

    def recomputable(self, value: SSAValue, depth: int = 0) -> bool:
        """Whether `value` is a short chain of cheap ops of the item id and uniform values."""
        if value is self.item_id or value not in self.varying:
            return True
        op = value.owner
        if depth >= RECOMPUTE_DEPTH or not isinstance(op, Operation) or not is_cheap(op):
            return False
        return all(self.recomputable(operand, depth + 1) for operand in op.operands)

    def under(self, op: Operation, home: Block) -> bool:
        """Whether `op` is in the group-level block `home` or in a block nested in it."""
        block = op.parent_block()
        while block is not None:
            if block is home:
                return True
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        return False

    # -- the work-group function --

    def run(self) -> func.FuncOp:
        """The work-group function (`placement` found nothing in the way)."""
        self.prepare()
        self.analyze_block(self.entry)
        self.steps[self.entry] = self.partition(self.entry)
        self.find_storage()
        function = new_workgroup_function(self.kernel, self.shared_bytes)
        entry = function.body.blocks[0]
        args = entry.args
        self.tokens = {1: args[0], 3: args[1], 4: args[2], 5: args[3]}
        self.n_items = args[5]
        b = Builder(InsertPoint.at_end(entry))
        self.arrays = [self.allocate(b, t) for t in self.storage_types]
        self.temp_arrays = {
            op: padded(self, b, op)
            if isinstance(op, gpu.ShuffleOp)
            else self.allocate(b, per_item_type(given(op), op))
            for op in self.temps
        }
        self.scratch = {
            op: self.allocate(b, per_item_type(op.value, op))
            for op in self.kernel.walk()
            if isinstance(op, gpu.WorkgroupReduceOp)
        }
        self.group_map: dict[SSAValue, SSAValue] = {}
        old = self.entry.args
        for i in (0, 1, 2, 3, 4):
            self.group_map[old[i]] = args[i]
        fixed = 7 if takes_smem(self.kernel) else 6
        if fixed == 7:
            self.group_map[old[6]] = args[7]
        for old_arg, new_arg in zip(old[fixed : self.n_params], args[8:], strict=True):
            self.group_map[old_arg] = new_arg
        self.group_map[self.shared] = args[6]
        for base, stride in self.locals:
            if isinstance(stride, RuntimeSlot):
                inputs = [self.group_map.get(a) for a in old[: len(stride.recipe.args)]]
                step = stride.stride_at(b, inputs)
            else:
                step = index_constant(b, stride)
            self.group_map[base] = items_array(b, args[3], self.n_items, step)
        self.zero = index_constant(b, 0)
        self.one = index_constant(b, 1)
        # the items that item loops run over: the group's, or one warp's (`emit_per_warp`)
        self.lo, self.hi, self.in_warp = self.zero, self.n_items, False
        self.emit_steps(b, self.entry)
        b.insert(func.ReturnOp(*args[:4]))
        check_closed(function)
        return function

    def allocate(self, b: Builder, type_: PtrType) -> SSAValue:
        assert isinstance(type_.pointee, ArrayType)
        element_size, _ = size_and_align(type_.pointee.element_type, self.kernel)
        size = b.insert(arith.MuliOp(self.n_items, index_constant(b, element_size))).result
        return b.insert(mem.MslotOp(self.tokens[LOCAL], size, type_)).res

    def emit_steps(self, b: Builder, block: Block) -> None:
        for step in self.steps[block]:
            if isinstance(step, Segment):
                self.emit_segment(b, step)
            else:
                self.emit_group_op(b, step)

    def item_loop(self, b: Builder, end: SSAValue | None = None) -> tuple[Builder, SSAValue]:
        """An empty `scf.for` over the item ids (below `end`, default all) at `b`; a builder in
        it and the item id."""
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = "item"
        b.insert(scf.ForOp(self.lo, end or self.hi, self.one, [], body))
        body.add_op(scf.YieldOp())
        terminator = body.last_op
        assert terminator is not None
        return Builder(InsertPoint.before(terminator)), body.args[0]

    def load(self, b: Builder, array: SSAValue, item: SSAValue) -> SSAValue:
        address = b.insert(mem.LeaOp(array, item)).res
        return b.insert(mem.LoadOp(self.tokens[LOCAL], address)).res

    def store(self, b: Builder, array: SSAValue, item: SSAValue, value: SSAValue) -> None:
        if value.type == i1 and array.type == LOCAL_BYTES:  # a flag as a byte (`kept_type`)
            value = b.insert(arith.ExtUIOp(value, i8)).result
        address = b.insert(mem.LeaOp(array, item)).res
        b.insert(mem.StoreOp(self.tokens[LOCAL], address, value))

    def array_of(self, value: SSAValue) -> SSAValue:
        return self.arrays[self.storage_of[value]]

    def value_at(
        self, b: Builder, value: SSAValue, item: SSAValue, known: dict[SSAValue, SSAValue]
    ) -> SSAValue:
        """`value` as work-item `item` sees it, inside an item loop: a token of the function,
        the item id, loaded from its array, computed again, or the group's. `known`: the
        values the loop has already."""
        if value in known:
            return known[value]
        if is_token(value):
            assert isinstance(value.type, MemType)
            found = self.tokens[value.type.space.data]
        elif value is self.item_id:
            found = item
        elif value in self.storage_of:
            found = self.load(b, self.array_of(value), item)
            if found.type != value.type:  # a flag kept as a byte
                found = b.insert(arith.TruncIOp(found, i1)).result
        elif value in self.varying:
            op = value.owner
            assert isinstance(op, Operation)
            mapper = {v: self.value_at(b, v, item, known) for v in op.operands}
            clone = b.insert(op.clone(value_mapper=mapper))
            known.update(zip(op.results, clone.results, strict=True))
            found = known[value]
        else:
            found = self.group_map[value]
        known[value] = found
        return found

    def emit_segment(self, b: Builder, segment: Segment) -> None:
        for op in segment.hoisted:
            b.insert(op.clone(value_mapper=self.group_map))
        if not segment.items:
            return
        write_back = self.write_back.get(segment, [])
        items = self.live(segment.items, {value for _, value in write_back})
        if not items:
            return
        if not write_back and not self.in_warp and emit_guarded(self, b, items):
            return
        self.emit_items(b, items, write_back)

    def emit_items(
        self, b: Builder, items: list[Operation], write_back: list[tuple[SSAValue, SSAValue]]
    ) -> None:
        """The item loop of a segment's `items`."""
        lb, item = self.item_loop(b)
        mapper: dict[SSAValue, SSAValue] = {}
        for value in external_values(items):
            self.value_at(lb, value, item, mapper)
        for op in items:
            lb.insert(op.clone(value_mapper=mapper))
            for result in op.results:
                if result in self.storage_of:
                    self.store(lb, self.array_of(result), item, mapper[result])
        for result, value in write_back:
            self.store(lb, self.array_of(result), item, mapper[value])

    def live(self, items: list[Operation], needed: set[SSAValue]) -> list[Operation]:
        """The ops of a segment without the pure ones whose results no one in it needs (later
        segments compute those again); `needed`: values written back at its end."""
        live: set[Operation] = set()
        members = set(items)
        for op in reversed(items):
            if (
                not is_pure(op)
                or any(r in self.storage_of for r in op.results)
                or any(r in needed for r in op.results)
            ):
                live.add(op)
                continue
            for result in op.results:
                for use in result.uses:
                    user: Operation | None = use.operation
                    while user is not None and user not in members:
                        user = user.parent_op()
                    if user in live:
                        live.add(op)
        return [op for op in items if op in live]

    def copy_loop(self, b: Builder, copies: Sequence[tuple[SSAValue, SSAValue]]) -> None:
        """For each item: all the values first, then into their arrays (safe for swaps)."""
        if not copies:
            return
        lb, item = self.item_loop(b)
        known: dict[SSAValue, SSAValue] = {}
        values = [self.value_at(lb, value, item, known) for _, value in copies]
        for (array, _), value in zip(copies, values, strict=True):
            self.store(lb, array, item, value)

    def values_array(self, b: Builder, op: Operation) -> SSAValue:
        """The array of the items' values that collective or warp operation `op` takes."""
        if op in self.temps:
            array = self.temp_arrays[op]
            self.copy_loop(b, [(array, given(op))])
            return array
        return self.array_of(given(op))

    def emit_group_op(self, b: Builder, op: Operation) -> None:
        if isinstance(op, gpu.SyncWorkItemsOp):
            return  # the item loops before it have all finished
        if isinstance(op, gpu.WorkgroupReduceOp):
            values = self.values_array(b, op)
            helper = self.helpers.reduce(op.kind.data, op.value.type)
            scratch = self.scratch[op]
            call = func.CallOp(
                helper,
                [self.tokens[LOCAL], values, self.zero, self.n_items, scratch],
                [op.value.type],
            )
            self.group_map[op.res] = b.insert(call).res[0]
        elif isinstance(op, gpu.WorkgroupScanOp):
            self.emit_scan(b, op)
        elif isinstance(op, WARP_OPS):
            emit_warp_op(self, b, op)
        elif op in self.per_warp:
            emit_per_warp(self, b, op)
        elif isinstance(op, scf.ForOp):
            self.emit_for(b, op)
        else:
            assert isinstance(op, scf.IfOp)
            self.emit_if(b, op)

    def emit_scan(self, b: Builder, op: gpu.WorkgroupScanOp) -> None:
        values = self.values_array(b, op)
        out = self.array_of(op.res)
        first = self.load(b, values, self.zero)
        self.store(b, out, self.zero, first)
        body = Block(arg_types=[IndexType(), op.value.type])
        item, acc = body.args
        lb = Builder(InsertPoint.at_end(body))
        total = combine(lb, op.kind.data, acc, self.load(lb, values, item))
        self.store(lb, out, item, total)
        lb.insert(scf.YieldOp(total))
        b.insert(scf.ForOp(self.one, self.n_items, self.one, [first], body))

    def uniform_and_varying(self, results: Sequence[SSAValue]) -> tuple[list[int], list[int]]:
        uniform = [j for j, r in enumerate(results) if not is_token(r) and r not in self.varying]
        varying = [j for j, r in enumerate(results) if r in self.varying]
        return uniform, varying

    def emit_for(self, b: Builder, op: scf.ForOp, bounds: Sequence[SSAValue] | None = None) -> None:
        uniform, varying = self.uniform_and_varying(op.results)
        old_body = op.body.block
        carried = old_body.args[1:]
        self.copy_loop(b, [(self.array_of(op.results[j]), op.iter_args[j]) for j in varying])
        gm = self.group_map
        body = Block(arg_types=[IndexType(), *(op.results[j].type for j in uniform)])
        gm[old_body.args[0]] = body.args[0]
        body.args[0].name_hint = old_body.args[0].name_hint
        for k, j in enumerate(uniform):
            gm[carried[j]] = body.args[1 + k]
            body.args[1 + k].name_hint = carried[j].name_hint
        inits = [gm[op.iter_args[j]] for j in uniform]
        lb, ub, step = (gm[op.lb], gm[op.ub], gm[op.step]) if bounds is None else bounds
        loop = b.insert(scf.ForOp(lb, ub, step, inits, body))
        inner = Builder(InsertPoint.at_end(body))
        self.emit_steps(inner, old_body)
        terminator = old_body.last_op
        assert terminator is not None
        yielded = terminator.operands
        if terminator not in self.written_back:
            self.copy_loop(
                inner,
                [
                    (self.array_of(op.results[j]), yielded[j])
                    for j in varying
                    if yielded[j] is not carried[j]
                ],
            )
        inner.insert(scf.YieldOp(*(gm[yielded[j]] for j in uniform)))
        for k, j in enumerate(uniform):
            gm[op.results[j]] = loop.results[k]

    def emit_if(self, b: Builder, op: scf.IfOp, cond: SSAValue | None = None) -> None:
        uniform, varying = self.uniform_and_varying(op.results)
        regions = []
        for old in op.regions:
            if not old.blocks:
                regions.append(Region())
                continue
            block = Block()
            inner = Builder(InsertPoint.at_end(block))
            self.emit_steps(inner, old.blocks[0])
            terminator = old.blocks[0].last_op
            assert terminator is not None
            yielded = terminator.operands
            self.copy_loop(inner, [(self.array_of(op.results[j]), yielded[j]) for j in varying])
            inner.insert(scf.YieldOp(*(self.group_map[yielded[j]] for j in uniform)))
            regions.append(Region(block))
        types = [op.results[j].type for j in uniform]
        if cond is None:
            cond = self.group_map[op.cond]
        new = b.insert(scf.IfOp(cond, types, regions[0], regions[1]))
        for k, j in enumerate(uniform):
            self.group_map[op.results[j]] = new.results[k]


class BarrierPlacement(OpError):
    """A barrier where `Fission` cannot take it (the kernel goes to the resumable form)."""
