"""`gpuir.tools.tool_server`: gpu-opt and gpu-run called in one kept process answer what a
process of each answers, and the client survives a server that dies or hangs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gpuir.tools import tool_server
from gpuir.tools.launch import SERVER_ENV
from gpuir.tools.tool_server import ToolServer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BAD = "func.func @f() {\n  %x = arith.addi %y, %y : i32\n}\n"


def subprocess_of(argv: list[str]) -> subprocess.CompletedProcess[str]:
    module = f"gpuir.tools.{argv[0].replace('-', '_')}"
    return subprocess.run([sys.executable, "-m", module, *argv[1:]], capture_output=True, text=True)


@pytest.fixture
def server():
    found = ToolServer()
    yield found
    found.stop()


@pytest.fixture(params=["forked", "own-process"])
def either_server(request, monkeypatch):
    """A server forked from the session's fork server (`GPUIR_TOOL_SERVER`), or started as a
    Python of its own where there is none."""
    if request.param == "own-process":
        monkeypatch.setenv(SERVER_ENV, "0")
    elif os.environ.get(SERVER_ENV, "0") == "0":
        pytest.skip("no fork server in this session")
    found = ToolServer()
    yield found
    found.stop()


def test_answers_are_what_a_process_of_the_tool_answers(either_server, tmp_path):
    server = either_server
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    calls = [
        ["gpu-run", str(EXAMPLES / "array.mlir"), "--provider", "interp"],
        ["gpu-run", str(EXAMPLES / "array.mlir"), "--provider", "cpu"],
        ["gpu-opt", str(EXAMPLES / "array.mlir"), "-p", "gpu-pipeline"],
        ["gpu-opt", str(bad)],
        ["gpu-run", str(bad)],
    ]
    for argv in calls:
        ours, theirs = server.run(argv, 120), subprocess_of(argv)
        assert ours is not None
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            theirs.returncode,
            theirs.stdout,
            theirs.stderr,
        ), argv
    assert server.calls == len(calls)


def test_a_dead_server_answers_its_signal_and_the_next_call_starts_another(either_server):
    server = either_server
    argv = ["gpu-opt", str(EXAMPLES / "array.mlir")]
    assert server.run(argv, 120).returncode == 0
    first = server.process
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    died = server.run(argv, 120)
    assert died.returncode == -signal.SIGKILL
    again = server.run(argv, 120)
    assert again.returncode == 0 and "gpu.launch" in again.stdout
    assert server.process is not first


def test_a_call_past_the_timeout_is_none_and_the_server_is_replaced(server, monkeypatch, tmp_path):
    stop = tmp_path / "stopped.mlir"
    stop.write_text("")
    server.start()
    first = server.process
    os.kill(first.pid, signal.SIGSTOP)  # a server that never answers
    assert server.run(["gpu-opt", str(stop)], 1.0) is None
    assert server.process is None
    assert server.run(["gpu-opt", str(stop)], 120).returncode == 0


def test_a_server_is_replaced_after_max_calls(server, monkeypatch, tmp_path):
    monkeypatch.setattr(tool_server, "MAX_CALLS", 2)
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    processes = []
    for _ in range(4):
        assert server.run(["gpu-opt", str(empty)], 120).returncode == 0
        processes.append(server.process.pid)
    assert processes[0] == processes[1] != processes[2] == processes[3]


def test_an_unknown_tool_is_an_error_not_a_dead_server(server):
    answer = server.run(["gpu-nothing"], 60)
    assert answer.returncode == 2 and "no tool 'gpu-nothing'" in answer.stderr
