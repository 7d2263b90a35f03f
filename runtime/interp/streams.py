"""interp's stream-order check: two accesses to the same byte from different streams (or from a
stream and host code), one of them a write, that no stream sync orders. Each stream and the
host have a vector clock (`StreamOrder`); docs/interp.md, "Stream order", says how they move.

interp runs stream work eagerly, in the order of the calls, so a program that races this way
still gives one answer on interp; on a GPU (and on the cpu provider's threads, one day) it may
not. The check starts with the session's first stream (`gpu.stream_init`, `gpu.with_streams`)
or stream-ordered op (`.asyn`): before that every op is ordered with every later one.
"""

from __future__ import annotations

from xdsl.ir import Operation

from gpuir.ir.diagnostics import describe_op
from gpuir.runtime.engine.token_order import other_access
from gpuir.runtime.memory import Allocation, Pointer, space_name
from gpuir.runtime.provider import ProviderError, Stream

HOST = -1
"""The host's agent: host code's accesses and blocking copies (stream handles are >= 0)."""

Record = tuple[int, int, Operation, "tuple[Operation, str] | None"]
"""An access: its agent (a stream's handle, or `HOST`), the agent's clock then, the op, and
for a launch the kernel's op and the work-item that made it."""


def agent_name(agent: int) -> str:
    if agent == HOST:
        return "the host"
    return "the default stream" if agent == 0 else f"stream {agent}"


class _Byte:
    """A byte's last write, and the last read of each agent since."""

    __slots__ = ("reads", "write")

    def __init__(self) -> None:
        self.write: Record | None = None
        self.reads: dict[int, Record] = {}


class StreamOrder:
    """The clocks of the host and of each stream, and the accesses per allocation and byte.

    An op on stream `s` first learns what `s` runs after: everything the host did before it,
    and (the default stream as CUDA's legacy stream) all work on the default stream, or, for an
    op on the default stream, all work on every stream. A sync of `s` makes the host learn what
    `s` did; a sync of the default stream, the session's end and a blocking copy or free wait
    for every stream."""

    def __init__(self) -> None:
        self.clocks: dict[int, dict[int, int]] = {HOST: {HOST: 0}}
        self.seen: dict[int, tuple[Allocation, dict[int, _Byte]]] = {}
        self.current: Record | None = None
        """The access being made now: `begin` sets its agent, clock and op."""

    def _clock(self, agent: int) -> dict[int, int]:
        found = self.clocks.get(agent)
        if found is None:
            found = self.clocks[agent] = {}
        return found

    def _learn(self, agent: int, other: int) -> None:
        clock = self._clock(agent)
        for who, time in self._clock(other).items():
            if clock.get(who, -1) < time:
                clock[who] = time

    def begin(self, stream: Stream | None, op: Operation) -> None:
        """The op `op` starts: on `stream`, or (None) on the host, blocking."""
        if stream is None:
            self.wait_all()
            agent = HOST
        else:
            agent = stream.handle
            self._learn(agent, HOST)
            others = list(self.clocks) if agent == 0 else [0]
            for other in others:
                if other not in (agent, HOST):
                    self._learn(agent, other)
        clock = self._clock(agent)
        clock[agent] = clock.get(agent, 0) + 1
        self.current = (agent, clock[agent], op, None)

    def host_op(self, op: Operation) -> None:
        """Host code's `op` starts (a load, a store, a free of host memory)."""
        clock = self.clocks[HOST]
        clock[HOST] += 1
        self.current = (HOST, clock[HOST], op, None)

    def wait(self, stream: Stream) -> None:
        """The host waits for `stream` (the default stream: for every stream)."""
        if stream.handle == 0:
            self.wait_all()
        else:
            self._learn(HOST, stream.handle)

    def wait_all(self) -> None:
        for agent in list(self.clocks):
            if agent != HOST:
                self._learn(HOST, agent)

    def _bytes(self, allocation: Allocation) -> dict[int, _Byte]:
        found = self.seen.get(id(allocation))
        if found is None or found[0] is not allocation:
            found = self.seen[id(allocation)] = (allocation, {})
        return found[1]

    def _ordered(self, record: Record, agent: int) -> bool:
        return self._clock(agent).get(record[0], 0) >= record[1]

    def access(
        self,
        ptr: Pointer,
        nbytes: int,
        write: bool,
        via: tuple[Operation, str] | None = None,
    ) -> None:
        """Record the current op's access of `nbytes` at `ptr` (`via`: the kernel's op and
        work-item, in a launch); a diagnostic when it is unordered with an earlier one."""
        allocation = ptr.allocation
        assert self.current is not None
        if allocation is None:
            return
        agent, time, op, _ = self.current
        this: Record = (agent, time, op, via)
        seen = self._bytes(allocation)
        for byte in range(ptr.offset, ptr.offset + nbytes):
            state = seen.get(byte)
            if state is None:
                state = seen[byte] = _Byte()
            last = state.write
            if last is not None and not self._ordered(last, agent):
                _report(this, "writes" if write else "reads", last, True, allocation, byte)
            if write:
                for read in state.reads.values():
                    if not self._ordered(read, agent):
                        _report(this, "writes", read, False, allocation, byte)
                state.write = this
                state.reads = {}
            else:
                state.reads[agent] = this

    def free(self, ptr: Pointer) -> None:
        """The current op frees `ptr`'s allocation: a write of every byte accessed."""
        allocation = ptr.allocation
        assert self.current is not None
        if allocation is None:
            return
        agent = self.current[0]
        for byte, state in sorted(self._bytes(allocation).items()):
            for other, wrote in [(state.write, True), *((r, False) for r in state.reads.values())]:
                if other is not None and not self._ordered(other, agent):
                    _report(self.current, "frees", other, wrote, allocation, byte)
        self.seen.pop(id(allocation), None)


def _report(
    this: Record, verb: str, other: Record, other_wrote: bool, allocation: Allocation, byte: int
) -> None:
    agent, _, op, via = this
    other_agent, _, other_op, other_via = other
    subject = f"'{op.name}'" if via is None else f"{via[1]} of this launch ({describe_op(via[0])})"
    related = [(other_op, f"the other access, on {agent_name(other_agent)}")]
    if via is not None:
        related.append((via[0], f"the access of {via[1]}"))
    what = other_access(other_op, other_via, related)
    raise ProviderError(
        op,
        f"unordered access to {space_name(allocation.space)} memory: {subject} on "
        f"{agent_name(agent)} {verb} byte {byte} of {allocation.describe()}, which {what} on "
        f"{agent_name(other_agent)} {'wrote' if other_wrote else 'read'}, and no stream sync "
        "orders the two",
        "unordered access",
        related,
    )
