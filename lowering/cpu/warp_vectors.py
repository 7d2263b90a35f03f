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
`valid` vector; elsewhere (the partial warp, other offsets) a loop over the lanes reads each
lane's source (`gpuir.lowering.llvm.rules.shuffle_source`, with the warp's lane count). A
ballot is `bitcast <32 x i1> to i32` of the active lanes' predicates. Loads and stores at
`Stride` places are vector loads and stores (LLVM's masked ones under a mask), the others
and atomics a loop over the (active) lanes in lane order. An `scf.if` on a scalar stays one;
on `lane == c` its then-branch runs once, as lane c's scalar code; on another varying
condition both branches run under the lanes' masks and a `select` joins their values. Pure
ops without a vector form (`math` but `ctpop`, float compares and casts) are lane loops too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, math, scf
from xdsl.dialects.builtin import (
    I1,
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
from xdsl.irdl import (
    AnyAttr,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import PtrType
from gpuir.dialects.vector_ext import FromElementsOp
from gpuir.lowering.cpu.warps import multiple_of_warp
from gpuir.lowering.cpu.workgroups import (
    constant_index,
    external_values,
    index_constant,
    is_token,
    new_workgroup_function,
    takes_smem,
)
from gpuir.lowering.llvm.arith_to_llvm import (
    FLOAT_BINARY,
    INT_BINARY,
    MIN_MAX,
    WITH_OVERFLOW_FLAGS,
    fastmath,
    overflow_flags,
)
from gpuir.lowering.llvm.conversion import index_type, llvm_type, ptr_type, size_and_align
from gpuir.lowering.llvm.rules import shuffle_source
from gpuir.lowering.llvm.vector_to_llvm import extract_at, insert_at, shuffle, suffix

WARP = gpu.WARP
DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
INT_CASTS: dict[type[Operation], type[Operation]] = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.BitcastOp: llvm.BitcastOp,
}
"""The casts with a vector form here (float casts run as lane loops)."""


@irdl_op_definition
class LaneSelectOp(llvm.SelectOp):
    """`llvm.select` of a `vector<N x i1>` condition, lane by lane (xDSL's takes an `i1`)."""

    name = "llvm.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(VectorType.constr(I1))
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))
    traits = traits_def(Pure())
    assembly_format = None

    def verify_(self) -> None:
        return  # the fields above say it all (not xDSL's `llvm.select`'s verifier)


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


def lane_of(cond: SSAValue, item_id: SSAValue) -> int | None:
    """c where `cond` is `lane == c` (`lane` as `item_id % 32`, `cpu-workgroup-loops`' form of
    `gpu.lane_id`), either way round, with 0 <= c < 32."""
    op = cond.owner
    if not isinstance(op, arith.CmpiOp) or op.predicate.value.data != 0:  # eq
        return None
    for lane, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        c = constant_index(other)
        if is_lane_id(lane, item_id) and c is not None and 0 <= c < WARP:
            return c
    return None


def is_lane_id(value: SSAValue, item_id: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, arith.RemUIOp) and op.lhs is item_id and constant_index(op.rhs) == WARP


class WarpVectors:
    """The work-group function of a kernel that `forms.warp_vector_misfit` accepts."""

    def __init__(self, kernel: func.FuncOp):
        self.kernel = kernel
        self.entry = kernel.body.blocks[0]
        self.item_id = self.entry.args[5]
        self.index = index_type(kernel)
        self.vals: dict[SSAValue, Rep] = {}
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
        warp = index_constant(b, WARP)
        n_items = args[5]
        whole = b.insert(arith.DivUIOp(n_items, warp)).result
        body = Block(arg_types=[IndexType()])
        wb = Builder(InsertPoint.at_end(body))
        self.emit_warp(wb, wb.insert(arith.MuliOp(body.args[0], warp)).result, None)
        wb.insert(scf.YieldOp())
        b.insert(scf.ForOp(index_constant(b, 0), whole, index_constant(b, 1), [], body))
        done = b.insert(arith.MuliOp(whole, warp)).result
        rest = b.insert(arith.SubiOp(n_items, done)).result
        partial = b.insert(arith.CmpiOp(rest, index_constant(b, 0), "ne")).result
        tail = Block()
        tb = Builder(InsertPoint.at_end(tail))
        self.emit_warp(tb, done, rest)
        tb.insert(scf.YieldOp())
        b.insert(scf.IfOp(partial, [], Region(tail), Region(Block([scf.YieldOp()]))))
        b.insert(func.ReturnOp(*args[:4]))
        return function

    def emit_warp(self, b: Builder, first: SSAValue, count: SSAValue | None) -> None:
        """One warp from item `first`: all 32 lanes (`count` None) or the first `count`."""
        self.vals = dict(self.group)
        self.vals[self.item_id] = Stride(first, aligned=True)
        self.count = count
        active = None
        if count is not None:
            counts = self.splat(b, count)
            active = self.compare(b, "ult", self.iota(b, count.type), counts)
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

    def splat(self, b: Builder, scalar: SSAValue) -> SSAValue:
        low = self.to_low(b, scalar)
        poison = b.insert(llvm.UndefOp(VectorType(low.type, [WARP]))).res
        one = insert_at(b, poison, low, 0)  # type: ignore[arg-type]
        return shuffle(b, one, one, [0] * WARP)  # type: ignore[arg-type]

    def iota(self, b: Builder, type_: Attribute) -> SSAValue:
        """`<0, 1, …, 31>` of `type_` (lowered), once per block."""
        element = self.lowered(type_)
        key = (b.insertion_point.block, element)
        if key not in self.iotas:
            consts = [
                b.insert(llvm.ConstantOp(IntegerAttr(k, element), element)).result
                for k in range(WARP)
            ]
            made = b.insert(FromElementsOp(consts, VectorType(element, [WARP])))
            self.iotas[key] = made.results[0]
        return self.iotas[key]

    def constant_vector(self, b: Builder, values: list[int], element: Attribute) -> SSAValue:
        consts = [
            b.insert(llvm.ConstantOp(IntegerAttr(v, element), element)).result for v in values
        ]
        return b.insert(FromElementsOp(consts, VectorType(element, [WARP]))).results[0]

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
        found = self.vals[value]
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
        if kind in MIN_MAX and isinstance(op.results[0].type, IntegerType | IndexType):
            lhs, rhs = (self.vec(b, v) for v in op.operands)
            name = f"{MIN_MAX[kind]}.{suffix(lhs.type)}"  # type: ignore[arg-type]
            return b.insert(llvm.CallIntrinsicOp(name, [lhs, rhs], [lhs.type])).results[0]
        if isinstance(op, arith.CmpiOp):
            lhs, rhs = self.vec(b, op.lhs), self.vec(b, op.rhs)
            predicate = IntegerAttr(op.predicate.value.data, i64)
            return b.insert(llvm.ICmpOp(lhs, rhs, predicate)).res
        if isinstance(op, arith.SelectOp):
            cond, lhs, rhs = (self.vec(b, v) for v in op.operands)
            return b.insert(LaneSelectOp(cond, lhs, rhs)).res
        if kind in INT_CASTS or isinstance(op, arith.IndexCastOp):
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
        if kind in INT_CASTS:
            return b.insert(INT_CASTS[kind](value, target)).results[0]  # type: ignore[call-arg]
        width = value.type.element_type.width.data  # type: ignore[attr-defined]
        if width > target.element_type.width.data:  # type: ignore[attr-defined]
            return b.insert(llvm.TruncOp(value, target)).res
        extend = llvm.SExtOp
        return b.insert(extend(value, target)).res

    def per_lane(self, b: Builder, op: Operation, active: SSAValue | None) -> None:
        """`op` for each (active) lane in turn, its results put together lane by lane."""
        results = [r for r in op.results if not is_token(r)]
        types = [self.vector_type(r.type) for r in results]
        inits = [self.splat(b, self.zero(b, r.type)) for r in results]
        body = Block(arg_types=[IndexType(), *types])
        lb = Builder(InsertPoint.at_end(body))
        lane = body.args[0]
        made = self.lane_region(lb, lambda ib: self.clone_at(ib, op, lane), active, lane, results)
        low = self.to_low(lb, lane)
        out = [
            insert_at(lb, v, self.to_low(lb, m), low)
            for v, m in zip(body.args[1:], made, strict=True)
        ]  # type: ignore[arg-type]
        lb.insert(scf.YieldOp(*out))
        c0, c32, c1 = (index_constant(b, k) for k in (0, WARP, 1))
        loop = b.insert(scf.ForOp(c0, c32, c1, inits, body))
        self.define(op, [Lanes(r) for r in loop.results])

    def lane_region(self, b, emit, active, lane, results) -> list[SSAValue]:
        """`emit(builder)` (which returns scalars of `results`' types) where lane `lane` is
        active: under an `scf.if` on its bit of `active`, zeros where it is not."""
        if active is None:
            return emit(b)
        on = extract_at(b, active, self.to_low(b, lane) if isinstance(lane, SSAValue) else lane)  # type: ignore[arg-type]
        then = Block()
        tb = Builder(InsertPoint.at_end(then))
        tb.insert(scf.YieldOp(*emit(tb)))
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

    def contiguous(self, b: Builder, place: Rep) -> tuple[SSAValue, Attribute, int] | None:
        """The llvm pointer to lane 0's element, its element type and alignment, where a
        `Place` is lane-contiguous (its index a `Stride`) and its elements vectorize."""
        if not isinstance(place, Place) or not isinstance(place.index, Stride):
            return None
        assert isinstance(place.type_, PtrType)
        element = place.type_.pointee
        if not isinstance(element, IntegerType | IndexType) and element.name not in (
            "f16",
            "f32",
            "f64",
        ):
            return None
        first = b.insert(mem.LeaOp(place.base, place.index.first)).res
        pointer = ptr_type(place.type_.space.data)
        address = b.insert(UnrealizedConversionCastOp.get([first], [pointer])).results[0]
        _, align = size_and_align(element, first.owner)  # type: ignore[arg-type]
        return address, element, align

    def emit_load(self, b: Builder, op: mem.LoadOp, active: SSAValue | None) -> None:
        place = self.vals[op.ptr]
        if isinstance(place, SSAValue) and active is None:
            self.clone_scalar(b, op)
            return
        found = self.contiguous(b, place)
        if found is None:
            self.per_lane(b, op, active)
            return
        address, element, align = found
        vector = VectorType(llvm_type(element, i64), [WARP])  # in memory, an index is an i64
        if active is None:
            made = b.insert(llvm.LoadOp(address, vector, align)).dereferenced_value
        else:
            name = f"llvm.masked.load.{suffix(vector)}.p{op.ptr.type.space.data}"  # type: ignore[attr-defined]
            keep = self.splat(b, self.zero(b, element))
            at = b.insert(llvm.ConstantOp(IntegerAttr(align, i32), i32)).result
            call = llvm.CallIntrinsicOp(name, [address, at, active, keep], [vector])
            made = b.insert(call).results[0]
        if made.type != self.vector_type(element):  # a 32-bit index
            made = b.insert(llvm.TruncOp(made, self.vector_type(element))).res
        self.vals[op.res] = Lanes(made)

    def emit_store(self, b: Builder, op: mem.StoreOp, active: SSAValue | None) -> None:
        place = self.vals[op.ptr]
        if isinstance(place, SSAValue) and self.scalar(op.value) is not None and active is None:
            self.clone_scalar(b, op)
            return
        found = self.contiguous(b, place)
        if found is None:
            self.per_lane(b, op, active)
            return
        address, element, align = found
        value = self.vec(b, op.value)
        memory = VectorType(llvm_type(element, i64), [WARP])
        if value.type != memory:  # a 32-bit index is an i64 in memory
            value = b.insert(llvm.SExtOp(value, memory)).res
        if active is None:
            b.insert(llvm.StoreOp(value, address, align))
            return
        name = f"llvm.masked.store.{suffix(memory)}.p{op.ptr.type.space.data}"  # type: ignore[attr-defined]
        at = b.insert(llvm.ConstantOp(IntegerAttr(align, i32), i32)).result
        b.insert(llvm.CallIntrinsicOp(name, [value, address, at, active], []))

    def emit_shuffle(self, b: Builder, op: gpu.ShuffleOp) -> None:
        offset, width = constant_index(op.offset), constant_index(op.width)
        value = self.vec(b, op.value)
        if self.count is None and offset is not None and width is not None:
            mode = op.mode.data
            reads = [gpu.shuffle_source(mode, lane, offset, width, WARP) for lane in range(WARP)]
            sources = [lane if read is None else read for lane, read in enumerate(reads)]
            self.vals[op.res] = Lanes(shuffle(b, value, value, sources))  # type: ignore[arg-type]
            flags = [int(read is not None) for read in reads]
            self.vals[op.valid] = Lanes(self.constant_vector(b, flags, i1))
            return
        count = self.count if self.count is not None else index_constant(b, WARP)
        self.general_shuffle(b, op, value, count)

    def general_shuffle(
        self, b: Builder, op: gpu.ShuffleOp, value: SSAValue, count: SSAValue
    ) -> None:
        """Each lane's source and `valid` by `rules.shuffle_source` (any offset and width, any
        lane count), the value read from the lanes' vector."""
        types = [value.type, VectorType(i1, [WARP])]
        inits = [value, self.constant_vector(b, [0] * WARP, i1)]
        body = Block(arg_types=[IndexType(), *types])
        lb = Builder(InsertPoint.at_end(body))
        lane, res, ok = body.args
        as_i32 = [lb.insert(arith.IndexCastOp(v, i32)).result for v in (lane, count)]
        offset = self.at_lane(lb, op.offset, lane)
        width = self.at_lane(lb, op.width, lane)
        one, warp = (lb.insert(arith.ConstantOp(IntegerAttr(k, i32))).result for k in (1, WARP))
        read, valid = shuffle_source(
            lb, op.mode.data, as_i32[0], offset, width, as_i32[1], one, warp
        )
        low = self.to_low(lb, lane)
        got = extract_at(lb, value, read)  # type: ignore[arg-type]
        lb.insert(scf.YieldOp(insert_at(lb, res, got, low), insert_at(lb, ok, valid, low)))  # type: ignore[arg-type]
        c0, c32, c1 = (index_constant(b, k) for k in (0, WARP, 1))
        loop = b.insert(scf.ForOp(c0, c32, c1, inits, body))
        self.vals[op.res], self.vals[op.valid] = Lanes(loop.results[0]), Lanes(loop.results[1])

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

    def single_lane(self, b: Builder, op: scf.IfOp, lane: int, active: SSAValue | None) -> None:
        """`if (lane == c)`: the then-branch once, as lane c's scalar code."""
        results = [r for r in op.results if not is_token(r)]
        then_ops = list(op.true_region.block.ops)
        others = [v for v in op.false_region.block.last_op.operands if not is_token(v)]  # type: ignore[union-attr]

        def emit(tb: Builder) -> list[SSAValue]:
            mapper = {v: self.at_lane(tb, v, lane) for v in external_values(then_ops)}
            for inner in then_ops[:-1]:
                tb.insert(inner.clone(value_mapper=mapper))
            return [mapper[v] for v in then_ops[-1].operands if not is_token(v)]

        if active is None:  # a whole warp: lane c is there
            made: list[SSAValue] = emit(b)
        else:
            then = Block()
            tb = Builder(InsertPoint.at_end(then))
            tb.insert(scf.YieldOp(*emit(tb)))
            other = Block()
            ob = Builder(InsertPoint.at_end(other))
            ob.insert(scf.YieldOp(*(self.at_lane(ob, v, lane) for v in others)))
            on = extract_at(b, active, lane)  # type: ignore[arg-type]
            types = [r.type for r in results]
            made = list(b.insert(scf.IfOp(on, types, Region(then), Region(other))).results)
        reps: list[Rep] = []
        for result, other_value in zip(made, others, strict=True):
            rest = self.vec(b, other_value)
            reps.append(Lanes(insert_at(b, rest, self.to_low(b, result), lane)))  # type: ignore[arg-type]
        self.define(op, reps)


def is_pure_op(op: Operation) -> bool:
    """An `arith` or `math` op without tokens, or `mem.lea`."""
    if any(is_token(v) for v in (*op.operands, *op.results)):
        return False
    return op.dialect_name() in ("arith", "math") or isinstance(op, mem.LeaOp)
