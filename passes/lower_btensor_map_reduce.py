"""`lower-btensor-map-reduce`: the GPU lowering of `btensor.map_reduce(_post)` (MimIR's
`gpu.lower_btensor_map_reduce`, reference §3.6).

Each op becomes, on the host:

    gpu.auto_init; gpu.buf_alloc_copy of every input and post input;
    gpu.alloc.block of the output (nested arrays of the output shape);
    gpu.launch of a new kernel, ceil(total / n_items) groups of n_items = min(total, 1024);
    buffer.alloc of a host buffer; gpu.buf_copy_to_host into it;
    gpu.free.block of every device pointer; gpu.auto_deinit

and the op's results become the final host token and the host buffer. The kernel
(`@map_reduce_kernel_<n>`, one per op) runs one work-item per output cell: `flat = group_id *
n_items + item_id`; if `flat < total` (checked only when `n_items` does not divide `total`: else
every work-item has a cell) it un-flattens `flat` row-major into the output coordinates, folds
the inlined combiner from `init` over the reduction extents with a sequential `scf.for`
nest (inputs loaded with `mem.lea` + `mem.load` at `maps(coordinates ++ reduction indices)` on
the global token), applies the inlined epilogue to the post inputs loaded at
`post_maps(coordinates)`, and stores the result at `out_map(coordinates)` of the output.

Departures from MimIR:
- MimIR checks `flat < total` in every kernel; here only where the last group has work-items
  past the output (on a CPU an always-true check costs masked vector loads and stores);
- post inputs are read at `post_maps(output coordinates)`, the op's meaning (docs/dialects.md) and what
  `btensor-lower-map-reduce` does; MimIR's GPU lowering reads them at
  `post_maps(out_map(coordinates))`, which differs only when `out_map` is not the identity;
- a kernel is a function of its own, so the `init` value and every value the regions use from
  outside must be computable there: constants and pure ops on constants are copied into the
  kernel; anything else keeps the op on the CPU path (with a warning, like MimIR's unknown
  combiner);
- an input or post input of run-time shape (`?`) keeps the op on the CPU path (with a warning):
  its device copy would need the run-time extent, which the buffer type does not carry;
- the output shape is a static property here, so MimIR's "no lowering-time known output shape"
  fallback cannot occur.

Views (an addition; MimIR has none). An input or post input that is a view (`buffer.subview`,
`transpose`, `broadcast`, `view`) is not packed on the host: transfers stay dense. The dense
buffer whose storage it views (`buffer.view_root`) is copied to the device as it is (once per op,
however many inputs view it), and the kernel reads it through the view's layout composed with
the input's map (`buffer.storage_map(view) ∘ map`): a transpose reads at swapped indices, a
broadcast at fewer, a strided slice at scaled ones. A strided buffer that is no view op's
result in sight (a function argument) keeps the op on the CPU path, with a warning; so does a
dynamic view (a `?` offset or extent in its type: the kernel's index maps are static).

Like MimIR, a program that contains an explicit `gpu.init` is left unchanged, with a warning
(only when it has map-reduce ops to lower); so is, with a warning, an op whose output is empty.
Those ops stay for `btensor-lower-map-reduce`.

Device-resident chaining (the later upstream's DeviceOnly / HostVisible calls, reference §3.7).
The ops of a block are lowered in order. When an op's output is an input (or post input) of
later ops of the same block that are lowered too (directly or through views made in the block,
which they then read on the device through their layouts), and no other use of it comes before them (a
use inside an op counts at that op), those consumers read the producer's device pointer: no copy
back, no upload. The producer's device output is freed after the last such consumer's launch.
The copy back to a host buffer stays only when the output has other uses (after the consumers).
While a device output is waiting for its consumers, the session stays open: the ops lowered in
between (and the consumers) join it instead of opening their own, and the last consumer closes
it. Sessions of ops that do not chain stay separate; `merge-init-deinit` merges those.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue, Use
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure, SymbolTable

from gpuir.dialects import buffer, gpu, mem
from gpuir.dialects.btensor import MapReduceBase, MapReduceOp, MapReducePostOp
from gpuir.dialects.buffer import BufType
from gpuir.dialects.gpu import KERNEL_TOKENS, buffer_array_type
from gpuir.dialects.mem import GLOBAL, PtrType
from gpuir.ir.builders import Constants, affine_values, for_nest
from gpuir.ir.diagnostics import OpWarning
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.btensor_lower_map_reduce import inline_region, read_each
from gpuir.passes.locations import locate

MAX_ITEMS = 1024
KERNEL_PREFIX = "map_reduce_kernel_"


def device_ptr_type(buf: BufType) -> PtrType:
    return PtrType(buffer_array_type(buf), GLOBAL)


def outside_values(region: Region) -> list[SSAValue]:
    """The values that ops in `region` use but that are defined outside it, in order."""
    found: dict[SSAValue, None] = {}
    for op in region.walk():
        for operand in op.operands:
            owner = operand.owner
            defining = owner if isinstance(owner, Block) else owner.parent_block()
            if defining is None or not region.is_ancestor(defining):
                found[operand] = None
    return list(found)


def pure_definition(value: SSAValue, found: dict[Operation, None]) -> bool:
    """Collect into `found` (operands first) the pure, region-free ops that compute `value`;
    False when something on the way is not one (a block argument, a load, …)."""
    if isinstance(value, BlockArgument):
        return False
    op = value.owner
    assert isinstance(op, Operation)
    if op in found:
        return True
    if op.regions or not op.has_trait(Pure):
        return False
    if not all(pure_definition(operand, found) for operand in op.operands):
        return False
    found[op] = None
    return True


def warn(op: Operation, message: str) -> None:
    """Warn at `op`, every time (Python would show one warning per text and line)."""
    with warnings.catch_warnings(action="always"):
        warnings.warn(OpWarning(op, message), stacklevel=2)


def skip(op: Operation, reason: str) -> None:
    warn(op, f"'{op.name}' {reason}, skipping GPU lowering")


def kernel_name(op: Operation) -> tuple[Operation, str]:
    """The module the kernel goes into and a name that is free there."""
    table = op.parent_op()
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    assert table is not None  # a ModuleOp at least
    n = 0
    while SymbolTable.lookup_symbol(table, f"{KERNEL_PREFIX}{n}") is not None:
        n += 1
    return table, f"{KERNEL_PREFIX}{n}"


def pointer_load(
    b: Builder, token: SSAValue, ptr: SSAValue, indices: list[SSAValue]
) -> tuple[SSAValue, SSAValue]:
    """`read_each`'s `Read` of a device pointer: `mem.lea` per index, then `mem.load` (on the
    global token)."""
    for index in indices:
        ptr = b.insert(mem.LeaOp(ptr, index)).res
    load = b.insert(mem.LoadOp(token, ptr))
    return load.res_mem, load.res


def storage(value: SSAValue) -> tuple[SSAValue, AffineMap | None]:
    """The dense buffer the kernel reads for the input `value`: the one a view views, with the
    map from the view's indices to its indices; `value` itself (None) when it is no view."""
    if not buffer.is_view(value):
        return value, None
    root = buffer.view_root(value)
    return root, buffer.storage_map(cast(BufType, value.type), cast(BufType, root.type))


def device_maps(values: Sequence[SSAValue], maps: ArrayAttr[AffineMapAttr]) -> list[AffineMap]:
    """The maps through which the kernel reads the device copies of `values`' storage."""
    found: list[AffineMap] = []
    for value, amap in zip(values, maps.data, strict=True):
        _, layout = storage(value)
        found.append(amap.data if layout is None else layout.compose(amap.data))
    return found


def build_kernel(
    op: MapReduceOp | MapReducePostOp,
    name: str,
    copied: Sequence[Operation],
    n_items: int,
) -> func.FuncOp:
    """The kernel: one work-item per output cell, a sequential reduction."""
    post_inputs = op.post_operands()
    out_type = cast(BufType, op.res.type)
    roots = [storage(b)[0] for b in (*op.inputs, *post_inputs)]
    arg_types = [device_ptr_type(cast(BufType, b.type)) for b in roots]
    in_maps = device_maps(op.inputs, op.maps)
    post_maps = device_maps(post_inputs, op.post_maps) if isinstance(op, MapReducePostOp) else []
    inputs = [*KERNEL_TOKENS, IndexType(), IndexType(), *arg_types, device_ptr_type(out_type)]
    kernel = func.FuncOp(name, (inputs, KERNEL_TOKENS))
    entry = kernel.body.block
    m1, m3, m4, m5, group_id, item_id, *ptrs, out_ptr = entry.args
    in_ptrs, post_ptrs = ptrs[: len(op.inputs)], ptrs[len(op.inputs) :]
    names = ["m1", "m3", "m4", "m5", "group_id", "item_id"]
    names += [f"in{i}" for i in range(len(in_ptrs))] + [f"post{i}" for i in range(len(post_ptrs))]
    for arg, arg_name in zip(entry.args, [*names, "out"], strict=True):
        arg.name_hint = arg_name
    b = Builder(InsertPoint.at_end(entry))
    const = Constants(b)
    outer: dict[SSAValue, SSAValue] = {}
    for original in copied:
        b.insert(original.clone(outer))
    init = outer.get(op.init, op.init)

    rank = op.out_rank.value.data
    out_shape, reduction_shape = op.loop_shape[:rank], op.loop_shape[rank:]
    total = 1
    for extent in out_shape:
        total *= extent
    first = b.insert(arith.MuliOp(group_id, const(n_items))).result
    flat = b.insert(arith.AddiOp(first, item_id)).result
    flat.name_hint = "flat"
    # The last group has work-items past the output when n_items does not divide total; when
    # it does, the check is always true and is left out (on a CPU it would cost masked vector
    # loads and stores).
    guarded = total % n_items != 0
    in_range = b.insert(arith.CmpiOp(flat, const(total), "ult")).result if guarded else None
    body = Block()
    t = Builder(InsertPoint.at_end(body))
    coords: list[SSAValue] = []
    stride = total
    for d, extent in enumerate(out_shape):  # row-major: coord_d = flat / stride_d % extent_d
        stride //= extent
        q = flat if stride == 1 else t.insert(arith.DivUIOp(flat, const(stride))).result
        coords.append(q if d == 0 else t.insert(arith.RemUIOp(q, const(extent))).result)

    def step(b: Builder, reduced: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        token, acc = args
        loop = [*coords, *reduced]
        token, elements = read_each(b, const, token, in_ptrs, in_maps, loop, pointer_load)
        return [token, inline_region(b, op.combiner, [acc, *elements], outer)]

    reduction_extents = [const(e) for e in reduction_shape]
    token, acc = for_nest(t, const, reduction_extents, [m1, init], step)
    if isinstance(op, MapReducePostOp):
        token, elements = read_each(t, const, token, post_ptrs, post_maps, coords, pointer_load)
        acc = inline_region(t, op.epilogue, [acc, *elements], outer)
    target = out_ptr
    for index in affine_values(t, const, op.out_map.data, coords):
        target = t.insert(mem.LeaOp(target, index)).res
    token = t.insert(mem.StoreOp(token, target, acc)).res_mem
    if in_range is not None:
        t.insert(scf.YieldOp(token))
        token = b.insert(scf.IfOp(in_range, [m1.type], Region(body), [scf.YieldOp(m1)])).results[0]
    else:
        for body_op in list(body.ops):
            body_op.detach()
            b.insert(body_op)
    b.insert(func.ReturnOp(token, m3, m4, m5))
    return kernel


def fallback_reason(op: MapReduceOp | MapReducePostOp) -> str | None:
    """Why `op` stays on the CPU path (the end of the warning), or None when it is lowered."""
    total = 1
    for extent in cast(BufType, op.res.type).get_shape():
        total *= extent
    if total == 0:
        return "has a zero-sized output"
    for value in (*op.inputs, *op.post_operands()):
        if cast(BufType, value.type).is_dynamic_view():
            return (
                f"reads the view {value.type}, whose layout is only known at run time (no "
                "kernel index map for it)"
            )
        root, _ = storage(value)
        root_type = cast(BufType, root.type)
        if not root_type.is_dense():
            return f"reads the view {root_type}, whose view op is not in sight"
        if DYNAMIC_INDEX in root_type.get_shape():
            return f"reads a buffer of run-time shape ({root_type})"
    if captured_definitions(op) is None:
        return (
            "doesn't have a lowering-time known combiner/epilogue (its init or regions use a "
            "value computed at run time)"
        )
    return None


def captured_definitions(op: MapReduceOp | MapReducePostOp) -> list[Operation] | None:
    """The pure ops that compute `init` and the values the regions use from outside, in
    order (the kernel copies them); None when one of those values is computed at run time."""
    copied: dict[Operation, None] = {}
    captured = [op.init, *(v for r in op.regions for v in outside_values(r))]
    if not all(pure_definition(value, copied) for value in captured):
        return None
    return list(copied)


def device_consumers(
    op: MapReduceOp | MapReducePostOp, lowered: set[Operation]
) -> tuple[list[Operation], bool]:
    """The ops that read `op`'s output on the device, and whether the host needs it too.

    The consumers are the lowered ops of `op`'s block that read the output as an input or post
    input, directly or through views made in the block (a view op is no use of its own), up to
    its first other use (a use inside an op counts at that op)."""
    block = op.parent_block()
    assert block is not None
    reads: list[Use] = []
    pending = list(op.res.uses)
    while pending:
        use = pending.pop()
        if isinstance(use.operation, buffer.ViewOp) and use.operation.parent_block() is block:
            pending.extend(use.operation.res.uses)
        else:
            reads.append(use)
    uses = [(block.find_ancestor_op_in_block(use.operation), use) for use in reads]
    uses.sort(key=lambda found: block.get_operation_index(cast(Operation, found[0])))
    consumers: dict[Operation, None] = {}
    for ancestor, use in uses:
        if use.operation is not ancestor or ancestor not in lowered:
            return list(consumers), True
        consumers[ancestor] = None
    return list(consumers), not consumers


def erase_views(value: SSAValue) -> None:
    """Erase the view ops of `value` (views of views first): their readers are lowered."""
    for use in list(value.uses):
        assert isinstance(use.operation, buffer.ViewOp)
        erase_views(use.operation.res)
        Rewriter.erase_op(use.operation)


@dataclass
class Resident:
    """A device output that consumers of the same block read: its pointer and the consumers
    that have not been lowered yet."""

    ptr: SSAValue
    waiting: set[Operation]


@dataclass
class BlockState:
    """The open compiler session of a block (its device tokens) and the resident outputs;
    outputs are keyed by the host value their consumers read."""

    session: tuple[SSAValue, SSAValue] | None = None
    resident: dict[SSAValue, Resident] = field(default_factory=dict[SSAValue, Resident])


def lower_op(
    op: MapReduceOp | MapReducePostOp,
    state: BlockState,
    consumers: list[Operation],
    host_visible: bool,
    sessions: Counter,
) -> bool:
    """Lower `op` in its block's session (opened here if none is open, counted in `sessions`);
    True when `op` stays, its output value read by its consumers only, to be erased after
    them."""
    copied = captured_definitions(op)
    assert copied is not None
    out_type = cast(BufType, op.res.type)
    buffers = [*op.inputs, *op.post_operands()]
    total = 1
    for extent in out_type.get_shape():
        total *= extent
    n_items = min(total, MAX_ITEMS)
    n_groups = -(-total // n_items)
    module, name = kernel_name(op)
    kernel = build_kernel(op, name, copied, n_items)
    locate([kernel], op.location)  # the kernel and what it made are at the op
    anchor: Operation = op
    while anchor.parent_op() is not module:
        anchor = cast(Operation, anchor.parent_op())
    Rewriter.insert_op(kernel, InsertPoint.before(anchor))

    made: list[Operation] = []
    b = Builder(InsertPoint.before(op))
    b.operation_insertion_handler.append(made.append)
    const = Constants(b)
    if state.session is None:
        session = b.insert(gpu.AutoInitOp(op.mem))
        m0, m1, m4 = session.res_m0, session.res_m1, session.res_m4
        sessions.add()
    else:
        m0, (m1, m4) = op.mem, state.session
    ptrs: list[SSAValue] = []
    uploaded: dict[SSAValue, SSAValue] = {}  # host buffer -> its device copy, one per buffer
    for value in buffers:
        root, _ = storage(value)  # a view: the storage it views, as it is
        if root in state.resident:
            ptrs.append(state.resident[root].ptr)
            continue
        if root not in uploaded:
            copy = b.insert(gpu.BufAllocCopyOp(m0, m1, root))
            m0, m1 = copy.res_m0, copy.res_m1
            uploaded[root] = copy.res
            if root.name_hint:  # %a on the host, %a_dev on the device
                copy.res.name_hint = f"{root.name_hint}_dev"
        ptrs.append(uploaded[root])
    out = b.insert(gpu.AllocBlockOp(m1, device_ptr_type(out_type)))
    if op.res.name_hint:
        out.res.name_hint = f"{op.res.name_hint}_dev"
    stream = b.insert(gpu.DefaultStreamOp()).res
    grid = const(n_groups), const(n_items)
    launch = b.insert(gpu.LaunchOp(name, *grid, stream, [m0, out.res_mem, m4], [*ptrs, out.res]))
    m0, m1, m4 = launch.res_m0, launch.res_m1, launch.res_m4
    host: SSAValue | None = None
    if host_visible:
        alloc = b.insert(buffer.AllocOp(m0, out_type))
        back = b.insert(gpu.BufCopyToHostOp(alloc.res_mem, m1, out.res, alloc.res))
        m0, m1, host = back.res_m0, back.res_m1, alloc.res

    freed: set[SSAValue] = set()
    for value, ptr in zip(buffers, ptrs, strict=True):
        if ptr in freed:  # an input read twice
            continue
        if ptr in uploaded.values():
            m1 = b.insert(gpu.FreeBlockOp(m1, ptr)).res_mem
            freed.add(ptr)
            continue
        root, _ = storage(value)
        resident = state.resident[root]
        resident.waiting.discard(op)
        if not resident.waiting:  # after its last consumer's launch
            m1 = b.insert(gpu.FreeBlockOp(m1, ptr)).res_mem
            freed.add(ptr)
            del state.resident[root]
    if consumers:
        key = host if host is not None else op.res
        state.resident[key] = Resident(out.res, set(consumers))
    else:
        m1 = b.insert(gpu.FreeBlockOp(m1, out.res)).res_mem
    if state.resident:
        state.session = (m1, m4)
    else:
        m0 = b.insert(gpu.AutoDeinitOp(m0, m1, m4)).res_m0
        state.session = None

    locate(made, op.location)  # the host code that launches the kernel too
    op.res_mem.replace_all_uses_with(m0)
    if host is None:
        return True
    op.res.replace_all_uses_with(host)
    Rewriter.erase_op(op)
    return False


@dataclass(frozen=True)
class LowerBTensorMapReducePass(ModulePass):
    """Lower each `btensor.map_reduce(_post)` to a GPU kernel of its own and the host code that
    launches it (copies in, launch, copy back), keeping outputs on the device for the ops of
    the block that read them; ops it cannot lower stay for `btensor-lower-map-reduce`."""

    name = "lower-btensor-map-reduce"

    outlined = Statistic("num-kernels-outlined", "Number of map-reduces outlined into kernels")
    left = Statistic("num-left-on-cpu", "Number of map-reduces left to the CPU path")
    resident = Statistic(
        "num-outputs-kept-on-device", "Number of outputs that later kernels read on the device"
    )
    sessions = Statistic("num-sessions-opened", "Number of device sessions opened")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, MapReduceBase) for o in op.walk()):
            return
        ops = [o for o in op.walk() if isinstance(o, MapReduceOp | MapReducePostOp)]
        explicit = next((o for o in op.walk() if isinstance(o, gpu.InitOp)), None)
        if explicit is not None:
            message = (
                "not lowering any map-reduce operations to GPU: the program already contains "
                "an explicit `gpu.init`"
            )
            warn(explicit, message)
            self.left.add(len(ops))
            return
        lowered: set[Operation] = set()
        for o in ops:
            reason = fallback_reason(o)
            if reason is None:
                lowered.add(o)
            else:
                skip(o, reason)
                self.left.add()
        states: dict[Block | None, BlockState] = {}
        kept: list[Operation] = []
        for o in ops:
            if o not in lowered:
                continue
            consumers, host_visible = device_consumers(o, lowered)
            state = states.setdefault(o.parent_block(), BlockState())
            if lower_op(o, state, consumers, host_visible, self.sessions):
                kept.append(o)
            self.outlined.add()  # lower_op builds one kernel per op
            if consumers:
                self.resident.add()
        assert all(s.session is None for s in states.values())
        for o in reversed(kept):  # their consumers are lowered: nothing reads them now
            erase_views(o.results[1])
            Rewriter.erase_op(o)
