"""A fork server for the command-line tools: a process that has imported gpu-opt, gpu-run and
gpu-reduce (xDSL, the dialects, the passes, LLVM) once, and forks a fresh copy of itself for each
call. A lit suite calls the tools a thousand times; each call then starts in milliseconds
instead of paying the imports (0.25–0.5 s on 2 cores), and still runs in a process of its own:
its own environment, working directory, standard streams, exit status and signals, nothing kept
from one call to the next.

    python -m gpuir.tools.forkserver SOCKET     # serve; tools/launch.py is the client

A call (`gpuir.tools.launch`, the console scripts' entry) sends, over the UNIX socket SOCKET, a
`marshal`led header (the tool, its arguments, the working directory, the environment) and its
stdin, stdout and stderr as file descriptors. The server forks a supervisor, which forks the worker,
waits for it and answers the worker's exit status, or minus the signal that killed it. Where
the caller goes away first (lit's timeout kills it), the supervisor kills the worker.

`start_server(folder)` starts one and waits until it listens (lit's configuration does:
`gpuir.tools.lit_config`); `GPUIR_TOOL_SERVER` names its socket to the tools. With
`GPUIR_TOOL_SERVER=auto` the tools start one themselves, for the user, and it ends when idle
(`gpuir.tools.launch.auto_server`).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import socket
import subprocess
import sys
import time
from importlib import import_module

from gpuir.tools.launch import HEADER, STATUS, TOOLS, tool_main

PRELOADED = (
    "gpuir.passes.gpu_pipeline",
    "gpuir.lowering.cpu.cpu_llvm",
    "gpuir.lowering.host.host_to_llvm",
    "gpuir.lowering.targets",
    "gpuir.runtime.compiled_host",
    "gpuir.runtime.cpu.provider",
    "gpuir.runtime.cpu.compiled",
    "gpuir.runtime.interp",
)
"""What gpu-run and gpu-opt's targets import when they first need it: imported here once, not
in every call's fork (about 0.3 s of a cold gpu-run). Modules only: no thread, pool or
machine state that a fork would not carry."""


def warm_up() -> None:
    """Import what the tools import on every call and what their runs import later
    (`PRELOADED`), initialize LLVM's native target, and load the dialects a program names."""
    from gpuir.dialects import get_all_dialects, make_context

    for name in TOOLS:
        tool_main(name)  # imports the tool
    with contextlib.suppress(ImportError):  # the Python filecheck, where installed
        import filecheck.main  # noqa: F401
    for module in PRELOADED:
        import_module(module)
    from llvmlite import binding

    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    ctx = make_context()
    for name in ("builtin", "func", "arith", "scf", "cf", "math", "memref", "llvm"):
        ctx.get_optional_dialect(name)
    for factory in get_all_dialects().values():
        factory()
    from gpuir.ir.registry import all_passes

    all_passes()
    rehearse()


REHEARSAL = """\
func.func @same(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index,
    %item: index, %x: !mem.ptr<!mem.array<4 x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %p = mem.lea %x, %item : !mem.ptr<!mem.array<4 x f32>, 1>
  %t1, %v = mem.load %m1, %p : !mem.ptr<f32, 1>
  %t2 = mem.store %t1, %p, %v : !mem.ptr<f32, 1>
  func.return %t2, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, f32) {
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %r = arith.constant 2.0 : f32
  %stream = gpu.default_stream
  %m0, %m1, %m4 = gpu.init %m
  %d1, %x = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x f32>, 1>
  %l0, %l1, %l4 = gpu.launch @same grid(%one, %four) stream(%stream) mems(%m0, %d1, %m4)
      args(%x) : (!mem.ptr<!mem.array<4 x f32>, 1>)
  %f1 = gpu.free.block %l1, %x : !mem.ptr<!mem.array<4 x f32>, 1>
  %done = gpu.deinit %l0, %f1, %l4
  func.return %done, %r : !mem.M<0>, f32
}
"""
"""A small clean program that `rehearse` runs through the tools (its kernel loads and stores
back each element)."""
UPSTREAM_REHEARSAL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%x: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc() : memref<4xf32>
    %x = gpu.alloc () : memref<4xf32>
    gpu.memcpy %x, %h : memref<4xf32>, memref<4xf32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%x : memref<4xf32>)
    gpu.memcpy %h, %x : memref<4xf32>, memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %x : memref<4xf32>
    memref.dealloc %h : memref<4xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
"""
"""The same in MLIR's own dialects, which gpu-opt and gpu-run import first (the lit suite's
`upstream/` tests)."""
REHEARSALS = (
    (REHEARSAL, "gpu-opt", ()),
    (REHEARSAL, "gpu-opt", ("-p", "gpu-pipeline")),
    (REHEARSAL, "gpu-opt", ("-t", "llvm")),
    (REHEARSAL, "gpu-run", ("--provider", "interp")),
    (REHEARSAL, "gpu-run", ("--provider", "cpu")),
    (UPSTREAM_REHEARSAL, "gpu-opt", ()),
    (UPSTREAM_REHEARSAL, "gpu-run", ("--provider", "interp")),
    (UPSTREAM_REHEARSAL, "gpu-run", ("--provider", "cpu")),
)
"""What `rehearse` runs: a program, a tool, its arguments after the program's file."""
REHEARSAL_ENV = {"GPUIR_CACHE": "0", "GPUIR_CPU_THREADS": "1"}
"""The rehearsal's environment: no disk cache written, no thread pool started."""


def rehearse() -> list[int | None]:
    """Run each tool once here, on small programs (`REHEARSALS`), its output dropped: what a first call fills in
    (xDSL's and the passes' lazy tables, argparse's, LLVM's) is then filled in before the fork,
    and a call's fork starts from it, not from nothing (a served gpu-run on interp: 17 ms
    instead of 49; on cpu, a cold compile 0.1 s less). The calls' exit statuses (None: an
    exception); a tool that fails here only makes the calls slower. Nothing is kept on disk
    (`GPUIR_CACHE=0`) and no thread is started (`GPUIR_CPU_THREADS=1`: a fork would not have
    it)."""
    import io
    import tempfile

    statuses: list[int | None] = []
    saved = {name: os.environ.get(name) for name in REHEARSAL_ENV}
    os.environ.update(REHEARSAL_ENV)
    with tempfile.TemporaryDirectory(prefix="gpuir-rehearsal-") as folder:
        for program, tool, args in REHEARSALS:
            path = os.path.join(folder, f"rehearsal-{len(statuses)}.mlir")
            with open(path, "w", encoding="utf-8") as f:
                f.write(program)
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                try:
                    main = tool_main(tool)
                    assert main is not None
                    statuses.append(main([path, *args]))
                except BaseException:  # noqa: BLE001  # a slower start, never a dead server
                    statuses.append(None)
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    return statuses


def serve(path: str, idle: float | None = None) -> None:
    """Serve calls on the socket `path`; with `idle`, end after that many seconds without a
    call (removing the socket), as the server that `GPUIR_TOOL_SERVER=auto` starts does."""
    warm_up()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # supervisors are reaped by the kernel
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    listener.listen(64)
    os.replace(path + ".tmp", path)  # the socket appears when it listens
    own = os.stat(path).st_ino
    listener.settimeout(idle)
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:  # idle: go, and take the socket along unless another took it
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == own:
                    os.unlink(path)
            return
        connection.setblocking(True)
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                supervise(connection)
            finally:
                os._exit(0)
        connection.close()


def supervise(connection: socket.socket) -> None:
    """Read a call, fork its worker, answer its status."""
    # the descriptors come with the first bytes: the first read takes both
    data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    while len(data) < HEADER.size:
        data += receive(connection, HEADER.size - len(data))
    size = HEADER.unpack(data[: HEADER.size])[0]
    message = data[HEADER.size :]
    if len(message) < size:
        message += receive(connection, size - len(message))
    if len(fds) != 3:
        raise ConnectionError("a call came without its standard streams")
    call = marshal.loads(message)
    worker = os.fork()
    if worker == 0:
        connection.close()
        run_worker(call, fds)
    for fd in fds:
        os.close(fd)
    ended = worker_end(worker)
    while True:
        done, status = os.waitpid(worker, os.WNOHANG)
        if done:
            break
        # the worker's end (its pidfd) or the caller's: woken at once, not polled
        readable, _, _ = select.select([connection, *ended], [], [], POLL_S)
        if connection in readable and not connection.recv(1):  # the caller is gone: so is
            os.kill(worker, signal.SIGKILL)  # its call
            os.waitpid(worker, 0)
            return
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    connection.sendall(STATUS.pack(code))


POLL_S = 0.05
"""Where there is no pidfd (Linux before 5.3): how often the supervisor looks for the
worker's end."""


def worker_end(pid: int) -> list[int]:
    """A descriptor that becomes readable when process `pid` ends (its pidfd), where the
    system has one."""
    try:
        return [os.pidfd_open(pid)]
    except (AttributeError, OSError):
        return []


def run_worker(call: dict, fds: list[int]) -> None:
    """The call, in this fresh fork: the caller's streams, directory and environment."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(call["cwd"])
        os.environ.clear()
        os.environ.update(call["env"])
        # the caller's streams, buffered as Python buffers its own: stdout by line on a
        # terminal and by block elsewhere, stderr by line (the order of `2>&1` output)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", closefd=False, buffering=1 if os.isatty(1) else -1)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False, buffering=1, errors="backslashreplace")  # noqa: SIM115
        sys.argv = [call["tool"], *call["args"]]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        main = tool_main(call["tool"])
        if main is None:
            print(f"tool server: no tool '{call['tool']}'", file=sys.stderr)
            os._exit(2)
        warm = None
        if call["tool"] == "gpu-run" and not call.get("tried_warm"):  # as the launcher does
            from gpuir.tools import warm as warm_path

            warm = warm_path.run(call["args"])
        code = main(call["args"]) if warm is None else warm
        code = code if isinstance(code, int) else 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # uncaught (GPUIR_DEBUG=1 raises): the traceback Python would print
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                pass
        os._exit(code & 0xFF)


def receive(connection: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = connection.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the caller closed the connection")
        data += chunk
    return data


def start_server(folder: str, timeout: float = 120.0) -> tuple[subprocess.Popen[bytes], str]:
    """A server listening on a socket in `folder` (the process and the socket's path)."""
    path = os.path.join(folder, "tools.sock")
    process = subprocess.Popen(
        [sys.executable, "-m", "gpuir.tools.forkserver", path],
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the gpuir tool server did not start")
        time.sleep(0.02)
    return process, path


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and every call still running under it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


if __name__ == "__main__":
    serve(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else None)
