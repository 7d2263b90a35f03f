"""The cpu provider's streams: each stream's work, in order, on a thread of its own, so that
work on two streams that no sync orders runs at the same time (docs/cpu-provider.md,
"Streams").

A stream's thread starts with the stream's first piece of work and ends with the stream
(`gpu.stream_deinit`) or the session. The default stream and blocking calls (`stream=None`)
stay on the calling thread, after every stream's work (CUDA's legacy default stream), so a
program that makes no stream runs no thread and waits for nothing.

A failure on a stream's thread stops the stream's later work; the host sees it at its next
wait for that stream (a sync, the stream's end, a blocking call, the session's end), as a GPU
reports a kernel's fault at a later call.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

Work = Callable[[], None]


class StreamThread:
    """One stream's thread and its queue of work."""

    def __init__(self, name: str) -> None:
        self.queue: deque[Work | None] = deque()
        self.ready = threading.Condition()
        self.pending = 0
        """Work queued or running."""
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.serve, name=name, daemon=True)
        self.thread.start()

    def put(self, work: Work | None) -> None:
        with self.ready:
            if work is not None:
                self.pending += 1
            self.queue.append(work)
            self.ready.notify_all()

    def serve(self) -> None:
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                work = self.queue.popleft()
            if work is None:
                return
            try:
                if self.error is None:  # after a failure the stream's work is skipped
                    work()
            except BaseException as e:  # noqa: BLE001  # the host raises it at its next wait
                self.error = e
            finally:
                with self.ready:
                    self.pending -= 1
                    self.ready.notify_all()

    def drain(self) -> None:
        """Wait until the queued work has run; its first failure, raised (once)."""
        with self.ready:
            while self.pending:
                self.ready.wait()
        error, self.error = self.error, None
        if error is not None:
            raise error

    def stop(self) -> None:
        self.put(None)
        self.thread.join()


class Streams:
    """The threads of the streams that have had work, by handle."""

    def __init__(self) -> None:
        self.threads: dict[int, StreamThread] = {}

    def submit(self, handle: int, work: Work) -> None:
        """Queue `work` on stream `handle`'s thread (started at its first work)."""
        found = self.threads.get(handle)
        if found is None:
            found = self.threads[handle] = StreamThread(f"gpuir-stream-{handle}")
        found.put(work)

    def wait(self, handle: int) -> None:
        """Wait for stream `handle`'s work (none: nothing to wait for)."""
        found = self.threads.get(handle)
        if found is not None:
            found.drain()

    def wait_all(self) -> None:
        """Wait for every stream's work; the first failure (by handle), raised after all of
        them finished."""
        first: BaseException | None = None
        for handle in sorted(self.threads):
            try:
                self.threads[handle].drain()
            except BaseException as e:  # noqa: BLE001  # raised once every stream is idle
                first = first or e
        if first is not None:
            raise first

    def end(self, handle: int) -> None:
        """Wait for stream `handle`'s work, then stop its thread."""
        found = self.threads.pop(handle, None)
        if found is None:
            return
        try:
            found.drain()
        finally:
            found.stop()

    def abandon(self) -> None:
        """Forget every stream's thread without waiting: each ends after its running work
        (a daemon thread: a kernel that waits forever does not keep the process)."""
        for found in self.threads.values():
            found.error = RuntimeError("abandoned")  # its queued work is skipped
            found.put(None)
        self.threads.clear()  # the same dict: a launcher holds it

    def end_all(self) -> None:
        try:
            self.wait_all()
        finally:
            for handle in list(self.threads):
                self.threads.pop(handle).stop()
