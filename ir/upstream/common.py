"""The importer's shared parts, the same on the host and in kernels: memrefs as it makes them
(`Ref`, with a `memref.subview`'s `View`), the state of a function being made (`Scope`, with the
dispatch table of its ops), its blocks and the memory tokens they pass, and the ops of
`SHARED_OPS`: memref loads, stores, dims, casts, subviews, copies and atomics, `scf.for` /
`scf.if`, `cf` branches; and `arith` and `math` (cloned) and inlined calls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, builtin, cf, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnknownLoc,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects import mem
from gpuir.dialects.mem import ArrayType, MemType, is_word_scalar
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import memref_ops

OpTable = dict[type[Operation], Callable[..., None]]
"""A dispatch table: an op's type (exactly) → the importer's method that imports it, called as
`method(importer, op, b, s)` (as xDSL's interpreter finds an op's implementation)."""

ATOMIC_KINDS = {
    "addi": "add",
    "addf": "add",
    "assign": "xchg",
    "maxs": "max",
    "mins": "min",
    "maxu": "umax",
    "minu": "umin",
    "andi": "and",
    "ori": "or",
    "xori": "xor",
    "maxnumf": "max",
    "minnumf": "min",
}
"""`memref.atomic_rmw`'s kinds as `mem.atomic_rmw`'s (`mulf`, `muli` and the NaN-propagating
`maximumf` / `minimumf` have none: `ATOMIC_LOOPS`)."""


COMBINE_KINDS: dict[str, Callable[[SSAValue, SSAValue], Operation]] = {
    "add": lambda x, y: arith.AddfOp(x, y) if isinstance(x.type, AnyFloat) else arith.AddiOp(x, y),
    "mul": lambda x, y: arith.MulfOp(x, y) if isinstance(x.type, AnyFloat) else arith.MuliOp(x, y),
    "minui": arith.MinUIOp,
    "minsi": arith.MinSIOp,
    "maxui": arith.MaxUIOp,
    "maxsi": arith.MaxSIOp,
    "minnumf": arith.MinnumfOp,
    "maxnumf": arith.MaxnumfOp,
    "minimumf": arith.MinimumfOp,
    "maximumf": arith.MaximumfOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
    "xor": arith.XOrIOp,
}
"""Upstream's ways to combine two values, by `gpu.subgroup_reduce`'s names for them: the op
that combines them (a NaN wins `maximumf` / `minimumf` and loses `maxnumf` / `minnumf`)."""

ATOMIC_LOOPS = {"muli": "mul", "mulf": "mul", "maximumf": "maximumf", "minimumf": "minimumf"}
"""`memref.atomic_rmw`'s kinds that `mem.atomic_rmw` has not, by their `COMBINE_KINDS` name:
a compare-and-swap loop (`SharedImporter.atomic_loop`)."""


HOST_ACCESS = (
    "importing upstream MLIR: host code cannot access device memory (copy it with gpu.memcpy, "
    "or gpu.host_register host memory)"
)


VIEW_ONLY = (
    "of a memref.subview is not supported (yet): a subview may be loaded from, stored to, "
    "asked its dims, cast, copied (memref.copy) and viewed again"
)


MAX_GLOBAL_ELEMENTS = 1 << 16
"""A memref.global's elements are stored one by one where it is made: at most this many."""


def unsupported(op: Operation, what: str = "") -> OpError:
    return OpError(op, f"importing upstream MLIR: '{op.name}' {what or 'is not supported (yet)'}")


@dataclass
class Ref:
    """A memref value: its pointer, its extents (`index` values), its space."""

    ptr: SSAValue
    dims: list[SSAValue]
    space: int
    mirror: Ref | None = None
    """For host memory registered with `gpu.host_register`: its device copy."""
    view: View | Linear | None = None
    """For a `memref.subview`: where its elements are in the memory of `ptr`; for a
    `memref.reinterpret_cast` or an `extract_strided_metadata`'s base buffer, the same as
    positions in the memory's elements in row-major order (`Linear`)."""


Index = int | SSAValue
"""An index known when importing (an `int`) or made (an `index` value)."""


@dataclass
class View:
    """A `memref.subview` of memory of rank n: its element (i_0, …) is the memory's element
    (offsets[k] + i_k · strides[k], …), in the memory's own indices."""

    offsets: list[Index]
    strides: list[Index]


@dataclass
class Linear:
    """A `memref.reinterpret_cast` of memory (what `--gpu-decompose-memrefs` and
    `--expand-strided-metadata` make): its element (i_0, …) is the memory's element at
    position `offset + Σ i_k · strides[k]` in row-major order (the memory's indices are that
    position divided by the memory's static inner extents). The base buffer of
    `memref.extract_strided_metadata`, a `memref<T>`, is the one of offset 0 and no strides."""

    offset: Index
    strides: list[Index]

    @property
    def is_base(self) -> bool:
        return self.offset == 0 and not self.strides


def delinearize(ptr: SSAValue, position: Index, b: Builder) -> list[Index]:
    """The indices of the element at row-major `position` of the memory `ptr` points to."""
    assert isinstance(ptr.type, mem.PtrType)
    extents: list[int] = []
    inner = ptr.type.pointee
    while isinstance(inner, ArrayType):
        extents.append(inner.size.data)
        inner = inner.element_type
    if not extents:  # a memref<T>'s one element
        return []
    indices: list[Index] = []
    for k in range(len(extents)):
        stride = 1
        for extent in extents[k + 1 :]:
            stride *= extent
        at = divide(b, position, stride, arith.DivUIOp)
        indices.append(at if k == 0 else divide(b, at, extents[k], arith.RemUIOp))
    return indices


def divide(b: Builder, x: Index, y: int, kind: type[arith.DivUIOp | arith.RemUIOp]) -> Index:
    """x / y or x mod y (`kind`), folded where x is known (and x / 1 is x)."""
    if isinstance(x, int):
        return x // y if kind is arith.DivUIOp else x % y
    if y == 1:
        return x if kind is arith.DivUIOp else 0
    return b.insert(kind(x, index(b, y))).result


def pointee_of(type_: MemRefType, op: Operation) -> Attribute:
    shape = list(type_.get_shape())
    element = type_.element_type
    if any(d == DYNAMIC_INDEX for d in shape[1:]):
        raise unsupported(op, f"of {type_}: only the outermost dimension may be dynamic")
    if not shape:
        return element
    inner = element
    for extent in reversed(shape[1:]):
        inner = ArrayType(extent, inner)
    return ArrayType(DYNAMIC_INDEX, inner)


def index(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def constant(b: Builder, value: int | float, type_: Attribute) -> SSAValue:
    """An `arith.constant` of the scalar type `type_` (an integer, index or float)."""
    if isinstance(type_, IntegerType | IndexType):
        return b.insert(arith.ConstantOp(IntegerAttr(int(value), type_))).result
    return b.insert(arith.ConstantOp(FloatAttr(float(value), type_))).result  # type: ignore[arg-type]


def add(b: Builder, x: Index, y: Index) -> Index:
    """x + y, folded when both are known (and x + 0 is x)."""
    if isinstance(x, int) and isinstance(y, int):
        return x + y
    if y == 0 or x == 0:
        return y if x == 0 else x
    return b.insert(
        arith.AddiOp(*(index(b, v) if isinstance(v, int) else v for v in (x, y)))
    ).result


def mul(b: Builder, x: Index, y: Index) -> Index:
    """x · y, folded when both are known (and x · 1 is x, x · 0 is 0)."""
    if isinstance(x, int) and isinstance(y, int):
        return x * y
    if x == 1 or y == 1:
        return y if x == 1 else x
    if x == 0 or y == 0:
        return 0
    return b.insert(
        arith.MuliOp(*(index(b, v) if isinstance(v, int) else v for v in (x, y)))
    ).result


def element_at(ref: Ref, indices: Sequence[Index], b: Builder) -> SSAValue:
    """The address of `ref`'s element at `indices` (through its view)."""
    ptr = ref.ptr
    if isinstance(ref.view, Linear):
        position = ref.view.offset
        for i, t in zip(indices, ref.view.strides, strict=True):
            position = add(b, position, mul(b, i, t))
        indices = delinearize(ptr, position, b)
    elif ref.view is not None:
        indices = [
            add(b, o, mul(b, i, t))
            for i, o, t in zip(indices, ref.view.offsets, ref.view.strides, strict=True)
        ]
    for i in indices:
        ptr = b.insert(mem.LeaOp(ptr, index(b, i) if isinstance(i, int) else i)).res
    return ptr


Tokens = dict[int, SSAValue]
"""The memory tokens of a scope, by address space."""


def find_global(op: Operation, name: str) -> memref_ops.GlobalOp | None:
    """The memref.global `name` of the module around `op`: its gpu.module's in a kernel of one
    (where `--gpu-kernel-outlining` copies it), else the program's."""
    scope = op.parent_op()
    while scope is not None and scope.name not in ("gpu.module", "builtin.module"):
        scope = scope.parent_op()
    for found in scope.regions[0].block.ops if scope is not None else ():
        if isinstance(found, memref_ops.GlobalOp) and found.sym_name.data == name:
            return found
    return None


def store_global(op: memref_ops.GlobalOp, ptr: SSAValue, space: int, b: Builder, s: Scope) -> None:
    """A memref.global's initial value (dense, or a splat) stored at `ptr` (memory of `space`,
    the global's shape) element by element; nothing for one without."""
    type_, value = op.type, op.initial_value
    assert isinstance(type_, MemRefType)
    if value is None:
        return
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise unsupported(op, f"with the initial value {value}")
    shape = list(type_.get_shape())
    values = list(value.get_values())
    if len(values) == 1:  # a splat
        values = values * math.prod(shape)
    if len(values) > MAX_GLOBAL_ELEMENTS:
        raise unsupported(op, f"of more than {MAX_GLOBAL_ELEMENTS} elements")
    element_type = type_.element_type
    for flat, element in enumerate(values):
        at = ptr
        for i in np.unravel_index(flat, shape) if shape else ():
            at = b.insert(mem.LeaOp(at, index(b, int(i)))).res
        stored = constant(b, element, element_type)
        s.tokens[space] = b.insert(mem.StoreOp(s.tokens[space], at, stored)).results[0]


def each_element(
    dims: Sequence[SSAValue],
    tokens: Tokens,
    b: Builder,
    body: Callable[[list[SSAValue], Builder, Tokens], Tokens],
) -> Tokens:
    """A loop nest (`scf.for`) over the extents `dims` that carries `tokens`: `body(indices, b,
    tokens)` makes one element's ops and returns the tokens after them; the tokens after the
    nest."""
    spaces = list(tokens)

    def level(k: int, indices: list[SSAValue], b: Builder, tokens: Tokens) -> Tokens:
        if k == len(dims):
            return body(indices, b, tokens)
        loop = Block(arg_types=[IndexType(), *(MemType(t) for t in spaces)])
        inner = Builder(InsertPoint.at_end(loop))
        carried = dict(zip(spaces, loop.args[1:], strict=True))
        after = level(k + 1, [*indices, loop.args[0]], inner, carried)
        inner.insert(scf.YieldOp(*(after[t] for t in spaces)))
        made = b.insert(scf.ForOp(index(b, 0), dims[k], index(b, 1), list(tokens.values()), loop))
        return dict(zip(spaces, made.results, strict=True))

    return level(0, [], b, tokens)


@dataclass
class Scope:
    """The state of one function being made: the ops it may hold, its tokens by space, and the
    values and memrefs of the upstream values it has made."""

    spaces: tuple[int, ...]
    table: OpTable
    """The ops this code may hold: host code's (`HOST_OPS`) or a kernel's (`KERNEL_OPS`)."""
    tokens: dict[int, SSAValue] = field(default_factory=dict)
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    refs: dict[SSAValue, Ref] = field(default_factory=dict)
    ids: dict[tuple[str, int], SSAValue] = field(default_factory=dict)
    """In a kernel: its ids and sizes (`("thread", 0)`, …), made at its entry."""
    blocks: dict[Block, Block] = field(default_factory=dict)
    """The function's blocks as made: upstream block → its block, which takes the upstream
    block's arguments and then the tokens."""
    function: func.FuncOp | None = None
    """The function being made (a `cf.assert` splits its blocks)."""

    def inner(self) -> Scope:
        """The scope of a region inside: what is made there stays there."""
        return Scope(
            self.spaces,
            self.table,
            dict(self.tokens),
            dict(self.values),
            dict(self.refs),
            self.ids,
            self.blocks,
            self.function,
        )


class SharedImporter:
    """The parts of the importer that host code and kernels share (module docstring); each op
    is imported by its method in its scope's table (`import_op`)."""

    def __init__(self, source: builtin.ModuleOp):
        self.source = source
        self.out = builtin.ModuleOp([])
        self.names: set[str] = set()
        """The names of the functions made."""
        self.inlined: list[func.CallOp] = []
        """The calls being inlined, innermost last."""
        self.continuations: dict[func.CallOp, Block] = {}
        """The block after an inlined call of a function of several blocks: its returns branch
        there with their values and the tokens."""

    def fresh(self, name: str) -> str:
        found, count = name, 0
        while found in self.names or found == "main":
            count += 1
            found = f"{name}_{count}"
        self.names.add(found)
        return found

    # -- blocks, and inlined calls --

    def blocks(self, region: Region, entry: Block, b: Builder, s: Scope) -> None:
        """The blocks of a function's `region`: its entry's ops at `b` (in `entry`), each other
        block a new block after it, which takes the block's arguments and then the tokens (every
        branch passes them)."""
        sources = list(region.blocks)
        assert entry.parent is not None
        s.blocks[sources[0]] = entry
        for source in sources[1:]:
            for arg in source.args:
                if isinstance(arg.type, MemRefType | UnrankedMemRefType):
                    raise unsupported(
                        source.first_op or region.parent_op(),
                        "with a memref block argument is not supported (yet)",
                    )  # type: ignore[arg-type]
            types = [*(a.type for a in source.args), *(MemType(t) for t in s.spaces)]
            made = Block(arg_types=types)
            entry.parent.add_block(made)
            s.blocks[source] = made
            for old, new in zip(source.args, made.args, strict=False):
                s.values[old] = new
        self.block(sources[0], b, s)
        for source in sources[1:]:
            made = s.blocks[source]
            count = len(source.args)
            s.tokens = {t: made.args[count + k] for k, t in enumerate(s.spaces)}
            self.block(source, Builder(InsertPoint.at_end(made)), s)

    def block(self, block: Block, b: Builder, s: Scope) -> None:
        """Each op of `block` made at `b`, the ops made for it at its location."""
        for op in block.ops:
            target = b.insertion_point.block
            last = target.last_op
            self.import_op(op, b, s)
            made = target.first_op if last is None else last.next_op
            while made is not None:
                for inner in made.walk():
                    if isinstance(inner.location, UnknownLoc):
                        inner.location = op.location
                made = made.next_op

    def return_from_inlined(self, op: Operation, b: Builder, s: Scope) -> None:
        """The end of an inlined call: its results are the values returned (a branch to the
        block after the call, which takes them, where the callee has several blocks)."""
        call = self.inlined[-1]
        values = self.mapped(op, op.operands, s)
        after = self.continuations.get(call)
        if after is not None:
            b.insert(cf.BranchOp(after, *values, *self.token_list(s)))
            return
        for old, new in zip(call.results, values, strict=True):
            s.values[old] = new

    def inline(self, op: func.CallOp, callee: Operation, b: Builder, s: Scope) -> None:
        """A call: the callee's body, made here with its arguments the call's (on the host, so
        registered memory stays registered, and launches inside copy it). A callee of several
        blocks: its entry's ops here, its other blocks after the function's, and the rest of
        the caller's block in a new block that its returns branch to."""
        name = callee.sym_name.data  # type: ignore[attr-defined]
        body = callee.regions[0]
        here = b.insertion_point.block
        several = len(body.blocks) > 1
        if several and not (here.parent and isinstance(here.parent.parent, func.FuncOp)):
            raise unsupported(
                op, f"of @{name}, which has several blocks, inside an scf region is not supported"
            )
        if several and any(isinstance(r.type, MemRefType) for r in op.results):
            raise unsupported(op, f"of @{name}, which has several blocks, returning a memref")
        if any(call.callee == op.callee for call in self.inlined):
            raise unsupported(op, f"of @{name} inside itself (recursion)")
        entry = body.blocks[0]
        for param, arg in zip(entry.args, op.arguments, strict=True):
            if arg in s.refs:
                s.refs[param] = s.refs[arg]
            else:
                s.values[param] = self.mapped(op, [arg], s)[0]
        self.inlined.append(op)
        try:
            if not several:
                self.block(entry, b, s)
                return
            after = Block(
                arg_types=[*(r.type for r in op.results), *(MemType(t) for t in s.spaces)]
            )
            self.continuations[op] = after
            self.blocks(body, here, b, s)
            assert here.parent is not None
            here.parent.add_block(after)
            for old, new in zip(op.results, after.args, strict=False):
                s.values[old] = new
            s.tokens = {t: after.args[len(op.results) + k] for k, t in enumerate(s.spaces)}
            b.insertion_point = InsertPoint.at_end(after)
        finally:
            self.inlined.pop()

    # -- the ops --

    def import_op(self, op: Operation, b: Builder, s: Scope) -> None:
        """`op` made at `b` by its method in the scope's table; an `arith` or `math` op (without
        regions) cloned; any other an error."""
        method = s.table.get(type(op))
        if method is not None:
            method(self, op, b, s)
        elif op.dialect_name() in ("arith", "math") and not op.regions:
            self.clone(op, b, s)
        else:
            raise unsupported(op)

    def clone(self, op: Operation, b: Builder, s: Scope) -> None:
        operands = self.mapped(op, op.operands, s)
        mapping = dict(zip(op.operands, operands, strict=True))
        clone = op.clone(value_mapper=mapping)
        b.insert(clone)
        for old, new in zip(op.results, clone.results, strict=True):
            s.values[old] = new

    def dim(self, op: memref.DimOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.source, s, view=True)
        found = op.index.owner
        if not isinstance(found, arith.ConstantOp):
            raise unsupported(op, "of a dimension that is not a constant")
        dim = found.value.value.data  # type: ignore[attr-defined]
        if not 0 <= dim < len(ref.dims):
            raise unsupported(op, f"of dimension {dim} of a memref of rank {len(ref.dims)}")
        s.values[op.result] = ref.dims[dim]

    def cast(self, op: memref_ops.CastOp, b: Builder, s: Scope) -> None:
        s.refs[op.results[0]] = self.ref(op, op.operands[0], s, view=True)

    def memref_copy(self, op: memref_ops.CopyOp, b: Builder, s: Scope) -> None:
        try:
            op.verify_()
        except VerifyException as e:
            raise unsupported(op, str(e)) from None
        src = self.ref(op, op.source, s, view=True)
        self.copy(op, src, self.ref(op, op.destination, s, view=True), b, s)

    def branch(self, op: cf.BranchOp, b: Builder, s: Scope) -> None:
        args = [*self.mapped(op, op.arguments, s), *self.token_list(s)]
        b.insert(cf.BranchOp(self.successor(op, op.successor, s), *args))

    def cond_branch(self, op: cf.ConditionalBranchOp, b: Builder, s: Scope) -> None:
        (cond,) = self.mapped(op, [op.cond], s)
        then_args = [*self.mapped(op, op.then_arguments, s), *self.token_list(s)]
        else_args = [*self.mapped(op, op.else_arguments, s), *self.token_list(s)]
        then_block = self.successor(op, op.then_block, s)
        else_block = self.successor(op, op.else_block, s)
        b.insert(cf.ConditionalBranchOp(cond, then_block, then_args, else_block, else_args))

    def scf_yield(self, op: scf.YieldOp, b: Builder, s: Scope) -> None:
        b.insert(scf.YieldOp(*self.mapped(op, op.operands, s), *self.token_list(s)))

    def mapped(self, op: Operation, values: Sequence[SSAValue], s: Scope) -> list[SSAValue]:
        out = []
        for value in values:
            if value in s.refs:
                raise unsupported(op, "on a memref value is not supported (yet)")
            if value not in s.values:
                raise unsupported(
                    op, f"uses {value.name_hint or 'a value'} the importer did not make"
                )
            out.append(s.values[value])
        return out

    def successor(self, op: Operation, block: Block, s: Scope) -> Block:
        found = s.blocks.get(block)
        if found is None:
            raise unsupported(op, "to a block of another region")
        return found

    def ref(self, op: Operation, value: SSAValue, s: Scope, view: bool = False) -> Ref:
        """The memref `value` as the importer made it; a subview only where `view` (a base
        buffer, the whole memory, everywhere)."""
        found = s.refs.get(value)
        if found is None:
            raise unsupported(op, "on a memref the importer did not make (yet)")
        base = isinstance(found.view, Linear) and found.view.is_base
        if found.view is not None and not view and not base:
            raise unsupported(op, VIEW_ONLY)
        return found

    def token_list(self, s: Scope) -> list[SSAValue]:
        return [s.tokens[t] for t in s.spaces]

    def offsets_sizes_strides(
        self, op: memref.SubviewOp | memref.ReinterpretCastOp, s: Scope
    ) -> tuple[list[Index], list[Index], list[Index]]:
        """A view op's offsets, sizes and strides, each static one an `int`."""
        offsets, sizes, strides = (
            self.static_or_made(op, static.get_values(), list(dynamic), s)
            for static, dynamic in (
                (op.static_offsets, op.offsets),
                (op.static_sizes, op.sizes),
                (op.static_strides, op.strides),
            )
        )
        return offsets, sizes, strides

    def subview(self, op: memref.SubviewOp, b: Builder, s: Scope) -> None:
        """A view of the source's memory: its offsets and strides composed with the source's
        (static ones folded here, dynamic ones made as `arith`)."""
        source = self.ref(op, op.source, s, view=True)
        rank = len(source.dims)
        result = op.result.type
        assert isinstance(result, MemRefType)
        if len(result.get_shape()) != rank:
            raise unsupported(op, "that drops dimensions is not supported (yet)")
        offsets, sizes, strides = self.offsets_sizes_strides(op, s)
        if len(offsets) != rank or len(sizes) != rank or len(strides) != rank:
            raise unsupported(op, f"with other than {rank} offsets, sizes and strides")
        view: View | Linear
        if isinstance(source.view, Linear):  # a view of a reinterpret_cast
            position = source.view.offset
            for f, t in zip(offsets, source.view.strides, strict=True):
                position = add(b, position, mul(b, f, t))
            view = Linear(
                position, [mul(b, t, u) for t, u in zip(source.view.strides, strides, strict=True)]
            )
        else:
            base = source.view or View([0] * rank, [1] * rank)
            view = View(
                [
                    add(b, o, mul(b, f, t))
                    for o, f, t in zip(base.offsets, offsets, base.strides, strict=True)
                ],
                [mul(b, t, u) for t, u in zip(base.strides, strides, strict=True)],
            )
        dims = [index(b, d) if isinstance(d, int) else d for d in sizes]
        mirror = None
        if source.mirror is not None:
            mirror = Ref(source.mirror.ptr, dims, source.mirror.space, view=view)
        s.refs[op.result] = Ref(source.ptr, dims, source.space, mirror, view)

    def static_or_made(
        self, op: Operation, static: Sequence[int], dynamic: list[SSAValue], s: Scope
    ) -> list[Index]:
        """A subview's offsets, sizes or strides: the static ones, and the made value of each
        dynamic one in its place."""
        made = iter(self.mapped(op, dynamic, s))
        return [next(made) if v == DYNAMIC_INDEX else v for v in static]

    def element(
        self, op: Operation, ref: Ref, values: Sequence[SSAValue], b: Builder, s: Scope
    ) -> SSAValue:
        """The address of `ref`'s element at the upstream indices `values` (through its view)."""
        return element_at(ref, list(self.mapped(op, values, s)), b)

    def copy(self, op: Operation, src: Ref, dst: Ref, b: Builder, s: Scope) -> None:
        """`memref.copy`, and a `gpu.memcpy` within one side: a loop nest over the source's
        extents that loads each element and stores it (through views, in any space this code
        may access: host memory on the host, device memory in a kernel)."""
        for ref in (src, dst):
            if ref.space == 1 and 0 in s.tokens:
                raise OpError(op, HOST_ACCESS)
            if ref.space not in s.tokens:
                raise unsupported(op, f"of memory in address space {ref.space} here")

        def move(at: list[SSAValue], b: Builder, t: dict[int, SSAValue]) -> dict[int, SSAValue]:
            done = b.insert(mem.LoadOp(t[src.space], element_at(src, at, b)))
            t = {**t, src.space: done.results[0]}
            stored = mem.StoreOp(t[dst.space], element_at(dst, at, b), done.results[1])
            return {**t, dst.space: b.insert(stored).results[0]}

        s.tokens.update(each_element(src.dims, s.tokens, b, move))

    def atomic(self, op: memref_ops.AtomicRmwOp, b: Builder, s: Scope) -> None:
        """`memref.atomic_rmw` as `mem.atomic_rmw` of the element, or a loop for a kind it has
        not (`ATOMIC_LOOPS`); its old value."""
        name = op.kind.data
        kind = ATOMIC_KINDS.get(name)
        if kind is None and name not in ATOMIC_LOOPS:
            raise unsupported(op, f"of kind {name} is not supported (yet)")
        value_arg, memref_arg, *indices = op.operands
        type_ = value_arg.type
        if not is_word_scalar(type_):
            raise unsupported(op, f"of {type_}: only of 32- or 64-bit integers, index, f32, f64")
        if name != "assign" and name.endswith("f") != isinstance(type_, AnyFloat):
            raise unsupported(op, f"of kind {name} on {type_}")
        ref = self.ref(op, memref_arg, s, view=True)
        ptr = self.element(op, ref, indices, b, s)
        if ref.space not in s.tokens:
            raise unsupported(op, f"of memory in address space {ref.space} here")
        (value,) = self.mapped(op, [value_arg], s)
        if kind is None:
            combine = COMBINE_KINDS[ATOMIC_LOOPS[name]]
            s.values[op.results[0]] = self.atomic_loop(combine, ptr, value, ref.space, b, s)
            return
        done = b.insert(mem.AtomicRmwOp(kind, s.tokens[ref.space], ptr, value))
        s.tokens[ref.space] = done.results[0]
        s.values[op.results[0]] = done.results[1]

    def atomic_loop(
        self,
        combine: Callable[[SSAValue, SSAValue], Operation],
        ptr: SSAValue,
        value: SSAValue,
        space: int,
        b: Builder,
        s: Scope,
    ) -> SSAValue:
        """`*ptr = old ⊕ value` atomically, as MLIR's `memref.generic_atomic_rmw` lowers: from
        a guess of `old` (0), `mem.cmpxchg` of the guess and `guess ⊕ value` until it stores (a
        failed one reads the next guess); `old`."""
        type_ = value.type
        guess = constant(b, 0, type_)
        before = Block(arg_types=[type_, MemType(space)])
        bb = Builder(InsertPoint.at_end(before))
        new = bb.insert(combine(before.args[0], value)).results[0]
        swap = mem.CmpxchgOp(before.args[1], ptr, before.args[0], new)
        token, seen, stored = bb.insert(swap).results
        true = bb.insert(arith.ConstantOp(IntegerAttr(1, 1))).result
        bb.insert(scf.ConditionOp(bb.insert(arith.XOrIOp(stored, true)).result, seen, token))
        after = Block(arg_types=[type_, MemType(space)])
        Builder(InsertPoint.at_end(after)).insert(scf.YieldOp(*after.args))
        loop = scf.WhileOp([guess, s.tokens[space]], [type_, MemType(space)], [before], [after])
        old, s.tokens[space] = b.insert(loop).results
        return old

    def access(self, op: memref.LoadOp | memref.StoreOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.memref, s, view=True)
        ptr = self.element(op, ref, list(op.indices), b, s)
        if ref.space not in s.tokens:
            raise unsupported(op, f"of memory in address space {ref.space} here")
        if ref.space == 1 and 0 in s.tokens:
            raise OpError(op, HOST_ACCESS)
        if isinstance(op, memref.LoadOp):
            done = b.insert(mem.LoadOp(s.tokens[ref.space], ptr))
            s.tokens[ref.space] = done.results[0]
            done.results[1].name_hint = op.res.name_hint
            s.values[op.res] = done.results[1]
        else:
            value = self.mapped(op, [op.value], s)[0]
            s.tokens[ref.space] = b.insert(mem.StoreOp(s.tokens[ref.space], ptr, value)).results[0]

    def for_op(self, op: scf.ForOp, b: Builder, s: Scope) -> None:
        lb, ub, step = self.mapped(op, [op.lb, op.ub, op.step], s)
        inits = self.mapped(op, list(op.iter_args), s)
        old = op.body.blocks[0]
        types = [old.args[0].type, *(v.type for v in inits), *(MemType(t) for t in s.spaces)]
        body = Block(arg_types=types)
        inner = s.inner()
        for old_arg, new_arg in zip(old.args, body.args, strict=False):
            inner.values[old_arg] = new_arg
        n = len(inits) + 1
        for k, space in enumerate(s.spaces):
            inner.tokens[space] = body.args[n + k]
        self.block(old, Builder(InsertPoint.at_end(body)), inner)
        made = b.insert(scf.ForOp(lb, ub, step, [*inits, *self.token_list(s)], body))
        for old_result, new in zip(op.results, made.results, strict=False):
            s.values[old_result] = new
        for k, space in enumerate(s.spaces):
            s.tokens[space] = made.results[len(inits) + k]

    def if_op(self, op: scf.IfOp, b: Builder, s: Scope) -> None:
        (cond,) = self.mapped(op, [op.cond], s)
        types = [*(r.type for r in op.results), *(MemType(t) for t in s.spaces)]
        regions = []
        for region in (op.true_region, op.false_region):
            block = Block()
            inner = s.inner()
            ib = Builder(InsertPoint.at_end(block))
            if region.blocks:
                self.block(region.blocks[0], ib, inner)
            else:
                ib.insert(scf.YieldOp(*self.token_list(inner)))
            regions.append(Region(block))
        made = b.insert(scf.IfOp(cond, types, regions[0], regions[1]))
        for old_result, new in zip(op.results, made.results, strict=False):
            s.values[old_result] = new
        for k, space in enumerate(s.spaces):
            s.tokens[space] = made.results[len(op.results) + k]


SHARED_OPS: OpTable = {
    memref.LoadOp: SharedImporter.access,
    memref.StoreOp: SharedImporter.access,
    memref.DimOp: SharedImporter.dim,
    memref_ops.CastOp: SharedImporter.cast,
    memref.SubviewOp: SharedImporter.subview,
    memref_ops.CopyOp: SharedImporter.memref_copy,
    memref_ops.AtomicRmwOp: SharedImporter.atomic,
    scf.ForOp: SharedImporter.for_op,
    scf.IfOp: SharedImporter.if_op,
    scf.YieldOp: SharedImporter.scf_yield,
    cf.BranchOp: SharedImporter.branch,
    cf.ConditionalBranchOp: SharedImporter.cond_branch,
}
"""The ops host code and kernels import alike (and `arith` and `math`: `import_op`)."""
