"""What host code and kernels share when a function is written as upstream MLIR: each value's
upstream form (`Exported`), types (`!mem.ptr` → memref), scalar ops (`arith`, `math`: their
generic form), `scf` and `cf` with the memory tokens dropped, and memory (`mem.lea` an index
into its memref, `mem.load` / `store` / `atomic_rmw` the memref's element).

A function is written as text by a `Writer` (`export.HostWriter`, `export.KernelWriter`); an op
it cannot write is an `OpError` at the op (`refuse`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import cf, func, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.printer import Printer

from gpuir.dialects import mem
from gpuir.dialects.gpu import StreamType
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import OpError

SPACES = {0: "", 1: "", 3: "#gpu.address_space<workgroup>", 5: "#gpu.address_space<private>"}
"""gpuir's address spaces as a memref's memory space (host and global memory have none)."""

ATOMIC_KINDS = {
    ("add", False): "addi",
    ("add", True): "addf",
    ("max", False): "maxs",
    ("max", True): "maxnumf",
    ("min", False): "mins",
    ("min", True): "minnumf",
    ("umax", False): "maxu",
    ("umin", False): "minu",
    ("and", False): "andi",
    ("or", False): "ori",
    ("xor", False): "xori",
    ("xchg", False): "assign",
    ("xchg", True): "assign",
}
"""`mem.atomic_rmw`'s kinds as `memref.atomic_rmw`'s, by kind and whether the value is a float
(`sub` has none)."""


class Stream:
    """A gpuir stream: the async token of its last op is the writer's `pending[stream]`."""


@dataclass
class StreamSlot:
    """A host slot that holds a stream (`!mem.ptr<!gpu.stream, 0>`): no memory upstream."""

    stream: Stream | None = None


@dataclass(frozen=True)
class Memref:
    """A pointer: the memref `name` of type `type` and the indices of the element it points to
    (none: the whole memref)."""

    name: str
    type: str
    indices: tuple[str, ...] = ()
    pointee: Attribute = field(default_factory=IndexType)


Exported = str | Memref | Stream | StreamSlot | None
"""A gpuir value upstream: a scalar's name, a pointer's memref, a stream, or None (a memory
token, which vanishes)."""


NO_UPSTREAM = {
    "printf.print_format": "upstream host code has no printf (gpu.printf is device-only)",
    "gpu.workgroup_scan": "upstream MLIR has no work-group scan",
    "gpu.ballot": "the gpu dialect has no ballot",
    "gpu.fence": "the gpu dialect has no memory fence",
    "mem.cmpxchg": "memref has no compare-and-swap (only memref.generic_atomic_rmw)",
    "mem.mslot": "a slot sized at run time in bytes has no memref",
    "mem.malloc": "an allocation sized in bytes has no memref",
    "mem.alloc": "a kernel's heap allocation is not exported (yet)",
    "mem.free": "a kernel's heap free is not exported (yet)",
    "mem.print_memref": "printing a memref is not exported (yet)",
    "scf.execute_region": "scf.execute_region is not exported (yet)",
    "scf.index_switch": "scf.index_switch is not exported (yet)",
}
"""Why the ops that have no upstream translation are refused."""


def refuse(op: Operation, why: str) -> OpError:
    return OpError(op, f"'{op.name}' cannot be exported to upstream MLIR: {why}")


def attr_text(attr: Attribute) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def memref_type(ptr: PtrType, op: Operation) -> str:
    """`!mem.ptr<!mem.array<? x !mem.array<8 x f32>>, 1>` as `memref<?x8xf32>`; a pointer to
    one scalar as a 0-d memref."""
    dims: list[str] = []
    pointee = ptr.pointee
    while isinstance(pointee, ArrayType):
        dims.append("?" if pointee.is_dynamic else str(pointee.size.data))
        pointee = pointee.element_type
    if not isinstance(pointee, IntegerType | IndexType | AnyFloat):
        raise refuse(op, f"a pointer to {attr_text(pointee)} has no memref")
    space = SPACES.get(ptr.space.data)
    if space is None:
        raise refuse(op, f"address space {ptr.space.data} has no upstream memory space")
    shape = "".join(f"{d}x" for d in dims)
    return f"memref<{shape}{attr_text(pointee)}{', ' + space if space else ''}>"


def is_token(type_: Attribute) -> bool:
    return isinstance(type_, MemType)


class Writer:
    """Writes one function as text: `lines` at `depth`, the upstream form of each value
    (`values`), fresh names. A subclass adds its ops to `table` (op name → method)."""

    table: dict[str, Callable[[Writer, Operation], None]] = {}

    def __init__(self, depth: int):
        self.lines: list[str] = []
        self.depth = depth
        self.values: dict[SSAValue, Exported] = {}
        self.names: set[str] = set()
        self.blocks: dict[Block, str] = {}

    # -- text and names --

    def emit(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def fresh(self, hint: str | None) -> str:
        base = hint or "v"
        name, k = base, 0
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return f"%{name}"

    def define(self, value: SSAValue) -> str:
        """A fresh name for `value`, a scalar result."""
        name = self.fresh(value.name_hint)
        self.values[value] = name
        return name

    def constant(self, number: int) -> str:
        name = self.fresh(f"c{number}")
        self.emit(f"{name} = arith.constant {number} : index")
        return name

    # -- values --

    def get(self, op: Operation, value: SSAValue) -> Exported:
        if is_token(value.type):
            return None
        if value not in self.values:
            raise refuse(op, f"its operand of type {attr_text(value.type)} has no upstream value")
        return self.values[value]

    def scalar(self, op: Operation, value: SSAValue) -> str:
        found = self.get(op, value)
        if not isinstance(found, str):
            raise refuse(op, f"its operand of type {attr_text(value.type)} is not a scalar")
        return found

    def memref(self, op: Operation, value: SSAValue, whole: bool = False) -> Memref:
        """A pointer operand's memref; `whole`: the pointer must be the memref's start (an
        element pointer has no memref of its own)."""
        found = self.get(op, value)
        if not isinstance(found, Memref):
            raise refuse(op, f"its operand of type {attr_text(value.type)} is not a memref")
        if whole and found.indices:
            raise refuse(
                op,
                "it takes a pointer into an array (a mem.lea); upstream it would be a subview, "
                "which is not exported (yet)",
            )
        return found

    def type_text(self, op: Operation, type_: Attribute) -> str:
        if isinstance(type_, PtrType):
            return memref_type(type_, op)
        if isinstance(type_, StreamType):
            raise refuse(op, "a stream is not a value upstream (only async tokens are)")
        if not isinstance(type_, IntegerType | IndexType | AnyFloat):
            raise refuse(op, f"{attr_text(type_)} is not exported (yet)")
        return attr_text(type_)

    def kept(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        return [v for v in values if not is_token(v.type)]

    def operand_list(self, op: Operation, values: Sequence[SSAValue]) -> str:
        out = []
        for value in self.kept(values):
            found = self.get(op, value)
            if isinstance(found, Memref):
                out.append(self.memref(op, value, whole=True).name)
            else:
                out.append(self.scalar(op, value))
        return ", ".join(out)

    def types_of(self, op: Operation, values: Sequence[SSAValue]) -> str:
        return ", ".join(self.type_text(op, v.type) for v in self.kept(values))

    def bind_results(self, op: Operation, results: Sequence[SSAValue]) -> str:
        """Names for `results` other than tokens, as `%a, %b = ` (empty if none); a pointer
        result is a whole memref."""
        names = []
        for result in results:
            if is_token(result.type):
                self.values[result] = None
                continue
            name = self.fresh(result.name_hint)
            if isinstance(result.type, PtrType):
                self.values[result] = Memref(
                    name, memref_type(result.type, op), (), result.type.pointee
                )
            else:
                self.type_text(op, result.type)
                self.values[result] = name
            names.append(name)
        return f"{', '.join(names)} = " if names else ""

    def bind_args(self, op: Operation, args: Sequence[SSAValue]) -> str:
        """Block arguments other than tokens, as `%a: i32, %b: memref<…>`."""
        out = []
        for arg in args:
            if is_token(arg.type):
                self.values[arg] = None
                continue
            text = self.type_text(op, arg.type)
            name = self.fresh(arg.name_hint)
            self.values[arg] = (
                Memref(name, text, (), arg.type.pointee) if isinstance(arg.type, PtrType) else name
            )
            out.append(f"{name}: {text}")
        return ", ".join(out)

    # -- ops --

    def ops(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        method = self.table.get(op.name)
        if method is not None:
            method(self, op)
        elif op.dialect_name() in ("arith", "math") and not op.regions:
            self.generic(op)
        else:
            why = NO_UPSTREAM.get(op.name, "upstream MLIR has no such op (it is gpuir's own)")
            raise refuse(op, why)

    def generic(self, op: Operation) -> None:
        """A scalar op in MLIR's generic form (a constant in its own)."""
        if op.name == "arith.constant" and not op.attributes:
            value = op.properties["value"]
            self.emit(f"{self.bind_results(op, op.results)}arith.constant {attr_text(value)}")
            return
        operands = ", ".join(self.scalar(op, v) for v in op.operands)
        props = ", ".join(f"{k} = {attr_text(v)}" for k, v in op.properties.items())
        attrs = ", ".join(f"{k} = {attr_text(v)}" for k, v in op.attributes.items())
        types = ", ".join(self.type_text(op, v.type) for v in op.operands)
        results = ", ".join(self.type_text(op, r.type) for r in op.results)
        bound = self.bind_results(op, op.results)
        self.emit(
            f'{bound}"{op.name}"({operands})'
            + (f" <{{{props}}}>" if props else "")
            + (f" {{{attrs}}}" if attrs else "")
            + f" : ({types}) -> ({results})"
        )

    def region_body(self, block: Block) -> None:
        """The ops of a region's one block, one level deeper."""
        self.depth += 1
        self.ops(block)
        self.depth -= 1

    def yield_op(self, op: Operation) -> None:
        values = self.kept(op.operands)
        self.before_terminator(op)
        if values:
            self.emit(f"{op.name} {self.operand_list(op, values)} : {self.types_of(op, values)}")
        else:
            self.emit(op.name)

    def before_terminator(self, op: Operation) -> None:
        """What a subclass writes before a region's terminator (the host waits for its streams)."""

    def scf_for(self, op: Operation) -> None:
        assert isinstance(op, scf.ForOp)
        self.before_region(op)
        lb, ub, step = (self.scalar(op, v) for v in (op.lb, op.ub, op.step))
        body = op.body.block
        pairs = [
            (arg, init)
            for arg, init in zip(body.args[1:], op.iter_args, strict=True)
            if not is_token(arg.type)
        ]
        inits = [self.operand_list(op, [init]) for _, init in pairs]
        bound = self.bind_results(op, op.results)
        index = self.fresh(body.args[0].name_hint)
        self.values[body.args[0]] = index
        for arg in body.args[1:]:
            if is_token(arg.type):
                self.values[arg] = None
        head = f"{bound}scf.for {index} = {lb} to {ub} step {step}"
        if pairs:
            names = [self.define_arg(op, arg) for arg, _ in pairs]
            carried = ", ".join(f"{n} = {i}" for n, i in zip(names, inits, strict=True))
            head += f" iter_args({carried}) -> ({self.types_of(op, [a for a, _ in pairs])})"
        self.emit(head + " {")
        self.region_body(body)
        self.emit("}")

    def define_arg(self, op: Operation, arg: SSAValue) -> str:
        name = self.fresh(arg.name_hint)
        text = self.type_text(op, arg.type)
        self.values[arg] = (
            Memref(name, text, (), arg.type.pointee) if isinstance(arg.type, PtrType) else name
        )
        return name

    def scf_if(self, op: Operation) -> None:
        assert isinstance(op, scf.IfOp)
        self.before_region(op)
        cond = self.scalar(op, op.cond)
        kept = self.kept(op.results)
        bound = self.bind_results(op, op.results)
        types = f" -> ({self.types_of(op, kept)})" if kept else ""
        self.emit(f"{bound}scf.if {cond}{types} {{")
        self.region_body(op.true_region.block)
        if op.false_region.blocks:
            self.emit("} else {")
            self.region_body(op.false_region.block)
        self.emit("}")

    def scf_while(self, op: Operation) -> None:
        assert isinstance(op, scf.WhileOp)
        self.before_region(op)
        before, after = op.before_region.block, op.after_region.block
        pairs = [
            (arg, init)
            for arg, init in zip(before.args, op.arguments, strict=True)
            if not is_token(arg.type)
        ]
        inits = [self.operand_list(op, [init]) for _, init in pairs]
        kept = self.kept(op.results)
        bound = self.bind_results(op, op.results)
        for arg in before.args:
            if is_token(arg.type):
                self.values[arg] = None
        names = [self.define_arg(op, arg) for arg, _ in pairs]
        carried = ", ".join(f"{n} = {i}" for n, i in zip(names, inits, strict=True))
        ins = self.types_of(op, [a for a, _ in pairs])
        self.emit(f"{bound}scf.while ({carried}) : ({ins}) -> ({self.types_of(op, kept)}) {{")
        self.region_body(before)
        self.emit("} do {")
        self.depth += 1
        self.emit(f"^bb0({self.bind_args(op, after.args)}):")
        self.depth -= 1
        self.region_body(after)
        self.emit("}")

    def scf_condition(self, op: Operation) -> None:
        assert isinstance(op, scf.ConditionOp)
        values = self.kept(op.arguments)
        self.before_terminator(op)
        cond = self.scalar(op, op.cond)
        rest = f" {self.operand_list(op, values)} : {self.types_of(op, values)}" if values else ""
        self.emit(f"scf.condition({cond}){rest}")

    def before_region(self, op: Operation) -> None:
        """What a subclass writes before an op with regions (the host waits for its streams)."""

    def blocks_of(self, op: Operation, region: Region) -> None:
        """A function's blocks: the entry's ops, then each other block with its label."""
        for k, block in enumerate(region.blocks):
            self.blocks[block] = f"^bb{k}"
        for k, block in enumerate(region.blocks):
            if k > 0:
                self.depth -= 1
                self.emit(f"^bb{k}({self.bind_args(op, block.args)}):")
                self.depth += 1
            self.ops(block)

    def successor(self, op: Operation, block: Block, args: Sequence[SSAValue]) -> str:
        values = self.kept(args)
        if not values:
            return self.blocks[block]
        return (
            f"{self.blocks[block]}({self.operand_list(op, values)} : {self.types_of(op, values)})"
        )

    def cf_br(self, op: Operation) -> None:
        assert isinstance(op, cf.BranchOp)
        self.before_terminator(op)
        self.emit(f"cf.br {self.successor(op, op.successor, op.arguments)}")

    def cf_cond_br(self, op: Operation) -> None:
        assert isinstance(op, cf.ConditionalBranchOp)
        self.before_terminator(op)
        cond = self.scalar(op, op.cond)
        then = self.successor(op, op.then_block, op.then_arguments)
        other = self.successor(op, op.else_block, op.else_arguments)
        self.emit(f"cf.cond_br {cond}, {then}, {other}")

    def call(self, op: Operation) -> None:
        assert isinstance(op, func.CallOp)
        args, results = self.kept(op.arguments), self.kept(op.results)
        operands = self.operand_list(op, args)
        callee = op.callee.root_reference.data
        types = f"({self.types_of(op, args)}) -> ({self.types_of(op, results)})"
        bound = self.bind_results(op, op.results)
        self.emit(f"{bound}func.call @{callee}({operands}) : {types}")

    # -- memory --

    def lea(self, op: Operation) -> None:
        assert isinstance(op, mem.LeaOp)
        base = self.memref(op, op.ptr)
        pointee = base.pointee
        assert isinstance(pointee, ArrayType)
        at = self.scalar(op, op.index)
        self.values[op.res] = Memref(
            base.name, base.type, (*base.indices, at), pointee.element_type
        )

    def element(self, op: Operation, value: SSAValue) -> Memref:
        ref = self.memref(op, value)
        if isinstance(ref.pointee, ArrayType):
            raise refuse(
                op, "it accesses a whole array; upstream only an element is loaded or stored"
            )
        return ref

    def load(self, op: Operation) -> None:
        assert isinstance(op, mem.LoadOp)
        found = self.get(op, op.ptr)
        if isinstance(found, StreamSlot):
            self.values[op.res_mem], self.values[op.res] = None, found.stream
            return
        ref = self.element(op, op.ptr)
        bound = self.bind_results(op, op.results)
        self.emit(f"{bound}memref.load {ref.name}[{', '.join(ref.indices)}] : {ref.type}")

    def store(self, op: Operation) -> None:
        assert isinstance(op, mem.StoreOp)
        ref = self.element(op, op.ptr)
        value = self.scalar(op, op.value)
        self.values[op.res_mem] = None
        self.emit(f"memref.store {value}, {ref.name}[{', '.join(ref.indices)}] : {ref.type}")

    def atomic_rmw(self, op: Operation) -> None:
        assert isinstance(op, mem.AtomicRmwOp)
        ref = self.element(op, op.ptr)
        value = self.scalar(op, op.value)
        kind = ATOMIC_KINDS.get((op.kind.data, isinstance(op.value.type, AnyFloat)))
        if kind is None:
            raise refuse(op, f'memref.atomic_rmw has no kind "{op.kind.data}"')
        type_ = self.type_text(op, op.value.type)
        bound = self.bind_results(op, op.results)
        at = ", ".join(ref.indices)
        self.emit(
            f"{bound}memref.atomic_rmw {kind} {value}, {ref.name}[{at}] : ({type_}, {ref.type}) -> {type_}"
        )

    def remem(self, op: Operation) -> None:
        self.values[op.results[0]] = None


Writer.table = {
    "scf.for": Writer.scf_for,
    "scf.if": Writer.scf_if,
    "scf.while": Writer.scf_while,
    "scf.yield": Writer.yield_op,
    "scf.condition": Writer.scf_condition,
    "cf.br": Writer.cf_br,
    "cf.cond_br": Writer.cf_cond_br,
    "func.call": Writer.call,
    "mem.lea": Writer.lea,
    "mem.load": Writer.load,
    "mem.store": Writer.store,
    "mem.atomic_rmw": Writer.atomic_rmw,
    "mem.remem": Writer.remem,
}
