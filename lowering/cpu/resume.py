"""Kernels with barriers in any control flow, in *resumable form*, for the `cpu` provider.

`Fission` (`gpuir.lowering.cpu.workgroup_loops`) runs the work-items of a group as loops between
barriers that sit in the entry block or in `scf.for` / `scf.if` with uniform bounds. A kernel
whose barriers are elsewhere — in `cf` blocks (a loop written with branches, an early return
between barriers), under a condition that depends on the work-item (which every item may still
take), in `scf.while` — comes here instead. Each barrier becomes a *resume point*:

    func.func @k.resume(M1, M3, M4, M5, %group_id, %item_id, [smem], args…,
                        %shared, %frame, %collective, %state: i32) -> (M1, M3, M4, M5, i32)

runs one work-item from resume point `state` (0: the start) to its next barrier, and returns
that barrier's number (1, 2, …), or 0 when the item returned from the kernel. Its entry block is
a `cf.switch` on `state`: to the kernel's entry, or to the block that starts after barrier `b`
(each barrier ends its block: `func.return …, b`). What an item must keep across a barrier lives
in its *frame* (`n_items` frames of `gpu.frame_bytes` bytes, in the work-group function's local
memory): every value that is live at a resume point is stored there where it is made and loaded
where it is used (constants are made again instead), and each `mem.slot` / `mem.mslot` in space 5
is a place in the frame. Memory tokens are not data: each becomes the function's own.

The work-group function runs the group in *phases*: every item, from where it stopped, to its
next stop; then all must have stopped at the same place. Their stops are kept in the group's
shared memory (one `i32` per item, at `gpu.resume_state`), and a group whose items stopped at
different barriers, or some at a barrier and some at the end of the kernel, calls
`__gpuir_barrier_divergence(group, barriers passed)`, which does not return
(`gpuir.runtime.cpu.faults`): the runtime reads the stops and reports `barrier divergence` in
`interp`'s words, with the barriers of `gpu.resume_barriers` (per barrier its op's name and
location). A group ends when every item has returned.

`gpu.workgroup_reduce` and `gpu.workgroup_scan` are resume points too: each item stores its
value in the group's collective area (`%collective`) before it stops; the work-group function
reduces (with `Helpers`' fixed tree) or scans (a left fold) there between the phases, and each
item loads its result where it resumes: bit-identical to `Fission` and `interp`.

Items run one after another, so this form does not vectorize across items; kernels whose
barriers `Fission` can take keep its faster form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntElementsAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    StringAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS, WARP_OPS
from gpuir.dialects.mem import LOCAL, MemType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.cpu.blocks import describe, liveness, to_blocks, top_level
from gpuir.lowering.cpu.workgroups import (
    BARRIERS,
    ITEM_ID,
    LOCAL_BYTES,
    LOCAL_RUNTIME_SIZE,
    NOT_HERE,
    SHARED_BYTES,
    SHARED_BYTES_ATTR,
    SLOT_ALIGN,
    Helpers,
    RuntimeSlot,
    align_up,
    array_place,
    group_inputs,
    has_runtime_size,
    index_constant,
    items_array,
    local_slots,
    lower_shared_slots,
    new_workgroup_function,
    place,
    redzone,
    replace_slot,
    replace_slot_by_part,
    runtime_slot,
    slot_bytes,
    slot_stride,
    takes_smem,
)
from gpuir.lowering.llvm.conversion import KERNEL_ATTR, size_and_align
from gpuir.lowering.llvm.rules import combine, shuffle_source

MAX_ITEMS = 1024
"""The most work-items of a group (CUDA's): the length of the stops and collective arrays."""
STATE_ATTR = "gpu.resume_state"
"""The byte offset, in a group's static shared memory, of its items' stops (`i32` each)."""
BARRIERS_ATTR = "gpu.resume_barriers"
"""Per resume point (barrier `b` at index `b - 1`): `[name, file, line, column]` of its op."""
FRAME_ATTR = "gpu.frame_bytes"
"""The bytes of one work-item's frame."""
DIVERGENCE = "__gpuir_barrier_divergence"
"""`void (i64 group, i64 passed)`: the group's items stopped at different places."""
RESUMED = "resume"


@dataclass(frozen=True)
class Layout:
    """The collective area of a kernel, sized to what it uses: the items' values (at 0, `slot`
    bytes each: its widest collective or warp value); for a group's collectives, the tree's
    scratch and the reduction's result; for the warp operations each item's result, offset (or
    ballot predicate), width and valid flag, and which items run in the next phase (`i32`
    each). `bytes` is 0 where the kernel has neither."""

    slot: int = 4
    scratch: int = 0
    result: int = 0
    warp_results: int = 0
    offsets: int = 0
    widths: int = 0
    valids: int = 0
    runs: int = 0
    bytes: int = 0

    @classmethod
    def of(cls, kernel: func.FuncOp) -> Layout:
        group = [
            o for o in kernel.walk() if isinstance(o, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp)
        ]
        warps = [o for o in kernel.walk() if isinstance(o, WARP_OPS)]
        if not group and not warps:
            return cls()
        valued = [o for o in (*group, *warps) if not isinstance(o, gpu.BallotOp)]
        slot = max([4, *(size_and_align(o.value.type, o)[0] for o in valued)])  # type: ignore[attr-defined]
        end = MAX_ITEMS * slot
        scratch = result = 0
        if group:
            scratch, result = end, end + MAX_ITEMS * slot
            end = result + 64
        if not warps:
            return cls(slot, scratch, result, bytes=end)
        offsets = end + MAX_ITEMS * slot
        widths, valids, runs = (offsets + k * 4 * MAX_ITEMS for k in (1, 2, 3))
        return cls(slot, scratch, result, end, offsets, widths, valids, runs, runs + 4 * MAX_ITEMS)


def resumable(kernel: func.FuncOp, helpers: Helpers) -> func.FuncOp:
    """Rewrite `kernel` (a kernel of a device module, its composites expanded) into
    `@k.resume` in place; the work-group function that drives it, to put in its place."""
    return Resumable(kernel, helpers).run()


@dataclass(frozen=True)
class Point:
    """A resume point: its op's description, and for a collective what it computes."""

    description: ArrayAttr
    collective: str | None = None
    kind: str = ""
    type: Attribute | None = None
    warp: str | None = None
    """`shuffle` or `ballot`: a point where the lanes of a warp (not the group) meet; `kind`
    is the shuffle's mode."""

    @classmethod
    def of(cls, op: Operation) -> Point:
        if isinstance(op, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp):
            which = "reduce" if isinstance(op, gpu.WorkgroupReduceOp) else "scan"
            return cls(describe(op), which, op.kind.data, op.value.type)
        if isinstance(op, gpu.ShuffleOp):
            return cls(describe(op), None, op.mode.data, op.value.type, "shuffle")
        if isinstance(op, gpu.BallotOp):
            return cls(describe(op), None, "", i32, "ballot")
        return cls(describe(op))


@dataclass(frozen=True)
class Phase:
    """The values of the work-group function that a phase's checks use: the items' stops,
    the collective area, the ids, the barriers passed so far and the tokens."""

    stops: SSAValue
    collective: SSAValue
    group_id: SSAValue
    n_items: SSAValue
    passed: SSAValue
    m3: SSAValue
    m5: SSAValue

    def values(self) -> tuple[SSAValue, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))


class Resumable:
    def __init__(self, kernel: func.FuncOp, helpers: Helpers):
        self.kernel = kernel
        self.helpers = helpers
        self.name = kernel.sym_name.data
        self.smem_taken = takes_smem(kernel)
        self.workgroup = new_workgroup_function(kernel, 0)
        self.inputs = list(kernel.function_type.inputs.data)
        self.points: list[Point] = []
        """The resume points' ops, barrier `b` at index `b - 1`."""
        self.resumes: list[Block] = []
        self.frame_bytes = 0
        self.layout = Layout.of(kernel)
        self.runtime_slots: list[RuntimeSlot] = []
        """The local slots of a run-time size, in the order of the item function's parameters."""

    def run(self) -> func.FuncOp:
        kernel = self.kernel
        entry = kernel.body.blocks[0]
        shared = entry.insert_arg(SHARED_BYTES, len(entry.args))
        shared_bytes = lower_shared_slots(kernel, shared)
        self.lower_control_flow()
        frame = entry.insert_arg(LOCAL_BYTES, len(entry.args))
        collective = entry.insert_arg(LOCAL_BYTES, len(entry.args))
        state = entry.insert_arg(i32, len(entry.args))
        for arg, hint in ((shared, "shared"), (frame, "frame"), (collective, "collective")):
            arg.name_hint = hint
        state.name_hint = "state"
        self.lower_local_slots(frame)
        dispatch = self.new_entry()
        self.args = dispatch.args
        self.tokens = {t: dispatch.args[i] for i, t in enumerate(KERNEL_TOKENS)}
        self.own_tokens()
        self.end_returns()
        self.split_at_barriers()
        self.keep_live_values()
        b = Builder(InsertPoint.at_end(dispatch))
        cases = DenseIntElementsAttr.from_list(
            VectorType(i32, (len(self.resumes),)), list(range(1, len(self.resumes) + 1))
        )
        b.insert(
            cf.SwitchOp(
                dispatch.args[-1],
                entry,
                [],
                cases,
                self.resumes,
                [[] for _ in self.resumes],
            )
        )
        outputs = [*KERNEL_TOKENS, i32]
        kernel.function_type = FunctionType.from_lists(dispatch.arg_types, outputs)
        kernel.sym_name = StringAttr(f"{self.name}.{RESUMED}")
        kernel.attributes.pop(KERNEL_ATTR, None)
        state_offset = align_up(shared_bytes, SLOT_ALIGN)
        self.build_workgroup(state_offset)
        return self.workgroup

    # -- the item function --

    def lower_control_flow(self) -> None:
        """Structured control flow → `cf` blocks, so that every barrier is an op of a block."""
        to_blocks(self.kernel)
        for op in self.kernel.walk():
            if isinstance(op, (*BARRIERS, *WARP_OPS)) and op.parent_op() is not self.kernel:
                parent = op.parent_op()
                assert parent is not None
                raise OpError(
                    op,
                    f"a barrier ('{op.name}') inside '{parent.name}' {NOT_HERE}: a barrier "
                    "must be in the kernel's blocks, or in scf.for / scf.if / scf.while / "
                    "scf.index_switch / scf.execute_region",
                )

    def lower_local_slots(self, frame: SSAValue) -> None:
        """Every slot in space 5 becomes a place in the item's frame; a `mem.mslot` of a
        run-time size, the item's part of an array the group makes (`RuntimeSlot`), passed to
        the item function before its state."""
        gap = redzone(self.kernel)
        entry = self.kernel.body.blocks[0]
        for op in local_slots(self.kernel):
            if has_runtime_size(op):
                assert isinstance(op, mem.MslotOp)
                self.runtime_slots.append(runtime_slot(op, self.kernel, gap))
                base = entry.insert_arg(LOCAL_BYTES, len(entry.args) - 1)
                base.name_hint = "slots"
                stride = slot_stride(Builder(InsertPoint.before(op)), op.size, gap)
                replace_slot_by_part(op, base, entry.args[ITEM_ID], stride)
                continue
            size, align = slot_bytes(op, LOCAL_RUNTIME_SIZE.format(name=op.name))
            replace_slot(op, frame, self.frame_place(size, align, gap))

    def frame_place(self, size: int, align: int, gap: int = 0) -> int:
        """A place of `size` bytes in the item's frame (`gap` bytes left unused after it)."""
        offset = align_up(self.frame_bytes, align)
        self.frame_bytes = offset + max(size, 1) + gap
        return offset

    def new_entry(self) -> Block:
        """A new entry block, which takes the kernel's arguments (the old one, a target of
        the dispatch, takes none)."""
        entry = self.kernel.body.blocks[0]
        dispatch = Block(arg_types=entry.arg_types)
        self.kernel.body.insert_block_before(dispatch, entry)
        for old, new in zip(entry.args, dispatch.args, strict=True):
            new.name_hint = old.name_hint
            old.replace_all_uses_with(new)
        for old in reversed(entry.args):
            entry.erase_arg(old)
        return dispatch

    def own_tokens(self) -> None:
        """Every memory token the function makes → its own token of that space."""
        for op in self.kernel.walk():
            values: Iterable[SSAValue] = op.results
            for region in op.regions:
                for block in region.blocks:
                    if block is not self.kernel.body.blocks[0]:
                        values = [*values, *block.args]
            for value in values:
                own = self.tokens.get(value.type)
                if isinstance(value.type, MemType) and own is not None and value is not own:
                    value.replace_all_uses_with(own)

    def end_returns(self) -> None:
        for op in list(self.kernel.walk()):
            if isinstance(op, func.ReturnOp) and op.parent_op() is self.kernel:
                b = Builder(InsertPoint.before(op))
                done = b.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
                Rewriter.replace_op(op, func.ReturnOp(*self.token_values(), done))

    def token_values(self) -> list[SSAValue]:
        return [self.tokens[t] for t in KERNEL_TOKENS]

    def split_at_barriers(self) -> None:
        """Each barrier ends its block with `return …, b`; what follows starts a resume block."""
        points = [
            op
            for block in self.kernel.body.blocks
            for op in block.ops
            if isinstance(op, (*BARRIERS, *WARP_OPS))
        ]
        item_id = self.args[5]
        m5 = self.tokens[MemType(LOCAL)]
        for number, op in enumerate(points, 1):
            block = op.parent_block()
            assert block is not None
            resume = block.split_before(op)
            b = Builder(InsertPoint.at_end(block))
            collective = isinstance(op, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp)
            if collective:
                values = self.collective_array(b, op.value.type, 0)  # type: ignore[attr-defined]
                b.insert(mem.StoreOp(m5, b.insert(mem.LeaOp(values, item_id)).res, op.value))  # type: ignore[attr-defined]
            if isinstance(op, WARP_OPS):
                self.warp_stop(b, op, item_id, m5)
            code = b.insert(arith.ConstantOp(IntegerAttr(number, i32))).result
            b.insert(func.ReturnOp(*self.token_values(), code))
            if isinstance(op, WARP_OPS):
                self.warp_resume(Builder(InsertPoint.before(op)), op, item_id, m5)
            if collective:
                rb = Builder(InsertPoint.before(op))
                if isinstance(op, gpu.WorkgroupReduceOp):
                    where = self.collective_array(rb, op.value.type, self.layout.result)
                    place = rb.insert(mem.LeaOp(where, index_constant(rb, 0))).res
                else:
                    values = self.collective_array(rb, op.value.type, 0)
                    place = rb.insert(mem.LeaOp(values, item_id)).res
                op.res.replace_all_uses_with(rb.insert(mem.LoadOp(m5, place)).res)  # type: ignore[attr-defined]
            for result in op.results:
                assert not result.uses, "tokens are the function's own"
            self.points.append(Point.of(op))
            Rewriter.erase_op(op)
            self.resumes.append(resume)

    def warp_stop(self, b: Builder, op: Operation, item: SSAValue, m5: SSAValue) -> None:
        """Before a warp operation's stop: the item's operands into the collective area."""
        if isinstance(op, gpu.ShuffleOp):
            layout = self.layout
            places = ((0, op.value), (layout.offsets, op.offset), (layout.widths, op.width))
        else:
            assert isinstance(op, gpu.BallotOp)
            places = ((self.layout.offsets, b.insert(arith.ExtUIOp(op.pred, i32)).result),)
        for offset, value in places:
            array = self.collective_array(b, value.type, offset)
            b.insert(mem.StoreOp(m5, b.insert(mem.LeaOp(array, item)).res, value))

    def warp_resume(self, b: Builder, op: Operation, item: SSAValue, m5: SSAValue) -> None:
        """Where the item resumes: its results, from the collective area."""

        def load(type_: Attribute, offset: int) -> SSAValue:
            array = self.collective_array(b, type_, offset)
            return b.insert(mem.LoadOp(m5, b.insert(mem.LeaOp(array, item)).res)).res

        if isinstance(op, gpu.ShuffleOp):
            op.res.replace_all_uses_with(load(op.value.type, self.layout.warp_results))
            valid = b.insert(arith.TruncIOp(load(i32, self.layout.valids), i1)).result
            op.valid.replace_all_uses_with(valid)
        else:
            assert isinstance(op, gpu.BallotOp)
            op.mask.replace_all_uses_with(load(i32, self.layout.warp_results))

    def collective_array(self, b: Builder, type_: Attribute, offset: int) -> SSAValue:
        """`!mem.ptr<!mem.array<? x T>, 5>` at `offset` in the item function's collective
        area."""
        return array_place(b, self.args[len(self.inputs) + 2], offset, type_)

    def keep_live_values(self) -> None:
        """Every value live at a resume point: stored in the frame where it is made, loaded
        where it is used (a constant is made again at each use)."""
        live: list[SSAValue] = []
        live_in = liveness(list(self.kernel.body.blocks))
        arguments = set(self.args)
        # program order, not the sets' (which follow addresses): the same IR on every run
        order = {op: i for i, op in enumerate(self.kernel.walk())}
        position: dict[SSAValue, tuple[int, int]] = {}
        for block in self.kernel.body.blocks:
            first = order[block.first_op] if block.first_op is not None else len(order)
            position.update({arg: (first, -1 - arg.index) for arg in block.args})
        for op, i in order.items():
            position.update({result: (i, result.index) for result in op.results})

        def in_order(uses: Iterable[Use]) -> list[Use]:
            return sorted(uses, key=lambda u: (order.get(u.operation, len(order)), u.index))

        for resume in self.resumes:
            for value in sorted(live_in[resume], key=position.__getitem__):
                if value not in arguments and value not in live:
                    live.append(value)
        frame = self.args[len(self.inputs) + 1]
        m5 = self.tokens[MemType(LOCAL)]
        for value in live:
            owner = value.owner
            if isinstance(owner, arith.ConstantOp):
                for use in in_order(value.uses):
                    copy = owner.clone()
                    Rewriter.insert_op(copy, InsertPoint.before(top_level(use.operation)))
                    use.operation.operands[use.index] = copy.result
                continue
            size, align = size_and_align(
                value.type, owner if isinstance(owner, Operation) else self.kernel
            )
            offset = self.frame_place(size, align)
            typed = PtrType(value.type, LOCAL)

            def at(b: Builder, offset: int = offset, typed: PtrType = typed) -> SSAValue:
                return place(b, frame, offset, typed)

            uses = in_order(value.uses)
            if isinstance(owner, Operation):
                where = InsertPoint.after(owner)
            else:
                where = InsertPoint.at_start(owner)  # type: ignore[arg-type]
            b = Builder(where)
            b.insert(mem.StoreOp(m5, at(b), value))
            for use in uses:
                b = Builder(InsertPoint.before(top_level(use.operation)))
                use.operation.operands[use.index] = b.insert(mem.LoadOp(m5, at(b))).res

    # -- the work-group function --

    def build_workgroup(self, state_offset: int) -> None:
        """The phases (module docstring)."""
        function = self.workgroup
        frame_bytes = align_up(max(self.frame_bytes, 1), SLOT_ALIGN)
        function.attributes[SHARED_BYTES_ATTR] = IntegerAttr(state_offset + 4 * MAX_ITEMS, 64)
        function.attributes[STATE_ATTR] = IntegerAttr(state_offset, 64)
        function.attributes[FRAME_ATTR] = IntegerAttr(frame_bytes, 64)
        function.attributes[BARRIERS_ATTR] = ArrayAttr([p.description for p in self.points])
        self.declare_divergence()
        args = function.body.blocks[0].args
        m1, m3, m4, m5, group_id, n_items, shared, smem = args[:8]
        b = Builder(InsertPoint.at_end(function.body.blocks[0]))
        zero, one = index_constant(b, 0), index_constant(b, 1)
        stride = index_constant(b, frame_bytes)
        frames_size = b.insert(arith.MuliOp(n_items, stride)).result
        frames = b.insert(mem.MslotOp(m5, frames_size, LOCAL_BYTES)).res
        has_warps = any(p.warp for p in self.points)
        has_collectives = has_warps or any(p.collective for p in self.points)
        if has_collectives:
            assert self.layout.bytes > 0, "the layout knows every collective point"
            size = index_constant(b, self.layout.bytes)
            collective = b.insert(mem.MslotOp(m5, size, LOCAL_BYTES)).res
        else:
            collective = frames
        stops = array_place(b, shared, state_offset, i32)
        slots = []
        for slot in self.runtime_slots:
            step = slot.stride_at(b, group_inputs(self.inputs, args))
            slots.append(items_array(b, m5, n_items, step))

        def stop(b: Builder, item: SSAValue) -> SSAValue:
            return b.insert(mem.LeaOp(stops, item)).res

        def for_items(b: Builder, start: SSAValue, body) -> None:  # noqa: ANN001
            block = Block(arg_types=[IndexType()])
            ib = Builder(InsertPoint.at_end(block))
            body(ib, block.args[0])
            ib.insert(scf.YieldOp())
            b.insert(scf.ForOp(start, n_items, one, [], block))

        runs = array_place(b, collective, self.layout.runs, i32) if has_warps else None

        def set_runs(ib: Builder, item: SSAValue, value: int = 1) -> None:
            assert runs is not None
            flag = ib.insert(arith.ConstantOp(IntegerAttr(value, i32))).result
            ib.insert(mem.StoreOp(m5, ib.insert(mem.LeaOp(runs, item)).res, flag))

        def clear(ib: Builder, item: SSAValue) -> None:
            ib.insert(
                mem.StoreOp(
                    m3, stop(ib, item), ib.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
                )
            )
            if runs is not None:
                set_runs(ib, item)

        for_items(b, zero, clear)
        before = Block(arg_types=[IndexType()])
        passed = before.args[0]
        wb = Builder(InsertPoint.at_end(before))
        call_args = [m1, m3, m4, m5, group_id]
        rest = [*([smem] if self.smem_taken else []), *args[8:], shared]

        def step(ib: Builder, item: SSAValue) -> None:
            if runs is not None:  # only the items whose warp or group was released
                flag = ib.insert(mem.LoadOp(m5, ib.insert(mem.LeaOp(runs, item)).res)).res
                zero32 = ib.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
                go = ib.insert(arith.CmpiOp(flag, zero32, "ne")).result
                body = Block()
                gb = Builder(InsertPoint.at_end(body))
                run_item(gb, item)
                set_runs(gb, item, 0)
                gb.insert(scf.YieldOp())
                ib.insert(scf.IfOp(go, [], Region(body)))
                return
            run_item(ib, item)

        def run_item(ib: Builder, item: SSAValue) -> None:
            at = stop(ib, item)
            state = ib.insert(mem.LoadOp(m3, at)).res
            offset = ib.insert(arith.MuliOp(item, stride)).result
            frame = place(ib, frames, offset, LOCAL_BYTES)
            call = ib.insert(
                func.CallOp(
                    f"{self.name}.{RESUMED}",
                    [*call_args, item, *rest, frame, collective, *slots, state],
                    [*KERNEL_TOKENS, i32],
                )
            )
            ib.insert(mem.StoreOp(m3, at, call.res[-1]))

        for_items(wb, zero, step)
        if runs is not None:
            phase = Phase(stops, collective, group_id, n_items, passed, m3, m5)
            pending = self.warp_step(wb, phase)
            group_block = Block()
            gb = Builder(InsertPoint.at_end(group_block))
            more, following = self.group_step(gb, phase)
            for_items(gb, zero, set_runs)
            gb.insert(scf.YieldOp(more, following))
            warp_block = Block()
            true = Builder(InsertPoint.at_end(warp_block)).insert(
                arith.ConstantOp(IntegerAttr(1, i1))
            )
            Builder(InsertPoint.at_end(warp_block)).insert(scf.YieldOp(true.result, passed))
            choice = wb.insert(
                scf.IfOp(pending, [i1, IndexType()], Region(warp_block), Region(group_block))
            )
            wb.insert(scf.ConditionOp(choice.results[0], choice.results[1]))
        else:
            phase = Phase(stops, collective, group_id, n_items, passed, m3, m5)
            more, following = self.group_step(wb, phase)
            wb.insert(scf.ConditionOp(more, following))
        after = Block(arg_types=[IndexType()])
        Builder(InsertPoint.at_end(after)).insert(scf.YieldOp(after.args[0]))
        b.insert(scf.WhileOp([zero], [IndexType()], Region(before), Region(after)))
        b.insert(func.ReturnOp(m1, m3, m4, m5))

    def report(self, b: Builder, group_id: SSAValue, passed: SSAValue) -> None:
        group64 = b.insert(arith.IndexCastOp(group_id, i64)).result
        passed64 = b.insert(arith.IndexCastOp(passed, i64)).result
        b.insert(func.CallOp(DIVERGENCE, [group64, passed64], []))

    def group_step(self, wb: Builder, phase: Phase) -> tuple[SSAValue, SSAValue]:
        """Every item stopped at a barrier of the group or returned: all at the same place
        (else divergence); a collective's step; whether to go on, and the barriers passed."""
        stops, collective, group_id, n_items, passed, m3, m5 = phase.values()
        zero, one = index_constant(wb, 0), index_constant(wb, 1)

        def stop(b: Builder, item: SSAValue) -> SSAValue:
            return b.insert(mem.LeaOp(stops, item)).res

        first = wb.insert(mem.LoadOp(m3, stop(wb, zero))).res
        differ = Block(arg_types=[IndexType(), i1])
        db = Builder(InsertPoint.at_end(differ))
        other = db.insert(mem.LoadOp(m3, stop(db, differ.args[0]))).res
        unequal = db.insert(arith.CmpiOp(other, first, "ne")).result
        db.insert(scf.YieldOp(db.insert(arith.OrIOp(differ.args[1], unequal)).result))
        false = wb.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
        diverged = wb.insert(scf.ForOp(one, n_items, one, [false], differ)).results[0]
        report = Block()
        rb = Builder(InsertPoint.at_end(report))
        self.report(rb, group_id, passed)
        rb.insert(scf.YieldOp())
        wb.insert(scf.IfOp(diverged, [], Region(report)))
        for number, point in enumerate(self.points, 1):
            if point.collective:
                self.collective_step(wb, point, number, first, collective, n_items, m5)
        ended = wb.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
        more = wb.insert(arith.CmpiOp(first, ended, "ne")).result
        following = wb.insert(arith.AddiOp(passed, one)).result
        return more, following

    def warp_step(self, b: Builder, phase: Phase) -> SSAValue:
        """Each warp with a lane stopped at a warp operation: all its lanes there (else
        divergence), the operation's results, its lanes to run on. Whether any warp was."""
        stops, collective, group_id, n_items, passed, m3, m5 = phase.values()
        one, warp = index_constant(b, 1), index_constant(b, gpu.WARP)
        last = b.insert(arith.AddiOp(n_items, index_constant(b, gpu.WARP - 1))).result
        n_warps = b.insert(arith.DivUIOp(last, warp)).result
        codes = [(n, p) for n, p in enumerate(self.points, 1) if p.warp]
        loop = Block(arg_types=[IndexType(), i1])
        lb = Builder(InsertPoint.at_end(loop))
        lo = lb.insert(arith.MuliOp(loop.args[0], warp)).result
        hi = lb.insert(arith.MinUIOp(lb.insert(arith.AddiOp(lo, warp)).result, n_items)).result

        def lanes(builder: Builder, carried: list[SSAValue], body) -> list[SSAValue]:  # noqa: ANN001
            block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
            inner = Builder(InsertPoint.at_end(block))
            inner.insert(scf.YieldOp(*body(inner, block.args[0], list(block.args[1:]))))
            return list(builder.insert(scf.ForOp(lo, hi, one, carried, block)).results)

        def state_of(builder: Builder, lane: SSAValue) -> SSAValue:
            return builder.insert(mem.LoadOp(m3, builder.insert(mem.LeaOp(stops, lane)).res)).res

        def constant32(builder: Builder, value: int) -> SSAValue:
            return builder.insert(arith.ConstantOp(IntegerAttr(value, i32))).result

        def find(inner: Builder, lane: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            state = state_of(inner, lane)
            at_warp_op = inner.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
            for number, _ in codes:
                here = inner.insert(arith.CmpiOp(state, constant32(inner, number), "eq")).result
                at_warp_op = inner.insert(arith.OrIOp(at_warp_op, here)).result
            none = inner.insert(arith.CmpiOp(carried[0], constant32(inner, -1), "eq")).result
            take = inner.insert(arith.AndIOp(at_warp_op, none)).result
            return [inner.insert(arith.SelectOp(take, state, carried[0])).result]

        (found,) = lanes(lb, [constant32(lb, -1)], find)
        at = lb.insert(arith.CmpiOp(found, constant32(lb, -1), "ne")).result
        then = Block()
        tb = Builder(InsertPoint.at_end(then))

        def differs(inner: Builder, lane: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            unequal = inner.insert(arith.CmpiOp(state_of(inner, lane), found, "ne")).result
            return [inner.insert(arith.OrIOp(carried[0], unequal)).result]

        false = tb.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
        (diverged,) = lanes(tb, [false], differs)
        report = Block()
        rb = Builder(InsertPoint.at_end(report))
        self.report(rb, group_id, passed)
        rb.insert(scf.YieldOp())
        tb.insert(scf.IfOp(diverged, [], Region(report)))
        for number, point in codes:
            here = tb.insert(arith.CmpiOp(found, constant32(tb, number), "eq")).result
            exchange = Block()
            eb = Builder(InsertPoint.at_end(exchange))
            self.warp_exchange(eb, point, lo, hi, collective, m5, lanes)
            eb.insert(scf.YieldOp())
            tb.insert(scf.IfOp(here, [], Region(exchange)))
        runs = array_place(tb, collective, self.layout.runs, i32)

        def release(inner: Builder, lane: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            inner.insert(
                mem.StoreOp(m5, inner.insert(mem.LeaOp(runs, lane)).res, constant32(inner, 1))
            )
            return []

        lanes(tb, [], release)
        tb.insert(scf.YieldOp())
        lb.insert(scf.IfOp(at, [], Region(then)))
        lb.insert(scf.YieldOp(lb.insert(arith.OrIOp(loop.args[1], at)).result))
        start = b.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
        zero = index_constant(b, 0)
        return b.insert(scf.ForOp(zero, n_warps, one, [start], loop)).results[0]

    def warp_exchange(
        self,
        b: Builder,
        point: Point,
        lo: SSAValue,
        hi: SSAValue,
        collective: SSAValue,
        m5: SSAValue,
        lanes,  # noqa: ANN001
    ) -> None:
        """The results of the warp operation `point` for the lanes `[lo, hi)` of a warp."""
        type_ = point.type
        assert type_ is not None

        def load(inner: Builder, array: SSAValue, at: SSAValue) -> SSAValue:
            return inner.insert(mem.LoadOp(m5, inner.insert(mem.LeaOp(array, at)).res)).res

        def store(inner: Builder, array: SSAValue, at: SSAValue, value: SSAValue) -> None:
            inner.insert(mem.StoreOp(m5, inner.insert(mem.LeaOp(array, at)).res, value))

        offsets = array_place(b, collective, self.layout.offsets, i32)
        results = array_place(b, collective, self.layout.warp_results, type_)
        if point.warp == "ballot":

            def vote(inner: Builder, item: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                lane = inner.insert(arith.SubiOp(item, lo)).result
                shift = inner.insert(arith.IndexCastOp(lane, i32)).result
                bit = inner.insert(arith.ShLIOp(load(inner, offsets, item), shift)).result
                return [inner.insert(arith.OrIOp(carried[0], bit)).result]

            zero32 = b.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
            (mask,) = lanes(b, [zero32], vote)

            def give(inner: Builder, item: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                store(inner, results, item, mask)
                return []

            lanes(b, [], give)
            return
        values = array_place(b, collective, 0, type_)
        widths = array_place(b, collective, self.layout.widths, i32)
        valids = array_place(b, collective, self.layout.valids, i32)
        count = b.insert(arith.SubiOp(hi, lo)).result

        def shuffle(inner: Builder, item: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            lane = inner.insert(arith.SubiOp(item, lo)).result
            offset = inner.insert(arith.IndexCastOp(load(inner, offsets, item), IndexType())).result
            width = inner.insert(arith.IndexCastOp(load(inner, widths, item), IndexType())).result
            one, warp = index_constant(inner, 1), index_constant(inner, gpu.WARP)
            read, valid = shuffle_source(inner, point.kind, lane, offset, width, count, one, warp)
            value = load(inner, values, inner.insert(arith.AddiOp(lo, read)).result)
            store(inner, results, item, value)
            store(inner, valids, item, inner.insert(arith.ExtUIOp(valid, i32)).result)
            return []

        lanes(b, [], shuffle)

    def collective_step(
        self,
        b: Builder,
        point: Point,
        number: int,
        first: SSAValue,
        collective: SSAValue,
        n_items: SSAValue,
        m5: SSAValue,
    ) -> None:
        """Between the phases, when the group stopped at collective `number`: the reduction
        into the result's place, or the scan in place."""
        kind, type_ = point.kind, point.type
        code = b.insert(arith.ConstantOp(IntegerAttr(number, i32))).result
        here = b.insert(arith.CmpiOp(first, code, "eq")).result
        body = Block()
        cb = Builder(InsertPoint.at_end(body))

        def array(offset: int) -> SSAValue:
            return array_place(cb, collective, offset, type_)

        values = array(0)
        zero, one = index_constant(cb, 0), index_constant(cb, 1)
        if point.collective == "reduce":
            scratch = array(self.layout.scratch)
            helper = self.helpers.reduce(kind, type_)
            total = cb.insert(func.CallOp(helper, [m5, values, zero, n_items, scratch], [type_]))
            result = array(self.layout.result)
            cb.insert(mem.StoreOp(m5, cb.insert(mem.LeaOp(result, zero)).res, total.res[0]))
        else:
            start = cb.insert(mem.LoadOp(m5, cb.insert(mem.LeaOp(values, zero)).res)).res
            loop = Block(arg_types=[IndexType(), type_])
            lb = Builder(InsertPoint.at_end(loop))
            at = lb.insert(mem.LeaOp(values, loop.args[0])).res
            folded = combine(lb, kind, loop.args[1], lb.insert(mem.LoadOp(m5, at)).res)
            lb.insert(mem.StoreOp(m5, at, folded))
            lb.insert(scf.YieldOp(folded))
            cb.insert(scf.ForOp(one, n_items, one, [start], loop))
        cb.insert(scf.YieldOp())
        b.insert(scf.IfOp(here, [], Region(body)))

    def declare_divergence(self) -> None:
        module = self.helpers.module
        found = SymbolTable.lookup_symbol(module, DIVERGENCE)
        if found is None:
            declaration = func.FuncOp.external(DIVERGENCE, [i64, i64], [])
            module.body.block.add_op(declaration)
        elif not isinstance(found, func.FuncOp) or not found.is_declaration:
            raise OpError(found, f"the cpu provider needs the symbol @{DIVERGENCE}")
