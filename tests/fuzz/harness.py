"""Run fuzz inputs through gpu-opt and gpu-run in-process, in worker processes, and judge them.

Why in-process: a gpu-opt subprocess costs 0.2 s to start (0.3 s with `-t ptx`), an in-process
call 10-60 ms, and an input goes through every configuration (`all_targets`: 17 of them). Why worker processes anyway: a run
can hang (in Python, or in LLVM's C++), crash the interpreter (a signal), or leave threads behind
(the cpu provider's pool); a worker is expendable, the parent is not.

Time bounds. In a worker, `SIGALRM` interrupts a run that exceeds its bound and records where
it was (`hang`); the worker then exits, since threads of the interrupted run may remain. When the
alarm cannot fire (a hang inside C code), the parent kills the worker `GRACE_S` later. Either
way the parent starts a new worker for the next input.

A `gpu-run` that times out while `@main` is executing is a `slow-run`: the program itself runs
long (a mutated loop bound), which no tool can refuse in general. It is reported, not a failure.

The oracle (`classify`): exit status 0, or 1 with an `error:` line on stderr; anything else is
a failure (a traceback, an internal error, another status, a silent 1). gpu-opt's MLIR output must
also parse back and print the same (`roundtrip`). A worker's address space is limited
(`MEMORY_LIMIT`), so a runaway allocation is a MemoryError to report, not the machine's OOM.

Inputs rejected by the first configuration (plain gpu-opt: parse and verify) are rejected the
same way by all others, which parse and verify first: they are not run again (`skipped`).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import re
import resource
import shutil
import signal
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from pathlib import Path

from fuzz.mutate import Mutant, Seed, load_corpus, mutant

Inputs = Callable[[int], Mutant]
"""Input `i` of a campaign. Built in the parent before the workers fork, so that all of them
see one snapshot of the corpus (colleagues add lit tests while a long run goes on)."""

GRACE_S = 10.0
"""How long after a run's time bound the parent kills a worker whose alarm did not fire."""
MEMORY_LIMIT = 8 << 30
"""Address space a worker may add to what it starts with: a runaway allocation is a MemoryError,
not the machine's OOM."""

FAILURES = ("traceback", "internal", "exit-status", "no-diagnostic", "roundtrip", "hang", "crash")
"""The outcomes that are bugs."""
LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)


@dataclass(frozen=True)
class Target:
    """One tool configuration an input goes through."""

    name: str
    tool: str
    """`gpu-opt` or `gpu-run`."""
    args: tuple[str, ...]
    roundtrip: bool = False
    """Whether the output (MLIR text) must parse back to itself."""


def our_passes() -> list[str]:
    from gpuir.passes import get_all_passes

    return list(get_all_passes())


def all_targets(providers: Sequence[str] = ("interp",)) -> list[Target]:
    """gpu-opt with no pass, each of gpuir's passes, `-t llvm`/`ptx`/`dot`; gpu-run on each of
    `providers`."""
    targets = [Target("gpu-opt", "gpu-opt", (), roundtrip=True)]
    for name in our_passes():
        targets.append(Target(f"gpu-opt -p {name}", "gpu-opt", ("-p", name), roundtrip=True))
    for target in ("llvm", "ptx", "dot"):
        targets.append(Target(f"gpu-opt -t {target}", "gpu-opt", ("-t", target)))
    for provider in providers:
        name = f"gpu-run --provider {provider}"
        targets.append(Target(name, "gpu-run", ("--provider", provider)))
    return targets


@dataclass
class Outcome:
    target: str
    status: str
    """`ok` (exit 0), `error` (exit 1 with a diagnostic), `skipped`, `slow-run`, or a FAILURE."""
    seconds: float = 0.0
    detail: str = ""
    """For a failure: what went wrong (the diagnostic, the traceback, where it hung)."""
    located: bool = True
    """For `error`: whether the diagnostic is at a `file:line:col`."""


@dataclass
class Result:
    index: int
    outcomes: list[Outcome] = field(default_factory=list[Outcome])


class FuzzTimeout(BaseException):
    """Raised by the alarm in a run over its time bound; a BaseException, so that no tool's
    `except Exception` takes it for a bug of its own."""

    def __init__(self, stack: str):
        super().__init__("time bound exceeded")
        self.stack = stack


# Running one configuration in-process --------------------------------------------------------


def call_tool(tool: str, argv: list[str]) -> tuple[int | None, str, str, str]:
    """Run gpu-opt or gpu-run's `main(argv)`; exit status, stdout, stderr, and the traceback of
    an exception that escaped `main` (what a user would see), or ''."""
    if tool == "gpu-opt":
        from gpuir.tools.gpu_opt import main
    else:
        from gpuir.tools.gpu_run import main
    out, err = io.StringIO(), io.StringIO()
    escaped, status = "", None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except FuzzTimeout:
            raise
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        except BaseException:
            escaped = traceback.format_exc()
    return status, out.getvalue(), err.getvalue(), escaped


def classify(status: int | None, out: str, err: str, escaped: str) -> Outcome:
    """The oracle: what a run's exit status and output say about the tool."""
    if escaped:
        return Outcome("", "traceback", detail=escaped)
    if "Traceback (most recent call last)" in out + err:
        return Outcome("", "traceback", detail=err or out)
    if "internal error" in err:
        return Outcome("", "internal", detail=err)
    if status not in (0, 1):
        return Outcome("", "exit-status", detail=f"exit status {status}\n{err}")
    if status == 1 and "error" not in err:
        return Outcome("", "no-diagnostic", detail=f"exit status 1, stderr:\n{err}")
    if status == 0:
        return Outcome("", "ok")
    return Outcome("", "error", detail=err, located=bool(LOCATED.search(err)))


def run_target(
    target: Target, path: str, run_args: list[str], read_back: dict[str, str]
) -> Outcome:
    """`target` on the input at `path`. `read_back` holds what reading each output of this
    input back found (`check_roundtrip`): many targets print the same text, and a text reads
    back as it did the first time."""
    argv = [path, *target.args] + (run_args if target.tool == "gpu-run" else [])
    start = time.perf_counter()
    status, out, err, escaped = call_tool(target.tool, argv)
    outcome = classify(status, out, err, escaped)
    if outcome.status == "ok" and target.roundtrip:
        if out not in read_back:
            read_back[out] = check_roundtrip(path, out)
        if read_back[out]:
            why = read_back[out]
            outcome = Outcome(
                "", "roundtrip", detail=f"the output of {' '.join(argv[1:])!r}: {why}"
            )
    if outcome.status == "internal":
        outcome.detail += "\n" + debug_traceback(target.tool, argv)
    outcome.target = target.name
    outcome.seconds = time.perf_counter() - start
    return outcome


def debug_traceback(tool: str, argv: list[str]) -> str:
    """The Python traceback behind an internal error: the run again under GPUIR_DEBUG=1, which
    makes the tools raise it."""
    os.environ["GPUIR_DEBUG"] = "1"
    try:
        _, _, _, escaped = call_tool(tool, argv)
    finally:
        del os.environ["GPUIR_DEBUG"]
    return escaped


def check_roundtrip(path: str, printed: str) -> str:
    """What is wrong with gpu-opt's output `printed` (of the input at `path`), read back by
    gpu-opt: "" where it prints the same."""
    again = path + ".out.mlir"
    with open(again, "w", encoding="utf-8") as f:
        f.write(printed)
    status, reprinted, err, escaped = call_tool("gpu-opt", [again])
    os.unlink(again)
    if status == 0 and reprinted == printed and not escaped:
        return ""
    return escaped or err or "prints differently:\n" + reprinted


MAIN_SIGNATURE = re.compile(r"func\.func\s+@main\s*\(([^)]*)\)")
INTEGER_TYPE = re.compile(r":\s*(?:i\d+|index)\s*$")
FLOAT_TYPE = re.compile(r":\s*(?:f16|f32|f64|bf16)\s*$")


INTEGER_ARGUMENTS = ("3", "3", "0", "1", "-1", "100")
FLOAT_ARGUMENTS = ("0.5", "0.5", "0", "-1.5", "inf", "nan")


def main_arguments(text: str) -> list[str]:
    """gpu-run arguments for the scalar parameters of the input's @main (so that a program
    that takes arguments runs at all): mostly 3 and 0.5, sometimes an edge (picked by the
    text's hash: the same input gets the same arguments)."""
    m = MAIN_SIGNATURE.search(text)
    if m is None:
        return []
    pick = zlib.crc32(text.encode())
    args = []
    for parameter in m.group(1).split(","):
        if INTEGER_TYPE.search(parameter):
            args.append(INTEGER_ARGUMENTS[pick % len(INTEGER_ARGUMENTS)])
        elif FLOAT_TYPE.search(parameter):
            args.append(FLOAT_ARGUMENTS[pick % len(FLOAT_ARGUMENTS)])
        pick //= 7
    return args


# Workers -------------------------------------------------------------------------------------


def on_alarm(signum: int, frame: object) -> None:
    raise FuzzTimeout("".join(stack_of(frame)))


def stack_of(frame: object) -> list[str]:
    """The stack at `frame`, from the outermost call: in an interp work-item's coroutine, the
    frames of the greenlets that resumed it first (its own chain of frames starts at its
    coroutine)."""
    stacks = [traceback.format_stack(frame)]  # type: ignore[arg-type]
    from greenlet import getcurrent

    outer = getcurrent().parent
    while outer is not None:
        if outer.gr_frame is not None:
            stacks.append(traceback.format_stack(outer.gr_frame))
        outer = outer.parent
    return [line for stack in reversed(stacks) for line in stack]


def worker(conn: Connection, inputs: Inputs, targets: list[Target], timeouts: dict[str, float]):
    """Receive input indices, answer with their `Result`s; exit after a hang."""
    with open("/proc/self/statm") as statm:  # the address space the worker starts with
        start = int(statm.read().split()[0]) * resource.getpagesize()
    limit = start + MEMORY_LIMIT  # (the cpu provider's arena, reserved, is part of it)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the parent's to handle
    os.environ.pop("GPUIR_DEBUG", None)
    folder = tempfile.mkdtemp(prefix="gpuir-fuzz-")
    hung = False
    try:
        while not hung:
            index = conn.recv()
            if index is None:
                return
            m = inputs(index)
            path = os.path.join(folder, f"input-{index}.mlir")
            with open(path, "w", encoding="utf-8") as f:
                f.write(m.text)
            result, hung = run_input(conn, m, path, targets, timeouts)
            conn.send(("done", index, result))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)  # threads of the run that hung may remain: no clean-up of the interpreter


def run_input(
    conn: Connection | None,
    m: Mutant,
    path: str,
    targets: Sequence[Target],
    timeouts: dict[str, float],
) -> tuple[Result, bool]:
    result = Result(m.index)
    run_args = main_arguments(m.text)
    read_back: dict[str, str] = {}
    for i, target in enumerate(targets):
        if i > 0 and result.outcomes[0].status == "error":
            result.outcomes.append(Outcome(target.name, "skipped"))
            continue
        if conn is not None:
            conn.send(("start", m.index, target.name))
        signal.setitimer(signal.ITIMER_REAL, timeouts[target.tool])
        start = time.perf_counter()
        try:
            outcome = run_target(target, path, run_args, read_back)
        except FuzzTimeout as e:
            slow = target.tool == "gpu-run" and "in run_main" in e.stack
            status = "slow-run" if slow else "hang"
            outcome = Outcome(target.name, status, time.perf_counter() - start, e.stack)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        result.outcomes.append(outcome)
        if outcome.status in ("hang", "slow-run"):
            for rest in targets[i + 1 :]:
                result.outcomes.append(Outcome(rest.name, "skipped"))
            return result, True
    return result, False


def warm_up() -> None:
    """Import what the tools import lazily, before the workers fork: a worker started after a
    hang does not spend its first run's time bound on imports."""
    import gpuir.ir.locating_parser  # noqa: F401
    import gpuir.lowering.targets  # noqa: F401  (llvmlite)
    import gpuir.passes.gpu_pipeline  # noqa: F401
    import gpuir.runtime.interp  # noqa: F401
    import gpuir.tools.gpu_opt  # noqa: F401
    import gpuir.tools.gpu_run  # noqa: F401


@dataclass
class Worker:
    process: multiprocessing.Process
    conn: Connection
    index: int | None = None
    target: str | None = None
    deadline: float = 0.0
    partial: list[Outcome] = field(default_factory=list[Outcome])


class Pool:
    """`jobs` workers; `run(indices)` yields each input's `Result` as it completes."""

    def __init__(
        self, jobs: int, inputs: Inputs, targets: list[Target], timeouts: dict[str, float]
    ):
        self.jobs, self.inputs, self.targets, self.timeouts = jobs, inputs, targets, timeouts
        self.tool_of = {t.name: t.tool for t in targets}
        self.context = multiprocessing.get_context("fork")
        self.workers: list[Worker] = []

    def start_worker(self) -> Worker:
        parent, child = self.context.Pipe()
        args = (child, self.inputs, self.targets, self.timeouts)
        process = self.context.Process(target=worker, args=args, daemon=True)
        process.start()
        child.close()
        return Worker(process, parent)

    def run(self, indices: Iterable[int]) -> Iterable[Result]:
        warm_up()
        todo = iter(indices)
        self.workers = [self.start_worker() for _ in range(self.jobs)]
        busy = 0
        try:
            for w in self.workers:
                busy += self.assign(w, todo)
            while busy:
                ready = wait([w.conn for w in self.workers if w.index is not None], timeout=1.0)
                for w in list(self.workers):
                    if w.index is None:
                        continue
                    result = None
                    if w.conn in ready:
                        result = self.receive(w)
                    elif time.monotonic() > w.deadline:
                        result = self.lost(w, "hang", "killed: no answer within the time bound")
                    if result is not None:
                        yield result
                        busy -= 1
                        busy += self.assign(w, todo)
        finally:
            for w in self.workers:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
                w.process.join(timeout=1)
                if w.process.is_alive():
                    w.process.kill()

    def assign(self, w: Worker, todo: Iterable[int]) -> int:
        index = next(iter(todo), None)  # type: ignore[call-overload]
        if index is None:
            w.index = None
            return 0
        if not w.process.is_alive():
            self.replace(w)
        w.index, w.target, w.partial = index, None, []
        w.deadline = time.monotonic() + max(self.timeouts.values()) + GRACE_S
        w.conn.send(index)
        return 1

    def receive(self, w: Worker) -> Result | None:
        try:
            message = w.conn.recv()
        except (EOFError, OSError):
            w.process.join(timeout=5)
            code = w.process.exitcode
            why = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
            return self.lost(w, "crash", f"the worker died ({why})")
        kind, index, payload = message
        if kind == "start":
            w.target = payload
            w.deadline = time.monotonic() + self.timeouts[self.tool_of[payload]] + GRACE_S
            return None
        w.index = None
        if any(o.status in ("hang", "slow-run") for o in payload.outcomes):
            self.replace(w)  # it exits after a run over its time bound
        return payload

    def lost(self, w: Worker, status: str, detail: str) -> Result:
        """The Result of a worker's input when the worker hung or died; a new worker."""
        assert w.index is not None
        result = Result(w.index)
        names = [t.name for t in self.targets]
        current = w.target or names[0]
        for name in names:
            if name == current:
                result.outcomes.append(Outcome(name, status, detail=detail))
            elif names.index(name) > names.index(current):
                result.outcomes.append(Outcome(name, "skipped"))
            else:
                result.outcomes.append(Outcome(name, "unknown"))
        self.replace(w)
        w.index = None
        return result

    def replace(self, w: Worker) -> None:
        if w.process.is_alive():
            w.process.kill()
        w.process.join()
        w.conn.close()
        fresh = self.start_worker()
        w.process, w.conn = fresh.process, fresh.conn


# Running a campaign ---------------------------------------------------------------------------


@dataclass
class Campaign:
    seed: int
    inputs: Inputs
    targets: list[Target]
    results: list[Result] = field(default_factory=list[Result])
    seconds: float = 0.0

    def failures(self) -> list[tuple[int, Outcome]]:
        return [(r.index, o) for r in self.results for o in r.outcomes if o.status in FAILURES]


def fuzz(
    seed: int,
    indices: Sequence[int],
    jobs: int = 2,
    timeout: float = 20.0,
    run_timeout: float = 10.0,
    targets: list[Target] | None = None,
    progress: Callable[[int, int], None] | None = None,
    inputs: Inputs | None = None,
) -> Campaign:
    """Run inputs `indices` of seed `seed` (default: the mutants of the corpus) through
    `targets` (default: all)."""
    targets = all_targets() if targets is None else targets
    if inputs is None:
        corpus = load_corpus()
        inputs = partial(mutant, corpus, seed)
    campaign = Campaign(seed, inputs, targets)
    start = time.perf_counter()
    pool = Pool(jobs, inputs, targets, {"gpu-opt": timeout, "gpu-run": run_timeout})
    for result in pool.run(indices):
        campaign.results.append(result)
        if progress is not None:
            progress(len(campaign.results), len(indices))
    campaign.seconds = time.perf_counter() - start
    campaign.results.sort(key=lambda r: r.index)
    return campaign


def replay_inputs(paths: Sequence[Path]) -> Inputs:
    """Files (e.g. failing inputs a run saved) as inputs 0, 1, ...: `--replay`."""
    texts = [path.read_text(encoding="utf-8") for path in paths]

    def inputs(index: int) -> Mutant:
        return Mutant(index, Seed(str(paths[index]), 0, texts[index]), (), texts[index])

    return inputs


def failure_signature(outcome: Outcome) -> str:
    """What makes two failures the same bug, roughly: the kind and the line of the detail that
    names the exception, the diagnostic or where it hung, with numbers and paths blurred."""
    lines = [line.strip() for line in outcome.detail.strip().splitlines() if line.strip()]
    if outcome.status in ("hang", "crash"):
        frames = [line for line in lines if line.startswith('File "')]
        key = frames[-1] if frames else (lines[-1] if lines else "")
    elif outcome.status == "internal":
        key = next((line for line in lines if "internal error" in line), "")
    elif outcome.status == "roundtrip":
        key = lines[0].split(": ", 1)[-1] if lines else ""
        key = next((line for line in lines if "error:" in line), key)
    else:
        key = lines[-1] if lines else ""
    key = re.sub(r"\S*gpuir-fuzz-[^/]+/input-\d+\.mlir(\.out\.mlir)?", "INPUT", key)
    key = re.sub(r"(?<![\w])\d+", "N", key)
    key = re.sub(r"<OpResult\[.*?operation: ([\w.]+).*?>", r"<\1 result>", key)
    return f"{outcome.status}: {key[:160]}"


def unlocated(campaign: Campaign) -> dict[str, tuple[int, int]]:
    """The diagnostics without a `file:line:col` (blurred as in `failure_signature`): how many
    runs gave each, and one input that did. Not failures, but worth a look: most should point
    at an op."""
    found: dict[str, tuple[int, int]] = {}
    for result in campaign.results:
        for o in result.outcomes:
            if o.status == "error" and not o.located:
                line = next((x for x in o.detail.splitlines() if "error" in x), "")
                key = re.sub(r"(?<![\w])\d+", "N", line.split("error:", 1)[-1].strip())[:120]
                count, index = found.get(key, (0, result.index))
                found[key] = (count + 1, index)
    return found


@dataclass
class Group:
    """Failures with one signature: the inputs that show it, and in which configurations."""

    paths: list[Path] = field(default_factory=list[Path])
    targets: set[str] = field(default_factory=set[str])
    count: int = 0


def save_failures(campaign: Campaign, folder: Path) -> dict[str, Group]:
    """Each failing input as `<index>.mlir` with a `<index>.txt` that says what failed; the
    failures grouped by signature."""
    folder.mkdir(parents=True, exist_ok=True)
    groups: dict[str, Group] = {}
    for index, outcome in campaign.failures():
        m = campaign.inputs(index)
        path = folder / f"seed{campaign.seed}-{index}.mlir"
        path.write_text(m.text, encoding="utf-8")
        note = folder / f"seed{campaign.seed}-{index}.txt"
        with note.open("a", encoding="utf-8") as f:
            f.write(f"input {index} of seed {campaign.seed}: {m.seed.path} chunk {m.seed.chunk}\n")
            f.write("mutations: " + "; ".join(m.mutations) + "\n")
            f.write(f"{outcome.status} in `{outcome.target}`:\n{outcome.detail}\n\n")
        group = groups.setdefault(failure_signature(outcome), Group())
        group.count += 1
        group.targets.add(outcome.target)
        if path not in group.paths:
            group.paths.append(path)
    return groups


def summary(campaign: Campaign) -> str:
    """Per target: how many inputs it ran, and what they gave."""
    statuses = ["ok", "error", "skipped", "slow-run", *FAILURES]
    counts = {t.name: dict.fromkeys(statuses, 0) for t in campaign.targets}
    unlocated: dict[str, int] = {}
    seconds = dict.fromkeys(counts, 0.0)
    for result in campaign.results:
        for o in result.outcomes:
            counts[o.target][o.status] = counts[o.target].get(o.status, 0) + 1
            seconds[o.target] += o.seconds
            if o.status == "error" and not o.located:
                unlocated[o.target] = unlocated.get(o.target, 0) + 1
    shown = [s for s in statuses if any(c[s] for c in counts.values())]
    width = max(len(name) for name in counts)
    lines = [f"{'target':<{width}} {'ran':>6} " + " ".join(f"{s:>9}" for s in shown) + "  time"]
    for name, c in counts.items():
        ran = sum(v for s, v in c.items() if s not in ("skipped", "unknown"))
        cells = " ".join(f"{c[s]:>9}" for s in shown)
        lines.append(f"{name:<{width}} {ran:>6} {cells} {seconds[name]:6.0f}s")
    if unlocated:
        lines.append(
            "errors without a file:line:col: " + ", ".join(f"{n} {k}" for k, n in unlocated.items())
        )
    return "\n".join(lines)
