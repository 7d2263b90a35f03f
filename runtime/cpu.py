"""The `cpu` provider: the device module compiled for this CPU with LLVM (llvmlite's MCJIT); the
work-groups of a launch run in parallel on a pool of native threads, the work-items of a group as loops.

Compiling. `load_module` lowers the device module for the host (`gpuir.lowering.cpu.cpu_llvm`:
kernels → work-group functions with item loops → LLVM IR → `-O3` for this CPU) and hands it to
MCJIT; the machine code is cached by the module's text, so a program compiles once per process.
A kernel that cannot run here (a barrier in a function that it calls, …) does not stop the
others: its launches fail with the compile error, at the op that caused it
(with a note at the launch). A module that does not compile at all fails every launch, with
LLVM's or the lowering's message. Either way the provider stays usable.

Launching. A launch calls the kernel's entry, `__gpuir_launch_<k>(first_group, end_group,
n_items, shared, smem, args, progress)`, once per chunk of consecutive groups: on the calling
thread for a launch of one group, else on `threads()` threads (the CPUs this process may run
on, or `$GPUIR_CPU_THREADS`): the calling thread and the native threads of
`gpuir.runtime.cpu_pool` take chunks (`CHUNKS_PER_WORKER` per thread) until
none is left, with no Python between the launch and its last chunk (ctypes releases the GIL
while the machine code runs; where there are no native threads, the calling thread runs every
chunk). Each thread has its own shared-memory
buffer (the kernel's static shared memory, then the launch's dynamic shared memory), reused by
the groups it runs one after another; `args` is one 8-byte slot per argument (a struct
argument's slot holds the address of its bytes, in C's layout: `gpuir.runtime.structs`). Each
kernel has one argument buffer, made when it compiles and filled in place by each launch (under
a lock), so a launch allocates nothing. Launches are synchronous: stream-ordered work runs
eagerly, in call order (as `interp`).

The Python API's launches on the default stream take a shorter way (`CpuProvider.launcher`):
the kernel's arguments are written by one function made for its parameters
(`CompiledKernel.filler`, with the common cases inline: the same buffer as the last launch, an
`int` in range, a float of the parameter's type), the call's block is written once per calling
thread (a thread's shared-memory buffer stays until `close`, so the block may keep its
address), and a launch that finds the kernel busy in another thread goes the usual way, which
waits for it.

Memory. Device allocations are host-visible, in an arena of their own (`gpuir.runtime.cpu_arena`:
reserved address space, a guard page after each allocation, whose bytes end at its end), as are
the threads' shared-memory buffers; an allocation's real address is its address, so a pointer
passed to (or stored for) compiled code is a machine address. Copies are checked (`out of
bounds`, `use after free`) as in `interp`. Kernels are not checked access by access, but run
under a fault guard (`gpuir.runtime.cpu_faults`): an access that reaches a guard page or any
address outside device memory, and an integer division by zero, end the launch with a located
error in CUDA's words (`an illegal memory access in @k at address 0x…  (32 bytes past the end
of a 4000-byte global allocation (by …)), in work-group 3`); the process, its heap and the
provider are unharmed, and the next launch runs. A kernel in resumable form (`gpuir.lowering.cpu.resume`) whose items stop at different barriers
ends the launch with `barrier divergence`, in `interp`'s words, at the barrier. An overrun that stays within an allocation's
last 64 bytes of padding, or lands in another allocation, is not seen (`--provider interp`
finds every one). A launch whose pointer argument points into freed or host memory is an error
before it runs.

Checked launches (`CpuProvider(check=True)`, `gpu-run --provider cpu --check`). The kernels are
compiled with their accesses to memory and their barriers instrumented
(`gpuir.lowering.cpu.check_accesses`): each calls the native checker (`cpu_check.c`, built with the
system's C compiler on first use), which knows the live allocations and keeps a shadow record
per word touched (who wrote it, which value, who read it, in which group and epoch; per byte
where it is accessed in parts). The commonest case (an aligned 4-byte access to a word of a
live device allocation that only this work-item touched in this epoch) is checked inline, in
the kernel's own code, with no call. A launch
runs its groups in order on the calling thread, its items in order, as `interp` does. An
access outside every live allocation, or one that may race with an earlier access of the launch,
stops it (as does a fault or a barrier divergence); the device memory goes back to what it was
before the launch (the checker logs what each first write of the launch found there), and
`interp` runs the launch again on it: its first error, at the op and in
its words (out of bounds, use after free, race, barrier divergence), is the launch's; where it
finds none (the checker suspected a race that was not one), its results are. A freed
allocation's bytes are kept from reuse until `close`, so a stale pointer is a use after free.
Each shared array and local slot is an allocation of its own, with a red zone after it (local
memory: bounds only). Not checked: an access that lands within another live allocation
(interp sees them all).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import struct
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from typing import IO

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.gpu import WARP
from gpuir.dialects.mem import GLOBAL, HOST, PtrType
from gpuir.ir.diagnostics import OpError, item_ranges
from gpuir.lowering.llvm import print_abi
from gpuir.lowering.llvm.native import load_libraries
from gpuir.runtime import (
    ProviderUnavailable,
    cpu_arena,
    cpu_check,
    cpu_faults,
    cpu_pool,
    device_print,
    disk_cache,
    memory,
    structs,
)
from gpuir.runtime.eager import EagerHostProvider
from gpuir.runtime.memory import Allocation, Pointer, space_name
from gpuir.runtime.provider import (
    LoadedModule,
    ProviderError,
    check_launch,
    kernels_of,
    warp_divergence_message,
)
from gpuir.runtime.scalars import float_dtype, int_range, int_width

ALIGNMENT = 64
"""Byte alignment of device allocations and shared-memory buffers."""
PARALLEL_GROUPS = 2
"""A launch of fewer work-groups than this runs on the calling thread (a group's work is not
known before it runs, so any launch of several groups may be worth the threads)."""
CHUNKS_PER_WORKER = 4
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
cannot be caught (`cpu_faults.install()` is None)."""


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
    entry: ctypes._CFuncPtr = field(init=False)  # type: ignore[name-defined]
    slots: ctypes.Array = field(init=False)  # type: ignore[type-arg]
    argv: int = field(init=False)
    writers: tuple[tuple[str, object], ...] = field(init=False)
    """Per argument how a launch fills its slot: `("pointer", None)`, `("int", mask)`,
    `("float", struct.Struct)` (packs into the slot's low bytes) or `("struct", bytes)`."""
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.entry = EntryFunction(self.address)
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


INDEX_BITWIDTH_ENV = "GPUIR_CPU_INDEX_BITWIDTH"
"""Environment variable: 32 runs the cpu provider's device code with 32-bit index values."""
THREADS_ENV = "GPUIR_CPU_THREADS"
"""Environment variable: how many threads run a launch's work-groups (default `threads()`)."""


def threads() -> int:
    """The threads of a launch: `$GPUIR_CPU_THREADS`, else the CPUs this process may run on (its
    affinity: `taskset`, a container's cpuset), not the machine's count; a `ValueError` for a
    setting that is not a positive integer."""
    setting = os.environ.get(THREADS_ENV, "").strip()
    if setting:
        if not setting.isdigit() or int(setting) < 1:
            raise ValueError(f"${THREADS_ENV} must be a positive integer, found {setting!r}")
        return int(setting)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


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
    if check and cpu_check.checker() is None:
        return CompiledModule(module_error=RuntimeError(cpu_check.unavailable()))
    key = disk_cache.key("cpu", text)
    stored = disk_cache.load("cpu", key)
    if stored is not None:
        with suppress(RuntimeError, ValueError, KeyError, TypeError):
            return _from_cache(*stored)
    from llvmlite import binding

    from gpuir.lowering.cpu.cpu_llvm import host_program
    from gpuir.lowering.llvm.native import new_host_machine

    try:
        cpu_faults.link()
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
        )
        for name, kernel in program.kernels.items()
    }
    return CompiledModule(
        engine, kernels, dict(program.errors), prints=Printing.of(engine, formats)
    )


def _from_cache(header: dict[str, object], code: bytes) -> CompiledModule:
    """A compiled module from a disk cache entry (`_compile`'s header: per kernel its name,
    entry symbol, shared bytes, parameter types as text, and in resumable form where the stops
    are and the barriers)."""
    from xdsl.parser import Parser

    from gpuir.dialects import make_context

    ctx = make_context()
    kernels: dict[str, CompiledKernel] = {}
    entries = header["kernels"]
    assert isinstance(entries, list)
    cpu_faults.link()
    engine = disk_cache.engine_from_object(code)
    for name, entry, shared_bytes, params, resume_state, barriers in entries:
        address = engine.get_function_address(entry)
        if not address:
            raise KeyError(entry)
        types = tuple(Parser(ctx, p).parse_attribute() for p in params)
        table = tuple((n, f, line, column) for n, f, line, column in barriers)
        kernels[name] = CompiledKernel(name, address, shared_bytes, types, resume_state, table)
    formats = [
        device_print.Format(text, kind, tuple(Parser(ctx, t).parse_attribute() for t in types))
        for text, kind, types in header.get("formats", [])  # type: ignore[union-attr]
    ]
    return CompiledModule(engine, kernels, prints=Printing.of(engine, formats))


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


# --- the provider --------------------------------------------------------------------------------


class CpuProvider(EagerHostProvider):
    """The compiled CPU provider (module docstring)."""

    name = "cpu"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        try:
            from gpuir.lowering.llvm.native import host_machine

            host_machine()
        except Exception as e:  # noqa: BLE001  # no llvmlite, no native target: not available
            return f"LLVM cannot compile for this machine ({type(e).__name__}: {e})"
        return None

    def __init__(
        self, index_bitwidth: int | None = None, out: IO[str] | None = None, check: bool = False
    ) -> None:
        """`index_bitwidth`: 64, or 32 to run device code with 32-bit index values, as
        `device-to-llvm{index-bitwidth=32}` lowers it (default: `$GPUIR_CPU_INDEX_BITWIDTH`,
        else 64). `out` receives the output of kernels' `printf` (default: `sys.stdout` at the
        time of the launch). `check`: every access of a kernel to memory is
        checked (`--check`, "Checked launches" in the module docstring)."""
        super().__init__()
        self.out = out
        self.check = check
        self.checker: cpu_check.Checker | None = None
        if check:
            self.checker = cpu_check.checker()
            if self.checker is None:
                raise ProviderUnavailable(cpu_check.unavailable())
            if cpu_faults.install() is None:
                raise ProviderUnavailable(
                    "cpu --check needs the fault guard (Linux on x86-64 or AArch64)"
                )
        self.quarantine: list[Allocation] = []
        """Freed allocations whose bytes `--check` keeps from reuse (an access to them is a
        use after free), given back at `close`."""
        self.replays: dict[int, LoadedModule] = {}
        """Loaded modules as `interp` runs them, for checked launches that it runs again."""
        self.replayed = 0
        """Checked launches run again under interp (a suspect access, a fault, a divergence)."""
        if index_bitwidth is None:
            setting = os.environ.get(INDEX_BITWIDTH_ENV) or "64"
            index_bitwidth = int(setting) if setting in ("32", "64") else 0
        if index_bitwidth not in (32, 64):
            found = os.environ.get(INDEX_BITWIDTH_ENV) if index_bitwidth == 0 else index_bitwidth
            raise ProviderUnavailable(
                f"cpu: the index bitwidth must be 32 or 64, found {found!r} "
                f"(${INDEX_BITWIDTH_ENV} or CpuProvider(index_bitwidth=…))"
            )
        self.index_bitwidth = index_bitwidth
        try:
            self.workers = threads()
        except ValueError as e:
            raise ProviderUnavailable(f"cpu: {e}") from None
        self.local = threading.local()
        self.pool_shared: tuple[int, list[int]] = (-1, [])
        """The size and addresses of the shared-memory buffers of the pool's threads."""
        self.shared_blocks: dict[int, np.ndarray] = {}
        """The threads' shared-memory buffers (address and view: numpy bytes live as long as
        their view), given back at `close`."""
        self.shared_lock = threading.Lock()

    # session

    def close(self, *, op: Operation | None = None) -> None:
        live = [a for a in self.live if not a.freed]
        super().close(op=op)
        for allocation in live + self.quarantine:
            if self.checker is not None:
                self.checker.free(allocation.address)
            release_device_bytes(allocation.address)
        self.quarantine = []
        with self.shared_lock:
            for address in self.shared_blocks:
                release_device_bytes(address)
            self.shared_blocks = {}
        self.local = threading.local()
        self.pool_shared = (-1, [])

    # memory

    def _make_allocation(
        self, nbytes: int, pointee: Attribute, extent: int | None, op: Operation | None, what: str
    ) -> Allocation:
        if nbytes < 0:
            raise ProviderError(op, f"cannot allocate {nbytes} bytes", "invalid value")
        try:
            address, data = device_bytes(nbytes)
        except (MemoryError, ValueError) as e:  # ValueError: over numpy's largest array
            message = f"out of memory: cannot make a {nbytes}-byte {what or 'device allocation'}"
            raise ProviderError(op, message, "out of memory") from e
        allocation = Allocation(
            GLOBAL,
            nbytes,
            pointee,
            extent,
            host_visible=False,
            address=address,
            op=op,
            what=what,
        )
        allocation.data = data
        if self.checker is not None:
            self.checker.alloc(address, nbytes)
        return allocation

    def free(self, ptr, *, stream=None, op=None) -> None:
        super().free(ptr, stream=stream, op=op)
        if ptr.allocation is None:
            return
        if self.checker is not None:  # kept: a later access is a use after free
            self.checker.free(ptr.allocation.address)
            self.quarantine.append(ptr.allocation)
            return
        release_device_bytes(ptr.allocation.address)

    def _transfer(self, dst: Pointer, src: Pointer, nbytes: int, op: Operation | None) -> None:
        source, start = memory.check_access(src, nbytes, op, f"reads {nbytes} bytes from")
        target, offset = memory.check_access(dst, nbytes, op, f"writes {nbytes} bytes to")
        data = memory.host_bytes(source, op)[start : start + nbytes]
        memory.host_bytes(target, op)[offset : offset + nbytes] = data

    # code

    def load_module(self, module: ModuleOp, *, op=None) -> LoadedModule:
        self.check_open(op)
        kernels, functions = kernels_of(module)
        compiled = compile_module(module, self.index_bitwidth, self.check)
        return LoadedModule(module, kernels, compiled, functions)

    def launch(
        self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None
    ) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        compiled = module.payload
        if not isinstance(compiled, CompiledModule):
            raise ProviderError(op, "cpu: the module was not loaded by cpu", "invalid handle")
        code = compiled.kernel(kernel, op) if kernel in compiled.kernels else None
        if code is None or not code.accepts(n_groups, n_items, args):
            check_launch(self.name, module, kernel, n_groups, n_items, args, op)
            code = compiled.kernel(kernel, op)
        prints = compiled.prints
        if self.checker is not None:
            with code.lock, prints.lock if prints is not None else nullcontext():
                self._checked_launch(module, code, n_groups, n_items, smem_bytes, args, op)
            return
        if prints is not None:  # in order, one group after another, with the module's buffer
            with prints.lock, code.lock:
                code.fill(args, op)
                prints.start()
                try:
                    self._run(
                        code, n_groups, n_items, smem_bytes, code.argv, op, module.module, True
                    )
                finally:
                    self.print_output(prints.finish(), kernel, op)
            return
        with code.lock:  # the kernel's argument buffer, filled in place
            code.fill(args, op)
            self._run(code, n_groups, n_items, smem_bytes, code.argv, op, module.module)

    def launcher(
        self,
        module: LoadedModule,
        kernel: str,
        params: Sequence[Attribute],
        converters: Sequence[Callable[[object], object]],
        smem_bytes: int,
    ):
        """A launch of `kernel` of `module` for the Python API on the default stream with
        `smem_bytes` of dynamic shared memory: `launch(n_groups, n_items, args)`, the Python
        arguments turned into their values by `converters` (one per parameter of `params`)
        and written straight into the argument slots, and a launch of one group on this
        thread, without `launch`'s lookups or the pool. True when it launched; False when it
        declines (a closed provider, a grid out of range, another number of arguments), and
        the caller takes the usual way, which says why. None where `launch` is the only way
        (the kernel prints or did not compile, or faults cannot be caught)."""
        compiled = module.payload
        guard = cpu_faults.install()
        if (
            self.checker is not None
            or not isinstance(compiled, CompiledModule)
            or compiled.prints is not None
            or kernel not in compiled.kernels
            or guard is None
        ):
            return None
        code = compiled.kernels[kernel]
        if tuple(params) != code.params:
            return None
        fill, count = code.filler(converters), len(converters)
        lock, static, address = code.lock, code.shared_bytes, code.address
        call, argv, source = guard.call_block, code.argv, module.module
        block = (ctypes.c_uint64 * 8)()  # the call's arguments (`cpu_faults.CALL_BLOCK`)
        owner: list = [None, None, 0]
        """The thread whose fault context and shared-memory buffer the block holds (a buffer
        stays valid until `close`), that context and that buffer: a launch from the same
        thread as the last one writes only the grid into the block."""
        size = static + smem_bytes
        parallel = PARALLEL_GROUPS if self.workers > 1 else None
        threads = cpu_pool.pool(self.workers)
        get_ident = threading.get_ident
        acquire, release = lock.acquire, lock.release

        def launch(n_groups: int, n_items: int, args: Sequence[object]) -> bool:
            if n_groups.__class__ is not int or n_items.__class__ is not int:
                n_groups, n_items = int(n_groups), int(n_items)
            if not self.is_open or n_groups < 1 or not 1 <= n_items <= MAX_ITEMS:
                return False
            if len(args) != count:
                return False
            if not acquire(False):
                return False  # another thread's launch: the usual way waits for it
            try:
                fill(args)
                if parallel is not None and n_groups >= parallel:
                    if threads is None or not threads.alive:
                        self._run(code, n_groups, n_items, smem_bytes, argv, None, source)
                        return True
                    self._run_on_pool(threads, code, n_groups, n_items, size, argv, source, None)
                    return True
                thread = get_ident()
                if owner[0] != thread:
                    shared, ctx = self.shared_buffer(size), cpu_faults.context()
                    cpu_faults.CALL_BLOCK.pack_into(
                        block, 0, address, 0, 0, 0, shared, shared + static, argv, ctx.address
                    )
                    owner[0], owner[1], owner[2] = thread, ctx, shared
                block[2], block[3] = n_groups, n_items
                if call(block):
                    fault = cpu_faults.fault_of(owner[1].array)
                    stops = read_stops(fault, code, owner[2], n_items)
                    raise fault_error(stops, code, source, None)
            finally:
                release()
            return True

        return launch

    def _checked_launch(
        self,
        module: LoadedModule,
        code: CompiledKernel,
        n_groups: int,
        n_items: int,
        smem_bytes: int,
        args: Sequence[tuple[object, Attribute]],
        op: Operation | None,
    ) -> None:
        """A launch with `--check`: the groups in order on this thread, each access checked;
        a suspect access (or a fault, or a barrier divergence) stops it, and `interp` runs it
        again from the device memory it started with (module docstring)."""
        checker, guard = self.checker, cpu_faults.install()
        assert checker is not None and guard is not None
        from llvmlite import binding

        try:
            code.fill(args, op)
        except ProviderError as e:
            if e.name != "use after free":
                raise
            # a freed buffer is an error where a work-item touches it, as interp says
            self._replay(module, code.name, n_groups, n_items, smem_bytes, args, op)
            return
        prints = module.payload.prints  # type: ignore[union-attr]
        static = code.shared_bytes
        shared = self.shared_buffer(static + smem_bytes)
        checker.begin(n_items, binding.address_of_symbol(cpu_faults.DIVERGENCE_SYMBOL))
        checker.shared(shared, static + smem_bytes)
        # the dynamic shared memory is an allocation; each static shared array makes itself
        # one when the kernel makes it (`__gpuir_check_slot`)
        if smem_bytes:
            checker.alloc(shared + static, smem_bytes)
        if prints is not None:
            prints.start()
        try:
            fault = cpu_faults.run_guarded(
                guard, code.address, 0, n_groups, n_items, shared, shared + static, code.argv
            )
        finally:
            if smem_bytes:
                checker.free(shared + static)
            output = prints.finish() if prints is not None else None
            suspect = checker.end()
        if fault is None and not suspect:
            if output is not None:
                self.print_output(output, code.name, op)
            return
        try:
            checker.undo()  # device memory as it was: interp runs the launch from there
        except MemoryError as e:
            raise ProviderError(op, str(e), "out of memory") from e
        self._replay(module, code.name, n_groups, n_items, smem_bytes, args, op)

    def _replay(
        self,
        module: LoadedModule,
        kernel: str,
        n_groups: int,
        n_items: int,
        smem_bytes: int,
        args: Sequence[tuple[object, Attribute]],
        op: Operation | None,
    ) -> None:
        """Run the launch under `interp`, on this provider's memory: its first bad access
        is the launch's error, in interp's words; without one, its results are the launch's."""
        from gpuir.runtime.interp import interp_module, run_launch

        self.replayed += 1
        loaded = self.replays.get(id(module))
        if loaded is None:
            loaded = LoadedModule(
                module.module, module.kernels, interp_module(module.module), module.functions
            )
            self.replays[id(module)] = loaded
        run_launch(self, loaded, kernel, n_groups, n_items, smem_bytes, args, op)

    def print_output(self, output: device_print.Output, kernel: str, op: Operation | None) -> None:
        device_print.write(output, self.output(), f"cpu: the printf output of @{kernel}", op)

    def output(self) -> IO[str]:
        return self.out if self.out is not None else sys.stdout

    def _run(
        self,
        code: CompiledKernel,
        n_groups: int,
        n_items: int,
        smem_bytes: int,
        argv: int,
        op: Operation | None,
        source: ModuleOp | None = None,
        in_order: bool = False,
    ) -> None:
        """Run the groups: here when the launch is small (or `in_order`: one after another),
        else in chunks on the pool. `argv` (the address of the argument slots) stays valid
        until the chunks are done. Each chunk runs under the fault guard (`cpu_faults`); the
        fault of the lowest work-group is the launch's error."""
        static = code.shared_bytes
        shared_size = static + smem_bytes
        guard = cpu_faults.install()
        faults: list[cpu_faults.Fault] = []

        def run_chunk(first: int, end: int) -> None:
            shared = self.shared_buffer(shared_size)
            if guard is None:
                code.entry(first, end, n_items, shared, shared + static, argv, self.progress())
                return
            fault = cpu_faults.run_guarded(
                guard, code.address, first, end, n_items, shared, shared + static, argv
            )
            if fault is not None:
                faults.append(read_stops(fault, code, shared, n_items))

        threads = None
        if self.workers > 1 and n_groups >= PARALLEL_GROUPS and not in_order:
            threads = cpu_pool.pool(self.workers)
        if threads is None or not threads.alive:
            run_chunk(0, n_groups)
        else:
            self._run_on_pool(threads, code, n_groups, n_items, shared_size, argv, source, op)
        if faults:
            raise fault_error(min(faults, key=lambda f: f.group), code, source, op)

    def progress(self) -> int:
        """This thread's slot for a launch entry's group number, where faults are not caught."""
        local = self.local
        if not hasattr(local, "progress"):
            local.progress = ctypes.c_int64()
        return ctypes.addressof(local.progress)

    def _run_on_pool(
        self,
        threads: cpu_pool.Pool,
        code: CompiledKernel,
        n_groups: int,
        n_items: int,
        shared_size: int,
        argv: int,
        source: ModuleOp | None,
        op: Operation | None,
    ) -> None:
        """The groups in chunks on the native threads (`CHUNKS_PER_WORKER` per thread), each
        thread with its shared-memory buffer; the fault of the lowest group is the error."""
        chunks = min(n_groups, threads.workers * CHUNKS_PER_WORKER)
        shared = self.pool_buffers(shared_size, threads.workers)
        found = threads.run(
            code.address, n_groups, n_items, code.shared_bytes, argv, chunks, shared
        )
        if found:
            raise pool_error(found, code, shared, n_items, source, op)

    def pool_buffers(self, nbytes: int, workers: int) -> list[int]:
        """The addresses of the shared-memory buffers of the pool's `workers` threads
        (`cpu_pool`), each of at least `nbytes` bytes (as `shared_buffer`): the same list as
        long as they are large enough."""
        size, found = self.pool_shared
        if size >= nbytes and len(found) == workers:
            return found
        size = max(nbytes, ALIGNMENT)
        buffers = dict(device_bytes(size) for _ in range(workers))
        made = list(buffers)
        with self.shared_lock:
            for address in found:
                del self.shared_blocks[address]
                release_device_bytes(address)
            self.shared_blocks.update(buffers)
        self.pool_shared = size, made
        return made

    def shared_buffer(self, nbytes: int) -> int:
        """The address of this thread's shared-memory buffer, of at least `nbytes` bytes (in
        the device arena: an overrun faults, as a device's would)."""
        local = self.local
        if getattr(local, "size", -1) < nbytes:
            size = max(nbytes, ALIGNMENT)
            address, view = device_bytes(size)
            with self.shared_lock:  # a smaller one stays until `close`: a launcher may hold it
                self.shared_blocks[address] = view
            local.address, local.size = address, size
        return local.address


def device_bytes(nbytes: int) -> tuple[int, np.ndarray]:
    """`nbytes` zeroed bytes of device memory, `ALIGNMENT`-aligned: in the device arena
    (`cpu_arena`), or where there is none in a numpy array; their address and a view."""
    found = cpu_arena.arena()
    if found is not None:
        return found.allocate(nbytes)
    data = aligned_bytes(nbytes)
    return data.ctypes.data, data


def release_device_bytes(address: int) -> None:
    """Give back what `device_bytes` made at `address` to the arena (numpy bytes go with
    their array)."""
    found = cpu_arena.arena()
    if found is not None and found.contains(address):
        found.release(address)


SIGNAL_WORDS = {
    signal.SIGSEGV: "an illegal memory access",
    signal.SIGBUS: "an illegal memory access (bus error)",
    signal.SIGFPE: "an integer division by zero",
}


def read_stops(
    fault: cpu_faults.Fault, code: CompiledKernel, shared: int, n_items: int
) -> cpu_faults.Fault:
    """`fault`, with the items' stops read from the group's shared memory at `shared` when
    it is a barrier divergence (before the next group on this thread overwrites them)."""
    if fault.signal == cpu_faults.DIVERGENCE and code.resume_state is not None:
        fault.stops = tuple((ctypes.c_int32 * n_items).from_address(shared + code.resume_state))
    return fault


def pool_error(
    faults: list[tuple[int, cpu_faults.Fault]],
    code: CompiledKernel,
    shared: list[int],
    n_items: int,
    source: ModuleOp | None,
    op: Operation | None,
) -> ProviderError:
    """The error of a launch on the pool whose threads faulted (`faults`: thread and fault):
    the fault of the lowest work-group, the stops of a divergence read from its thread's
    shared memory (`shared[w]`)."""
    w, fault = min(faults, key=lambda found: found[1].group)
    return fault_error(read_stops(fault, code, shared[w], n_items), code, source, op)


def fault_error(
    fault: cpu_faults.Fault, code: CompiledKernel, source: ModuleOp | None, op: Operation | None
) -> ProviderError:
    """A kernel's fault as the launch's error, in CUDA's words: what, where (the address
    and the nearest device allocation), the work-group; or its barrier divergence, in
    `interp`'s words."""
    if fault.signal == cpu_faults.DIVERGENCE:
        return divergence_error(fault, code, source, op)
    kernel = code.name
    words = SIGNAL_WORDS.get(fault.signal, f"signal {fault.signal}")
    where = ""
    if fault.signal != signal.SIGFPE:
        where = f" at address {fault.address:#x}{describe_address(fault.address)}"
    message = f"cpu: {words} in @{kernel}{where}, in work-group {fault.group}"
    name = "integer division by zero" if fault.signal == signal.SIGFPE else "illegal address"
    return ProviderError(op, message, name)


def divergence_error(
    fault: cpu_faults.Fault, code: CompiledKernel, source: ModuleOp | None, op: Operation | None
) -> ProviderError:
    """The work-items of group `fault.group` stopped at different places (`fault.stops`: 0 at
    the end of the kernel, `b` at barrier `b`), in `interp`'s words, at the barrier's op of
    `source` (else at the launch)."""
    stops = fault.stops
    warp = warp_divergence(fault, code, source)
    if warp is not None:
        return warp
    waiting = [i for i, s in enumerate(stops) if s != 0]
    returned = [i for i, s in enumerate(stops) if s == 0]
    group, passed = fault.group, fault.address
    first = stops[waiting[0]] if waiting else 0
    barrier, where = barrier_op(code, first, source), describe_barrier(code, first)
    if returned and waiting:
        message = (
            f"barrier divergence in group {group}: work-item(s) {item_ranges(waiting)} wait at "
            f"{where} (barrier {passed + 1} of the group), but work-item(s) "
            f"{item_ranges(returned)} returned from the kernel after {passed} barrier(s), "
            "without reaching it"
        )
        return ProviderError(barrier or op, message, "barrier divergence")
    other = next((s for s in stops if s != first), first)
    other_item = stops.index(other)
    same = [i for i, s in enumerate(stops) if s == first]
    rest = [i for i, s in enumerate(stops) if s == other]
    other_op = barrier_op(code, other, source)
    suffix = ""
    if barrier is not None and barrier is other_op:  # two barriers made from one op
        scope = barrier.name == "gpu.synced_scope"
        suffix = (
            " (the entry and the exit of one synced scope)"
            if scope
            else " (reached through different calls)"
        )
    message = (
        f"barrier divergence in group {group}: work-item(s) {item_ranges(same)} wait at "
        f"{where}, but work-item(s) {item_ranges(rest)} wait at "
        f"{describe_barrier(code, other)}{suffix}; every work-item of a group must reach the "
        "same barriers"
    )
    related = [(other_op, f"where work-item {other_item} waits")] if other_op is not None else []
    return ProviderError(barrier or op, message, "barrier divergence", related)


WARP_OP_NAMES = ("gpu.shuffle", "gpu.ballot")


def warp_divergence(
    fault: cpu_faults.Fault, code: CompiledKernel, source: ModuleOp | None
) -> ProviderError | None:
    """The first warp some of whose lanes stopped at a warp operation and others elsewhere, in
    `interp`'s words (None when there is none: the divergence is the group's)."""
    stops = fault.stops
    at_warp_op = {
        number for number, entry in enumerate(code.barriers, 1) if entry[0] in WARP_OP_NAMES
    }
    for start in range(0, len(stops), WARP):
        lanes = range(start, min(start + WARP, len(stops)))
        first = next((i for i in lanes if stops[i] in at_warp_op), None)
        if first is None:
            continue
        other = next((i for i in lanes if stops[i] != stops[first]), None)
        if other is None:
            continue
        same = [i for i in lanes if stops[i] == stops[first]]
        rest = [i for i in lanes if stops[i] == stops[other]]
        if stops[other] == 0:
            where = "returned from the kernel"
        else:
            where = f"wait at {describe_barrier(code, stops[other])}"
        message = warp_divergence_message(
            fault.group,
            same,
            describe_barrier(code, stops[first]),
            rest,
            where,
            lanes[0],
            lanes[-1],
        )
        op = barrier_op(code, stops[first], source)
        return ProviderError(op, message, "barrier divergence")
    return None


def barrier_op(code: CompiledKernel, number: int, source: ModuleOp | None) -> Operation | None:
    """The op of `source` at barrier `number`'s location (a `gpu.synced_scope` for the
    barriers it expands into)."""
    if source is None or not 1 <= number <= len(code.barriers):
        return None
    name, file, line, column = code.barriers[number - 1]
    if not file:
        return None
    found = None
    for candidate in source.walk():
        loc = candidate.location
        if (
            isinstance(loc, FileLineColLoc)
            and loc.line.data == line
            and loc.column.data == column
            and loc.filename.data == file
        ):
            if candidate.name == name:
                return candidate
            found = found or candidate
    return found


def describe_barrier(code: CompiledKernel, number: int) -> str:
    """`'gpu.sync_work_items' at file:line:col`, as `interp` describes a barrier."""
    if not 1 <= number <= len(code.barriers):
        return "(unknown op)"
    name, file, line, column = code.barriers[number - 1]
    return f"'{name}' at {file}:{line}:{column}" if file else f"'{name}'"


NEAR = 1 << 16
"""An address at most this far outside an allocation is described next to it."""


def describe_address(address: int) -> str:
    """Where `address` is, next to the device allocations: `(12 bytes past the end of a
    4000-byte global allocation (by …))`, `(in no device allocation)`."""
    if address == 0:  # what the kernel reports for an address no mapping can have, too
        return " (a null pointer, or an address outside the address space)"
    found = cpu_arena.arena()
    if found is None or not found.contains(address):
        return " (outside device memory)"
    before, after = found.near(address)
    candidates = []
    if before is not None and address >= before.data + before.nbytes:
        candidates.append((address - (before.data + before.nbytes), "past the end of", before))
    if after is not None and address < after.data:
        candidates.append((after.data - address, "before the start of", after))
    if not candidates or min(c[0] for c in candidates) > NEAR:
        return " (in no device allocation)"
    distance, relation, block = min(candidates, key=lambda c: c[0])
    allocation, _ = memory.ADDRESSES.resolve(block.data)
    if allocation is None or allocation.freed or allocation.address != block.data:
        what = "a work-group's shared memory"  # the arena's only other blocks
    else:
        what = allocation.describe()
    return f" ({distance} bytes {relation} {what})"


def aligned_bytes(nbytes: int) -> np.ndarray:
    """`nbytes` zeroed bytes whose address is a multiple of `ALIGNMENT`."""
    raw = np.zeros(nbytes + ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + nbytes]
