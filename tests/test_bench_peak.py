"""`benchmarks/peak.py`: a process's peak memory is its own, whatever the process that starts it
holds (`make bench` reported the same 944.9 MB for every row: the children inherited the
benchmark's own peak through fork and exec)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PEAK = Path(__file__).resolve().parent.parent / "benchmarks" / "peak.py"

TOUCH = "x = bytearray({mb} << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\n"


def load_peak():
    spec = importlib.util.spec_from_file_location("bench_peak", PEAK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rows_of_different_sizes_report_different_peaks():
    peak = load_peak()
    held = bytearray(400 << 20)  # this process's peak: over 400 MB
    for i in range(0, len(held), 4096):
        held[i] = 1
    _, small, small_status = peak.run([sys.executable, "-c", TOUCH.format(mb=16)])
    _, large, large_status = peak.run([sys.executable, "-c", TOUCH.format(mb=160)])
    assert small_status == large_status == 0
    assert 16 < small < 100, small
    assert 160 < large < 260, large
    del held


def test_exit_status_and_a_command_that_cannot_start():
    peak = load_peak()
    seconds, _, status = peak.run([sys.executable, "-c", "raise SystemExit(3)"])
    assert status == 3 and seconds > 0
    assert peak.run(["/nonexistent/command"])[2] == 127
