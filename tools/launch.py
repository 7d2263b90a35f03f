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
import sys


def forward(tool: str, args: list[str]) -> int | None:
    """The exit status of the call run by the server; None where there is none to reach."""
    path = os.environ.get("GPUIR_TOOL_SERVER")
    if not path:
        return None
    from gpuir.tools.forkserver import HEADER, STATUS

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    env = {k: v for k, v in os.environ.items() if k != "GPUIR_TOOL_SERVER"}
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
    from gpuir.tools.forkserver import tool_main

    return tool_main(tool)(args)


def gpu_opt() -> int:
    return run("gpu-opt")


def gpu_run() -> int:
    return run("gpu-run")


def gpu_reduce() -> int:
    return run("gpu-reduce")
