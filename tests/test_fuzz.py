"""The fuzzer (tests/fuzz) in CI size: 300 mutants of the lit corpus through gpu-opt (no pass,
each of gpuir's passes, `-t llvm`, `-t ptx`, `-t dot`) and `gpu-run --provider interp`, none
of which may end in a traceback, an internal error, a crash or a hang. `make fuzz` is the long
run; a failure here is reproduced with `make fuzz FUZZ_ARGS='--seed 0 --only N'`.
"""

from __future__ import annotations

import faulthandler
import os
import signal

import pytest
from fuzz import harness
from fuzz.harness import (
    FAILURES,
    Target,
    all_targets,
    classify,
    failure_signature,
    fuzz,
    run_input,
)
from fuzz.mutate import Mutant, Seed, load_corpus, mutant

SEED = 0
COUNT = 300


def test_the_corpus_is_the_lit_tests_and_the_examples():
    paths = {seed.path for seed in load_corpus()}
    assert "examples/array.mlir" in paths
    assert any(path.startswith("tests/lit/passes/") for path in paths)
    assert all(path.endswith(".mlir") and "/Output/" not in path for path in paths)


def test_inputs_are_a_function_of_seed_and_index():
    corpus = load_corpus()
    assert mutant(corpus, 3, 17) == mutant(corpus, 3, 17)
    assert mutant(corpus, 3, 17).text != mutant(corpus, 4, 17).text
    assert all(mutant(corpus, SEED, i).mutations for i in range(50))


def test_every_pass_and_target_is_fuzzed():
    from gpuir.passes import get_all_passes

    names = {target.name for target in all_targets()}
    assert {f"gpu-opt -p {name}" for name in get_all_passes()} <= names
    assert {"gpu-opt", "gpu-opt -t llvm", "gpu-opt -t ptx", "gpu-opt -t dot"} <= names
    assert "gpu-run --provider interp" in names


@pytest.mark.parametrize(
    ("status", "err", "expected"),
    [
        (0, "", "ok"),
        (1, "x.mlir:1:1: error: bad", "error"),
        (1, "gpu-opt: internal error: KeyError: 'x'", "internal"),
        (1, "Traceback (most recent call last):\n  ...", "traceback"),
        (1, "", "no-diagnostic"),
        (2, "x.mlir:1:1: error: bad", "exit-status"),
    ],
)
def test_the_oracle(status: int, err: str, expected: str):
    assert classify(status, "", err, "").status == expected


def test_a_failure_signature_blurs_paths_and_numbers():
    from fuzz.harness import Outcome

    a = Outcome("t", "internal", detail="gpu-opt: internal error: ValueError: 12 is too big")
    b = Outcome("t", "internal", detail="gpu-opt: internal error: ValueError: 7 is too big")
    assert failure_signature(a) == failure_signature(b)


def test_fuzz_ci_run():
    """300 inputs, seed 0, 2 workers: no failure (well under a minute on 2 cores)."""
    campaign = fuzz(SEED, range(COUNT), jobs=2, timeout=20.0, run_timeout=10.0)
    assert len(campaign.results) == COUNT
    ran = {t.name: 0 for t in all_targets()}
    for result in campaign.results:
        for outcome in result.outcomes:
            ran[outcome.target] += outcome.status != "skipped"
    assert ran["gpu-opt"] == COUNT
    assert min(ran.values()) > COUNT // 10  # enough inputs verify to reach every configuration
    failures = [
        f"input {i}: {o.status} in `{o.target}`: {failure_signature(o)}"
        for i, o in campaign.failures()
    ]
    assert not failures, "\n".join(failures)
    assert all(isinstance(t, Target) for t in campaign.targets) and FAILURES


def test_each_text_a_target_prints_is_read_back_once(tmp_path, monkeypatch):
    """Targets that print the same text share one read-back; a text that does not read back
    fails every target that printed it, each with its own command line."""
    calls: list[list[str]] = []
    call_tool = harness.call_tool
    monkeypatch.setattr(
        harness, "call_tool", lambda tool, argv: calls.append(argv) or call_tool(tool, argv)
    )
    path = tmp_path / "input-0.mlir"
    path.write_text("func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n")
    targets = [
        Target("plain", "gpu-opt", (), roundtrip=True),
        Target("canonicalize", "gpu-opt", ("-p", "canonicalize"), roundtrip=True),
        Target("llvm", "gpu-opt", ("-t", "llvm"), roundtrip=True),  # not MLIR
        Target("llvm again", "gpu-opt", ("-t", "llvm", "--mlir-timing"), roundtrip=True),
    ]
    mutant = Mutant(0, Seed("test", 0, path.read_text()), (), path.read_text())
    result, _ = run_input(None, mutant, str(path), targets, {"gpu-opt": 20.0})
    assert [o.status for o in result.outcomes] == ["ok", "ok", "roundtrip", "roundtrip"]
    assert "'-t llvm'" in result.outcomes[2].detail
    assert "'-t llvm --mlir-timing'" in result.outcomes[3].detail
    read_backs = [argv for argv in calls if argv[0].endswith(".out.mlir")]
    assert len(read_backs) == 2  # one for the MLIR text, one for the LLVM IR


SLOW = """\
func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %many = arith.constant 1000000000 : index
  %r = scf.for %i = %zero to %many step %one iter_args(%x = %zero) -> (index) {
    %y = arith.addi %x, %one : index
    scf.yield %y : index
  }
  func.return %m, %r : !mem.M<0>, index
}
"""


def crashing_inputs(index: int) -> Mutant:
    """Input 1 kills its worker (as a segfault in LLVM would); input 2 runs long."""
    if index == 1:
        faulthandler.disable()  # pytest's, inherited by the worker: no stack dump here
        os.kill(os.getpid(), signal.SIGSEGV)
    text = SLOW if index == 2 else "func.func @f() {\n  func.return\n}\n"
    return Mutant(index, Seed("test", 0, text), (), text)


def test_a_crash_or_a_long_run_costs_one_worker_not_the_campaign():
    targets = [t for t in all_targets() if t.name in ("gpu-opt", "gpu-run --provider interp")]
    campaign = fuzz(0, range(4), 2, 20.0, 3.0, targets, inputs=crashing_inputs)
    statuses = {r.index: [o.status for o in r.outcomes] for r in campaign.results}
    assert statuses[0] == statuses[3] == ["ok", "error"]  # no @main to run: a diagnostic
    assert statuses[1][0] == "crash"
    assert "signal 11" in campaign.failures()[0][1].detail
    assert statuses[2] == ["ok", "slow-run"]
