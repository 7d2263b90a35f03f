"""The importer's kernels: each `gpu.func … kernel`, and each `gpu.launch` body outlined, as a
gpuir kernel (its parameters, ids and sizes, workgroup and private attributions:
`KernelImporter.kernel`), and the ops a kernel imports (`KERNEL_OPS`: the shared ones and ids,
`gpu.barrier`, `memref.alloca` as a slot, `gpu.all_reduce`, `gpu.shuffle`,
`gpu.subgroup_reduce`, `cf.assert`, `gpu.printf`, calls of the gpu.module's other functions,
inlined).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, builtin, cf, func, memref, printf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    CallSiteLoc,
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS, WARP
from gpuir.dialects.gpu.printf import C_CONVERSION, FLOAT_CONVERSIONS, CSpec
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.ir.data_layout import size_of
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.amdgpu_ops import AMDGPU_IMPORTS, targets_rocm
from gpuir.ir.upstream.common import (
    COMBINE_KINDS,
    SHARED_OPS,
    Linear,
    OpTable,
    Ref,
    Scope,
    View,
    find_global,
    index,
    pointee_of,
    store_global,
    unsupported,
)
from gpuir.ir.upstream.mma_ops import MMA_IMPORTS
from gpuir.ir.upstream.parallel import PARALLEL_OPS
from gpuir.ir.upstream.strided import STRIDED_OPS
from gpuir.ir.upstream.vectors import VECTOR_OPS, VectorImporter

KERNEL_SPACES = (1, 3, 4, 5)


REDUCE_KINDS = {
    "add": "add",
    "mul": "mul",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "minsi": "min",
    "maxsi": "max",
    "minui": "umin",
    "maxui": "umax",
    "minnumf": "minnum",
    "maxnumf": "maxnum",
    "minimumf": "min",
    "maximumf": "max",
}
"""`gpu.all_reduce`'s kinds as `gpu.workgroup_reduce`'s, whose min and max are signed, and whose
float min and max propagate NaNs (`minimumf`, `maximumf`): `umin` and `umax` reduce with the top
bit flipped (the unsigned order is the signed order of the flipped values); `minnum` and `maxnum`
(`minnumf`, `maxnumf`: a NaN loses to a number) reduce the floats' bits as ordered integers, a
NaN as the integer that loses (`KernelImporter.num_reduce`)."""


REGION_KINDS = {
    "arith.addf": "add",
    "arith.addi": "add",
    "arith.mulf": "mul",
    "arith.muli": "mul",
    "arith.andi": "and",
    "arith.ori": "or",
    "arith.xori": "xor",
    "arith.maxsi": "max",
    "arith.maxnumf": "maxnum",
    "arith.maximumf": "max",
    "arith.minsi": "min",
    "arith.minui": "umin",
    "arith.maxui": "umax",
    "arith.minnumf": "minnum",
    "arith.minimumf": "min",
}
"""The one op of a `gpu.all_reduce` region that gpuir's kinds cover."""


def assert_place(where: Attribute, function: str) -> tuple[str, int, str]:
    """The file, line and function a failed `cf.assert` names, as MLIR's NVVM lowering finds
    them in its location: the callee of a call site (innermost first), a name location's name
    and place, a file location's place; `(unknown)`, 0 and the kernel's name otherwise."""
    while isinstance(where, CallSiteLoc):
        where = where.callee
    if isinstance(where, NameLoc):
        function, where = where.desc.data, where.location
    if isinstance(where, FileLineColLoc):
        return where.filename.data, where.line.data, function
    return "(unknown)", 0, function


def inner_extents(pointer: PtrType) -> list[int]:
    """The static extents below the outermost of a memref's pointer (`pointee_of`'s arrays)."""
    extents = []
    inner = pointer.pointee
    if isinstance(inner, ArrayType):
        inner = inner.element_type
        while isinstance(inner, ArrayType):
            extents.append(inner.size.data)
            inner = inner.element_type
    return extents


def space_of(type_: MemRefType, default: int, op: Operation) -> int:
    found = type_.memory_space
    if isinstance(found, NoneAttr):
        return default
    if isinstance(found, gpu_ops.AddressSpaceAttr):
        return gpu_ops.ADDRESS_SPACES[found.space.data]
    if isinstance(found, IntegerAttr) and found.value.data in (0, 1, 3, 5):
        return found.value.data
    raise unsupported(op, f"of memory space {found}")


def known_sizes(op: gpu_ops.FuncOp) -> dict[str, tuple[int, ...]]:
    """A kernel's `known_grid_size` and `known_block_size` (MLIR's `array<i32: x, y, z>`), as
    "grid" and "block"; an error at the kernel where one is not three sizes of at least 1."""
    found: dict[str, tuple[int, ...]] = {}
    for kind in ("grid", "block"):
        attr = op.attributes.get(f"known_{kind}_size")
        if attr is None:
            continue
        sizes = tuple(attr.get_values()) if isinstance(attr, DenseArrayBase) else ()
        if (
            not isinstance(attr, DenseArrayBase)
            or attr.elt_type != IntegerType(32)
            or len(sizes) != 3
            or min(sizes) < 1
        ):
            raise unsupported(
                op,
                f"expects known_{kind}_size to be array<i32: x, y, z> of sizes of at least 1, "
                f"found {attr}",
            )
        found[kind] = tuple(int(v) for v in sizes)
    return found


def shared_pointee(body: Region) -> Attribute | None:
    """The pointee of a kernel's dynamic shared memory, as gpuir's launch gives it
    (`!mem.array<? x T>`): that of the memrefs its `gpu.dynamic_shared_memory` bytes are viewed
    as (`memref.view`, all of one element type and inner shape); None when it has none."""
    found: tuple[Attribute, Attribute] | None = None
    for op in body.walk():
        for k, operand in enumerate(op.operands):
            if not isinstance(operand.owner, gpu_ops.DynamicSharedMemoryOp):
                continue
            if not isinstance(op, memref.ViewOp) or k != 0:
                raise unsupported(
                    op,
                    "of gpu.dynamic_shared_memory's bytes is not supported (yet): only "
                    "memref.view of them",
                )
            type_ = op.result.type
            assert isinstance(type_, MemRefType)
            if not type_.get_shape():
                raise unsupported(op, f"to {type_}: a view of shared memory has a rank")
            pointee = pointee_of(type_, op)
            if found is not None and found[0] != pointee:
                raise unsupported(
                    op,
                    f"to {type_}: a kernel's dynamic shared memory has one element type and "
                    f"inner shape in gpuir, and {found[1]} has another",
                )
            found = found or (pointee, type_)
    return None if found is None else found[0]


def region_kind(op: gpu_ops.AllReduceOp) -> str | None:
    """The kind of a `gpu.all_reduce` whose region combines its two arguments with one op of
    `REGION_KINDS` and yields the result; None for any other region."""
    if len(op.body.blocks) != 1:
        return None
    block = op.body.blocks[0]
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2 or not isinstance(ops[1], gpu_ops.YieldOp):
        return None
    combine, done = ops
    if set(combine.operands) != set(block.args) or len(combine.operands) != 2:
        return None
    if list(done.operands) != list(combine.results):
        return None
    return REGION_KINDS.get(combine.name)


class KernelImporter(VectorImporter):
    """The importer's kernels (module docstring)."""

    def __init__(self, source: builtin.ModuleOp):
        super().__init__(source)
        self.kernel_names: dict[tuple[str, str], str] = {}
        """Each kernel's name in the program made, by its gpu.module's name and its own."""
        self.device_functions: dict[str, Operation] = {}
        """The functions of the gpu.module being read that are not kernels: inlined too."""
        self.main_op: func.FuncOp | None = None
        """@main once it is made: an outlined gpu.launch's kernel goes before it."""
        self.smem_kernels: dict[str, Attribute] = {}
        """The pointee of each kernel's dynamic shared memory (`shared_pointee`), by its name in
        the program made: its launches give it."""
        self.known_sizes: dict[str, dict[str, tuple[int, ...]]] = {}
        """A kernel's `known_grid_size` / `known_block_size` ("grid", "block"), by its name in
        the program made: its launches check them."""
        self.rocm = False
        """Whether the kernel being read is compiled for ROCm (`targets_rocm`): its failed
        asserts are reported in ROCm's words."""

    def kernel(
        self,
        body: Region,
        params: Sequence[SSAValue],
        name: str,
        op: Operation,
        region_ids: bool = False,
        pointers: dict[SSAValue, Attribute] | None = None,
    ) -> None:
        """A kernel `name` from `body`, whose values `params` become its arguments (its entry
        block's arguments for a gpu.func; the captured values of a gpu.launch, whose entry
        arguments are then its ids and sizes)."""
        entry = body.blocks[0]
        self.rocm = targets_rocm(op)
        index_t = IndexType()
        shared = shared_pointee(body)
        smem = [] if shared is None else [PtrType(shared, 3)]
        inputs: list[Attribute] = [*KERNEL_TOKENS, index_t, index_t, *smem, *[index_t] * 6]
        kinds: list[tuple[SSAValue, PtrType | None]] = []
        workgroup = private = 0
        if isinstance(op, gpu_ops.FuncOp):
            workgroup, private = op.n_workgroup.data, op.n_private.data
            params = list(entry.args[: len(entry.args) - workgroup - private])
        for param in params:
            type_ = param.type
            if isinstance(type_, MemRefType):
                found = (pointers or {}).get(param)
                pointer = found if isinstance(found, PtrType) else PtrType(pointee_of(type_, op), 1)
                inputs += [pointer, index_t]
                kinds.append((param, pointer))
            elif isinstance(type_, UnrankedMemRefType):
                raise unsupported(op, "taking an unranked memref is not supported")
            else:
                inputs.append(type_)
                kinds.append((param, None))
        block = Block(arg_types=inputs)
        b = Builder(InsertPoint.at_end(block))
        args = list(block.args)
        hints = ["m1", "m3", "m4", "m5", "group", "item", *(["smem"] if smem else [])]
        hints += [f"{k}_{d}" for k in ("grid", "block") for d in gpu_ops.DIMENSIONS]
        for param, type_ in kinds:
            hint = param.name_hint or "arg"
            hints += [hint, f"{hint}_extent"] if type_ is not None else [hint]
        for arg, hint in zip(args, hints, strict=True):
            arg.name_hint = hint
        s = Scope(KERNEL_SPACES, KERNEL_OPS, dict(zip(KERNEL_SPACES, args[:4], strict=True)))
        group, item = args[4], args[5]
        args = [*args[:6], *args[6 + len(smem) :]]  # the shared pointer: its memref.views'
        grid, dims = args[6:9], args[9:12]
        rest = iter(args[12:])
        if shared is not None:
            self.smem_kernels[name] = shared
            for inner in body.walk():
                if isinstance(inner, gpu_ops.DynamicSharedMemoryOp):
                    s.refs[inner.result] = Ref(block.args[6], [], 3)
        for param, type_ in kinds:
            if type_ is None:
                s.values[param] = next(rest)
                continue
            ptr, extent = next(rest), next(rest)
            inner = inner_extents(type_)
            made = (
                [extent, *(index(b, d) for d in inner)]
                if isinstance(type_.pointee, ArrayType)
                else []
            )
            # a memref<T> given a memory (an extract_strided_metadata's base buffer): its base
            rank0 = not param.type.get_shape()  # type: ignore[attr-defined]
            s.refs[param] = Ref(ptr, made, 1, view=Linear(0, []) if made and rank0 else None)
        known = known_sizes(op) if isinstance(op, gpu_ops.FuncOp) else {}
        if known:
            self.known_sizes[name] = known
        for d in range(3):  # a known size is a constant, so that what depends on it folds
            for kind, given in (("grid", grid), ("block", dims)):
                sizes = known.get(kind)
                s.ids[(kind, d)] = given[d] if sizes is None else index(b, sizes[d])
        s.ids.update(self.ids(b, group, [s.ids[("grid", d)] for d in range(3)], "group"))
        s.ids.update(self.ids(b, item, [s.ids[("block", d)] for d in range(3)], "thread"))
        if region_ids:  # gpu.launch: block ids, thread ids, grid sizes, block sizes
            order = [("group", 0), ("group", 1), ("group", 2), ("thread", 0), ("thread", 1)]
            order += [("thread", 2), *(("grid", d) for d in range(3))]
            order += [("block", d) for d in range(3)]
            for arg, key in zip(entry.args, order, strict=False):
                s.values[arg] = s.ids[key]
            for d, arg in enumerate(entry.args[12:15]):  # clusters of 1x1x1: a block each
                s.values[arg] = s.ids[("group", d)]
            for arg in entry.args[15:]:
                s.values[arg] = index(b, 1)
        for k, arg in enumerate(entry.args[len(params) : len(params) + workgroup + private]):
            space = 3 if k < workgroup else 5
            self.slot(op, arg, space, b, s)
        function = func.FuncOp(
            name, FunctionType.from_lists(inputs, list(KERNEL_TOKENS)), Region(block)
        )
        function.location = op.location
        s.function = function
        if self.main_op is None:
            self.out.body.block.add_op(function)
        else:  # an outlined gpu.launch: before @main, as the kernels of gpu.modules are
            self.out.body.block.insert_op_before(function, self.main_op)
        self.blocks(body, block, b, s)

    def ids(self, b: Builder, flat: SSAValue, sizes: Sequence[SSAValue], kind: str):
        x = b.insert(arith.RemUIOp(flat, sizes[0])).result
        rest = b.insert(arith.DivUIOp(flat, sizes[0])).result
        y = b.insert(arith.RemUIOp(rest, sizes[1])).result
        z = b.insert(arith.DivUIOp(rest, sizes[1])).result
        return {(kind, 0): x, (kind, 1): y, (kind, 2): z}

    def slot(self, op: Operation, value: SSAValue, space: int, b: Builder, s: Scope) -> None:
        type_ = value.type
        if not isinstance(type_, MemRefType) or DYNAMIC_INDEX in type_.get_shape():
            raise unsupported(op, f"with an attribution of type {type_}")
        shape = list(type_.get_shape())
        pointee: Attribute = type_.element_type
        for extent in reversed(shape):
            pointee = ArrayType(extent, pointee)
        made = b.insert(mem.SlotOp(s.tokens[space], PtrType(pointee, space)))
        s.tokens[space] = made.results[0]
        ptr = made.results[1]  # its static type: a slot is never a launch's argument
        ptr.name_hint = value.name_hint
        s.refs[value] = Ref(ptr, [index(b, d) for d in shape], space)

    def kernel_return(self, op: gpu_ops.ReturnOp, b: Builder, s: Scope) -> None:
        """`gpu.return`: the end of a device function being inlined, or of the kernel."""
        if self.inlined:
            self.return_from_inlined(op, b, s)
        else:
            self.end_kernel(op, b, s)

    def end_kernel(self, op: Operation, b: Builder, s: Scope) -> None:
        """`gpu.return` or `gpu.terminator` (of a gpu.launch): the kernel returns its tokens."""
        if op.operands:
            raise unsupported(op, "with values is not supported")
        b.insert(func.ReturnOp(*(s.tokens[t] for t in KERNEL_SPACES)))

    def inlined_return(self, op: func.ReturnOp, b: Builder, s: Scope) -> None:
        """`return`: the end of a device function being inlined (a kernel ends with
        `gpu.return`)."""
        if not self.inlined:
            raise unsupported(op)
        self.return_from_inlined(op, b, s)

    def kernel_call(self, op: func.CallOp, b: Builder, s: Scope) -> None:
        """A call of another function of the gpu.module: its body, inlined."""
        callee = self.device_functions.get(op.callee.root_reference.data)
        if callee is None:
            raise unsupported(
                op, f"of @{op.callee.root_reference.data} in a kernel is not supported (yet)"
            )
        self.inline(op, callee, b, s)

    def id_op(self, op: gpu_ops.IdOp, b: Builder, s: Scope) -> None:
        """The ids and sizes; a cluster's as in clusters of 1x1x1 (the only ones launched):
        a cluster is a block."""
        kind = {
            "gpu.thread_id": "thread",
            "gpu.block_id": "group",
            "gpu.block_dim": "block",
            "gpu.grid_dim": "grid",
            "gpu.cluster_id": "group",
            "gpu.cluster_dim": "grid",
        }.get(op.name)
        d = gpu_ops.id_dimension(op)
        if op.name in ("gpu.cluster_block_id", "gpu.cluster_dim_blocks"):
            s.values[op.results[0]] = index(b, 0 if op.name == "gpu.cluster_block_id" else 1)
        elif kind is not None:
            s.values[op.results[0]] = s.ids[(kind, d)]
        else:  # gpu.global_id
            base = b.insert(arith.MuliOp(s.ids[("group", d)], s.ids[("block", d)])).result
            s.values[op.results[0]] = b.insert(arith.AddiOp(base, s.ids[("thread", d)])).result

    def shared_memory(self, op: gpu_ops.DynamicSharedMemoryOp, b: Builder, s: Scope) -> None:
        """`gpu.dynamic_shared_memory`: the kernel's shared pointer (made at its entry)."""
        if op.result not in s.refs:
            raise unsupported(op, "in a function called from a kernel is not supported (yet)")

    def view(self, op: memref.ViewOp, b: Builder, s: Scope) -> None:
        """`memref.view` of the dynamic shared memory's bytes: the shared pointer (whose pointee
        is the view's type), from the element at the byte shift."""
        source = s.refs.get(op.source)
        if source is None or not isinstance(op.source.owner, gpu_ops.DynamicSharedMemoryOp):
            raise unsupported(op, "of memory other than gpu.dynamic_shared_memory's (yet)")
        type_ = op.result.type
        assert isinstance(type_, MemRefType) and isinstance(source.ptr.type, PtrType)
        pointee = source.ptr.type.pointee
        assert isinstance(pointee, ArrayType)
        row = size_of(pointee.element_type)
        sizes = iter(self.mapped(op, list(op.sizes), s))
        shape = type_.get_shape()
        dims = [next(sizes) if d == DYNAMIC_INDEX else index(b, d) for d in shape]
        (shift,) = self.mapped(op, [op.byte_shift], s)
        known = shift.owner.value if isinstance(shift.owner, arith.ConstantOp) else None
        if isinstance(known, IntegerAttr) and known.value.data % row:
            raise unsupported(
                op,
                f"at byte {known.value.data}: a view of shared memory starts at a multiple of "
                f"its element's (or row's) {row} bytes",
            )
        offset: SSAValue | int = (
            known.value.data // row
            if isinstance(known, IntegerAttr)
            else b.insert(arith.DivUIOp(shift, index(b, row))).result
        )
        view = None if offset == 0 else View([offset, *[0] * (len(shape) - 1)], [1] * len(shape))
        s.refs[op.result] = Ref(source.ptr, dims, 3, view=view)

    def lane_id(self, op: gpu_ops.LaneIdOp, b: Builder, s: Scope) -> None:
        s.values[op.results[0]] = b.insert(gpu.LaneIdOp()).results[0]

    def barrier(self, op: gpu_ops.BarrierOp, b: Builder, s: Scope) -> None:
        done = b.insert(gpu.SyncWorkItemsOp(s.tokens[1], s.tokens[3]))
        s.tokens[1], s.tokens[3] = done.results

    def shuffle(self, op: gpu_ops.ShuffleOp, b: Builder, s: Scope) -> None:
        value, offset, width = self.mapped(op, op.operands, s)
        made = gpu.ShuffleOp(op.mode.data, s.tokens[1], s.tokens[3], value, offset, width)
        s.tokens[1], s.tokens[3], result, valid = b.insert(made).results
        result.name_hint, valid.name_hint = op.results[0].name_hint, op.results[1].name_hint
        s.values[op.results[0]], s.values[op.results[1]] = result, valid

    def alloca(self, op: memref.AllocaOp, b: Builder, s: Scope) -> None:
        """`memref.alloca` in a kernel: a slot (private memory unless the memref says)."""
        if op.dynamic_sizes:
            raise unsupported(op, "of a dynamic size in a kernel is not supported (yet)")
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        self.slot(op, op.memref, space_of(type_, 5, op), b, s)

    def kernel_global(self, op: memref.GetGlobalOp, b: Builder, s: Scope) -> None:
        """`memref.get_global` in a kernel, of a constant memref.global (`find_global`): a
        private array of its elements, stored where the op is."""
        name = op.name_.root_reference.data
        found = find_global(op, name)
        if found is None:
            raise OpError(op, f"importing upstream MLIR: no memref.global {op.name_}")
        if found.constant is None:
            raise unsupported(
                op, f"of @{name}, which is not constant, is not supported in a kernel (yet)"
            )
        self.slot(found, op.memref, 5, b, s)
        store_global(found, s.refs[op.memref].ptr, 5, b, s)

    def all_reduce(self, op: gpu_ops.AllReduceOp, b: Builder, s: Scope) -> None:
        """`gpu.all_reduce` of a kind of `REDUCE_KINDS`, or of a region of `REGION_KINDS`: a
        `gpu.workgroup_reduce`."""
        kind = REDUCE_KINDS.get(op.kind.data) if op.kind.data else region_kind(op)
        if kind is None:
            why = "in this region form" if not op.kind.data else f"of kind {op.kind.data}"
            raise unsupported(op, f"{why} is not supported (yet)")
        (value,) = self.mapped(op, op.operands, s)
        if kind in ("minnum", "maxnum"):
            if not isinstance(value.type, AnyFloat):
                raise unsupported(op, f"of kind {kind}f on {value.type}: only on floats")
            result = self.num_reduce("min" if kind == "minnum" else "max", value, b, s)
            result.name_hint = op.results[0].name_hint
            s.values[op.results[0]] = result
            return
        flip = None
        if kind in ("umin", "umax"):  # unsigned order: signed order with the top bit flipped
            width = 64 if isinstance(value.type, IndexType) else value.type.width.data  # type: ignore[attr-defined]
            top = IntegerAttr(-(1 << (width - 1)), value.type)  # type: ignore[arg-type]
            flip = b.insert(arith.ConstantOp(top)).result
            value = b.insert(arith.XOrIOp(value, flip)).result
            kind = kind[1:]
        done = b.insert(gpu.WorkgroupReduceOp(kind, s.tokens[1], s.tokens[3], value))
        s.tokens[1], s.tokens[3], result = done.results
        if flip is not None:
            result = b.insert(arith.XOrIOp(result, flip)).result
        s.values[op.results[0]] = result

    def num_reduce(self, kind: str, value: SSAValue, b: Builder, s: Scope) -> SSAValue:
        """`minnumf` / `maxnumf` (`kind` "min" / "max") over the work-group, whose NaNs lose to
        any number: one `gpu.workgroup_reduce` of signed integer keys. A float's key is its bits
        with the magnitude bits flipped when the sign is set (`bits ^ ((bits >> (w - 1)) &
        (2^(w-1) - 1))`: -inf < … < -0 < +0 < … < +inf in the signed order, the map its own
        inverse); a NaN's is the largest integer for min, the smallest for max, so that it wins
        only when every item's value is a NaN, when the result is the type's quiet NaN."""
        type_ = value.type
        assert isinstance(type_, AnyFloat)
        width = type_.bitwidth
        int_type = IntegerType(width)

        def constant(n: int) -> SSAValue:
            return b.insert(arith.ConstantOp(IntegerAttr(n, int_type))).result

        shift, low = constant(width - 1), constant((1 << (width - 1)) - 1)

        def flip(bits: SSAValue) -> SSAValue:
            sign = b.insert(arith.ShRSIOp(bits, shift)).result
            magnitude = b.insert(arith.AndIOp(sign, low)).result
            return b.insert(arith.XOrIOp(bits, magnitude)).result

        key = flip(b.insert(arith.BitcastOp(value, int_type)).result)
        nan_key = constant((1 << (width - 1)) - 1 if kind == "min" else -(1 << (width - 1)))
        is_nan = b.insert(arith.CmpfOp(value, value, "uno")).result
        key = b.insert(arith.SelectOp(is_nan, nan_key, key)).result
        done = b.insert(gpu.WorkgroupReduceOp(kind, s.tokens[1], s.tokens[3], key))
        s.tokens[1], s.tokens[3], total = done.results
        number = b.insert(arith.BitcastOp(flip(total), type_)).result
        all_nan = b.insert(arith.CmpiOp(total, nan_key, "eq")).result
        nan = b.insert(arith.ConstantOp(FloatAttr(math.nan, type_))).result
        return b.insert(arith.SelectOp(all_nan, nan, number)).result

    def subgroup_reduce(self, op: gpu_ops.SubgroupReduceOp, b: Builder, s: Scope) -> None:
        """`gpu.subgroup_reduce`: a tree of `gpu.shuffle down` within the cluster (the warp,
        or `cluster(size = n)` lanes of it) that combines into its first lane, skipping the
        lanes that do not exist (a group's last warp may be partial), then `gpu.shuffle idx`
        of that lane to every lane. A value of fewer than 32 or 64 bits (`f16`, `i8`, …) is
        shuffled as its bits zero-extended to `i32` or `i64`, as MLIR's lowering does."""
        combine = COMBINE_KINDS.get(op.kind.data)
        if combine is None:
            raise unsupported(op, f"of kind {op.kind.data} is not supported (yet)")
        if op.cluster_stride is not None and op.cluster_stride.value.data != 1:
            raise unsupported(op, "with a cluster stride is not supported (yet)")
        size = WARP if op.cluster_size is None else op.cluster_size.value.data
        if size < 1 or size > WARP or size & (size - 1):
            raise unsupported(op, f"of clusters of {size} lanes: a power of 2 up to {WARP}")
        (value,) = self.mapped(op, [op.value], s)
        type_ = value.type
        if not isinstance(type_, IntegerType | IndexType | AnyFloat):
            raise unsupported(op, f"of {type_}: only of a scalar")
        bits = None if isinstance(type_, IndexType) else type_.bitwidth
        if bits is not None and bits > 64:
            raise unsupported(op, f"of {type_}: only of a scalar of 64 bits or fewer")
        bits_type = None if bits is None else IntegerType(bits)
        word = None if bits in (None, 32, 64) else IntegerType(32 if bits < 32 else 64)

        def i32(n: int) -> SSAValue:
            return b.insert(arith.ConstantOp(IntegerAttr(n, 32))).result

        def shuffle(mode: str, value: SSAValue, offset: int) -> tuple[SSAValue, SSAValue]:
            """The shuffled value and whether it is valid."""
            if word is not None and bits_type is not None:
                if isinstance(type_, AnyFloat):
                    value = b.insert(arith.BitcastOp(value, bits_type)).result
                value = b.insert(arith.ExtUIOp(value, word)).result
            made = gpu.ShuffleOp(mode, s.tokens[1], s.tokens[3], value, i32(offset), width)
            s.tokens[1], s.tokens[3], other, valid = b.insert(made).results
            if word is not None and bits_type is not None:
                other = b.insert(arith.TruncIOp(other, bits_type)).result
                if isinstance(type_, AnyFloat):
                    other = b.insert(arith.BitcastOp(other, type_)).result
            return other, valid

        width, offset = i32(size), size // 2
        while offset:
            other, valid = shuffle("down", value, offset)
            both = b.insert(combine(value, other)).results[0]
            value = b.insert(arith.SelectOp(valid, both, value)).result
            offset //= 2
        result, _ = shuffle("idx", value, 0)
        result.name_hint = op.result.name_hint
        s.values[op.result] = result

    def kernel_assert(self, op: cf.AssertOp, b: Builder, s: Scope) -> None:
        """`cf.assert` in a kernel, as CUDA's `assert`: a work-item whose condition is false
        prints `file:line: kernel: block: [x,y,z], thread: [x,y,z] Assertion `msg` failed.` and
        returns; the others go on (in a new block). A kernel for ROCm (`self.rocm`) prints
        ROCm's `file:line: function Device-side assertion `msg' failed.` instead, the function
        `(unknown)` where no name location names it, as MLIR's ROCDL lowering reports it."""
        here = b.insertion_point.block
        assert s.function is not None
        if here.parent is not s.function.body:
            raise unsupported(op, "inside an scf region of a kernel is not supported (yet)")
        (cond,) = self.mapped(op, [op.arg], s)
        tokens = self.token_list(s)
        types = [MemType(t) for t in s.spaces]
        failed, going = Block(arg_types=types), Block(arg_types=types)
        s.function.body.add_block(failed)
        s.function.body.add_block(going)
        b.insert(cf.ConditionalBranchOp(cond, going, tokens, failed, tokens))
        fb = Builder(InsertPoint.at_end(failed))
        unnamed = "(unknown)" if self.rocm else s.function.sym_name.data
        file, line, name = assert_place(op.location, unnamed)
        message = op.msg.data.replace("{", "{{").replace("}", "}}")
        text = (
            f"{file}:{line}: {name}: block: [{{}},{{}},{{}}], "
            f"thread: [{{}},{{}},{{}}] Assertion `{message}` failed.\n"
        )
        ids = [s.ids[("group", d)] for d in range(3)] + [s.ids[("thread", d)] for d in range(3)]
        if self.rocm:
            text, ids = f"{file}:{line}: {name} Device-side assertion `{message}' failed.\n", []
        for made in (
            fb.insert(printf.PrintFormatOp(text, *ids)),
            fb.insert(func.ReturnOp(*failed.args)),
        ):
            made.location = op.location
        b.insertion_point = InsertPoint.at_end(going)
        s.tokens = dict(zip(s.spaces, going.args, strict=True))

    def printf(self, op: gpu_ops.PrintfOp, b: Builder, s: Scope) -> None:
        """`gpu.printf`'s C format as `printf.print_format`'s: each conversion a `{}` whose
        value prints with it (`gpu.printf_specs`, a `gpu.CSpec`: `%-8.3f` is `"-8.3f"`), `%%`
        a `%`; a conversion gpuir does not print as C does is an error at the op."""
        text: list[str] = []
        specs: list[str] = []
        source, at = op.format.data, 0
        for found in C_CONVERSION.finditer(source):
            text.append(source[at : found.start()].replace("{", "{{").replace("}", "}}"))
            at = found.end()
            if found[0] == "%%":
                text.append("%")
                continue
            if (problem := CSpec.problem(found)) is not None:
                raise unsupported(op, f"cannot print {problem}")
            text.append("{}")
            specs.append(found[0][1:])
        text.append(source[at:].replace("{", "{{").replace("}", "}}"))
        values = self.mapped(op, op.operands, s)
        if len(values) != len(specs):
            raise unsupported(op, f"with {len(specs)} conversions for {len(values)} values")
        for value, spec in zip(values, specs, strict=True):
            floats = builtin.Float16Type | builtin.Float32Type | builtin.Float64Type
            wanted = floats if spec[-1] in FLOAT_CONVERSIONS else IntegerType | IndexType
            if not isinstance(value.type, wanted):
                raise unsupported(op, f"cannot print %{spec} of a value of type {value.type}")
        made = b.insert(printf.PrintFormatOp("".join(text), *values))
        if specs:
            made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr(x) for x in specs])


KERNEL_OPS: OpTable = {
    **SHARED_OPS,
    **VECTOR_OPS,
    **STRIDED_OPS,
    **PARALLEL_OPS,
    **MMA_IMPORTS,
    **AMDGPU_IMPORTS,
    gpu_ops.ReturnOp: KernelImporter.kernel_return,
    gpu_ops.TerminatorOp: KernelImporter.end_kernel,
    func.ReturnOp: KernelImporter.inlined_return,
    func.CallOp: KernelImporter.kernel_call,
    gpu_ops.ThreadIdOp: KernelImporter.id_op,
    gpu_ops.BlockIdOp: KernelImporter.id_op,
    gpu_ops.BlockDimOp: KernelImporter.id_op,
    gpu_ops.GridDimOp: KernelImporter.id_op,
    gpu_ops.GlobalIdOp: KernelImporter.id_op,
    gpu_ops.ClusterIdOp: KernelImporter.id_op,
    gpu_ops.ClusterDimOp: KernelImporter.id_op,
    gpu_ops.ClusterBlockIdOp: KernelImporter.id_op,
    gpu_ops.ClusterDimBlocksOp: KernelImporter.id_op,
    gpu_ops.LaneIdOp: KernelImporter.lane_id,
    gpu_ops.DynamicSharedMemoryOp: KernelImporter.shared_memory,
    memref.ViewOp: KernelImporter.view,
    gpu_ops.BarrierOp: KernelImporter.barrier,
    gpu_ops.AllReduceOp: KernelImporter.all_reduce,
    gpu_ops.ShuffleOp: KernelImporter.shuffle,
    gpu_ops.SubgroupReduceOp: KernelImporter.subgroup_reduce,
    gpu_ops.PrintfOp: KernelImporter.printf,
    cf.AssertOp: KernelImporter.kernel_assert,
    memref.AllocaOp: KernelImporter.alloca,
    memref.GetGlobalOp: KernelImporter.kernel_global,
}
"""The ops a kernel imports, by type (`SharedImporter.import_op`)."""
