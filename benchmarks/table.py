"""The table `make bench` prints: one row per measurement, side by side with its peer."""

from __future__ import annotations

import math
import os
import time
import traceback
from dataclasses import dataclass

# --- the table ------------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: `ours` against `peer` (same unit), ratio ours / peer."""

    measure: str
    ours: float | None
    peer: float | None
    peer_name: str
    unit: str
    goal: str = "—"
    """`<= x` or `>= x` on the ratio (`growth` rows: on ours), or `—` for none."""
    note: str = ""
    """Shown instead of the figures when one side was not measured."""

    @property
    def ratio(self) -> float | None:
        if self.ours is None or self.peer is None:
            return None
        if self.peer == 0:
            return 1.0 if self.ours == 0 else math.inf
        return self.ours / self.peer

    @property
    def met(self) -> bool | None:
        if self.goal == "—":
            return None
        value = self.ours if self.unit == "x/10x" else self.ratio
        if value is None:
            return None
        value = round(value, 1 if self.unit == "x/10x" else 2)  # as the table shows it
        sign, bound = self.goal.split()
        return value <= float(bound) if sign == "<=" else value >= float(bound)


def figure(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        if value < 1e-3:
            return f"{value * 1e6:.1f} µs"
        return f"{value * 1e3:.2f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "x/10x":
        return f"{value:.1f}x"
    if unit == "µs":
        return f"{value:.2f} µs"
    return f"{value:g} {unit}".strip()


def cells(row: Row) -> list[str]:
    peer = f"{row.peer_name} {figure(row.peer, row.unit)}" if row.peer is not None else ""
    if row.note and row.peer is None:
        peer = f"{row.peer_name}: {row.note}" if row.peer_name else row.note
    ratio = "—" if row.ratio is None else f"{row.ratio:.2f}"
    met = {None: "—", True: "yes", False: "**no**"}[row.met]
    return [
        row.measure,
        figure(row.ours, row.unit),
        peer,
        ratio,
        row.goal.replace("<=", "≤").replace(">=", "≥"),
        met,
    ]


def markdown(rows: list[Row]) -> str:
    header = ["measure", "ours", "peer", "ratio ours/peer", "goal", "met?"]
    lines = [header, ["---", "---:", "---:", "---:", "---", "---"]] + [cells(r) for r in rows]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines) + "\n"


def plain(rows: list[Row]) -> str:
    header = ["measure", "ours", "peer", "ratio", "goal", "met?"]
    table = [header] + [[c.replace("**", "") for c in cells(r)] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    out = []
    for n, line in enumerate(table):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out) + "\n"


def say(message: str) -> None:
    print(f"[bench {time.perf_counter() - START:6.1f}s] {message}", flush=True)


START = time.perf_counter()


def failed(section: str, error: BaseException) -> Row:
    """A row for a section that could not run; the reason, on one line."""
    reason = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
    if os.environ.get("GPUIR_DEBUG"):
        traceback.print_exception(error)
    return Row(section, None, None, "", "", note=f"not measured: {reason}")
