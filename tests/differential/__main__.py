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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from differential.generator import generate
from differential.planted import PLANTS, find_planted
from differential.running import CHECKED, compare

T = TypeVar("T")


def check(seed: int) -> tuple[int, bool, str, str]:
    agree, text, found, expected = compare(seed)
    return seed, agree, text, "" if agree else f"cpu: {found}\ninterp: {expected}"


PROVIDERS = ["interp"]
"""Where `--planted` runs the programs (`--checked` adds `cpu --check`)."""


def check_planted(seed: int) -> tuple[int, list[tuple[str, bool, str, str]]]:
    found = []
    for plant in PLANTS:
        for provider in PROVIDERS:
            caught, text, outcome = find_planted(seed, plant, provider)
            if text:
                found.append((f"{plant} ({provider})", caught, text, outcome))
    return seed, found


PASS: list[str] = []
"""`--pass`: the plugin and the pass name (set before the workers start)."""


def check_pass(seed: int) -> tuple[int, str, str]:
    """The program of `seed` and gpu-opt's diagnostic when the pass changes it, else ''."""
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
    changed = status != 0 and "--check-semantics: pass" in err.getvalue()
    return seed, text, err.getvalue().replace(f.name, f"seed-{seed}.mlir") if changed else ""


def results(args: argparse.Namespace, worker: Callable[[int], T]) -> Iterator[T]:
    """`worker(seed)` for each seed of the run, as they finish, on `--jobs` processes."""
    seeds = range(args.seed, args.seed + args.count)
    with multiprocessing.Pool(args.jobs) as pool:
        yield from pool.imap_unordered(worker, seeds, chunksize=4)


def programs(args: argparse.Namespace) -> str:
    """What the run covered, for its summary: `N programs (seeds S..E)`."""
    return f"{args.count} programs (seeds {args.seed}..{args.seed + args.count - 1})"


def save(out: Path, name: str, text: str, why: str) -> Path:
    """The program `text` as `out/name`, with `why` after it as `//` comments."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(text + "\n" + "".join(f"// {line}\n" for line in why.splitlines()))
    return path


def pass_main(args: argparse.Namespace) -> int:
    start = time.monotonic()
    changed = 0
    for seed, text, why in results(args, check_pass):
        if not why:
            continue
        changed += 1
        path = save(args.out, f"seed-{seed}.mlir", text, why)
        print(f"seed {seed}: {PASS[1]} changes the program; see {path}", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"{programs(args)} through {PASS[1]}: {args.count - changed} unchanged, "
        f"{changed} changed, {elapsed:.1f} s"
    )
    return 1 if changed else 0


def planted_main(args: argparse.Namespace) -> int:
    start = time.monotonic()
    planted, missed = 0, 0
    for seed, found in results(args, check_planted):
        for plant, caught, text, outcome in found:
            planted += 1
            if caught:
                continue
            missed += 1
            path = save(args.out, f"seed-{seed}-{plant.split()[0]}.mlir", text, outcome)
            print(f"seed {seed}: the planted {plant} was missed; see {path}", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"{planted} planted bugs in {programs(args)} on {', '.join(PROVIDERS)}: "
        f"{planted - missed} found, {missed} missed, {elapsed:.1f} s"
    )
    return 1 if missed else 0


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
        return pass_main(args)
    if args.planted:
        if args.checked:
            PROVIDERS.append(CHECKED)
        return planted_main(args)
    start = time.monotonic()
    failed: list[int] = []
    for seed, agree, text, why in results(args, check):
        if agree:
            continue
        failed.append(seed)
        path = save(args.out, f"seed-{seed}.mlir", text, why)
        print(f"seed {seed}: cpu and interp disagree; the program is in {path}", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"{programs(args)}: {args.count - len(failed)} agree, {len(failed)} disagree, "
        f"{elapsed:.1f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
