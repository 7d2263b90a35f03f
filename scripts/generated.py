"""What the scripts that write a generated file share: write it, or check that it is fresh."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(description: str, output: Path, make: Callable[[], str], script: str) -> int:
    """`script [--check]`: write `make()` to `output`, or with `--check` exit 1 when `output`
    holds something else."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args()
    text = make()
    if args.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current != text:
            print(f"{output.relative_to(ROOT)} is stale: run python scripts/{script}")
            return 1
        return 0
    output.write_text(text, encoding="utf-8")
    return 0
