"""`gpuir.tools.forkserver` and its client (`gpuir.tools.launch`, the console scripts): a call
through the server answers what a process of the tool answers (output, diagnostics, exit
status, stdin), in the caller's directory and environment, and keeps nothing from one call to
the next."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuir.tools.forkserver import REHEARSALS, rehearse, start_server, stop_server
from gpuir.tools.launch import IDLE_ENV, SERVER_ENV, START_S, auto_path, fingerprint
from gpuir.tools.lit_config import served_commands

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PLUGIN = ROOT / "tests" / "lit" / "plugins" / "Inputs" / "count_calls.py"
BIN = Path(sys.executable).parent
BAD = "func.func @f() {\n  %x = arith.constant 1 : i32\n  ]\n}\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, path = start_server(str(tmp_path_factory.mktemp("server")))
    yield process, path
    stop_server(process)


def tool(name, args, env, folder=BIN, **kwargs):
    return subprocess.run(
        [str(folder / name), *args], capture_output=True, text=True, env=env, **kwargs
    )


def environments(path):
    plain = {k: v for k, v in os.environ.items() if k != SERVER_ENV}
    return plain, {**plain, SERVER_ENV: path}


CALLS = [
    ("gpu-opt", [str(EXAMPLES / "array.mlir"), "-p", "gpu-pipeline"]),
    ("gpu-opt", ["bad.mlir"]),
    ("gpu-opt", ["missing.mlir"]),
    ("gpu-run", [str(EXAMPLES / "array.mlir"), "--provider", "cpu"]),
    ("gpu-run", [str(EXAMPLES / "global-sum.mlir"), "--provider", "interp", "40"]),
    ("gpu-run", ["bad.mlir"]),
    ("gpu-opt", ["--version"]),
    ("filecheck", [str(EXAMPLES / "array.mlir"), "--input-file", str(EXAMPLES / "array.mlir")]),
]
"""Calls of each kind: output, diagnostics, a missing file, exit statuses 0, 1 and 2."""


@pytest.fixture(scope="module")
def c_client(tmp_path_factory) -> Path:
    """The folder of the C client's commands (`gpuir.tools.lit_config.served_commands`)."""
    folder = tmp_path_factory.mktemp("bin")
    if served_commands(str(folder)) == []:
        pytest.skip("no C compiler to build the tool client with")
    return folder


@pytest.mark.parametrize("client", ["python", "c"])
@pytest.mark.parametrize("name, args", CALLS)
def test_a_call_answers_what_a_process_answers(server, tmp_path, name, args, client, request):
    (tmp_path / "bad.mlir").write_text(BAD)
    plain, served = environments(server[1])
    alone = tool(name, args, plain, cwd=tmp_path)
    folder = request.getfixturevalue("c_client") if client == "c" else BIN
    through = tool(name, args, served, cwd=tmp_path, folder=folder)
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )


def test_the_c_client_runs_the_python_command_where_it_cannot_send_the_call(
    server, c_client, tmp_path
):
    """No server named, a socket no server listens on, or an environment that is not UTF-8
    (which the call's header cannot hold): the Python command answers, as a process."""
    plain, _ = environments("")
    args = [str(EXAMPLES / "array.mlir")]
    alone = tool("gpu-opt", args, plain)
    for env in (
        plain,
        {**plain, SERVER_ENV: str(tmp_path / "none.sock")},
        {**plain, SERVER_ENV: server[1], "GPUIR_NOT_UTF8": "caf\udce9"},
    ):
        through = tool("gpu-opt", args, env, folder=c_client)
        assert (through.returncode, through.stdout, through.stderr) == (0, alone.stdout, "")


@pytest.mark.parametrize("client", ["python", "c"])
def test_stdin_and_the_order_of_stdout_and_stderr(server, client, request):
    _, served = environments(server[1])
    folder = request.getfixturevalue("c_client") if client == "c" else BIN
    text = "func.func @f() {\n  func.return\n}\n"
    done = tool("gpu-opt", ["-"], served, input=text, folder=folder)
    assert done.returncode == 0 and "func.func @f()" in done.stdout
    merged = subprocess.run(
        f"{folder / 'gpu-opt'} - 2>&1",
        shell=True,
        input=BAD,
        capture_output=True,
        text=True,
        env=served,
    )
    assert merged.returncode == 1 and merged.stdout.startswith("<stdin>:3:3: error:")


def test_each_call_has_its_own_environment_and_keeps_nothing(server, tmp_path):
    _, served = environments(server[1])
    source = tmp_path / "calls.mlir"
    source.write_text("func.func @f() {\n  func.return\n}\n")
    with_plugin = tool(
        "gpu-opt", [str(source), "-p", "count-calls"], {**served, "GPUIR_PLUGINS": str(PLUGIN)}
    )
    assert with_plugin.returncode == 0 and "count.calls = 0" in with_plugin.stdout
    without = tool("gpu-opt", [str(source), "-p", "count-calls"], served)
    assert without.returncode != 0 and "count-calls" in without.stderr


def test_the_rehearsal_before_the_first_fork_runs_every_call_cleanly():
    """The server runs each tool once before it serves (`rehearse`): every call of it exits 0,
    else the forks start cold again without anyone noticing; it leaves no thread running (a
    fork would not have it) and the environment as it was."""
    import threading

    before = dict(os.environ)
    assert rehearse() == [0] * len(REHEARSALS)
    assert threading.active_count() == 1
    assert dict(os.environ) == before


def test_without_a_server_the_tool_runs_in_its_own_process(tmp_path):
    plain, _ = environments("")
    gone = {**plain, SERVER_ENV: str(tmp_path / "no-such.sock")}
    done = tool("gpu-opt", [str(EXAMPLES / "array.mlir")], gone)
    assert done.returncode == 0 and "gpu.launch" in done.stdout


def test_a_killed_caller_takes_its_call_with_it(server, tmp_path):
    _, served = environments(server[1])
    spin = tmp_path / "spin.mlir"
    spin.write_text(
        "func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i1) {\n"
        "  %t = arith.constant true\n"
        "  %r = scf.while (%i = %t) : (i1) -> i1 {\n"
        "    scf.condition(%i) %i : i1\n"
        "  } do {\n"
        "  ^bb0(%j: i1):\n"
        "    scf.yield %j : i1\n"
        "  }\n"
        "  func.return %m, %r : !mem.M<0>, i1\n}\n"
    )
    caller = subprocess.Popen([str(BIN / "gpu-run"), str(spin), "--provider", "interp"], env=served)
    time.sleep(3)
    workers = server_descendants(server[0].pid)
    assert workers, "the call did not reach the server"
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    deadline = time.monotonic() + 10
    while server_descendants(server[0].pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server_descendants(server[0].pid) == []


def server_descendants(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def test_an_uncaught_exception_prints_its_traceback(server, tmp_path):
    """GPUIR_DEBUG=1 lets an internal error escape the tool: through the server as without it,
    the caller's stderr gets the traceback, and the status is 1."""
    (tmp_path / "good.mlir").write_text("func.func @f() {\n  func.return\n}\n")
    plain, served = environments(server[1])
    args = [str(tmp_path / "good.mlir"), "-p", "arith-add-fastmath{flags=fastest}"]
    for env in (plain, served):
        result = tool("gpu-opt", args, {**env, "GPUIR_DEBUG": "1"})
        assert result.returncode == 1
        assert "Traceback (most recent call last)" in result.stderr


def auto_environment(folder: Path, idle: str = "60") -> dict[str, str]:
    plain = {k: v for k, v in os.environ.items() if k != SERVER_ENV}
    return {**plain, SERVER_ENV: "auto", "XDG_RUNTIME_DIR": str(folder), IDLE_ENV: idle}


def wait_until(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_auto_starts_a_server_of_the_users_own_that_ends_when_idle(tmp_path):
    """GPUIR_TOOL_SERVER=auto: the first call starts a server (a socket in
    $XDG_RUNTIME_DIR), the calls answer what a process of their own answers, and the server
    ends, taking its socket along, after GPUIR_TOOL_SERVER_IDLE seconds without a call."""
    args = [str(EXAMPLES / "array.mlir"), "-p", "gpu-pipeline"]
    plain = {k: v for k, v in os.environ.items() if k != SERVER_ENV}
    alone = tool("gpu-opt", args, plain)
    env = auto_environment(tmp_path, idle="3")
    for _ in range(2):
        served = tool("gpu-opt", args, env)
        assert (served.returncode, served.stdout, served.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )
    sockets = list(tmp_path.glob("gpuir-tools-*.sock"))
    assert len(sockets) == 1
    assert wait_until(lambda: not sockets[0].exists())


def test_a_server_that_fails_to_start_is_not_waited_for(tmp_path):
    """The call that starts the user's server runs in its own process at once when the server
    exits before it listens (here: an idle time that is no number), not after `START_S`."""
    env = auto_environment(tmp_path, idle="soon")
    start = time.monotonic()
    done = tool("gpu-opt", [str(EXAMPLES / "array.mlir")], env)
    assert done.returncode == 0 and done.stdout.startswith("builtin.module")
    assert time.monotonic() - start < START_S / 2
    assert list(tmp_path.glob("gpuir-tools-*.sock")) == []


def test_auto_replaces_a_socket_whose_server_is_gone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    path = auto_path() + ".sock"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)  # bound, never listening: a connection is refused, as to a dead server
    stale.close()
    env = auto_environment(tmp_path)
    done = tool("gpu-opt", [str(EXAMPLES / "array.mlir")], env)
    assert done.returncode == 0 and done.stdout.startswith("builtin.module")
    live = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    live.connect(path)  # the new server's
    live.close()
    pid = next(
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and path.encode() in (p / "cmdline").read_bytes()
    )
    os.kill(pid, signal.SIGTERM)


def test_the_fingerprint_follows_an_edit_of_a_source(tmp_path):
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg" / "a.py"
    source.write_text("x = 1\n")
    first = fingerprint([str(tmp_path)])
    assert fingerprint([str(tmp_path)]) == first
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
    assert fingerprint([str(tmp_path)]) != first
