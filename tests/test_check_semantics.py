"""`gpu-opt --check-semantics` raises no false alarm: every example keeps what @main computes,
prints and reports through gpu-pipeline (and the unit pieces: comparing floats in ULPs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, f64

from gpuir.tools.check_semantics import same_value, ulps
from gpuir.tools.gpu_opt import main as gpu_opt

EXAMPLES = Path(__file__).parent.parent / "examples"
SMALL_ARGS = {  # the examples that take arguments, with sizes that keep interp quick
    "manual-streams": ["5"],
    "manual-sync": ["9"],
    "no-arguments": ["7"],
    "scoped-streams": ["5"],
    "scoped-sync": ["9"],
    "two-arguments": ["1"],
    "histogram": ["300"],
    "global-sum": ["300"],
    "compaction": ["100"],
    "warp-reduce": ["100"],
}


@pytest.mark.parametrize(
    "example",
    sorted(p.stem for p in EXAMPLES.glob("*.mlir") if not p.stem.startswith("invalid-")),
)
def test_no_false_alarm_on_the_examples(example: str, capsys):
    args = " ".join(SMALL_ARGS.get(example, []))
    status = gpu_opt(
        [
            str(EXAMPLES / f"{example}.mlir"),
            "-p",
            "gpu-pipeline",
            "--check-semantics",
            "--check-args",
            args,
            "-o",
            "/dev/null",
        ]
    )
    err = capsys.readouterr().err
    assert status == 0, err
    assert "error" not in err


def test_floats_compare_exactly_unless_a_tolerance_is_given():
    assert ulps(1.0, 1.0, f32) == 0
    assert ulps(1.0, float(np.nextafter(np.float32(1.0), np.float32(2.0))), f32) == 1
    assert ulps(-0.0, 0.0, f64) == 0
    assert not same_value(7.9, 7.8999996, f32, 0)
    assert same_value(7.9, 7.8999996, f32, 1)
    assert same_value(float("nan"), float("nan"), f32, 0)
    assert not same_value(float("nan"), 1.0, f32, 5)
