"""`python -m differential [--count N] [--seed S] [--jobs J] [--out DIR] [--planted]` (from
`tests/`): run programs `S … S+N-1` of the generator under `cpu` and `interp` and compare their
results. Each disagreement is written to `DIR/seed-<n>.mlir`; the exit status is 1 when there
was one.

With `--planted`, each program instead carries each bug of `planted.PLANTS` in turn (where it
can) and runs under `interp` (with `--checked`: under `cpu --check` too), which must end it with
the error at the first faulty access; a bug missed is written to `DIR/seed-<n>-<bug>.mlir`.

With `--pass PLUGIN:NAME` (a plugin file or module, and one of its passes; or a registered
pass's NAME alone), each program runs
through `NAME,gpu-pipeline` under `gpu-opt --check-semantics`: a program whose results the pass
changes (or where it introduces a sanitizer error) is written to `DIR/seed-<n>.mlir` with
gpu-opt's diagnostic."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path

from differential.generator import generate
from differential.planted import PLANTS, find_planted
from differential.running import CHECKED, compare

Failure = tuple[str, str, str, str]
"""What a worker found wrong with one program: the file name to save it as, its text, why (the
file's `//` comments) and the words before the file's path in the line printed."""
Checked = tuple[int, list[Failure]]
"""What a worker did with one seed: how many runs it checked, and the failures among them."""


def check(seed: int) -> Checked:
    agree, text, found, expected = compare(seed)
    if agree:
        return 1, []
    why = f"cpu: {found}\ninterp: {expected}"
    words = f"seed {seed}: cpu and interp disagree; the program is in"
    return 1, [(f"seed-{seed}.mlir", text, why, words)]


PROVIDERS = ["interp"]
"""Where `--planted` runs the programs (`--checked` adds `cpu --check`)."""


def check_planted(seed: int) -> Checked:
    planted, missed = 0, []
    for plant in PLANTS:
        for provider in PROVIDERS:
            caught, text, outcome = find_planted(seed, plant, provider)
            if not text:
                continue
            planted += 1
            if not caught:
                words = f"seed {seed}: the planted {plant} ({provider}) was missed; see"
                missed.append((f"seed-{seed}-{plant}.mlir", text, outcome, words))
    return planted, missed


PASS: list[str] = []
"""`--pass`: the plugin and the pass name (set before the workers start)."""


def check_pass(seed: int) -> Checked:
    """The program of `seed` with gpu-opt's diagnostic when the pass changes it."""
    import contextlib
    import io
    import tempfile

    from gpuir.tools.gpu_opt import main as gpu_opt

    plugin, name = PASS
    text = generate(seed)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        plugins = [f"--load-pass-plugin={plugin}"] if plugin else []
        flags = ["-p", f"{name},gpu-pipeline", "--check-semantics", "-o", "/dev/null"]
        status = gpu_opt([f.name, *plugins, *flags])
    Path(f.name).unlink()
    if status == 0 or "--check-semantics: pass" not in err.getvalue():
        return 1, []
    why = err.getvalue().replace(f.name, f"seed-{seed}.mlir")
    words = f"seed {seed}: {name} changes the program; see"
    return 1, [(f"seed-{seed}.mlir", text, why, words)]


def check_all(
    args: argparse.Namespace, worker: Callable[[int], Checked], summary: Callable[[int, int], str]
) -> int:
    """`worker(seed)` for each seed of the run, on `--jobs` processes: each failure is saved
    and printed as it comes, then `summary(checked, failed)` and the time. The exit status: 1
    when anything failed."""
    start = time.monotonic()
    checked, failed = 0, 0
    seeds = range(args.seed, args.seed + args.count)
    with multiprocessing.Pool(args.jobs) as pool:
        for runs, failures in pool.imap_unordered(worker, seeds, chunksize=4):
            checked += runs
            for name, text, why, words in failures:
                failed += 1
                print(f"{words} {save(args.out, name, text, why)}", flush=True)
    print(f"{summary(checked, failed)}, {time.monotonic() - start:.1f} s")
    return 1 if failed else 0


def programs(args: argparse.Namespace) -> str:
    """What the run covered, for its summary: `N programs (seeds S..E)`."""
    return f"{args.count} programs (seeds {args.seed}..{args.seed + args.count - 1})"


def save(out: Path, name: str, text: str, why: str) -> Path:
    """The program `text` as `out/name`, with `why` after it as `//` comments."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(text + "\n" + "".join(f"// {line}\n" for line in why.splitlines()))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m differential", description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first program's seed")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--out", type=Path, default=Path("differential-failures"))
    parser.add_argument("--planted", action="store_true", help="plant bugs; interp must find them")
    parser.add_argument(
        "--checked", action="store_true", help="with --planted: cpu --check must find them too"
    )
    parser.add_argument(
        "--pass",
        dest="pass_",
        metavar="PLUGIN:NAME",
        help="check the pass NAME of plugin PLUGIN on each program with --check-semantics",
    )
    args = parser.parse_args(argv)
    if args.pass_:
        plugin, _, name = args.pass_.rpartition(":")
        if not name:
            parser.error(f"--pass takes PLUGIN:NAME or a registered pass's NAME: '{args.pass_}'")
        PASS[:] = [plugin, name]
        return check_all(
            args,
            check_pass,
            lambda checked, changed: (
                f"{programs(args)} through {name}: {checked - changed} unchanged, {changed} changed"
            ),
        )
    if args.planted:
        if args.checked:
            PROVIDERS.append(CHECKED)
        return check_all(
            args,
            check_planted,
            lambda planted, missed: (
                f"{planted} planted bugs in {programs(args)} on {', '.join(PROVIDERS)}: "
                f"{planted - missed} found, {missed} missed"
            ),
        )
    return check_all(
        args,
        check,
        lambda checked, failed: f"{programs(args)}: {checked - failed} agree, {failed} disagree",
    )


if __name__ == "__main__":
    sys.exit(main())
