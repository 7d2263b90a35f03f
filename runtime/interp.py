"""The `interp` provider: the reference semantics of kernels, with memory, race and barrier checks.

Device memory is host memory (numpy bytes, `host_visible`), so copies are byte copies and every
access is checked against its allocation (`out of bounds`, `use after free`). Stream-ordered
work runs eagerly, in the order of the calls: one valid order of every stream (streams are
checked to exist, but never reorder anything). Races between launches on different streams are
therefore not detected; races within a launch are.

How a launch runs. The work-groups run one after another. Each work-item is one xDSL
interpreter (`ItemMachine`) over the device module. A kernel without barriers or collectives
(`gpu.sync_work_items`, `gpu.synced_scope`, `gpu.workgroup_reduce`, `gpu.workgroup_scan`,
found statically in the kernel and its callees) runs its items in order, to completion, one
after another. A kernel with them runs each work-item on its own thread, but never two at a
time: the group's scheduler resumes the items in order, each runs until it reaches a barrier
(or returns), then hands control back. When every item has stopped:
- all returned: the group is done;
- some returned, some wait, or they wait at different barriers (a barrier is an op and the call
  stack leading to it): `barrier divergence`;
- else all wait at the same barrier: a collective combines the items' values (below), the
  group's epoch advances, and the next round starts.
This is coroutine semantics on threads: deterministic, and exactly one order of the items.

Collectives. `gpu.workgroup_reduce` combines the items' values in the fixed tree
`t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`, `mid = (lo + hi) // 2`, `t(i, i + 1) = v_i` over
`[0, n_items)`; `gpu.workgroup_scan` gives item `i` the left fold
`(…((v_0 ⊕ v_1) ⊕ v_2) … ⊕ v_i)`. Each `⊕` is rounded to the value's type; integers wrap;
`min`/`max` compare integers as signed and floats as `arith.minimumf`/`maximumf` (a NaN wins,
-0 < +0).

Races. Every access to global (1) and shared (3) memory is recorded per byte with the
work-item, its group's epoch (barriers passed) and the op. Two accesses to the same byte by
different work-items race when no barrier orders them (they are in different groups, or in the
same group and epoch) and at least one writes, unless both write the same value. The first
race ends the run with a diagnostic naming both accesses.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
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
from gpuir.dialects.mem import ATOMIC_OPS, CONST, GLOBAL, HOST, LOCAL, SHARED, ArrayType, PtrType
from gpuir.dialects.traits import is_warp_op, waits
from gpuir.ir.diagnostics import describe_op, item_ranges
from gpuir.runtime import memory
from gpuir.runtime.eager import EagerHostProvider
from gpuir.runtime.engine import STANDARD_FUNCTIONS, Machine, make_machine
from gpuir.runtime.engine.token_order import TokenOrder, entry_tokens, region_tokens
from gpuir.runtime.memory import Allocation, Pointer, size_of, space_name, store_size
from gpuir.runtime.provider import (
    LoadedModule,
    ProviderError,
    check_launch,
    kernels_of,
    shuffle_source,
    warp_divergence_message,
)
from gpuir.runtime.scalars import TOKEN, float_dtype, int_width, signed, wrap


class _Abort(BaseException):
    """Unwinds a work-item's thread when the run ends early (not an error of the program)."""


def item_name(group: int, item: int) -> str:
    return f"work-item (group {group}, item {item})"


# --- races ---------------------------------------------------------------------------------------


WITNESSES = 2
"""Accesses of one kind (plain or atomic) kept per byte and epoch: the first two work-items'.
A third access that races with one of them races with one of the two (at most one of them is
its own), so two find every race that all of them would, in memory that does not grow with
the number of accesses (FastTrack's adaptive read sets, by item)."""


Record = tuple[int, int, Operation, bool, int]
"""(group, item, op, whether the op is atomic, the access's sequence number) of one access."""
Conflict = tuple[int, int, Operation, str]
"""The access another one races with: its group, item, op, and what it did (`wrote`)."""


def _witness(records: list[Record], record: Record) -> None:
    """Keep `record` when fewer than `WITNESSES` other items of its kind are kept."""
    _, item, _, atomic, _ = record
    same = 0
    for _, other, _, other_atomic, _ in records:
        if other_atomic == atomic:
            if other == item:
                return
            same += 1
    if same < WITNESSES:
        records.append(record)


ATOMIC_TYPES = frozenset(ATOMIC_OPS)
RETIRED = -2
"""The group of a state whose group is done (`_State.retire`)."""
NO_READERS: list[Record] = []
"""The readers of a retired state (never appended to: `at` gives a state new lists first)."""
MAX_ACCESS = 16
"""The widest access tracked as one (scalars, pointers); a wider one is tracked by byte."""
DIFFERENT = "wrote a different value to"


class _State:
    """What happened during a launch to `width` bytes that every access so far touched all of
    (a word; 1: one byte): in the current epoch of its group, the first readers and, per value
    written, the first writers (`WITNESSES` of each kind); for the groups that ran before, one
    reader and one writer per value. Values are the bytes written, all `width` of them.

    A word is the same as `width` byte states would be (`split` makes them, exactly: the
    records carry sequence numbers), at a `width`th of the memory and time. It is split when
    an access touches part of it, and when an access may race with it: the byte states then
    find the race, and its first byte, as they always did."""

    __slots__ = (
        "width",
        "group",
        "epoch",
        "readers",
        "full",
        "writers",
        "group_read",
        "group_writes",
        "old_read",
        "old_writes",
    )

    def __init__(self, width: int, group: int):
        self.width = width
        self.group = group
        self.epoch = -1
        self.readers: list[Record] = []
        """The first readers in `epoch`."""
        self.full = False
        """`readers` holds `WITNESSES` plain readers: another plain read adds nothing."""
        self.writers: dict[bytes, list[Record]] | None = None
        """value → its first writers in `epoch`."""
        self.group_read: Record | None = None
        self.group_writes: Writes | None = None
        """value → one writer of it (the first), in this group."""
        self.old_read: Record | None = None
        self.old_writes: Writes | None = None
        """The same, for the groups that ran before."""

    def at(self, group: int, epoch: int) -> bool:
        """The records of `epoch` of `group`: groups run one after another, so what the
        previous group did is now 'old'; a barrier of the group ends the epochs before.
        Whether this is the group's first access here."""
        first = self.group != group
        if first:
            self.retire()
            self.group = group
        if self.epoch != epoch:
            self.epoch = epoch
            self.readers, self.writers, self.full = [], None, False
        return first

    def retire(self) -> None:
        """The group that touched these bytes is done: its records become 'old' ones, and the
        records of its epochs go."""
        if self.old_read is None:
            self.old_read = self.group_read
        if self.group_writes:
            if self.old_writes is None:
                self.old_writes = self.group_writes
            else:
                for value, access in self.group_writes:
                    _first_of(self.old_writes, value, access)
        self.group, self.epoch, self.full = RETIRED, -1, False
        self.readers, self.writers = NO_READERS, None
        self.group_read, self.group_writes = None, None

    def read_conflict(self, item: int, atomic: bool) -> Conflict | None:
        """The access a read by `item` races with, the one a report names; None if none."""
        if self.old_writes:
            for _, (other_group, other_item, other_op, other_atomic, _) in self.old_writes:
                if not (atomic and other_atomic):
                    return other_group, other_item, other_op, "wrote"
        if self.writers:
            for writers in self.writers.values():
                for other_group, other, other_op, other_atomic, _ in writers:
                    if other != item and not (atomic and other_atomic):
                        return other_group, other, other_op, "wrote"
        return None

    def write_conflict(self, item: int, atomic: bool, value: bytes) -> Conflict | None:
        """The access a write of `value` by `item` races with; None if none. Two writes of
        the same value never race (as on a GPU)."""
        old_read = self.old_read
        if old_read is not None and not (atomic and old_read[3]):
            return old_read[0], old_read[1], old_read[2], "read"
        if self.old_writes:
            for old_value, (
                other_group,
                other_item,
                other_op,
                other_atomic,
                _,
            ) in self.old_writes:
                if old_value != value and not (atomic and other_atomic):
                    return other_group, other_item, other_op, DIFFERENT
        for other_group, other, other_op, other_atomic, _ in self.readers:
            if other != item and not (atomic and other_atomic):
                return other_group, other, other_op, "read"
        if self.writers:
            for other_value, writers in self.writers.items():
                if other_value != value:
                    for other_group, other, other_op, other_atomic, _ in writers:
                        if other != item and not (atomic and other_atomic):
                            return other_group, other, other_op, DIFFERENT
        return None

    def read(self, record: Record) -> None:
        if record[3] or not self.full:
            readers = self.readers
            _witness(readers, record)
            self.full = sum(1 for r in readers if not r[3]) >= WITNESSES
        if self.group_read is None:
            self.group_read = record

    def write(self, record: Record, value: bytes) -> None:
        if self.writers is None:
            self.writers = {}
        _witness(self.writers.setdefault(value, []), record)
        if self.group_writes is None:
            self.group_writes = [(value, record)]
        else:
            _first_of(self.group_writes, value, record)

    def split(self) -> list[_State]:
        """The byte states this word stands for."""
        found = []
        for i in range(self.width):
            byte = _State(1, self.group)
            byte.epoch, byte.full = self.epoch, self.full
            byte.readers = list(self.readers)
            byte.group_read, byte.old_read = self.group_read, self.old_read
            if self.writers:
                writers: dict[bytes, list[Record]] = {}
                ordered = sorted(
                    ((r[4], v[i : i + 1], r) for v, rs in self.writers.items() for r in rs),
                    key=lambda entry: entry[0],
                )
                for _, value, record in ordered:
                    _witness(writers.setdefault(value, []), record)
                byte.writers = writers
            byte.group_writes = _first_per_byte(self.group_writes, i)
            byte.old_writes = _first_per_byte(self.old_writes, i)
            found.append(byte)
        return found


Writes = list[tuple[bytes, Record]]
"""One writer per value (the first), in the order the values were first written: a list of
pairs, not a dict (most bytes see one value; a dict of one entry takes twice the memory)."""


def _first_of(writes: Writes, value: bytes, record: Record) -> None:
    """Keep `record` as the writer of `value` unless `value` has one."""
    for other, _ in writes:
        if other == value:
            return
    writes.append((value, record))


def _first_per_byte(writes: Writes | None, i: int) -> Writes | None:
    """One writer per value of byte `i` (the first), from one per value of the word."""
    if writes is None:
        return None
    found: Writes = []
    for value, access in sorted(writes, key=lambda entry: entry[1][4]):
        _first_of(found, value[i : i + 1], access)
    return found


class RaceTracker:
    """Access records of one launch, per word or byte (`_State`); raises at the first race."""

    def __init__(self, words: bool = True) -> None:
        self.words = words
        """Track words (False: every byte on its own, as the words stand for; for tests)."""
        self.allocations: dict[int, dict[int, _State]] = {}
        """allocation serial → offset → the state of the word or byte there."""
        self.widths: dict[int, int] = {}
        """allocation serial → the width of every access so far, when they all had one and
        were aligned to it (then no two words overlap); 0 otherwise."""
        self.quiet: dict[int, dict[int, tuple[int, int, int]]] = {}
        """allocation serial → offset → (bytes, group, epoch) of plain reads that change
        nothing: every byte has its `WITNESSES` plain readers of the epoch, a first reader in
        the group, and no write of the group or of an earlier one. Another plain read of
        them in the same group and epoch is a no-op, until a write to one of the bytes."""
        self.seq = 0
        self.touched: list[_State] = []
        """The states the running group has touched: retired when it ends (`end_group`)."""

    def end_group(self) -> None:
        """The running group is done: what it recorded becomes 'old', in less memory."""
        for state in self.touched:
            state.retire()
        self.touched = []

    def _word(self, allocation: Allocation, offset: int, n: int) -> tuple[dict, _State | None]:
        """The states of the allocation, and the one that tracks the `n` bytes at `offset` as
        one word (made if they are new); None when they are tracked by byte."""
        serial = allocation.serial
        states = self.allocations.get(serial)
        if states is None:
            states = self.allocations[serial] = {}
        state = states.get(offset)
        if state is not None and state.width == n:
            return states, state
        width = self.widths.get(serial, n) if self.words else 0
        if state is None and width == n and offset % n == 0 and n <= MAX_ACCESS:
            self.widths[serial] = n
            state = states[offset] = _State(n, -1)
            return states, state
        self.widths[serial] = 0
        overlapping = [
            start
            for start in range(offset - MAX_ACCESS + 1, offset + n)
            if (other := states.get(start)) is not None and start + other.width > offset
        ]
        if not overlapping and n <= MAX_ACCESS and self.words:
            state = states[offset] = _State(n, -1)
            return states, state
        for start in overlapping:
            word = states[start]
            if word.width > 1:
                for i, byte in enumerate(word.split()):
                    states[start + i] = byte
        return states, None

    def _byte(self, states: dict[int, _State], byte: int) -> _State:
        state = states.get(byte)
        if state is None:
            state = states[byte] = _State(1, -1)
        return state

    def read(self, who: ItemMachine, op: Operation, allocation: Allocation, offset: int, n: int):
        group, item, epoch = who.group_id, who.item_id, who.group.epoch
        atomic = type(op) in ATOMIC_TYPES
        quiet = self.quiet.get(allocation.serial)
        if not atomic and quiet is not None and quiet.get(offset) == (n, group, epoch):
            return
        self.seq += 1
        record = (group, item, op, atomic, self.seq)
        states, word = self._word(allocation, offset, n)
        if word is not None:
            if word.at(group, epoch):
                self.touched.append(word)
            if word.read_conflict(item, atomic) is None:
                word.read(record)
                if word.full and not (word.writers or word.old_writes) and not atomic:
                    if quiet is None:
                        quiet = self.quiet[allocation.serial] = {}
                    quiet[offset] = (n, group, epoch)
                return
            for i, byte_state in enumerate(word.split()):
                states[offset + i] = byte_state
        for byte in range(offset, offset + n):
            state = self._byte(states, byte)
            if state.at(group, epoch):
                self.touched.append(state)
            conflict = state.read_conflict(item, atomic)
            if conflict is not None:
                self._report(who, op, "reads", allocation, byte, *conflict)
            state.read(record)

    def write(
        self, who: ItemMachine, op: Operation, allocation: Allocation, offset: int, data: bytes
    ):
        group, item, epoch = who.group_id, who.item_id, who.group.epoch
        atomic = type(op) in ATOMIC_TYPES
        n = len(data)
        quiet = self.quiet.get(allocation.serial)
        if quiet:  # reads of these bytes are no longer no-ops
            for start in range(offset - MAX_ACCESS + 1, offset + n):
                found = quiet.get(start)
                if found is not None and start + found[0] > offset:
                    del quiet[start]
        self.seq += 1
        record = (group, item, op, atomic, self.seq)
        states, word = self._word(allocation, offset, n)
        if word is not None:
            if word.at(group, epoch):
                self.touched.append(word)
            if word.write_conflict(item, atomic, data) is None:
                word.write(record, data)
                return
            for i, byte_state in enumerate(word.split()):
                states[offset + i] = byte_state
        for i in range(n):
            state = self._byte(states, offset + i)
            if state.at(group, epoch):
                self.touched.append(state)
            value = data[i : i + 1]
            conflict = state.write_conflict(item, atomic, value)
            if conflict is not None:
                self._report(who, op, "writes", allocation, offset + i, *conflict)
            state.write(record, value)

    def _report(
        self,
        who: ItemMachine,
        op: Operation,
        verb: str,
        allocation: Allocation,
        byte: int,
        other_group: int,
        other_item: int,
        other_op: Operation,
        other_verb: str,
    ) -> None:
        other = item_name(other_group, other_item)
        if isinstance(op, ATOMIC_OPS):
            verb = f"atomically {verb}"  # with a plain access: atomics are ordered only
        why = (
            "work-items of different groups are never ordered within a launch"
            if other_group != who.group_id
            else "no barrier between them"
        )
        raise ProviderError(
            op,
            f"race on {space_name(allocation.space)} memory: {who.who} {verb} byte {byte} of "
            f"{allocation.describe()}, which {other} {other_verb} ({describe_op(other_op)}); "
            f"{why}",
            "race",
            [(other_op, f"the other access, by {other}")],
        )


# --- work-items ----------------------------------------------------------------------------------


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

    quiet_floats = True  # KernelRun.run and ItemThread._main run every item under np.errstate

    def start(self, run: KernelRun, group: GroupState, item_id: int) -> None:
        self.run = run
        self.group = group
        self.group_id = group.group_id
        self.item_id = item_id
        self.who = item_name(group.group_id, item_id)
        self.out = run.out
        self.thread: ItemThread | None = None
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

    def _order(self, op: Operation, ptr: Pointer, nbytes: int, write: bool) -> None:
        """The token-order check of an access: against this work-item's own accesses, and
        of global memory as the launch's against the host code's (`token_order`)."""
        if self.order is not None:
            self.order.access(self, op, ptr, nbytes, write)
        launched_by = self.run.launched_by
        if launched_by is not None and ptr.space == GLOBAL:
            host, launch = launched_by
            host.order.access(host, launch, ptr, nbytes, write, (op, self.who))

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
                        if self.order is not None or self.run.launched_by is not None:
                            self._order(op, ptr, nbytes, False)
                        return as_value(entry[1][offset // nbytes])
        self._check_space(op, ptr, "loads from")
        nbytes = store_size(ptr.pointee)
        allocation, offset = memory.check_access(
            ptr, nbytes, op, f"loads {nbytes} bytes from", self.who
        )
        if self._tracked(allocation.space):
            self.run.races.read(self, op, allocation, offset, nbytes)
        if self.order is not None or self.run.launched_by is not None:
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
        if self.order is not None or self.run.launched_by is not None:
            self._order(op, ptr, len(data), True)
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
        thread = self.thread
        if thread is None:  # cannot happen: kernels with barriers run threaded
            raise ProviderError(op, f"{self.who} reached a barrier outside a scheduled group")
        return thread.arrive(op, (op, which, tuple(self.call_stack)), value)


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


DEVICE_FUNCTIONS = (*STANDARD_FUNCTIONS, GpuDeviceFunctions)


# --- collectives -----------------------------------------------------------------------------


def combine(kind: str, x: object, y: object, type_: Attribute) -> object:
    """`x ⊕ y` for a collective of `kind` on values of `type_`."""
    if (width := int_width(type_)) is not None:
        a, b = signed(x, width), signed(y, width)  # type: ignore[arg-type]
        match kind:
            case "add":
                return wrap(a + b, width)
            case "mul":
                return wrap(a * b, width)
            case "min":
                return wrap(min(a, b), width)
            case "max":
                return wrap(max(a, b), width)
            case "and":
                return wrap(a & b, width)
            case "or":
                return wrap(a | b, width)
            case _:
                return wrap(a ^ b, width)
    dtype = float_dtype(type_)
    assert dtype is not None
    fx, fy = dtype(x), dtype(y)
    with np.errstate(all="ignore"):
        match kind:
            case "add":
                return dtype(fx + fy)
            case "mul":
                return dtype(fx * fy)
            case "min":
                return (
                    fx + fy
                    if np.isnan(fx) or np.isnan(fy)
                    else (fx if (fx < fy or (fx == fy and np.signbit(fx))) else fy)
                )
            case _:
                return (
                    fx + fy
                    if np.isnan(fx) or np.isnan(fy)
                    else (fx if (fx > fy or (fx == fy and not np.signbit(fx))) else fy)
                )


def tree_reduce(kind: str, values: Sequence[object], type_: Attribute) -> object:
    """`t(0, n)` with `t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`, `mid = (lo + hi) // 2`."""

    def t(lo: int, hi: int) -> object:
        if hi - lo == 1:
            return values[lo]
        mid = (lo + hi) // 2
        return combine(kind, t(lo, mid), t(mid, hi), type_)

    return t(0, len(values))


def left_scan(kind: str, values: Sequence[object], type_: Attribute) -> list[object]:
    """The inclusive scan as a left fold in item order."""
    out: list[object] = []
    for value in values:
        out.append(value if not out else combine(kind, out[-1], value, type_))
    return out


# --- the scheduler -------------------------------------------------------------------------------


class ItemThread:
    """A work-item on its own thread, run only when its group's scheduler resumes it."""

    def __init__(self, machine: ItemMachine, scheduler: GroupScheduler):
        self.machine = machine
        self.scheduler = scheduler
        self.wake = threading.Semaphore(0)
        self.thread = threading.Thread(target=self._main, daemon=True, name=machine.who)
        self.started = False
        self.state = "new"
        self.key: tuple[Operation, int, tuple[Operation, ...]] | None = None
        self.op: Operation | None = None
        self.value: object = None
        self.result: object = None
        self.error: BaseException | None = None
        machine.thread = self

    def _main(self) -> None:
        try:
            with np.errstate(all="ignore"):
                self.machine.run.run_item(self.machine)
            self.state = "done"
        except _Abort:
            self.state = "aborted"
            return
        except BaseException as e:  # handed to the scheduler's thread, which raises it
            self.error = e
            self.state = "error"
        self.scheduler.handback.release()

    def resume(self) -> None:
        """Run this item until it reaches a barrier or ends (called by the scheduler)."""
        self.state = "running"
        if self.started:
            self.wake.release()
        else:
            self.started = True
            self.thread.start()
        self.scheduler.handback.acquire()

    def arrive(self, op: Operation, key: tuple, value: object) -> object:
        """At a barrier (in this item's thread): hand control back, wait to be resumed."""
        self.state, self.op, self.key, self.value = "barrier", op, key, value
        self.scheduler.handback.release()
        self.wake.acquire()
        if self.scheduler.aborting:
            raise _Abort
        return self.result

    def abort(self) -> None:
        """End the thread: one waiting at a barrier unwinds; one still running (the run was
        interrupted) is left to finish on its own (it is a daemon)."""
        if self.state == "barrier":
            self.wake.release()
        if self.started and self.state != "running":
            self.thread.join()


class GroupScheduler:
    """Runs the work-items of one group as coroutines (module docstring)."""

    def __init__(self, run: KernelRun, group: GroupState, machines: list[ItemMachine]):
        self.run = run
        self.group = group
        self.handback = threading.Semaphore(0)
        self.aborting = False
        self.threads = [ItemThread(m, self) for m in machines]

    def run_group(self) -> None:
        try:
            self._rounds()
        finally:
            self.aborting = True
            for thread in self.threads:
                thread.abort()

    def _rounds(self) -> None:
        """Run the items to their next stops; release the warps whose lanes all wait at one
        warp operation (and run those lanes on), until every item waits at a barrier of the
        group or has returned; then check the barrier and release the group."""
        live = runnable = self.threads
        while True:
            for thread in runnable:
                thread.resume()
                if thread.state == "error":
                    assert thread.error is not None
                    raise thread.error
            runnable = self._warp_round()
            if runnable:
                continue
            waiting = [t for t in live if t.state == "barrier"]
            if not waiting:
                return
            returned = [t for t in live if t.state == "done"]
            if returned:
                self._returned_early(waiting, returned)
            keys = {t.key for t in waiting}
            if len(keys) > 1:
                self._different_barriers(waiting)
            self._release(waiting)
            live = runnable = waiting

    def _warp_round(self) -> list[ItemThread]:
        """The lanes of every warp that waits at a warp operation, its results handed out;
        barrier divergence when a warp's lanes are not all there."""
        threads = self.threads
        released: list[ItemThread] = []
        for start in range(0, len(threads), gpu.WARP):
            lanes = threads[start : start + gpu.WARP]
            at_warp_op = [t for t in lanes if t.state == "barrier" and is_warp_op(t.op)]
            if not at_warp_op:
                continue
            first = at_warp_op[0]
            other = next((t for t in lanes if t.state != "barrier" or t.key != first.key), None)
            if other is not None:
                self._warp_divergence(lanes, first, other)
            warp_results(first.op, [t.value for t in lanes], lanes)
            released += lanes
        return released

    def _warp_divergence(
        self, lanes: list[ItemThread], first: ItemThread, other: ItemThread
    ) -> None:
        same = [t.machine.item_id for t in lanes if t.state == "barrier" and t.key == first.key]
        if other.state == "barrier":
            assert other.op is not None
            rest = [
                t.machine.item_id for t in lanes if t.state == other.state and t.key == other.key
            ]
            where = f"wait at {describe_op(other.op)}"
        else:
            rest = [t.machine.item_id for t in lanes if t.state != "barrier"]
            where = "returned from the kernel"
        assert first.op is not None
        raise ProviderError(
            first.op,
            warp_divergence_message(
                self.group.group_id,
                same,
                describe_op(first.op),
                rest,
                where,
                lanes[0].machine.item_id,
                lanes[-1].machine.item_id,
            ),
            "barrier divergence",
        )

    def _returned_early(self, waiting: list[ItemThread], returned: list[ItemThread]) -> None:
        op = waiting[0].op
        assert op is not None
        passed = self.group.epoch
        group = self.group.group_id
        raise ProviderError(
            op,
            f"barrier divergence in group {group}: work-item(s) "
            f"{item_ranges([t.machine.item_id for t in waiting])} wait at {describe_op(op)} "
            f"(barrier {passed + 1} of the group), but work-item(s) "
            f"{item_ranges([t.machine.item_id for t in returned])} returned from the kernel after "
            f"{passed} barrier(s), without reaching it",
            "barrier divergence",
        )

    def _different_barriers(self, waiting: list[ItemThread]) -> None:
        first = waiting[0]
        other = next(t for t in waiting if t.key != first.key)
        same = [t.machine.item_id for t in waiting if t.key == first.key]
        rest = [t.machine.item_id for t in waiting if t.key == other.key]
        assert first.op is not None and other.op is not None
        assert first.key is not None and other.key is not None
        if first.op is not other.op:
            where = ""
        elif first.key[1] != other.key[1]:
            where = " (the entry and the exit of one synced scope)"
        else:
            where = " (reached through different calls)"
        raise ProviderError(
            first.op,
            f"barrier divergence in group {self.group.group_id}: work-item(s) {item_ranges(same)} "
            f"wait at {describe_op(first.op)}, but work-item(s) {item_ranges(rest)} wait at "
            f"{describe_op(other.op)}{where}; every work-item of a group must reach the same "
            "barriers",
            "barrier divergence",
            [(other.op, f"where work-item {other.machine.item_id} waits")],
        )

    def _release(self, waiting: list[ItemThread]) -> None:
        op = waiting[0].op
        if isinstance(op, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp):
            kind, type_ = op.kind.data, op.value.type
            values = [t.value for t in waiting]
            if isinstance(op, gpu.WorkgroupReduceOp):
                total = tree_reduce(kind, values, type_)
                results: list[object] = [total] * len(waiting)
            else:
                results = left_scan(kind, values, type_)
            for thread, result in zip(waiting, results, strict=True):
                thread.result = result
        self.group.epoch += 1


# --- a launch --------------------------------------------------------------------------------


def warp_results(op: Operation, values: list[object], lanes: list[ItemThread]) -> None:
    """Each lane's result of the warp operation `op`, from the lanes' `values`."""
    if isinstance(op, gpu.BallotOp):
        mask = sum(1 << lane for lane, pred in enumerate(values) if pred)
        for thread in lanes:
            thread.result = wrap(mask, 32)
        return
    assert isinstance(op, gpu.ShuffleOp)
    for lane, thread in enumerate(lanes):
        own, offset, width = thread.value  # type: ignore[misc]
        source = shuffle_source(
            op.mode.data, lane, signed(offset, 32), signed(width, 32), len(lanes)
        )
        thread.result = (own, 0) if source is None else (values[source][0], 1)  # type: ignore[index]


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
    """The reference provider (module docstring). `out` receives the output of kernels'
    `printf` (default: `sys.stdout` at the time of the launch)."""

    name = "interp"

    def __init__(self, out: IO[str] | None = None) -> None:
        super().__init__()
        self.out = out

    def output(self) -> IO[str]:
        return self.out if self.out is not None else sys.stdout

    def _make_allocation(
        self, nbytes: int, pointee: Attribute, extent: int | None, op: Operation | None, what: str
    ) -> Allocation:
        return Allocation(GLOBAL, nbytes, pointee, extent, op=op, what=what)

    def _transfer(self, dst: Pointer, src: Pointer, nbytes: int, op: Operation | None) -> None:
        memory.write_bytes(dst, memory.read_bytes(src, nbytes, op), op)

    def load_module(self, module: ModuleOp, *, op=None) -> LoadedModule:
        self.check_open(op)
        kernels, functions = kernels_of(module)
        return LoadedModule(module, kernels, interp_module(module), functions)

    def launch(
        self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None
    ) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        if not isinstance(module.payload, InterpModule):
            raise ProviderError(op, "interp: the module was not loaded by interp", "invalid handle")
        run_launch(self, module, kernel, n_groups, n_items, smem_bytes, args, op)


def interp_module(module: ModuleOp) -> InterpModule:
    """What interp keeps of a device module to run its kernels."""
    prototype = make_machine(ItemMachine, module, DEVICE_FUNCTIONS)
    assert isinstance(prototype, ItemMachine)
    return InterpModule(prototype)


def run_launch(
    provider: EagerHostProvider,
    module: LoadedModule,
    kernel: str,
    n_groups: int,
    n_items: int,
    smem_bytes: int,
    args: Sequence[tuple[object, Attribute]],
    op: Operation | None,
) -> None:
    """Run a launch of `kernel` of `module` (loaded as interp loads it) under interp's
    semantics, on `provider`'s memory (its device heap and output: interp's, or the cpu
    provider's when it runs a checked launch again)."""
    func, takes_smem = check_launch("interp", module, kernel, n_groups, n_items, args, op)
    smem = None
    if takes_smem:
        param = func.function_type.inputs.data[6]
        assert isinstance(param, PtrType)
        smem = (param.pointee, smem_bytes)
    values = [value for value, _ in args]
    KernelRun(provider, module, func, n_groups, n_items, smem, values).run()
