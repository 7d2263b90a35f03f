"""Run MLIR's GPU integration tests with gpu-run on gpuir's CPU providers.

Give it a folder of MLIR's integration tests that you fetched yourself (for example
`mlir/test/Integration/GPU/CUDA/*.mlir`, `CUDA/TensorCore/*.mlir` and `ROCM/*.mlir` of an LLVM
22 checkout); it runs each file under it with `gpu-run FILE --provider P` for each provider (with
`--upstream-pass=NAME` for each mlir-opt pass of its RUN line that gpu-run runs itself,
`UPSTREAM_PASSES`; gpu-run's import and pipeline stand for the others) and checks the output with LLVM's FileCheck against the file's own CHECK lines, with the prefix its
RUN line uses. A file whose RUN lines run no program (they check what mlir-opt and ptxas emit)
is compile-only: its mlir-opt pipeline is mapped to gpu-opt's target (`compile_plan`: MLIR's
`-gpu-lower-to-nvvm-pipeline` with its `cubin-chip`, `cubin-format`, `cubin-features`,
`opt-level` and `ptxas-cmd-options`, and what its `-debug-only` prints: the PTX, `-t ptx`; the
SASS, `-t sass`; ptxas's command line, `-t sass{print-commands=true}`), and gpu-opt's output is
checked against the file's CHECK lines the same way, once (it is no provider's). A pipeline
gpu-opt has no equivalent of fails, saying which. Nothing of MLIR's text is kept here: this
script only reads the files it is given.

    python scripts/run_mlir_integration.py [FOLDER] [--provider interp,cpu] [--expect FILE]

It prints one line per file: its status on each provider (a compile-only file: gpu-opt's) and
the first error line, then the counts: of the programs per provider, of the compile-only files,
and of all files. The exit status is 0; with `--expect FILE` (lines as this script prints them,
without the error: `mlir/test/…/shuffle.mlir: interp=pass cpu=pass`), 1 where a file's status
differs from the one FILE gives it, or FILE names a file that is not there.
`scripts/fetch_mlir_integration.py` fetches the files at a pinned LLVM release.
"""

import argparse
import re
import runpy
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RUNNERS = ("mlir-runner", "mlir-cpu-runner", "mlir-rocm-runner")
UPSTREAM_PASSES = ("convert-vector-to-gpu", "rocdl-attach-target")
"""The mlir-opt passes of a RUN line that gpu-run runs itself (`--upstream-pass`); gpu-run's
import and pipeline stand for every other (MLIR's lowering to NVVM or ROCDL)."""
GPU_RUN = str(Path(sys.executable).with_name("gpu-run"))
GPU_OPT = str(Path(sys.executable).with_name("gpu-opt"))
NVVM_PIPELINE = "gpu-lower-to-nvvm-pipeline"
PIPELINE_OPTIONS = {
    "cubin-chip": "sm",
    "cubin-features": "ptx",
    "opt-level": "opt",
    "ptxas-cmd-options": "ptxas-options",
}
"""MLIR's `-gpu-lower-to-nvvm-pipeline` options and gpu-opt's target options that say the same.
Without `cubin-chip` gpu-opt's default is sm_80 (MLIR's is sm_50, which CUDA 13's ptxas no
longer assembles)."""
IGNORED_OPTIONS = ("cubin-format", "allow-pattern-rollback")
"""Options with nothing to map: the format decides the target (`compile_plan`);
`allow-pattern-rollback` is a setting of MLIR's conversion driver, not of what it emits."""
DEBUG_OUTPUTS = {
    "serialize-to-isa": ("ptx", ""),
    "dump-sass": ("sass", ""),
    "serialize-to-binary": ("sass", "print-commands=true"),
}
"""What `-debug-only=X` makes MLIR's pipeline print, as gpu-opt's target (and its option)."""


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
        return Plan(check_prefixes(commands[0] if commands else ""), False, True)
    command = running[0]
    stages = command.split("|")
    passes = tuple(
        name
        for stage in stages
        if "mlir-opt" in stage
        for word in shlex.split(stage)
        if word.startswith("-")
        for name in pass_names(word)
        if name in UPSTREAM_PASSES
    )
    filecheck = [s for s in stages if "FileCheck" in s]
    if not filecheck:
        return Plan(None, "2>&1" in command, False, passes)
    prefixes = check_prefixes(command)
    runner_stage = next(s for s in stages if any(r in s for r in RUNNERS))
    return Plan(prefixes, "2>&1" in runner_stage, False, passes)


def pass_names(word: str) -> list[str]:
    """The passes an mlir-opt flag names: `-pass` itself, or each of `-pass-pipeline='…'`."""
    name, _, value = word.lstrip("-").partition("=")
    if name != "pass-pipeline":
        return [name]
    return re.findall(r"([\w-]+)(?=[{,)]|$)", value)


def check_prefixes(command: str) -> tuple[str, ...]:
    """The FileCheck prefixes of a RUN command (CHECK where it names none)."""
    filecheck = [s for s in command.split("|") if "FileCheck" in s]
    prefixes: list[str] = []
    words = shlex.split(filecheck[0]) if filecheck else []
    for i, word in enumerate(words):
        for flag in ("--check-prefix", "-check-prefix", "--check-prefixes", "-check-prefixes"):
            if word == flag and i + 1 < len(words):
                prefixes += words[i + 1].split(",")
            elif word.startswith(flag + "="):
                prefixes += word.split("=", 1)[1].split(",")
    return tuple(prefixes) or ("CHECK",)


def compile_plan(command: str) -> list[str] | str:
    """gpu-opt's arguments (`-t TARGET`) for a compile-only RUN command's mlir-opt stages, or
    why there are none."""
    target, options, pipelines = "", [], 0
    for stage in command.split("|"):
        words = shlex.split(stage)
        if not words or words[0] != "mlir-opt":
            continue
        for word in words[1:]:
            name, _, value = word.lstrip("-").partition("=")
            if word in ("%s", "2>&1"):
                continue
            if name == "debug-only":
                if value not in DEBUG_OUTPUTS:
                    return f"no gpu-opt output for mlir-opt's -debug-only={value}"
                target, option = DEBUG_OUTPUTS[value]
                options += [option] if option else []
            elif name == NVVM_PIPELINE:
                pipelines += 1
                mapped = pipeline_options(value)
                if isinstance(mapped, str):
                    return mapped
                format_, more = mapped
                options += more
                target = target or ("ptx" if format_ == "isa" else "")
            else:
                return f"no gpu-opt equivalent of mlir-opt's {word}"
    if pipelines != 1:
        return f"no gpu-opt equivalent of a RUN line without one -{NVVM_PIPELINE}"
    if not target:
        return f"no gpu-opt output for the gpu.binary of -{NVVM_PIPELINE} (not cubin-format=isa)"
    return ["-t", f"{target}{{{' '.join(options)}}}" if options else target]


def pipeline_options(text: str) -> tuple[str, list[str]] | str:
    """The cubin format and gpu-opt's target options for `-gpu-lower-to-nvvm-pipeline="text"`,
    or why there are none."""
    format_, options = "fatbin", []
    for item in shlex.split(text):
        name, _, value = item.partition("=")
        if name == "cubin-format":
            format_ = value
        if name in IGNORED_OPTIONS:
            continue
        if name not in PIPELINE_OPTIONS:
            return f"no gpu-opt equivalent of -{NVVM_PIPELINE}'s {name}"
        if name == "cubin-chip":
            value = value.removeprefix("sm_")
        if name == "cubin-features":
            value = value.removeprefix("+ptx")
            value = f"{value[:-1]}.{value[-1:]}"
        option = PIPELINE_OPTIONS[name]
        options.append(f'{option}="{value}"' if option == "ptxas-options" else f"{option}={value}")
    return format_, options


def compile_one(path: Path, plan: Plan, timeout: float) -> tuple[bool, str]:
    """Check gpu-opt's output for a compile-only file; (passed, the first error line)."""
    commands = run_lines(path.read_text())
    arguments = compile_plan(commands[0]) if commands else "no RUN line"
    if isinstance(arguments, str):
        return False, arguments
    try:
        done = subprocess.run(
            [GPU_OPT, str(path), *arguments], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout:.0f} s"
    if done.returncode != 0:
        return False, first_error(done.stderr) or f"exit status {done.returncode}"
    output = done.stdout + (done.stderr if "2>&1" in commands[0] else "")
    return file_check(path, plan, output)


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
    return file_check(path, plan, output)


def file_check(path: Path, plan: Plan, output: str) -> tuple[bool, str]:
    """`output` against the file's CHECK lines (with its prefixes; none: passed)."""
    if plan.prefixes is None:
        return True, ""
    check = ["FileCheck-22", str(path), "--check-prefixes=" + ",".join(plan.prefixes)]
    checked = subprocess.run(check, input=output, capture_output=True, text=True)
    if checked.returncode != 0:
        return False, "FileCheck: " + first_error(checked.stderr)
    return True, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folder",
        type=Path,
        nargs="?",
        help="the integration tests, searched recursively (default: where "
        "fetch_mlir_integration.py puts them)",
    )
    parser.add_argument("--provider", default="interp,cpu", help="comma-separated providers")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    parser.add_argument("--expect", type=Path, help="the status each file should have")
    args = parser.parse_args()
    providers = args.provider.split(",")
    if args.folder is None:
        fetch = runpy.run_path(str(Path(__file__).with_name("fetch_mlir_integration.py")))
        args.folder = fetch["default_folder"]()
    if not args.folder.is_dir():
        print(f"run_mlir_integration: no folder {args.folder} (fetch_mlir_integration.py)")
        return 2
    files = sorted(args.folder.rglob("*.mlir"))
    passed = dict.fromkeys(providers, 0)
    programs = compiled = compile_only = 0
    statuses: dict[str, str] = {}
    for path in files:
        plan = plan_of(path.read_text())
        if plan.compile_only:
            ok, error = compile_one(path, plan, args.timeout)
            compile_only += 1
            compiled += ok
            mark = "pass" if ok else "FAIL"
            statuses[f"{path.relative_to(args.folder)} (compile-only)"] = f"gpu-opt={mark}"
            print(f"{path.relative_to(args.folder)} (compile-only): gpu-opt={mark}  {error}")
            continue
        programs += 1
        results = [run_one(path, plan, p, args.timeout) for p in providers]
        for provider, (ok, _) in zip(providers, results, strict=True):
            passed[provider] += ok
        marks = " ".join(
            f"{p}={'pass' if ok else 'FAIL'}" for p, (ok, _) in zip(providers, results, strict=True)
        )
        error = next((e for ok, e in results if not ok), "")
        statuses[str(path.relative_to(args.folder))] = marks
        print(f"{path.relative_to(args.folder)}: {marks}  {error}", flush=True)
    counts = ", ".join(f"{p} {passed[p]}/{programs}" for p in providers)
    print(f"passed: programs: {counts}; compile-only (gpu-opt): {compiled}/{compile_only}")
    totals = ", ".join(f"{p} {passed[p] + compiled}/{len(files)}" for p in providers)
    print(f"passed: all files (a compile-only file counts for each provider): {totals}")
    if args.expect is None:
        return 0
    differ = unexpected(statuses, args.expect.read_text())
    for line in differ:
        print(f"unexpected: {line}")
    return 1 if differ else 0


def unexpected(statuses: dict[str, str], expected: str) -> list[str]:
    """Each file whose status is not the one `expected` (lines `FILE: STATUS`) gives it."""
    differ = []
    for line in expected.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, status = line.rpartition(": ")
        found = statuses.get(name)
        if found is None:
            differ.append(f"{name}: not found")
        elif found != status.strip():
            differ.append(f"{name}: {found}, expected {status.strip()}")
    return differ


if __name__ == "__main__":
    raise SystemExit(main())
