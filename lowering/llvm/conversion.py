"""What the lowering passes share: the device and host modules (`DeviceModulePass`, a pass that
lowers each device module), the type conversion and the casts, the index width, running a list
of stages and checking that all is lowered (`stage_passes`, `check_lowered`: `device-to-llvm`,
the cpu provider's lowering and `host-to-llvm`), and which `printf` formats compile (`pieces`:
the device's and the host's printf lowering). (`KeepLocations`, which carries each rewritten
op's location to the ops that replace it, and `rewrite_once`, the walk with it, are
`gpuir.passes.locations`: the passes and the lowerings share them.)

The passes convert one dialect each, in the style of MLIR's `convert-*-to-llvm`: an op whose
operands or results change type is rebuilt on converted values, and
`builtin.unrealized_conversion_cast` bridges to the ops that are not converted yet (those casts
come in pairs and `reconcile-unrealized-casts` removes them at the end). So the IR between any
two passes is valid and can be printed.

Types (`llvm_type`):

| gpuir | llvm dialect |
| --- | --- |
| `index` | `i64`; `i32` in a module with `gpu.index_bitwidth = 32` (see below) |
| `iN`, `f16`, `f32`, `f64` | the same |
| `!mem.ptr<T, a>` | `!llvm.ptr<a>` (`!llvm.ptr` for `a = 0`, the generic space) |
| `!gpu.stream` (host code) | `!llvm.ptr`: the runtime's stream handle (`gpuirStream`, null for the default stream) |
| `!mem.array<N x T>` (a pointee) | `!llvm.array<N x T'>` |
| `!llvm.struct<(T, …)>` (a struct argument) | `!llvm.struct<(T', …)>` |
| `vector<d0 x … x T>` | `vector<(d0 · …) x T'>` (row-major; `vector_to_llvm`) |
| `!mem.M<a>` | none: `erase-mem-tokens` removes the tokens |

Index bitwidth. A device module with the attribute `gpu.index_bitwidth = 32 : i64` (which
`device-to-llvm{index-bitwidth=32}` sets) has 32-bit `index` *values*: index arithmetic,
comparisons, block arguments, device function parameters and results are `i32` (MLIR's
`index-bitwidth` option). What is laid out in memory or passed by the runtime keeps 64 bits:
an `index` in memory (a load, a store, a struct field, an array element) is 8 bytes, loaded
as `i64` and truncated, sign-extended before a store; a kernel's `index` parameter is an
`i64` (the kernel ABI), truncated once at the kernel's entry (`func_to_llvm`). `index_type(op)`
is the llvm type of `index` values where `op` is.
"""

from __future__ import annotations

import string
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from math import prod
from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.gpu import (
    DEVICE_ATTR,
    KERNEL_TOKENS,
    FragmentType,
    StreamType,
    check_struct_argument,
)
from gpuir.dialects.gpu import KERNEL_ATTR as KERNEL_ATTR  # the lowerings import it from here
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.ir.data_layout import POINTER_SIZE, LayoutError, align_of, size_of
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pipelines import DEVICE_TO_LLVM

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects import printf

"""The unit attribute of the device module that `split-apply` makes."""
HOST_LOWERING_ATTR = "gpu.host_lowering"
"""The unit attribute that `host-to-llvm` gives the host module while it lowers it, so that the
stages it shares with `device-to-llvm` (`device_modules`) lower that module."""
NVVM_KERNEL_ATTR = "nvvm.kernel"
"""The kernel marker on an `llvm.func`, as MLIR's `convert-gpu-to-nvvm` sets it; the
translation to LLVM IR gives such a function the `ptx_kernel` calling convention."""

INDEX_BITWIDTH_ATTR = "gpu.index_bitwidth"
"""The device module's attribute that makes `index` values 32-bit (an `i64` attribute, 32 or
64; absent means 64)."""
INDEX_BITWIDTHS = (32, 64)

FLOAT_TYPES = (Float16Type, Float32Type, Float64Type)


def check_kernel_signature(kernel: FuncOp) -> None:
    """A kernel takes the four device tokens and the two ids first, returns the tokens, and has
    a body; anything else is an error at the kernel."""
    inputs = kernel.function_type.inputs.data
    outputs = kernel.function_type.outputs.data
    prefix = (*KERNEL_TOKENS, IndexType(), IndexType())
    if inputs[:6] != prefix or outputs != KERNEL_TOKENS:
        raise OpError(
            kernel,
            f"the kernel @{kernel.sym_name.data} must take "
            f"({', '.join(map(str, prefix))}, …) and return "
            f"({', '.join(map(str, KERNEL_TOKENS))}), found {kernel.function_type}",
        )
    if kernel.is_declaration:
        raise OpError(kernel, f"the kernel @{kernel.sym_name.data} has no body")
    for i, type_ in enumerate(inputs[6:]):
        try:
            check_struct_argument(type_, f"parameter {i + 6} of the kernel @{kernel.sym_name.data}")
        except VerifyException as e:
            raise OpError(kernel, str(e)) from None


def device_modules(op: ModuleOp, pass_name: str) -> list[ModuleOp]:
    """The device modules to lower: `op` itself when it is one, otherwise the modules with
    the `gpu.device` attribute directly inside it. None is an error. A module that `host-to-llvm`
    is lowering (`HOST_LOWERING_ATTR`) is lowered by the same stages."""
    if DEVICE_ATTR in op.attributes or HOST_LOWERING_ATTR in op.attributes:
        return [op]
    found = [m for m in op.ops if isinstance(m, ModuleOp) and DEVICE_ATTR in m.attributes]
    if not found:
        raise OpError(
            op,
            f"{pass_name}: found no device module (a builtin.module with the {DEVICE_ATTR} "
            "attribute); run split-apply (or gpu-pipeline) first",
        )
    return found


class DeviceModulePass(ModulePass):
    """A pass that lowers each device module (`device_modules`) by itself: `lower_module`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for module in device_modules(op, self.name):
            self.lower_module(module)

    @abstractmethod
    def lower_module(self, module: ModuleOp) -> None: ...


def host_module(op: ModuleOp, pass_name: str) -> ModuleOp:
    """The host module of `op`: `op` itself while `host-to-llvm` lowers it, else its `@host`
    module when it is split, else `op` itself (when it holds no device module)."""
    if HOST_LOWERING_ATTR in op.attributes:
        return op
    inner = [m for m in op.ops if isinstance(m, ModuleOp)]
    named = [m for m in inner if m.sym_name is not None and m.sym_name.data == "host"]
    if named:
        return named[0]
    if DEVICE_ATTR in op.attributes or any(DEVICE_ATTR in m.attributes for m in inner):
        raise OpError(
            op, f"{pass_name}: found no host module (a builtin.module @host beside @device)"
        )
    return op


@contextmanager
def lowering_host(module: ModuleOp) -> Iterator[ModuleOp]:
    """`module` marked `HOST_LOWERING_ATTR` for the time of the block (if it is not already)."""
    if HOST_LOWERING_ATTR in module.attributes:
        yield module
        return
    module.attributes[HOST_LOWERING_ATTR] = UnitAttr()
    try:
        yield module
    finally:
        del module.attributes[HOST_LOWERING_ATTR]


def ptr_type(space: int) -> llvm.LLVMPointerType:
    """`!llvm.ptr<space>`; the generic space 0 prints as `!llvm.ptr`, as in MLIR."""
    return llvm.LLVMPointerType(NoneAttr() if space == 0 else IntAttr(space))


def ptr_space(ptr: llvm.LLVMPointerType) -> int:
    return ptr.addr_space.data if isinstance(ptr.addr_space, IntAttr) else 0


def in_host_lowering(op: Operation) -> bool:
    """Whether `op` is in a module that `host-to-llvm` is lowering (`HOST_LOWERING_ATTR`)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ModuleOp) and HOST_LOWERING_ATTR in parent.attributes:
            return True
        parent = parent.parent_op()
    return False


def index_type(op: Operation) -> IntegerType:
    """The llvm type of `index` values in the module of `op` (`op` itself when it is a module):
    `i32` where the module has `gpu.index_bitwidth = 32`, else `i64`."""
    module = op
    while not isinstance(module, ModuleOp):
        parent = module.parent_op()
        if parent is None:
            return i64
        module = parent
    width = module.attributes.get(INDEX_BITWIDTH_ATTR)
    if width is None:
        return i64
    if not isinstance(width, IntegerAttr) or width.value.data not in INDEX_BITWIDTHS:
        raise OpError(
            module,
            f"{INDEX_BITWIDTH_ATTR} must be 32 : i64 or 64 : i64, found {width}",
        )
    return i32 if width.value.data == 32 else i64


def llvm_type(t: Attribute, index: IntegerType = i64) -> Attribute | None:
    """The llvm dialect type of a gpuir type; None when there is none (tokens, streams, …).
    `index` is what `index` values become (`index_type`); in memory (array elements, struct
    fields) an `index` is always `i64`."""
    if isinstance(t, IndexType):
        return index
    if isinstance(t, IntegerType | Float16Type | Float32Type | Float64Type | BFloat16Type):
        return t
    if isinstance(t, PtrType):
        return ptr_type(t.space.data)
    if isinstance(t, StreamType):  # host code: the runtime's opaque stream handle
        return ptr_type(0)
    if isinstance(t, ArrayType):
        element = llvm_type(t.element_type)
        if t.is_dynamic or element is None:
            return None
        return llvm.LLVMArrayType(t.size.data, element)
    if isinstance(t, llvm.LLVMStructType):  # a struct argument: its fields converted
        fields = [llvm_type(field) for field in t.types.data]
        if any(field is None for field in fields):
            return None
        return llvm.LLVMStructType(t.struct_name, ArrayAttr(fields))  # type: ignore[arg-type]
    if isinstance(t, llvm.LLVMPointerType | llvm.LLVMArrayType):
        return t
    if isinstance(t, FragmentType):  # a lane's wmma registers (gpuir.lowering.nvptx.mma)
        return fragment_registers(t)
    if isinstance(t, VectorType):  # one LLVM vector of all its elements, row-major
        element = llvm_type(t.element_type, index)
        if element is None or t.get_num_scalable_dims():
            return None
        return VectorType(element, [prod(t.get_shape())])
    return None


def fragment_registers(t: FragmentType) -> llvm.LLVMStructType:
    """A lane's share of a fragment in NVVM's `wmma.m16n16k16` registers: 8 `float` of an f32
    accumulator, 4 `<2 x half>` of an f16 one, 8 `<2 x half>` of an f16 operand; in
    `wmma.m8n8k4`'s of f64: 2 `double` of an accumulator, 1 of an operand."""
    if t.element_type == Float64Type():
        return llvm.LLVMStructType.from_type_list(
            [Float64Type()] * (2 if t.kind.data == "c" else 1)
        )
    if t.element_type == Float32Type():
        return llvm.LLVMStructType.from_type_list([Float32Type()] * 8)
    count = 4 if t.kind.data == "c" else 8
    return llvm.LLVMStructType.from_type_list([VectorType(Float16Type(), [2])] * count)


def require_llvm_type(
    t: Attribute, op: Operation, what: str = "the type", index: IntegerType = i64
) -> Attribute:
    """`llvm_type(t, index)`; none is an error at `op` (`what` names `t` in it)."""
    converted = llvm_type(t, index)
    if converted is None:
        raise OpError(op, f"'{op.name}': {what} {t} has no LLVM equivalent")
    return converted


def memory_type(t: Attribute) -> Attribute | None:
    """The llvm type of a `t` in memory: `llvm_type` with 64-bit `index`."""
    return llvm_type(t, i64)


def is_legal(t: Attribute) -> bool:
    """Whether values of type `t` can appear in lowered code as they are."""
    return llvm_type(t) == t


def element_type(pointee: Attribute, op: Operation) -> Attribute:
    """The llvm type of what a `!mem.ptr<pointee, a>` points to (for an array: of its
    elements, which is what loads, stores and GEPs see)."""
    if isinstance(pointee, ArrayType):
        pointee = pointee.element_type
    return require_llvm_type(pointee, op)


def to_llvm(b: Builder, value: SSAValue, op: Operation) -> SSAValue:
    """`value` as a value of its llvm type: itself when its type is legal, else the input of
    the cast that made it, else a new `unrealized_conversion_cast`."""
    target = llvm_type(value.type, index_type(op))
    if isinstance(value.type, StreamType) and not in_host_lowering(op):
        target = None  # a stream is a host value: device code has none
    if target is None:
        raise OpError(op, f"'{op.name}': a value of type {value.type} has no LLVM equivalent")
    if target == value.type:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == target
    ):
        return owner.inputs[0]
    return b.insert(UnrealizedConversionCastOp.get([value], [target])).results[0]


def all_to_llvm(b: Builder, values: Sequence[SSAValue], op: Operation) -> list[SSAValue]:
    return [to_llvm(b, v, op) for v in values]


def from_llvm(b: Builder, value: SSAValue, old_type: Attribute) -> SSAValue:
    """A lowered value as a value of the type its users still expect."""
    if value.type == old_type:
        return value
    return b.insert(UnrealizedConversionCastOp.get([value], [old_type])).results[0]


def to_memory(b: Builder, value: SSAValue, op: Operation) -> SSAValue:
    """`value` as it is stored in memory: `to_llvm`, an `index` sign-extended to `i64`."""
    lowered = to_llvm(b, value, op)
    if isinstance(value.type, IndexType) and lowered.type != i64:
        return b.insert(llvm.SExtOp(lowered, i64)).results[0]
    return lowered


def from_memory(b: Builder, value: SSAValue, old_type: Attribute, op: Operation) -> SSAValue:
    """A value read from memory (an `index` is an `i64` there) as a value of `old_type`."""
    index = index_type(op)
    if isinstance(old_type, IndexType) and value.type != index:
        value = b.insert(llvm.TruncOp(value, index)).results[0]
    return from_llvm(b, value, old_type)


def constant(b: Builder, value: int, type_: Attribute = i64) -> SSAValue:
    """An `llvm.mlir.constant` of an integer type."""
    return b.insert(llvm.ConstantOp(IntegerAttr(value, type_), type_)).result


def size_and_align(t: Attribute, op: Operation) -> tuple[int, int]:
    """Bytes and alignment of a `t` in memory (`gpuir.ir.data_layout`, which NVPTX's and the
    host's data layouts agree with); the llvm dialect's pointers and arrays as theirs."""
    if isinstance(t, llvm.LLVMPointerType):
        return POINTER_SIZE, POINTER_SIZE
    if isinstance(t, llvm.LLVMArrayType):
        size, align = size_and_align(t.type, op)
        return t.size.data * size, align
    try:
        return size_of(t), align_of(t)
    except LayoutError:
        raise OpError(op, f"'{op.name}': the size of {t} is not known") from None


def declare_function(
    module: ModuleOp,
    name: str,
    inputs: Sequence[Attribute],
    output: Attribute | None,
    op: Operation,
) -> None:
    """Declare the external `llvm.func @name` in `module` unless it is there already (with the
    same type; another type is an error at `op`)."""
    function_type = llvm.LLVMFunctionType(inputs, output)
    existing = SymbolTable.lookup_symbol(module, name)
    if existing is None:
        declaration = llvm.FuncOp(name, function_type, linkage=llvm.LinkageAttr("external"))
        Rewriter.insert_op(declaration, InsertPoint.at_start(module.body.block))
        return
    if not isinstance(existing, llvm.FuncOp) or existing.function_type != function_type:
        raise OpError(
            op,
            f"'{op.name}' needs @{name} to be the function {function_type}, "
            f"but the module defines @{name} otherwise",
        )


def parent_module(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    assert parent is not None
    return parent


# --- the index width -------------------------------------------------------------------------


def check_index_bitwidth(width: object) -> None:
    if isinstance(width, bool) or width not in INDEX_BITWIDTHS:
        raise ValueError(f"index-bitwidth must be 32 or 64, found {width!r}")


def set_index_bitwidth(module: ModuleOp, width: int) -> None:
    """Give `module` 32-bit index values (`gpu.index_bitwidth = 32`); 64 leaves it as it is."""
    if width != 64:
        module.attributes[INDEX_BITWIDTH_ATTR] = IntegerAttr(width, i64)


# --- stages ----------------------------------------------------------------------------------


def stage_passes(names: tuple[str, ...] = DEVICE_TO_LLVM) -> dict[str, type[ModulePass]]:
    """The pass classes of the stages `names` (these, or `host-to-llvm`'s): xDSL's, gpuir's and
    the lowerings'."""
    import gpuir.lowering  # noqa: F401  # its passes are in the registry once it is imported
    import gpuir.passes  # noqa: F401
    from gpuir.ir.registry import all_passes

    factories = all_passes(names)
    return {name: factories[name]() for name in names}


def check_lowered(module: ModuleOp, pass_name: str = "device-to-llvm") -> None:
    """Every op of `module` is an `llvm` op; the first one that is not is an error, which
    names `pass_name`."""
    for op in module.walk():
        if op is module or op.name.startswith("llvm."):
            continue
        raise OpError(located_at(op), not_lowered_message(op, pass_name))


def located_at(op: Operation) -> Operation:
    """The op to report `op` at: a cast the conversion made has no location, so its first user
    (the op that wants the value: in the source, or made from an op of it)."""
    if isinstance(op, UnrealizedConversionCastOp):
        users = [use.operation for result in op.results for use in result.uses]
        return users[0] if users else op
    return op


def not_lowered_message(op: Operation, pass_name: str = "device-to-llvm") -> str:
    if isinstance(op, UnrealizedConversionCastOp):
        users = [use.operation.name for result in op.results for use in result.uses]
        source = op.inputs[0].owner
        made_by = f" made by '{source.name}'" if isinstance(source, Operation) else ""
        return (
            f"{pass_name}: a value of type {op.inputs[0].type}{made_by} is still used as "
            f"{op.results[0].type} by {', '.join(repr(u) for u in users) or 'nothing'}: "
            "a conversion is missing"
        )
    return f"'{op.name}' is not lowered to the llvm dialect: {pass_name} has no lowering for it"


# --- printf formats --------------------------------------------------------------------------


def pieces(op: printf.PrintFormatOp) -> list[str | int]:
    """The format string as literal texts and value indices, in order."""
    out: list[str | int] = []
    automatic = 0
    try:
        parsed = list(string.Formatter().parse(op.format_str.data))
    except ValueError as e:
        raise OpError(op, f"bad format string {op.format_str.data!r}: {e}") from None
    for literal, field, spec, conversion in parsed:
        if literal:
            out.append(literal)
        if field is None:
            continue
        if spec or conversion:
            raise OpError(
                op, f"'{op.name}': the field {{{field}!{conversion}:{spec}}} cannot be compiled"
            )
        if field == "":
            index, automatic = automatic, automatic + 1
        elif field.isdigit():
            index = int(field)
        else:
            raise OpError(op, f"'{op.name}': the field {{{field}}} names no value")
        if index >= len(op.format_vals):
            raise OpError(
                op, f"bad format string {op.format_str.data!r}: no value for field {index}"
            )
        out.append(index)
    return out
