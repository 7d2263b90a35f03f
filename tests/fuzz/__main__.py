"""`python -m fuzz` (from tests/, or with tests/ on PYTHONPATH): the long fuzz run.

Prints how many inputs it tried, per configuration, and every distinct failure with the inputs
that show it; each failing input is saved (with a note of what failed) under `--results`.
Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from fuzz.harness import (
    FAILURES,
    all_targets,
    fuzz,
    replay_inputs,
    save_failures,
    summary,
    unlocated,
)
from fuzz.mutate import ROOT

DEFAULT_RESULTS = ROOT / "benchmarks" / "results" / "fuzz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make fuzz", description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--count", type=int, default=10_000, help="inputs (default 10000)")
    parser.add_argument("--start", type=int, default=0, help="the first input's index")
    parser.add_argument("--only", type=int, nargs="+", help="just these inputs (reproduce)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--timeout", type=float, default=20.0, help="s per gpu-opt run")
    parser.add_argument("--run-timeout", type=float, default=10.0, help="s per gpu-run run")
    parser.add_argument("--target", action="append", help="only the configurations named so")
    parser.add_argument(
        "--providers", default="interp", help="gpu-run's providers, comma-separated (interp)"
    )
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS, help="failing inputs")
    parser.add_argument("--print", action="store_true", help="print the inputs, run nothing")
    parser.add_argument("--replay", type=Path, nargs="+", help="run these files instead")
    args = parser.parse_args(argv)

    indices = args.only or list(range(args.start, args.start + args.count))
    inputs = None
    if args.replay:
        indices, inputs = list(range(len(args.replay))), replay_inputs(args.replay)
    if args.print:
        from fuzz.mutate import load_corpus, mutant

        corpus = load_corpus()
        for i in indices:
            m = mutant(corpus, args.seed, i)
            print(f"// input {i}: {m.seed.path} chunk {m.seed.chunk}: {'; '.join(m.mutations)}")
            print(m.text)
        return 0
    targets = all_targets(args.providers.split(","))
    if args.target:
        targets = [t for t in targets if t.name in args.target]
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if time.monotonic() - last[0] > 30 or done == total:
            last[0] = time.monotonic()
            print(f"fuzz: {done}/{total} inputs", file=sys.stderr, flush=True)

    campaign = fuzz(
        args.seed, indices, args.jobs, args.timeout, args.run_timeout, targets, progress, inputs
    )
    runs = sum(1 for r in campaign.results for o in r.outcomes if o.status != "skipped")
    print(
        f"fuzz: seed {args.seed}: {len(campaign.results)} inputs, {runs} runs "
        f"in {campaign.seconds:.0f} s with {args.jobs} jobs"
    )
    print(summary(campaign))
    slow = [r.index for r in campaign.results if any(o.status == "slow-run" for o in r.outcomes)]
    if slow:
        print(f"fuzz: gpu-run ran @main past its time bound (not failures): inputs {slow[:20]}")
    messages = sorted(unlocated(campaign).items(), key=lambda item: -item[1][0])
    if messages:
        print("fuzz: the most frequent diagnostics without a file:line:col (not failures):")
        for message, (count, index) in messages[:10]:
            print(f"  {count:5} × {message}  (e.g. input {index})")
    failures = campaign.failures()
    if not failures:
        print("fuzz: no failures")
        return 0
    folder = args.results / f"seed{args.seed}"
    groups = save_failures(campaign, folder)
    print(f"fuzz: {len(failures)} failures, {len(groups)} distinct, saved under {folder}:")
    for signature, group in sorted(groups.items(), key=lambda g: -len(g[1].paths)):
        print(f"  {len(group.paths):5} inputs: {signature}")
        print(f"          in: {', '.join(sorted(group.targets))}")
        for path in group.paths[:3]:
            print(f"          {path}")
    assert all(o.status in FAILURES for _, o in failures)
    return 1


if __name__ == "__main__":
    sys.exit(main())
