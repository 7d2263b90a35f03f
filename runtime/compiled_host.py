"""The compiled host: `@host` as machine code (LLVM's MCJIT), calling the runtime's C ABI, which
this module implements over any `Provider` (`cpu`, `cuda`).

Compiling (`compile_host`, cached by the program's text): a copy of the host module goes through
`host-to-llvm` (`gpuir.lowering.host.host_to_llvm`), is translated for this CPU, gets the JIT shim
(`add_runtime_shim`: each ABI function calls a Python callback and, when it fails, `longjmp`s
back to the entry) and LLVM's `-O2`, and MCJIT makes it machine code. Each host function `f`
has an entry `__gpuir_main_f(args, results)` that takes and returns 8-byte slots.

Running (`CompiledHostExecutor`, the same interface as `gpuir.runtime.host.HostExecutor`): host
loops, arithmetic and host memory are machine code, unchecked (as C's: use `--provider interp`
for checked host code); each runtime call comes back to Python with plain addresses, which the
runtime maps to the allocations it made (`memory.ADDRESSES`), and calls the provider exactly as
the host executor does: the same checks (`out of bounds` and `use after free` of a copy, a
double free, a wrong address space), the same errors at the same op (the call carries the op's
id), the same output. A failure ends the call: the callback records the error and returns 1,
the shim unwinds to the entry, the executor raises the error; the provider stays usable.

Host memory that compiled code allocates (`mem.alloc` in space 0) comes from the runtime
(`gpuirHostAlloc`: zeroed numpy bytes at a real address), so that a copy of a
`!mem.array<? x T>` knows its extent and a second free is found; slots (`mem.slot`) are the
stack's, and a copy from one takes its static size.
"""

from __future__ import annotations

import ctypes
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from typing import IO

import numpy as np
from xdsl.dialects import cf
from xdsl.dialects.builtin import Float64Type, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects import gpu
from gpuir.dialects.mem import HOST, ArrayType, MemType, PtrType
from gpuir.lowering.host.host_abi import ABI, CALLBACK_PREFIX, ENTRY, runtime_ops
from gpuir.runtime import disk_cache, memory, structs
from gpuir.runtime.memory import ADDRESSES, Allocation, Pointer, size_of
from gpuir.runtime.provider import LoadedModule, Provider, ProviderError, Stream
from gpuir.runtime.scalars import float_dtype, format_value, int_width, wrap
from gpuir.runtime.session import (
    DeviceSession,
    called_function,
    copy_size,
    host_function,
    split_modules,
)

CACHE_SIZE = 32
SLOT = 8
FLOAT_CHARS = {np.float16: "e", np.float32: "f", np.float64: "d"}

# --- compiling -----------------------------------------------------------------------------------


@dataclass
class CompiledHost:
    """The machine code of a host module: an entry per host function, the ops by id, and the
    original functions (for their signatures)."""

    engine: object
    entries: dict[str, Callable[[int, int], int]]
    ops: list[Operation]
    functions: dict[str, FuncOp]
    code: bytes | None = None
    """The object code MCJIT loaded (what a native executable links: `gpuir.runtime.native`)."""
    cached: bool = False
    """Whether the code came from the disk cache (the program was compiled before)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """The shim's jump buffer is one per module: one call at a time."""


EntryFunction = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)

_cache: dict[str, CompiledHost] = {}
_cache_lock = threading.Lock()


def compile_host(program: ModuleOp) -> CompiledHost:
    """The host module of `program` (after the default pipeline) as machine code, cached by the
    program's text with its locations (the code's line table), in this process and on disk
    (`gpuir.runtime.disk_cache`). A lowering error is an `OpError` at the op."""
    text = disk_cache.module_text(program)
    with _cache_lock:
        found = _cache.get(text)
        if found is not None:
            return found
    compiled = _compile(program, text)
    with _cache_lock:
        if len(_cache) >= CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[text] = compiled
    return compiled


def _compile(program: ModuleOp, text: str) -> CompiledHost:
    from llvmlite import binding

    from gpuir.dialects import make_context
    from gpuir.lowering.llvm.native import load_libraries, new_host_machine

    original, _ = split_modules(program)
    functions = {
        op.sym_name.data: op for op in original.ops if isinstance(op, FuncOp) and op.body.blocks
    }
    load_libraries()
    add_jump_symbols()
    key = disk_cache.key("host", text)
    stored = disk_cache.load("host", key)
    engine = None
    code: bytes | None = None
    if stored is not None and stored[0].get("functions") == list(functions):
        with suppress(RuntimeError):
            engine = disk_cache.engine_from_object(stored[1])
            code = stored[1]
    cached = engine is not None
    if cached:
        ops = runtime_ops(original)  # op id i is ops[i], as they were: for diagnostics
        if stored[0].get("prepare_changes") is not False:  # type: ignore[index]
            from gpuir.lowering.host.host_to_llvm import prepare_host

            prepared = original.clone()
            prepare_host(make_context(), prepared)
            ops = runtime_ops(prepared)
    else:
        from gpuir.lowering.host.host_to_llvm import (
            add_runtime_shim,
            host_llvm_ir,
            lower_host,
            prepare_host,
        )
        from gpuir.lowering.llvm.llvm_ir import parse
        from gpuir.lowering.llvm.native import optimize

        ctx = make_context()
        host = original.clone()
        before = str(host)
        prepare_host(ctx, host)
        header = {"functions": list(functions), "prepare_changes": str(host) != before}
        ops = lower_host(ctx, host, prepared=True)  # op id i is ops[i]: for diagnostics
        out = host_llvm_ir(host)
        add_runtime_shim(out, list(functions))
        parsed = optimize(parse(str(out)), 2)
        engine = binding.create_mcjit_compiler(parsed, new_host_machine())
        capture = disk_cache.ObjectCapture()
        engine.set_object_cache(capture.notify)
        engine.finalize_object()
        code = capture.code
        if code is not None:
            disk_cache.store("host", key, header, code)
    for abi in ABI:
        address = engine.get_global_value_address(CALLBACK_PREFIX + abi.name)
        ctypes.c_void_p.from_address(address).value = ctypes.cast(
            CALLBACKS[abi.name], ctypes.c_void_p
        ).value
    entries = {
        name: EntryFunction(engine.get_function_address(f"{ENTRY}_{name}")) for name in functions
    }
    return CompiledHost(engine, entries, ops, functions, code, cached)


@cache
def add_jump_symbols() -> None:
    """libc's `_setjmp` and `longjmp` for MCJIT, by address (its own lookup can miss them)."""
    from llvmlite import binding

    libc = ctypes.CDLL(None)
    for name in ("_setjmp", "longjmp"):
        binding.add_symbol(name, ctypes.cast(getattr(libc, name), ctypes.c_void_p).value)


# --- the ABI's callbacks -------------------------------------------------------------------------

CTYPES = {
    "i64": ctypes.c_int64,
    "i32": ctypes.c_int32,
    "f64": ctypes.c_double,
    "ptr": ctypes.c_void_p,
}
_current = threading.local()


def _callback(name: str, result: str | None, params: Sequence[str]) -> object:
    """The process's one implementation of ABI function `name`: the current run's method."""
    ctypes_params = [CTYPES[p] for p in params]
    if result is not None:
        ctypes_params.append(ctypes.POINTER(CTYPES[result]))
    prototype = ctypes.CFUNCTYPE(ctypes.c_int32, *ctypes_params)

    def call(*args: object) -> int:
        runtime: HostRuntime = _current.runtime
        try:
            if result is None:
                getattr(runtime, name)(*args)
            else:
                args[-1][0] = getattr(runtime, name)(*args[:-1])  # type: ignore[index]
            return 0
        except BaseException as e:  # noqa: BLE001  # C cannot take an exception: unwind
            runtime.error = e
            return 1

    return prototype(call)


CALLBACKS = {abi.name: _callback(abi.name, abi.result, abi.params) for abi in ABI}


# --- the runtime ---------------------------------------------------------------------------------


def _ptr_type(value_type: Attribute) -> PtrType:
    assert isinstance(value_type, PtrType)
    return value_type


class HostRuntime(DeviceSession):
    """The C ABI over a provider, for one call of compiled host code (module docstring). Each
    method is the ABI function of its name, with the same arguments (pointers as ints)."""

    who = "host code"

    def __init__(
        self,
        compiled: CompiledHost,
        device: ModuleOp,
        provider: Provider,
        out: IO[str] | None,
        loaded: LoadedModule | None,
    ):
        super().__init__(device, provider, loaded)
        self.ops = compiled.ops
        self.out = out
        self.error: BaseException | None = None
        self.host: dict[int, Allocation] = {}
        """Host allocations by address, freed ones included (until their address is reused)."""

    def op(self, ident: int) -> Operation | None:
        return self.ops[ident] if 0 <= ident < len(self.ops) else None

    def pointer(self, address: int | None, type_: Attribute) -> Pointer:
        """The pointer of type `type_` (a `!mem.ptr`) at `address`: into the allocation there,
        else (host memory the runtime did not make: a slot) raw memory of the pointee's static
        size, else no allocation (the access check reports it)."""
        pointee = _ptr_type(type_).pointee
        address = address or 0
        allocation, offset = ADDRESSES.resolve(address)
        if allocation is not None:
            return Pointer(allocation, offset, pointee)
        if _ptr_type(type_).space.data == HOST and address:
            if isinstance(pointee, ArrayType) and pointee.is_dynamic:
                return Pointer(None, address, pointee)
            nbytes = size_of(pointee)
            raw = Allocation(HOST, nbytes, pointee, host_visible=False, address=address)
            raw.data = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
            return Pointer(raw, 0, pointee)
        return Pointer(None, address, pointee)

    def write(self, text: str) -> None:
        (self.out or sys.stdout).write(text)

    # sessions and streams

    def gpuirInit(self, op: int) -> None:  # noqa: N802  # the ABI's names
        self.open(self.op(op))  # type: ignore[arg-type]

    def gpuirDeinit(self, op: int) -> None:  # noqa: N802
        self.close(self.op(op))  # type: ignore[arg-type]

    def gpuirStreamCreate(self, op: int) -> int:  # noqa: N802
        return self.provider.create_stream(op=self.op(op)).handle

    def gpuirStreamSynchronize(self, stream: int | None, op: int) -> None:  # noqa: N802
        self.provider.sync_stream(Stream(stream or 0), op=self.op(op))

    def gpuirStreamDestroy(self, stream: int | None, op: int) -> None:  # noqa: N802
        self.provider.destroy_stream(Stream(stream or 0), op=self.op(op))

    # device memory

    def allocation_request(
        self, nbytes: int, ident: int
    ) -> tuple[Operation, Attribute, int | None]:
        """The op of an allocation call, the pointee it allocates, and for a `!mem.array<? x T>`
        its extent (`nbytes` / element size); a negative extent is an error, as in the host
        executor."""
        op = self.op(ident)
        assert op is not None
        pointee = _ptr_type(op.results[-1].type).pointee
        extent = None
        if isinstance(pointee, ArrayType) and pointee.is_dynamic:
            extent = nbytes // max(size_of(pointee.element_type), 1)
            if extent < 0:
                raise ProviderError(
                    op, f"'{op.name}' of a negative extent ({extent})", "invalid value"
                )
        return op, pointee, extent

    def _alloc(self, nbytes: int, stream: Stream | None, ident: int) -> int:
        op, pointee, extent = self.allocation_request(nbytes, ident)
        ptr = self.provider.alloc(nbytes, pointee, extent, stream=stream, op=op)
        return ptr.address

    def gpuirMemAlloc(self, nbytes: int, op: int) -> int:  # noqa: N802
        return self._alloc(nbytes, None, op)

    def gpuirMemAllocAsync(self, nbytes: int, stream: int | None, op: int) -> int:  # noqa: N802
        return self._alloc(nbytes, Stream(stream or 0), op)

    def _free(self, address: int | None, stream: Stream | None, ident: int) -> None:
        op = self.op(ident)
        assert op is not None
        ptr = self.pointer(address, op.operands[1].type)
        self.provider.free(ptr, stream=stream, op=op)

    def gpuirMemFree(self, ptr: int | None, op: int) -> None:  # noqa: N802
        self._free(ptr, None, op)

    def gpuirMemFreeAsync(self, ptr: int | None, stream: int | None, op: int) -> None:  # noqa: N802
        self._free(ptr, Stream(stream or 0), op)

    def _copy(self, dst: int | None, src: int | None, stream: Stream | None, ident: int) -> None:
        op = self.op(ident)
        assert isinstance(op, gpu.CopyOp)
        source = self.pointer(src, op.operands[2].type)
        target = self.pointer(dst, op.operands[3].type)
        to_device = isinstance(op, gpu.CopyToDeviceBlockOp | gpu.CopyToDeviceAsynOp)
        copy = self.provider.copy_to_device if to_device else self.provider.copy_to_host
        copy(target, source, copy_size(source), stream=stream, op=op)

    def gpuirMemcpyHtoD(self, dst: int, src: int, nbytes: int, op: int) -> None:  # noqa: N802
        self._copy(dst, src, None, op)

    def gpuirMemcpyHtoDAsync(self, dst, src, nbytes, stream, op) -> None:  # noqa: N802
        self._copy(dst, src, Stream(stream or 0), op)

    def gpuirMemcpyDtoH(self, dst: int, src: int, nbytes: int, op: int) -> None:  # noqa: N802
        self._copy(dst, src, None, op)

    def gpuirMemcpyDtoHAsync(self, dst, src, nbytes, stream, op) -> None:  # noqa: N802
        self._copy(dst, src, Stream(stream or 0), op)

    # launches

    def gpuirLaunchKernel(  # noqa: N802
        self, name, n_groups, n_items, smem_bytes, stream, slots, count, ident
    ) -> None:
        from gpuir.passes.device_code import launched_name

        op = self.op(ident)
        assert isinstance(op, gpu.LaunchOp)
        if op.smem is not None and smem_bytes < 0:
            assert isinstance(op.smem, ArrayType)
            extent = smem_bytes // max(size_of(op.smem.element_type), 1)
            raise ProviderError(
                op, f"'{op.name}' asks for a negative shared extent ({extent})", "invalid value"
            )
        types = op.args.types
        raw = (ctypes.c_uint64 * max(count, 1)).from_address(slots)
        args = [(self.argument(raw[i], t), t) for i, t in enumerate(types)]
        self.provider.launch(
            self.module_for(op),
            ctypes.string_at(name).decode() if name else launched_name(op.kernel),
            n_groups,
            n_items,
            smem_bytes,
            Stream(stream or 0),
            args,
            op=op,
        )

    def argument(self, slot: int, type_: Attribute) -> object:
        """The run-time value of an argument slot (its low bytes) of type `type_`."""
        if isinstance(type_, PtrType):
            return self.pointer(slot, type_)
        if (width := int_width(type_)) is not None:
            return wrap(slot & ((1 << width) - 1), width)
        if (dtype := float_dtype(type_)) is not None:
            return struct.unpack_from("<" + FLOAT_CHARS[dtype], slot.to_bytes(8, "little"))[0]
        if structs.is_struct(type_):
            shape = structs.layout(type_)
            return self.struct_value(ctypes.string_at(slot, shape.size), 0, type_)
        raise ProviderError(None, f"cannot pass a value of type {type_}", "invalid value")

    def struct_value(self, data: bytes, offset: int, type_: Attribute) -> object:
        shape = structs.layout(type_)
        values = []
        for field_type, at in zip(shape.fields, shape.offsets, strict=True):
            start = offset + at
            if structs.is_struct(field_type):
                values.append(self.struct_value(data, start, field_type))
                continue
            size = structs.layout(field_type).size
            raw = int.from_bytes(data[start : start + size], "little")
            values.append(self.argument(raw, field_type))
        return tuple(values)

    # host memory

    def gpuirHostAlloc(self, nbytes: int, ident: int) -> int:  # noqa: N802
        op, pointee, extent = self.allocation_request(nbytes, ident)
        allocation = Allocation(
            HOST, nbytes, pointee, extent, real_address=True, op=op, what="host allocation"
        )
        self.host[allocation.address] = allocation
        return allocation.address

    def gpuirHostFree(self, address: int | None, ident: int) -> None:  # noqa: N802
        op = self.op(ident)
        assert op is not None
        memory.free(self.pointer(address, op.operands[1].type), op, HOST, self.who)

    # printing

    def gpuirPrintString(self, text: int, length: int, op: int) -> None:  # noqa: N802
        self.write(ctypes.string_at(text, length).decode("utf-8", "replace"))

    def gpuirPrintInt(self, value: int, op: int) -> None:  # noqa: N802
        self.write(str(value))

    def gpuirPrintFloat(self, value: float, bits: int, op: int) -> None:  # noqa: N802
        dtype = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
        self.write(str(dtype(value)))

    def gpuirPrintFloatSpec(self, value: float, conversion: int, op: int) -> None:  # noqa: N802
        self.write(format_value(value, Float64Type(), chr(conversion)))

    def gpuirPrintMemref(self, data: int | None, ident: int) -> None:  # noqa: N802
        from gpuir.runtime.print_memref import pointee_text

        op = self.op(ident)
        assert op is not None
        self.write(pointee_text(self.pointer(data, op.operands[1].type), op, self.who))

    def gpuirAssert(self, condition: int, ident: int) -> None:  # noqa: N802
        if condition:
            return
        op = self.op(ident)
        assert isinstance(op, cf.AssertOp)
        message = f"assertion failed in {self.who}: {op.msg.data}"
        raise ProviderError(op, message, "assertion failed")  # as interp's cf.assert


# --- the executor --------------------------------------------------------------------------------


class CompiledHostExecutor:
    """Runs host functions of a program as machine code against a provider; the interface of
    `gpuir.runtime.host.HostExecutor` (`functions`, `function`, `run_main`)."""

    compiled = True

    def __init__(
        self,
        module: ModuleOp,
        provider: Provider,
        out: IO[str] | None = None,
        loaded: LoadedModule | None = None,
        program: CompiledHost | None = None,
    ):
        """`program`: the machine code of `module`'s host, when the caller has it already (a
        `gpuir.Program` keeps it, so that its calls do not print the module for the cache)."""
        self.program = program if program is not None else compile_host(module)
        _, self.device = split_modules(module)
        self.provider = provider
        self.out = out
        self.loaded = loaded
        self.functions = self.program.functions

    def function(self, name: str = "main") -> FuncOp:
        return host_function(self.functions, name)

    def run_main(
        self, scalars: Sequence[object], name: str = "main"
    ) -> list[tuple[object, Attribute]]:
        """Call `name` with `scalars` for its non-token parameters; its non-token results as
        `(value, type)`."""
        func, expected = called_function(self.functions, name, scalars)
        outputs = [t for t in func.function_type.outputs.data if not isinstance(t, MemType)]
        args = (ctypes.c_uint64 * max(len(expected), 1))()
        for i, (value, type_) in enumerate(zip(scalars, expected, strict=True)):
            args[i] = to_slot(value, type_)
        results = (ctypes.c_uint64 * max(len(outputs), 1))()
        runtime = HostRuntime(self.program, self.device, self.provider, self.out, self.loaded)
        previous = getattr(_current, "runtime", None)
        with self.program.lock:
            _current.runtime = runtime
            try:
                status = self.program.entries[name](
                    ctypes.addressof(args), ctypes.addressof(results)
                )
            finally:
                _current.runtime = previous
                runtime.finish()
        if status != 0:
            assert runtime.error is not None
            raise runtime.error
        return [(from_slot(results[i], t), t) for i, t in enumerate(outputs)]


def to_slot(value: object, type_: Attribute) -> int:
    """A scalar as the 8-byte slot that holds it in its low bytes."""
    if (width := int_width(type_)) is not None:
        assert isinstance(value, int)
        return value & ((1 << min(width, 64)) - 1)
    dtype = float_dtype(type_)
    assert dtype is not None
    data = struct.pack("<" + FLOAT_CHARS[dtype], dtype(value))  # type: ignore[arg-type]
    return int.from_bytes(data, "little")


def from_slot(slot: int, type_: Attribute) -> object:
    """The scalar of type `type_` in a slot's low bytes."""
    if (width := int_width(type_)) is not None:
        return wrap(slot & ((1 << width) - 1), width)
    dtype = float_dtype(type_)
    assert dtype is not None
    size = np.dtype(dtype).itemsize
    return np.frombuffer(slot.to_bytes(8, "little")[:size], dtype)[0]
