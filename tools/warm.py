"""gpu-run's warm path: a program that ran before, on the cpu provider, runs as its native
executable (`gpuir.runtime.native`), without Python's imports of xDSL, LLVM or numpy.

`plan(argv)` says whether a command line can take it: `gpu-run FILE [ARGS...]` with at most
`--provider cpu` or `--provider auto` (where PyCUDA is not installed, so that auto is cpu), FILE
a file; every other flag takes the usual way. `run(argv)` finds the executable that the cold
path kept for the program's bytes and options (`gpuir.runtime.native.key`), checks its SHA-256,
and runs it in warm mode: it exits 0 with gpu-run's output, or with another status and no
output at all when anything was not plainly right (an error, a fault, an argument it does not
read as gpu-run does), and then gpu-run runs the program the usual way, whose diagnostics are
the reference. So a warm run's output, errors and exit status are the cold run's.

The cold path keeps an executable (`keep`) when the program ran cleanly (no warning, no error)
from a host object that was in the compile cache already: the second clean run of a program
builds it, the third runs it. Light on purpose: the standard library and `key` only, and of
those only what a command line that can run warm needs (every gpu-run call starts here).
"""

from __future__ import annotations

import os
import sys

WARM_ENV = "GPUIR_NATIVE_WARM"
INDEX_BITWIDTH_ENV = "GPUIR_CPU_INDEX_BITWIDTH"


class Plan:
    __slots__ = ("file", "args")

    def __init__(self, file: str, args: tuple[str, ...]):
        self.file, self.args = file, args

    def options(self) -> dict[str, str]:
        """What, besides the program, decides its executable."""
        return {"provider": "cpu", "index_bitwidth": os.environ.get(INDEX_BITWIDTH_ENV, "")}


def numeric(token: str) -> bool:
    """A negative number, which gpu-run reads as an argument, not an option."""
    body = token[1:]
    return bool(body) and (body[0].isdigit() or body[0] == ".")


def plan(argv: list[str]) -> Plan | None:
    """The warm run of `argv`, where it can take one."""
    provider = "auto"
    positional: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--provider" and i + 1 < len(argv):
            provider = argv[i + 1]
            i += 2
            continue
        if token.startswith("--provider="):
            provider = token.removeprefix("--provider=")
        elif token.startswith("-") and not numeric(token):
            return None  # any other flag (and `-`, stdin), `--`: the usual way
        else:
            positional.append(token)
        i += 1
    if not positional or provider not in ("cpu", "auto"):
        return None
    if provider == "auto":
        from importlib.util import find_spec

        if find_spec("pycuda") is not None:
            return None
    return Plan(positional[0], tuple(positional[1:]))


def executable(plan_: Plan, program: bytes) -> tuple[str, str]:
    """The paths of the executable and its record for `plan_`'s program."""
    from gpuir.runtime.native import key as native_key

    return native_key.paths(native_key.key(program, plan_.options()))


def run(argv: list[str]) -> int | None:
    """Run `argv` warm: its exit status, or None where it takes the usual way."""
    found = plan(argv)
    if found is None:
        return None
    import hashlib
    import json

    from gpuir.runtime.native import key as native_key

    if not native_key.enabled() or os.environ.get("GPUIR_DEBUG"):
        return None
    try:
        with open(found.file, "rb") as f:
            program = f.read()
    except OSError:
        return None
    exe, record = executable(found, program)
    try:
        with open(record, "rb") as f:
            expected = json.load(f).get("sha256")
        with open(exe, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    except (OSError, ValueError, AttributeError):
        return None
    if digest != expected:  # damaged: the cold run makes it again
        for path in (exe, record):
            try:
                os.unlink(path)
            except OSError:
                pass
        return None
    sys.stdout.flush()
    try:
        pid = os.posix_spawn(exe, [exe, *found.args], {**os.environ, WARM_ENV: "1"})
        _, status = os.waitpid(pid, 0)
    except OSError:
        return None
    return 0 if os.waitstatus_to_exitcode(status) == 0 else None


def keep(argv: list[str], program: bytes, parsed: object, index_bitwidth: int) -> bool:
    """After a clean cold run of `argv`: keep the program's executable, where `argv` can run
    warm and there is none yet. `parsed` is the program (a `ParsedChunk`) after the default
    pipeline."""
    from gpuir.runtime.native import key as native_key

    found = plan(argv)
    if found is None or not native_key.enabled():
        return False
    key = native_key.key(program, found.options())
    if os.path.exists(native_key.paths(key)[0]):
        return False
    from gpuir.runtime.native.build import cache_executable

    return cache_executable(parsed, key, index_bitwidth)  # type: ignore[arg-type]
