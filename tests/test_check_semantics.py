"""`gpu-opt --check-semantics` raises no false alarm: every example keeps what @main computes,
prints and reports through gpu-pipeline (and the unit pieces: comparing floats in ULPs)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from example_args import EXAMPLE_ARGS
from xdsl.dialects.builtin import f32, f64

from gpuir.tools.check_semantics import same_value, ulps
from gpuir.tools.gpu_opt import main as gpu_opt

EXAMPLES = Path(__file__).parent.parent / "examples"
SMALL_ARGS = {  # the examples' arguments, with sizes that keep interp quick
    **EXAMPLE_ARGS,
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


RUN_PROGRAMS = Path(__file__).parent / "lit" / "run"
GPU_RUN = re.compile(r"^// RUN: (not )?gpu-run %s(?P<rest>[^|]*)", re.MULTILINE)
VALUED_FLAGS = {"--provider", "--index-bitwidth"}


def run_arguments(path: Path) -> list[str] | None:
    """@main's arguments on the program's first `gpu-run %s` RUN line that runs gpu-pipeline
    (no -p, no --upstream), or None when it has none."""
    for match in GPU_RUN.finditer(path.read_text()):
        words = shlex.split(match.group("rest").replace("2>&1", ""))
        if any(w in ("-p", "--passes", "--upstream", "-") for w in words):
            continue
        args, skip = [], False
        for word in words:
            if skip:
                skip = False
            elif word in VALUED_FLAGS:
                skip = True
            elif not (word.startswith("--") or word.startswith(">")):
                args.append(word)
        return args
    return None


RUN_CASES = sorted(
    (p.name, args) for p in RUN_PROGRAMS.glob("*.mlir") if (args := run_arguments(p)) is not None
)


@pytest.mark.parametrize(("program", "args"), RUN_CASES, ids=[name for name, _ in RUN_CASES])
def test_no_false_alarm_on_the_run_programs(program: str, args: list[str], capsys):
    """The lit run programs, with their RUN line's arguments: their results, output or
    planted error (a race, out of bounds, …) stay as they are through every stage."""
    status = gpu_opt(
        [
            str(RUN_PROGRAMS / program),
            "-p",
            "gpu-pipeline",
            "--check-semantics",
            "--check-args",
            shlex.join(args),
            "-o",
            "/dev/null",
        ]
    )
    err = capsys.readouterr().err
    assert "--check-semantics: pass" not in err, err
    assert status == 0 or "--check-semantics" not in err, err


def test_a_pass_that_changes_nothing_reuses_the_last_run(monkeypatch, capsys):
    """interp runs once per distinct IR: the input, and after each pass that changed it."""
    from gpuir.tools import check_semantics

    texts: list[str] = []
    observe = check_semantics.observe

    def counting(module, args):
        texts.append(check_semantics.generic_text(module))
        return observe(module, args)

    monkeypatch.setattr(check_semantics, "observe", counting)
    status = gpu_opt(
        [
            str(EXAMPLES / "array.mlir"),
            "-p",
            "cse,canonicalize,cse,canonicalize,gpu-pipeline",
            "--check-semantics",
            "-o",
            "/dev/null",
        ]
    )
    assert status == 0, capsys.readouterr().err
    assert len(texts) >= 2
    pairs = zip(texts, texts[1:], strict=False)
    assert all(a != b for a, b in pairs), "an unchanged module ran again"
