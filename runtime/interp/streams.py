"""interp's streams: the stream-order check, and work on streams that waits for other streams.

The check (`StreamOrder`): two accesses to the same byte from different streams (or from a
stream and host code), one of them a write and not both a kernel's atomics, that no stream sync
orders. Each stream and the host have a vector clock; docs/interp.md, "Stream order", says how
they move. interp runs stream work in one order (the calls', but for launches that spin), so a
program that races this way still gives one answer on interp; on a GPU (and on the cpu
provider's stream threads) it may not. The check starts with the session's first stream
(`gpu.stream_init`, `gpu.with_streams`) or stream-ordered op (`.asyn`): before that every op is
ordered with every later one.

The pending work (`StreamTasks`, `StreamTask`): a launch on a stream whose work-item spins on
an atomic read steps aside, so that the host may put on another stream the work it waits for;
docs/interp.md, "Streams that wait for each other".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from greenlet import greenlet
from xdsl.ir import Operation

from gpuir.dialects.mem import ATOMIC_OPS
from gpuir.runtime.engine.token_order import access_words
from gpuir.runtime.memory import Allocation, Pointer, decode, space_name
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
        work-item, in a launch); a diagnostic when it is unordered with an earlier one that is
        not, as it is, a kernel's atomic access."""
        allocation = ptr.allocation
        assert self.current is not None
        if allocation is None:
            return
        agent, time, op, _ = self.current
        this: Record = (agent, time, op, via)
        atomic = _atomic(this)
        seen = self._bytes(allocation)
        for byte in range(ptr.offset, ptr.offset + nbytes):
            state = seen.get(byte)
            if state is None:
                state = seen[byte] = _Byte()
            last = state.write
            if last is not None and not self._ordered(last, agent):
                if not (atomic and _atomic(last)):
                    _report(this, "writes" if write else "reads", last, True, allocation, byte)
            if write:
                for read in state.reads.values():
                    if not self._ordered(read, agent) and not (atomic and _atomic(read)):
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


def _atomic(record: Record) -> bool:
    """Whether a kernel's atomic op made the access: two atomic accesses are no race, whatever
    their streams."""
    via = record[3]
    return via is not None and isinstance(via[0], ATOMIC_OPS)


def _report(
    this: Record, verb: str, other: Record, other_wrote: bool, allocation: Allocation, byte: int
) -> None:
    agent, _, op, via = this
    other_agent, _, other_op, other_via = other
    subject, what, related = access_words(
        f"'{op.name}'", via, other_op, other_via, f"the other access, on {agent_name(other_agent)}"
    )
    raise ProviderError(
        op,
        f"unordered access to {space_name(allocation.space)} memory: {subject} on "
        f"{agent_name(agent)} {verb} byte {byte} of {allocation.describe()}, which {what} on "
        f"{agent_name(other_agent)} {'wrote' if other_wrote else 'read'}, and no stream sync "
        "orders the two",
        "unordered access",
        related,
    )


# --- work on streams that waits for other streams ----------------------------------------------

SPIN_READS = 64
"""Atomic reads of one work-item that return the same value at the same op and address, one
after another, that make its launch step aside for the other streams' work."""


class StreamTask:
    """One piece of a stream's work (a launch, a copy, a free) as a coroutine of the host's
    thread: run until it is done or one of its work-items spins (`SPIN_READS`), then resumed by
    `StreamTasks.drive`."""

    def __init__(
        self,
        tasks: StreamTasks,
        handle: int,
        work: Callable[[], None],
        op: Operation | None,
        record: Record | None,
    ) -> None:
        self.tasks = tasks
        self.handle = handle
        self.work = work
        self.op = op
        self.record = record
        """The stream-order check's record of the op, made when the host issued it."""
        self.coroutine = greenlet(self._main)
        self.paused: greenlet | None = None
        self.caller: greenlet | None = None
        self.started = self.done = False
        self.error: BaseException | None = None
        self.last: tuple | None = None
        self.repeats = 0
        self.spin: tuple[Operation, str, object] | None = None
        """Where it spins: the op, the work-item and the value it reads."""

    def _main(self) -> None:
        try:
            self.work()
        except BaseException as e:  # noqa: BLE001  # raised by the host where it waits
            self.error = e
        self.done = True

    def resume(self) -> None:
        """Run until done or spinning (on the host's thread, from the host's coroutine)."""
        self.started = True
        self.caller = greenlet.getcurrent()
        self.coroutine.parent = self.caller
        self.tasks.current = self
        order = self.tasks.order()
        if order is not None and self.record is not None:
            order.current = self.record
        try:
            (self.paused or self.coroutine).switch()
        finally:
            self.tasks.current = None

    def access(
        self, op: Operation, who: str, ptr: Pointer, nbytes: int, data: bytes | None
    ) -> None:
        """An access of global memory by `who` through `op` (`data`: what a store writes):
        a store that changes memory is progress; an atomic read of the same value as its last
        one, `SPIN_READS` times in a row, makes the task step aside."""
        allocation = ptr.allocation
        if allocation is None or allocation.data is None:
            return
        if data is None and not isinstance(op, ATOMIC_OPS):
            return
        now = allocation.data[ptr.offset : ptr.offset + nbytes].tobytes()
        if data is not None:
            if data != now:
                self.tasks.changed = True
            return
        key = (op, who, id(allocation), ptr.offset, now)
        if key != self.last:
            self.last, self.repeats = key, 0
            return
        self.repeats += 1
        if self.repeats < SPIN_READS:
            return
        self.repeats = 0
        self.spin = (op, who, decode(now, ptr.pointee))
        self.paused = greenlet.getcurrent()
        assert self.caller is not None
        self.caller.switch()

    def finish(self) -> None:
        """Its failure, raised (by the host, where it waits for the task)."""
        if self.error is not None:
            raise self.error


class StreamTasks:
    """The streams' pending work, each stream's in order (docs/interp.md, "Streams that wait
    for each other"). Work on a stream with nothing pending runs at once, as before; it stays
    pending only when a work-item spins. The host runs the pending work (`drive`) where it waits
    for a stream, and before a blocking op or work on the default stream: the streams' first
    pieces in turn, by handle, each until it is done or spins again, so the order is one and
    the same on every run. When a turn of every stream ends with no piece done and no store
    that changed memory, none can go on: a hang, reported at the op where the first one spins."""

    def __init__(self, order: Callable[[], StreamOrder | None]) -> None:
        self.order = order
        self.queues: dict[int, deque[StreamTask]] = {}
        self.current: StreamTask | None = None
        """The task running now (a launch made now belongs to it)."""
        self.changed = False

    def submit(
        self, handle: int, work: Callable[[], None], op: Operation | None, record: Record | None
    ) -> None:
        """`work` on stream `handle`: now if the stream has nothing pending, else after it."""
        task = StreamTask(self, handle, work, op, record)
        queue = self.queues.get(handle)
        if queue is not None:
            queue.append(task)
            return
        task.resume()
        if task.done:
            task.finish()
            return
        self.queues[handle] = deque([task])

    def drive(self, handle: int | None = None) -> None:
        """Run the pending work until stream `handle`'s (None: every stream's) is done."""
        while self.queues and (handle is None or handle in self.queues):
            self.changed = False
            progress = False
            for stream in sorted(self.queues):
                queue = self.queues[stream]
                task = queue[0]
                progress = progress or not task.started
                task.resume()
                if not task.done:
                    continue
                progress = True
                queue.popleft()
                if not queue:
                    del self.queues[stream]
                if task.error is not None:  # as a GPU's sticky error: the rest is dropped
                    self.queues = {}
                task.finish()
            if not progress and not self.changed:
                raise self.hang()

    def hang(self) -> ProviderError:
        """The hang of the pending work: at the op where the first stream's spins, with the
        other streams' and the launches as notes."""
        tasks = [queue[0] for _, queue in sorted(self.queues.items())]
        related: list[tuple[Operation, str]] = []
        for task in tasks:
            assert task.spin is not None
            if task is not tasks[0]:
                op, who, value = task.spin
                related.append((op, f"{who} on {agent_name(task.handle)} reads {value} here"))
            if task.op is not None:
                related.append((task.op, f"the launch on {agent_name(task.handle)}"))
        op, who, value = tasks[0].spin  # type: ignore[misc]
        return ProviderError(
            op,
            f"hang: {who} on {agent_name(tasks[0].handle)} reads {value} at '{op.name}' "
            f"again and again, and no stream's pending work changes memory (the host waits for "
            f"them)",
            "hang",
            related,
        )
