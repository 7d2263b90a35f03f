"""gpu-reduce: shrink a gpuir program while a test still finds it interesting.

The interface is llvm-reduce's: `gpu-reduce FILE --test CMD [--test-arg A]... -o OUT` runs
`CMD A... CANDIDATE` on each candidate and keeps it when the command exits 0 ("interesting").
mlir-reduce differs: it takes the test as `-test=CMD -test-arg=A` and names the interesting
exit status 1, not 0. Built-in tests (`--crash`, `--diagnostic`, `--race`, `--disagree`,
`--semantics-change`) spare a script for the common cases.

The IR-aware strategies below each propose edits of the best program so far; every candidate
is printed, parsed and verified as gpu-opt would (a candidate that does not verify is never
tested) and must be smaller (`size()`) than the best. A text pass (picire's ddmin over lines,
its rounds tested `-j` at a time) comes after them. docs/debugging-passes.md, "Reducing a
test case: gpu-reduce", is the guide.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
)
from xdsl.printer import Printer

from gpuir.tools.reduce_strategies import STRATEGIES, Strategy
from gpuir.tools.reduce_tests import (
    PROG,
    ReduceError,
    Test,
    crash_test,
    diagnostic_test,
    disagree_test,
    race_test,
    script_test,
    semantics_test,
)

_CONTEXT = None


def context():
    """The parsing context gpu-opt uses (gpuir's dialects, xDSL's, llvm's extension ops)."""
    global _CONTEXT
    if _CONTEXT is None:
        from gpuir.dialects import make_context

        def llvm_extension_ops():
            from gpuir.lowering.llvm.llvm_ext import LLVM_EXTENSION_OPS

            return LLVM_EXTENSION_OPS

        _CONTEXT = make_context(extra_ops={"llvm": llvm_extension_ops})
    return _CONTEXT


def read_module(text: str, name: str) -> ModuleOp:
    """Parse and verify `text` as gpu-opt does; raise on any failure."""
    from gpuir.ir.locating_parser import LocatingParser
    from gpuir.ir.verifier import verify_input, verify_ops

    module = LocatingParser(context(), text, name).parse_module()
    verify_ops(module)
    verify_input(module)
    return module


def try_read(text: str) -> ModuleOp | None:
    """The module `text` holds if it parses and verifies, else None."""
    try:
        return read_module(text, "<candidate>")
    except Exception:  # noqa: BLE001  # any failure means: not a valid candidate
        return None


def print_module(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"


ARRAY_SIZE = re.compile(r"array<(\d+) x")


def size(module: ModuleOp, text: str) -> tuple[int, int, int, int]:
    """What a reduction makes smaller, most important first: ops that are not constants, all
    ops, the magnitude of integer constants and array sizes, the text's length."""
    ops = list(module.walk())
    non_constant = sum(op.name != "arith.constant" for op in ops)
    magnitude = sum(int(n) for n in ARRAY_SIZE.findall(text))
    for op in ops:
        value = op.properties.get("value")
        if op.name == "arith.constant" and isinstance(value, IntegerAttr):
            magnitude += abs(value.value.data)
    return non_constant, len(ops), magnitude, len(text)


# Edits that keep the IR valid ------------------------------------------------------------------


@dataclass
class Reducer:
    """Keeps the best candidate (text, module, size), writes it to `out` after each
    improvement, and runs candidates' tests `jobs` at a time."""

    test: Test
    out: str
    jobs: int
    workdir: str
    text: str
    module: ModuleOp
    tests_run: int = 0
    started: float = field(default_factory=time.monotonic)
    results: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.best = size(self.module, self.text)
        self.pool = ThreadPoolExecutor(max_workers=self.jobs)

    # running tests

    def interesting(self, texts: Sequence[str]) -> list[bool]:
        """The test's verdict on each text, in order (`jobs` at a time; each text once)."""
        fresh = [t for t in dict.fromkeys(texts) if t not in self.results]
        paths = []
        for i, text in enumerate(fresh):
            path = os.path.join(self.workdir, f"candidate-{i}.mlir")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            paths.append(path)
        for text, verdict in zip(fresh, self.pool.map(self.test.run, paths), strict=True):
            self.results[text] = verdict
            self.tests_run += 1
        return [self.results[t] for t in texts]

    def accept(self, text: str, module: ModuleOp, how: str) -> None:
        before = self.ops()
        self.text, self.module, self.best = text, module, size(module, text)
        write_atomically(self.out, text)
        self.progress(f"{how}: {before} -> {self.ops()} ops")

    def ops(self) -> int:
        return sum(1 for _ in self.module.walk())

    def progress(self, what: str) -> None:
        seconds = time.monotonic() - self.started
        print(
            f"{PROG}: {what} ({self.tests_run} tests run, {seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    # IR-aware strategies

    def candidate(self, strategy: Strategy, targets: Sequence[tuple[int, int]]) -> str | None:
        """The text of the best module with `targets` applied, if it verifies and is smaller
        and new; else None."""
        clone = self.module.clone()
        ops = list(clone.walk())
        picked = [(ops[i], variant) for i, variant in targets]
        changed = False
        try:
            for op, variant in picked:
                if op.parent is not None or op is clone:
                    changed |= strategy.apply(op, variant)
            text = print_module(clone)
        except Exception:  # noqa: BLE001  # an edit the IR does not allow: no candidate
            return None
        if not changed:
            return None
        if text in self.results:
            return None
        module = try_read(text)
        if module is None or size(module, text) >= self.best:
            return None
        return text

    def run_strategy(self, strategy: Strategy) -> bool:
        """Apply `strategy` until none of its targets gives an interesting candidate."""
        improved = False
        chunk = max(1, len(strategy.targets(self.module)) // 2) if strategy.chunked else 1
        while chunk >= 1:
            start = 0
            while True:
                targets = strategy.targets(self.module)
                if start >= len(targets):
                    break
                batch: list[tuple[int, str]] = []
                position = start
                while len(batch) < self.jobs and position < len(targets):
                    text = self.candidate(strategy, targets[position : position + chunk])
                    if text is not None:
                        batch.append((position, text))
                    position += chunk
                verdicts = self.interesting([text for _, text in batch])
                winner = next((b for b, ok in zip(batch, verdicts, strict=True) if ok), None)
                if winner is None:
                    start = position
                    continue
                start = winner[0]  # the targets after it moved up to here
                self.accept(winner[1], read_module(winner[1], self.out), strategy.name)
                improved = True
            chunk //= 2
        return improved

    def run_array_sizes(self) -> bool:
        """Shrink each static array size N (`!mem.array<N x T>`) to 1, else to N/2, in every
        type that names it at once (allocations, pointers, kernel parameters agree)."""
        improved = False
        for n in sorted({int(n) for n in ARRAY_SIZE.findall(self.text)}, reverse=True):
            texts = []
            for smaller in dict.fromkeys((1, n // 2)):
                if 0 < smaller < n:
                    text = self.text.replace(f"array<{n} x", f"array<{smaller} x")
                    module = try_read(text)
                    if module is not None and size(module, text) < self.best:
                        texts.append((text, module))
            verdicts = self.interesting([text for text, _ in texts])
            winner = next((t for t, ok in zip(texts, verdicts, strict=True) if ok), None)
            if winner is not None:
                self.accept(winner[0], winner[1], "array sizes")
                improved = True
        return improved

    def run_rounds(self) -> None:
        while any([self.run_strategy(s) for s in STRATEGIES] + [self.run_array_sizes()]):
            pass

    # the text pass

    def run_text_pass(self) -> bool:
        """picire's ddmin over the lines of the best text; each subset must verify. With
        `jobs` > 1 each of its rounds is tested `jobs` candidates at a time first."""
        import logging

        import picire

        logging.getLogger("picire").setLevel(logging.WARNING)
        lines = self.text.splitlines(keepends=True)
        verifies: dict[str, bool] = {self.text: True}

        def text_of(config: Sequence[int]) -> str:
            return "".join(lines[i] for i in config)

        def valid(text: str) -> bool:
            if text not in verifies:
                verifies[text] = try_read(text) is not None
            return verifies[text]

        def tester(config: Sequence[int], _config_id: object) -> object:
            text = text_of(config)
            if text not in self.results and not valid(text):
                return picire.Outcome.PASS
            return picire.Outcome.FAIL if self.interesting([text])[0] else picire.Outcome.PASS

        def prefetch(configs: Sequence[Sequence[int]]) -> None:
            self.test_in_batches([text_of(c) for c in configs], valid)

        kept = line_ddmin(tester, prefetch, self.jobs)(list(range(len(lines))))
        text = text_of(kept)
        module = try_read(text)
        if module is None or size(module, text) >= self.best:
            return False
        self.accept(text, module, "lines (picire)")
        return True

    def test_in_batches(self, texts: Sequence[str], valid: Callable[[str], bool]) -> None:
        """Learn the verdicts a sequential search over `texts` would ask for, `jobs` at a time:
        the valid untested ones up to the first interesting one (a batch may test a few after
        it)."""
        batch: list[str] = []
        for text in texts:
            if text in self.results:
                if self.results[text]:
                    break
                continue
            if text in batch or not valid(text):
                continue
            batch.append(text)
            if len(batch) == self.jobs:
                if any(self.interesting(batch)):
                    return
                batch = []
        if batch:
            self.interesting(batch)

    def run(self) -> None:
        self.run_rounds()
        while self.run_text_pass():
            self.run_rounds()


def line_ddmin(
    tester: Callable[[Sequence[int], object], object],
    prefetch: Callable[[Sequence[Sequence[int]]], None],
    jobs: int,
) -> Callable[[list[int]], list[int]]:
    """picire's ddmin (picire.DD). With `jobs` > 1, each round first hands the configurations
    DD will try, in its order, to `prefetch` (which tests them in parallel batches), then DD
    makes its choice as it would alone, from verdicts already known: the result is the same
    for any `jobs` and any timing. (picire.ParallelDD is not: when two running tests are
    interesting, the one that finishes last wins.)"""
    import picire

    if jobs == 1:
        return picire.DD(tester, cache=picire.ConfigCache())

    class BatchedDD(picire.DD):
        # `_reduce_config` is where picire.DD and picire.ParallelDD differ: one round's search
        def _reduce_config(
            self, run: int, subsets: list[list[int]], complement_offset: float
        ) -> tuple[list[list[int]] | None, float]:
            prefetch(ddmin_round(subsets, complement_offset))
            return super()._reduce_config(run, subsets, complement_offset)

    return BatchedDD(tester, cache=picire.ConfigCache())


def ddmin_round(subsets: Sequence[Sequence[int]], complement_offset: float) -> list[list[int]]:
    """The configurations one round of picire.DD tries, in order: each subset, then each
    complement, starting after the one removed last."""
    n = len(subsets)
    complements = []
    for k in range(n):
        i = int((k + complement_offset) % n)
        complements.append([c for j, s in enumerate(subsets) if j != i for c in s])
    return [list(s) for s in subsets] + complements


def write_atomically(path: str, text: str) -> None:
    """Replace `path` by `text` at once, so an interrupted run leaves a whole file."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


# Command line ----------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Reduce a gpuir program while a test still finds it interesting "
        "(llvm-reduce's interface: the test gets the candidate's path last; exit 0 = interesting).",
    )
    parser.add_argument("input_file", help="the program to reduce")
    parser.add_argument("-o", "--output", required=True, help="where the best candidate is kept")
    tests = parser.add_mutually_exclusive_group(required=True)
    tests.add_argument("--test", help="a command: exit 0 on the candidate means interesting")
    tests.add_argument("--crash", metavar="'gpu-opt ARGS'", help="gpu-opt crashes in a pass")
    tests.add_argument("--diagnostic", metavar="REGEX", help="gpu-opt prints a matching one")
    tests.add_argument("--race", action="store_true", help="gpu-run's interp reports a race")
    tests.add_argument("--disagree", metavar="A,B", help="two providers' results differ")
    tests.add_argument(
        "--semantics-change", metavar="PIPELINE", help="gpu-opt --check-semantics fails"
    )
    parser.add_argument("--test-arg", action="append", default=[], help="an argument of --test")
    parser.add_argument("--pipeline", default="gpu-pipeline", help="for --diagnostic")
    parser.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py|MODULE",
        help="a plugin's dialects and passes, for reading the candidates and in every test "
        "(through $GPUIR_PLUGINS)",
    )
    parser.add_argument("-j", "--jobs", type=int, default=1, help="tests run at once (1)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per test (60)")
    return parser.parse_args(argv)


def make_test(args: argparse.Namespace) -> Test:
    if args.test is not None:
        return script_test(args.test, args.test_arg)
    if args.crash is not None:
        return crash_test(args.crash)
    if args.diagnostic is not None:
        return diagnostic_test(args.diagnostic, args.pipeline)
    if args.race:
        return race_test()
    if args.disagree is not None:
        return disagree_test(args.disagree)
    return semantics_test(args.semantics_change)


def first_line(error: BaseException) -> str:
    """The error in one line; a parse error as `file:line:col: message`, as gpu-opt says it."""
    from xdsl.utils.exceptions import ParseError

    if isinstance(error, ParseError):
        from gpuir.ir.source import format_parse_error

        return format_parse_error(error, 0).splitlines()[0].replace(": error: ", ": ", 1)
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def reduce(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise ReduceError(f"{PROG}: error: -j takes a positive number, found {args.jobs}")
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise ReduceError(f"{PROG}: error: the folder of '{args.output}' does not exist")
    try:
        with open(args.input_file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReduceError(f"{PROG}: error: cannot read '{args.input_file}': {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise ReduceError(f"{PROG}: error: cannot read '{args.input_file}': {e.reason}") from e
    try:
        module = read_module(text, args.input_file)
    except Exception as e:  # noqa: BLE001  # the parser's and verifiers' errors, as one line
        raise ReduceError(
            f"{PROG}: error: '{args.input_file}' does not parse and verify: {first_line(e)}"
        ) from e
    test = make_test(args)
    test.timeout = args.timeout
    with tempfile.TemporaryDirectory(prefix="gpu-reduce-") as workdir:
        path = os.path.join(workdir, os.path.basename(args.input_file))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        results = test.results(path)
        if results is None:
            raise ReduceError(
                f"{PROG}: error: the test timed out on the input after {args.timeout} s"
            )
        if test.first is not None:
            test.first(results)
        if not test.judge(results):
            raise ReduceError(
                f"{PROG}: error: the test is not interesting on '{args.input_file}' "
                f"(expected: {test.description})"
            )
        write_atomically(args.output, text)
        reducer = Reducer(test, args.output, args.jobs, workdir, text, module)
        reducer.tests_run = 1
        reducer.results[text] = True
        reducer.progress(f"start: {reducer.ops()} ops; the test: {test.description}")
        try:
            reducer.run()
        finally:
            reducer.pool.shutdown(wait=True, cancel_futures=True)
        reducer.progress(f"done: {reducer.ops()} ops, in '{args.output}'")
    return 0


def load_plugins(specs: list[str]) -> None:
    """Load the `--load-pass-plugin` plugins here (candidates may use their dialects) and
    hand them to every test through `$GPUIR_PLUGINS`."""
    if not specs:
        return
    from gpuir.ir.plugins import PLUGINS_ENV, PluginError
    from gpuir.ir.plugins import load_plugins as load

    specs = [os.path.abspath(spec) if os.path.exists(spec) else spec for spec in specs]
    try:
        load(specs)
    except PluginError as e:
        raise ReduceError(f"{PROG}: error: {e}") from e
    inherited = [s for s in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if s]
    os.environ[PLUGINS_ENV] = os.pathsep.join([*inherited, *specs])


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        load_plugins(args.load_pass_plugin)
        return reduce(args)
    except ReduceError as e:
        print(str(e), file=sys.stderr)
    except SystemExit as e:  # argparse: --help (0), or a usage error it printed (2)
        return 0 if e.code in (0, None) else 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; the best candidate so far is in the output", file=sys.stderr)
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
