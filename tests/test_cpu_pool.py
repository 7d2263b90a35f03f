"""The cpu provider's native threads (`gpuir.runtime.cpu.pool`): every work-group of every
launch runs exactly once, whatever the number of groups and threads; faults on any thread are
caught launch after launch and name the lowest faulting group; launches from several Python
threads at once; a child process after `fork` still launches.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
from kernels import if_then, kernel, store

import gpuir
from gpuir.api import ProviderError
from gpuir.runtime.cpu import THREADS_ENV, faults, pool

pytestmark = pytest.mark.skipif(pool.pool(2) is None, reason="no native threads here")

COUNT = kernel(
    "count",
    "%group: index, %item: index, %runs: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %first = arith.cmpi eq, %item, %c0 : index
"""
    + if_then(
        "%r1",
        "%first",
        """
    %p = mem.lea %runs, %group : !mem.ptr<!mem.array<? x i32>, 1>
    %a1, %old = mem.atomic_rmw "add" %m1, %p, %one : !mem.ptr<i32, 1>""",
        "%a1",
    ),
    "%r1, %m3, %m4, %m5",
)
"""`runs[group] += 1` by item 0 of each group."""
WILD = kernel(
    "wild",
    "%group: index, %item: index, %from: index, %p: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %c0 = arith.constant 0 : index
  %far = arith.constant 100000000000 : index
  %v = arith.constant 7 : i32
  %first = arith.cmpi eq, %item, %c0 : index
  %late = arith.cmpi uge, %group, %from : index
  %bad = arith.andi %first, %late : i1
"""
    + if_then("%r1", "%bad", store("%a1", "%m1", "%p", "%far", "%v", "i32"), "%a1"),
    "%r1, %m3, %m4, %m5",
)
"""Item 0 of each group from `from` on stores 10^11 elements past `p`: a fault."""
KERNELS = COUNT + WILD


@pytest.mark.parametrize("workers", [2, 3, 5])
def test_every_group_of_every_launch_runs_once(workers):
    rng = np.random.default_rng(workers)
    sizes = rng.integers(2, 3000, size=150)
    with gpuir.Device("cpu") as device:
        device.provider.workers = workers  # more threads than cores, too
        count = device.compile(KERNELS).kernel("count")
        runs = device.upload(np.zeros(int(sizes.max()), np.int32))
        for n_groups in sizes:
            count(int(n_groups), 4, runs)
        device.synchronize()
        got = runs.download()
    expected = (sizes[:, None] > np.arange(int(sizes.max()))[None, :]).sum(axis=0)
    assert np.array_equal(got, expected)


@pytest.mark.skipif(faults.install() is None, reason="no fault guard here")
@pytest.mark.parametrize("workers", [2, 4])
def test_faults_on_every_thread_are_caught_launch_after_launch(workers):
    with gpuir.Device("cpu") as device:
        device.provider.workers = workers
        program = device.compile(KERNELS)
        wild, count = program.kernel("wild"), program.kernel("count")
        p = device.upload(np.zeros(16, np.int32))
        for launch in range(12):
            first_bad = 5 + 37 * launch
            # every group from first_bad on faults, on whichever thread runs it
            with pytest.raises(ProviderError, match=rf"in work-group {first_bad}$"):
                wild(4000, 8, first_bad, p)
        runs = device.upload(np.zeros(4000, np.int32))
        count(4000, 8, runs)
        wild(4000, 8, 4000, p)  # no group faults
        device.synchronize()
        assert np.array_equal(runs.download(), np.ones(4000, np.int32))


def test_launches_from_several_python_threads_at_once():
    with gpuir.Device("cpu") as device:
        program = device.compile(KERNELS)
        buffers = [device.upload(np.zeros(500, np.int32)) for _ in range(4)]
        errors: list[BaseException] = []

        def launches(runs) -> None:
            try:
                count = program.kernel("count")
                for _ in range(25):
                    count(500, 16, runs)
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=launches, args=(b,)) for b in buffers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        device.synchronize()
        assert not errors
        for runs in buffers:
            assert np.array_equal(runs.download(), np.full(500, 25, np.int32))


def test_a_child_process_after_fork_still_launches():
    script = textwrap.dedent(
        f"""
        import os, sys
        import numpy as np
        import gpuir
        COUNT = {COUNT!r}
        with gpuir.Device("cpu") as device:
            count = device.compile(COUNT).kernel("count")
            runs = device.upload(np.zeros(300, np.int32))
            count(300, 4, runs)  # the pool's threads exist now
            pid = os.fork()
            if pid == 0:
                count(300, 4, runs)  # the child's own copy, on its calling thread
                device.synchronize()
                os._exit(0 if (runs.download() == 2).all() else 3)
            _, status = os.waitpid(pid, 0)
            count(300, 4, runs)
            device.synchronize()
            assert (runs.download() == 2).all()
            sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()


def test_a_launch_runs_on_the_cpus_the_process_may_use(monkeypatch):
    """`taskset -c 0` or a container's cpuset: one thread, not one per core of the machine
    (two threads on one core took 17% longer on a 16M saxpy)."""
    from gpuir.runtime.cpu import CpuProvider

    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3})
    assert CpuProvider().workers == 1
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 2, 5})
    assert CpuProvider().workers == 3


def test_gpuir_cpu_threads_sets_the_threads_of_a_launch(monkeypatch):
    monkeypatch.setenv(THREADS_ENV, "3")
    with gpuir.Device("cpu") as device:
        assert device.provider.workers == 3
        count = device.compile(KERNELS).kernel("count")
        runs = device.upload(np.zeros(777, np.int32))
        count(777, 4, runs)
        count(500, 4, runs)
        device.synchronize()
        expected = np.where(np.arange(777) < 500, 2, 1).astype(np.int32)
        assert np.array_equal(runs.download(), expected)


@pytest.mark.parametrize("setting", ["0", "two", "-1"])
def test_a_bad_gpuir_cpu_threads_is_refused(monkeypatch, setting):
    from gpuir.runtime import ProviderUnavailable
    from gpuir.runtime.cpu import CpuProvider

    monkeypatch.setenv(THREADS_ENV, setting)
    with pytest.raises(
        ProviderUnavailable,
        match=rf"GPUIR_CPU_THREADS must be a positive integer, found '{setting}'",
    ):
        CpuProvider()
