"""interp's work-items: `ItemMachine` (one work-item on the engine: checked memory, races,
token order, barriers), the state its group shares (`GroupState`), and the `gpu` ops device
code runs (`GpuDeviceFunctions`, `DEVICE_FUNCTIONS`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.interpreter import (
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from gpuir.dialects import gpu
from gpuir.dialects.mem import CONST, GLOBAL, HOST, LOCAL, SHARED
from gpuir.runtime import memory
from gpuir.runtime.engine import STANDARD_FUNCTIONS, Machine
from gpuir.runtime.engine.token_order import TokenOrder, region_tokens
from gpuir.runtime.interp.mma import MmaFunctions
from gpuir.runtime.memory import Allocation, Pointer, space_name, store_size
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import TOKEN, float_dtype, int_width, signed

if TYPE_CHECKING:
    from gpuir.runtime.interp.provider import KernelRun
    from gpuir.runtime.interp.scheduler import ItemCoroutine


def item_name(group: int, item: int) -> str:
    return f"work-item (group {group}, item {item})"


@dataclass
class GroupState:
    """What the work-items of one group share."""

    group_id: int
    epoch: int = 0
    shared_slots: dict[Operation, Allocation] = field(default_factory=dict[Operation, Allocation])
    dynamic_smem: Pointer | None = None

    def allocations(self) -> list[Allocation]:
        found = list(self.shared_slots.values())
        if self.dynamic_smem is not None and self.dynamic_smem.allocation is not None:
            found.append(self.dynamic_smem.allocation)
        return found


TRACKED = frozenset((GLOBAL, SHARED))
"""The spaces whose accesses the race tracker sees."""

Scalar = tuple[Attribute, np.dtype | None, Callable[[Any], object]]
_SCALARS: dict[int, Scalar] = {}
"""id of a pointee type → (the type, the dtype of its bytes, their value), for the scalars a
typed view of an allocation reads directly (dtype None: any other type)."""


def _scalar(pointee: Attribute) -> Scalar:
    found = _SCALARS.get(id(pointee))
    if found is not None and found[0] is pointee:
        return found
    width = int_width(pointee)
    if (dtype := float_dtype(pointee)) is not None:
        found = (pointee, np.dtype(dtype).newbyteorder("<"), lambda v: v)
    elif width in (8, 16, 32, 64):
        found = (pointee, np.dtype(f"<i{width // 8}"), int)
    elif width == 1:
        found = (pointee, np.dtype(np.uint8), lambda v: int(v) & 1)
    else:
        found = (pointee, None, int)
    _SCALARS[id(pointee)] = found
    return found


def _view(allocation: Allocation, data: np.ndarray, dtype: np.dtype) -> tuple | None:
    """`data` (the allocation's bytes) viewed as `dtype`, kept in the allocation; None when its
    address is not aligned to the type."""
    nbytes = dtype.itemsize
    if data.ctypes.data % nbytes:
        return None
    entry = allocation.views[dtype] = (data, data[: len(data) // nbytes * nbytes].view(dtype))
    return entry


class ItemMachine(Machine):
    """One work-item: the interpreter state of one thread of a kernel."""

    quiet_floats = True  # KernelRun.run and ItemCoroutine._main run every item under np.errstate

    def start(self, run: KernelRun, group: GroupState, item_id: int) -> None:
        self.run = run
        self.group = group
        self.group_id = group.group_id
        self.item_id = item_id
        self.who = item_name(group.group_id, item_id)
        self.out = run.out
        self.coroutine: ItemCoroutine | None = None
        if self.order is not None:
            self.order = TokenOrder()  # each work-item's own accesses

    # memory
    def _tracked(self, space: int) -> bool:
        return space in (GLOBAL, SHARED)

    def _check_space(self, op: Operation, ptr: Pointer, verb: str) -> None:
        space = ptr.space
        if space == HOST:
            raise ProviderError(
                op,
                f"{self.who} {verb} host memory, which device code cannot access",
                "invalid address space",
            )

    def _order(
        self, op: Operation, ptr: Pointer, nbytes: int, write: bool, data: bytes | None = None
    ) -> None:
        """The token-order check of an access: against this work-item's own accesses, and
        of global memory as the launch's against the host code's (`token_order`); the
        stream-order check of global memory (`streams`); and, in a launch on a stream, whether
        the work-item spins (`StreamTask.access`; `data`: what a store writes)."""
        if self.order is not None:
            self.order.access(self, op, ptr, nbytes, write)
        launched_by = self.run.launched_by
        if launched_by is not None and ptr.space == GLOBAL:
            host, launch = launched_by
            host.order.access(host, launch, ptr, nbytes, write, (op, self.who))
        streams = self.run.streams
        if streams is not None and ptr.space == GLOBAL:
            streams.access(ptr, nbytes, write, (op, self.who))
        task = self.run.task
        if task is not None and ptr.space == GLOBAL:
            task.access(op, self.who, ptr, nbytes, data)

    def load(self, op: Operation, ptr: Pointer) -> object:
        allocation = ptr.allocation
        if allocation is not None and not allocation.freed and allocation.space != HOST:
            # the common case first: an aligned scalar within a live allocation, read through
            # a typed view of its bytes
            data, (_, dtype, as_value) = allocation.data, _scalar(ptr.pointee)
            if data is not None and dtype is not None:
                nbytes, offset = dtype.itemsize, ptr.offset
                if 0 <= offset and offset + nbytes <= allocation.nbytes and not offset % nbytes:
                    entry = allocation.views.get(dtype)
                    if entry is None or entry[0] is not data:
                        entry = _view(allocation, data, dtype)
                    if entry is not None:
                        if allocation.space in TRACKED:
                            self.run.races.read(self, op, allocation, offset, nbytes)
                        if self.order is not None or self.run.watched:
                            self._order(op, ptr, nbytes, False)
                        return as_value(entry[1][offset // nbytes])
        self._check_space(op, ptr, "loads from")
        nbytes = store_size(ptr.pointee)
        allocation, offset = memory.check_access(
            ptr, nbytes, op, f"loads {nbytes} bytes from", self.who
        )
        if self._tracked(allocation.space):
            self.run.races.read(self, op, allocation, offset, nbytes)
        if self.order is not None or self.run.watched:
            self._order(op, ptr, nbytes, False)
        return memory.decode(
            memory.host_bytes(allocation, op)[offset : offset + nbytes], ptr.pointee
        )

    def store(self, op: Operation, ptr: Pointer, value: object) -> None:
        self._check_space(op, ptr, "stores to")
        data = memory.encode(value, ptr.pointee)
        allocation, offset = memory.check_access(
            ptr, len(data), op, f"stores {len(data)} bytes to", self.who
        )
        if allocation.space == CONST:
            raise ProviderError(op, f"{self.who} stores to const memory", "read-only memory")
        if self._tracked(allocation.space):
            self.run.races.write(self, op, allocation, offset, data)
        if self.order is not None or self.run.watched:
            self._order(op, ptr, len(data), True, data)
        memory.host_bytes(allocation, op)[offset : offset + len(data)] = np.frombuffer(
            data, np.uint8
        )

    def allocate(
        self, op: Operation, space: int, pointee: Attribute, extent: int | None, nbytes: int
    ) -> Pointer:
        if space != GLOBAL:
            raise ProviderError(
                op,
                f"{self.who} cannot allocate {space_name(space)} memory on a heap",
                "invalid address space",
            )
        allocation = self.run.provider.new_allocation(
            nbytes, pointee, extent, op, f"device-heap allocation of {self.who}"
        )
        return Pointer(allocation, 0, pointee)

    def free(self, op: Operation, ptr: Pointer) -> None:
        memory.free(ptr, op, GLOBAL, self.who)
        if self.order is not None:
            self.order.free(self, op, ptr)

    def slot(self, op: Operation, space: int, pointee: Attribute, nbytes: int) -> Pointer:
        if space == SHARED:
            slots = self.group.shared_slots
            allocation = slots.get(op)
            if allocation is None:
                what = f"shared array of group {self.group_id}"
                allocation = slots[op] = Allocation(SHARED, nbytes, pointee, op=op, what=what)
            elif allocation.nbytes != nbytes:
                raise ProviderError(
                    op,
                    f"{self.who} asks for {nbytes} bytes of the shared slot that other "
                    f"work-items of its group made with {allocation.nbytes}",
                    "invalid value",
                )
            return Pointer(allocation, 0, pointee)
        if space == LOCAL:
            what = f"local slot of {self.who}"
            allocation = Allocation(LOCAL, nbytes, pointee, op=op, what=what)
            self.frames[-1].append(allocation)
            return Pointer(allocation, 0, pointee)
        raise ProviderError(
            op,
            f"{self.who} cannot make a slot in {space_name(space)} memory",
            "invalid address space",
        )

    # barriers
    def barrier(self, op: Operation, value: object = None, which: int = 0) -> object:
        """Wait at the barrier `op` (`which`: the entry (0) or exit (1) of a synced scope)
        until every item of the group is there; a collective's result for this item."""
        coroutine = self.coroutine
        if coroutine is None:  # cannot happen: kernels with barriers run as coroutines
            raise ProviderError(op, f"{self.who} reached a barrier outside a scheduled group")
        return coroutine.arrive(op, (op, which, tuple(self.call_stack)), value)


@register_impls
class GpuDeviceFunctions(InterpreterFunctions):
    """The `gpu` ops that device code runs."""

    @impl(gpu.SyncWorkItemsOp)
    def run_sync(self, machine: ItemMachine, op: Operation, args: PythonValues):
        machine.barrier(op)
        return (TOKEN, TOKEN)

    @impl(gpu.SyncedScopeOp)
    def run_synced_scope(self, machine: ItemMachine, op: gpu.SyncedScopeOp, args: PythonValues):
        machine.barrier(op, which=0)
        results = machine.run_ssacfg_region(op.body, region_tokens(machine, op), "synced_scope")
        machine.barrier(op, which=1)
        return tuple(results)

    @impl(gpu.WorkgroupReduceOp)
    def run_reduce(self, machine: ItemMachine, op: Operation, args: PythonValues):
        return (TOKEN, TOKEN, machine.barrier(op, args[2]))

    @impl(gpu.WorkgroupScanOp)
    def run_scan(self, machine: ItemMachine, op: Operation, args: PythonValues):
        return (TOKEN, TOKEN, machine.barrier(op, args[2]))

    @impl(gpu.FenceOp)
    def run_fence(self, machine: ItemMachine, op: Operation, args: PythonValues):
        return (TOKEN, TOKEN)  # one item at a time: every access is seen in program order

    @impl(gpu.ShuffleOp)
    def run_shuffle(self, machine: ItemMachine, op: gpu.ShuffleOp, args: PythonValues):
        width = signed(args[4], 32)
        if not 1 <= width <= gpu.WARP:
            raise ProviderError(
                op, f"{machine.who}: '{op.name}' of width {width} (1 to 32)", "invalid value"
            )
        result, valid = machine.barrier(op, (args[2], args[3], args[4]))  # type: ignore[misc]
        return (TOKEN, TOKEN, result, valid)

    @impl(gpu.BallotOp)
    def run_ballot(self, machine: ItemMachine, op: gpu.BallotOp, args: PythonValues):
        return (TOKEN, TOKEN, machine.barrier(op, args[2]))

    @impl(gpu.LaneIdOp)
    def run_lane_id(self, machine: ItemMachine, op: Operation, args: PythonValues):
        return (machine.item_id % gpu.WARP,)

    @impl_terminator(gpu.YieldOp)
    def run_yield(self, machine: ItemMachine, op: Operation, args: PythonValues):
        return ReturnedValues(args), ()


DEVICE_FUNCTIONS = (*STANDARD_FUNCTIONS, GpuDeviceFunctions, MmaFunctions)
