"""What the `interp` and `cpu` providers share: device memory in host memory, and streams that
run their work eagerly, in the order of the calls (one valid order of every stream; the
providers change that where streams wait for each other: `interp.streams`, `cpu.streams`).

A subclass makes its allocations (`_make_allocation`), moves bytes (`_transfer`) and runs
kernels; the session, the stream bookkeeping, the checks before a copy and the list of live
allocations are here, once.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Attribute, Operation

from gpuir.dialects.mem import GLOBAL, HOST
from gpuir.runtime import memory
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import Provider, ProviderError, Stream


class EagerHostProvider(Provider):
    """A provider whose device memory the host can address and whose streams run eagerly."""

    host_visible = True

    def __init__(self) -> None:
        super().__init__()
        self.streams: set[int] = set()
        self.next_stream = 1
        self.live: list[Allocation] = []
        self.launched_by: tuple[Any, Operation] | None = None
        """The host machine that runs the launch now and its op, when that machine checks
        token order (`gpuir.runtime.engine.token_order`): the kernel's accesses are the launch's."""

    # session

    def open(self, *, op: Operation | None = None) -> None:
        if self.is_open:
            raise ProviderError(op, f"{self.name}: the device is open already", "already open")
        self.is_open = True
        self.streams = set()

    def close(self, *, op: Operation | None = None) -> None:
        self.check_open(op)
        for allocation in self.live:
            if not allocation.freed:
                allocation.mark_freed(op)
        self.live = []
        self.streams = set()
        self.is_open = False

    # memory

    def _make_allocation(
        self, nbytes: int, pointee: Attribute, extent: int | None, op: Operation | None, what: str
    ) -> Allocation:
        """A new allocation in global memory (the subclass decides where its bytes live)."""
        raise NotImplementedError

    def _transfer(self, dst: Pointer, src: Pointer, nbytes: int, op: Operation | None) -> None:
        """Copy `nbytes` bytes from `src` to `dst`; the spaces are checked already."""
        raise NotImplementedError

    def new_allocation(
        self, nbytes: int, pointee: Attribute, extent: int | None, op: Operation | None, what: str
    ) -> Allocation:
        allocation = self._make_allocation(nbytes, pointee, extent, op, what)
        self.live = [a for a in self.live if not a.freed]
        self.live.append(allocation)
        return allocation

    def alloc(self, nbytes, pointee, extent=None, *, stream=None, op=None) -> Pointer:
        self.check_open(op)
        self.check_stream(stream, op)
        allocation = self.new_allocation(nbytes, pointee, extent, op, "global allocation")
        return Pointer(allocation, 0, pointee)

    def free(self, ptr, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        memory.free(ptr, op, GLOBAL)

    def _copy(
        self, dst: Pointer, src: Pointer, nbytes: int, spaces: tuple[int, int], op: Operation | None
    ) -> None:
        memory.check_copy_spaces(self.name, dst, src, spaces, op)
        self._transfer(dst, src, nbytes, op)

    def copy_to_device(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        self._copy(dst, src, nbytes, (HOST, GLOBAL), op)

    def copy_to_host(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)
        self._copy(dst, src, nbytes, (GLOBAL, HOST), op)

    # streams

    def check_stream(self, stream: Stream | None, op: Operation | None) -> None:
        if stream is None or stream.handle == 0 or stream.handle in self.streams:
            return
        raise ProviderError(
            op,
            f"{self.name}: {stream} does not exist (never created, or destroyed)",
            "invalid stream",
        )

    def create_stream(self, *, op=None) -> Stream:
        self.check_open(op)
        handle = self.next_stream
        self.next_stream += 1
        self.streams.add(handle)
        return Stream(handle)

    def sync_stream(self, stream, *, op=None) -> None:
        self.check_open(op)
        self.check_stream(stream, op)

    def destroy_stream(self, stream, *, op=None) -> None:
        self.check_open(op)
        if stream.handle == 0:
            raise ProviderError(
                op, f"{self.name}: the default stream cannot be destroyed", "invalid stream"
            )
        self.check_stream(stream, op)
        self.streams.discard(stream.handle)

    def synchronize(self, *, op=None) -> None:
        self.check_open(op)
