"""The cpu provider's compiled code: a device module lowered for this CPU and loaded with MCJIT
(`compile_module`, cached by the module's text in the process and on disk), its kernels' launch
entries and argument buffers (`CompiledKernel`), and a printing module's print buffer."""

from __future__ import annotations

import ctypes
import struct
import threading
import weakref
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.mem import HOST, PtrType
from gpuir.ir.data_layout import size_of
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.cpu.streaming import STREAM_ALIGN, STREAM_ITEMS, STREAM_SUFFIX
from gpuir.lowering.llvm import print_abi
from gpuir.lowering.llvm.native import load_libraries
from gpuir.runtime import device_print, disk_cache, memory, structs
from gpuir.runtime.cpu import check as checker_lib
from gpuir.runtime.cpu import faults
from gpuir.runtime.cpu.arena import aligned_bytes
from gpuir.runtime.memory import Pointer, space_name
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import float_dtype, int_range, int_width

MAX_ITEMS = 1024
"""Work-items per group, at most (as CUDA's; `check_launch`'s default)."""
CACHE_SIZE = 32
"""Compiled modules kept per process (by text)."""

EntryFunction = ctypes.CFUNCTYPE(
    None,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
)
"""A launch entry (`gpuir.lowering.cpu.cpu_llvm.add_launch_entry`), called as it is where faults
cannot be caught (`faults.install()` is None)."""


# --- arguments -----------------------------------------------------------------------------------


def _address(
    value: object, index: int, kernel: str, op: Operation | None, field: int | None = None
) -> int:
    """A pointer argument (or pointer field `field` of a struct argument) as the address
    compiled code uses; an error when it points into freed or host memory."""
    assert isinstance(value, Pointer)
    allocation = value.allocation
    if allocation is None:
        return value.offset & (2**64 - 1)
    where = f"cpu: {'' if field is None else f'field {field} of '}argument {index} of @{kernel}"
    if allocation.freed:
        raise memory.use_after_free(op, f"{where} points into", allocation)
    if allocation.space == HOST or allocation.address >= memory.VIRTUAL_BASE:
        raise ProviderError(
            op,
            f"{where} points into {allocation.describe()}, which device code cannot access "
            f"({space_name(allocation.space)} memory)",
            "invalid address space",
        )
    return (allocation.address + value.offset) & (2**64 - 1)


# --- compiled code -------------------------------------------------------------------------------


@dataclass
class CompiledKernel:
    """A kernel's machine code and its argument buffer, made once: one 8-byte slot per
    argument, and for a struct argument its bytes (the slot holds their address). A launch
    fills them in place, under `lock` (a kernel's code is shared by every cpu provider of the
    process)."""

    name: str
    address: int
    """The launch entry's address."""
    shared_bytes: int
    params: tuple[Attribute, ...]
    resume_state: int | None = None
    """In resumable form: where the items' stops are in the group's shared memory."""
    barriers: tuple[tuple[str, str, int, int], ...] = ()
    """In resumable form: per barrier number `b` (at `b - 1`) its op's name and location."""
    write_only: tuple[int, ...] = ()
    """Its write-only pointer arguments, when it has a stream entry
    (`gpuir.lowering.cpu.streaming`)."""
    stream_address: int = 0
    """The stream entry's address (0: none)."""
    entry: ctypes._CFuncPtr = field(init=False)  # type: ignore[name-defined]
    slots: ctypes.Array = field(init=False)  # type: ignore[type-arg]
    argv: int = field(init=False)
    writers: tuple[tuple[str, object], ...] = field(init=False)
    """Per argument how a launch fills its slot: `("pointer", None)`, `("int", mask)`,
    `("float", struct.Struct)` (packs into the slot's low bytes) or `("struct", bytes)`."""
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    stream_bytes: int = field(init=False, default=0)
    """Bytes an item writes to the write-only outputs when it writes one element of each."""

    def __post_init__(self) -> None:
        self.entry = EntryFunction(self.address)
        for i in self.write_only:
            pointee = self.params[i].pointee  # type: ignore[attr-defined]
            self.stream_bytes += size_of(getattr(pointee, "element_type", pointee))
        self.slots = (ctypes.c_uint64 * max(len(self.params), 1))()
        self.argv = ctypes.addressof(self.slots)
        writers: list[tuple[str, object]] = []
        for i, type_ in enumerate(self.params):
            if isinstance(type_, PtrType):
                writers.append(("pointer", None))
            elif (width := int_width(type_)) is not None:
                writers.append(("int", 1 if width == 1 else 2**64 - 1))
            elif (dtype := float_dtype(type_)) is not None:
                char = {np.float16: "e", np.float32: "f", np.float64: "d"}[dtype]
                writers.append(("float", struct.Struct("<" + char)))
            elif structs.is_struct(type_):
                data = aligned_bytes(structs.layout(type_).size)
                self.slots[i] = data.ctypes.data
                writers.append(("struct", data))
            else:
                writers.append(("unsupported", None))
        self.writers = tuple(writers)

    def fill(self, args: Sequence[tuple[object, Attribute]], op: Operation | None) -> None:
        """Write the arguments into the argument buffer (under `lock`)."""
        for i, (value, type_) in enumerate(args):
            self.fill_one(i, value, type_, op)

    def setter(
        self, i: int, type_: Attribute, convert: Callable[[object], object]
    ) -> Callable[[object], None]:
        """`fill_one` of argument `i` as a function of the Python argument, which `convert`
        turns into its value: what `filler`'s function calls for an argument it does not write
        itself. A pointer's setter remembers the argument (weakly), its allocation and its
        address in `setter.last`, for `filler`'s check; a float's packs a Python `float` for
        f32 / f64 as it is (`struct` rounds it to nearest, as numpy does, and refuses a finite
        value that overflows, which `convert` makes an infinity)."""
        slots, kind, how, name = self.slots, *self.writers[i], self.name
        if kind == "pointer":
            last: list[object] = [None, None, 0]

            def pointer(arg: object) -> None:
                value = convert(arg)
                slots[i] = found = _address(value, i, name, None)
                allocation = value.allocation  # type: ignore[attr-defined]
                last[0] = None
                if allocation is not None:
                    with suppress(TypeError):  # no weak reference to it: converted each time
                        last[0], last[1], last[2] = weakref.ref(arg), allocation, found

            pointer.last = last  # type: ignore[attr-defined]
            return pointer
        if kind == "int":

            def integer(arg: object) -> None:
                slots[i] = convert(arg) & how  # type: ignore[operator]

            return integer
        if kind == "float":
            pack, offset = how.pack_into, 8 * i  # type: ignore[attr-defined]
            rounds = float_dtype(type_) in (np.float32, np.float64)

            def floating(arg: object) -> None:
                if arg.__class__ is float and rounds:
                    try:
                        pack(slots, offset, arg)
                        return
                    except OverflowError:
                        pass
                pack(slots, offset, convert(arg))

            return floating
        return lambda arg: self.fill_one(i, convert(arg), type_, None)

    def filler(self, converters: Sequence[Callable[[object], object]]) -> Callable:
        """`fill(args)`: the Python arguments (as many as there are parameters) written into
        the slots, one call for all of them, made for this kernel's parameters. The common
        cases are written inline: the buffer of the last launch again (while it is not
        freed), a Python `int` in the parameter's range, a float of the parameter's numpy
        type. Any other argument goes to its `setter`, which converts it. The function's
        text is `fill.source`."""
        names: dict[str, object] = {"slots": self.slots}
        lines = [f"    {', '.join(f'a{i}' for i in range(len(converters)))}, = args"]
        for i, (type_, convert) in enumerate(zip(self.params, converters, strict=True)):
            names[f"set{i}"] = setter = self.setter(i, type_, convert)
            kind, how = self.writers[i]
            if kind == "pointer":
                names[f"last{i}"] = setter.last  # type: ignore[attr-defined]
                test = f"(r := last{i}[0]) is not None and r() is a{i} and not last{i}[1].freed"
                write = f"slots[{i}] = last{i}[2]"
            elif kind == "int":
                low, high = int_range(int_width(type_))  # type: ignore[arg-type]
                test = f"a{i}.__class__ is int and {low} <= a{i} <= {high}"
                write = f"slots[{i}] = a{i} & {how}"
            elif kind == "float":
                names[f"exact{i}"] = float_dtype(type_)
                names[f"pack{i}"] = how.pack_into  # type: ignore[attr-defined]
                test = f"a{i}.__class__ is exact{i}"
                write = f"pack{i}(slots, {8 * i}, a{i})"
            else:
                lines.append(f"    set{i}(a{i})")
                continue
            lines += [f"    if {test}:", f"        {write}", "    else:", f"        set{i}(a{i})"]
        if not converters:
            lines = ["    pass"]
        source = "def fill(args):\n" + "\n".join(lines) + "\n"
        exec(compile(source, f"<fill @{self.name}>", "exec"), names)  # noqa: S102  # our text
        fill = names["fill"]
        fill.source = source  # type: ignore[attr-defined]
        return fill  # type: ignore[return-value]

    def fill_one(self, i: int, value: object, type_: Attribute, op: Operation | None) -> None:
        """Write argument `i` into its slot (under `lock`)."""
        slots = self.slots
        kind, how = self.writers[i]
        if kind == "pointer":
            slots[i] = _address(value, i, self.name, op)
        elif kind == "int":
            slots[i] = value & how  # type: ignore[operator]
        elif kind == "float":
            how.pack_into(slots, 8 * i, value)  # type: ignore[attr-defined]
        elif kind == "struct":
            structs.pack_into(
                how,  # type: ignore[arg-type]
                0,
                value,  # type: ignore[arg-type]
                type_,
                lambda ptr, field, i=i: _address(ptr, i, self.name, op, field),
            )
        else:
            raise ProviderError(op, f"cpu: cannot pass a value of type {type_} to @{self.name}")

    def entry_for(self, n_groups: int, n_items: int, threshold: int | None) -> int:
        """The entry of a launch whose arguments are in the slots: the stream entry where the
        kernel has one, its write-only outputs are at least `threshold` bytes (one element per
        item each: a map's output), `n_items` is a multiple of `STREAM_ITEMS` and the
        write-only pointers `STREAM_ALIGN`-aligned (as the stream entry assumes); else the
        usual one."""
        if not self.stream_address or threshold is None or n_items % STREAM_ITEMS:
            return self.address
        if n_groups * n_items * self.stream_bytes < threshold:
            return self.address
        if any(self.slots[i] % STREAM_ALIGN for i in self.write_only):
            return self.address
        return self.stream_address

    def accepts(self, n_groups: int, n_items: int, args: Sequence[tuple[object, Attribute]]):
        """The checks of `check_launch`, fast, for a launch that passes them (the parameter
        types are usually the very objects the caller took from the kernel); a launch that
        does not goes through `check_launch`, for its message."""
        if n_groups < 1 or not 1 <= n_items <= MAX_ITEMS or len(args) != len(self.params):
            return False
        return all(t is p or t == p for (_, t), p in zip(args, self.params, strict=True))


@dataclass
class CompiledModule:
    """Machine code of a device module: its kernels, and the kernels that did not compile with
    their errors (or one error for the whole module)."""

    engine: object = None
    kernels: dict[str, CompiledKernel] = field(default_factory=dict[str, CompiledKernel])
    errors: dict[str, OpError] = field(default_factory=dict[str, OpError])
    module_error: OpError | Exception | None = None
    prints: Printing | None = None
    """How the module's kernels print, when they do."""
    code: bytes | None = None
    """The object code MCJIT loaded (what a native executable links: `gpuir.runtime.native`);
    each kernel's launch entry is `LAUNCH_PREFIX + name` there."""
    whole_warps: bool = False
    """Whether the module has matrix ops (`gpu.mma_*`), which its machine code runs for whole
    warps only: a launch with a partial warp runs under interp instead (`CpuProvider.launch`)."""

    def kernel(self, name: str, op: Operation | None) -> CompiledKernel:
        if self.module_error is not None:
            raise compile_error(self.module_error, name, op)
        if name in self.errors:
            raise compile_error(self.errors[name], name, op)
        return self.kernels[name]


@dataclass
class Printing:
    """A printing module's print buffer (`gpuir.runtime.device_print`): the addresses of its
    globals in the machine code, its formats, and the buffer (made on first use). A launch of
    one of its kernels holds `lock`: the globals are the module's."""

    buffer_global: int
    capacity_global: int
    cursor_global: int
    formats: list[device_print.Format]
    lock: threading.Lock = field(default_factory=threading.Lock)
    buffer: np.ndarray | None = None

    @classmethod
    def of(cls, engine: object, formats: list[device_print.Format] | None) -> Printing | None:
        if not formats:
            return None
        address = engine.get_global_value_address  # type: ignore[attr-defined]
        names = (print_abi.BUFFER, print_abi.CAPACITY_GLOBAL, print_abi.CURSOR)
        return cls(*(address(name) for name in names), formats)

    def start(self) -> None:
        """Give the launch an empty buffer."""
        if self.buffer is None:
            self.buffer = np.zeros(device_print.CAPACITY, np.uint8)
        ctypes.c_uint64.from_address(self.buffer_global).value = self.buffer.ctypes.data
        ctypes.c_uint64.from_address(self.capacity_global).value = device_print.CAPACITY
        ctypes.c_uint64.from_address(self.cursor_global).value = 0

    def finish(self) -> device_print.Output:
        """The launch's output."""
        assert self.buffer is not None
        claimed = ctypes.c_uint64.from_address(self.cursor_global).value
        return device_print.text(self.buffer, claimed, device_print.CAPACITY, self.formats)


def compile_error(error: Exception, kernel: str, launch: Operation | None) -> ProviderError:
    """The compile error of `kernel` as a provider error: at the op it names (with a note at the
    launch), else at the launch."""
    related = [(launch, f"@{kernel} is launched here")] if launch is not None else []
    if isinstance(error, OpError) and error.op is not None:
        return ProviderError(
            error.op, f"cpu: cannot compile @{kernel}: {error}", "compile error", related
        )
    return ProviderError(launch, f"cpu: cannot compile @{kernel}: {error}", "compile error")


_cache: dict[str, CompiledModule] = {}
_cache_lock = threading.Lock()


def compile_module(
    module: ModuleOp, index_bitwidth: int = 64, check: bool = False
) -> CompiledModule:
    """The machine code of a device module (cached by its text with its locations, which the
    code's line table holds, the index bitwidth and whether its accesses are checked:
    `--check`)."""
    text = f"{index_bitwidth}:{'check:' if check else ''}{disk_cache.module_text(module)}"
    with _cache_lock:
        found = _cache.get(text)
        if found is not None:
            return found
        compiled = _compile(module, index_bitwidth, text, check)
        if len(_cache) >= CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[text] = compiled
        return compiled


def _compile(module: ModuleOp, index_bitwidth: int, text: str, check: bool) -> CompiledModule:
    """The module's machine code: from the disk cache, else LLVM's (then kept there when every
    kernel compiled)."""
    load_libraries()
    if check and checker_lib.checker() is None:
        return CompiledModule(module_error=RuntimeError(checker_lib.unavailable()))
    key = disk_cache.key("cpu", text)
    stored = disk_cache.load("cpu", key)
    if stored is not None:
        with suppress(RuntimeError, ValueError, KeyError, TypeError):
            return _from_cache(*stored)
    from llvmlite import binding

    from gpuir.lowering.cpu.cpu_llvm import host_program
    from gpuir.lowering.llvm.native import new_host_machine

    try:
        faults.link()
        program = host_program(module, index_bitwidth, check)
        parsed = binding.parse_assembly(program.llvm_ir)
        missing = [
            f.name
            for f in parsed.functions
            if f.is_declaration
            and not f.name.startswith("llvm.")
            and binding.address_of_symbol(f.name) is None
        ]
        if missing:
            raise RuntimeError(
                f"the device code calls @{missing[0]}, which has no definition on the host"
            )
        engine = binding.create_mcjit_compiler(parsed, new_host_machine())
        capture = disk_cache.ObjectCapture()
        engine.set_object_cache(capture.notify)
        engine.finalize_object()
    except Exception as e:  # noqa: BLE001  # every failure becomes the launches' error
        return CompiledModule(module_error=e)
    formats = device_print.formats_from(program.print_formats)
    if capture.code is not None and not program.errors:
        kernels_header = [
            [
                k.name,
                k.entry,
                k.shared_bytes,
                [str(p) for p in k.params],
                k.resume_state,
                [list(b) for b in k.barriers],
                list(k.write_only),
            ]
            for k in program.kernels.values()
        ]
        formats_header = [[f.text, f.kind, [str(t) for t in f.types]] for f in formats or []]
        header = {"kernels": kernels_header, "formats": formats_header}
        disk_cache.store("cpu", key, header, capture.code)
    kernels = {
        name: CompiledKernel(
            name,
            engine.get_function_address(kernel.entry),
            kernel.shared_bytes,
            kernel.params,
            kernel.resume_state,
            kernel.barriers,
            kernel.write_only,
            stream_address(engine, kernel.entry, kernel.write_only),
        )
        for name, kernel in program.kernels.items()
    }
    return CompiledModule(
        engine,
        kernels,
        dict(program.errors),
        prints=Printing.of(engine, formats),
        code=capture.code,
    )


def stream_address(engine: object, entry: str, write_only: Sequence[int]) -> int:
    """The address of the stream entry of a kernel with write-only arguments (else 0)."""
    if not write_only:
        return 0
    return engine.get_function_address(entry + STREAM_SUFFIX)  # type: ignore[attr-defined]


def _from_cache(header: dict[str, object], code: bytes) -> CompiledModule:
    """A compiled module from a disk cache entry (`_compile`'s header: per kernel its name,
    entry symbol, shared bytes, parameter types as text, in resumable form where the stops
    are and the barriers, and its write-only arguments)."""
    from xdsl.parser import Parser

    from gpuir.dialects import make_context

    ctx = make_context()
    kernels: dict[str, CompiledKernel] = {}
    entries = header["kernels"]
    assert isinstance(entries, list)
    faults.link()
    engine = disk_cache.engine_from_object(code)
    for name, entry, shared_bytes, params, resume_state, barriers, write_only in entries:
        address = engine.get_function_address(entry)
        streams = stream_address(engine, entry, write_only)
        if not address or (write_only and not streams):
            raise KeyError(entry)
        types = tuple(Parser(ctx, p).parse_attribute() for p in params)
        table = tuple((n, f, line, column) for n, f, line, column in barriers)
        kernels[name] = CompiledKernel(
            name, address, shared_bytes, types, resume_state, table, tuple(write_only), streams
        )
    formats = [
        device_print.Format(text, kind, tuple(Parser(ctx, t).parse_attribute() for t in types))
        for text, kind, types in header.get("formats", [])  # type: ignore[union-attr]
    ]
    return CompiledModule(engine, kernels, prints=Printing.of(engine, formats), code=code)
