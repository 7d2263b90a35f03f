"""The console scripts' entry: `gpu-opt`, `gpu-run` and `gpu-reduce` start here. Where
`$GPUIR_TOOL_SERVER` names the socket of a fork server (`gpuir.tools.forkserver`, which lit's
configuration starts), the call runs there, in a fresh fork of a process that has imported
everything already; otherwise, and where the server cannot be reached, here. Light on purpose:
this module imports nothing of gpuir's or xDSL's before it knows which.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
from collections.abc import Callable
from importlib import import_module

SERVER_ENV = "GPUIR_TOOL_SERVER"
HEADER = struct.Struct("<I")
"""A call's first bytes: the length of its JSON header."""
STATUS = struct.Struct("<i")
"""The server's answer: the exit status, or minus the signal that ended the call."""
TOOLS = {
    "gpu-opt": "gpuir.tools.gpu_opt",
    "gpu-run": "gpuir.tools.gpu_run",
    "gpu-reduce": "gpuir.tools.gpu_reduce",
}
"""Each tool's module, whose `main(argv) -> int` runs it: the console scripts, the fork server
and the tool server call the tools through this one table."""


FILECHECK = "filecheck"
"""The Python `filecheck` (a test dependency, not gpuir's): lit's RUN lines pipe into it about
as often as they call the tools, so the fork server runs it too (`filecheck_main`)."""


def tool_main(name: str) -> Callable[[list[str]], int] | None:
    """The `main` of the tool `name`; None for a name that is no tool."""
    if name == FILECHECK:
        return filecheck_main
    module = TOOLS.get(name)
    return None if module is None else import_module(module).main


def filecheck_main(args: list[str]) -> int:
    """The Python `filecheck` on `args`: its `main` takes the whole argv, and exits with the
    check's status."""
    from filecheck.main import main

    main([FILECHECK, *args])
    return 0


def forward(tool: str, args: list[str]) -> int | None:
    """The exit status of the call run by the server; None where there is none to reach."""
    path = os.environ.get(SERVER_ENV)
    if not path:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    env = {k: v for k, v in os.environ.items() if k != SERVER_ENV}
    message = json.dumps({"tool": tool, "args": args, "cwd": os.getcwd(), "env": env}).encode()
    sys.stdout.flush()
    sys.stderr.flush()
    socket.send_fds(connection, [HEADER.pack(len(message)) + message], [0, 1, 2])
    answer = b""
    while len(answer) < STATUS.size:
        chunk = connection.recv(STATUS.size - len(answer))
        if not chunk:
            print(f"{tool}: error: the tool server ({path}) ended the call", file=sys.stderr)
            return 1
        answer += chunk
    code = STATUS.unpack(answer)[0]
    if code < 0:  # killed by a signal: so is this process, as the caller expects
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def run(tool: str) -> int:
    args = sys.argv[1:]
    code = forward(tool, args)
    if code is not None:
        return code
    main = tool_main(tool)
    assert main is not None
    return main(args)


def gpu_opt() -> int:
    return run("gpu-opt")


def gpu_run() -> int:
    from gpuir.tools import warm  # light: the standard library only

    code = warm.run(sys.argv[1:])
    return run("gpu-run") if code is None else code


def gpu_reduce() -> int:
    return run("gpu-reduce")


def filecheck() -> int:
    """The Python `filecheck` through the fork server (lit's configuration installs a
    `filecheck` command that calls this, `gpuir.tools.lit_config.use_tool_server`)."""
    return run(FILECHECK)
