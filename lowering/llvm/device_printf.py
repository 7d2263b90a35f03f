"""`convert-device-printf-to-llvm`: `printf` in device code as records in a print buffer, which
the runtime formats after the launch, exactly as the host formats them.

A GPU cannot format as the host does (`printf.print_format`'s `{}` is the shortest decimal that
reads back to the same value, which CUDA's `vprintf` has no conversion for), and the work-items
of a launch print at once. So each call writes one record: it claims room at the end of the
buffer with one atomic add (so no two records overlap, and a record is never cut in two by
another work-item's), and stores its values there. After the launch the runtime reads the
records in the order they were claimed, formats each with the host's formatter
(`gpuir.runtime.device_print`) and writes the launch's output whole, before the host goes on.

The device module gets, when it prints:

    @__gpuir_print_buffer   : i64         the address where the records go (the runtime sets it)
    @__gpuir_print_capacity : i64         the buffer's bytes (the runtime sets it; 0: none)
    @__gpuir_print_cursor   : i64         bytes claimed so far (the runtime sets it to 0)
    @__gpuir_print_spill    : [65 x i64]  where a record that does not fit is written (and lost)

and the attribute `gpu.print_formats`: per call, by id, `[format, kind, [types]]` (kind
`format` for `printf.print_format`, `int` for `printf.print_int`, `char` for
`printf.print_char`). A record is 8-byte slots: the id plus 1 times 2^32 plus the number of
values (never 0: bytes claimed but not written, past the last record that fit, read as 0),
then each value: an integer sign-extended to 64 bits (`i1` zero-extended), a float widened
exactly to `f64`.

A call with more than `MAX_VALUES` values, a field that the format cannot compile
(`convert-printf-to-llvm`'s rules) or a value of another type is an error at the op.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import llvm, printf
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    f64,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects.gpu import format_text
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import DeviceModulePass, constant, pieces, ptr_type, to_llvm
from gpuir.lowering.llvm.llvm_ext import AtomicRMWOp
from gpuir.lowering.llvm.print_abi import (
    BUFFER,
    CAPACITY_GLOBAL,
    CURSOR,
    FORMATS_ATTR,
    MAX_VALUES,
    SPILL,
    record_header,
)
from gpuir.passes.locations import rewrite_once

SLOT = 8


@dataclass
class Formats:
    """The print calls of one device module, by id, and its globals (made on first use)."""

    module: ModuleOp
    entries: list[Attribute] = field(default_factory=list[Attribute])

    def add(self, format_: str, kind: str, types: list[Attribute]) -> int:
        if not self.entries:
            self.declare_globals()
        self.entries.append(ArrayAttr([StringAttr(format_), StringAttr(kind), ArrayAttr(types)]))
        return len(self.entries) - 1

    def declare_globals(self) -> None:
        block = self.module.body.block
        made = [
            llvm.GlobalOp(i64, BUFFER, "external", value=IntegerAttr(0, i64), alignment=8),
            llvm.GlobalOp(i64, CAPACITY_GLOBAL, "external", value=IntegerAttr(0, i64), alignment=8),
            llvm.GlobalOp(i64, CURSOR, "external", value=IntegerAttr(0, i64), alignment=8),
            llvm.GlobalOp(llvm.LLVMArrayType(MAX_VALUES + 1, i64), SPILL, "internal", alignment=8),
        ]
        for glob in reversed(made):
            Rewriter.insert_op(glob, InsertPoint.at_start(block))


def slot_value(b: PatternRewriter, value: SSAValue, op: Operation) -> SSAValue:
    """`value` as its record slot: an `i64` (integers) or an `f64` (floats)."""
    type_ = value.type
    lowered = to_llvm(b, value, op)
    if isinstance(type_, IndexType | IntegerType):
        width = lowered.type.width.data  # type: ignore[attr-defined]
        if width > 64:
            raise OpError(op, f"'{op.name}' cannot print a {width}-bit integer in device code")
        if width < 64:
            extend = llvm.ZExtOp if width == 1 else llvm.SExtOp
            lowered = b.insert(extend(lowered, i64)).results[0]
        return lowered
    if isinstance(type_, Float16Type | Float32Type):
        return b.insert(llvm.FPExtOp(lowered, f64)).results[0]
    if isinstance(type_, Float64Type):
        return lowered
    raise OpError(op, f"'{op.name}' cannot print a value of type {type_} in device code")


def write_record(b: PatternRewriter, op: Operation, ident: int, values: list[SSAValue]) -> None:
    """Claim a record's room in the buffer and store the slots there (module docstring)."""
    if len(values) > MAX_VALUES:
        raise OpError(
            op, f"'{op.name}' prints {len(values)} values; device code prints at most {MAX_VALUES}"
        )
    slots = [slot_value(b, v, op) for v in values]
    size = constant(b, SLOT * (1 + len(slots)))
    pointer = ptr_type(0)
    cursor = b.insert(llvm.AddressOfOp(CURSOR, pointer)).result
    old = b.insert(AtomicRMWOp("add", cursor, size)).res
    capacity_at = b.insert(llvm.AddressOfOp(CAPACITY_GLOBAL, pointer)).result
    capacity = b.insert(llvm.LoadOp(capacity_at, i64)).dereferenced_value
    end = b.insert(llvm.AddOp(old, size)).res
    fits = b.insert(llvm.ICmpOp(end, capacity, IntegerAttr(7, i64))).res  # ule
    buffer_at = b.insert(llvm.AddressOfOp(BUFFER, pointer)).result
    address = b.insert(llvm.LoadOp(buffer_at, i64)).dereferenced_value
    buffer = b.insert(llvm.IntToPtrOp(address)).results[0]
    claimed = b.insert(
        llvm.GEPOp(buffer, [llvm.GEP_USE_SSA_VAL], i8, ssa_indices=[old], result_type=pointer)
    ).result
    spill = b.insert(llvm.AddressOfOp(SPILL, pointer)).result
    record = b.insert(llvm.SelectOp(fits, claimed, spill)).res
    header = constant(b, record_header(ident, len(slots)))
    b.insert(llvm.StoreOp(header, record, alignment=SLOT))
    for i, slot in enumerate(slots, start=1):
        at = b.insert(llvm.GEPOp(record, [i], i64, result_type=pointer)).result
        b.insert(llvm.StoreOp(slot, at, alignment=SLOT))


@dataclass
class PrintFormatLowering(RewritePattern):
    formats: Formats

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: printf.PrintFormatOp, rewriter: PatternRewriter):
        pieces(op)  # the format compiles (its fields are plain)
        values = list(op.format_vals)
        ident = self.formats.add(format_text(op), "format", [v.type for v in values])
        write_record(rewriter, op, ident, values)
        rewriter.erase(op)


@dataclass
class PrintOneLowering(RewritePattern):
    """`printf.print_int` and `printf.print_char`: a record of one value."""

    formats: Formats
    KINDS = ((printf.PrintIntOp, "int"), (printf.PrintCharOp, "char"))
    OP_TYPES = tuple(t for t, _ in KINDS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        kind = next((k for t, k in self.KINDS if isinstance(op, t)), None)
        if kind is None:
            return
        value = op.operands[0]
        ident = self.formats.add("{}", kind, [value.type])
        write_record(rewriter, op, ident, [value])
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertDevicePrintfToLlvmPass(DeviceModulePass):
    """Device `printf` ops to print-buffer records (module docstring)."""

    name = "convert-device-printf-to-llvm"

    lowered = Statistic("num-printf-lowered", "Number of printf ops made print-buffer records")

    def lower_module(self, module: ModuleOp) -> None:
        formats = Formats(module)
        rewrite_once(
            module, [PrintFormatLowering(formats), PrintOneLowering(formats)], self.lowered
        )
        if formats.entries:
            module.attributes[FORMATS_ATTR] = ArrayAttr(formats.entries)
        for left in module.walk():
            if left.name.startswith("printf."):
                raise OpError(left, f"'{left.name}' cannot be compiled for the device")
