"""`python -m differential [--count N] [--seed S] [--jobs J] [--out DIR] [--planted]` (from
`tests/`): run programs `S … S+N-1` of the generator under `cpu` and `interp` and compare their
results. Each disagreement is written to `DIR/seed-<n>.mlir`; the exit status is 1 when there
was one.

With `--planted`, each program instead carries each bug of `generator.PLANTS` in turn (where it
can) and runs under `interp` (with `--checked`: under `cpu --check` too), which must end it with
the error at the first faulty access; a bug missed is written to `DIR/seed-<n>-<bug>.mlir`."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

from differential.generator import CHECKED, PLANTS, compare, find_planted


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


def planted_main(args: argparse.Namespace) -> int:
    start = time.monotonic()
    seeds = range(args.seed, args.seed + args.count)
    planted, missed = 0, 0
    with multiprocessing.Pool(args.jobs) as pool:
        for seed, found in pool.imap_unordered(check_planted, seeds, chunksize=4):
            for plant, caught, text, outcome in found:
                planted += 1
                if caught:
                    continue
                missed += 1
                args.out.mkdir(parents=True, exist_ok=True)
                path = args.out / f"seed-{seed}-{plant.split()[0]}.mlir"
                path.write_text(
                    text + "\n" + "".join(f"// {line}\n" for line in outcome.splitlines())
                )
                print(f"seed {seed}: the planted {plant} was missed; see {path}", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"{planted} planted bugs in {args.count} programs (seeds {args.seed}.."
        f"{args.seed + args.count - 1}) on {', '.join(PROVIDERS)}: {planted - missed} found, "
        f"{missed} missed, "
        f"{elapsed:.1f} s"
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
    args = parser.parse_args(argv)
    if args.planted:
        if args.checked:
            PROVIDERS.append(CHECKED)
        return planted_main(args)
    start = time.monotonic()
    seeds = range(args.seed, args.seed + args.count)
    failed: list[int] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for seed, agree, text, why in pool.imap_unordered(check, seeds, chunksize=4):
            if agree:
                continue
            failed.append(seed)
            args.out.mkdir(parents=True, exist_ok=True)
            path = args.out / f"seed-{seed}.mlir"
            path.write_text(text + "\n" + "".join(f"// {line}\n" for line in why.splitlines()))
            print(f"seed {seed}: cpu and interp disagree; the program is in {path}", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"{args.count} programs (seeds {args.seed}..{args.seed + args.count - 1}): "
        f"{args.count - len(failed)} agree, {len(failed)} disagree, {elapsed:.1f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
