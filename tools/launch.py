"""The console scripts' entry: `gpu-opt`, `gpu-run` and `gpu-reduce` start here. Where
`$GPUIR_TOOL_SERVER` names the socket of a fork server (`gpuir.tools.forkserver`, which lit's
configuration starts), the call runs there, in a fresh fork of a process that has imported
everything already; otherwise, and where the server cannot be reached, here. Light on purpose:
this module imports nothing of gpuir's or xDSL's before it knows which, and of the standard
library only what a forwarded call needs (a call's header is `marshal`'s, not JSON: the server
runs the same Python).

`GPUIR_TOOL_SERVER=auto` asks for a server of the user's own (`auto_server`): the first call
starts one (its imports, about a second, once), later calls run in it, and it ends after
`GPUIR_TOOL_SERVER_IDLE` seconds without a call (default 900). One server serves one Python
with one state of gpuir's sources and of its site-packages: an edit of gpuir or an installed
plugin makes the next call start a new one (`fingerprint`).
"""

from __future__ import annotations

import _socket
import marshal
import os
import struct
import sys

TYPE_CHECKING = False  # typing's own costs 10 ms of a call's start
if TYPE_CHECKING:
    from collections.abc import Callable

SERVER_ENV = "GPUIR_TOOL_SERVER"
AUTO = "auto"
IDLE_ENV = "GPUIR_TOOL_SERVER_IDLE"
IDLE_S = 900.0
START_S = 60.0
"""How long a call waits for the server it started to listen."""
HEADER = struct.Struct("<I")
"""A call's first bytes: the length of its header (a `marshal`led dict)."""
STATUS = struct.Struct("<i")
"""The server's answer: the exit status, or minus the signal that ended the call."""
TOOLS = {
    "gpu-opt": "gpuir.tools.gpu_opt",
    "gpu-run": "gpuir.tools.gpu_run",
    "gpu-reduce": "gpuir.tools.gpu_reduce",
    "tool-server": "gpuir.tools.tool_server",
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
    if module is None:
        return None
    from importlib import import_module

    return import_module(module).main


def filecheck_main(args: list[str]) -> int:
    """The Python `filecheck` on `args`: its `main` takes the whole argv, and exits with the
    check's status."""
    from filecheck.main import main

    main([FILECHECK, *args])
    return 0


def forward(tool: str, args: list[str], tried_warm: bool = False) -> int | None:
    """The exit status of the call run by the server; None where there is none to reach.
    `tried_warm`: a gpu-run call whose warm path (`gpuir.tools.warm`) was tried here already,
    which the server then does not try again (it does for a caller that has none: lit's C
    client, `tools/tool_client.c`)."""
    path = os.environ.get(SERVER_ENV)
    if not path or path == "0":
        return None
    auto = path == AUTO
    if auto:
        path = auto_server()
        if path is None:
            return None
    connection = connect(path)
    if connection is None and auto and os.path.exists(path):  # a server that is gone
        try:
            os.unlink(path)
        except OSError:
            pass
        path = auto_server()
        connection = None if path is None else connect(path)
    if connection is None:
        return None
    env = {k: v for k, v in os.environ.items() if k != SERVER_ENV}
    call = {"tool": tool, "args": args, "cwd": os.getcwd(), "env": env}
    if tried_warm:
        call["tried_warm"] = True
    message = marshal.dumps(call)
    sys.stdout.flush()
    sys.stderr.flush()
    fds = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack("3i", 0, 1, 2))
    connection.sendmsg([HEADER.pack(len(message)) + message], [fds])
    answer = b""
    while len(answer) < STATUS.size:
        chunk = connection.recv(STATUS.size - len(answer))
        if not chunk:
            print(f"{tool}: error: the tool server ({path}) ended the call", file=sys.stderr)
            return 1
        answer += chunk
    code = STATUS.unpack(answer)[0]
    if code < 0:  # killed by a signal: so is this process, as the caller expects
        import signal

        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def connect(path: str) -> _socket.socket | None:
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    return connection


def fingerprint(roots: list[str]) -> str:
    """What the server of this call must have imported: this Python, the modification times
    of gpuir's sources (under `roots[0]`, its package folder) and of the other folders of
    `roots` (site-packages: an installed or removed plugin changes it)."""
    newest, count = 0, 0
    pending = [roots[0]]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.name.startswith(".") or entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in ("tests", "benchmarks", "examples", "docs"):
                        pending.append(entry.path)
                elif entry.name.endswith(".py"):
                    newest = max(newest, entry.stat().st_mtime_ns)
                    count += 1
    state = [os.path.realpath(sys.executable), str(newest), str(count)]
    for root in roots[1:]:
        try:
            state.append(str(os.stat(root).st_mtime_ns))
        except OSError:
            pass
    import zlib

    return f"{zlib.crc32(chr(0).join(state).encode()):08x}"


def auto_path() -> str:
    """The user's server's socket for this state of gpuir, without `.sock`: in
    `$XDG_RUNTIME_DIR` (else `$TMPDIR`, else /tmp), named by the user and `fingerprint`."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    site = [p for p in sys.path if p.endswith("-packages") and os.path.isdir(p)]
    folder = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    return os.path.join(folder, f"gpuir-tools-{os.getuid()}-{fingerprint([package, *site])}")


def auto_server() -> str | None:
    """The socket of the user's server for this state of gpuir (`fingerprint`), started
    (detached, ending when idle) when there is none; None where it cannot start."""
    path = auto_path()
    socket_path = path + ".sock"
    if os.path.exists(socket_path):
        return socket_path
    import fcntl
    import subprocess
    import time

    try:
        with open(path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one caller starts it; the others wait for it
            if not os.path.exists(socket_path):
                idle = os.environ.get(IDLE_ENV, str(IDLE_S))
                server = subprocess.Popen(
                    [sys.executable, "-m", "gpuir.tools.forkserver", socket_path, idle],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                deadline = time.monotonic() + START_S
                while not os.path.exists(socket_path) and time.monotonic() < deadline:
                    if server.poll() is not None:  # it failed to start: run here, at once
                        break
                    time.sleep(0.02)
    except OSError:
        return None
    return socket_path if os.path.exists(socket_path) else None


def run(tool: str, tried_warm: bool = False) -> int:
    args = sys.argv[1:]
    code = forward(tool, args, tried_warm)
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
    return run("gpu-run", tried_warm=True) if code is None else code


def gpu_reduce() -> int:
    return run("gpu-reduce")


def filecheck() -> int:
    """The Python `filecheck` through the fork server (lit's configuration installs a
    `filecheck` command that calls this, `gpuir.tools.lit_config.use_tool_server`)."""
    return run(FILECHECK)
