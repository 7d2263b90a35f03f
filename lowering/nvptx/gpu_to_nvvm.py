"""`convert-gpu-to-nvvm`: the device `gpu` ops and the kernel ABI, in NVVM terms (as MLIR's
pass of that name, on gpuir's kernels).

In each device module (see `gpuir.lowering` for the kernel ABI):

- a kernel (a `func.func` marked `gpu.kernel`) loses its `group_id` and `item_id` parameters:
  their uses read `llvm.nvvm.read.ptx.sreg.ctaid.x` / `llvm.nvvm.read.ptx.sreg.tid.x`
  (`llvm.call_intrinsic`, an `i32` zero-extended to the `i64` that `index` becomes, or used as
  it is in a module with `gpu.index_bitwidth = 32`);
- its dynamic shared-memory parameter (`smem`), where it has one, becomes the address of
  `@__dynamic_smem`, an external `addrspace(3)` array that the launch sizes (one for the whole
  module, as every kernel's dynamic shared memory starts at the same place);
- `gpu.sync_work_items` becomes `llvm.nvvm.barrier.cta.sync.aligned.all(0)` (PTX `bar.sync 0`);
  its tokens pass through;
- `gpu.fence` becomes `llvm.fence syncscope("block" / "device" / system) seq_cst`, and
  `gpu.lane_id` a read of `%laneid`;
- `gpu.shuffle` computes its source lane and `valid` as `gpuir.lowering.llvm.rules` builds
  them and reads the value with `shfl.sync.idx` (two for 64 bits), `gpu.ballot` is
  `vote.sync.ballot`, both under the mask of the warp's existing lanes;
- for `sm_80` and later (the device module's `nvptx.sm`, which `device-to-llvm{sm=80}` and the
  `llvm` / `ptx` targets set), a tree of `gpu.shuffle`s that reduces an `i32` over the whole
  warp (`WarpReduce`: what the upstream import makes of `gpu.subgroup_reduce` without clusters)
  is one `redux.sync` of its kind (add, min, max, umin, umax, and, or, xor) under the same mask;
- `gpu.workgroup_reduce` / `gpu.workgroup_scan` become calls of device functions made for them
  (`@__gpuir_workgroup_reduce_<kind>_<T>`, `@__gpuir_workgroup_scan_<kind>_<T>`) that work in
  a static shared-memory scratch per element type (`@__gpuir_wg_scratch_<T>`, 1024 elements)
  with barriers: bit-identical to interp and cpu (see `gpuir.lowering.nvptx.collectives`); their
  tokens pass through. With 32-bit index values a collective on `index` is computed on `i32`
  (`arith.index_cast` to `i32` and back: the same wrapping sums and signed comparisons).

The kernels keep `gpu.kernel`; `convert-func-to-llvm` turns it into `nvvm.kernel`. A kernel
called from device code is an error: its parameters are not those of a function any more.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from gpuir.dialects import gpu, nvvm
from gpuir.dialects.gpu import constant_int, smem_param
from gpuir.dialects.mem import SHARED
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import (
    KERNEL_ATTR,
    DeviceModulePass,
    check_kernel_signature,
    constant,
    from_llvm,
    index_type,
    ptr_type,
)
from gpuir.lowering.llvm.rules import shuffle_source
from gpuir.lowering.nvptx.collectives import Collectives
from gpuir.lowering.nvptx.mma import MMA_PATTERNS, check_mma_sm
from gpuir.passes.locations import KeepLocations, apply_patterns

SMEM_GLOBAL = "__dynamic_smem"
SMEM_ALIGN = 16
BARRIER = "llvm.nvvm.barrier.cta.sync.aligned.all"
GROUP_ID = "llvm.nvvm.read.ptx.sreg.ctaid.x"
ITEM_ID = "llvm.nvvm.read.ptx.sreg.tid.x"
COMPOSITES = (gpu.SyncedScopeOp, gpu.WithStreamsOp, gpu.AllocCopyBlockOp, gpu.AllocCopyAsynOp)
DEVICE_OPS = (
    gpu.SyncWorkItemsOp,
    gpu.WorkgroupReduceOp,
    gpu.WorkgroupScanOp,
    gpu.FenceOp,
    gpu.LaneIdOp,
    gpu.ShuffleOp,
    gpu.BallotOp,
    gpu.YieldOp,
    *gpu.MMA_OPS,
)
LANE_ID = "llvm.nvvm.read.ptx.sreg.laneid"
N_ITEMS = "llvm.nvvm.read.ptx.sreg.ntid.x"
SHUFFLE = "llvm.nvvm.shfl.sync.idx.i32"
BALLOT = "llvm.nvvm.vote.ballot.sync"
SM_ATTR = "nvptx.sm"
"""The device module's attribute that names the architecture it is lowered for (an `i64`, 80
for `sm_80`); absent: any, so no instruction that needs a recent one."""
REDUX = "llvm.nvvm.redux.sync"  # .<kind>(i32 value, i32 member mask) -> i32
REDUX_SM = 80
REDUX_KINDS: dict[type[Operation], str] = {
    arith.AddiOp: "add",
    arith.MinSIOp: "min",
    arith.MaxSIOp: "max",
    arith.MinUIOp: "umin",
    arith.MaxUIOp: "umax",
    arith.AndIOp: "and",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
}
"""The `i32` combines that `redux.sync` (sm_80) does, by its names for them."""


class SyncWorkItemsToBarrier(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.SyncWorkItemsOp, rewriter: PatternRewriter):
        zero = constant(rewriter, 0, i32)
        rewriter.insert(llvm.CallIntrinsicOp(BARRIER, [zero], []))
        rewriter.replace(op, [], [op.m1, op.m3])


class FenceToLlvm(RewritePattern):
    """`gpu.fence` → `llvm.fence syncscope(…) seq_cst` (PTX `fence.sc.cta` / `.gpu` / `.sys`,
    `membar` on older targets)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.FenceOp, rewriter: PatternRewriter):
        from gpuir.lowering.llvm.llvm_ext import FENCE_SCOPES, FenceOp

        rewriter.insert(FenceOp(FENCE_SCOPES[op.scope.data]))
        rewriter.replace(op, [], [op.m1, op.m3])


class LaneIdToSreg(RewritePattern):
    """`gpu.lane_id` → `%laneid` (a warp is 32 consecutive work-items of a 1-D group)."""

    def __init__(self, index: IntegerType):
        self.index = index

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.LaneIdOp, rewriter: PatternRewriter):
        value = rewriter.insert(llvm.CallIntrinsicOp(LANE_ID, [], [i32])).results[0]
        if self.index != i32:
            value = rewriter.insert(llvm.ZExtOp(value, self.index, non_neg=UnitAttr())).res
        rewriter.replace(op, [], [from_llvm(rewriter, value, IndexType())])


def warp_lanes(b: PatternRewriter) -> tuple[SSAValue, SSAValue, SSAValue]:
    """This lane, how many lanes its warp has (the last warp of a group may have fewer than
    32), and the member mask of those lanes (all `i32`)."""
    lane = b.insert(llvm.CallIntrinsicOp(LANE_ID, [], [i32])).results[0]
    item = b.insert(llvm.CallIntrinsicOp(ITEM_ID, [], [i32])).results[0]
    n_items = b.insert(llvm.CallIntrinsicOp(N_ITEMS, [], [i32])).results[0]
    first = b.insert(arith.SubiOp(item, lane)).result
    left = b.insert(arith.SubiOp(n_items, first)).result
    count = b.insert(arith.MinUIOp(left, constant(b, gpu.WARP, i32))).result
    one = constant(b, 1, i32)
    below = b.insert(arith.SubiOp(b.insert(arith.ShLIOp(one, count)).result, one)).result
    full = b.insert(arith.CmpiOp(count, constant(b, gpu.WARP, i32), "uge")).result
    mask = b.insert(arith.SelectOp(full, constant(b, -1, i32), below)).result
    return lane, count, mask


class ShuffleToShfl(RewritePattern):
    """`gpu.shuffle` → the source lane and `valid` (`gpuir.lowering.llvm.rules`), then `shfl.sync.idx` from that lane
    (twice, for the two halves of a 64-bit value) under the mask of the existing lanes; a lane
    whose source is not valid keeps its value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.ShuffleOp, rewriter: PatternRewriter):
        b = rewriter
        lane, count, mask = warp_lanes(b)
        one, warp = constant(b, 1, i32), constant(b, gpu.WARP, i32)
        read, valid = shuffle_source(b, op.mode.data, lane, op.offset, op.width, count, one, warp)
        clamp = constant(b, gpu.WARP - 1, i32)
        value, type_ = op.value, op.value.type
        if isinstance(type_, IndexType):
            type_ = index_type(op)
            value = b.insert(arith.IndexCastOp(value, type_)).result
        width_bits = 32 if type_ in (i32, f32) else 64
        bits = IntegerType(width_bits)
        word = value if type_ == bits else b.insert(arith.BitcastOp(value, bits)).result

        def shfl(x: SSAValue) -> SSAValue:
            call = llvm.CallIntrinsicOp(SHUFFLE, [mask, x, read, clamp], [i32])
            return b.insert(call).results[0]

        if width_bits == 32:
            got = shfl(word)
        else:
            shift = constant(b, 32, i64)
            low = shfl(b.insert(arith.TruncIOp(word, i32)).result)
            high_word = b.insert(arith.ShRUIOp(word, shift)).result
            high = shfl(b.insert(arith.TruncIOp(high_word, i32)).result)
            wide_low = b.insert(arith.ExtUIOp(low, i64)).result
            wide_high = b.insert(arith.ShLIOp(b.insert(arith.ExtUIOp(high, i64)).result, shift))
            got = b.insert(arith.OrIOp(wide_low, wide_high.result)).result
        result = got if type_ == bits else b.insert(arith.BitcastOp(got, type_)).result
        if isinstance(op.value.type, IndexType):
            result = b.insert(arith.IndexCastOp(result, IndexType())).result
        rewriter.replace(op, [], [op.m1, op.m3, result, valid])


@dataclass
class WarpReduce:
    """A shuffle tree that reduces `value` (an `i32`) over the existing lanes of the whole warp
    with `kind` and gives the result to every lane: for `o = 16, 8, 4, 2, 1`,
    `v = select(valid, v ⊕ other, v)` where `other, valid = gpu.shuffle "down" v, o, 32`, then
    `gpu.shuffle "idx" v, 0, 32`. Lane 0 ends with the whole warp's value (a source past the
    existing lanes is skipped), which the `idx` shuffle gives to every lane. `levels`: each
    level's `select`, combine and shuffle, the last level first."""

    value: SSAValue
    kind: str
    levels: list[tuple[arith.SelectOp, Operation, gpu.ShuffleOp]]


def match_warp_reduce(op: gpu.ShuffleOp) -> WarpReduce | None:
    """The `WarpReduce` whose `idx` shuffle is `op`; None when `op` is not one."""
    if op.mode.data != "idx" or op.value.type != i32:
        return None
    if constant_int(op.offset) != 0 or constant_int(op.width) != gpu.WARP:
        return None
    value, kinds = op.value, set[str]()
    levels: list[tuple[arith.SelectOp, Operation, gpu.ShuffleOp]] = []
    offset = 1
    while offset < gpu.WARP:
        select = value.owner
        if not isinstance(select, arith.SelectOp):
            return None
        below, combined, shuffled = select.rhs, select.lhs.owner, select.cond.owner
        if not isinstance(shuffled, gpu.ShuffleOp) or select.cond is not shuffled.valid:
            return None
        if shuffled.mode.data != "down" or shuffled.value is not below:
            return None
        if constant_int(shuffled.offset) != offset or constant_int(shuffled.width) != gpu.WARP:
            return None
        if not isinstance(combined, Operation) or type(combined) not in REDUX_KINDS:
            return None
        if set(combined.operands) != {below, shuffled.res}:  # either order: all commute
            return None
        kinds.add(REDUX_KINDS[type(combined)])
        levels.append((select, combined, shuffled))
        value, offset = below, offset * 2
    if len(kinds) != 1:
        return None
    return WarpReduce(value, kinds.pop(), levels)


class WarpReduceToRedux(RewritePattern):
    """A `WarpReduce` → `redux.sync.<kind>` of its value under the mask of the warp's existing
    lanes (sm_80: the same value, as every kind is associative and commutative on `i32`); the
    tree's shuffles and combines go where nothing else uses them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.ShuffleOp, rewriter: PatternRewriter):
        tree = match_warp_reduce(op)
        if tree is None:
            return
        _, _, mask = warp_lanes(rewriter)
        call = llvm.CallIntrinsicOp(f"{REDUX}.{tree.kind}", [tree.value, mask], [i32])
        reduced = rewriter.insert(call).results[0]
        valid = rewriter.insert(arith.ConstantOp(IntegerAttr(1, i1))).result
        rewriter.replace(op, [], [op.m1, op.m3, reduced, valid])
        for select, combined, shuffled in tree.levels:
            if select.result.uses:
                return
            rewriter.erase_op(select)
            if combined.results[0].uses:
                return
            rewriter.erase_op(combined)
            if shuffled.res.uses or shuffled.valid.uses:
                return
            rewriter.replace(shuffled, [], [shuffled.m1, shuffled.m3, None, None])


def target_sm(module: ModuleOp) -> int:
    """The architecture `module` is lowered for (`SM_ATTR`), 0 for any."""
    sm = module.attributes.get(SM_ATTR)
    if sm is None:
        return 0
    if not isinstance(sm, IntegerAttr):
        raise OpError(module, f"{SM_ATTR} must be an architecture such as 80 : i64, found {sm}")
    return sm.value.data


class BallotToVote(RewritePattern):
    """`gpu.ballot` → `vote.sync.ballot` under the mask of the warp's existing lanes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.BallotOp, rewriter: PatternRewriter):
        _, _, mask = warp_lanes(rewriter)
        call = rewriter.insert(llvm.CallIntrinsicOp(BALLOT, [mask, op.pred], [i32]))
        rewriter.replace(op, [], [op.m1, op.m3, call.results[0]])


class CollectiveToCall(RewritePattern):
    OP_TYPES = (gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp)

    def __init__(self, collectives: Collectives, index: IntegerType):
        self.collectives = collectives
        self.index = index

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp):
            return
        if isinstance(op.value.type, IndexType) and self.index != i64:  # on the index type
            narrow = rewriter.insert(arith.IndexCastOp(op.value, self.index)).result
            on_narrow = type(op)(op.kind.data, op.m1, op.m3, narrow)  # never inserted
            result = self.collectives.call(rewriter, on_narrow)
            on_narrow.erase()
            back = rewriter.insert(arith.IndexCastOp(result, IndexType())).result
            rewriter.replace(op, [], [op.m1, op.m3, back])
            return
        result = self.collectives.call(rewriter, op)
        rewriter.replace(op, [], [op.m1, op.m3, result])


def reject_unlowerable(module: ModuleOp) -> None:
    for op in module.walk():
        if isinstance(op, COMPOSITES):
            raise OpError(op, f"'{op.name}' is a composite: run expand-gpu-composites first")
        if op.dialect_name() == "gpu" and not isinstance(op, DEVICE_OPS):
            raise OpError(op, f"'{op.name}' is host code; it cannot be lowered for the device")


def kernel_takes_smem(kernel: FuncOp) -> bool:
    return smem_param(kernel.function_type.inputs.data) is not None


def first_calls(module: ModuleOp) -> dict[str, CallOp]:
    """The first `func.call` (in walk order) of each callee in `module`: one walk for all the
    kernels, not one per kernel."""
    calls: dict[str, CallOp] = {}
    for op in module.walk():
        if isinstance(op, CallOp):
            calls.setdefault(op.callee.root_reference.data, op)
    return calls


def check_kernel(kernel: FuncOp, calls: dict[str, CallOp]) -> None:
    check_kernel_signature(kernel)
    call = calls.get(kernel.sym_name.data)
    if call is not None:
        raise OpError(
            call,
            f"'{call.name}' calls the kernel @{kernel.sym_name.data}; a kernel can only be "
            "launched",
        )


def read_sreg(b: Builder, intrinsic: str, arg: BlockArgument, index: IntegerType) -> None:
    """Replace the uses of the id parameter `arg` by a read of the special register (an `i32`,
    zero-extended when `index` is wider)."""
    if not arg.uses:
        return
    value = b.insert(llvm.CallIntrinsicOp(intrinsic, [], [i32])).results[0]
    if index != i32:
        value = b.insert(llvm.ZExtOp(value, index, non_neg=UnitAttr())).res
    arg.replace_all_uses_with(from_llvm(b, value, arg.type))


def declare_dynamic_smem(module: ModuleOp) -> None:
    if SymbolTable.lookup_symbol(module, SMEM_GLOBAL) is not None:
        return
    smem = llvm.GlobalOp(
        llvm.LLVMArrayType(0, i8),
        SMEM_GLOBAL,
        "external",
        addr_space=SHARED,
        alignment=SMEM_ALIGN,
    )
    Rewriter.insert_op(smem, InsertPoint.at_start(module.body.block))


def lower_kernel_parameters(kernel: FuncOp, module: ModuleOp, calls: dict[str, CallOp]) -> None:
    """Ids from special registers, smem from the dynamic shared array; drop the parameters.
    `calls`: `first_calls(module)`, to reject a kernel that device code calls."""
    check_kernel(kernel, calls)
    entry = kernel.body.blocks[0]
    b = Builder(InsertPoint.at_start(entry))
    index = index_type(module)
    read_sreg(b, GROUP_ID, entry.args[4], index)
    read_sreg(b, ITEM_ID, entry.args[5], index)
    dropped = [4, 5]
    if kernel_takes_smem(kernel):
        smem = entry.args[6]
        if smem.uses:
            declare_dynamic_smem(module)
            address = b.insert(llvm.AddressOfOp(SMEM_GLOBAL, ptr_type(SHARED)))
            smem.replace_all_uses_with(from_llvm(b, address.result, smem.type))
        dropped.append(6)
    for index in reversed(dropped):
        entry.erase_arg(entry.args[index])
    inputs = [t for i, t in enumerate(kernel.function_type.inputs.data) if i not in dropped]
    kernel.function_type = kernel.function_type.from_lists(
        inputs, kernel.function_type.outputs.data
    )


@dataclass(frozen=True)
class NvvmToIntrinsics(RewritePattern):
    """MLIR's `nvvm` ops (`gpuir.dialects.nvvm`: what `mlir-opt --convert-gpu-to-nvvm` writes)
    → the intrinsic calls gpuir's own lowering makes."""

    OP_TYPES = (nvvm.SpecialRegisterOp, nvvm.Barrier0Op)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, nvvm.SpecialRegisterOp):
            call = llvm.CallIntrinsicOp(op.intrinsic, [], [i32])
            rewriter.replace(op, call)
        elif isinstance(op, nvvm.Barrier0Op):
            zero = constant(rewriter, 0, i32)
            rewriter.replace(op, llvm.CallIntrinsicOp(BARRIER, [zero], []))


class ConvertGpuToNvvmPass(DeviceModulePass):
    """Kernel ids and dynamic shared memory from NVVM, barriers to the NVVM intrinsic, the
    collectives to calls of functions made for them."""

    name = "convert-gpu-to-nvvm"

    kernels = Statistic(
        "num-kernels-lowered", "Number of kernels whose ids and shared memory come from NVVM"
    )
    barriers = Statistic("num-barriers-lowered", "Number of gpu.sync_work_items made bar.sync")
    collectives = Statistic(
        "num-collectives-lowered", "Number of work-group reductions and scans made calls"
    )
    fences = Statistic("num-fences-lowered", "Number of gpu.fence ops made llvm.fence")
    warp_ops = Statistic(
        "num-warp-ops-lowered", "Number of lane ids, shuffles and ballots lowered to NVVM"
    )
    nvvm_ops = Statistic("num-nvvm-ops-lowered", "Number of nvvm ops made intrinsic calls")

    def lower_module(self, module: ModuleOp) -> None:
        reject_unlowerable(module)
        check_mma_sm(module, target_sm(module))
        kernels: list[Operation] = [
            f for f in module.ops if isinstance(f, FuncOp) and KERNEL_ATTR in f.attributes
        ]
        calls = first_calls(module)
        for kernel in kernels:
            assert isinstance(kernel, FuncOp)
            lower_kernel_parameters(kernel, module, calls)
            self.kernels.add()
        if target_sm(module) >= REDUX_SM:  # before the shuffles are lowered one by one
            apply_patterns(module, [KeepLocations(WarpReduceToRedux(), self.warp_ops)])
        collectives = Collectives(module)
        apply_patterns(
            module,
            [
                KeepLocations(SyncWorkItemsToBarrier(), self.barriers),
                KeepLocations(CollectiveToCall(collectives, index_type(module)), self.collectives),
                KeepLocations(FenceToLlvm(), self.fences),
                KeepLocations(LaneIdToSreg(index_type(module)), self.warp_ops),
                KeepLocations(ShuffleToShfl(), self.warp_ops),
                KeepLocations(BallotToVote(), self.warp_ops),
                KeepLocations(NvvmToIntrinsics(), self.nvvm_ops),
                *(KeepLocations(pattern(), self.warp_ops) for pattern in MMA_PATTERNS),
            ],
        )
