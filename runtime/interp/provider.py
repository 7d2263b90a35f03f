"""The `interp` provider (`InterpProvider`) and its launches: `KernelRun` runs a launch's groups
one after another, and `run_launch` runs one under interp's semantics on any eager provider's
memory (the cpu provider's checked launches use it too)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.mem import GLOBAL, SHARED, ArrayType, PtrType
from gpuir.dialects.traits import waits
from gpuir.runtime import memory
from gpuir.runtime.eager import EagerHostProvider
from gpuir.runtime.engine import make_machine
from gpuir.runtime.engine.token_order import entry_tokens
from gpuir.runtime.interp.items import DEVICE_FUNCTIONS, GroupState, ItemMachine
from gpuir.runtime.interp.races import RaceTracker
from gpuir.runtime.interp.scheduler import GroupScheduler, OutOfStacks
from gpuir.runtime.interp.streams import StreamOrder, StreamTasks
from gpuir.runtime.memory import Allocation, Pointer, size_of
from gpuir.runtime.provider import (
    Launch,
    LoadedModule,
    ProviderError,
    Stream,
    check_launch,
)


def uses_barriers(kernel: FuncOp, functions: dict[str, FuncOp]) -> bool:
    """Whether the kernel or a function it calls (transitively) has a barrier or collective."""
    seen: set[str] = set()
    worklist = [kernel]
    while worklist:
        func = worklist.pop()
        for op in func.walk():
            if waits(op):
                return True
            if isinstance(op, CallOp):
                name = op.callee.root_reference.data
                if name not in seen and name in functions:
                    seen.add(name)
                    worklist.append(functions[name])
    return False


@dataclass
class InterpModule:
    """What `interp` keeps of a loaded device module."""

    prototype: ItemMachine
    barriers: dict[str, bool] = field(default_factory=dict[str, bool])


class KernelRun:
    """One launch: its groups, one after another. `provider` gives the device heap
    (`new_allocation`) and the output of `printf` (`output()`)."""

    def __init__(
        self,
        provider: EagerHostProvider,
        loaded: LoadedModule,
        kernel: FuncOp,
        n_groups: int,
        n_items: int,
        smem: tuple[Attribute, int] | None,
        args: Sequence[object],
    ):
        self.provider = provider
        self.loaded = loaded
        self.kernel = kernel
        self.n_groups = n_groups
        self.n_items = n_items
        self.smem = smem
        self.args = tuple(args)
        self.races = RaceTracker()
        self.launched_by = provider.launched_by
        self.streams: StreamOrder | None = getattr(provider, "stream_order", None)
        tasks: StreamTasks | None = getattr(provider, "tasks", None)
        self.task = tasks.current if tasks is not None else None
        """The stream's pending work this launch is (`streams.StreamTask`), if any."""
        self.watched = (
            self.launched_by is not None or self.streams is not None or self.task is not None
        )
        """Whether an access of global memory goes to a host-side check (`ItemMachine._order`)."""
        self.out = provider.output()
        payload = loaded.payload
        assert isinstance(payload, InterpModule)
        self.prototype = payload.prototype
        name = kernel.sym_name.data
        if name not in payload.barriers:
            payload.barriers[name] = uses_barriers(kernel, dict(loaded.functions))
        self.threaded = payload.barriers[name]

    def run(self) -> None:
        """The groups in order, with the collector's first generation raised for the launch
        (the race records are many small objects that live until its end: collecting them
        every 700 allocations spent a quarter of the run), and numpy's float errors silent
        (float ops round to their type: an overflow is no warning)."""
        threshold = gc.get_threshold()
        gc.set_threshold(max(threshold[0], GC_THRESHOLD), *threshold[1:])
        try:
            with np.errstate(all="ignore"):
                self._groups()
        finally:
            gc.set_threshold(*threshold)

    def _groups(self) -> None:
        for group_id in range(self.n_groups):
            group = GroupState(group_id)
            if self.smem is not None:
                pointee, nbytes = self.smem
                extent = _extent(pointee, nbytes)
                what = f"dynamic shared memory of group {group_id}"
                allocation = Allocation(SHARED, nbytes, pointee, extent, what=what)
                group.dynamic_smem = Pointer(allocation, 0, pointee)
            try:
                self.run_group(group)
            finally:
                for allocation in group.allocations():
                    allocation.mark_freed(None)
            self.races.end_group()

    def run_group(self, group: GroupState) -> None:
        if not self.threaded:  # one item after another, to completion: one machine will do
            machine = self.new_machine()
            for item_id in range(self.n_items):
                machine.start(self, group, item_id)
                self.run_item(machine)
            return
        machines = []
        for item_id in range(self.n_items):
            machine = self.new_machine()
            machine.start(self, group, item_id)
            machines.append(machine)
        GroupScheduler(self, group, machines).run_group()

    def new_machine(self) -> ItemMachine:
        machine = make_machine(ItemMachine, self.loaded.module, DEVICE_FUNCTIONS, self.prototype)
        assert isinstance(machine, ItemMachine)
        return machine

    def run_item(self, machine: ItemMachine) -> None:
        smem = () if machine.group.dynamic_smem is None else (machine.group.dynamic_smem,)
        ids = (machine.group_id, machine.item_id)
        tokens = entry_tokens(machine, self.kernel.function_type.inputs.data[:4])
        machine.call(self.kernel, (*tokens, *ids, *smem, *self.args))


GC_THRESHOLD = 20_000


def _extent(pointee: Attribute, nbytes: int) -> int | None:
    if isinstance(pointee, ArrayType) and pointee.is_dynamic:
        return nbytes // max(size_of(pointee.element_type), 1)
    return None


# --- the provider ----------------------------------------------------------------------------


class InterpProvider(EagerHostProvider):
    """The reference provider (docs/interp.md). `out` receives the output of kernels'
    `printf` (default: `sys.stdout` at the time of the launch)."""

    name = "interp"

    def __init__(self, out: IO[str] | None = None) -> None:
        super().__init__()
        self.out = out
        self.stream_order: StreamOrder | None = None
        """The stream-order check (`streams`), from the session's first stream on."""
        self.tasks = StreamTasks(lambda: self.stream_order)
        """The streams' pending work (`streams.StreamTasks`)."""

    def output(self) -> IO[str]:
        return self.out if self.out is not None else sys.stdout

    def _make_allocation(
        self, nbytes: int, pointee: Attribute, extent: int | None, op: Operation | None, what: str
    ) -> Allocation:
        return Allocation(GLOBAL, nbytes, pointee, extent, op=op, what=what)

    def _transfer(self, dst: Pointer, src: Pointer, nbytes: int, op: Operation | None) -> None:
        memory.write_bytes(dst, memory.read_bytes(src, nbytes, op), op)

    # the stream-order check: each op on a stream (or blocking) is an agent's step

    def _on(self, stream: Stream | None, op: Operation | None) -> StreamOrder | None:
        """The check, with `op` begun on `stream` (None: blocking); None before it starts."""
        if self.stream_order is None and stream is not None and stream.handle != 0:
            self.stream_order = StreamOrder()
        if self.stream_order is not None and op is not None:
            self.stream_order.begin(stream, op)
            return self.stream_order
        return None

    def ordered(
        self, stream: Stream | None, op: Operation | None, work: Callable[[], None]
    ) -> None:
        """Run `work` in `stream`'s order, its stream-order check begun now: on a stream with
        pending work, after it (`streams.StreamTasks`); on the default stream or blocking,
        after every stream's pending work."""
        order = self._on(stream, op)
        if stream is not None and stream.handle != 0:
            self.tasks.submit(stream.handle, work, op, order.current if order else None)
            return
        if self.tasks.queues:
            self.tasks.drive()
            if order is not None and op is not None:
                order.begin(stream, op)  # after the streams' work, which moved the clocks
        work()

    def open(self, *, op=None) -> None:
        super().open(op=op)
        self.stream_order = None

    def close(self, *, op=None) -> None:
        self.check_open(op)
        try:
            self.tasks.drive()
        finally:
            self.tasks.queues = {}
            super().close(op=op)

    def create_stream(self, *, op=None) -> Stream:
        stream = super().create_stream(op=op)
        self.stream_order = self.stream_order or StreamOrder()
        return stream

    def alloc(self, nbytes, pointee, extent=None, *, stream=None, op=None) -> Pointer:
        if stream is not None and self.stream_order is None:
            self.stream_order = StreamOrder()
        return super().alloc(nbytes, pointee, extent, stream=stream, op=op)

    def free(self, ptr, *, stream=None, op=None) -> None:
        free = super().free

        def work() -> None:
            free(ptr, stream=stream, op=op)
            if self.stream_order is not None and op is not None:
                self.stream_order.free(ptr)

        self.ordered(stream, op, work)

    def copy_to_device(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        copy = super().copy_to_device
        self.ordered(stream, op, lambda: self._copy_checked(copy, dst, src, nbytes, stream, op))

    def copy_to_host(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        copy = super().copy_to_host
        self.ordered(stream, op, lambda: self._copy_checked(copy, dst, src, nbytes, stream, op))

    def _copy_checked(self, copy, dst: Pointer, src: Pointer, nbytes: int, stream, op) -> None:
        copy(dst, src, nbytes, stream=stream, op=op)
        order = self.stream_order
        if order is not None and op is not None:
            order.access(src, nbytes, False)
            order.access(dst, nbytes, True)

    def sync_stream(self, stream, *, op=None) -> None:
        super().sync_stream(stream, op=op)
        self.tasks.drive(stream.handle if stream.handle != 0 else None)
        if self.stream_order is not None:
            self.stream_order.wait(stream)

    def destroy_stream(self, stream, *, op=None) -> None:
        if stream.handle != 0:
            self.check_open(op)
            self.check_stream(stream, op)
            self.tasks.drive(stream.handle)
        super().destroy_stream(stream, op=op)
        if self.stream_order is not None:
            self.stream_order.wait(stream)

    def abandon_streams(self) -> None:
        self.tasks.queues = {}

    def synchronize(self, *, op=None) -> None:
        super().synchronize(op=op)
        self.tasks.drive()
        if self.stream_order is not None:
            self.stream_order.wait_all()

    def load_module(self, module: ModuleOp, *, op=None) -> LoadedModule:
        self.check_open(op)
        return LoadedModule.of(module, interp_module(module))

    def launch(
        self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None
    ) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        if not isinstance(module.payload, InterpModule):
            raise ProviderError(op, "interp: the module was not loaded by interp", "invalid handle")
        launch = Launch(module, kernel, n_groups, n_items, smem_bytes, args, op)
        self.ordered(stream, op, lambda: run_launch(self, launch))


def interp_module(module: ModuleOp) -> InterpModule:
    """What interp keeps of a device module to run its kernels."""
    prototype = make_machine(ItemMachine, module, DEVICE_FUNCTIONS)
    assert isinstance(prototype, ItemMachine)
    return InterpModule(prototype)


def run_launch(provider: EagerHostProvider, launch: Launch) -> None:
    """Run `launch` (of a module loaded as interp loads it) under interp's semantics, on
    `provider`'s memory (its device heap and output: interp's, or the cpu provider's when it
    runs a checked launch again)."""
    func, takes_smem = check_launch("interp", launch)
    smem = None
    if takes_smem:
        param = func.function_type.inputs.data[6]
        assert isinstance(param, PtrType)
        smem = (param.pointee, launch.smem_bytes)
    values = [value for value, _ in launch.args]
    try:
        KernelRun(
            provider, launch.module, func, launch.n_groups, launch.n_items, smem, values
        ).run()
    except OutOfStacks as e:
        raise ProviderError(launch.op, str(e), "out of memory") from e
