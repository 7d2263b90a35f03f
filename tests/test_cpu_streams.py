"""The cpu provider's stream threads (runtime/cpu/streams.py): each stream's work in order on a
thread of its own, two streams at once, a failure raised at the host's next wait, and abandoned
streams not waited for."""

from __future__ import annotations

import threading

import pytest

from gpuir.runtime.cpu.streams import Streams


def test_each_stream_runs_its_work_in_order_on_a_thread_of_its_own():
    streams = Streams()
    seen: list[tuple[int, int, str]] = []
    for k in range(5):
        for handle in (1, 2):
            streams.submit(
                handle, lambda h=handle, k=k: seen.append((h, k, threading.current_thread().name))
            )
    streams.end_all()
    for handle in (1, 2):
        mine = [(k, name) for h, k, name in seen if h == handle]
        assert [k for k, _ in mine] == list(range(5))
        assert {name for _, name in mine} == {f"gpuir-stream-{handle}"}
    assert streams.threads == {}


def test_two_streams_run_at_the_same_time():
    """Stream 1's work waits for stream 2's, put there after it: one after the other, it would
    wait forever (the timeout says so)."""
    streams = Streams()
    flag = threading.Event()
    waited: list[bool] = []
    streams.submit(1, lambda: waited.append(flag.wait(timeout=30)))
    streams.submit(2, flag.set)
    streams.wait_all()
    assert waited == [True]
    streams.end_all()


def test_a_failure_is_raised_at_the_next_wait_and_skips_the_streams_later_work():
    streams = Streams()
    ran: list[int] = []

    def fail() -> None:
        raise ValueError("the launch failed")

    streams.submit(1, lambda: ran.append(1))
    streams.submit(1, fail)
    streams.submit(1, lambda: ran.append(3))
    streams.submit(2, lambda: ran.append(2))
    with pytest.raises(ValueError, match="the launch failed"):
        streams.wait(1)
    streams.wait(1)  # raised once
    streams.wait_all()
    assert sorted(ran) == [1, 2]
    streams.end_all()


def test_abandoned_streams_are_not_waited_for():
    streams = Streams()
    release = threading.Event()
    streams.submit(1, lambda: release.wait(timeout=30))
    threads = streams.threads
    streams.abandon()  # returns at once, though the work still runs
    assert streams.threads == {} and threads is streams.threads
    release.set()
