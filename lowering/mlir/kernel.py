"""Kernels and device functions as upstream MLIR: a kernel is a `gpu.func … kernel` whose
parameters are the launch's arguments; its group and item ids are `gpu.block_id x` and
`gpu.thread_id x`; `mem.slot`s in spaces 3 and 5 are its workgroup and private attributions
(`memref.alloca` in a device function); barriers, lane ids, shuffles, work-group reductions and
`printf` are the `gpu` dialect's."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func, printf
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute, Operation

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import PRINTF_SPECS_ATTR, CSpec, format_fields
from gpuir.dialects.gpu.printf import FLOAT_CONVERSIONS
from gpuir.dialects.mem import PtrType
from gpuir.ir.source import quoted
from gpuir.lowering.mlir.body import Memref, Writer, memref_type, refuse

REDUCE_KINDS = {
    ("add", False): "add",
    ("add", True): "add",
    ("mul", False): "mul",
    ("mul", True): "mul",
    ("and", False): "and",
    ("or", False): "or",
    ("xor", False): "xor",
    ("min", False): "minsi",
    ("min", True): "minimumf",
    ("max", False): "maxsi",
    ("max", True): "maximumf",
    ("umin", False): "minui",
    ("umax", False): "maxui",
}
"""`gpu.workgroup_reduce`'s kinds as `gpu.all_reduce`'s, by kind and whether it is of floats."""

KERNEL_PARAMS = 6
"""A kernel's leading parameters that have no upstream parameter: four tokens, group, item."""


def mlir_string(text: str) -> str:
    """`text` as an MLIR string literal (`\\XX` for what is not printable ASCII)."""
    return quoted(text, "\\{:02X}".format)


class KernelWriter(Writer):
    """A kernel (`kernel`), or a device function (`export.function`)."""

    table: dict[str, Callable[[Writer, Operation], None]] = {}

    def __init__(self, depth: int):
        super().__init__(depth)
        self.attributions: dict[int, list[str]] = {3: [], 5: []}
        self.in_kernel = False

    def kernel(self, op: func.FuncOp) -> list[str]:
        entry = op.body.blocks[0]
        group, item = entry.args[4], entry.args[5]
        for token in entry.args[:4]:
            self.values[token] = None
        params = self.bind_args(op, entry.args[KERNEL_PARAMS:])
        self.in_kernel = True
        self.lines = []
        for value, kind in ((group, "block_id"), (item, "thread_id")):
            if value.uses:
                self.emit(f"{self.define(value)} = gpu.{kind} x")
        self.blocks_of(op, op.body)
        head = f"gpu.func @{op.sym_name.data}({params})"
        for space, keyword in ((3, "workgroup"), (5, "private")):
            if self.attributions[space]:
                head += f" {keyword}({', '.join(self.attributions[space])})"
        indent = "  " * (self.depth - 1)
        return [f"{indent}{head} kernel {{", *self.lines, f"{indent}}}"]

    def kernel_return(self, op: Operation) -> None:
        if self.in_kernel:
            self.emit("gpu.return")
            return
        values = self.kept(op.operands)
        if values:
            self.emit(f"func.return {self.operand_list(op, values)} : {self.types_of(op, values)}")
        else:
            self.emit("func.return")

    def slot(self, op: Operation) -> None:
        assert isinstance(op, mem.SlotOp)
        ptr = op.res.type
        assert isinstance(ptr, PtrType)
        space = ptr.space.data
        type_ = memref_type(ptr, op)
        name = self.fresh(op.res.name_hint)
        self.values[op.res], self.values[op.res_mem] = Memref(name, type_, (), ptr.pointee), None
        if self.in_kernel and space in self.attributions:
            self.attributions[space].append(f"{name} : {type_}")
        elif space == 5:
            self.emit(f"{name} = memref.alloca() : {type_}")
        else:
            raise refuse(op, "a slot in shared memory outside a kernel has no upstream form")

    def barrier(self, op: Operation) -> None:
        for result in op.results:
            self.values[result] = None
        self.emit("gpu.barrier")

    def lane_id(self, op: Operation) -> None:
        self.emit(f"{self.define(op.results[0])} = gpu.lane_id")

    def shuffle(self, op: Operation) -> None:
        assert isinstance(op, gpu.ShuffleOp)
        value, offset, width = (self.scalar(op, v) for v in (op.value, op.offset, op.width))
        type_ = self.type_text(op, op.value.type)
        bound = self.bind_results(op, op.results)
        self.emit(f"{bound}gpu.shuffle {op.mode.data} {value}, {offset}, {width} : {type_}")

    def reduce(self, op: Operation) -> None:
        assert isinstance(op, gpu.WorkgroupReduceOp)
        kind = REDUCE_KINDS.get((op.kind.data, isinstance(op.value.type, AnyFloat)))
        if kind is None:
            raise refuse(op, f'gpu.all_reduce has no kind "{op.kind.data}" of this type')
        value = self.scalar(op, op.value)
        type_ = self.type_text(op, op.value.type)
        bound = self.bind_results(op, op.results)
        self.emit(f"{bound}gpu.all_reduce {kind} {value} {{}} : ({type_}) -> ({type_})")

    def printf(self, op: Operation) -> None:
        """`printf.print_format` as `gpu.printf`: a value with a C conversion (`gpu.printf_specs`,
        a `CSpec` of its kind of type) as it, an integer without one as `%d` / `%lld`; a float
        printed as its shortest decimal has no C conversion."""
        assert isinstance(op, printf.PrintFormatOp)
        found = op.attributes.get(PRINTF_SPECS_ATTR)
        specs = [s.data for s in found.data] if found is not None else []  # type: ignore[attr-defined]
        text, values, types = [], [], []
        for literal, field, index, spec in format_fields(op.format_str.data):
            text.append(literal.replace("%", "%%"))
            if field is None:
                continue
            value = op.format_vals[index]
            spec = spec or (specs[index] if index < len(specs) else "")
            if spec and prints(spec, value.type):
                text.append(f"%{spec}")
            elif isinstance(value.type, IntegerType | IndexType) and not spec:
                wide = isinstance(value.type, IndexType) or value.type.width.data > 32
                text.append("%lld" if wide else "%d")
            else:
                raise refuse(
                    op,
                    f"it prints a {value.type} as {{{':' + spec if spec else ''}}}, which C's "
                    "printf has no conversion for (a float prints its shortest decimal)",
                )
            values.append(self.scalar(op, value))
            types.append(self.type_text(op, value.type))
        rest = f", {', '.join(values)} : {', '.join(types)}" if values else ""
        self.emit(f"gpu.printf {mlir_string(''.join(text))}{rest}")


def prints(spec: str, type_: Attribute) -> bool:
    """Whether `spec` is a C conversion (a `CSpec`) that prints a value of `type_`."""
    try:
        conversion = CSpec.parse(spec).conversion
    except ValueError:
        return False
    if conversion in FLOAT_CONVERSIONS:
        return isinstance(type_, Float16Type | Float32Type | Float64Type)
    return isinstance(type_, IntegerType | IndexType)


KernelWriter.table = {
    **Writer.table,
    "func.return": KernelWriter.kernel_return,
    "mem.slot": KernelWriter.slot,
    "gpu.sync_work_items": KernelWriter.barrier,
    "gpu.lane_id": KernelWriter.lane_id,
    "gpu.shuffle": KernelWriter.shuffle,
    "gpu.workgroup_reduce": KernelWriter.reduce,
    "printf.print_format": KernelWriter.printf,
}
