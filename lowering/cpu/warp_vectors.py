"""The warp-vector form of a kernel (`gpuir.lowering.cpu.forms.WARP_VECTORS`): a warp's 32 lanes
run as LLVM vectors, one warp after another, with no per-item arrays.

The work-group function loops over the group's whole warps, then runs its last partial warp
(if any) under a mask of its lanes. In a warp's code each value of the kernel is one of:

- a scalar (the kernel's op, cloned): uniform values (constants, arguments, the group id),
  a ballot's mask, a load from a uniform address, and what is computed from them;
- `Stride(first)`: lane k holds `first + k` (the item id: the warp's first item + the lane);
- `Place(base, index)`: lane k's address `base[index at k]` (`mem.lea` of a uniform base);
- `Lanes(vector)`: any other, a `vector<32 x T>` of the llvm dialect (`index` as the module's
  index type), made by llvm ops (arith has no vector lowering in gpuir).

A shuffle of a constant offset and width on a whole warp is one `shufflevector` and a constant
`valid` vector; elsewhere (the partial warp, other offsets) each lane reads its source
(`gpuir.lowering.llvm.rules.shuffle_source`, with the warp's lane count). A ballot is
`bitcast <32 x i1> to i32` of the active lanes' predicates. Loads and stores at `Stride`
places are vector loads and stores (LLVM's masked ones under a mask), at other places LLVM's
masked gathers and scatters; atomics and pure ops without a vector form (`math` but `ctpop`,
`uitofp`, `fptosi`, `fptoui`) run lane after lane, unrolled. An `scf.if` on a scalar stays
one; on `lane == c` its then-branch runs once, as lane c's scalar code; on another varying
condition both branches run under the lanes' masks and a `select` joins their values.

A lane-0 integer atomic add that is the kernel's only access to its memory space adds into a
sum that one atomic per group adds (`lanes.deferred_atomic`); where its value is a warp
reduction (`lanes.warp_total`), whole warps add their vectors instead and one reduction per
group sums them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, math, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import SHARED, PtrType
from gpuir.lowering.cpu.lanes import (
    LaneFCmpOp,
    LaneSelectOp,
    deferred_atomic,
    is_pure_op,
    lane_of,
    shuffle_reads,
    warp_total,
)
from gpuir.lowering.cpu.warps import multiple_of_warp
from gpuir.lowering.cpu.workgroups import (
    SHARED_ALIGN,
    SHARED_BYTES_ATTR,
    constant_index,
    external_values,
    index_constant,
    is_token,
    new_workgroup_function,
    place,
    takes_smem,
)
from gpuir.lowering.llvm.arith_to_llvm import (
    CASTS,
    FLOAT_BINARY,
    INT_BINARY,
    MIN_MAX,
    WITH_OVERFLOW_FLAGS,
    fastmath,
    overflow_flags,
)
from gpuir.lowering.llvm.conversion import index_type, llvm_type, ptr_type, size_and_align
from gpuir.lowering.llvm.llvm_ext import FPToSIOp, FPToUIOp, PoisonOp, UIToFPOp
from gpuir.lowering.llvm.rules import shuffle_source
from gpuir.lowering.llvm.vector_to_llvm import extract_at, insert_at, shuffle, suffix

WARP = gpu.WARP
DEFERRED_ATTR = "gpu.deferred_atomic"
"""On a work-group function: the kernel argument (its index among them) that the deferred
atomic adds to; the thread's sum is the first integer of its shared memory."""
DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
VECTOR_CASTS: dict[type[Operation], type[Operation]] = {
    kind: made for kind, made in CASTS.items() if made not in (UIToFPOp, FPToSIOp, FPToUIOp)
}
"""`arith`'s casts whose llvm ops take vectors (gpuir's `uitofp`, `fptosi`, `fptoui` do not:
they run lane by lane)."""


@dataclass(frozen=True)
class Lanes:
    """A value per lane: an llvm `vector<32 x T>`."""

    value: SSAValue


@dataclass(frozen=True)
class Stride:
    """Lane k holds `first + k` (an `index`); `aligned` when `first` is a multiple of 32."""

    first: SSAValue
    aligned: bool = False


@dataclass(frozen=True)
class Place:
    """Lane k's address `base[index at lane k]`, of type `type_`."""

    base: SSAValue
    index: Rep
    type_: Attribute


Rep = SSAValue | Lanes | Stride | Place
NUMBERS = (IntegerType, IndexType, Float16Type, Float32Type, Float64Type)


@dataclass(frozen=True)
class Access:
    """How a warp reaches its lanes' elements (`WarpVectors.access`): `address` is lane 0's
    llvm pointer, or (`spread`) a vector of the lanes' pointers; `memory` the vector type of
    the elements in memory."""

    address: SSAValue
    memory: VectorType
    align: int
    space: int
    spread: bool


class WarpVectors:
    """The work-group function of a kernel that `forms.warp_vector_misfit` accepts."""

    def __init__(self, kernel: func.FuncOp):
        self.kernel = kernel
        self.entry = kernel.body.blocks[0]
        self.item_id = self.entry.args[5]
        self.index = index_type(kernel)
        self.vals: dict[SSAValue, Rep] = {}
        self.deferred: mem.AtomicRmwOp | None = None
        self.acc: SSAValue | None = None
        """The group's sum of the deferred atomic's values so far (`deferred_atomic`)."""
        self.acc_lanes: SSAValue | None = None
        """In whole warps, where that value is a warp's total (`warp_total`): the sums of its
        lanes so far, a vector (one reduction per group)."""
        self.total_of: SSAValue | None = None
        self.iotas: dict[tuple[Block, Attribute], SSAValue] = {}

    # -- the frame --

    def run(self) -> func.FuncOp:
        kernel, entry = self.kernel, self.entry
        function = new_workgroup_function(kernel, 0)
        args = function.body.blocks[0].args
        self.tokens = {1: args[0], 3: args[1], 4: args[2], 5: args[3]}
        n_params = len(kernel.function_type.inputs.data)
        group: dict[SSAValue, SSAValue] = {entry.args[i]: args[i] for i in range(5)}
        fixed = 7 if takes_smem(kernel) else 6
        if fixed == 7:
            group[entry.args[6]] = args[7]
        group.update(zip(entry.args[fixed:n_params], args[8:], strict=True))
        b = Builder(InsertPoint.at_end(function.body.blocks[0]))
        self.hoisted: set[Operation] = set()
        for op in list(entry.ops)[:-1]:  # the group's uniform values, once
            if not op.regions and is_pure_op(op) and all(v in group for v in op.operands):
                b.insert(op.clone(value_mapper=group))
                self.hoisted.add(op)
        self.group = group
        self.deferred = deferred_atomic(kernel)
        if self.deferred is not None and self.deferred.ptr not in group:
            self.deferred = None
        self.total_of = None  # the deferred atomic's value: lane c's sum of these lanes
        carried: list[SSAValue] = []
        if self.deferred is not None:
            zero = self.zero(b, self.deferred.value.type)
            branch = self.deferred.parent_op()
            assert isinstance(branch, scf.IfOp)
            lane = lane_of(branch.cond, self.item_id)
            assert lane is not None
            value = self.deferred.value
            if isinstance(value.owner, Operation) and value.owner.parent_block() is entry:
                self.total_of = warp_total(value, lane)  # made before the branch
            carried = [zero if self.total_of is None else self.splat(b, zero)]
        types = [v.type for v in carried]
        warp = index_constant(b, WARP)
        n_items = args[5]
        whole = b.insert(arith.DivUIOp(n_items, warp)).result
        body = Block(arg_types=[IndexType(), *types])
        wb = Builder(InsertPoint.at_end(body))
        if carried and self.total_of is not None:
            self.acc_lanes = body.args[1]
        elif carried:
            self.acc = body.args[1]
        self.emit_warp(wb, wb.insert(arith.MuliOp(body.args[0], warp)).result, None)
        wb.insert(scf.YieldOp(*([self.acc_lanes or self.acc] if carried else [])))  # type: ignore[list-item]
        c0, c1 = index_constant(b, 0), index_constant(b, 1)
        loop = b.insert(scf.ForOp(c0, whole, c1, carried, body))
        done = b.insert(arith.MuliOp(whole, warp)).result
        rest = b.insert(arith.SubiOp(n_items, done)).result
        partial = b.insert(arith.CmpiOp(rest, index_constant(b, 0), "ne")).result
        sums = list(loop.results)
        if self.acc_lanes is not None:  # the whole warps' lanes, summed once
            element = self.lowered(types[0].element_type)  # type: ignore[attr-defined]
            name = f"llvm.vector.reduce.add.{suffix(types[0])}"  # type: ignore[arg-type]
            total = b.insert(llvm.CallIntrinsicOp(name, sums, [element])).results[0]
            sums = [self.from_low(b, total, self.deferred.value.type)]  # type: ignore[union-attr]
            types = [sums[0].type]
        self.acc_lanes = None
        tail = Block()
        tb = Builder(InsertPoint.at_end(tail))
        self.acc = sums[0] if carried else None
        self.emit_warp(tb, done, rest)
        tb.insert(scf.YieldOp(*([self.acc] if carried else [])))
        other = Block([scf.YieldOp(*sums)])
        last = b.insert(scf.IfOp(partial, types, Region(tail), Region(other)))
        if self.deferred is not None:
            self.add_to_launch(b, function, last.results[0])
        b.insert(func.ReturnOp(*args[:4]))
        return function

    def add_to_launch(self, b: Builder, function: func.FuncOp, total: SSAValue) -> None:
        """The group's sum of the deferred atomic's values: where the atomic's address is a
        kernel argument, into the thread's sum at the start of its shared memory (plain: no
        other thread sees it), which the launch entry zeroes before its groups and adds with
        one atomic after them (`DEFERRED_ATTR`); else one atomic now."""
        op = self.deferred
        assert op is not None
        fixed = 7 if takes_smem(self.kernel) else 6
        arguments = list(self.entry.args[fixed : len(self.kernel.function_type.inputs.data)])
        if op.ptr not in arguments:
            token = self.tokens[op.ptr.type.space.data]  # type: ignore[attr-defined]
            b.insert(mem.AtomicRmwOp(op.kind.data, token, self.group[op.ptr], total))
            return
        args = function.body.blocks[0].args
        slot = place(b, args[6], 0, PtrType(total.type, SHARED))
        token, before = b.insert(mem.LoadOp(args[1], slot)).results
        b.insert(mem.StoreOp(token, slot, b.insert(arith.AddiOp(before, total)).result))
        function.attributes[SHARED_BYTES_ATTR] = IntegerAttr(SHARED_ALIGN, 64)
        function.attributes[DEFERRED_ATTR] = IntegerAttr(arguments.index(op.ptr), 64)

    def emit_warp(self, b: Builder, first: SSAValue, count: SSAValue | None) -> None:
        """One warp from item `first`: all 32 lanes (`count` None) or the first `count`."""
        self.vals = dict(self.group)
        self.vals[self.item_id] = Stride(first, aligned=True)
        self.count = count
        active = self.counts = None
        if count is not None:
            self.counts = self.splat(b, count)
            active = self.compare(b, "ult", self.iota(b, count.type), self.counts)
        self.emit_ops(b, list(self.entry.ops)[:-1], active)

    def emit_ops(self, b: Builder, ops: list[Operation], active: SSAValue | None) -> None:
        for op in ops:
            if op in self.hoisted:
                continue
            self.emit_op(b, op, active)

    # -- values --

    def lowered(self, type_: Attribute) -> Attribute:
        found = llvm_type(type_, self.index)
        assert found is not None, type_
        return found

    def vector_type(self, type_: Attribute) -> VectorType:
        return VectorType(self.lowered(type_), [WARP])

    def to_low(self, b: Builder, value: SSAValue) -> SSAValue:
        target = self.lowered(value.type)
        if target == value.type:
            return value
        return b.insert(UnrealizedConversionCastOp.get([value], [target])).results[0]

    def from_low(self, b: Builder, value: SSAValue, type_: Attribute) -> SSAValue:
        if value.type == type_:
            return value
        return b.insert(UnrealizedConversionCastOp.get([value], [type_])).results[0]

    def poison(self, b: Builder, type_: Attribute) -> SSAValue:
        return b.insert(PoisonOp.create(result_types=[type_])).res

    def splat(self, b: Builder, scalar: SSAValue) -> SSAValue:
        low = self.to_low(b, scalar)
        one = insert_at(b, self.poison(b, VectorType(low.type, [WARP])), low, 0)  # type: ignore[arg-type]
        return shuffle(b, one, one, [0] * WARP)  # type: ignore[arg-type]

    def iota(self, b: Builder, type_: Attribute) -> SSAValue:
        """`<0, 1, …, 31>` of `type_` (lowered), once per block."""
        element = self.lowered(type_)
        key = (b.insertion_point.block, element)
        if key not in self.iotas:
            self.iotas[key] = self.constant_vector(b, list(range(WARP)), element)
        return self.iotas[key]

    def constant_vector(self, b: Builder, values: list[int], element: Attribute) -> SSAValue:
        """The lanes `values` of the (lowered) integer type `element`: one vector constant."""
        assert isinstance(element, IntegerType), element
        type_ = VectorType(element, [WARP])
        dense = DenseIntOrFPElementsAttr.from_list(type_, values)
        return b.insert(llvm.ConstantOp(dense, type_)).result

    def zero(self, b: Builder, type_: Attribute) -> SSAValue:
        """A scalar 0 of `type_` (a number type)."""
        if isinstance(type_, IntegerType | IndexType):
            return b.insert(arith.ConstantOp(IntegerAttr(0, type_))).result
        return b.insert(arith.ConstantOp(FloatAttr(0.0, type_))).result  # type: ignore[arg-type]

    def scalar(self, value: SSAValue) -> SSAValue | None:
        """`value`'s scalar in this warp, if it is one."""
        if is_token(value):
            return self.tokens[value.type.space.data]  # type: ignore[attr-defined]
        found = self.vals[value]
        return found if isinstance(found, SSAValue) else None

    def vec(self, b: Builder, value: SSAValue) -> SSAValue:
        """`value` as an llvm vector of its lanes."""
        return self.rep_vec(b, self.vals[value], value)

    def rep_vec(self, b: Builder, found: Rep, value: object) -> SSAValue:
        if isinstance(found, Lanes):
            return found.value
        if isinstance(found, Stride):
            return self.add(b, self.splat(b, found.first), self.iota(b, IndexType()))
        assert isinstance(found, SSAValue), f"no vector of {value}"
        return self.splat(b, found)

    def at_lane(self, b: Builder, value: SSAValue, lane: SSAValue | int) -> SSAValue:
        """`value` as lane `lane` (a constant, or an `index`) sees it: a scalar of its type."""
        if is_token(value):
            return self.tokens[value.type.space.data]  # type: ignore[attr-defined]
        return self.rep_at_lane(b, self.vals[value], value.type, lane)

    def rep_at_lane(self, b: Builder, rep: Rep, type_: Attribute, lane: SSAValue | int) -> SSAValue:
        if isinstance(rep, SSAValue):
            return rep
        if isinstance(rep, Lanes):
            at = lane if isinstance(lane, int) else self.to_low(b, lane)
            return self.from_low(b, extract_at(b, rep.value, at), type_)  # type: ignore[arg-type]
        lane_index = lane if isinstance(lane, SSAValue) else index_constant(b, lane)
        if isinstance(rep, Stride):
            return b.insert(arith.AddiOp(rep.first, lane_index)).result
        index = self.rep_at_lane(b, rep.index, IndexType(), lane)
        return b.insert(mem.LeaOp(rep.base, index)).res

    def add(self, b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
        return b.insert(llvm.AddOp(x, y)).res

    def compare(self, b: Builder, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        flag = llvm.ICmpPredicateFlag(predicate).to_int()
        return b.insert(llvm.ICmpOp(x, y, IntegerAttr(flag, i64))).res

    def both(self, b: Builder, mask: SSAValue | None, other: SSAValue) -> SSAValue:
        return other if mask is None else b.insert(llvm.AndOp(mask, other)).res

    def define(self, op: Operation, reps: list[Rep]) -> None:
        """The reps of `op`'s results that are not tokens, in order."""
        found = iter(reps)
        for result in op.results:
            if not is_token(result):
                self.vals[result] = next(found)

    # -- ops --

    def emit_op(self, b: Builder, op: Operation, active: SSAValue | None) -> None:
        if isinstance(op, scf.IfOp):
            self.emit_if(b, op, active)
        elif isinstance(op, scf.ForOp):
            self.emit_for(b, op, active)
        elif isinstance(op, gpu.ShuffleOp):
            self.emit_shuffle(b, op)
        elif isinstance(op, gpu.BallotOp):
            pred = self.both(b, active, self.vec(b, op.pred))
            self.vals[op.mask] = b.insert(llvm.BitcastOp(pred, i32)).result
        elif isinstance(op, mem.LeaOp):
            self.emit_lea(b, op)
        elif isinstance(op, mem.LoadOp):
            self.emit_load(b, op, active)
        elif isinstance(op, mem.StoreOp):
            self.emit_store(b, op, active)
        elif is_pure_op(op):
            self.emit_pure(b, op, active)
        else:  # atomics: each active lane in turn
            self.per_lane(b, op, active)

    def clone_scalar(self, b: Builder, op: Operation) -> None:
        mapper = {v: self.scalar(v) for v in op.operands}
        new = b.insert(op.clone(value_mapper=mapper))  # type: ignore[arg-type]
        self.define(op, [r for r in new.results if not is_token(r)])

    def emit_pure(self, b: Builder, op: Operation, active: SSAValue | None) -> None:
        if all(self.scalar(v) is not None for v in op.operands):
            self.clone_scalar(b, op)
            return
        stride = self.stride_of(b, op)
        if stride is not None:
            self.define(op, [stride])
            return
        made = self.vector_op(b, op, active)
        if made is None:
            self.per_lane(b, op, active)
        else:
            self.define(op, [Lanes(made)])

    def stride_of(self, b: Builder, op: Operation) -> Rep | None:
        """Item-id arithmetic that keeps a `Stride`, or makes the lane ids or the warp."""
        reps = [self.vals.get(v) for v in op.operands]
        if isinstance(op, arith.AddiOp | arith.SubiOp) and isinstance(op.result.type, IndexType):
            lhs, rhs = reps
            if isinstance(lhs, Stride) and isinstance(rhs, SSAValue):
                step = type(op)(lhs.first, rhs)
                return Stride(b.insert(step).result, lhs.aligned and multiple_of_warp(op.rhs))
            if (
                isinstance(op, arith.AddiOp)
                and isinstance(rhs, Stride)
                and isinstance(lhs, SSAValue)
            ):
                moved = b.insert(arith.AddiOp(lhs, rhs.first)).result
                return Stride(moved, rhs.aligned and multiple_of_warp(op.lhs))
        if isinstance(op, arith.RemUIOp | arith.DivUIOp) and constant_index(op.rhs) == WARP:
            lhs = reps[0]
            if isinstance(lhs, Stride) and lhs.aligned:
                if isinstance(op, arith.RemUIOp):
                    return Lanes(self.iota(b, op.result.type))
                return b.insert(arith.DivUIOp(lhs.first, self.scalar(op.rhs))).result  # type: ignore[arg-type]
        return None

    def vector_op(self, b: Builder, op: Operation, active: SSAValue | None) -> SSAValue | None:
        """The llvm op of a pure op on vectors, or None where it has none here."""
        kind = type(op)
        if kind in INT_BINARY or kind in FLOAT_BINARY:
            lhs, rhs = (self.vec(b, v) for v in op.operands)
            if kind in DIVISIONS and active is not None:  # no division by an idle lane's 0
                ones = self.splat(b, b.insert(arith.ConstantOp(IntegerAttr(1, op.rhs.type))).result)
                rhs = b.insert(LaneSelectOp(active, rhs, ones)).res
            if kind in FLOAT_BINARY:
                return b.insert(FLOAT_BINARY[kind](lhs, rhs, fastmath(op))).results[0]  # type: ignore[call-arg]
            made = INT_BINARY[kind]
            if made in WITH_OVERFLOW_FLAGS:
                flags = IntegerAttr(overflow_flags(op), 32)
                return b.insert(made(lhs, rhs, overflow=flags)).results[0]  # type: ignore[call-arg]
            return b.insert(made(lhs, rhs)).results[0]  # type: ignore[call-arg]
        if kind in MIN_MAX:
            lhs, rhs = (self.vec(b, v) for v in op.operands)
            name = f"{MIN_MAX[kind]}.{suffix(lhs.type)}"  # type: ignore[arg-type]
            return b.insert(llvm.CallIntrinsicOp(name, [lhs, rhs], [lhs.type])).results[0]
        if isinstance(op, arith.CmpiOp):
            lhs, rhs = self.vec(b, op.lhs), self.vec(b, op.rhs)
            predicate = IntegerAttr(op.predicate.value.data, i64)
            return b.insert(llvm.ICmpOp(lhs, rhs, predicate)).res
        if isinstance(op, arith.CmpfOp):
            lhs, rhs = self.vec(b, op.lhs), self.vec(b, op.rhs)
            compare = LaneFCmpOp(lhs, rhs, op.predicate.value.data, fastmath(op))
            return b.insert(compare).res
        if isinstance(op, arith.SelectOp):
            cond, lhs, rhs = (self.vec(b, v) for v in op.operands)
            return b.insert(LaneSelectOp(cond, lhs, rhs)).res
        if kind in VECTOR_CASTS or isinstance(op, arith.IndexCastOp):
            return self.cast(b, op)
        if isinstance(op, math.CtPopOp):
            value = self.vec(b, op.operand)
            name = f"llvm.ctpop.{suffix(value.type)}"  # type: ignore[arg-type]
            return b.insert(llvm.CallIntrinsicOp(name, [value], [value.type])).results[0]
        return None

    def cast(self, b: Builder, op: Operation) -> SSAValue:
        (value,) = (self.vec(b, v) for v in op.operands)
        target = self.vector_type(op.results[0].type)
        if value.type == target:
            return value
        kind = type(op)
        if kind in VECTOR_CASTS:
            return b.insert(VECTOR_CASTS[kind](value, target)).results[0]  # type: ignore[call-arg]
        width = value.type.element_type.width.data  # type: ignore[attr-defined]
        if width > target.element_type.width.data:  # type: ignore[attr-defined]
            return b.insert(llvm.TruncOp(value, target)).res
        return b.insert(llvm.SExtOp(value, target)).res  # `index_cast` sign-extends

    def per_lane(self, b: Builder, op: Operation, active: SSAValue | None) -> None:
        """`op` for each lane in turn (unrolled: each lane's values move by constant
        positions), its results put together lane by lane; an op with effects only where its
        lane is active."""
        results = [r for r in op.results if not is_token(r)]
        outs = [self.poison(b, self.vector_type(r.type)) for r in results]
        pure = is_pure_op(op)
        for lane in range(WARP):
            if pure or active is None:
                made = self.clone_at(b, op, lane)
            else:
                made = self.lane_region(b, op, active, lane, results)
            outs = [
                insert_at(b, v, self.to_low(b, m), lane)  # type: ignore[arg-type]
                for v, m in zip(outs, made, strict=True)
            ]
        self.define(op, [Lanes(v) for v in outs])

    def lane_region(
        self, b: Builder, op: Operation, active: SSAValue, lane: int, results: list[SSAValue]
    ) -> list[SSAValue]:
        """`op` at lane `lane` under an `scf.if` on its bit of `active` (zeros where not)."""
        on = extract_at(b, active, lane)  # type: ignore[arg-type]
        then = Block()
        tb = Builder(InsertPoint.at_end(then))
        tb.insert(scf.YieldOp(*self.clone_at(tb, op, lane)))
        other = Block()
        ob = Builder(InsertPoint.at_end(other))
        ob.insert(scf.YieldOp(*(self.zero(ob, r.type) for r in results)))
        made = b.insert(scf.IfOp(on, [r.type for r in results], Region(then), Region(other)))
        return list(made.results)

    def clone_at(self, b: Builder, op: Operation, lane: SSAValue | int) -> list[SSAValue]:
        mapper = {v: self.at_lane(b, v, lane) for v in external_values([op])}
        new = b.insert(op.clone(value_mapper=mapper))
        return [r for r in new.results if not is_token(r)]

    def emit_lea(self, b: Builder, op: mem.LeaOp) -> None:
        base = self.scalar(op.operands[0])
        assert base is not None, "a varying base (forms.warp_vector_misfit)"
        indices = op.operands[1:]
        if all(self.scalar(v) is not None for v in indices):
            self.clone_scalar(b, op)
            return
        (index,) = indices
        self.vals[op.res] = Place(base, self.vals[index], op.res.type)

    def access(
        self, b: Builder, op: mem.LoadOp | mem.StoreOp, uniform: bool, active: SSAValue | None
    ) -> Access | None:
        """How a warp's lanes reach the memory of `op` at once: from one llvm pointer (its index
        a `Stride`), or from a vector of pointers. None where `op` is emitted otherwise: as one
        scalar op (`uniform`, every lane active), or lane by lane (not a `Place` of numbers)."""
        place = self.vals[op.ptr]
        if uniform and active is None:
            self.clone_scalar(b, op)
            return None
        ptr = place.type_ if isinstance(place, Place) else None
        if not isinstance(ptr, PtrType) or not isinstance(ptr.pointee, NUMBERS):
            self.per_lane(b, op, active)
            return None
        assert isinstance(place, Place)
        element, space = ptr.pointee, ptr.space.data
        _, align = size_and_align(element, place.base.owner)  # type: ignore[arg-type]
        memory = VectorType(llvm_type(element, i64), [WARP])  # in memory, an index is an i64
        pointer = ptr_type(space)
        if isinstance(place.index, Stride):
            first = b.insert(mem.LeaOp(place.base, place.index.first)).res
            address = b.insert(UnrealizedConversionCastOp.get([first], [pointer])).results[0]
            return Access(address, memory, align, space, spread=False)
        addresses = self.poison(b, VectorType(pointer, [WARP]))
        for lane in range(WARP):  # LLVM makes the lanes' GEPs one of a vector of indices
            at = self.rep_at_lane(b, place, place.type_, lane)
            one = b.insert(UnrealizedConversionCastOp.get([at], [pointer])).results[0]
            addresses = insert_at(b, addresses, one, lane)  # type: ignore[arg-type]
        return Access(addresses, memory, align, space, spread=True)

    def emit_load(self, b: Builder, op: mem.LoadOp, active: SSAValue | None) -> None:
        found = self.access(b, op, isinstance(self.vals[op.ptr], SSAValue), active)
        if found is None:
            return
        memory = found.memory
        if active is None and not found.spread:
            made = b.insert(llvm.LoadOp(found.address, memory, found.align)).dereferenced_value
        else:
            name, align, mask = self.masked(b, found, active, "gather", "load")
            keep = self.poison(b, memory)
            call = llvm.CallIntrinsicOp(name, [found.address, align, mask, keep], [memory])
            made = b.insert(call).results[0]
        lanes = self.vector_type(op.res.type)
        if made.type != lanes:  # a 32-bit index
            made = b.insert(llvm.TruncOp(made, lanes)).res
        self.vals[op.res] = Lanes(made)

    def emit_store(self, b: Builder, op: mem.StoreOp, active: SSAValue | None) -> None:
        uniform = isinstance(self.vals[op.ptr], SSAValue) and self.scalar(op.value) is not None
        found = self.access(b, op, uniform, active)
        if found is None:
            return
        value = self.vec(b, op.value)
        if value.type != found.memory:  # a 32-bit index is an i64 in memory
            value = b.insert(llvm.SExtOp(value, found.memory)).res
        if active is None and not found.spread:
            b.insert(llvm.StoreOp(value, found.address, found.align))
            return
        # a spread store is LLVM's scatter, which writes lane after lane, as the lanes' stores go
        name, align, mask = self.masked(b, found, active, "scatter", "store")
        b.insert(llvm.CallIntrinsicOp(name, [value, found.address, align, mask], []))

    def masked(
        self, b: Builder, found: Access, active: SSAValue | None, spread: str, contiguous: str
    ) -> tuple[str, SSAValue, SSAValue]:
        """The masked intrinsic of `found` (`spread` or `contiguous`: gather or load, scatter
        or store), its alignment operand, and its mask (every lane where `active` is None)."""
        align = b.insert(llvm.ConstantOp(IntegerAttr(found.align, i32), i32)).result
        mask = active if active is not None else self.constant_vector(b, [1] * WARP, i1)
        kind, lanes = (spread, f"v{WARP}") if found.spread else (contiguous, "")
        return f"llvm.masked.{kind}.{suffix(found.memory)}.{lanes}p{found.space}", align, mask

    def emit_shuffle(self, b: Builder, op: gpu.ShuffleOp) -> None:
        value = self.vec(b, op.value)
        reads = shuffle_reads(op)
        if reads is None:
            count = self.count if self.count is not None else index_constant(b, WARP)
            self.general_shuffle(b, op, value, count)
            return
        sources = [lane if read is None else read for lane, read in enumerate(reads)]
        moved = shuffle(b, value, value, sources)  # type: ignore[arg-type]
        valid = self.constant_vector(b, [int(read is not None) for read in reads], i1)
        if self.count is not None:
            # a warp of `count` lanes: a read is valid where it is in a whole warp and reads
            # a lane below `count` (rules.shuffle_source's `end`); elsewhere a lane keeps its own
            index = self.lowered(IndexType())
            below = self.compare(b, "ult", self.constant_vector(b, sources, index), self.counts)
            valid = b.insert(llvm.AndOp(valid, below)).res
            moved = b.insert(LaneSelectOp(valid, moved, value)).res
        self.vals[op.res], self.vals[op.valid] = Lanes(moved), Lanes(valid)

    def general_shuffle(
        self, b: Builder, op: gpu.ShuffleOp, value: SSAValue, count: SSAValue
    ) -> None:
        """Each lane's source and `valid` by `rules.shuffle_source` (any offset and width, any
        lane count), the value read from the lanes' vector; unrolled over the lanes."""
        res = self.poison(b, value.type)
        ok = self.poison(b, VectorType(i1, [WARP]))
        count32 = b.insert(arith.IndexCastOp(count, i32)).result
        one, warp = (b.insert(arith.ConstantOp(IntegerAttr(k, i32))).result for k in (1, WARP))
        for lane in range(WARP):
            at = b.insert(arith.ConstantOp(IntegerAttr(lane, i32))).result
            offset = self.at_lane(b, op.offset, lane)
            width = self.at_lane(b, op.width, lane)
            mode = op.mode.data
            read, valid = shuffle_source(b, mode, at, offset, width, count32, one, warp)
            res = insert_at(b, res, extract_at(b, value, read), lane)  # type: ignore[arg-type]
            ok = insert_at(b, ok, valid, lane)  # type: ignore[arg-type]
        self.vals[op.res], self.vals[op.valid] = Lanes(res), Lanes(ok)

    # -- branches --

    def emit_if(self, b: Builder, op: scf.IfOp, active: SSAValue | None) -> None:
        cond = self.scalar(op.cond)
        if cond is not None:
            self.uniform_if(b, op, cond, active)
            return
        lane = lane_of(op.cond, self.item_id)
        if lane is not None and len(op.false_region.block.ops) == 1:
            self.single_lane(b, op, lane, active)
            return
        mask = self.vec(b, op.cond)
        ones = self.constant_vector(b, [1] * WARP, i1)
        taken = [
            self.both(b, active, mask),
            self.both(b, active, b.insert(llvm.XOrOp(mask, ones)).res),
        ]
        yielded = []
        for region, lanes in zip(op.regions, taken, strict=True):
            block = region.block
            self.emit_ops(b, list(block.ops)[:-1], lanes)
            yielded.append([v for v in block.last_op.operands if not is_token(v)])  # type: ignore[union-attr]
        reps: list[Rep] = []
        for then, other in zip(*yielded, strict=True):
            if self.vals[then] is self.vals[other]:
                reps.append(self.vals[then])
                continue
            reps.append(
                Lanes(b.insert(LaneSelectOp(mask, self.vec(b, then), self.vec(b, other))).res)
            )
        self.define(op, reps)

    def uniform_if(self, b: Builder, op: scf.IfOp, cond: SSAValue, active: SSAValue | None) -> None:
        blocks, yielded = [], []
        for region in op.regions:
            block = Block()
            inner = Builder(InsertPoint.at_end(block))
            self.emit_ops(inner, list(region.block.ops)[:-1], active)
            values = [v for v in region.block.last_op.operands if not is_token(v)]  # type: ignore[union-attr]
            blocks.append((block, inner))
            yielded.append(values)
        results = [r for r in op.results if not is_token(r)]
        scalar = [all(self.scalar(y[k]) is not None for y in yielded) for k in range(len(results))]
        for (_, inner), values in zip(blocks, yielded, strict=True):
            out = [
                self.scalar(v) if keep else self.vec(inner, v)
                for v, keep in zip(values, scalar, strict=True)
            ]
            inner.insert(scf.YieldOp(*out))  # type: ignore[arg-type]
        types = [
            r.type if keep else self.vector_type(r.type)
            for r, keep in zip(results, scalar, strict=True)
        ]
        new = b.insert(scf.IfOp(cond, types, Region(blocks[0][0]), Region(blocks[1][0])))
        self.define(
            op, [r if keep else Lanes(r) for r, keep in zip(new.results, scalar, strict=True)]
        )

    def emit_for(self, b: Builder, op: scf.ForOp, active: SSAValue | None) -> None:
        """A loop of the warp's bounds (`forms.LaneAnalysis`): one `scf.for`, each carried
        value a vector where the lanes' may differ (found by emitting its body until no
        scalar one gets a vector), else a scalar; tokens are the function's."""
        bounds = [self.scalar(v) for v in (op.lb, op.ub, op.step)]
        assert all(v is not None for v in bounds), "bounds of the warp (forms)"
        old = op.body.block
        carried = [k for k, v in enumerate(op.iter_args) if not is_token(v)]
        vector = {k: self.scalar(op.iter_args[k]) is None for k in carried}
        while True:
            body = Block(
                arg_types=[IndexType(), *(self.carried_type(op, k, vector) for k in carried)]
            )
            self.vals[old.args[0]] = body.args[0]
            for k, arg in zip(carried, body.args[1:], strict=True):
                self.vals[old.args[1 + k]] = Lanes(arg) if vector[k] else arg
            inner = Builder(InsertPoint.at_end(body))
            self.emit_ops(inner, list(old.ops)[:-1], active)
            yielded = old.last_op.operands  # type: ignore[union-attr]
            grown = [k for k in carried if not vector[k] and self.scalar(yielded[k]) is None]
            if not grown:
                break
            vector.update(dict.fromkeys(grown, True))
            body.erase(safe_erase=False)  # again, with those carried as vectors
        out = [
            self.vec(inner, yielded[k]) if vector[k] else self.scalar(yielded[k]) for k in carried
        ]
        inner.insert(scf.YieldOp(*out))  # type: ignore[arg-type]
        inits = [
            self.vec(b, op.iter_args[k]) if vector[k] else self.scalar(op.iter_args[k])
            for k in carried
        ]
        loop = b.insert(scf.ForOp(*bounds, inits, body))  # type: ignore[arg-type]
        reps: list[Rep] = []
        for k, result in zip(carried, loop.results, strict=True):
            reps.append(Lanes(result) if vector[k] else result)
        self.define(op, reps)

    def carried_type(self, op: scf.ForOp, k: int, vector: dict[int, bool]) -> Attribute:
        type_ = op.iter_args[k].type
        return self.vector_type(type_) if vector[k] else type_

    def single_lane(self, b: Builder, op: scf.IfOp, lane: int, active: SSAValue | None) -> None:
        """`if (lane == c)`: the then-branch once, as lane c's scalar code."""
        results = [r for r in op.results if not is_token(r)]
        then_ops = list(op.true_region.block.ops)
        others = [v for v in op.false_region.block.last_op.operands if not is_token(v)]  # type: ignore[union-attr]

        def emit(tb: Builder) -> list[SSAValue]:
            mapper = {v: self.at_lane(tb, v, lane) for v in external_values(then_ops)}
            for inner in then_ops[:-1]:
                if inner is self.deferred and self.acc_lanes is not None:  # `warp_total`
                    assert self.total_of is not None
                    self.acc_lanes = self.add(tb, self.acc_lanes, self.vec(tb, self.total_of))
                    mapper[inner.res_mem] = mapper[inner.mem]
                    continue
                if inner is self.deferred:  # into the group's sum (`deferred_atomic`)
                    assert self.acc is not None
                    self.acc = tb.insert(arith.AddiOp(self.acc, mapper[inner.value])).result
                    mapper[inner.res_mem] = mapper[inner.mem]
                    continue
                tb.insert(inner.clone(value_mapper=mapper))
            return [mapper[v] for v in then_ops[-1].operands if not is_token(v)]

        if active is None:  # a whole warp: lane c is there
            made: list[SSAValue] = emit(b)
        else:
            before = self.acc
            then = Block()
            tb = Builder(InsertPoint.at_end(then))
            yielded = emit(tb)
            summed = self.acc is not before
            tb.insert(scf.YieldOp(*yielded, *([self.acc] if summed else [])))
            other = Block()
            ob = Builder(InsertPoint.at_end(other))
            kept = [self.at_lane(ob, v, lane) for v in others]
            ob.insert(scf.YieldOp(*kept, *([before] if summed else [])))
            on = extract_at(b, active, lane)  # type: ignore[arg-type]
            types = [r.type for r in results] + ([before.type] if summed else [])  # type: ignore[union-attr]
            made = list(b.insert(scf.IfOp(on, types, Region(then), Region(other))).results)
            if summed:
                self.acc = made.pop()
        reps: list[Rep] = []
        for result, other_value in zip(made, others, strict=True):
            rest = self.vec(b, other_value)
            reps.append(Lanes(insert_at(b, rest, self.to_low(b, result), lane)))  # type: ignore[arg-type]
        self.define(op, reps)
