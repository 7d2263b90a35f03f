"""`CpuProvider`: the cpu provider's session, memory and launches (docs/cpu-provider.md)."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import nullcontext, suppress
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import IO

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.gpu import WARP
from gpuir.dialects.gpu.mma import MMA_OPS
from gpuir.runtime import ProviderUnavailable, device_print, memory
from gpuir.runtime.cpu import check as checker_lib
from gpuir.runtime.cpu import faults, pool
from gpuir.runtime.cpu.arena import ALIGNMENT, aligned_bytes, device_bytes, release_device_bytes
from gpuir.runtime.cpu.compiled import (
    MAX_ITEMS,
    CompiledKernel,
    CompiledModule,
    EntryFunction,
    compile_module,
)
from gpuir.runtime.cpu.errors import fault_error, pool_error, read_stops
from gpuir.runtime.cpu.streams import Streams
from gpuir.runtime.eager import EagerHostProvider
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import (
    Launch,
    LoadedModule,
    ProviderError,
    Stream,
    check_launch,
)

PARALLEL_GROUPS = 2
"""A launch of fewer work-groups than this runs on the calling thread (a group's work is not
known before it runs, so any launch of several groups may be worth the threads)."""
CHUNKS_PER_WORKER = 4

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


STREAMING_ENV = "GPUIR_CPU_STREAMING"
"""Environment variable: `0` turns streaming stores off, `1` streams every launch that can."""
LLC_FALLBACK = 32 << 20
"""Bytes of last-level cache where sysfs does not say."""


def streaming_threshold() -> int | None:
    """The bytes of write-only outputs from which a launch takes its kernel's stream entry
    (non-temporal stores: docs/cpu-provider.md): half the last-level cache (an output that
    large would push the launch's inputs, and itself, out of it anyway); 0 with
    `$GPUIR_CPU_STREAMING=1`, None (never) with `0`."""
    setting = os.environ.get(STREAMING_ENV, "").strip()
    if setting not in ("", "0", "1"):
        raise ValueError(f"${STREAMING_ENV} must be 0 or 1, found {setting!r}")
    if setting:
        return None if setting == "0" else 0
    return last_level_cache() // 2


@cache
def last_level_cache() -> int:
    """Bytes of this machine's last-level cache: the largest of cpu0's caches in sysfs."""
    sizes = []
    for path in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        with suppress(OSError, ValueError):
            text = path.read_text().strip()
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
            sizes.append(int(text.rstrip("KMG")) * scale)
    return max(sizes, default=LLC_FALLBACK)


# --- the provider --------------------------------------------------------------------------------


class CpuProvider(EagerHostProvider):
    """The compiled CPU provider (docs/cpu-provider.md)."""

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
        checked (`--check`, "Checked launches" in docs/cpu-provider.md)."""
        super().__init__()
        self.out = out
        self.check = check
        self.checker: checker_lib.Checker | None = None
        if check:
            self.checker = checker_lib.checker()
            if self.checker is None:
                raise ProviderUnavailable(checker_lib.unavailable())
            if faults.install() is None:
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
            self.streaming = streaming_threshold()
        except ValueError as e:
            raise ProviderUnavailable(f"cpu: {e}") from None
        self.local = threading.local()
        self.pool_shared: tuple[int, list[int]] = (-1, [])
        """The size and addresses of the shared-memory buffers of the pool's threads."""
        self.shared_blocks: dict[int, np.ndarray] = {}
        """The threads' shared-memory buffers (address and view: numpy bytes live as long as
        their view), given back at `close`."""
        self.shared_lock = threading.Lock()
        self.stream_threads = Streams()
        """The threads of the streams with work (`gpuir.runtime.cpu.streams`)."""

    # session

    def close(self, *, op: Operation | None = None) -> None:
        self.check_open(op)
        try:
            self.stream_threads.end_all()
        finally:
            self._close(op)

    def _close(self, op: Operation | None) -> None:
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
        allocation = Allocation.device(nbytes, pointee, extent, address, op, what)
        allocation.data = data
        if self.checker is not None:
            self.checker.alloc(address, nbytes)
        return allocation

    # streams

    def ordered(self, stream: Stream | None, work: Callable[[], None]) -> None:
        """Run `work` in `stream`'s order: queued on the stream's thread, or (the default
        stream, a blocking call) here, after every stream's work. With `--check` every stream
        runs here, in the order of the calls (the checker follows one launch at a time)."""
        if stream is not None and stream.handle != 0 and self.checker is None:
            self.stream_threads.submit(stream.handle, work)
            return
        if self.stream_threads.threads:
            self.stream_threads.wait_all()
        work()

    def sync_stream(self, stream, *, op=None) -> None:
        super().sync_stream(stream, op=op)
        if stream.handle == 0:
            self.stream_threads.wait_all()
        else:
            self.stream_threads.wait(stream.handle)

    def destroy_stream(self, stream, *, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        if stream.handle != 0:
            self.stream_threads.end(stream.handle)
        super().destroy_stream(stream, op=op)

    def synchronize(self, *, op=None) -> None:
        super().synchronize(op=op)
        self.stream_threads.wait_all()

    def abandon_streams(self) -> None:
        self.stream_threads.abandon()

    def copy_to_device(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        copy = super().copy_to_device
        self.ordered(stream, lambda: copy(dst, src, nbytes, stream=stream, op=op))

    def copy_to_host(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        copy = super().copy_to_host
        self.ordered(stream, lambda: copy(dst, src, nbytes, stream=stream, op=op))

    # memory

    def free(self, ptr, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        self.ordered(stream, lambda: self._free(ptr, stream, op))

    def _free(self, ptr: Pointer, stream: Stream | None, op: Operation | None) -> None:
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
        compiled = compile_module(module, self.index_bitwidth, self.check)
        compiled.whole_warps = any(isinstance(o, MMA_OPS) for o in module.walk())
        return LoadedModule.of(module, compiled)

    def launch(
        self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None
    ) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        on_stream = stream.handle != 0 and self.checker is None
        launch = Launch(module, kernel, n_groups, n_items, smem_bytes, args, op)
        self.ordered(stream, lambda: self._launch(launch, on_stream))

    def _launch(self, launch: Launch, on_stream: bool = False) -> None:
        """A launch, here. `on_stream`: on a stream's thread, where another stream's launch of
        the same kernel may be running (maybe waiting for this one): the arguments go to a
        buffer of the launch's own, and the groups run here while the pool is busy."""
        kernel, args, op = launch.kernel, launch.args, launch.op
        n_groups, n_items, smem_bytes = launch.n_groups, launch.n_items, launch.smem_bytes
        module = launch.module.module
        compiled = launch.module.payload
        if not isinstance(compiled, CompiledModule):
            raise ProviderError(op, "cpu: the module was not loaded by cpu", "invalid handle")
        if compiled.whole_warps and n_items % WARP:  # see CompiledModule.whole_warps
            check_launch(self.name, launch)
            self._replay(launch)
            return
        code = compiled.kernel(kernel, op) if kernel in compiled.kernels else None
        if code is None or not code.accepts(n_groups, n_items, args):
            check_launch(self.name, launch)
            code = compiled.kernel(kernel, op)
        prints = compiled.prints
        if self.checker is not None:
            with code.lock, prints.lock if prints is not None else nullcontext():
                self._checked_launch(launch, code)
            return
        if prints is not None:  # in order, one group after another, with the module's buffer
            with prints.lock, code.lock:
                code.fill(args, op)
                prints.start()
                try:
                    self._run(code, n_groups, n_items, smem_bytes, code.argv, op, module, True)
                finally:
                    self.print_output(prints.finish(), kernel, op)
            return
        if on_stream:
            with code.lock:
                code.fill(args, op)
                own = own_arguments(code)
            argv = ctypes.addressof(own[0])
            self._run(code, n_groups, n_items, smem_bytes, argv, op, module, own=True)
            return
        with code.lock:  # the kernel's argument buffer, filled in place
            code.fill(args, op)
            self._run(code, n_groups, n_items, smem_bytes, code.argv, op, module)

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
        guard = faults.install()
        if (
            self.checker is not None
            or not isinstance(compiled, CompiledModule)
            or compiled.prints is not None
            or compiled.whole_warps
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
        block = (ctypes.c_uint64 * 8)()  # the call's arguments (`faults.CALL_BLOCK`)
        owner: list = [None, None, 0]
        """The thread whose fault context and shared-memory buffer the block holds (a buffer
        stays valid until `close`), that context and that buffer: a launch from the same
        thread as the last one writes only the grid into the block."""
        size = static + smem_bytes
        parallel = PARALLEL_GROUPS if self.workers > 1 else None
        threads = pool.pool(self.workers)
        entry_for = code.entry_for if code.stream_address else None
        streaming = self.streaming
        get_ident = threading.get_ident
        stream_work = self.stream_threads.threads
        acquire, release = lock.acquire, lock.release

        def launch(n_groups: int, n_items: int, args: Sequence[object]) -> bool:
            if n_groups.__class__ is not int or n_items.__class__ is not int:
                n_groups, n_items = int(n_groups), int(n_items)
            if not self.is_open or n_groups < 1 or not 1 <= n_items <= MAX_ITEMS:
                return False
            if stream_work:  # streams still at work: the usual way waits for them
                return False
            if len(args) != count:
                return False
            if not acquire(False):
                return False  # another thread's launch: the usual way waits for it
            try:
                fill(args)
                entry = address if entry_for is None else entry_for(n_groups, n_items, streaming)
                if parallel is not None and n_groups >= parallel:
                    if threads is None or not threads.alive:
                        self._run(code, n_groups, n_items, smem_bytes, argv, None, source)
                        return True
                    self._run_on_pool(
                        threads, code, entry, n_groups, n_items, size, argv, source, None
                    )
                    return True
                thread = get_ident()
                if owner[0] != thread:
                    shared, ctx = self.shared_buffer(size), faults.context()
                    faults.CALL_BLOCK.pack_into(
                        block, 0, address, 0, 0, 0, shared, shared + static, argv, ctx.address
                    )
                    owner[0], owner[1], owner[2] = thread, ctx, shared
                block[0], block[2], block[3] = entry, n_groups, n_items
                if call(block):
                    fault = faults.fault_of(owner[1].array)
                    stops = read_stops(fault, code, owner[2], n_items)
                    raise fault_error(stops, code, source, None)
            finally:
                release()
            return True

        return launch

    def _checked_launch(self, launch: Launch, code: CompiledKernel) -> None:
        """A launch with `--check`: the groups in order on this thread, each access checked;
        a suspect access (or a fault, or a barrier divergence) stops it, and `interp` runs it
        again from the device memory it started with (docs/cpu-provider.md)."""
        checker, guard = self.checker, faults.install()
        assert checker is not None and guard is not None
        from llvmlite import binding

        n_items, smem_bytes, op = launch.n_items, launch.smem_bytes, launch.op
        try:
            code.fill(launch.args, op)
        except ProviderError as e:
            if e.name != "use after free":
                raise
            # a freed buffer is an error where a work-item touches it, as interp says
            self._replay(launch)
            return
        prints = launch.module.payload.prints  # type: ignore[union-attr]
        static = code.shared_bytes
        shared = self.shared_buffer(static + smem_bytes)
        checker.begin(n_items, binding.address_of_symbol(faults.DIVERGENCE_SYMBOL))
        checker.shared(shared, static + smem_bytes)
        # the dynamic shared memory is an allocation; each static shared array makes itself
        # one when the kernel makes it (`__gpuir_check_slot`)
        if smem_bytes:
            checker.alloc(shared + static, smem_bytes)
        if prints is not None:
            prints.start()
        try:
            fault = faults.run_guarded(
                guard, code.address, 0, launch.n_groups, n_items, shared, shared + static, code.argv
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
        self._replay(launch)

    def _replay(self, launch: Launch) -> None:
        """Run the launch under `interp`, on this provider's memory: its first bad access
        is the launch's error, in interp's words; without one, its results are the launch's."""
        from gpuir.runtime.interp import interp_module, run_launch

        self.replayed += 1
        module = launch.module
        loaded = self.replays.get(id(module))
        if loaded is None:
            loaded = replace(module, payload=interp_module(module.module))
            self.replays[id(module)] = loaded
        run_launch(self, replace(launch, module=loaded))

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
        own: bool = False,
    ) -> None:
        """Run the groups: here when the launch is small (or `in_order`: one after another;
        or `own`, a stream's launch, while the pool runs another), else in chunks on the pool.
        `argv` (the address of the argument slots) stays valid until the chunks are done.
        Each chunk runs under the fault guard (`faults`); the fault of the lowest work-group
        is the launch's error."""
        static = code.shared_bytes
        shared_size = static + smem_bytes
        guard = faults.install()
        faulted: list[faults.Fault] = []
        address = code.entry_for(n_groups, n_items, self.streaming)

        def run_chunk(first: int, end: int) -> None:
            shared = self.shared_buffer(shared_size)
            if guard is None:
                entry = code.entry if address == code.address else EntryFunction(address)
                entry(first, end, n_items, shared, shared + static, argv, self.progress())
                return
            fault = faults.run_guarded(
                guard, address, first, end, n_items, shared, shared + static, argv
            )
            if fault is not None:
                faulted.append(read_stops(fault, code, shared, n_items))

        threads = None
        if self.workers > 1 and n_groups >= PARALLEL_GROUPS and not in_order:
            threads = pool.pool(self.workers)
        if threads is None or not threads.alive:
            run_chunk(0, n_groups)
        elif not self._run_on_pool(
            threads, code, address, n_groups, n_items, shared_size, argv, source, op, own
        ):
            run_chunk(0, n_groups)
        if faulted:
            raise fault_error(min(faulted, key=lambda f: f.group), code, source, op)

    def progress(self) -> int:
        """This thread's slot for a launch entry's group number, where faults are not caught."""
        local = self.local
        if not hasattr(local, "progress"):
            local.progress = ctypes.c_int64()
        return ctypes.addressof(local.progress)

    def _run_on_pool(
        self,
        threads: pool.Pool,
        code: CompiledKernel,
        address: int,
        n_groups: int,
        n_items: int,
        shared_size: int,
        argv: int,
        source: ModuleOp | None,
        op: Operation | None,
        unless_busy: bool = False,
    ) -> bool:
        """The groups in chunks on the native threads (`CHUNKS_PER_WORKER` per thread), each
        thread with its shared-memory buffer, calling the entry at `address` (the kernel's or
        its stream entry); the fault of the lowest group is the error. False (nothing run)
        where `unless_busy` and the pool runs another launch."""
        chunks = min(n_groups, threads.workers * CHUNKS_PER_WORKER)
        if not unless_busy:
            shared = self.pool_buffers(shared_size, threads.workers)
            found = threads.run(address, n_groups, n_items, code.shared_bytes, argv, chunks, shared)
        elif threads.lock.acquire(blocking=False):
            try:  # the pool's buffers change only while it runs nothing
                shared = self.pool_buffers(shared_size, threads.workers)
                found = threads.run(
                    address, n_groups, n_items, code.shared_bytes, argv, chunks, shared, True
                )
            finally:
                threads.lock.release()
        else:
            return False
        if found:
            raise pool_error(found, code, shared, n_items, source, op)
        return True

    def pool_buffers(self, nbytes: int, workers: int) -> list[int]:
        """The addresses of the shared-memory buffers of the pool's `workers` threads
        (`pool`), each of at least `nbytes` bytes (as `shared_buffer`): the same list as
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


def own_arguments(code: CompiledKernel) -> list:
    """A copy of `code`'s filled argument buffer (its first item) and of its struct
    arguments' bytes (which the copy's slots point to), kept alive by the list."""
    slots = type(code.slots)()
    ctypes.memmove(slots, code.slots, ctypes.sizeof(slots))
    kept: list = [slots]
    for i, (kind, data) in enumerate(code.writers):
        if kind == "struct":
            copy = aligned_bytes(data.nbytes)  # type: ignore[union-attr]
            copy[:] = data
            slots[i] = copy.ctypes.data
            kept.append(copy)
    return kept
