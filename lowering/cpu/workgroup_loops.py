"""`cpu-workgroup-loops`: every kernel of a device module becomes a work-group function whose
work-items run as loops (classic work-item loop fission, as pocl does), for the `cpu` provider.

A kernel `@k(M1, M3, M4, M5, group_id, item_id, [smem], args…) -> (M1, M3, M4, M5)` becomes

    func.func @k(M1, M3, M4, M5, %group_id: index, %n_items: index,
                 %shared: !mem.ptr<!mem.array<? x i8>, 3>, %smem: !mem.ptr<MT, 3>, args…)
        -> (M1, M3, M4, M5) attributes {gpu.workgroup, gpu.shared_bytes = S : i64}

which runs the `n_items` work-items of work-group `group_id` one after another. `shared` is the
group's static shared memory (`S` bytes, 16-aligned): every `mem.slot` / `mem.mslot` in space 3
of the kernel is a constant offset into it (`mem.lea` + `builtin.unrealized_conversion_cast`).
`smem` is the group's dynamic shared memory (a kernel without one gets an unused
`!mem.ptr<!mem.array<? x i8>, 3>`). The function no longer has the `gpu.kernel` attribute.

A kernel is cut into *segments* at its barriers (`gpu.sync_work_items`, `gpu.synced_scope`, the
collectives): each barrier-free run of ops becomes an `scf.for` over the item ids, and the
barriers vanish between them (the loops run one after another). The barriers of a kernel must be
in its entry block, each at its top level or inside `scf.for` / `scf.if` whose bounds /
condition are *uniform* (the same for the whole group): such a loop or branch runs once per
group, with the item loops inside it. A kernel with `cf` blocks after its last barrier (`barrier;
if (i >= n) return; …`, MimIR's scope-sync kernel) has that tail outlined first
(`outline_cf_tail`): the entry block's ops after the last barrier and every other block become
a device function `@k.tail`, called per work-item in the last segment. Values:

- *uniform* values (constants, `group_id`, the arguments, shared pointers, `gpu.workgroup_reduce`
  results and pure ops (`arith`, `math`, `mem.lea`, pure `scf`) of uniform values) are computed
  once per group, before the item loop of their segment;
- *varying* values (`item_id`, what a load, a call or a heap allocation returns, scans, and
  whatever depends on them) live in their segment's item loop. One that a later segment (or a
  group-level op) uses is computed again there when it is a short chain of cheap ops of the
  item id and uniform values (`mem.lea`, `arith` but divisions), else kept per work-item: an
  array of `n_items` values (a `mem.mslot` in space 5 at the function's entry), stored where it
  is made and loaded where it is used. The varying results of a group-level `scf.for` /
  `scf.if` are such arrays too; a loop body that ends with the segment that makes its varying
  yielded values writes them back into those arrays, else a copy loop does;
- memory tokens are not data: a token that crosses a segment becomes the function's own;
- `mem.slot` / `mem.mslot` in space 5 become one slot per work-item (`n_items` of them).

Without barriers, any order of the items' steps is a valid schedule, which two rewrites use:
- an `scf.for` with uniform bounds and no inner loop that carries a varying value (an
  accumulator) runs at group level, as if it held a barrier: one item loop per iteration, which
  vectorizes across the items, instead of one dependent chain per item (pocl's implicit loop
  barriers);
- a segment that is only `if (item_id + u < n) {…}` (`u`, `n` uniform; `<`/`<=`, signed or not,
  either way round) loops over the items `[0, clamp(n - u, 0, n_items))` without the test, so
  that it vectorizes without masked loads and stores (the usual bounds check of a kernel).
A kernel without barriers that is not one block (or has a local slot of a run-time size) keeps
its body instead, renamed `@k.item` (with `shared` as an extra last parameter), and the
work-group function is one loop that calls it for each item: any control flow is fine there.

Warp operations (`gpu.shuffle`, `gpu.ballot`) count as barriers here: where the whole group
reaches one, so does every warp with all its lanes, and it runs as loops over the group
(`gpuir.lowering.cpu.warps`). `gpuir.lowering.cpu.forms.choose_form` picks the form first.

A condition or bound is varying when it depends on `item_id`, or on any value loaded from
memory or returned by a call (a conservative data-flow check). A kernel with a barrier or warp
operation under such a condition, in `scf.while`, or in a `cf` block other than the entry runs in the resumable
form of `gpuir.lowering.cpu.resume` instead (each barrier a point where every item stops; a
barrier that some items miss is found at run time). A barrier in a function that the kernel
calls is an error at the barrier.

`gpu.workgroup_reduce` is a call of a helper, `@__gpuir_workgroup_reduce_<kind>_<T>` (`Helpers`),
over the items' values in the fixed tree of `gpu.workgroup_reduce` (docs/dialects.md: `t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`), and
`gpu.workgroup_scan` a left fold in item order: the results are bit-identical to `interp`'s.
Non-kernel device functions stay as they are; one with a barrier or a shared slot is an error
(for the kernels that call it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS
from gpuir.dialects.mem import SHARED
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.lowering.cpu.blocks import inline_calls
from gpuir.lowering.cpu.fission import Fission
from gpuir.lowering.cpu.forms import FISSION, ITEM_CALLS, RESUMABLE, WARP_VECTORS, choose_form
from gpuir.lowering.cpu.mma import expand_mma
from gpuir.lowering.cpu.resume import resumable
from gpuir.lowering.cpu.streaming import record_write_only
from gpuir.lowering.cpu.warp_vectors import WarpVectors
from gpuir.lowering.cpu.workgroups import (
    NOT_HERE,
    SHARED_BYTES,
    SHARED_BYTES_ATTR,
    Helpers,
    first_barrier,
    first_barrier_in,
    index_constant,
    is_token,
    lower_shared_slots,
    new_workgroup_function,
    space_of,
    takes_smem,
)
from gpuir.lowering.llvm.conversion import (
    KERNEL_ATTR,
    DeviceModulePass,
    check_kernel_signature,
)

T = TypeVar("T")

# --- the reduction helpers -------------------------------------------------------------------------


# --- kernels without barriers ----------------------------------------------------------------------


def item_loop_kernel(kernel: func.FuncOp) -> func.FuncOp:
    """The kernel's body becomes `@k.item`; the work-group function calls it per item."""
    name = kernel.sym_name.data
    smem_taken = takes_smem(kernel)
    function = new_workgroup_function(kernel, 0)
    entry = kernel.body.blocks[0]
    shared = entry.insert_arg(SHARED_BYTES, len(entry.args))
    function.attributes[SHARED_BYTES_ATTR] = IntegerAttr(lower_shared_slots(kernel, shared), 64)
    inputs = [*kernel.function_type.inputs.data, SHARED_BYTES]
    kernel.function_type = FunctionType.from_lists(inputs, kernel.function_type.outputs.data)
    kernel.sym_name = StringAttr(f"{name}.item")
    kernel.attributes.pop(KERNEL_ATTR, None)

    args = function.body.blocks[0].args
    m1, m3, m4, m5, group_id, n_items, shared_arg, smem = args[:8]
    b = Builder(InsertPoint.at_end(function.body.blocks[0]))
    zero, one = index_constant(b, 0), index_constant(b, 1)
    body = Block(arg_types=[IndexType()])
    item_id = body.args[0]
    item_id.name_hint = "item_id"
    call_args = [m1, m3, m4, m5, group_id, item_id, *([smem] if smem_taken else [])]
    call_args += [*args[8:], shared_arg]
    lb = Builder(InsertPoint.at_end(body))
    lb.insert(func.CallOp(f"{name}.item", call_args, list(KERNEL_TOKENS)))
    lb.insert(scf.YieldOp())
    b.insert(scf.ForOp(zero, n_items, one, [], body))
    b.insert(func.ReturnOp(m1, m3, m4, m5))
    return function


def outline_cf_tail(kernel: func.FuncOp) -> bool:
    """A kernel with barriers and `cf` blocks, whose blocks other than the entry have no
    barrier (the usual `barrier; if (i >= n) return; …`, or MimIR's barrier, synced scopes,
    then a `cf.cond_br` to a store or a return): its tail — the entry block's ops after the
    last one with a barrier, and every other block — becomes a device function of its own,
    `@k.tail`, which the entry block calls and returns from. The kernel is then one block, and
    the tail runs per work-item (it has no barrier). True when it did so."""
    blocks = list(kernel.body.blocks)
    if len(blocks) < 2 or any(first_barrier_in(block) for block in blocks[1:]):
        return False
    entry = blocks[0]
    ops = list(entry.ops)
    last = max((i for i, op in enumerate(ops) if first_barrier(op) is not None), default=None)
    if last is None:
        return False
    tail_ops = ops[last + 1 :]
    tail_blocks = blocks[1:]
    inside: set[Operation] = set()
    for op in tail_ops:
        inside.update(op.walk())
    for block in tail_blocks:
        for op in block.ops:
            inside.update(op.walk())
    if any(isinstance(op, mem.SlotOp | mem.MslotOp) and space_of(op) == SHARED for op in inside):
        return False  # static shared memory is the kernel's
    tail_block_args = {arg for block in tail_blocks for arg in block.args}
    external: list[SSAValue] = []
    for op in (
        o for top in [*tail_ops, *(o for b in tail_blocks for o in b.ops)] for o in top.walk()
    ):
        for operand in op.operands:
            defined_inside = (
                operand.owner in inside
                if isinstance(operand.owner, Operation)
                else operand in tail_block_args or operand.owner.parent_op() in inside  # type: ignore[union-attr]
            )
            if not defined_inside and operand not in external:
                external.append(operand)
    name = f"{kernel.sym_name.data}.tail"
    outputs = list(kernel.function_type.outputs.data)
    body = Region()
    tail_entry = Block(arg_types=[v.type for v in external])
    body.add_block(tail_entry)
    for op in tail_ops:
        op.detach()
        tail_entry.add_op(op)
    for block in tail_blocks:
        block.parent.detach_block(block)  # type: ignore[union-attr]
        body.add_block(block)
    for value, arg in zip(external, tail_entry.args, strict=True):
        arg.name_hint = value.name_hint
        for use in list(value.uses):
            if use.operation in inside:
                use.operation.operands[use.index] = arg
    tail = func.FuncOp(name, FunctionType.from_lists([v.type for v in external], outputs), body)
    call = func.CallOp(name, external, outputs)
    entry.add_op(call)
    entry.add_op(func.ReturnOp(*call.results))
    Rewriter.insert_op(tail, InsertPoint.after(kernel))
    return True


# --- the module ------------------------------------------------------------------------------------


def unsupported_functions(module: ModuleOp, kernel_names: set[str]) -> dict[str, OpError]:
    """Non-kernel functions that cannot run here (a shared slot), with the error; also those
    that call one, transitively."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    bad: dict[str, OpError] = {}
    for name, function in functions.items():
        if name in kernel_names:
            continue
        for op in function.walk():
            if isinstance(op, mem.SlotOp | mem.MslotOp) and space_of(op) == SHARED:
                bad[name] = OpError(
                    op,
                    f"a shared-memory slot ('{op.name}') in @{name}, a function that kernels "
                    f"call, {NOT_HERE}: only a kernel may make static shared memory here",
                )
                break
    add_callers(bad, functions, kernel_names, lambda name, callee: bad[callee])
    return bad


def add_callers(
    found: dict[str, T],
    functions: dict[str, func.FuncOp],
    skipped: set[str],
    value: Callable[[str, str], T],
) -> None:
    """Add to `found` each function of `functions` (but those of `skipped`) that calls one of
    `found`, directly or through others: `value(name, callee)`, where `callee` is the first
    function of `found` it calls."""
    changed = True
    while changed:
        changed = False
        for name, function in functions.items():
            if name in found or name in skipped:
                continue
            callee = next(
                (
                    op.callee.root_reference.data
                    for op in function.walk()
                    if isinstance(op, func.CallOp) and op.callee.root_reference.data in found
                ),
                None,
            )
            if callee is not None:
                found[name] = value(name, callee)
                changed = True


def lower_fences(module: ModuleOp) -> None:
    """`gpu.fence` → `llvm.fence seq_cst`: on the CPU every scope is the same."""
    from gpuir.lowering.llvm.llvm_ext import FenceOp

    for op in list(module.walk()):
        if isinstance(op, gpu.FenceOp):
            Rewriter.insert_op(FenceOp(), InsertPoint.before(op))
            op.res_m1.replace_all_uses_with(op.m1)
            op.res_m3.replace_all_uses_with(op.m3)
            Rewriter.erase_op(op)


def lower_lane_ids(kernel: func.FuncOp) -> None:
    """`gpu.lane_id` → `item_id % 32` (a warp is 32 consecutive items of a group)."""
    item_id = kernel.body.blocks[0].args[5]
    for op in list(kernel.walk()):
        if isinstance(op, gpu.LaneIdOp):
            b = Builder(InsertPoint.before(op))
            lane = b.insert(arith.RemUIOp(item_id, index_constant(b, gpu.WARP))).result
            op.res.replace_all_uses_with(lane)
            Rewriter.erase_op(op)


def waiting_functions(module: ModuleOp, kernel_names: set[str]) -> dict[str, func.FuncOp]:
    """Non-kernel functions with a barrier or a `gpu.lane_id` (which needs the item id), or
    that call one (transitively): the kernels that call them get them inlined
    (`gpuir.lowering.cpu.resume.inline_calls`)."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    waiting = {
        name: f
        for name, f in functions.items()
        if name not in kernel_names
        and not f.is_declaration
        and (
            first_barrier(f) is not None
            or any(isinstance(o, (gpu.LaneIdOp, *gpu.WARP_OPS)) for o in f.walk())
        )
    }
    add_callers(waiting, functions, kernel_names, lambda name, callee: functions[name])
    return waiting


def may_interchange(kernel: func.FuncOp) -> bool:
    """Whether a kernel has a loop that `Fission.try_interchange` may run at group level: a
    top-level `scf.for` that carries a value and has no inner loop."""
    return any(
        isinstance(op, scf.ForOp)
        and any(not is_token(a) for a in op.iter_args)
        and not any(isinstance(inner, scf.ForOp | scf.WhileOp) for inner in op.body.walk())
        for op in kernel.body.blocks[0].ops
    )


def workgroup_loops(
    module: ModuleOp, item_loops: Counter | None = None, resumables: Counter | None = None
) -> dict[str, OpError]:
    """Rewrite the kernels of the device module `module` in place (module docstring). A kernel
    that cannot run on the cpu provider is removed; its error is returned under its name.
    `item_loops` and `resumables` (when given) count the kernels made each form."""
    from gpuir.passes.device_code import kernels
    from gpuir.passes.expand_gpu_composites import ExpandGpuCompositesPass

    expand_mma(module)

    ExpandGpuCompositesPass().apply(Context(), module)
    lower_fences(module)
    names = kernels(module)
    errors: dict[str, OpError] = {}
    bad = unsupported_functions(module, names)
    waiting = waiting_functions(module, names)
    functions = [f for f in module.ops if isinstance(f, func.FuncOp)]
    helpers = Helpers(module)
    for function in functions:
        name = function.sym_name.data
        if name in bad or name in waiting:
            continue
        if name not in names:
            continue
        try:
            check_kernel_signature(function)
            calls = [op for op in function.walk() if isinstance(op, func.CallOp)]
            for call in calls:
                if call.callee.root_reference.data in bad:
                    raise bad[call.callee.root_reference.data]
                if call.callee.root_reference.data in names:
                    raise OpError(
                        call, f"'{call.name}' calls a kernel; a kernel can only be launched"
                    )
            inline_calls(function, waiting)
            lower_lane_ids(function)
            if first_barrier(function) is not None and len(function.body.blocks) > 1:
                outline_cf_tail(function)  # a cf tail without barriers: a function of its own
            form = choose_form(function, helpers)  # before any form rewrites it
            if form.name == ITEM_CALLS:
                new = item_loop_kernel(function)
                Rewriter.insert_op(new, InsertPoint.after(function))
            elif form.name == RESUMABLE:
                new = resumable(function, helpers)
                Rewriter.insert_op(new, InsertPoint.before(function))
            elif form.name == WARP_VECTORS:
                new = WarpVectors(function).run()
                Rewriter.insert_op(new, InsertPoint.before(function))
                Rewriter.erase_op(function, safe_erase=False)
            else:
                # slots per item where items' loops may be interchanged or cut at barriers
                per_item_slots = form.name == FISSION or may_interchange(function)
                new = Fission(function, helpers, per_item_slots).run()
                record_write_only(new)  # its stores may stream (`streaming`)
                Rewriter.insert_op(new, InsertPoint.before(function))
                Rewriter.erase_op(function, safe_erase=False)
            counter = resumables if form.name == RESUMABLE else item_loops
            if counter is not None:
                counter.add()
        except OpError as e:
            errors[name] = e
            if function.parent is not None:
                Rewriter.erase_op(function, safe_erase=False)
    for function in functions:  # inlined into every kernel that calls them, or cannot run here
        if function.sym_name.data in bad or function.sym_name.data in waiting:
            Rewriter.erase_op(function, safe_erase=False)
    return errors


@dataclass(frozen=True)
class CpuWorkgroupLoopsPass(DeviceModulePass):
    """Kernels → work-group functions with item loops (module docstring); the first kernel that
    cannot run on the cpu provider is an error."""

    name = "cpu-workgroup-loops"

    item_loops = Statistic(
        "num-item-loop-kernels", "Number of kernels made work-group functions with item loops"
    )
    resumables = Statistic(
        "num-resumable-kernels", "Number of kernels made resumable work-group functions"
    )

    def lower_module(self, module: ModuleOp) -> None:
        errors = workgroup_loops(module, self.item_loops, self.resumables)
        if errors:
            raise next(iter(errors.values()))
