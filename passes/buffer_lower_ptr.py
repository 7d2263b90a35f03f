"""`buffer-lower-ptr`: host buffers become pointers to nested arrays (MimIR's
`buffer.lower_ptr`).

`!buffer.buf<S0xS1x…xT>` becomes `!mem.ptr<!mem.array<S0 x !mem.array<S1 x … T>>, 0>` everywhere
(results, block arguments, function signatures, `scf` iter_args), and the ops become `mem` ops:

- `buffer.alloc` → `mem.alloc` (the extent operand is the outermost `?` extent);
- `buffer.read` / `buffer.write` → one `mem.lea` per index, then `mem.load` / `mem.store`
  (a write's result buffer is the same pointer);
- `buffer.lit` → `mem.alloc` and a loop nest storing the value; `buffer.init` → `mem.alloc` and
  a store per element (a splat literal: the loop nest of `buffer.lit`);
- `buffer.shape` → an `arith.constant`, or, for a `?` extent, the extent operand of the
  `buffer.alloc` the buffer comes from;
- `buffer.copy` → a loop nest of loads and stores;
- `buffer.print` → a loop nest of `printf.print_format`: one row (the innermost dimension) per
  line, each element followed by `, ` (MimIR's `print_int_matrix`), a float as C's `%.2f`
  (with a `mem.slot` for huge floats' digits, made before the loops); see `print_element`;
- views (`buffer.subview`, `buffer.transpose`, `buffer.broadcast`, `buffer.view`) allocate
  nothing: first, a `buffer.copy` or `buffer.print` of a view becomes its loop nest of
  `buffer.read`/`buffer.write` of the view, and every `buffer.read`/`buffer.write` of a view
  becomes one of the dense buffer whose storage it views (`buffer.view_root`), at the indices
  `buffer.storage_map` computes from the view's layout (`offset + Σ i_k·stride_k`, as root
  indices); `buffer.shape` of a view is a constant. A dynamic view (`?` offset or extents, from
  a `buffer.subview` with `index` offsets or sizes) adds its run-time offset (`buffer.view_offset`,
  `muli`/`addi` of the subviews' offset operands) and splits the position with floordiv/mod; its
  `?` extent is the subview's size operand (`buffer.view_extent`), for `buffer.shape` and as a
  loop bound. Then the view ops are erased;
- `gpu.buf_alloc_copy` → `gpu.alloc.block` + `gpu.copy_to_device.block`, and
  `gpu.buf_copy_to_host` → `gpu.copy_to_host.block` (docs/dialects.md: they are `alloc_copy.block` /
  `copy_to_host.block` once buffers are pointers; the extent of a `?` buffer is passed on).

Limitations (user errors, reported at the op):
- only the outermost extent of a buffer may be `?` (a pointer to nested arrays cannot express an
  inner one);
- a pointer does not carry its run-time extent, so `buffer.shape`, `buffer.copy`, `buffer.print`
  and `gpu.buf_alloc_copy` of a buffer whose outermost extent is `?` need the `buffer.alloc` it
  comes from (directly or through `buffer.write`), in the same function. A `?` buffer that is a
  function argument, a loop-carried value or a call's result cannot be measured;
- a view is lowered only where the ops above use it, in the function that makes it: it may not
  be a function or block argument, a call's argument or result, yielded, or copied to the
  device (copy it into a dense buffer first);
- the `btensor` ops must be lowered first (`lower-btensor-map-reduce`,
  `btensor-lower-map-reduce`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.printf import PrintFormatOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    TypeConversionPattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter

from gpuir.dialects import buffer, gpu, mem
from gpuir.dialects.btensor import MapReduceBase
from gpuir.dialects.buffer import BufType
from gpuir.dialects.gpu import buffer_array_type
from gpuir.dialects.mem import HOST, ArrayType, PtrType
from gpuir.ir.builders import Constants, affine_values, element_ptr, for_nest
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.float_text import print_element, print_slot
from gpuir.passes.locations import apply_patterns, keeping, rewrite_once

# --- helpers ---------------------------------------------------------------------------------


def array_shape(ptr_type: Attribute) -> tuple[list[int], Attribute]:
    """The extents of the nested arrays a (lowered buffer) pointer points to, and the element."""
    assert isinstance(ptr_type, PtrType)
    shape: list[int] = []
    element = ptr_type.pointee
    while isinstance(element, ArrayType):
        shape.append(element.size.data)
        element = element.element_type
    return shape, element


def run_time_extent(ptr: SSAValue) -> SSAValue | None:
    """The outermost extent of a `?` buffer: the extent operand of the allocation it comes
    from (through `buffer.write`s), or None when that allocation is not in sight."""
    while isinstance(ptr.owner, buffer.WriteOp):
        ptr = ptr.owner.buf
    owner = ptr.owner
    if isinstance(owner, mem.AllocOp):
        return owner.extent
    if isinstance(owner, buffer.AllocOp) and owner.extents:
        return owner.extents[0]
    return None


def outer_extent(*ptrs: SSAValue) -> SSAValue:
    """The run-time outermost extent of the `?` buffers `ptrs` (all of one type), from
    whichever one's allocation is in sight (`check_lowerable` made sure one is)."""
    found = next((e for p in ptrs if (e := run_time_extent(p)) is not None), None)
    assert found is not None
    return found


def extents(const: Constants, *ptrs: SSAValue) -> list[SSAValue]:
    """The extents of the buffers `ptrs` (all of one type) as `index` values."""
    shape, _ = array_shape(ptrs[0].type)
    return [outer_extent(*ptrs) if e == DYNAMIC_INDEX else const(e) for e in shape]


def is_splat(value: DenseIntOrFPElementsAttr) -> bool:
    """Whether every element is the same (compared as bytes: no attribute per element)."""
    data, count = value.data.data, len(value)
    return count > 0 and data == data[: len(data) // count] * count


def store_everywhere(
    b: Builder, const: Constants, ptr: SSAValue, token: SSAValue, value: SSAValue
) -> SSAValue:
    """Store `value` into every element of the (static) nested arrays at `ptr`."""
    shape, _ = array_shape(ptr.type)

    def body(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        return [b.insert(mem.StoreOp(args[0], element_ptr(b, ptr, indices), value)).res_mem]

    return for_nest(b, const, [const(e) for e in shape], [token], body)[0]


def buffer_types(attr: Attribute) -> Iterator[BufType]:
    """Every buffer type in `attr`, however deeply nested (function types, type arrays)."""
    if isinstance(attr, BufType):
        yield attr
    elif isinstance(attr, ParametrizedAttribute):
        for parameter in attr.parameters:
            yield from buffer_types(parameter)
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:
            yield from buffer_types(element)


def measured(op: Operation) -> Sequence[SSAValue]:
    """The buffers whose run-time outermost extent `op` needs once it is lowered (any one of
    them gives it): those of a `?` extent that `op` reads the shape of, copies or prints."""
    match op:
        case buffer.ShapeOp(buf=buf, dim=dim):
            needed = dim.value.data == 0
        case buffer.CopyOp(src=buf) | buffer.PrintOp(buf=buf) | gpu.BufAllocCopyOp(buf=buf):
            needed = True
        case _:
            return ()
    assert isinstance(buf.type, BufType)
    if not needed or buf.type.get_shape()[:1] != (DYNAMIC_INDEX,):
        return ()
    if buffer.is_view(buf) or (isinstance(op, buffer.CopyOp) and buffer.is_view(op.dst)):
        return ()  # `lower_views` measures a view by its view ops
    return (buf, op.dst) if isinstance(op, buffer.CopyOp) else (buf,)


def check_lowerable(module: ModuleOp) -> None:
    """Reject what cannot become pointers, before anything is rewritten."""
    for op in module.walk():
        if isinstance(op, MapReduceBase):
            raise OpError(
                op,
                f"'{op.name}' must be lowered before buffer-lower-ptr "
                "(by lower-btensor-map-reduce or btensor-lower-map-reduce)",
            )
        types = [
            *op.result_types,
            *(arg.type for region in op.regions for block in region.blocks for arg in block.args),
            *op.properties.values(),
            *op.attributes.values(),
        ]
        for found in (buf for t in types for buf in buffer_types(t) if buf.is_dense()):
            if any(extent == DYNAMIC_INDEX for extent in found.get_shape()[1:]):
                raise OpError(
                    op,
                    f"cannot lower {found} to a pointer: only the outermost extent of a "
                    "buffer may be '?'",
                )
        check_views(op)
        buffers = measured(op)
        if buffers and all(run_time_extent(b) is None for b in buffers):
            raise OpError(
                op,
                f"'{op.name}' needs the run-time extent of a {buffers[0].type}, which "
                "buffer-lower-ptr only knows for a buffer that comes from a buffer.alloc in "
                "the same function (directly or through buffer.write)",
            )
        if isinstance(op, buffer.InitOp) and not is_scalar(element := element_of(op.res)):
            raise OpError(op, f"'{op.name}' cannot lower a literal of {element} elements")
        if isinstance(op, buffer.PrintOp) and not is_scalar(element := element_of(op.buf)):
            raise OpError(
                op, f"'{op.name}' can only print integer, index or float elements, found {element}"
            )


VIEW_USERS = (
    buffer.ReadOp,
    buffer.WriteOp,
    buffer.ShapeOp,
    buffer.CopyOp,
    buffer.PrintOp,
    buffer.ViewOp,
)


def check_views(op: Operation) -> None:
    """A view may only come from a view op and be used where `lower_views` lowers it."""
    for attr in (*op.properties.values(), *op.attributes.values()):
        for found in buffer_types(attr):
            if not found.is_dense():
                raise OpError(
                    op,
                    f"cannot lower the view {found} in a signature: buffer-lower-ptr lowers a "
                    "view only in the function whose view op makes it",
                )
    for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
        if not isinstance(value.type, BufType):
            continue
        if not value.type.is_dense() and not buffer.is_view(value):
            raise OpError(
                op,
                f"cannot lower the view {value.type}: buffer-lower-ptr lowers a view only in "
                "the function whose view op makes it",
            )
        if not buffer.is_view(value):
            continue
        for use in value.uses:
            user = use.operation
            if not isinstance(user, VIEW_USERS) or (
                isinstance(user, buffer.WriteOp) and use.index != 1
            ):
                raise OpError(
                    user,
                    f"'{user.name}' uses the view {value.type}, which buffer-lower-ptr lowers "
                    "only for buffer.read/write/shape/copy/print and other views in its "
                    "function (copy it into a dense buffer first)",
                )


def element_of(buf: SSAValue) -> Attribute:
    return cast(BufType, buf.type).element_type


def is_scalar(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


# --- views (before the type changes: a view's layout is in its buffer type) --------------------


def view_for_nest(
    b: Builder,
    const: Constants,
    shape: Sequence[buffer.Mixed],
    token: SSAValue,
    body: Callable[[Builder, list[SSAValue], SSAValue], SSAValue],
) -> SSAValue:
    """A loop nest over `shape` (a view's extents: static, or the view ops' `index` values),
    threading the host token through `body`."""

    def step(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        return [body(b, indices, args[0])]

    bounds = [e if isinstance(e, SSAValue) else const(e) for e in shape]
    return for_nest(b, const, bounds, [token], step)[0]


def view_shape(view: SSAValue) -> list[buffer.Mixed]:
    return [buffer.view_extent(view, d) for d in range(cast(BufType, view.type).rank)]


class ExpandViewCopy(RewritePattern):
    """A copy from or into a view: a loop nest reading the source, writing the destination."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.CopyOp, rewriter: PatternRewriter, /) -> None:
        if not (buffer.is_view(op.src) or buffer.is_view(op.dst)):
            return
        view = op.src if buffer.is_view(op.src) else op.dst
        static = cast(BufType, op.src.type).get_shape(), cast(BufType, op.dst.type).get_shape()
        shape = [  # a static extent of either, or the view's run-time one
            next((e for e in extents if e != DYNAMIC_INDEX), extent)
            for extent, *extents in zip(view_shape(view), *static, strict=True)
        ]

        def body(b: Builder, indices: list[SSAValue], token: SSAValue) -> SSAValue:
            read = b.insert(buffer.ReadOp(token, op.src, indices))
            return b.insert(buffer.WriteOp(read.res_mem, op.dst, indices, read.res)).res_mem

        rewriter.replace(
            op, [], [view_for_nest(rewriter, Constants(rewriter), shape, op.mem, body)]
        )


class ExpandViewPrint(RewritePattern):
    """Printing a view: the loop nest of `LowerPrint`, reading with `buffer.read`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.PrintOp, rewriter: PatternRewriter, /) -> None:
        if not buffer.is_view(op.buf):
            return
        const = Constants(rewriter)
        shape = view_shape(op.buf)
        rows, columns = shape[:-1], shape[-1:]  # rank 0: neither, one element

        token, limbs = print_slot(rewriter, op.mem, cast(BufType, op.buf.type).element_type)

        def row_body(b: Builder, row: list[SSAValue], token: SSAValue) -> SSAValue:
            def element(b: Builder, column: list[SSAValue], token: SSAValue) -> SSAValue:
                read = b.insert(buffer.ReadOp(token, op.buf, [*row, *column]))
                return print_element(b, const, read.res_mem, read.res, limbs)

            token = view_for_nest(b, const, columns, token, element)
            b.insert(PrintFormatOp("\n"))
            return token

        rewriter.replace(op, [], [view_for_nest(rewriter, const, rows, token, row_body)])


def root_indices(
    b: Builder, view: SSAValue, indices: Sequence[SSAValue]
) -> tuple[SSAValue, list[SSAValue]]:
    """The dense buffer `view` views and the indices of element `indices` of `view` in it (of
    a dynamic view: computed from its run-time offset, `offset + Σ v·k` of `view_offset`)."""
    root = buffer.view_root(view)
    view_type = cast(BufType, view.type)
    amap = buffer.storage_map(view_type, cast(BufType, root.type))
    const = Constants(b)
    if view_type.is_dynamic_view():
        constant, terms = buffer.view_offset(view)
        offset = const(constant)
        for value, stride in terms:
            term = value if stride == 1 else b.insert(arith.MuliOp(value, const(stride))).result
            offset = b.insert(arith.AddiOp(offset, term)).result
        indices = [*indices, offset]
    return root, affine_values(b, const, amap, indices)


class FoldViewRead(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.ReadOp, rewriter: PatternRewriter, /) -> None:
        if buffer.is_view(op.buf):
            root, indices = root_indices(rewriter, op.buf, op.indices)
            rewriter.replace(op, buffer.ReadOp(op.mem, root, indices))


class FoldViewWrite(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.WriteOp, rewriter: PatternRewriter, /) -> None:
        if buffer.is_view(op.buf):
            root, indices = root_indices(rewriter, op.buf, op.indices)
            write = rewriter.insert(buffer.WriteOp(op.mem, root, indices, op.value))
            rewriter.replace(op, [], [write.res_mem, op.buf])


class FoldViewShape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.ShapeOp, rewriter: PatternRewriter, /) -> None:
        if buffer.is_view(op.buf):
            extent = buffer.view_extent(op.buf, op.dim.value.data)
            if not isinstance(extent, SSAValue):
                extent = Constants(rewriter)(extent)
            rewriter.replace(op, [], [extent])


def lower_views(module: ModuleOp, expanded: Counter, folded: Counter, erased: Counter) -> None:
    """Accesses to views become accesses to the buffers they view; then the view ops, unused
    now (`check_views` made sure), are erased. The counters count the copies and prints of
    views expanded, the accesses folded and the view ops erased."""
    rewrite_once(module, [ExpandViewCopy(), ExpandViewPrint()], expanded, dce=False)
    rewrite_once(module, [FoldViewRead(), FoldViewWrite(), FoldViewShape()], folded, dce=False)
    views = [op for op in module.walk() if isinstance(op, buffer.ViewOp)]
    for view in reversed(views):
        Rewriter.erase_op(view)
        erased.add()


# --- the type ----------------------------------------------------------------------------------


class LowerBufferType(TypeConversionPattern):
    """`!buffer.buf<…xT>` → `!mem.ptr<!mem.array<…>, 0>`, wherever it occurs (applied with
    `recursive=True`, so also inside function types)."""

    def convert_type(self, typ: Attribute) -> PtrType | None:
        # Not `@attr_type_rewrite_pattern`: its mismatch (every other attribute, recursively)
        # formats an error message with the attribute printed, seconds for a large dense literal.
        return PtrType(buffer_array_type(typ), HOST) if isinstance(typ, BufType) else None


# --- the ops (their buffer operands are pointers already) --------------------------------------


class LowerAlloc(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.AllocOp, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op.res.type, PtrType)
        extent = op.extents[0] if op.extents else None
        alloc = rewriter.insert(mem.AllocOp(op.mem, op.res.type, extent))
        rewriter.replace(op, [], [alloc.res_mem, alloc.res])


class LowerRead(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.ReadOp, rewriter: PatternRewriter, /) -> None:
        load = rewriter.insert(mem.LoadOp(op.mem, element_ptr(rewriter, op.buf, op.indices)))
        rewriter.replace(op, [], [load.res_mem, load.res])


class LowerWrite(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.WriteOp, rewriter: PatternRewriter, /) -> None:
        ptr = element_ptr(rewriter, op.buf, op.indices)
        store = rewriter.insert(mem.StoreOp(op.mem, ptr, op.value))
        rewriter.replace(op, [], [store.res_mem, op.buf])


class LowerLit(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.LitOp, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op.res.type, PtrType)
        alloc = rewriter.insert(mem.AllocOp(op.mem, op.res.type))
        token = store_everywhere(rewriter, Constants(rewriter), alloc.res, alloc.res_mem, op.value)
        rewriter.replace(op, [], [token, alloc.res])


class LowerInit(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.InitOp, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op.res.type, PtrType)
        shape, _ = array_shape(op.res.type)
        const = Constants(rewriter)
        alloc = rewriter.insert(mem.AllocOp(op.mem, op.res.type))
        token, ptr = alloc.res_mem, alloc.res
        if is_splat(op.value):
            first = next(iter(op.value.iter_attrs()))
            token = store_everywhere(rewriter, const, ptr, token, const.of(first))
        else:
            attrs = op.value.get_attrs()
            rows: dict[tuple[int, ...], SSAValue] = {(): ptr}  # the address of each prefix
            for position, attr in zip(product(*map(range, shape)), attrs, strict=True):
                for depth in range(1, len(position) + 1):
                    prefix = position[:depth]
                    if prefix not in rows:
                        lea = mem.LeaOp(rows[prefix[:-1]], const(prefix[-1]))
                        rows[prefix] = rewriter.insert(lea).res
                store = mem.StoreOp(token, rows[position], const.of(attr))
                token = rewriter.insert(store).res_mem
        rewriter.replace(op, [], [token, ptr])


class LowerShape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.ShapeOp, rewriter: PatternRewriter, /) -> None:
        shape, _ = array_shape(op.buf.type)
        extent = shape[op.dim.value.data]
        if extent == DYNAMIC_INDEX:
            rewriter.replace(op, [], [outer_extent(op.buf)])
        else:
            rewriter.replace(op, [], [Constants(rewriter)(extent)])


class LowerCopy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.CopyOp, rewriter: PatternRewriter, /) -> None:
        const = Constants(rewriter)

        def body(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
            load = b.insert(mem.LoadOp(args[0], element_ptr(b, op.src, indices)))
            store = mem.StoreOp(load.res_mem, element_ptr(b, op.dst, indices), load.res)
            return [b.insert(store).res_mem]

        bounds = extents(const, op.src, op.dst)
        rewriter.replace(op, [], for_nest(rewriter, const, bounds, [op.mem], body))


class LowerPrint(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: buffer.PrintOp, rewriter: PatternRewriter, /) -> None:
        const = Constants(rewriter)
        bounds = extents(const, op.buf)
        rows, columns = bounds[:-1], bounds[-1:]  # rank 0: neither, one element
        token, limbs = print_slot(rewriter, op.mem, array_shape(op.buf.type)[1])

        def row_body(b: Builder, row: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
            row_ptr = element_ptr(b, op.buf, row)

            def element(b: Builder, column: list[SSAValue], args: list[SSAValue]):
                load = b.insert(mem.LoadOp(args[0], element_ptr(b, row_ptr, column)))
                return [print_element(b, const, load.res_mem, load.res, limbs)]

            tokens = for_nest(b, const, columns, args, element)
            b.insert(PrintFormatOp("\n"))
            return tokens

        rewriter.replace(op, [], for_nest(rewriter, const, rows, [token], row_body))


class LowerBufAllocCopy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.BufAllocCopyOp, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op.res.type, PtrType)
        shape, _ = array_shape(op.buf.type)
        dynamic = bool(shape) and shape[0] == DYNAMIC_INDEX
        extent = outer_extent(op.buf) if dynamic else None
        alloc = rewriter.insert(gpu.AllocBlockOp(op.m1, op.res.type, extent))
        copy = rewriter.insert(gpu.CopyToDeviceBlockOp(op.m0, alloc.res_mem, op.buf, alloc.res))
        rewriter.replace(op, [], [copy.res_m0, copy.res_m1, alloc.res])


class LowerBufCopyToHost(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.BufCopyToHostOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, gpu.CopyToHostBlockOp(op.m0, op.m1, op.src, op.dst))


def has_buffer_type(attr: Attribute) -> bool:
    """Whether `attr` is a buffer type or holds one; remembered per attribute (they are
    immutable), except the rare one that cannot be hashed."""
    try:
        return _has_buffer_type(attr)
    except TypeError:  # unhashable (a dictionary inside): looked at each time
        return _has_buffer_type.__wrapped__(attr)


@cache
def _has_buffer_type(attr: Attribute) -> bool:
    if isinstance(attr, BufType):
        return True
    if isinstance(attr, ParametrizedAttribute):
        return any(has_buffer_type(p) for p in attr.parameters)
    if isinstance(attr, ArrayAttr):
        return any(has_buffer_type(a) for a in attr.data)
    return False


def mentions_buffers(module: ModuleOp) -> bool:
    """Whether any op, block argument or function type in `module` involves a buffer."""
    for op in module.walk():
        if op.dialect_name() in ("buffer", "btensor") or isinstance(
            op, gpu.BufAllocCopyOp | gpu.BufCopyToHostOp
        ):
            return True
        if isinstance(op, FuncOp) and has_buffer_type(op.function_type):
            return True
        if any(has_buffer_type(t) for t in op.result_types):
            return True
        if any(has_buffer_type(a.type) for r in op.regions for b in r.blocks for a in b.args):
            return True
    return False


@dataclass(frozen=True)
class BufferLowerPtrPass(ModulePass):
    """Lower host buffers to pointers to nested arrays: each `!buffer.buf` becomes a
    `!mem.ptr`, each `buffer` op `mem` ops (loads, stores, loop nests), an access to a view
    one to the buffer it views, and each `gpu.buf_*` transfer a pointer transfer."""

    name = "buffer-lower-ptr"

    lowered = Statistic("num-buffer-ops-lowered", "Number of buffer ops lowered to mem ops")
    transferred = Statistic(
        "num-transfers-lowered", "Number of gpu.buf_* transfers lowered to pointer transfers"
    )
    expanded = Statistic(
        "num-view-loops-expanded", "Number of copies and prints of views expanded into loops"
    )
    folded = Statistic(
        "num-view-accesses-folded", "Number of view accesses rewritten to their buffer"
    )
    erased = Statistic("num-views-erased", "Number of view ops erased")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not mentions_buffers(op):  # the type conversion walks every op: skip it when idle
            return
        check_lowerable(op)
        lower_views(op, self.expanded, self.folded, self.erased)
        rewrite_once(op, [LowerBufferType(recursive=True)], dce=False)
        lowered = keeping(
            self.lowered,
            LowerAlloc(),
            LowerRead(),
            LowerWrite(),
            LowerLit(),
            LowerInit(),
            LowerShape(),
            LowerCopy(),
            LowerPrint(),
        )
        transferred = keeping(self.transferred, LowerBufAllocCopy(), LowerBufCopyToHost())
        apply_patterns(op, [*lowered, *transferred], dce=False)
