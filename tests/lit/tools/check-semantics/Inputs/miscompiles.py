"""Planted miscompiling passes for --check-semantics' tests: each is a bug a real pass could
have, and each keeps the IR valid, so only a run tells that the program changed."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Region
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class SwapSubOperandsPass(ModulePass):
    """Compute b - a where a - b is written."""

    name = "swap-sub-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for sub in [o for o in op.walk() if isinstance(o, arith.SubiOp | arith.SubfOp)]:
            sub.operands = (sub.operands[1], sub.operands[0])


@dataclass(frozen=True)
class DropBarriersPass(ModulePass):
    """Remove every work-group barrier (its tokens pass through)."""

    name = "drop-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for sync in [o for o in op.walk() if o.name == "gpu.sync_work_items"]:
            for result, operand in zip(sync.results, sync.operands, strict=True):
                result.replace_all_uses_with(operand)
            sync.detach()
            sync.erase()


@dataclass(frozen=True)
class OffByOneLoopsPass(ModulePass):
    """Run every scf.for one iteration too many."""

    name = "off-by-one-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [o for o in op.walk() if o.name == "scf.for"]:
            lower, upper, step, *rest = loop.operands
            longer = arith.AddiOp(upper, step)
            loop.parent_block().insert_op_before(longer, loop)
            loop.operands = (lower, longer.result, step, *rest)


@dataclass(frozen=True)
class WrongAtomicPass(ModulePass):
    """Make every atomic add an atomic max."""

    name = "wrong-atomic"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for atomic in [o for o in op.walk() if o.name == "mem.atomic_rmw"]:
            if atomic.properties["kind"] == StringAttr("add"):
                atomic.properties["kind"] = StringAttr("max")


@dataclass(frozen=True)
class LoadBeforeStorePass(ModulePass):
    """Move each load that follows a store up across it: the load takes the store's token."""

    name = "load-before-store"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for load in [o for o in op.walk() if o.name == "mem.load"]:
            store = load.operands[0].owner
            if getattr(store, "name", None) == "mem.store":
                load.operands = (store.operands[0], *load.operands[1:])
                load.detach()
                store.parent_block().insert_op_before(load, store)


@dataclass(frozen=True)
class SwapIfBranchesPass(ModulePass):
    """Swap the then and else regions of every scf.if that has both."""

    name = "swap-if-branches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for branch in [o for o in op.walk() if o.name == "scf.if"]:
            then, otherwise = branch.regions
            if not otherwise.blocks:
                continue
            spare = Region()
            then.move_blocks(spare)
            otherwise.move_blocks(then)
            spare.move_blocks(otherwise)


@dataclass(frozen=True)
class BumpConstantsPass(ModulePass):
    """Add one to every integer constant of the module it runs on (put it in split-apply's
    device pipeline: it breaks only the kernels)."""

    name = "bump-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for constant in [o for o in op.walk() if isinstance(o, arith.ConstantOp)]:
            value = constant.value
            if isinstance(value, IntegerAttr):
                constant.properties["value"] = IntegerAttr(value.value.data + 1, value.type)


@dataclass(frozen=True)
class ReassociateHalvesPass(ModulePass):
    """(x + a) + b → x + (a + b) for float adds of constants: legal only with fast math, it
    moves the result by rounding."""

    name = "reassociate-halves"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for outer in [o for o in op.walk() if isinstance(o, arith.AddfOp)]:
            inner = outer.lhs.owner
            if not isinstance(inner, arith.AddfOp):
                continue
            a, b = inner.rhs.owner, outer.rhs.owner
            if not (isinstance(a, arith.ConstantOp) and isinstance(b, arith.ConstantOp)):
                continue
            folded = arith.AddfOp(a.result, b.result)
            outer.parent_block().insert_op_before(folded, outer)
            outer.operands = (inner.lhs, folded.result)
