"""One process's wall time and peak memory, measured from a small launcher, not from the
benchmark's own process.

Linux keeps a process's peak resident memory (`ru_maxrss`) across `execve`, and a child made by
`fork` or `vfork` starts from its parent's: a row measured straight from `run_all.py` (which has
grown to hundreds of MB by the time the sanitizer rows run) reports at least the parent's peak,
whatever it runs. So `run` starts a bare `python -S` launcher (a few MB), which forks and
execs the command and reports the child's `wait4` figures over a pipe of its own.

    seconds, peak_mb, returncode = run(["gpu-run", "prog.mlir"], stdout=f, stderr=g)
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import IO

LAUNCHER = """
import os, sys, time
report = int(sys.argv[1])
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.close(report)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
os.write(report, f"{seconds} {usage.ru_maxrss}".encode())
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
"""


def run(
    command: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    stdout: IO[str] | int | None = None,
    stderr: IO[str] | int | None = None,
) -> tuple[float, float, int]:
    """Wall seconds, peak resident memory in MB and exit status of `command` as a process of
    its own."""
    read, write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-S", "-c", LAUNCHER, str(write), *command],
            cwd=cwd,
            env=None if env is None else dict(env),
            stdout=stdout,
            stderr=stderr,
            pass_fds=(write,),
        )
        os.close(write)
        write = -1
        with os.fdopen(read, "rb") as pipe:
            read = -1
            figures = pipe.read().decode()
        returncode = process.wait()
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)
    if not figures:
        raise RuntimeError(f"{' '.join(command)}: the launcher reported nothing")
    seconds, peak_kb = figures.split()
    return float(seconds), int(peak_kb) / 1024, returncode
