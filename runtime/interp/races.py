"""interp's race check: `RaceTracker`, the access records of one launch per word or byte
(`_State`), kept in constant room per word; the first race ends the run with a diagnostic that
names both accesses (docs/interp.md, "How interp runs a launch").

An access is recorded for its agent (`agent_of`): the work-item that made it, or, for an op
that a warp runs together (a `WarpCollective`: `gpu.mma_load`, `gpu.mma_store`), the warp.
Such an op reads or writes the warp's tile on behalf of the whole warp, whose lanes meet at it
(interp lets each lane touch its own share of the elements, but a GPU's lanes share the tile
as they please), so its accesses are one agent's: those of one warp's collective ops never
race with each other, and race with another warp's and with any work-item's plain accesses,
its own lanes' included, as any two agents' do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Operation

from gpuir.dialects.gpu import WARP
from gpuir.dialects.mem import ATOMIC_OPS
from gpuir.dialects.traits import is_warp_op
from gpuir.ir.diagnostics import describe_op
from gpuir.runtime.interp.items import item_name
from gpuir.runtime.memory import Allocation, space_name
from gpuir.runtime.provider import ProviderError

if TYPE_CHECKING:
    from gpuir.runtime.interp.items import ItemMachine


WITNESSES = 2
"""Accesses of one kind (plain or atomic) kept per byte and epoch: the first two agents'
(work-items' or warps', `agent_of`). Whether two accesses race depends on their agents only
through whether they are the same agent (an agent's own accesses never race: a work-item's are
in its program order, and a warp's collective ops are met by all its lanes, one after another).
So a third access that races with one of them races with one of the two (at most one of them is
its own agent's), so two find every race that all of them would, in memory that does not grow
with the number of accesses (FastTrack's adaptive read sets, by agent). A warp is an agent of
its own, never the same as one of its lanes: were a lane's plain access and its warp's
collective one the same agent's, two lanes of the warp would be kept as witnesses and both be
the warp's own, and the argument would need a third witness per warp."""


Record = tuple[int, int, Operation, bool, int]
"""(group, agent, op, whether the op is atomic, the access's sequence number) of one access."""
Conflict = tuple[int, int, Operation, str]
"""The access another one races with: its group, agent, op, and what it did (`wrote`)."""


_COLLECTIVE: dict[type[Operation], bool] = {}
"""op type → whether it is a warp collective (`is_warp_op`), asked once per type."""


def agent_of(op: Operation, item: int) -> int:
    """The agent an access of work-item `item` through `op` is recorded for (module docstring):
    the item (0 and up), or the warp of a warp collective (warp `w`: -1 - w)."""
    collective = _COLLECTIVE.get(type(op))
    if collective is None:
        collective = _COLLECTIVE[type(op)] = is_warp_op(op)
    return -1 - item // WARP if collective else item


def agent_name(group: int, agent: int) -> str:
    """`work-item (group 0, item 5)`, or `warp (group 0, work-items 32-63)`."""
    if agent >= 0:
        return item_name(group, agent)
    first = (-1 - agent) * WARP
    return f"warp (group {group}, work-items {first}-{first + WARP - 1})"


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

    def _touch(self, state: _State, group: int, epoch: int) -> None:
        """Bring `state` to `epoch` of `group`; a state the group touches first is remembered,
        to be retired when the group ends (`end_group`)."""
        if state.at(group, epoch):
            self.touched.append(state)

    def read(self, who: ItemMachine, op: Operation, allocation: Allocation, offset: int, n: int):
        group, item, epoch = who.group_id, agent_of(op, who.item_id), who.group.epoch
        atomic = type(op) in ATOMIC_TYPES
        quiet = self.quiet.get(allocation.serial)
        if not atomic and quiet is not None and quiet.get(offset) == (n, group, epoch):
            return
        self.seq += 1
        record = (group, item, op, atomic, self.seq)
        states, word = self._word(allocation, offset, n)
        if word is not None:
            self._touch(word, group, epoch)
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
            self._touch(state, group, epoch)
            conflict = state.read_conflict(item, atomic)
            if conflict is not None:
                self._report(who, item, op, "reads", allocation, byte, *conflict)
            state.read(record)

    def write(
        self, who: ItemMachine, op: Operation, allocation: Allocation, offset: int, data: bytes
    ):
        group, item, epoch = who.group_id, agent_of(op, who.item_id), who.group.epoch
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
            self._touch(word, group, epoch)
            if word.write_conflict(item, atomic, data) is None:
                word.write(record, data)
                return
            for i, byte_state in enumerate(word.split()):
                states[offset + i] = byte_state
        for i in range(n):
            state = self._byte(states, offset + i)
            self._touch(state, group, epoch)
            value = data[i : i + 1]
            conflict = state.write_conflict(item, atomic, value)
            if conflict is not None:
                self._report(who, item, op, "writes", allocation, offset + i, *conflict)
            state.write(record, value)

    def _report(
        self,
        who: ItemMachine,
        agent: int,
        op: Operation,
        verb: str,
        allocation: Allocation,
        byte: int,
        other_group: int,
        other_item: int,
        other_op: Operation,
        other_verb: str,
    ) -> None:
        other = agent_name(other_group, other_item)
        if isinstance(op, ATOMIC_OPS):
            verb = f"atomically {verb}"  # with a plain access: atomics are ordered only
        why = (
            "work-items of different groups are never ordered within a launch"
            if other_group != who.group_id
            else "no barrier between them"
        )
        raise ProviderError(
            op,
            f"race on {space_name(allocation.space)} memory: {agent_name(who.group_id, agent)} "
            f"{verb} byte {byte} of "
            f"{allocation.describe()}, which {other} {other_verb} ({describe_op(other_op)}); "
            f"{why}",
            "race",
            [(other_op, f"the other access, by {other}")],
        )
