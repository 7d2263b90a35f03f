"""What makes a gpu-reduce candidate interesting: a script's exit status (llvm-reduce's
interface), or one of the built-in tests (`--crash`, `--diagnostic`, `--race`, `--disagree`,
`--semantics-change`)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

PROG = "gpu-reduce"
CRASH = re.compile(r"gpu-opt: internal error in pass '([^']*)'")


class ReduceError(Exception):
    """A user error: its message is the one line gpu-reduce prints before exiting with 1."""


# Reading and printing candidates ---------------------------------------------------------------


def tool(name: str) -> list[str]:
    """The command of a gpuir tool of this installation: `python -m gpuir.tools.<name>`."""
    return [sys.executable, "-m", f"gpuir.tools.{name.replace('-', '_')}"]


@dataclass
class Test:
    """Commands to run on a candidate's path, and what in their results is interesting."""

    description: str
    commands: list[list[str]]
    judge: Callable[[list[subprocess.CompletedProcess[str]]], bool]
    timeout: float = 60.0
    first: Callable[[list[subprocess.CompletedProcess[str]]], None] | None = None

    def run(self, path: str) -> bool:
        results = []
        for command in self.commands:
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
                return False
        return self.judge(results)


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
        [[*tool("gpu-opt"), *words[1:]]],
        lambda rs: crashed_in(rs) is not None and crashed_in(rs) == (expected or [None])[0],
        first=first,
    )


def diagnostic_test(pattern: str, pipeline: str) -> Test:
    try:
        regex = re.compile(pattern)
    except re.error as e:
        raise ReduceError(f"{PROG}: error: bad --diagnostic regex '{pattern}': {e}") from None
    return Test(
        f"`gpu-opt -p {pipeline}` prints a diagnostic matching /{pattern}/",
        [[*tool("gpu-opt"), "-p", pipeline]],
        lambda rs: regex.search(rs[0].stderr) is not None,
    )


def race_test() -> Test:
    return Test(
        "`gpu-run --provider interp` reports a race",
        [[*tool("gpu-run"), "--provider", "interp"]],
        lambda rs: re.search(r"\brace\b", rs[0].stderr) is not None,
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
        [[*tool("gpu-run"), "--provider", name] for name in names],
        differ,
    )


def semantics_test(pipeline: str) -> Test:
    def failed(rs: list[subprocess.CompletedProcess[str]]) -> bool:
        return rs[0].returncode != 0 and "error: --check-semantics:" in rs[0].stderr

    return Test(
        f"`gpu-opt -p {pipeline} --check-semantics` fails",
        [
            [*tool("gpu-opt"), "--check-semantics", "-p", pipeline]
        ],  # the path must not follow the flag
        failed,
    )


# The reducer -----------------------------------------------------------------------------------
