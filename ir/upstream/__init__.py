"""Upstream MLIR GPU programs in gpuir's dialects: `import_upstream(module)` turns a module read
with `upstream_context()` (`ops`: the upstream ops it reads) into a gpuir program that every
provider runs (`is_upstream(text)` says whether a text is one).

What it makes:
- **Host functions** other than `@main` are inlined where they are called (one block each, no
  recursion).
- **`@main`** (upstream: `func.func @main()`, no arguments or results) becomes
  `@main(%m: !mem.M<0>) -> !mem.M<0>`: it opens the device (`gpu.init`) first and closes it
  (`gpu.deinit`) last, and threads the memory tokens through every op, `scf` region included.
- **memrefs** become pointers to nested arrays whose outer extent is `?` (`memref<4x8xf32>`:
  `!mem.ptr<!mem.array<? x !mem.array<8 x f32>>, a>`), so that a cast between static and
  dynamic shapes is the same pointer; the importer keeps each memref's extents for
  `memref.dim`. Host memrefs are in space 0, `gpu.alloc`'s in space 1. Only the outermost
  dimension may be dynamic. A `memref.subview` makes no op: its loads and stores index the
  source's memory through the view's offsets and strides (`View`), within the function.
- **Kernels**: each `gpu.func … kernel` of a `gpu.module`, and each `gpu.launch` body (outlined;
  the values it uses from outside become its arguments), becomes a kernel
  `(M1, M3, M4, M5, group, item, gx, gy, gz, bx, by, bz, args…)`, a memref argument as its
  pointer and its outer extent. A launch of `gx·gy·gz` blocks of `bx·by·bz` threads is a
  gpuir launch of that many work-groups and work-items; the 3-D ids come from the 1-D ones
  (`thread_id x = item mod bx`, `y = item / bx mod by`, `z = item / (bx·by)`, and so for
  blocks), `block_dim` and `grid_dim` from the arguments. `gpu.barrier` is
  `gpu.sync_work_items`.
- **Host memory a kernel uses** (`gpu.host_register`): a device copy, made at the register;
  every launch copies the host memory there before it runs, and back after it.
- `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy` (host to device and back) run as blocking ops, so
  `async` tokens and `gpu.wait` order nothing more; `printMemrefF32`, `I32`, `I64` and `F64`
  are `mem.print_memref`; `printNewline`, `printComma`, `printI64` print what mlir-runner's do.
- `cf` blocks of a kernel or of `@main` take the memory tokens after their arguments, and every
  branch passes them; `scf.for` and `scf.if` carry them as iteration values and results.

Anything else is an error at the op that says it is not supported (yet).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, builtin, cf, func, memref, printf, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
    UnrankedMemRefType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS, WARP
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.ir.source import ParsedChunk, SourceError, format_diagnostic, format_parse_error
from gpuir.ir.upstream import ops as upstream
from gpuir.ir.upstream.ops import upstream_context

HOST_SPACES = (0, 1, 4)
MAX_GLOBAL_ELEMENTS = 1 << 16
"""A memref.global's elements are stored one by one at @main's start: at most this many."""
KERNEL_SPACES = (1, 3, 4, 5)
PRINT_MEMREF = {"printMemrefF32", "printMemrefF64", "printMemrefI32", "printMemrefI64"}
PRINT_TEXT = {"printNewline": "\n", "printComma": ", ", "printOpen": "( ", "printClose": " )"}
PRINT_VALUE = {"printI64", "printU64"}
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
`maximumf` / `minimumf` have none)."""
PRINT_FLOAT = {"printF32", "printF64"}
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
NaN as the integer that loses (`Importer.num_reduce`)."""
PRINTF_FIELD = re.compile(r"%(?:l|ll|h|hh|z)?([diufeg%])")
UPSTREAM_MARKERS = re.compile(
    r"\bgpu\.(module|launch_func|func|host_register|launch\s+(async|blocks))\b|\bmemref\.\w+"
)
GPUIR_MARKERS = re.compile(r"!mem\.|\bgpu\.(init|launch\s+@|sync_work_items)\b")


COMMENT = re.compile(r"//[^\n]*")


def is_upstream(text: str) -> bool:
    """Whether `text` is written in upstream MLIR's GPU dialects rather than gpuir's: it uses
    `gpu.module`, `gpu.func`, `gpu.launch_func`, an upstream `gpu.launch` or `memref`, and none
    of gpuir's types or `gpu` ops (comments aside)."""
    code = COMMENT.sub("", text)
    return bool(UPSTREAM_MARKERS.search(code)) and not GPUIR_MARKERS.search(code)


SUBGROUP_KINDS: dict[str, Callable[[SSAValue, SSAValue], Operation]] = {
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
"""`gpu.subgroup_reduce`'s kinds: the op that combines two lanes' values."""
HOST_ACCESS = (
    "importing upstream MLIR: host code cannot access device memory (copy it with gpu.memcpy, "
    "or gpu.host_register host memory)"
)
VIEW_ONLY = (
    "of a memref.subview is not supported (yet): a subview may be loaded from, stored to, "
    "asked its dims, cast, copied (memref.copy) and viewed again"
)


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
    view: View | None = None
    """For a `memref.subview`: where its elements are in the memory of `ptr`."""


Index = int | SSAValue
"""An index known when importing (an `int`) or made (an `index` value)."""


@dataclass
class View:
    """A `memref.subview` of memory of rank n: its element (i_0, …) is the memory's element
    (offsets[k] + i_k · strides[k], …), in the memory's own indices."""

    offsets: list[Index]
    strides: list[Index]


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
    if isinstance(found, upstream.AddressSpaceAttr):
        return upstream.ADDRESS_SPACES[found.space.data]
    if isinstance(found, IntegerAttr) and found.value.data in (0, 1, 3, 5):
        return found.value.data
    raise unsupported(op, f"of memory space {found}")


def index(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


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
    if ref.view is not None:
        indices = [
            add(b, o, mul(b, i, t))
            for i, o, t in zip(indices, ref.view.offsets, ref.view.strides, strict=True)
        ]
    for i in indices:
        ptr = b.insert(mem.LeaOp(ptr, index(b, i) if isinstance(i, int) else i)).res
    return ptr


Tokens = dict[int, SSAValue]
"""The memory tokens of a scope, by address space."""


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
    """The state of one function being made: its tokens by space, and the values and memrefs
    of the upstream values it has made."""

    spaces: tuple[int, ...]
    tokens: dict[int, SSAValue] = field(default_factory=dict)
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    refs: dict[SSAValue, Ref] = field(default_factory=dict)
    ids: dict[tuple[str, int], SSAValue] = field(default_factory=dict)
    """In a kernel: its ids and sizes (`("thread", 0)`, …), made at its entry."""
    blocks: dict[Block, Block] = field(default_factory=dict)
    function: func.FuncOp | None = None
    """The function being made (a `cf.assert` splits its blocks)."""

    def inner(self) -> Scope:
        """The scope of a region inside: what is made there stays there."""
        return Scope(
            self.spaces,
            dict(self.tokens),
            dict(self.values),
            dict(self.refs),
            self.ids,
            self.blocks,
            self.function,
        )

    """The function's blocks as made: upstream block → its block, which takes the upstream
    block's arguments and then the tokens."""


class Importer:
    def __init__(self, source: builtin.ModuleOp):
        self.source = source
        self.out = builtin.ModuleOp([])
        self.kernel_names: dict[tuple[str, str], str] = {}
        self.names: set[str] = set()
        self.registered: list[Ref] = []
        self.stream: SSAValue | None = None
        self.main_op: func.FuncOp | None = None
        self.host_functions: dict[str, func.FuncOp] = {}
        """Host functions other than @main, by name: each call is their body, inlined."""
        self.globals: dict[str, upstream.GlobalOp] = {}
        """The program's memref.globals; @main makes each in host memory first."""
        self.global_refs: dict[str, Ref] = {}
        self.device_functions: dict[str, Operation] = {}
        """The functions of the gpu.module being read that are not kernels: inlined too."""
        self.inlined: list[func.CallOp] = []
        """The calls being inlined, innermost last."""

    # -- the module --

    def run(self) -> builtin.ModuleOp:
        main: func.FuncOp | None = None
        for op in self.source.body.block.ops:
            if isinstance(op, upstream.ModuleOp):
                if len(op.body.blocks) != 1:
                    raise unsupported(op, "with several blocks")
                self.device_functions = {}
                for inner in op.body.block.ops:
                    if not (isinstance(inner, upstream.FuncOp) and inner.kernel is not None):
                        if isinstance(inner, upstream.FuncOp | func.FuncOp):
                            self.device_functions[inner.sym_name.data] = inner
                for inner in op.body.block.ops:
                    if isinstance(inner, upstream.FuncOp) and inner.kernel is not None:
                        name = self.fresh(inner.sym_name.data)
                        self.kernel_names[(op.sym_name.data, inner.sym_name.data)] = name
                        self.kernel(inner.body, list(inner.body.blocks[0].args), name, inner)
            elif isinstance(op, func.FuncOp):
                if op.is_declaration:
                    continue
                if op.sym_name.data != "main":
                    self.host_functions[op.sym_name.data] = op  # inlined where it is called
                    continue
                main = op
            elif isinstance(op, upstream.GlobalOp):
                self.globals[op.sym_name.data] = op
            else:
                raise unsupported(op, "at the top level is not supported")
        if main is None:
            raise OpError(self.source, "importing upstream MLIR: the program has no @main")
        self.main(main)
        return self.out

    def fresh(self, name: str) -> str:
        found, count = name, 0
        while found in self.names or found == "main":
            count += 1
            found = f"{name}_{count}"
        self.names.add(found)
        return found

    # -- host code --

    def main(self, op: func.FuncOp) -> None:
        if op.function_type.inputs.data or op.function_type.outputs.data:
            raise unsupported(op, "@main with arguments or results is not supported (yet)")
        m0 = MemType(0)
        body = Block(arg_types=[m0])
        body.args[0].name_hint = "m"
        b = Builder(InsertPoint.at_end(body))
        init = b.insert(gpu.InitOp(body.args[0]))
        scope = Scope(HOST_SPACES, dict(zip(HOST_SPACES, init.results, strict=True)))
        self.stream = b.insert(gpu.DefaultStreamOp()).results[0]
        new = func.FuncOp("main", FunctionType.from_lists([m0], [m0]), Region(body))
        new.location = op.location
        self.out.body.block.add_op(new)
        self.main_op = new
        for made in self.globals.values():
            self.make_global(made, b, scope)
        self.blocks(op.body, body, b, scope, self.host_op)

    def host_op(self, op: Operation, b: Builder, s: Scope) -> None:
        if isinstance(op, func.ReturnOp) and self.inlined:
            self.return_from_inlined(op, s)
        elif isinstance(op, func.ReturnOp):
            for ref in self.registered:
                assert ref.mirror is not None
                s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.mirror.ptr)).results[0]
            done = b.insert(gpu.DeinitOp(s.tokens[0], s.tokens[1], s.tokens[4])).results[0]
            b.insert(func.ReturnOp(done))
        elif isinstance(op, memref.AllocOp | memref.AllocaOp):
            self.allocate(op, op.memref, list(op.dynamic_sizes), 0, b, s)
        elif isinstance(op, upstream.VectorPrintOp):
            self.vector_print(op, b, s)
        elif isinstance(op, upstream.AllocOp) and op.host_shared is not None:
            self.allocate(op, op.results[0], list(op.rest), 0, b, s)  # the host's, and a copy
            self.mirror(s.refs[op.results[0]], b, s)
        elif isinstance(op, upstream.AllocOp):
            self.allocate(op, op.results[0], list(op.rest), 1, b, s)
        elif isinstance(op, memref.DeallocOp):
            ref = self.ref(op, op.memref, s)
            if ref.space != 0:
                raise unsupported(op, "of device memory (gpu.dealloc frees it)")
            if ref.mirror is not None:  # registered: its device copy goes with it
                s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.mirror.ptr)).results[0]
                self.registered.remove(ref)
                ref.mirror = None
            s.tokens[0] = b.insert(mem.FreeOp(s.tokens[0], ref.ptr)).results[0]
        elif isinstance(op, upstream.DeallocOp):
            ref = self.ref(op, op.rest[0], s)
            s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.ptr)).results[0]
        elif isinstance(op, upstream.MemcpyOp):
            self.memcpy(op, b, s)
        elif isinstance(op, upstream.MemsetOp):
            self.memset(op, b, s)
        elif isinstance(op, upstream.WaitOp):
            pass  # every op ran to its end already
        elif isinstance(op, upstream.HostRegisterOp):
            self.register(op, b, s)
        elif isinstance(op, upstream.LaunchFuncOp):
            self.launch_func(op, b, s)
        elif isinstance(op, upstream.LaunchOp):
            self.launch_region(op, b, s)
        elif isinstance(op, func.CallOp):
            self.call(op, b, s)
        elif isinstance(op, memref.GetGlobalOp):
            found = self.global_refs.get(op.name_.root_reference.data)
            if found is None:
                raise OpError(op, f"importing upstream MLIR: no memref.global {op.name_}")
            s.refs[op.memref] = found
        else:
            self.common_op(op, b, s, self.host_op)

    def make_global(self, op: upstream.GlobalOp, b: Builder, s: Scope) -> None:
        """A memref.global in host memory, its elements stored one by one (`get_global` gives
        it; a kernel takes it once it is registered)."""
        type_ = op.type
        if not isinstance(type_, MemRefType) or DYNAMIC_INDEX in type_.get_shape():
            raise unsupported(op, f"of type {type_}")
        shape = list(type_.get_shape())
        dims = [index(b, d) for d in shape]
        ptr_type = PtrType(pointee_of(type_, op), 0)
        made = b.insert(mem.AllocOp(s.tokens[0], ptr_type, dims[0] if dims else None))
        s.tokens[0], ptr = made.results
        ptr.name_hint = op.sym_name.data
        value = op.initial_value
        if isinstance(value, DenseIntOrFPElementsAttr):
            count = math.prod(shape)
            values = list(value.get_values())
            if len(values) == 1 and count > 1:  # a splat
                values = values * count
            if len(values) > MAX_GLOBAL_ELEMENTS:
                raise unsupported(op, f"of more than {MAX_GLOBAL_ELEMENTS} elements")
            element_type = type_.element_type
            for flat, element in enumerate(values):
                at = ptr
                for i in np.unravel_index(flat, shape) if shape else ():
                    at = b.insert(mem.LeaOp(at, index(b, int(i)))).res
                if isinstance(element_type, builtin.IntegerType | IndexType):
                    attr: Attribute = IntegerAttr(int(element), element_type)
                else:
                    attr = FloatAttr(float(element), element_type)  # type: ignore[arg-type]
                constant = b.insert(arith.ConstantOp(attr)).result
                s.tokens[0] = b.insert(mem.StoreOp(s.tokens[0], at, constant)).results[0]
        elif value is not None:
            raise unsupported(op, f"with the initial value {value}")
        self.global_refs[op.sym_name.data] = Ref(ptr, dims, 0)

    def allocate(
        self,
        op: Operation,
        result: SSAValue,
        sizes: list[SSAValue],
        space: int,
        b: Builder,
        s: Scope,
    ) -> None:
        type_ = result.type
        assert isinstance(type_, MemRefType)
        dynamic = iter(self.mapped(op, sizes, s))
        dims = [next(dynamic) if d == DYNAMIC_INDEX else index(b, d) for d in type_.get_shape()]
        pointee = pointee_of(type_, op)
        extent = dims[0] if dims else None
        ptr_type = PtrType(pointee, space)
        if space == 0:
            made = b.insert(mem.AllocOp(s.tokens[0], ptr_type, extent))
            s.tokens[0] = made.results[0]
        else:
            made = b.insert(gpu.AllocBlockOp(s.tokens[1], ptr_type, extent))
            s.tokens[1] = made.results[0]
        made.results[1].name_hint = result.name_hint
        s.refs[result] = Ref(made.results[1], dims, space)

    def memset(self, op: upstream.MemsetOp, b: Builder, s: Scope) -> None:
        """`gpu.memset` of device memory: a host array of the value, copied there; of host
        memory: the value stored into each element."""
        ref = self.ref(op, op.rest[0], s)
        (value,) = self.mapped(op, [op.rest[1]], s)

        def fill(ptr: SSAValue, tokens: dict[int, SSAValue]) -> dict[int, SSAValue]:
            def store(at: list[SSAValue], b: Builder, t: dict[int, SSAValue]):
                target = element_at(Ref(ptr, ref.dims, 0), at, b)
                return {**t, 0: b.insert(mem.StoreOp(t[0], target, value)).results[0]}

            return each_element(ref.dims, tokens, b, store)

        if ref.space == 0:
            s.tokens.update(fill(ref.ptr, s.tokens))
            return
        assert isinstance(ref.ptr.type, PtrType)
        extent = ref.dims[0] if ref.dims else None
        made = b.insert(mem.AllocOp(s.tokens[0], PtrType(ref.ptr.type.pointee, 0), extent))
        token, host = made.results
        s.tokens.update(fill(host, {**s.tokens, 0: token}))
        copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], host, ref.ptr)
        token, s.tokens[1] = b.insert(copy).results
        s.tokens[0] = b.insert(mem.FreeOp(token, host)).results[0]

    def memcpy(self, op: upstream.MemcpyOp, b: Builder, s: Scope) -> None:
        dst, src = (self.ref(op, v, s) for v in op.rest)
        if src.space == 0 and dst.space == 1:
            copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr)
        elif src.space == 1 and dst.space == 0:
            copy = gpu.CopyToHostBlockOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr)
        elif src.space == 1 and dst.space == 1:  # through host memory made for it
            assert isinstance(src.ptr.type, PtrType)
            extent = src.dims[0] if src.dims else None
            made = b.insert(mem.AllocOp(s.tokens[0], PtrType(src.ptr.type.pointee, 0), extent))
            staging = made.results[1]
            out = b.insert(gpu.CopyToHostBlockOp(made.results[0], s.tokens[1], src.ptr, staging))
            back = gpu.CopyToDeviceBlockOp(*out.results, staging, dst.ptr)
            host, s.tokens[1] = b.insert(back).results
            s.tokens[0] = b.insert(mem.FreeOp(host, staging)).results[0]
            return
        else:  # within host memory: element by element, as memref.copy
            self.copy(op, src, dst, b, s)
            return
        s.tokens[0], s.tokens[1] = b.insert(copy).results

    def register(self, op: upstream.HostRegisterOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.operands[0], s)
        if ref.space != 0 or ref.mirror is not None:
            raise unsupported(op, "of memory that is not host memory, or twice")
        self.mirror(ref, b, s)

    def mirror(self, ref: Ref, b: Builder, s: Scope) -> None:
        """A device copy of host memory that kernels use (copied in before each launch and
        out after it): `gpu.host_register`, and `gpu.alloc host_shared`."""
        assert isinstance(ref.ptr.type, PtrType)
        ptr_type = PtrType(ref.ptr.type.pointee, 1)
        extent = ref.dims[0] if ref.dims else None
        made = b.insert(gpu.AllocBlockOp(s.tokens[1], ptr_type, extent))
        s.tokens[1] = made.results[0]
        ref.mirror = Ref(made.results[1], ref.dims, 1)
        self.registered.append(ref)

    def vector_print(self, op: upstream.VectorPrintOp, b: Builder, s: Scope) -> None:
        """`vector.print` of a scalar, then a newline, as MLIR lowers it to the runner's
        printers: a float as `printF32` / `printF64` (C's `%g`), an `i1` as 0 or 1, another
        integer or an index as `printI64` prints it."""
        (value,) = self.mapped(op, [op.source], s)
        type_ = value.type
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            value = b.insert(arith.ExtUIOp(value, i64)).result
        elif not isinstance(type_, IntegerType | IndexType | Float32Type | Float64Type):
            raise unsupported(op, f"of {type_} is not supported (yet): only of a scalar")
        made = b.insert(printf.PrintFormatOp("{}\n", value))
        if isinstance(type_, Float32Type | Float64Type):
            made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr("g")])

    def call(self, op: func.CallOp, b: Builder, s: Scope) -> None:
        callee = op.callee.root_reference.data
        if callee in PRINT_MEMREF | PRINT_VALUE | PRINT_FLOAT and len(op.arguments) != 1:
            raise unsupported(op, f"of @{callee} takes one argument")
        if callee in PRINT_MEMREF:
            ref = self.ref(op, op.arguments[0], s)
            if ref.space != 0:
                raise unsupported(op, "of device memory: copy it to the host first")
            s.tokens[0] = b.insert(mem.PrintMemrefOp(s.tokens[0], ref.ptr)).results[0]
        elif callee in PRINT_TEXT:
            b.insert(printf.PrintFormatOp(PRINT_TEXT[callee]))
        elif callee in PRINT_VALUE:
            b.insert(printf.PrintFormatOp("{}", *self.mapped(op, op.arguments[:1], s)))
        elif callee in PRINT_FLOAT:  # C's %g, as mlir-runner's printF32 / printF64
            made = b.insert(printf.PrintFormatOp("{}", *self.mapped(op, op.arguments[:1], s)))
            made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr("g")])
        elif callee in self.host_functions:
            self.inline(op, self.host_functions[callee], b, s)
        else:
            raise unsupported(op, f"of @{callee} is not supported (yet)")

    def return_from_inlined(self, op: Operation, s: Scope) -> None:
        """The end of an inlined call: its results are the values returned."""
        call = self.inlined[-1]
        for old, new in zip(call.results, self.mapped(op, op.operands, s), strict=True):
            s.values[old] = new

    def inline(
        self,
        op: func.CallOp,
        callee: Operation,
        b: Builder,
        s: Scope,
        each: Callable[[Operation, Builder, Scope], None] | None = None,
    ) -> None:
        """A call: the callee's body, made here with its arguments the call's (on the host, so
        registered memory stays registered, and launches inside copy it)."""
        name = callee.sym_name.data  # type: ignore[attr-defined]
        body = callee.regions[0]
        if len(body.blocks) != 1:
            raise unsupported(op, f"of @{name}, which has several blocks")
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
            self.block(entry, b, s, each or self.host_op)
        finally:
            self.inlined.pop()

    # -- launches --

    def launch_func(self, op: upstream.LaunchFuncOp, b: Builder, s: Scope) -> None:
        path = (op.kernel.root_reference.data, *(r.data for r in op.kernel.nested_references))
        if len(path) != 2 or tuple(path) not in self.kernel_names:
            raise OpError(op, f"importing upstream MLIR: no kernel {op.kernel}")
        if op.smem.data:
            raise unsupported(op, "with dynamic shared memory is not supported (yet)")
        sizes = list(op.rest[:6])
        self.launch(op, self.kernel_names[path], sizes, list(op.rest[6:]), b, s)

    def launch_region(self, op: upstream.LaunchOp, b: Builder, s: Scope) -> None:
        if op.smem.data:
            raise unsupported(op, "with dynamic shared memory is not supported (yet)")
        inside = {v for inner in op.body.walk() for v in inner.results}
        inside |= {a for block in op.body.blocks for a in block.args}
        for inner in op.body.walk():
            inside |= {a for region in inner.regions for block in region.blocks for a in block.args}
        captured: list[SSAValue] = []
        for inner in op.body.walk():
            for operand in inner.operands:
                if operand not in inside and operand not in captured:
                    captured.append(operand)
        name = self.fresh("launch_kernel")
        # a captured memref keeps the pointer the host made it with (a cast may have hidden
        # its static inner extents)
        pointers = {}
        for value in captured:
            ref = s.refs.get(value)
            if ref is not None:
                device = ref.mirror if ref.mirror is not None else ref
                pointers[value] = device.ptr.type
        self.kernel(op.body, captured, name, op, region_ids=True, pointers=pointers)
        self.launch(op, name, list(op.rest[:6]), captured, b, s)

    def launch(
        self,
        op: Operation,
        kernel: str,
        sizes: list[SSAValue],
        args: list[SSAValue],
        b: Builder,
        s: Scope,
    ) -> None:
        sizes = [self.as_index(v, b) for v in self.mapped(op, sizes, s)]
        n_groups = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
        n_groups = b.insert(arith.MuliOp(n_groups, sizes[2])).result
        n_items = b.insert(arith.MuliOp(sizes[3], sizes[4])).result
        n_items = b.insert(arith.MuliOp(n_items, sizes[5])).result
        values: list[SSAValue] = [*sizes]
        for arg in args:
            if arg in s.refs:
                ref = self.ref(op, arg, s)
                device = ref.mirror if ref.mirror is not None else ref
                if device.space != 1:
                    raise OpError(
                        op,
                        "importing upstream MLIR: a kernel takes host memory that is not "
                        "registered (gpu.host_register it, or copy it to a gpu.alloc)",
                    )
                values += [device.ptr, self.extent(device, b)]
            elif isinstance(arg.type, MemRefType | UnrankedMemRefType):
                raise unsupported(op, "of a memref the importer does not know")
            else:
                values += self.mapped(op, [arg], s)
        for ref in self.registered:
            assert ref.mirror is not None
            copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], ref.ptr, ref.mirror.ptr)
            s.tokens[0], s.tokens[1] = b.insert(copy).results
        assert self.stream is not None
        mems = [s.tokens[0], s.tokens[1], s.tokens[4]]
        done = b.insert(gpu.LaunchOp(kernel, n_groups, n_items, self.stream, mems, values))
        s.tokens[0], s.tokens[1], s.tokens[4] = done.results
        for ref in self.registered:
            assert ref.mirror is not None
            copy = gpu.CopyToHostBlockOp(s.tokens[0], s.tokens[1], ref.mirror.ptr, ref.ptr)
            s.tokens[0], s.tokens[1] = b.insert(copy).results

    def as_index(self, value: SSAValue, b: Builder) -> SSAValue:
        if isinstance(value.type, IndexType):
            return value
        return b.insert(arith.IndexCastOp(value, IndexType())).result

    def extent(self, ref: Ref, b: Builder) -> SSAValue:
        return ref.dims[0] if ref.dims else index(b, 1)

    # -- kernels --

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
        index_t = IndexType()
        inputs: list[Attribute] = [*KERNEL_TOKENS, index_t, index_t, *[index_t] * 6]
        kinds: list[tuple[SSAValue, PtrType | None]] = []
        workgroup = private = 0
        if isinstance(op, upstream.FuncOp):
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
        hints = ["m1", "m3", "m4", "m5", "group", "item"]
        hints += [f"{k}_{d}" for k in ("grid", "block") for d in upstream.DIMENSIONS]
        for param, type_ in kinds:
            hint = param.name_hint or "arg"
            hints += [hint, f"{hint}_extent"] if type_ is not None else [hint]
        for arg, hint in zip(args, hints, strict=True):
            arg.name_hint = hint
        s = Scope(KERNEL_SPACES, dict(zip(KERNEL_SPACES, args[:4], strict=True)))
        group, item = args[4], args[5]
        grid, dims = args[6:9], args[9:12]
        rest = iter(args[12:])
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
            s.refs[param] = Ref(ptr, made, 1)
        for d in range(3):
            s.ids[("grid", d)], s.ids[("block", d)] = grid[d], dims[d]
        s.ids.update(self.ids(b, group, grid, "group"))
        s.ids.update(self.ids(b, item, dims, "thread"))
        if region_ids:  # gpu.launch: block ids, thread ids, grid sizes, block sizes
            order = [("group", 0), ("group", 1), ("group", 2), ("thread", 0), ("thread", 1)]
            order += [("thread", 2), *(("grid", d) for d in range(3))]
            order += [("block", d) for d in range(3)]
            for arg, key in zip(entry.args, order, strict=True):
                s.values[arg] = s.ids[key]
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
        self.blocks(body, block, b, s, self.kernel_op)

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

    def kernel_op(self, op: Operation, b: Builder, s: Scope) -> None:
        if isinstance(op, upstream.ReturnOp | func.ReturnOp) and self.inlined:
            self.return_from_inlined(op, s)
        elif isinstance(op, func.CallOp):
            callee = self.device_functions.get(op.callee.root_reference.data)
            if callee is None:
                raise unsupported(
                    op, f"of @{op.callee.root_reference.data} in a kernel is not supported (yet)"
                )
            self.inline(op, callee, b, s, self.kernel_op)
        elif isinstance(op, upstream.ReturnOp | upstream.TerminatorOp):
            if op.operands:
                raise unsupported(op, "with values is not supported")
            b.insert(func.ReturnOp(*(s.tokens[t] for t in KERNEL_SPACES)))
        elif isinstance(op, upstream.IdOp):
            kind = {
                "gpu.thread_id": "thread",
                "gpu.block_id": "group",
                "gpu.block_dim": "block",
                "gpu.grid_dim": "grid",
            }.get(op.name)
            d = upstream.id_dimension(op)
            if kind is not None:
                s.values[op.results[0]] = s.ids[(kind, d)]
            else:  # gpu.global_id
                base = b.insert(arith.MuliOp(s.ids[("group", d)], s.ids[("block", d)])).result
                s.values[op.results[0]] = b.insert(arith.AddiOp(base, s.ids[("thread", d)])).result
        elif isinstance(op, upstream.LaneIdOp):
            s.values[op.results[0]] = b.insert(gpu.LaneIdOp()).results[0]
        elif isinstance(op, upstream.BarrierOp):
            done = b.insert(gpu.SyncWorkItemsOp(s.tokens[1], s.tokens[3]))
            s.tokens[1], s.tokens[3] = done.results
        elif isinstance(op, upstream.AllReduceOp):
            self.all_reduce(op, b, s)
        elif isinstance(op, upstream.ShuffleOp):
            value, offset, width = self.mapped(op, op.operands, s)
            made = gpu.ShuffleOp(op.mode.data, s.tokens[1], s.tokens[3], value, offset, width)
            s.tokens[1], s.tokens[3], result, valid = b.insert(made).results
            result.name_hint, valid.name_hint = op.results[0].name_hint, op.results[1].name_hint
            s.values[op.results[0]], s.values[op.results[1]] = result, valid
        elif isinstance(op, upstream.SubgroupReduceOp):
            self.subgroup_reduce(op, b, s)
        elif isinstance(op, upstream.PrintfOp):
            self.printf(op, b, s)
        elif isinstance(op, cf.AssertOp):
            self.kernel_assert(op, b, s)
        elif isinstance(op, memref.AllocaOp):
            if op.dynamic_sizes:
                raise unsupported(op, "of a dynamic size in a kernel is not supported (yet)")
            type_ = op.memref.type
            assert isinstance(type_, MemRefType)
            self.slot(op, op.memref, space_of(type_, 5, op), b, s)
        else:
            self.common_op(op, b, s, self.kernel_op)

    def all_reduce(self, op: upstream.AllReduceOp, b: Builder, s: Scope) -> None:
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

    def subgroup_reduce(self, op: upstream.SubgroupReduceOp, b: Builder, s: Scope) -> None:
        """`gpu.subgroup_reduce`: a tree of `gpu.shuffle down` within the cluster (the warp,
        or `cluster(size = n)` lanes of it) that combines into its first lane, skipping the
        lanes that do not exist (a group's last warp may be partial), then `gpu.shuffle idx`
        of that lane to every lane. A value of fewer than 32 or 64 bits (`f16`, `i8`, …) is
        shuffled as its bits zero-extended to `i32` or `i64`, as MLIR's lowering does."""
        combine = SUBGROUP_KINDS.get(op.kind.data)
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
        returns; the others go on (in a new block)."""
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
        file, line, name = assert_place(op.location, s.function.sym_name.data)
        message = op.msg.data.replace("{", "{{").replace("}", "}}")
        text = (
            f"{file}:{line}: {name}: block: [{{}},{{}},{{}}], "
            f"thread: [{{}},{{}},{{}}] Assertion `{message}` failed.\n"
        )
        ids = [s.ids[("group", d)] for d in range(3)] + [s.ids[("thread", d)] for d in range(3)]
        for made in (
            fb.insert(printf.PrintFormatOp(text, *ids)),
            fb.insert(func.ReturnOp(*failed.args)),
        ):
            made.location = op.location
        b.insertion_point = InsertPoint.at_end(going)
        s.tokens = dict(zip(s.spaces, going.args, strict=True))

    def printf(self, op: upstream.PrintfOp, b: Builder, s: Scope) -> None:
        """`gpu.printf`'s C format as `printf.print_format`'s: each integer conversion a `{}`,
        each `%f`, `%e`, `%g` a `{}` whose value has that C conversion (`gpu.printf_specs`)."""
        text: list[str] = []
        specs: list[str] = []
        source, at = op.format.data, 0
        for found in PRINTF_FIELD.finditer(source):
            text.append(source[at : found.start()].replace("{", "{{").replace("}", "}}"))
            at = found.end()
            conversion = found.group(1)
            if conversion == "%":
                text.append("%")
                continue
            text.append("{}")
            specs.append(conversion if conversion in "feg" else "")
        text.append(source[at:].replace("{", "{{").replace("}", "}}"))
        if "%" in PRINTF_FIELD.sub("", source):
            raise unsupported(
                op,
                "with a conversion other than %d, %i, %u, %f, %e, %g (and their l, ll) is not "
                "supported (yet)",
            )
        values = self.mapped(op, op.operands, s)
        if len(values) != len(specs):
            raise unsupported(op, f"with {len(specs)} conversions for {len(values)} values")
        for value, spec in zip(values, specs, strict=True):
            if spec and not isinstance(
                value.type, builtin.Float16Type | builtin.Float32Type | builtin.Float64Type
            ):
                raise unsupported(op, f"%{spec} of a value of type {value.type}")
        made = b.insert(printf.PrintFormatOp("".join(text), *values))
        if any(specs):
            made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr(x) for x in specs])

    # -- both sides --

    def blocks(
        self,
        region: Region,
        entry: Block,
        b: Builder,
        s: Scope,
        each: Callable[[Operation, Builder, Scope], None],
    ) -> None:
        """The blocks of a function's `region`: its entry's ops at `b` (in `entry`), each other
        block a new block after it, which takes the block's arguments and then the tokens (every
        branch passes them)."""
        sources = list(region.blocks)
        assert entry.parent is not None
        s.blocks = {sources[0]: entry}
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
        self.block(sources[0], b, s, each)
        for source in sources[1:]:
            made = s.blocks[source]
            count = len(source.args)
            s.tokens = {t: made.args[count + k] for k, t in enumerate(s.spaces)}
            self.block(source, Builder(InsertPoint.at_end(made)), s, each)

    def block(
        self, block: Block, b: Builder, s: Scope, each: Callable[[Operation, Builder, Scope], None]
    ) -> None:
        """Each op of `block` made at `b`, the ops made for it at its location."""
        for op in block.ops:
            target = b.insertion_point.block
            last = target.last_op
            each(op, b, s)
            made = target.first_op if last is None else last.next_op
            while made is not None:
                for inner in made.walk():
                    if isinstance(inner.location, UnknownLoc):
                        inner.location = op.location
                made = made.next_op

    def common_op(
        self, op: Operation, b: Builder, s: Scope, each: Callable[[Operation, Builder, Scope], None]
    ) -> None:
        if isinstance(op, memref.LoadOp | memref.StoreOp):
            self.access(op, b, s)
        elif isinstance(op, memref.DimOp):
            ref = self.ref(op, op.source, s, view=True)
            found = op.index.owner
            if not isinstance(found, arith.ConstantOp):
                raise unsupported(op, "of a dimension that is not a constant")
            dim = found.value.value.data  # type: ignore[attr-defined]
            if not 0 <= dim < len(ref.dims):
                raise unsupported(op, f"of dimension {dim} of a memref of rank {len(ref.dims)}")
            s.values[op.result] = ref.dims[dim]
        elif isinstance(op, upstream.CastOp):
            s.refs[op.results[0]] = self.ref(op, op.operands[0], s, view=True)
        elif isinstance(op, memref.SubviewOp):
            self.subview(op, b, s)
        elif isinstance(op, upstream.CopyOp):
            try:
                op.verify_()
            except VerifyException as e:
                raise unsupported(op, str(e)) from None
            src = self.ref(op, op.source, s, view=True)
            self.copy(op, src, self.ref(op, op.destination, s, view=True), b, s)
        elif isinstance(op, upstream.AtomicRmwOp):
            self.atomic(op, b, s)
        elif isinstance(op, scf.ForOp):
            self.for_op(op, b, s, each)
        elif isinstance(op, scf.IfOp):
            self.if_op(op, b, s, each)
        elif isinstance(op, cf.BranchOp):
            args = [*self.mapped(op, op.arguments, s), *self.token_list(s)]
            b.insert(cf.BranchOp(self.successor(op, op.successor, s), *args))
        elif isinstance(op, cf.ConditionalBranchOp):
            (cond,) = self.mapped(op, [op.cond], s)
            then_args = [*self.mapped(op, op.then_arguments, s), *self.token_list(s)]
            else_args = [*self.mapped(op, op.else_arguments, s), *self.token_list(s)]
            then_block = self.successor(op, op.then_block, s)
            else_block = self.successor(op, op.else_block, s)
            b.insert(cf.ConditionalBranchOp(cond, then_block, then_args, else_block, else_args))
        elif isinstance(op, scf.YieldOp):
            b.insert(scf.YieldOp(*self.mapped(op, op.operands, s), *self.token_list(s)))
        elif op.dialect_name() in ("arith", "math") and not op.regions:
            operands = self.mapped(op, op.operands, s)
            mapping = dict(zip(op.operands, operands, strict=True))
            clone = op.clone(value_mapper=mapping)
            b.insert(clone)
            for old, new in zip(op.results, clone.results, strict=True):
                s.values[old] = new
        else:
            raise unsupported(op)

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
        """The memref `value` as the importer made it; a subview only where `view`."""
        found = s.refs.get(value)
        if found is None:
            raise unsupported(op, "on a memref the importer did not make (yet)")
        if found.view is not None and not view:
            raise unsupported(op, VIEW_ONLY)
        return found

    def token_list(self, s: Scope) -> list[SSAValue]:
        return [s.tokens[t] for t in s.spaces]

    def subview(self, op: memref.SubviewOp, b: Builder, s: Scope) -> None:
        """A view of the source's memory: its offsets and strides composed with the source's
        (static ones folded here, dynamic ones made as `arith`)."""
        source = self.ref(op, op.source, s, view=True)
        rank = len(source.dims)
        result = op.result.type
        assert isinstance(result, MemRefType)
        if len(result.get_shape()) != rank:
            raise unsupported(op, "that drops dimensions is not supported (yet)")
        offsets, sizes, strides = (
            self.static_or_made(op, static.get_values(), list(dynamic), s)
            for static, dynamic in (
                (op.static_offsets, op.offsets),
                (op.static_sizes, op.sizes),
                (op.static_strides, op.strides),
            )
        )
        if len(offsets) != rank or len(sizes) != rank or len(strides) != rank:
            raise unsupported(op, f"with other than {rank} offsets, sizes and strides")
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

    def atomic(self, op: upstream.AtomicRmwOp, b: Builder, s: Scope) -> None:
        """`memref.atomic_rmw` as `mem.atomic_rmw` of the element (its old value)."""
        kind = ATOMIC_KINDS.get(op.kind.data)
        if kind is None:
            raise unsupported(op, f"of kind {op.kind.data} is not supported (yet)")
        value_arg, memref_arg, *indices = op.operands
        ref = self.ref(op, memref_arg, s, view=True)
        ptr = self.element(op, ref, indices, b, s)
        if ref.space not in s.tokens:
            raise unsupported(op, f"of memory in address space {ref.space} here")
        (value,) = self.mapped(op, [value_arg], s)
        done = b.insert(mem.AtomicRmwOp(kind, s.tokens[ref.space], ptr, value))
        s.tokens[ref.space] = done.results[0]
        s.values[op.results[0]] = done.results[1]

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

    def for_op(self, op: scf.ForOp, b: Builder, s: Scope, each) -> None:  # noqa: ANN001
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
        self.block(old, Builder(InsertPoint.at_end(body)), inner, each)
        made = b.insert(scf.ForOp(lb, ub, step, [*inits, *self.token_list(s)], body))
        for old_result, new in zip(op.results, made.results, strict=False):
            s.values[old_result] = new
        for k, space in enumerate(s.spaces):
            s.tokens[space] = made.results[len(inits) + k]

    def if_op(self, op: scf.IfOp, b: Builder, s: Scope, each) -> None:  # noqa: ANN001
        (cond,) = self.mapped(op, [op.cond], s)
        types = [*(r.type for r in op.results), *(MemType(t) for t in s.spaces)]
        regions = []
        for region in (op.true_region, op.false_region):
            block = Block()
            inner = s.inner()
            ib = Builder(InsertPoint.at_end(block))
            if region.blocks:
                self.block(region.blocks[0], ib, inner, each)
            else:
                ib.insert(scf.YieldOp(*self.token_list(inner)))
            regions.append(Region(block))
        made = b.insert(scf.IfOp(cond, types, regions[0], regions[1]))
        for old_result, new in zip(op.results, made.results, strict=False):
            s.values[old_result] = new
        for k, space in enumerate(s.spaces):
            s.tokens[space] = made.results[len(op.results) + k]


def import_upstream(module: builtin.ModuleOp) -> builtin.ModuleOp:
    """A gpuir program from an upstream MLIR GPU program (module docstring); an `OpError` at
    the first op it cannot import."""
    return Importer(module).run()


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


def region_kind(op: upstream.AllReduceOp) -> str | None:
    """The kind of a `gpu.all_reduce` whose region combines its two arguments with one op of
    `REGION_KINDS` and yields the result; None for any other region."""
    if len(op.body.blocks) != 1:
        return None
    block = op.body.blocks[0]
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2 or not isinstance(ops[1], upstream.YieldOp):
        return None
    combine, done = ops
    if set(combine.operands) != set(block.args) or len(combine.operands) != 2:
        return None
    if list(done.operands) != list(combine.results):
        return None
    return REGION_KINDS.get(combine.name)


class UpstreamImportError(SourceError):
    """An upstream program that cannot be imported: the diagnostic, at its op, as text."""


def read_upstream(text: str, name: str, line_offset: int = 0) -> ParsedChunk:
    """An upstream program's text, read and imported, as a parsed chunk whose ops have the
    locations of the upstream ops they come from. A `ParseError` as the parser raises it; an
    `UpstreamImportError` where an op cannot be imported."""
    from gpuir.ir.locating_parser import LocatingParser

    parser = LocatingParser(upstream_context(), text, name)
    with warnings.catch_warnings():  # xDSL's: an operand parsed before its type is known
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            source = parser.parse_module()
        except VerifyException as e:  # an op's format checked a type as it read it
            raise ParseError(Span(parser.pos, parser.pos, parser.lexer.input), str(e)) from e
    parsed = ParsedChunk(source, name, text, line_offset, parser.op_starts)
    parsed.set_locations()
    try:
        module = import_upstream(source)
    except OpError as e:
        raise UpstreamImportError(format_diagnostic(e, parsed)) from e
    return ParsedChunk(module, name, text, line_offset, {})


def read_upstream_program(text: str, name: str) -> ParsedChunk:
    """`read_upstream`, with a parse error too as an `UpstreamImportError` (its diagnostic as
    text): what gpu-run and the API read a whole upstream program with."""
    try:
        return read_upstream(text, name)
    except ParseError as e:
        raise UpstreamImportError(format_parse_error(e, 0)) from e
