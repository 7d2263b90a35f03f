"""Run MLIR's GPU integration tests with gpu-run on gpuir's CPU providers.

Give it a folder of MLIR's integration tests that you fetched yourself (for example
`mlir/test/Integration/GPU/CUDA/*.mlir`, `CUDA/TensorCore/*.mlir` and `ROCM/*.mlir` of an LLVM
22 checkout); it runs each file under it with `gpu-run FILE --provider P` for each provider (with
`--upstream-pass=NAME` for each mlir-opt pass of its RUN line that gpu-run runs itself,
`UPSTREAM_PASSES`; gpu-run's import and pipeline stand for the others) and checks the output with LLVM's FileCheck against the file's own CHECK lines, with the prefix its
RUN line uses. A file whose RUN lines run no program (they check mlir-opt's or ptxas' output)
is reported as compile-only. Nothing of MLIR's text is kept here: this script only reads the
files it is given.

    python scripts/run_mlir_integration.py /tmp/mlir-integration [--provider interp,cpu]

It prints one line per file: its status on each provider and the first error line, then the
counts. The exit status is 0.
"""

import argparse
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RUNNERS = ("mlir-runner", "mlir-cpu-runner", "mlir-rocm-runner")
UPSTREAM_PASSES = ("convert-vector-to-gpu",)
"""The mlir-opt passes of a RUN line that gpu-run runs itself (`--upstream-pass`); gpu-run's
import and pipeline stand for every other (MLIR's lowering to NVVM or ROCDL)."""
GPU_RUN = str(Path(sys.executable).with_name("gpu-run"))


@dataclass(frozen=True)
class Plan:
    """What a file's RUN lines ask: the FileCheck prefixes, stderr checked too, or no program."""

    prefixes: tuple[str, ...] | None  # None: the program runs without FileCheck
    with_stderr: bool
    compile_only: bool
    passes: tuple[str, ...] = ()  # the UPSTREAM_PASSES its mlir-opt stages name, in order


def run_lines(text: str) -> list[str]:
    """The file's RUN commands, each with its continuation lines joined."""
    commands, current = [], ""
    for line in text.splitlines():
        match = re.match(r"\s*//\s*RUN:(.*)$", line)
        if not match:
            continue
        part = match.group(1).strip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        commands.append(current + part)
        current = ""
    return commands


def plan_of(text: str) -> Plan:
    """The RUN line that runs the program (a runner in its pipeline), or compile-only."""
    commands = run_lines(text)
    running = [c for c in commands if any(re.search(rf"\b{r}\b", c) for r in RUNNERS)]
    if not running:
        return Plan(("CHECK",), False, True)
    command = running[0]
    stages = command.split("|")
    passes = tuple(
        word.lstrip("-")
        for stage in stages
        if "mlir-opt" in stage
        for word in shlex.split(stage)
        if word.lstrip("-") in UPSTREAM_PASSES and word.startswith("-")
    )
    filecheck = [s for s in stages if "FileCheck" in s]
    if not filecheck:
        return Plan(None, "2>&1" in command, False, passes)
    prefixes: list[str] = []
    words = shlex.split(filecheck[0])
    for i, word in enumerate(words):
        for flag in ("--check-prefix", "-check-prefix", "--check-prefixes", "-check-prefixes"):
            if word == flag and i + 1 < len(words):
                prefixes += words[i + 1].split(",")
            elif word.startswith(flag + "="):
                prefixes += word.split("=", 1)[1].split(",")
    runner_stage = next(s for s in stages if any(r in s for r in RUNNERS))
    return Plan(tuple(prefixes) or ("CHECK",), "2>&1" in runner_stage, False, passes)


def first_error(text: str) -> str:
    """The first line that says what went wrong."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"error|Error|Traceback|not supported|unknown|expected", line):
            return line[:200]
    return lines[0][:200] if lines else ""


def run_one(path: Path, plan: Plan, provider: str, timeout: float) -> tuple[bool, str]:
    """Run the file on one provider; (passed, the first error line)."""
    command = [GPU_RUN, str(path), "--provider", provider]
    command += [f"--upstream-pass={name}" for name in plan.passes]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout:.0f} s"
    output = done.stdout + (done.stderr if plan.with_stderr else "")
    if done.returncode != 0:
        return False, first_error(done.stderr) or f"exit status {done.returncode}"
    if plan.prefixes is None:
        return True, ""
    check = ["FileCheck-22", str(path), "--check-prefixes=" + ",".join(plan.prefixes)]
    checked = subprocess.run(check, input=output, capture_output=True, text=True)
    if checked.returncode != 0:
        return False, "FileCheck: " + first_error(checked.stderr)
    return True, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the integration tests (searched recursively)")
    parser.add_argument("--provider", default="interp,cpu", help="comma-separated providers")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    args = parser.parse_args()
    providers = args.provider.split(",")
    files = sorted(args.folder.rglob("*.mlir"))
    passed = dict.fromkeys(providers, 0)
    for path in files:
        plan = plan_of(path.read_text())
        results = [run_one(path, plan, p, args.timeout) for p in providers]
        for provider, (ok, _) in zip(providers, results, strict=True):
            passed[provider] += ok
        marks = " ".join(
            f"{p}={'pass' if ok else 'FAIL'}" for p, (ok, _) in zip(providers, results, strict=True)
        )
        error = next((e for ok, e in results if not ok), "")
        note = " (compile-only)" if plan.compile_only else ""
        print(f"{path.relative_to(args.folder)}{note}: {marks}  {error}", flush=True)
    counts = ", ".join(f"{p} {passed[p]}/{len(files)}" for p in providers)
    print(f"passed: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
