"""What makes a gpu-reduce candidate interesting: a script's exit status (llvm-reduce's
interface), or one of the built-in tests (`--crash`, `--diagnostic`, `--race`, `--disagree`,
`--semantics-change`)."""

from __future__ import annotations

import atexit
import re
import shlex
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpuir.tools.tool_server import ToolServer

PROG = "gpu-reduce"
CRASH = re.compile(r"gpu-opt: internal error in pass '([^']*)'")


class ReduceError(Exception):
    """A user error: its message is the one line gpu-reduce prints before exiting with 1."""


# Reading and printing candidates ---------------------------------------------------------------


_servers = threading.local()
_started: list[ToolServer] = []


def server() -> ToolServer:
    """This thread's tool server (`gpuir.tools.tool_server`): gpu-reduce's `-j` runs a
    candidate's test on each of its threads."""
    found = getattr(_servers, "server", None)
    if found is None:
        found = _servers.server = ToolServer()
        _started.append(found)
        if len(_started) == 1:
            atexit.register(lambda: [s.stop() for s in _started])
    return found


@dataclass
class Test:
    """Commands to run on a candidate's path, and what in their results is interesting. A
    command is a program and its arguments; the built-in tests' are a gpuir tool's name and
    its arguments (`tool`: run in a tool server, not a process each)."""

    description: str
    commands: list[list[str]]
    judge: Callable[[list[subprocess.CompletedProcess[str]]], bool]
    timeout: float = 60.0
    first: Callable[[list[subprocess.CompletedProcess[str]]], None] | None = None
    tool: bool = False

    def run(self, path: str) -> bool:
        results = self.results(path)
        return results is not None and self.judge(results)

    def results(self, path: str) -> list[subprocess.CompletedProcess[str]] | None:
        """The commands' results on the candidate at `path`; None when one ran past the
        timeout."""
        results = []
        for command in self.commands:
            if self.tool:
                result = server().run([*command, path], self.timeout)
                if result is None:
                    return None
                results.append(result)
                continue
            try:
                results.append(
                    subprocess.run(
                        [*command, path],
                        capture_output=True,
                        text=True,
                        errors="replace",
                        timeout=self.timeout,
                        stdin=subprocess.DEVNULL,
                    )
                )
            except subprocess.TimeoutExpired:
                return None
        return results


def script_test(command: str, args: Sequence[str]) -> Test:
    return Test(f"`{command}` exits 0", [[command, *args]], lambda rs: rs[0].returncode == 0)


def crash_test(spec: str) -> Test:
    words = shlex.split(spec)
    if not words or words[0] != "gpu-opt":
        raise ReduceError(f"{PROG}: error: --crash takes 'gpu-opt ARGS...', found '{spec}'")
    expected: list[str] = []

    def crashed_in(results: list[subprocess.CompletedProcess[str]]) -> str | None:
        found = CRASH.search(results[0].stderr)
        return found.group(1) if found else None

    def first(results: list[subprocess.CompletedProcess[str]]) -> None:
        name = crashed_in(results)
        if name is not None:
            expected.append(name)

    return Test(
        f"`{spec}` crashes in the same pass",
        [["gpu-opt", *words[1:]]],
        lambda rs: crashed_in(rs) is not None and crashed_in(rs) == (expected or [None])[0],
        first=first,
        tool=True,
    )


def diagnostic_test(pattern: str, pipeline: str) -> Test:
    try:
        regex = re.compile(pattern)
    except re.error as e:
        raise ReduceError(f"{PROG}: error: bad --diagnostic regex '{pattern}': {e}") from None
    return Test(
        f"`gpu-opt -p {pipeline}` prints a diagnostic matching /{pattern}/",
        [["gpu-opt", "-p", pipeline]],
        lambda rs: regex.search(rs[0].stderr) is not None,
        tool=True,
    )


def race_test() -> Test:
    return Test(
        "`gpu-run --provider interp` reports a race",
        [["gpu-run", "--provider", "interp"]],
        lambda rs: re.search(r"\brace\b", rs[0].stderr) is not None,
        tool=True,
    )


def disagree_test(providers: str) -> Test:
    names = providers.split(",")
    if len(names) != 2 or not all(names):
        raise ReduceError(
            f"{PROG}: error: --disagree takes two providers, 'A,B'; found '{providers}'"
        )

    def differ(rs: list[subprocess.CompletedProcess[str]]) -> bool:
        if any("internal error" in r.stderr for r in rs):  # a crash is another bug
            return False
        return (rs[0].returncode, rs[0].stdout) != (rs[1].returncode, rs[1].stdout)

    return Test(
        f"providers {names[0]} and {names[1]} disagree",
        [["gpu-run", "--provider", name] for name in names],
        differ,
        tool=True,
    )


def semantics_test(pipeline: str) -> Test:
    def failed(rs: list[subprocess.CompletedProcess[str]]) -> bool:
        return rs[0].returncode != 0 and "error: --check-semantics:" in rs[0].stderr

    return Test(
        f"`gpu-opt -p {pipeline} --check-semantics` fails",
        [["gpu-opt", "--check-semantics", "-p", pipeline]],  # the path must not follow the flag
        failed,
        tool=True,
    )


# The reducer -----------------------------------------------------------------------------------
