"""The `gpu` dialect: device sessions, streams, device memory, kernel launch and work-group sync.

It mirrors the axioms of MimIR's `gpu` plugin (gpu.mim): `init`/`deinit` create and consume the
device tokens `!mem.M<1>` (global) and `!mem.M<4>` (const); blocking (`.block`) and
stream-ordered (`.asyn`) allocation and copies; streams; a 1-D `launch` of a kernel function;
`sync_work_items`, the work-group barrier. The composites `alloc_copy`, `with_streams` and
`synced_scope` are ops here (MimIR defines them as `lam`s); `expand-gpu-composites` rewrites
them into their definitions.

Departures from MimIR:
- a kernel is a `func.func` named by the launch's `kernel` property, not a CPS lambda operand;
  its return carries the four device tokens (MimIR's return continuation);
- kernel arguments are separate operands, not one tuple;
- the work-group collectives `workgroup_reduce` and `workgroup_scan` are additions (nupp.gpu's
  deterministic `reduceSumF32` / `inclusiveScanU32`).

This dialect is named `gpu` like xDSL's own, which gpu-opt therefore does not load.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence
from typing import ClassVar
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TypeAttribute,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Dialect, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.buffer import BufType
from gpuir.dialects.mem import (
    CONST,
    GLOBAL,
    HOST,
    LOCAL,
    SHARED,
    ArrayType,
    MemType,
    PtrType,
    static_extent_ok,
)
from gpuir.dialects.traits import WarpCollective, WorkgroupBarrier


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.stream`: an ordered queue of device work."""

    name = "gpu.stream"


M0, M1, M3, M4, M5 = (MemType(a) for a in (HOST, GLOBAL, SHARED, CONST, LOCAL))
STREAM = StreamType()
KERNEL_TOKENS = (M1, M3, M4, M5)
WORKGROUP_FUNCTION_ATTR = "gpu.workgroup"
"""The attribute of a kernel that `cpu-workgroup-loops` made a work-group function; a launch
of it passes its arguments after the `WORKGROUP_PREFIX` parameters (tokens, group, n_items,
shared memory, dynamic shared memory)."""
WORKGROUP_PREFIX = 8


def expect_ptr(op: IRDLOperation, value: SSAValue, space: int, what: str) -> PtrType:
    """The type of `value`, checked to be a pointer into `space`."""
    ptr = value.type
    if not isinstance(ptr, PtrType) or ptr.space.data != space:
        raise VerifyException(
            f"'{op.name}' expects the {what} to be a !mem.ptr in address space {space}, found {ptr}"
        )
    return ptr


def expect_same_pointee(
    op: IRDLOperation, a: PtrType, b: PtrType, what: str = "source and destination"
) -> None:
    if a.pointee != b.pointee:
        raise VerifyException(
            f"'{op.name}' expects {what} of the same pointee type, "
            f"found {a.pointee} and {b.pointee}"
        )


def buffer_array_type(buf: BufType) -> Attribute:
    """The nested `!mem.array` a buffer of this type lowers to (outermost dimension first);
    for a rank-0 buffer, its element type."""
    element: Attribute = buf.element_type
    for extent in reversed(buf.get_shape()):
        element = ArrayType(extent, element)
    return element


def expect_region_signature(
    op: IRDLOperation,
    region: Region,
    arg_types: Sequence[Attribute],
    yield_types: Sequence[Attribute],
) -> None:
    """Check a single-block region's arguments and the types its `gpu.yield` returns."""
    block = region.block
    found = tuple(arg.type for arg in block.args)
    if found != tuple(arg_types):
        raise VerifyException(
            f"'{op.name}' expects its region to take ({', '.join(map(str, arg_types))}), "
            f"found ({', '.join(map(str, found))})"
        )
    last = block.last_op
    if not isinstance(last, YieldOp):
        raise VerifyException(f"'{op.name}' expects its region to end in gpu.yield")
    yielded = tuple(last.operand_types)
    if yielded != tuple(yield_types):
        raise VerifyException(
            f"'{op.name}' expects its region to yield ({', '.join(map(str, yield_types))}), "
            f"found ({', '.join(map(str, yielded))})"
        )


# --- sessions and streams -------------------------------------------------------------------


@irdl_op_definition
class DefaultStreamOp(IRDLOperation):
    name = "gpu.default_stream"
    res = result_def(STREAM)

    assembly_format = "attr-dict"
    traits = traits_def(Pure())

    def __init__(self):
        super().__init__(result_types=[STREAM])


class SessionOpenOp(IRDLOperation):
    """`M<0>` in, `M<0>, M<1>, M<4>` out: open the device."""

    assembly_format = "$mem attr-dict"

    def __init__(self, mem: SSAValue):
        super().__init__(operands=[mem], result_types=[M0, M1, M4])


@irdl_op_definition
class InitOp(SessionOpenOp):
    name = "gpu.init"
    mem = operand_def(M0)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res_m4 = result_def(M4)


@irdl_op_definition
class AutoInitOp(SessionOpenOp):
    """A compiler-inserted `gpu.init`; a backend may merge such sessions."""

    name = "gpu.auto_init"
    mem = operand_def(M0)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res_m4 = result_def(M4)


class SessionCloseOp(IRDLOperation):
    """`M<0>, M<1>, M<4>` in, `M<0>` out: finish all pending work, close the device."""

    assembly_format = "$m0 `,` $m1 `,` $m4 attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, m4: SSAValue):
        super().__init__(operands=[m0, m1, m4], result_types=[M0])


@irdl_op_definition
class DeinitOp(SessionCloseOp):
    name = "gpu.deinit"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    m4 = operand_def(M4)
    res_m0 = result_def(M0)


@irdl_op_definition
class AutoDeinitOp(SessionCloseOp):
    """A compiler-inserted `gpu.deinit`."""

    name = "gpu.auto_deinit"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    m4 = operand_def(M4)
    res_m0 = result_def(M0)


@irdl_op_definition
class StreamInitOp(IRDLOperation):
    """Create a stream and store it in a host slot."""

    name = "gpu.stream_init"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    slot = operand_def(PtrType(STREAM, HOST))
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = "$m0 `,` $m1 `,` $slot attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, slot: SSAValue):
        super().__init__(operands=[m0, m1, slot], result_types=[M0, M1])


class StreamUseOp(IRDLOperation):
    """`M<0>, M<1>, stream` in, `M<0>, M<1>` out."""

    assembly_format = "$m0 `,` $m1 `,` $stream attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, stream: SSAValue):
        super().__init__(operands=[m0, m1, stream], result_types=[M0, M1])


@irdl_op_definition
class StreamDeinitOp(StreamUseOp):
    """Finish the stream's pending work, then destroy it."""

    name = "gpu.stream_deinit"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    stream = operand_def(STREAM)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)


@irdl_op_definition
class StreamSyncOp(StreamUseOp):
    """Wait for all work on the stream."""

    name = "gpu.stream_sync"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    stream = operand_def(STREAM)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)


@irdl_op_definition
class WithStreamsOp(IRDLOperation):
    """Create `count` streams, run the region with them, destroy them (no implicit sync).

    `%m0, %m1 = gpu.with_streams %a, %b count 2 { ^bb0(%x: !mem.M<0>, …): … gpu.yield … }`
    """

    name = "gpu.with_streams"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    count = prop_def(IntegerAttr[I64])
    body = region_def("single_block")
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    def __init__(self, m0: SSAValue, m1: SSAValue, count: int, body: Region):
        super().__init__(
            operands=[m0, m1],
            properties={"count": IntegerAttr(count, 64)},
            regions=[body],
            result_types=[M0, M1],
        )

    def verify_(self) -> None:
        count = self.count.value.data
        if count < 0:
            raise VerifyException(f"'{self.name}' expects a count >= 0, found {count}")
        expect_region_signature(self, self.body, (M0, M1, *[STREAM] * count), (M0, M1))

    @classmethod
    def parse(cls, parser: Parser) -> WithStreamsOp:
        m0 = parser.parse_operand(M0)
        parser.parse_punctuation(",")
        m1 = parser.parse_operand(M1)
        parser.parse_keyword("count")
        count = parser.parse_integer(allow_boolean=False, allow_negative=False)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(m0, m1, count, parser.parse_region())
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f" count {self.count.value.data}")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)


# --- device memory --------------------------------------------------------------------------


class DeviceAllocOp(IRDLOperation):
    def verify_(self) -> None:
        ptr = expect_ptr(self, self.res, GLOBAL, "result")
        static_extent_ok(ptr.pointee, self.extent, self)

    def __init__(
        self, m1: SSAValue, ptr_type: PtrType, extent: SSAValue | None = None, stream=None
    ):
        operands = [m1] + ([stream] if stream is not None else []) + [[extent] if extent else []]
        super().__init__(operands=operands, result_types=[M1, ptr_type])


@irdl_op_definition
class AllocBlockOp(DeviceAllocOp):
    """Allocate one `T` in global memory; `extent` iff `T` is `!mem.array<? x …>`."""

    name = "gpu.alloc.block"
    mem = operand_def(M1)
    extent = opt_operand_def(IndexType)
    res_mem = result_def(M1)
    res = result_def(PtrType)

    assembly_format = "$mem (`,` $extent^)? attr-dict `:` type($res)"


@irdl_op_definition
class AllocAsynOp(DeviceAllocOp):
    """Stream-ordered allocation of one `T` in global memory."""

    name = "gpu.alloc.asyn"
    mem = operand_def(M1)
    stream = operand_def(STREAM)
    extent = opt_operand_def(IndexType)
    res_mem = result_def(M1)
    res = result_def(PtrType)

    assembly_format = "$mem (`,` $extent^)? `on` $stream attr-dict `:` type($res)"


class DeviceFreeOp(IRDLOperation):
    def verify_(self) -> None:
        expect_ptr(self, self.ptr, GLOBAL, "freed pointer")


@irdl_op_definition
class FreeBlockOp(DeviceFreeOp):
    name = "gpu.free.block"
    mem = operand_def(M1)
    ptr = operand_def(PtrType)
    res_mem = result_def(M1)

    assembly_format = "$mem `,` $ptr attr-dict `:` type($ptr)"

    def __init__(self, m1: SSAValue, ptr: SSAValue):
        super().__init__(operands=[m1, ptr], result_types=[M1])


@irdl_op_definition
class FreeAsynOp(DeviceFreeOp):
    name = "gpu.free.asyn"
    mem = operand_def(M1)
    ptr = operand_def(PtrType)
    stream = operand_def(STREAM)
    res_mem = result_def(M1)

    assembly_format = "$mem `,` $ptr `on` $stream attr-dict `:` type($ptr)"

    def __init__(self, m1: SSAValue, ptr: SSAValue, stream: SSAValue):
        super().__init__(operands=[m1, ptr, stream], result_types=[M1])


class CopyOp(IRDLOperation):
    """Copies between host and device memory: `src` in `SRC_SPACE`, `dst` in the other."""

    SRC_SPACE: ClassVar[int]

    def verify_(self) -> None:
        dst_space = GLOBAL if self.SRC_SPACE == HOST else HOST
        src = expect_ptr(self, self.src, self.SRC_SPACE, "source")
        dst = expect_ptr(self, self.dst, dst_space, "destination")
        expect_same_pointee(self, src, dst)

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, dst: SSAValue, stream=None):
        operands = [m0, m1, src, dst] + ([stream] if stream is not None else [])
        super().__init__(operands=operands, result_types=[M0, M1])


@irdl_op_definition
class CopyToDeviceBlockOp(CopyOp):
    name = "gpu.copy_to_device.block"
    SRC_SPACE: ClassVar[int] = HOST
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(PtrType)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = "$m0 `,` $m1 `,` $src `->` $dst attr-dict `:` type($src) `->` type($dst)"


@irdl_op_definition
class CopyToDeviceAsynOp(CopyOp):
    name = "gpu.copy_to_device.asyn"
    SRC_SPACE: ClassVar[int] = HOST
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(PtrType)
    stream = operand_def(STREAM)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = (
        "$m0 `,` $m1 `,` $src `->` $dst `on` $stream attr-dict `:` type($src) `->` type($dst)"
    )


@irdl_op_definition
class CopyToHostBlockOp(CopyOp):
    name = "gpu.copy_to_host.block"
    SRC_SPACE: ClassVar[int] = GLOBAL
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(PtrType)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = "$m0 `,` $m1 `,` $src `->` $dst attr-dict `:` type($src) `->` type($dst)"


@irdl_op_definition
class CopyToHostAsynOp(CopyOp):
    name = "gpu.copy_to_host.asyn"
    SRC_SPACE: ClassVar[int] = GLOBAL
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(PtrType)
    stream = operand_def(STREAM)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = (
        "$m0 `,` $m1 `,` $src `->` $dst `on` $stream attr-dict `:` type($src) `->` type($dst)"
    )


class AllocCopyOp(IRDLOperation):
    """Allocate a device copy of a host `T` and copy it over (composite)."""

    def verify_(self) -> None:
        src = expect_ptr(self, self.src, HOST, "source")
        res = expect_ptr(self, self.res, GLOBAL, "result")
        expect_same_pointee(self, src, res, "source and result")
        static_extent_ok(res.pointee, None, self, takes_extent=False)

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, stream=None):
        assert isinstance(src.type, PtrType)
        operands = [m0, m1, src] + ([stream] if stream is not None else [])
        super().__init__(
            operands=operands, result_types=[M0, M1, PtrType(src.type.pointee, GLOBAL)]
        )


@irdl_op_definition
class AllocCopyBlockOp(AllocCopyOp):
    name = "gpu.alloc_copy.block"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res = result_def(PtrType)

    assembly_format = "$m0 `,` $m1 `,` $src attr-dict `:` type($src) `->` type($res)"


@irdl_op_definition
class AllocCopyAsynOp(AllocCopyOp):
    name = "gpu.alloc_copy.asyn"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    stream = operand_def(STREAM)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res = result_def(PtrType)

    assembly_format = "$m0 `,` $m1 `,` $src `on` $stream attr-dict `:` type($src) `->` type($res)"


def expect_buffer_array(op: IRDLOperation, buf: Attribute, ptr: PtrType) -> None:
    """Check that `ptr` points to the nested arrays of the buffer type `buf`."""
    assert isinstance(buf, BufType)
    if not buf.is_dense():
        raise VerifyException(
            f"'{op.name}' copies dense buffers only (transfers are dense), found the view {buf}: "
            "buffer.copy it into a dense buffer first"
        )
    shape = buf.get_shape()
    if any(extent < 0 for extent in shape[1:]):
        raise VerifyException(
            f"'{op.name}' can only copy buffers whose inner dimensions are static, found {buf}"
        )
    expected = buffer_array_type(buf)
    if ptr.pointee != expected:
        raise VerifyException(
            f"'{op.name}' expects the device pointer to point to {expected} (the shape of {buf}), "
            f"found {ptr.pointee}"
        )


@irdl_op_definition
class BufAllocCopyOp(IRDLOperation):
    """A device copy of a host buffer, as nested arrays of the buffer's shape."""

    name = "gpu.buf_alloc_copy"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    buf = operand_def(BufType)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res = result_def(PtrType)

    assembly_format = "$m0 `,` $m1 `,` $buf attr-dict `:` type($buf) `->` type($res)"

    def __init__(self, m0: SSAValue, m1: SSAValue, buf: SSAValue):
        assert isinstance(buf.type, BufType)
        ptr = PtrType(buffer_array_type(buf.type), GLOBAL)
        super().__init__(operands=[m0, m1, buf], result_types=[M0, M1, ptr])

    def verify_(self) -> None:
        expect_buffer_array(self, self.buf.type, expect_ptr(self, self.res, GLOBAL, "result"))


@irdl_op_definition
class BufCopyToHostOp(IRDLOperation):
    """Copy device data back into a host buffer of the same shape."""

    name = "gpu.buf_copy_to_host"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(BufType)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)

    assembly_format = "$m0 `,` $m1 `,` $src `->` $dst attr-dict `:` type($src) `->` type($dst)"

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, dst: SSAValue):
        super().__init__(operands=[m0, m1, src, dst], result_types=[M0, M1])

    def verify_(self) -> None:
        expect_buffer_array(self, self.dst.type, expect_ptr(self, self.src, GLOBAL, "source"))


# --- kernels --------------------------------------------------------------------------------


_SYMBOLS: WeakKeyDictionary[Block, dict[str, Operation]] = WeakKeyDictionary()


def _symbol_in(table: Operation, name: str) -> Operation | None:
    """The op named `name` directly in the symbol table `table`.

    Each table's symbols are cached per block, so verifying many launches stays linear. A cached
    op is used only while it still sits in that block under that name; otherwise the table is
    read again."""
    if not table.regions or not table.regions[0].blocks:
        return None
    block = table.regions[0].block
    cached = _SYMBOLS.get(block, {}).get(name)
    if cached is not None and cached.parent is block and _symbol_name(cached) == name:
        return cached
    symbols = {sym: o for o in block.ops if (sym := _symbol_name(o)) is not None}
    _SYMBOLS[block] = symbols
    return symbols.get(name)


def _symbol_name(op: Operation) -> str | None:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


def lookup_kernel(op: IRDLOperation, kernel: SymbolRefAttr) -> Operation | None:
    """Resolve `kernel` in the symbol tables around `op`: a plain `@k` from the closest one
    outwards, a nested `@device::@k` from the outermost one inwards (as MLIR resolves the
    `@module::@kernel` of `gpu.launch_func`, and so that a launch in `@host` finds it)."""
    tables: list[Operation] = []
    anchor = op.parent_op()
    while anchor is not None:
        if anchor.has_trait(SymbolTable):
            tables.append(anchor)
        anchor = anchor.parent_op()
    if kernel.nested_references.data:
        tables.reverse()
    path = [kernel.root_reference.data, *(r.data for r in kernel.nested_references.data)]
    for table in tables:
        found: Operation | None = table
        for name in path:
            found = _symbol_in(found, name) if found is not None else None
        if found is not None:
            return found
    return None


def struct_fields(type_: Attribute) -> tuple[Attribute, ...] | None:
    """The field types of an llvm struct type (`!llvm.struct<(i32, f32)>`), None for any other
    type (by name: the llvm dialect need not be loaded for a program without structs)."""
    if type_.name != "llvm.struct":
        return None
    return tuple(type_.types.data)  # type: ignore[attr-defined]


def field_without_gpu_representation(type_: Attribute) -> tuple[str, Attribute] | None:
    """For a struct kernel argument, its first field (as `"1"`, or `"0.2"` inside a nested
    struct) that has no GPU representation, with its type; None when every field has one.

    A field has one when it is an integer (up to 64 bits), `index`, `f16`/`f32`/`f64`, a
    pointer into global memory (`!mem.ptr<T, 1>`) or an unnamed nested struct of such
    fields; a host pointer, a token, a buffer, an array, an empty struct have none."""
    for i, field in enumerate(struct_fields(type_) or ()):
        inner = struct_fields(field)
        if inner is not None and inner and not field.struct_name.data:  # type: ignore[attr-defined]
            found = field_without_gpu_representation(field)
            if found is not None:
                return f"{i}.{found[0]}", found[1]
            continue
        scalar = isinstance(field, Float16Type | Float32Type | Float64Type | IndexType) or (
            isinstance(field, IntegerType) and field.width.data <= 64
        )
        if not scalar and not (isinstance(field, PtrType) and field.space.data == GLOBAL):
            return str(i), field
    return None


def check_struct_argument(type_: Attribute, where: str) -> None:
    """A `VerifyException` when `type_` is a struct that cannot be a kernel argument: an empty
    or named one, or one with a field that has no GPU representation. `where`:
    `argument 2 of gpu.launch @k`."""
    fields = struct_fields(type_)
    if fields is None:
        return
    if not fields or type_.struct_name.data:  # type: ignore[attr-defined]
        raise VerifyException(
            f"{where} has type {type_}: a kernel argument may be a literal struct of one or "
            "more fields, not an empty or named one"
        )
    if (found := field_without_gpu_representation(type_)) is not None:
        raise VerifyException(
            f"field {found[0]} of {where} has type {found[1]}, which has no GPU representation"
        )


DEVICE_ATTR = "gpu.device"
"""The unit attribute of a device module (`split-apply`'s `@device`, or a module that is one):
the one definition, which every layer imports."""
KERNEL_FIXED = 6
"""A kernel's parameters before the rest: the four tokens, the work-group id, the work-item id;
then its dynamic shared-memory pointer, if it takes one (`smem_param`), then its arguments."""


def smem_param(inputs: Sequence[Attribute]) -> PtrType | None:
    """A kernel's dynamic shared-memory pointer: its parameter right after the ids, when that is
    a pointer into shared memory (`!mem.ptr<T, 3>`); None when it takes none. `inputs` are the
    kernel's parameter types. The one place that says so: every layer asks here."""
    if len(inputs) > KERNEL_FIXED:
        found = inputs[KERNEL_FIXED]
        if isinstance(found, PtrType) and found.space.data == SHARED:
            return found
    return None


def kernel_arguments(inputs: Sequence[Attribute]) -> tuple[Attribute, ...]:
    """A kernel's argument types: its parameters after the ids and the shared pointer."""
    return tuple(inputs[KERNEL_FIXED + (smem_param(inputs) is not None) :])


PRINTF_SPECS_ATTR = "gpu.printf_specs"
"""On a `printf.print_format` in device code: per value, `""` or a C conversion of a float
(`"f"`, `"e"`, `"g"`) it prints with (what an imported `gpu.printf`'s `%f` says)."""


C_SPECS = ("f", "e", "g")
"""The C conversions of a float that a printf field may carry (`with_specs`)."""


def format_fields(text: str) -> Iterator[tuple[str, str | None, int, str]]:
    """A `printf.print_format` format string (Python's: `{}`, `{N}`, `{{`) as its pieces: the
    literal text before each field, the field as written (None after the last), the index of
    its value and its spec."""
    automatic = 0
    for literal, field, spec, _ in string.Formatter().parse(text):
        index = -1
        if field == "":
            index, automatic = automatic, automatic + 1
        elif field is not None:
            index = int(field)
        yield literal, field, index, spec or ""


def with_specs(text: str, specs: Sequence[str]) -> str:
    """`text` with the field of value `k` written `{:specs[k]}` where that is not empty."""
    out = []
    for literal, field, index, _ in format_fields(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        spec = specs[index] if index < len(specs) else ""
        out.append(f"{{{field}:{spec}}}" if spec else f"{{{field}}}")
    return "".join(out)


def format_text(op: Operation) -> str:
    """A `printf.print_format`'s format string with its `gpu.printf_specs` (`with_specs`)."""
    text = op.format_str.data  # type: ignore[attr-defined]
    found = op.attributes.get(PRINTF_SPECS_ATTR)
    if not isinstance(found, ArrayAttr):
        return text
    return with_specs(text, [spec.data for spec in found.data])  # type: ignore[attr-defined]


def kernel_prefix(smem: Attribute | None) -> tuple[Attribute, ...]:
    """The parameter types every kernel starts with (and its shared pointer, if any)."""
    fixed = (*KERNEL_TOKENS, IndexType(), IndexType())
    return fixed if smem is None else (*fixed, PtrType(smem, SHARED))


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Launch a 1-D grid of `n_groups` work-groups of `n_items` work-items each.

    `%m0, %m1, %m4 = gpu.launch @k grid(%g, %n) stream(%s) smem(!mem.array<? x f32>, %e)
       mems(%m0, %m1, %m4) args(%a, %b) : (!mem.ptr<f32, 1>, i32)`
    """

    name = "gpu.launch"
    n_groups = operand_def(IndexType)
    n_items = operand_def(IndexType)
    stream = operand_def(STREAM)
    smem_extent = opt_operand_def(IndexType)
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    m4 = operand_def(M4)
    args = var_operand_def()
    kernel = prop_def(SymbolRefAttr)
    smem = opt_prop_def(TypeAttribute)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res_m4 = result_def(M4)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: str | SymbolRefAttr,
        n_groups: SSAValue,
        n_items: SSAValue,
        stream: SSAValue,
        mems: Sequence[SSAValue],
        args: Sequence[SSAValue] = (),
        smem: Attribute | None = None,
        smem_extent: SSAValue | None = None,
    ):
        kernel = SymbolRefAttr(kernel) if isinstance(kernel, str) else kernel
        super().__init__(
            operands=[n_groups, n_items, stream, [smem_extent] if smem_extent else [], *mems, args],
            properties={"kernel": kernel} | ({"smem": smem} if smem is not None else {}),
            result_types=[M0, M1, M4],
        )

    def verify_(self) -> None:
        if self.smem is not None:
            static_extent_ok(self.smem, self.smem_extent, self)
        elif self.smem_extent is not None:
            raise VerifyException(f"'{self.name}' has a smem_extent operand but no smem type")
        if (kernel := lookup_kernel(self, self.kernel)) is None:
            raise VerifyException(
                f"'{self.name}' names the kernel {self.kernel}, which does not exist"
            )
        if kernel.name == "llvm.func":  # lowered by device-to-llvm: params = the launch's args
            self._verify_lowered_signature(kernel)
            return
        if not isinstance(kernel, FuncOp):
            raise VerifyException(
                f"'{self.name}' expects {self.kernel} to be a func.func, found {kernel.name}"
            )
        if WORKGROUP_FUNCTION_ATTR in kernel.attributes:  # cpu-workgroup-loops made it
            self._verify_workgroup_signature(kernel)
            return
        self._verify_signature(kernel)

    def _verify_workgroup_signature(self, kernel: FuncOp) -> None:
        """A kernel that `cpu-workgroup-loops` made a work-group function takes (tokens, group,
        n_items, shared, smem) and then the launch's arguments."""
        expected = kernel.function_type.inputs.data[WORKGROUP_PREFIX:]
        found = tuple(self.args.types)
        if expected != found:
            raise VerifyException(
                f"'{self.name}' of {self.kernel}: the work-group function takes arguments "
                f"({', '.join(map(str, expected))}), the launch passes "
                f"({', '.join(map(str, found))})"
            )

    def _verify_lowered_signature(self, kernel: Operation) -> None:
        inputs = kernel.properties["function_type"].inputs.data  # pyright: ignore
        if len(inputs) != len(self.args):
            raise VerifyException(
                f"'{self.name}' of {self.kernel}: the lowered kernel takes {len(inputs)} "
                f"parameters, the launch passes {len(self.args)} arguments"
            )

    def _verify_signature(self, kernel: FuncOp) -> None:
        inputs = kernel.function_type.inputs.data
        outputs = kernel.function_type.outputs.data
        where = f"'{self.name}' of {self.kernel}"
        if outputs != KERNEL_TOKENS:
            raise VerifyException(
                f"{where}: a kernel must return ({', '.join(map(str, KERNEL_TOKENS))}), "
                f"found ({', '.join(map(str, outputs))})"
            )
        prefix = kernel_prefix(self.smem)
        if inputs[: len(prefix) - (self.smem is not None)] != prefix[:6]:
            raise VerifyException(
                f"{where}: a kernel must start with the parameters "
                f"({', '.join(map(str, prefix[:6]))}), found ({', '.join(map(str, inputs[:6]))})"
            )
        takes_smem = smem_param(inputs) is not None
        if self.smem is None and takes_smem:
            raise VerifyException(
                f"{where}: the kernel takes the shared-memory pointer {inputs[6]}, "
                "but the launch has no smem type"
            )
        if self.smem is not None and (not takes_smem or inputs[6] != prefix[6]):
            found = inputs[6] if len(inputs) > 6 else "none"
            raise VerifyException(
                f"{where}: the launch's smem type expects the kernel parameter {prefix[6]}, "
                f"found {found}"
            )
        expected_args = inputs[len(prefix) :]
        found_args = tuple(self.args.types)
        for i, type_ in enumerate(found_args):
            check_struct_argument(type_, f"argument {i} of {self.name} {self.kernel}")
        if expected_args != found_args:
            raise VerifyException(
                f"{where}: the kernel takes arguments ({', '.join(map(str, expected_args))}), "
                f"the launch passes ({', '.join(map(str, found_args))})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        pos = parser.pos
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error(
                f"'{cls.name}' expects a kernel symbol, found {kernel}", pos, parser.pos
            )
        parser.parse_keyword("grid")
        with parser.in_parens():
            n_groups = parser.parse_operand(IndexType())
            parser.parse_punctuation(",")
            n_items = parser.parse_operand(IndexType())
        parser.parse_keyword("stream")
        with parser.in_parens():
            stream = parser.parse_operand(STREAM)
        smem = smem_extent = None
        if parser.parse_optional_keyword("smem"):
            with parser.in_parens():
                smem = parser.parse_type()
                if parser.parse_optional_punctuation(","):
                    smem_extent = parser.parse_operand(IndexType())
        parser.parse_keyword("mems")
        with parser.in_parens():
            mems = [parser.parse_operand(t) for t in (M0,)]
            for t in (M1, M4):
                parser.parse_punctuation(",")
                mems.append(parser.parse_operand(t))
        unresolved = []
        has_args = parser.parse_optional_keyword("args") is not None
        if has_args:
            unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        attributes = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if has_args:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            if len(types) != len(unresolved):
                parser.raise_error(
                    f"'{cls.name}' has {len(unresolved)} arguments but {len(types)} types", pos
                )
        args = [parser.resolve_operand(a, t) for a, t in zip(unresolved, types, strict=True)]
        op = cls(kernel, n_groups, n_items, stream, mems, args, smem, smem_extent)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        printer.print_string(" grid(")
        printer.print_list((self.n_groups, self.n_items), printer.print_operand)
        printer.print_string(") stream(")
        printer.print_operand(self.stream)
        printer.print_string(")")
        if self.smem is not None:
            printer.print_string(" smem(")
            printer.print_attribute(self.smem)
            if self.smem_extent is not None:
                printer.print_string(", ")
                printer.print_operand(self.smem_extent)
            printer.print_string(")")
        printer.print_string(" mems(")
        printer.print_list((self.m0, self.m1, self.m4), printer.print_operand)
        printer.print_string(")")
        if self.args:
            printer.print_string(" args(")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        if self.args:
            printer.print_string(" : (")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")


@irdl_op_definition
class SyncWorkItemsOp(IRDLOperation):
    """The work-group barrier."""

    name = "gpu.sync_work_items"
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)

    assembly_format = "$m1 `,` $m3 attr-dict"

    def __init__(self, m1: SSAValue, m3: SSAValue):
        super().__init__(operands=[m1, m3], result_types=[M1, M3])


@irdl_op_definition
class SyncedScopeOp(IRDLOperation):
    """Barrier; the region; barrier (composite).

    `%a, %b = gpu.synced_scope %m1, %m3 { ^bb0(%x: !mem.M<1>, %y: !mem.M<3>): … gpu.yield %x, %y }`
    """

    name = "gpu.synced_scope"
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    body = region_def("single_block")
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)

    def __init__(self, m1: SSAValue, m3: SSAValue, body: Region):
        super().__init__(operands=[m1, m3], regions=[body], result_types=[M1, M3])

    def verify_(self) -> None:
        expect_region_signature(self, self.body, (M1, M3), (M1, M3))

    @classmethod
    def parse(cls, parser: Parser) -> SyncedScopeOp:
        m1 = parser.parse_operand(M1)
        parser.parse_punctuation(",")
        m3 = parser.parse_operand(M3)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(m1, m3, parser.parse_region())
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)


COLLECTIVE_KINDS = ("add", "mul", "min", "max", "and", "or", "xor")
BITWISE_KINDS = ("and", "or", "xor")


class CollectiveOp(IRDLOperation):
    """A work-group collective over one value per work-item; acts as a barrier.

    `%a, %b, %r = gpu.workgroup_reduce "add" %m1, %m3, %v : f32`
    """

    def __init__(self, kind: str, m1: SSAValue, m3: SSAValue, value: SSAValue):
        super().__init__(
            operands=[m1, m3, value],
            properties={"kind": StringAttr(kind)},
            result_types=[M1, M3, value.type],
        )

    def verify_(self) -> None:
        kind = self.kind.data
        if kind not in COLLECTIVE_KINDS:
            raise VerifyException(
                f"'{self.name}' expects kind to be one of {', '.join(COLLECTIVE_KINDS)}, "
                f'found "{kind}"'
            )
        value_type = self.value.type
        is_int = isinstance(value_type, IntegerType | IndexType)
        if not is_int and not isinstance(value_type, AnyFloat):
            raise VerifyException(
                f"'{self.name}' expects an integer, index or float value, found {value_type}"
            )
        if kind in BITWISE_KINDS and not is_int:
            raise VerifyException(
                f"'{self.name}' kind \"{kind}\" needs an integer value, found {value_type}"
            )
        if self.res.type != value_type:
            raise VerifyException(
                f"'{self.name}' expects its result to be {value_type}, found {self.res.type}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> CollectiveOp:
        kind = parser.parse_str_literal(" for the collective kind")
        m1 = parser.parse_operand(M1)
        parser.parse_punctuation(",")
        m3 = parser.parse_operand(M3)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(kind, m1, m3, parser.resolve_operand(value, parser.parse_type()))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.kind.data)
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


@irdl_op_definition
class WorkgroupReduceOp(CollectiveOp):
    """Every work-item gets the reduction over all items' values, combined in the fixed tree
    `t(lo, hi) = t(lo, mid) op t(mid, hi)`, `mid = (lo + hi) // 2`."""

    name = "gpu.workgroup_reduce"
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def()
    kind = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def()


@irdl_op_definition
class WorkgroupScanOp(CollectiveOp):
    """Inclusive scan over the item indices, in a fixed order."""

    name = "gpu.workgroup_scan"
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def()
    kind = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def()


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminator of `gpu.with_streams` and `gpu.synced_scope`."""

    name = "gpu.yield"
    values = var_operand_def()

    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = traits_def(IsTerminator(), HasParent(WithStreamsOp, SyncedScopeOp))

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


FENCE_SCOPES = ("workgroup", "device", "system")


@irdl_op_definition
class FenceOp(IRDLOperation):
    """`%a1, %a3 = gpu.fence "device" %m1, %m3`: a memory fence at work-group, device or system
    scope (`__threadfence_block`, `__threadfence`, `__threadfence_system`); not a barrier."""

    name = "gpu.fence"
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    scope = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)

    assembly_format = "$scope $m1 `,` $m3 attr-dict"

    def __init__(self, scope: str, m1: SSAValue, m3: SSAValue):
        super().__init__(
            operands=[m1, m3], properties={"scope": StringAttr(scope)}, result_types=[M1, M3]
        )

    def verify_(self) -> None:
        if self.scope.data not in FENCE_SCOPES:
            raise VerifyException(
                f"'{self.name}' expects scope to be one of {', '.join(FENCE_SCOPES)}, "
                f'found "{self.scope.data}"'
            )


WARP = 32
"""Work-items per warp on every provider: a warp is 32 consecutive items of a group."""


@irdl_op_definition
class LaneIdOp(IRDLOperation):
    """`%lane = gpu.lane_id`: the work-item's lane in its warp (`item_id % 32`); pure."""

    name = "gpu.lane_id"
    res = result_def(IndexType)

    assembly_format = "attr-dict"
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[IndexType()])


SHUFFLE_MODES = ("xor", "up", "down", "idx")


def constant_int(value: SSAValue) -> int | None:
    """The signed value of an integer `value` that an `arith.constant` defines; None for any
    other value."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name != "arith.constant":
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
        return None
    width = attr.type.width.data
    n = attr.value.data & ((1 << width) - 1)
    return n - (1 << width) if n >> (width - 1) else n


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%a1, %a3, %r, %valid = gpu.shuffle "down" %m1, %m3, %v, %offset, %width : f32`: exchange
    within a warp, as MLIR's `gpu.shuffle` (IR.md): the source lane is `lane ^ offset`,
    `lane - offset`, `lane + offset` or the segment's first lane + `offset`, in segments of
    `width` lanes; a source outside the segment or the warp's existing lanes gives
    `valid = false` and the lane's own value. Every existing lane of the warp reaches it
    together. `width` is 1 to 32 lanes: the verifier checks a width that an `arith.constant`
    gives, the providers any other when it runs."""

    name = "gpu.shuffle"
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def()
    offset = operand_def(IntegerType)
    width = operand_def(IntegerType)
    mode = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def()
    valid = result_def(IntegerType)

    def __init__(
        self,
        mode: str,
        m1: SSAValue,
        m3: SSAValue,
        value: SSAValue,
        offset: SSAValue,
        width: SSAValue,
    ):
        super().__init__(
            operands=[m1, m3, value, offset, width],
            properties={"mode": StringAttr(mode)},
            result_types=[M1, M3, value.type, IntegerType(1)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        mode = parser.parse_str_literal(" for the shuffle's mode")
        m1 = parser.parse_operand(M1)
        parser.parse_punctuation(",")
        m3 = parser.parse_operand(M3)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_operand(IntegerType(32))
        parser.parse_punctuation(",")
        width = parser.parse_operand(IntegerType(32))
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(mode, m1, m3, parser.resolve_operand(value, parser.parse_type()), offset, width)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.mode.data)
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        if self.mode.data not in SHUFFLE_MODES:
            raise VerifyException(
                f"'{self.name}' expects mode to be one of {', '.join(SHUFFLE_MODES)}, "
                f'found "{self.mode.data}"'
            )
        t = self.value.type
        wide = isinstance(t, IndexType) or (
            isinstance(t, IntegerType | Float32Type | Float64Type)
            and (not isinstance(t, IntegerType) or t.width.data in (32, 64))
        )
        if not wide:
            raise VerifyException(
                f"'{self.name}' expects a scalar of 32 or 64 bits (an integer, index, f32 or "
                f"f64), found {t}"
            )
        for what, operand in (("offset", self.offset), ("width", self.width)):
            if operand.type != IntegerType(32):
                raise VerifyException(f"'{self.name}' expects its {what} to be i32")
        width = constant_int(self.width)
        if width is not None and not 1 <= width <= WARP:
            raise VerifyException(
                f"'{self.name}' expects a width of 1 to {WARP} lanes, found the constant {width}"
            )
        if self.res.type != t:
            raise VerifyException(
                f"'{self.name}' expects its result to be {t}, found {self.res.type}"
            )
        if self.valid.type != IntegerType(1):
            raise VerifyException(f"'{self.name}' expects its valid flag to be i1")


@irdl_op_definition
class BallotOp(IRDLOperation):
    """`%a1, %a3, %mask = gpu.ballot %m1, %m3, %pred`: bit `l` of `mask` is set iff lane `l`
    of the warp has `pred` true (0 for lanes that do not exist). Every existing lane of the
    warp reaches it together."""

    name = "gpu.ballot"
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    pred = operand_def(IntegerType(1))
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    mask = result_def(IntegerType(32))

    assembly_format = "$m1 `,` $m3 `,` $pred attr-dict"

    def __init__(self, m1: SSAValue, m3: SSAValue, pred: SSAValue):
        super().__init__(operands=[m1, m3, pred], result_types=[M1, M3, IntegerType(32)])


WARP_OPS = (ShuffleOp, BallotOp)
"""Operations that the lanes of a warp reach together."""


Gpu = Dialect(
    "gpu",
    [
        DefaultStreamOp,
        InitOp,
        DeinitOp,
        AutoInitOp,
        AutoDeinitOp,
        StreamInitOp,
        StreamDeinitOp,
        StreamSyncOp,
        WithStreamsOp,
        AllocBlockOp,
        AllocAsynOp,
        FreeBlockOp,
        FreeAsynOp,
        CopyToDeviceBlockOp,
        CopyToDeviceAsynOp,
        CopyToHostBlockOp,
        CopyToHostAsynOp,
        AllocCopyBlockOp,
        AllocCopyAsynOp,
        BufAllocCopyOp,
        BufCopyToHostOp,
        LaunchOp,
        SyncWorkItemsOp,
        SyncedScopeOp,
        WorkgroupReduceOp,
        WorkgroupScanOp,
        FenceOp,
        LaneIdOp,
        ShuffleOp,
        BallotOp,
        YieldOp,
    ],
    [StreamType],
)
