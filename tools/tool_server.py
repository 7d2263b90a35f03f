"""gpu-opt and gpu-run kept running in one process: gpu-reduce's built-in tests call them once per
candidate, and a process per call spent most of its time starting (importing xDSL, the dialects
and the passes; ~0.5 s a call on 2 cores) rather than testing.

The server (`python -m gpuir.tools.tool_server FD`) reads one request a line on stdin, a JSON
list: the tool's name and its arguments (`["gpu-run", "x.mlir", "--provider", "interp"]`). It
calls the tool's `main` with `sys.stdout` and `sys.stderr` captured and answers on the file
descriptor FD (not on stdout, where native code may write) with one JSON line: `{"returncode",
"stdout", "stderr"}`. It ends when stdin closes.

Where a fork server is reachable (`GPUIR_TOOL_SERVER`: lit's and pytest's, or the user's own),
the server is a fork of it (`gpu-reduce` then starts in milliseconds, not the second of a new
Python's imports): its launcher's stdout is the answers' pipe, and the server points its own
file descriptor 1 at stderr before it serves.

The client (`ToolServer`) starts a server on first use, and starts a new one where the last died
(a crash of native code: the call's result is its signal, as a subprocess's would be), ran past
the timeout (it is killed; the call answers None), or has served `MAX_CALLS` calls (what a tool
keeps from call to call, its caches, stays bounded).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout, suppress
from io import StringIO

from gpuir.tools.launch import SERVER_ENV, tool_main

MAX_CALLS = 200
SERVED = "import sys; from gpuir.tools.launch import run; sys.exit(run('tool-server'))"
"""A tool server started through the fork server (`python -c SERVED 1`)."""


def call(argv: list[str]) -> dict[str, object]:
    """Run a tool in this process: its exit status and what it printed."""
    name, args = argv[0], argv[1:]
    main = tool_main(name)
    if main is None:
        return {"returncode": 2, "stdout": "", "stderr": f"tool-server: no tool '{name}'\n"}
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(args)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return {"returncode": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main(argv: list[str]) -> int:
    """`tool-server FD`: serve, answering on FD; on 1, stdout (a fork server's call), after
    pointing file descriptor 1 at stderr, where native code's writes then go."""
    answers = int(argv[0])
    if answers == 1:
        answers = os.dup(1)
        os.dup2(2, 1)
    serve(answers)
    return 0


def serve(answers: int) -> None:
    with os.fdopen(answers, "w") as out:
        for line in sys.stdin:
            out.write(json.dumps(call(json.loads(line))) + "\n")
            out.flush()


class ToolServer:
    """A server for one thread of calls (module docstring)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.answers = -1
        self.calls = 0

    def run(self, argv: list[str], timeout: float) -> subprocess.CompletedProcess[str] | None:
        """`argv` (a tool's name and arguments) as a subprocess would give it; None when it
        ran past `timeout` seconds."""
        if self.process is None or self.calls >= MAX_CALLS:
            self.start()
        assert self.process is not None and self.process.stdin is not None
        self.calls += 1
        try:
            self.process.stdin.write(json.dumps(argv) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            return self.died(argv)
        line = self.read_line(timeout)
        if line is None:
            self.stop()
            return None
        if not line:
            return self.died(argv)
        answer = json.loads(line)
        return subprocess.CompletedProcess(
            argv, answer["returncode"], answer["stdout"], answer["stderr"]
        )

    def read_line(self, timeout: float) -> str | None:
        """The server's next answer; "" where it died, None where it ran past `timeout`."""
        data = b""
        while not data.endswith(b"\n"):
            ready, _, _ = select.select([self.answers], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.answers, 1 << 16)
            if not chunk:
                return ""
            data += chunk
        return data.decode()

    def died(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        assert self.process is not None
        status = self.process.wait()
        self.stop()
        return subprocess.CompletedProcess(argv, status, "", "")

    def start(self) -> None:
        self.stop()
        read, write = os.pipe()
        if os.environ.get(SERVER_ENV, "0") != "0":  # a fork of the fork server
            command, out, passed = [sys.executable, "-c", SERVED, "1"], write, ()
        else:
            command = [sys.executable, "-m", "gpuir.tools.tool_server", str(write)]
            out, passed = subprocess.DEVNULL, (write,)
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.DEVNULL,
            text=True,
            pass_fds=passed,
        )
        os.close(write)
        self.answers = read
        self.calls = 0

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            if self.process.stdin is not None:
                with suppress(OSError):  # what a dead server did not read
                    self.process.stdin.close()
            self.process = None
        if self.answers >= 0:
            os.close(self.answers)
            self.answers = -1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
