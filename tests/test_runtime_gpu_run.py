"""gpu-run (gpuir.tools.gpu_run): the command line, argument reading, output format, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, f64, i1, i32

from gpuir.tools import gpu_run
from gpuir.tools.gpu_run import format_results, looks_numeric, parse_args, read_arguments

EXAMPLES = Path(__file__).parent.parent / "examples"

ECHO = """func.func @main(%m: !mem.M<0>, %a: i32, %x: f32) -> (!mem.M<0>, i32, f32) {
  printf.print_format "echo\\n"
  func.return %m, %a, %x : !mem.M<0>, i32, f32
}
"""


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = gpu_run.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def echo(tmp_path: Path) -> str:
    path = tmp_path / "echo.mlir"
    path.write_text(ECHO)
    return str(path)


# --- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["-1", "-1.5", "-1e5", "-inf", "-nan", "-0x10", "-.5"])
def test_negative_numbers_look_numeric(token):
    assert looks_numeric(token)


@pytest.mark.parametrize("token", ["-p", "--time", "-x", "--provider"])
def test_options_do_not(token):
    assert not looks_numeric(token)


def test_negative_arguments_are_arguments_not_options():
    options = parse_args(["f.mlir", "-1e5", "--provider", "interp", "-inf", "-3", "--time"])
    assert options.file == "f.mlir"
    assert options.args == ["-1e5", "-inf", "-3"]
    assert options.provider == "interp" and options.time


def test_double_dash_ends_the_options():
    assert parse_args(["f.mlir", "--", "-p"]).args == ["-p"]


def test_read_arguments_by_parameter_type():
    assert read_arguments(["-1", "0x10", "true"], [i32, i32, i1], "main") == [-1, 16, 1]
    (value,) = read_arguments(["0.1"], [f32], "main")
    assert type(value) is np.float32 and value == np.float32(0.1)
    with pytest.raises(
        gpu_run.GpuRunError, match=r"@main takes 2 argument\(s\) \(i32, f64\), got 1"
    ):
        read_arguments(["1"], [i32, f64], "main")
    with pytest.raises(gpu_run.GpuRunError, match="argument 2 of @main: 'x' is not a number"):
        read_arguments(["1", "x"], [i32, f16], "main")


def test_results_one_per_line():
    results = [
        (-5, i32),
        (1, i1),
        (np.float32(0.1), f32),
        (np.float64(1) / 3, f64),
        (np.float16(65504), f16),
        (np.float32("nan"), f32),
    ]
    assert format_results(results) == "-5\n1\n0.1\n0.3333333333333333\n6.55e+04\nnan\n"


# --- runs ----------------------------------------------------------------------------------------


def test_run_prints_printf_then_results(echo, capsys):
    status, out, err = run([echo, "--provider", "interp", "-7", "2.5"], capsys)
    assert (status, out, err) == (0, "echo\n-7\n2.5\n", "")


def test_examples_run_on_interp(capsys):
    status, out, _ = run(
        [str(EXAMPLES / "two-configurations.mlir"), "--provider", "interp"], capsys
    )
    assert (status, out) == (0, "0\n24\n")


def test_wrong_argument_count_is_a_clear_error(echo, capsys):
    status, out, err = run([echo, "--provider", "interp", "1"], capsys)
    assert status == 1 and out == ""
    first = err.splitlines()[0]  # at @main's definition, with its source line
    assert first.endswith(":1:1: error: @main takes 2 argument(s) (i32, f32), got 1")


def test_a_provider_that_does_not_exist_yet(echo, capsys, monkeypatch):
    from gpuir import runtime

    monkeypatch.setitem(runtime.PROVIDERS, "cpu", "gpuir.runtime.not_here_yet:CpuProvider")
    status, out, err = run([echo, "--provider", "cpu", "1", "2"], capsys)
    assert status == 1 and out == ""
    assert "gpu-run: error: the cpu provider is not available yet" in err


def test_unknown_provider_is_a_usage_error(echo, capsys):
    status, _, err = run([echo, "--provider", "tpu"], capsys)
    assert status == 1 and "invalid choice: 'tpu'" in err


def test_missing_file(capsys):
    status, _, err = run(["/no/such.mlir", "--provider", "interp"], capsys)
    assert status == 1 and err.startswith("gpu-run: error: cannot read '/no/such.mlir'")


def test_parse_errors_are_located(tmp_path, capsys):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @main(%m: !mem.M<0>) -> !mem.M<0> {\n  %x = arith.constant 1\n}\n")
    status, _, err = run([str(path), "--provider", "interp"], capsys)
    assert status == 1 and err.startswith(f"{path}:2:")
    assert "Traceback" not in err


def test_no_main(tmp_path, capsys):
    path = tmp_path / "empty.mlir"
    path.write_text("// nothing\n")
    status, _, err = run([str(path), "--provider", "interp"], capsys)
    assert status == 1 and "has no function @main" in err


def test_main_with_a_pointer_parameter_is_rejected(tmp_path, capsys):
    path = tmp_path / "ptr.mlir"
    path.write_text(
        "func.func @main(%m: !mem.M<0>, %p: !mem.ptr<i32, 0>) -> !mem.M<0> {\n"
        "  func.return %m : !mem.M<0>\n}\n"
    )
    status, _, err = run([str(path), "--provider", "interp"], capsys)
    assert status == 1
    assert (
        "@main takes a value of type !mem.ptr<i32, 0>; only integers, index and f16/f32/f64" in err
    )


def test_runtime_errors_are_diagnostics_with_notes(capsys):
    path = Path(__file__).parent / "lit" / "run" / "race-shared.mlir"
    status, out, err = run([str(path), "--provider", "interp"], capsys)
    assert status == 1 and out == ""
    assert "error: race on shared memory" in err and "note: the other access" in err
    assert "Traceback" not in err


def test_print_ir_after_all_and_time_go_to_stderr(echo, capsys):
    status, out, err = run(
        [echo, "--provider", "interp", "--print-ir-after-all", "--time", "1", "2"], capsys
    )
    assert status == 0 and out == "echo\n1\n2.0\n"
    assert (
        "// -----// IR Dump After LowerBTensorMapReduce (lower-btensor-map-reduce) //----- //"
        in err
    )
    assert "// -----// IR Dump After SplitApply (split-apply) //----- //" in err
    assert "gpu-run: time: run" in err and "gpu-run: time: total" in err


def test_a_pipeline_of_ones_own(echo, capsys):
    status, out, err = run([echo, "--provider", "interp", "-p", "canonicalize", "3", "4"], capsys)
    assert (status, out, err) == (0, "echo\n3\n4.0\n", "")
    status, _, err = run([echo, "--provider", "interp", "-p", "canonicalise", "3", "4"], capsys)
    assert (
        status == 1
        and err == "gpu-run: error: unknown pass 'canonicalise' (did you mean 'canonicalize'?)\n"
    )


def test_an_unsplit_program_runs_too(capsys):
    """Without the default pipeline the program is its own host and device module."""
    path = EXAMPLES / "array.mlir"
    status, out, err = run([str(path), "--provider", "interp", "-p", "canonicalize"], capsys)
    assert (status, out, err) == (0, "60\n", "")
