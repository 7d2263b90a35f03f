"""`make bench`: gpuir against its peers, measured side by side in one run on this machine, as one
table (stdout and `benchmarks/results/bench.md`) and one plot (`results/compile_time.png`).

Every figure is a ratio ours / peer, both measured in this run (the GPU rows: in the run of
`benchmarks/gpu.py`, on the GPU machine); the goal column says which way is better.

1. Compile time, in subprocesses run in turn (ours, peer, ours, …, so that a busy moment of a
   shared machine hits both alike); each figure is the CPU time (user + system) of the process,
   the best of the repeats (wall times go to bench.json). For each program size:
   - `gpu-opt` parse+verify+print against `xdsl-opt` on the same standard-dialect program
     (`parse_print.py`'s generator: `func`, `arith`, `scf`), goal ≤ 1.0;
   - a gpuir program of the same op count (`pass_scaling.py`'s generator: kernels with barriers
     and synced scopes, each launched from `@main` on a global allocation): its parse+print,
     `gpu-opt -p gpu-pipeline` and `gpu-opt -t ptx` (the pipeline, device-to-llvm, LLVM -O3,
     NVPTX), the last against its parse+print, goal ≤ 2.0;
   - the growth per 10x ops between the two largest sizes, start-up taken off, goal ≤ 12
     (linear is 10); unless `--no-stages`, also each stage of gpu-pipeline in-process
     (`pass_scaling.measure`), to find one that grows faster than the program.
   Start-up: an empty module, goal ≤ 1.0 against xdsl-opt.
2. The cpu provider at 16M f32, kernels launched on resident buffers through `gpuir.Device`
   and `synchronize()`d: saxpy, a sum and the launch overhead (`cpu_provider.py`'s kernels),
   the 3-map chain fused and unfused (`fusion.py`'s program), against numpy and Numba
   (`@njit(parallel=True)`, compiled before timing), and for saxpy and the chain the same loops
   in C with OpenMP (`openmp_peer.py`, gcc -O3: at 16M f32 both are bound by memory
   bandwidth, so this row is the machine's ceiling), run in turn, the best of the repeats
   (wall time); every result is checked against numpy's first. The launch path
   (`launch.py`): µs per `Kernel.__call__` against a Numba call, and the bytes a launch keeps.
3. PTX quality: `ptx_quality.py`'s kernels, ptxas registers and PTX instructions against
   `nvcc -O3`, goal ≤ 1.0; ours as by default (64-bit index) and with `index-bitwidth=32`.
4. GPU: `benchmarks/gpu.py` when a CUDA device is here, else the figures of its last run
   (`results/gpu_bench.json`, written by `make gpu-check`), else a row "no GPU here".
5. End to end (`end_to_end.py`): `gpu-run --provider cpu` as a whole process (host code
   compiled) on a vector add filled by host loops (1M, 4M, 16M) and a matmul (256, 512),
   against numpy and `mlir-opt-22 | mlir-runner-22` on the same program in upstream MLIR
   (Debian: `apt-get install mlir-22-tools`): cold (an empty disk cache), warm (the program's
   native executable, docs/native.md) and warm without it (`GPUIR_NATIVE=0`); goals at 1M:
   warm ≤ 1.5 against mlir-runner and ≤ 2 against numpy, cold ≤ 6 against mlir-runner.
6. The sanitizer (`sanitizer.py`): `gpu-run --provider interp` against `--provider cpu`, each a
   process, on the 64, 96 and 128 matmul and a 1M saxpy: time, peak memory, and interp's
   memory per byte the kernel touches; goals for the 96 matmul: ≤ 6 s and ≤ 150 MB.
7. gpu-lsp (`lsp_latency.py`): from a change to a 2,000-line file to its diagnostics, the
   server on stdio as an editor runs it (the fast diagnostics, and those of the barrier check);
   issue 33's goal: within 1 s.

    python benchmarks/run_all.py              # 1k, 10k, 100k ops; 16M f32 (about 15 minutes)
    python benchmarks/run_all.py --quick      # 1k, 10k ops, fewer repeats (under 2 minutes)
    python benchmarks/run_all.py --only compile --sizes 1000,30000
    python benchmarks/run_all.py --profile    # + cProfile of the largest `-t ptx` run

Nothing is asserted: a missed goal is a "no" in the table. A section whose tool or script is
missing (nvcc, Numba, a provider) says so in its row.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import parse_print
import pass_scaling
from cpu_rows import cpu_section
from table import Row, failed, markdown, plain, say

RESULTS = Path(__file__).resolve().parent / "results"
LINEAR_GOAL = 12.0
"""Growth per 10x ops that still counts as linear (10 is exactly linear; noise gets 20%)."""
CPU_N = 1 << 24
"""Launches per measure of the cpu provider's launch overhead."""


# --- 1. compile time --------------------------------------------------------------------------------


def gpuir_program(target_ops: int) -> tuple[str, int]:
    """`pass_scaling.program` with about `target_ops` ops, and its exact op count (the module
    itself not counted, as in `parse_print.program`)."""
    from xdsl.parser import Parser

    from gpuir.dialects import make_context

    def ops(kernels: int) -> int:
        module = Parser(make_context(), pass_scaling.program(kernels)).parse_module()
        return sum(1 for _ in module.walk()) - 1

    base, per_kernel = ops(1), ops(2) - ops(1)
    kernels = max(1, round((target_ops - base + per_kernel) / per_kernel))
    return pass_scaling.program(kernels), base + (kernels - 1) * per_kernel


@dataclass
class Timing:
    """Seconds of CPU time (user + system) of one command: the best and the median run; and the
    best wall time. CPU time is what the table shows: on a shared machine a process waiting for
    a core adds wall time to ours or the peer's at random, not CPU time."""

    best: float
    median: float
    wall: float


def cpu_seconds(command: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of one run of `command` (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr.decode()}")
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return used, wall


def run_interleaved(commands: dict[str, list[str]], repeats: int) -> dict[str, Timing]:
    """Each command `repeats` times, round-robin (ours, peer, ours, …)."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            runs[name].append(cpu_seconds(command))
    return {
        name: Timing(min(c for c, _ in r), statistics.median(c for c, _ in r), min(w for _, w in r))
        for name, r in runs.items()
    }


def growth(t1: float, t2: float, ops1: int, ops2: int, startup: float) -> float:
    """Time factor per 10x ops between two sizes, the start-up taken off both."""
    work1, work2 = max(t1 - startup, 1e-6), max(t2 - startup, 1e-6)
    return (work2 / work1) ** (1 / math.log10(ops2 / ops1))


def compile_section(
    sizes: list[int], repeats: dict[int, int], startup_repeats: int, stages: bool, profile: bool
) -> tuple[list[Row], dict]:
    gpu_opt, xdsl_opt = parse_print.tool("gpu-opt"), parse_print.tool("xdsl-opt")
    rows: list[Row] = []
    figures: dict = {"sizes": []}
    with tempfile.TemporaryDirectory(prefix="gpuir-bench-") as folder:
        empty = Path(folder, "empty.mlir")
        empty.write_text(parse_print.EMPTY_MODULE)
        say(f"start-up: gpu-opt and xdsl-opt on an empty module, {startup_repeats} times each")
        start = run_interleaved(
            {"gpu-opt": [gpu_opt, str(empty)], "xdsl-opt": [xdsl_opt, str(empty)]}, startup_repeats
        )
        rows.append(
            Row(
                "start-up (empty module)",
                start["gpu-opt"].best,
                start["xdsl-opt"].best,
                "xdsl-opt",
                "s",
                "<= 1.0",
            )
        )
        figures["startup"] = {k: asdict(v) for k, v in start.items()}
        # With a server of the user's own (GPUIR_TOOL_SERVER=auto): the work runs in the
        # server's fork, not in a child of this process, so both are timed by the wall clock.
        served = ["env", "GPUIR_TOOL_SERVER=auto", "GPUIR_TOOL_SERVER_IDLE=60", gpu_opt, str(empty)]
        cpu_seconds(served)  # starts the server
        auto = run_interleaved(
            {"gpu-opt": served, "xdsl-opt": [xdsl_opt, str(empty)]}, startup_repeats
        )
        rows.append(
            Row(
                "start-up (empty module), GPUIR_TOOL_SERVER=auto, wall clock",
                auto["gpu-opt"].wall,
                auto["xdsl-opt"].wall,
                "xdsl-opt",
                "s",
                "<= 0.8",
            )
        )

        for size in sizes:
            std_text, std_ops = parse_print.program(size)
            gpu_text, gpu_ops = gpuir_program(size)
            std, gir = Path(folder, f"std-{size}.mlir"), Path(folder, f"gpuir-{size}.mlir")
            std.write_text(std_text)
            gir.write_text(gpu_text)
            n = repeats[size]
            say(
                f"{size:,} ops: standard program {std_ops:,} ops, gpuir program {gpu_ops:,} ops; {n} repeat(s)"
            )
            t = run_interleaved(
                {
                    "gpu-opt": [gpu_opt, str(std)],
                    "xdsl-opt": [xdsl_opt, str(std)],
                    "gpuir parse+print": [gpu_opt, str(gir)],
                    "gpu-pipeline": [gpu_opt, str(gir), "-p", "gpu-pipeline"],
                    "-t ptx": [gpu_opt, str(gir), "-t", "ptx"],
                },
                n,
            )
            figures["sizes"].append(
                {
                    "target": size,
                    "std_ops": std_ops,
                    "gpuir_ops": gpu_ops,
                    "repeats": n,
                    **{k: asdict(v) for k, v in t.items()},
                }
            )
            rows += [
                Row(
                    f"parse+print, {std_ops:,} ops (func/arith/scf)",
                    t["gpu-opt"].best,
                    t["xdsl-opt"].best,
                    "xdsl-opt",
                    "s",
                    "<= 1.0",
                ),
                Row(
                    f"gpu-opt -p gpu-pipeline, {gpu_ops:,} ops",
                    t["gpu-pipeline"].best,
                    t["gpuir parse+print"].best,
                    "its parse+print",
                    "s",
                ),
                Row(
                    f"gpu-opt -t ptx, {gpu_ops:,} ops",
                    t["-t ptx"].best,
                    t["gpuir parse+print"].best,
                    "its parse+print",
                    "s",
                    "<= 2.0",
                ),
            ]
        if profile:
            figures["profile"] = profile_ptx(gpu_opt, gir)

    if len(figures["sizes"]) >= 2:
        small, large = figures["sizes"][-2], figures["sizes"][-1]
        ours_start, their_start = start["gpu-opt"].best, start["xdsl-opt"].best

        def g(key: str, ops: str, startup: float) -> float:
            return growth(small[key]["best"], large[key]["best"], small[ops], large[ops], startup)

        peer = g("xdsl-opt", "std_ops", their_start)
        span = f"{small['target']:,} → {large['target']:,} ops"
        rows += [
            Row(
                f"growth per 10x ops, parse+print ({span})",
                g("gpu-opt", "std_ops", ours_start),
                peer,
                "xdsl-opt",
                "x/10x",
                f"<= {LINEAR_GOAL}",
            ),
            Row(
                f"growth per 10x ops, gpu-pipeline ({span})",
                g("gpu-pipeline", "gpuir_ops", ours_start),
                peer,
                "xdsl-opt parse+print",
                "x/10x",
                f"<= {LINEAR_GOAL}",
            ),
            Row(
                f"growth per 10x ops, -t ptx ({span})",
                g("-t ptx", "gpuir_ops", ours_start),
                peer,
                "xdsl-opt parse+print",
                "x/10x",
                f"<= {LINEAR_GOAL}",
            ),
        ]
        if stages:
            rows += stage_growth([small["target"], large["target"]], peer)
    return rows, figures


def stage_growth(sizes: list[int], peer: float) -> list[Row]:
    """In-process, with gpu-opt's garbage-collector thresholds: the growth per 10x ops of the
    parse and of each stage of gpu-pipeline (`pass_scaling.measure`, wall time)."""
    from gpuir.dialects import make_context
    from gpuir.tools.gpu_opt import GC_THRESHOLDS

    measured = []
    thresholds = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        for size in sizes:
            text, ops = gpuir_program(size)
            say(f"stages in-process, {ops:,} ops")
            measured.append((ops, pass_scaling.measure(text, make_context())))
    finally:
        gc.set_threshold(*thresholds)
    (o1, t1), (o2, t2) = measured
    return [
        Row(
            f"growth per 10x ops, stage {stage}",
            growth(t1[stage], t2[stage], o1, o2, 0.0),
            peer,
            "xdsl-opt parse+print",
            "x/10x",
            f"<= {LINEAR_GOAL}",
        )
        for stage in t1
    ]


def profile_ptx(gpu_opt: str, program: Path) -> str:
    """cProfile of `gpu-opt PROGRAM -t ptx` into results/: the raw profile, and the 40 functions
    of most cumulative time as text; the text's path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    raw, text = RESULTS / "profile_ptx.prof", RESULTS / "profile_ptx.txt"
    say(f"profiling gpu-opt -t ptx on {program.name}")
    command = [
        sys.executable,
        "-m",
        "cProfile",
        "-o",
        str(raw),
        "-m",
        "gpuir.tools.gpu_opt",
        str(program),
        "-t",
        "ptx",
    ]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    import pstats

    with text.open("w") as f:
        pstats.Stats(str(raw), stream=f).sort_stats("cumulative").print_stats(40)
    return str(text.relative_to(RESULTS.parent.parent))


# --- 3. PTX quality -----------------------------------------------------------------------------------


def ptx_section(sm: int) -> list[Row]:
    import ptx_quality

    from gpuir.lowering.nvptx import ptxas
    from gpuir.lowering.nvptx.ptx import PtxOptions

    if ptxas.find_ptxas() is None:
        return [
            Row(
                "PTX quality",
                None,
                None,
                "",
                "",
                note="ptxas not found (pip install nvidia-cuda-nvcc)",
            )
        ]
    rows: list[Row] = []
    spills = [0, 0]
    spills32 = 0
    nvcc_missing: str | None = None
    with tempfile.TemporaryDirectory(prefix="gpuir-bench-ptx-") as scratch:
        for kernel in ptx_quality.KERNELS:
            say(f"PTX quality: {kernel.name}")
            mine = ptx_quality.figures(ptx_quality.ours(kernel, PtxOptions(sm=sm)), kernel.name, sm)
            options32 = PtxOptions(sm=sm, index_bitwidth=32)
            mine32 = ptx_quality.figures(ptx_quality.ours(kernel, options32), kernel.name, sm)
            theirs: tuple[int, int, int] | None = None
            if nvcc_missing is None:
                try:
                    text = ptx_quality.nvcc_ptx(kernel, sm, ["-O3"], scratch)
                    theirs = ptx_quality.figures(text, kernel.name, sm)
                except RuntimeError as e:
                    nvcc_missing = str(e).splitlines()[0]
            spills[0] += mine[1]
            spills32 += mine32[1]
            for label, figures in (("", mine), (" index-bitwidth=32", mine32)):
                for what, index in (("registers", 0), ("PTX instructions", 2)):
                    measure = f"PTX {kernel.name} sm_{sm}{label}: {what}"
                    if theirs is None:
                        note = nvcc_missing or ""
                        rows.append(Row(measure, figures[index], None, "nvcc -O3", "", note=note))
                    else:
                        rows.append(
                            Row(measure, figures[index], theirs[index], "nvcc -O3", "", "<= 1.0")
                        )
            if theirs is not None:
                spills[1] += theirs[1]
    names = len(ptx_quality.KERNELS)
    if nvcc_missing is None:
        rows.append(
            Row(
                f"PTX spilled bytes, all {names} kernels",
                spills[0],
                spills[1],
                "nvcc -O3",
                "",
                "<= 1.0",
            )
        )
        rows.append(
            Row(
                f"PTX spilled bytes, all {names} kernels, index-bitwidth=32",
                spills32,
                spills[1],
                "nvcc -O3",
                "",
                "<= 1.0",
            )
        )
    return rows


# --- 4. GPU -------------------------------------------------------------------------------------------


def end_to_end_section(quick: bool) -> list[Row]:
    """`benchmarks/end_to_end.py`: gpu-run as a whole process against numpy and mlir-runner-22
    (issue 30's goals at 1M elements: warm within 1.5x of mlir-runner and 2x of numpy, cold
    within 6x of mlir-runner)."""
    import end_to_end

    say("end to end: gpu-run --provider cpu against numpy and mlir-runner-22")
    rows = []
    for label, ours, peer, name in end_to_end.measure(quick):
        goal = "—"  # issue 30's goals at 1M: the warm run (native), the cold run
        if label == "vadd 1M, warm":
            goal = "<= 1.5" if name.startswith("mlir") else "<= 2"
        elif label == "vadd 1M, cold" and name.startswith("mlir"):
            goal = "<= 6"
        note = "" if peer is not None or name == "—" else f"{name} not installed"
        rows.append(Row(label, ours, peer, name, "s", goal, note))
    return rows


def sanitizer_section(quick: bool) -> list[Row]:
    """`benchmarks/sanitizer.py`: interp (every access checked) against the unchecked cpu
    provider on matmuls and a saxpy, time and peak memory of each process; issue 15's goals:
    the 96 matmul on interp in 6 s and 150 MB, memory linear in the bytes touched."""
    import sanitizer

    say("sanitizer: interp and cpu --check against cpu (matmul 64/96/128, saxpy)")
    found = sanitizer.measure(quick)
    base = found[0][3]
    runs = {(program, provider): (s, round(mb, 1)) for program, provider, s, mb in found[1:]}
    rows = []
    for program in dict.fromkeys(program for program, _ in runs):
        if program.endswith("used"):
            (checked, checked_peak), (plain, plain_peak) = (
                runs[(program, "cpu --check")],
                runs[(program, "cpu")],
            )
            rows.append(Row(f"{program}, cpu --check (time)", checked, plain, "cpu", "s"))
            rows.append(
                Row(
                    f"{program}, cpu --check (peak memory)",
                    checked_peak,
                    plain_peak,
                    "cpu",
                    "MB",
                    "<= 1.5",
                )
            )
            continue
        if program.endswith("launch"):
            checked, plain = runs[(program, "cpu --check")][0], runs[(program, "cpu")][0]
            interp = runs[(program, "interp")][0]
            rows.append(Row(f"{program}: cpu --check", checked, plain, "cpu", "s", "<= 20"))
            rows.append(
                Row(f"{program}: cpu --check against interp", checked, interp, "interp", "s")
            )
            continue
        seconds, peak = runs[(program, "interp")]
        cpu_seconds, cpu_peak = runs[(program, "cpu")]
        checked_seconds, checked_peak = runs[(program, "cpu --check")]
        rows.append(Row(f"{program}, interp (time)", seconds, cpu_seconds, "cpu", "s"))
        rows.append(Row(f"{program}, interp (peak memory)", peak, cpu_peak, "cpu", "MB"))
        per_byte = round((peak - base) * 2**20 / sanitizer.touched_bytes(program))
        rows.append(Row(f"{program}, interp: bytes kept per byte touched", per_byte, None, "", "B"))
        rows.append(Row(f"{program}, cpu --check (time)", checked_seconds, cpu_seconds, "cpu", "s"))
        rows.append(
            Row(f"{program}, cpu --check (peak memory)", checked_peak, cpu_peak, "cpu", "MB")
        )
        if program == "matmul 96":
            rows.append(
                Row("matmul 96, interp: time against 6 s", seconds, 6.0, "goal", "s", "<= 1.0")
            )
            rows.append(
                Row("matmul 96, interp: memory against 150 MB", peak, 150.0, "goal", "MB", "<= 1.0")
            )
    return rows


def lsp_section(quick: bool) -> list[Row]:
    """`benchmarks/lsp_latency.py`: gpu-lsp's diagnostics after a change to a 2,000-line file,
    against issue 33's goal of 1 s."""
    import lsp_latency

    say("gpu-lsp: diagnostics latency after a change, 2,000-line files")
    return lsp_latency.rows(quick)


def gpu_section() -> list[Row]:
    """`benchmarks/gpu.py` here when there is a CUDA device, else the figures of its last run."""
    from gpuir.runtime import unavailable_reason

    figures = RESULTS / "gpu_bench.json"
    script = Path(__file__).with_name("gpu.py")
    if unavailable_reason("cuda") is None and script.exists():
        say("GPU: benchmarks/gpu.py")
        subprocess.run([sys.executable, str(script), "--out", str(RESULTS)], check=True)
        where = "this run"
    elif figures.exists():
        where = f"make gpu-check, {time.strftime('%Y-%m-%d %H:%M', time.localtime(figures.stat().st_mtime))}"
    else:
        say(f"GPU: {unavailable_reason('cuda') or 'benchmarks/gpu.py is missing'}")
        note = "no GPU here (`make gpu-check` on a GPU machine writes results/gpu_bench.json)"
        return [Row("GPU (benchmarks/gpu.py)", None, None, "", "", note=note)]
    data = json.loads(figures.read_text())
    info, bw, launch = data["info"], data["bandwidth"], data["launch"]
    on = f"{info['device']}, {where}"
    n = int(bw["n"])
    return [
        Row(
            f"GPU saxpy bandwidth, 2^{n.bit_length() - 1} f32, GB/s ({on})",
            round(bw["saxpy_gbs"], 1),
            round(bw["copy_gbs"], 1),
            "memcpy_dtod",
            "GB/s",
        ),
        Row(
            f"GPU launch, CudaProvider.launch ({on})",
            launch["provider_us"],
            launch["raw_us"],
            "raw PyCUDA",
            "µs",
        ),
        Row(
            f"GPU launch, Kernel.__call__ ({on})",
            launch["api_us"],
            launch["raw_us"],
            "raw PyCUDA",
            "µs",
        ),
    ]


# --- the plot -----------------------------------------------------------------------------------------


def plot(figures: dict, path: Path, title: str) -> str:
    """Compile time against program size, log-log: ours and xdsl-opt's; a note for the table."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter
    except ImportError as e:
        return f"plot skipped: {e} (make bench installs the `bench` extra)"
    sizes = figures["sizes"]
    series = [
        ("xdsl-opt parse+print (func/arith/scf)", "xdsl-opt", "std_ops", "tab:gray", "o--"),
        ("gpu-opt parse+print (func/arith/scf)", "gpu-opt", "std_ops", "tab:blue", "o-"),
        ("gpu-opt parse+print (gpuir program)", "gpuir parse+print", "gpuir_ops", "tab:cyan", "s-"),
        ("gpu-opt -p gpu-pipeline", "gpu-pipeline", "gpuir_ops", "tab:green", "^-"),
        ("gpu-opt -t ptx", "-t ptx", "gpuir_ops", "tab:red", "D-"),
    ]
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=120)
    for label, key, ops, color, style in series:
        ax.plot(
            [s[ops] for s in sizes],
            [s[key]["best"] for s in sizes],
            style,
            color=color,
            label=label,
        )
    first = sizes[0]
    xs = [s["std_ops"] for s in sizes]
    ax.plot(
        xs,
        [first["xdsl-opt"]["best"] * x / xs[0] for x in xs],
        ":",
        color="black",
        label="linear (slope 1)",
    )
    ax.axhline(
        figures["startup"]["gpu-opt"]["best"],
        color="tab:blue",
        linewidth=0.8,
        linestyle="-.",
        label="gpu-opt start-up",
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain_numbers = FuncFormatter(lambda value, _: f"{value:g}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(plain_numbers)
        axis.set_minor_formatter(FuncFormatter(lambda value, _: ""))
    ax.set_xlabel("program size (ops)")
    ax.set_ylabel("CPU time (user + sys), best of the repeats (s)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return f"plot: {path.relative_to(RESULTS.parent.parent)}"


# --- main ---------------------------------------------------------------------------------------------


def machine() -> str:
    import llvmlite
    import xdsl

    return (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, xdsl {xdsl.__version__}, llvmlite {llvmlite.__version__}, "
        f"numpy {np.__version__}, load average {os.getloadavg()[0]:.1f} at the start"
    )


def git(*args: str) -> str:
    """What `git args` prints in this checkout."""
    root = Path(__file__).resolve().parent.parent
    command = ["git", "-C", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def source() -> str:
    """The commit measured, and how many tracked files differ from it."""
    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no").splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {head}" + (f" + {len(dirty)} modified file(s)" if dirty else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k ops, fewer repeats")
    parser.add_argument(
        "--sizes", help="program sizes in ops, comma-separated (default 1000,10000,100000)"
    )
    parser.add_argument(
        "--repeats", type=int, help="repeats of each compile-time command at every size"
    )
    parser.add_argument(
        "--only", help="sections to run, comma-separated: compile,cpu,ptx,gpu,e2e,sanitizer,lsp"
    )
    parser.add_argument(
        "--stages",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="per-stage growth in-process (default: on, off with --quick)",
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the largest -t ptx run into results/"
    )
    parser.add_argument("--cpu-n", type=int, help=f"elements of the cpu measures (default {CPU_N})")
    parser.add_argument("--sm", type=int, default=80, help="PTX target for the quality table (80)")
    args = parser.parse_args()

    quick = args.quick
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else ([1000, 10000] if quick else [1000, 10000, 100000])
    )
    default_repeats = {1000: 5, 10000: 3} if not quick else {1000: 3, 10000: 1}
    repeats = {s: args.repeats or default_repeats.get(s, 2 if s > 10000 else 3) for s in sizes}
    sections = set((args.only or "compile,cpu,ptx,gpu,e2e,sanitizer,lsp").split(","))
    stages = (not quick) if args.stages is None else args.stages
    cpu_n = args.cpu_n or CPU_N
    cpu_repeats = 5 if quick else 10

    where = f"{machine()}; {source()}"
    say(where)
    rows: list[Row] = []
    figures: dict = {}
    notes: list[str] = []
    if "compile" in sections:
        compile_rows, figures = compile_section(
            sizes, repeats, 5 if quick else 10, stages, args.profile
        )
        rows += compile_rows
        mode = "quick" if quick else "full"
        title = f"gpu-opt vs xdsl-opt, compile time ({mode} run; {os.cpu_count()} cores)"
        notes.append(plot(figures, RESULTS / "compile_time.png", title))
        if "profile" in figures:
            notes.append(f"profile of the largest -t ptx run: {figures['profile']}")
    for name, section in (
        ("cpu", lambda: cpu_section(cpu_n, cpu_repeats)),
        ("ptx", lambda: ptx_section(args.sm)),
        ("gpu", gpu_section),
        ("e2e", lambda: end_to_end_section(quick)),
        ("sanitizer", lambda: sanitizer_section(quick)),
        ("lsp", lambda: lsp_section(quick)),
    ):
        if name in sections:
            try:
                rows += section()
            except Exception as e:
                rows.append(failed(name, e))

    met = [r.met for r in rows if r.met is not None]
    notes.insert(0, f"{sum(met)} of {len(met)} goals met")
    print()
    print(plain(rows))
    print("\n".join(notes))
    RESULTS.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python benchmarks/run_all.py", *sys.argv[1:]])
    header = (
        f"# gpuir benchmarks ({'quick' if quick else 'full'} run)\n\n"
        f"{time.strftime('%Y-%m-%d %H:%M')}: `{command}`; {where}.\n\n"
        "Ratio = ours / peer, both measured in this run (GPU rows: in benchmarks/gpu.py's run). "
        "Compile times are the CPU time (user + sys) of the process, the best of the repeats "
        "(wall times in bench.json); cpu-provider times are wall time, the best of the repeats. "
        "Growth rows: the time factor per 10x ops between the two largest sizes, start-up taken "
        "off (linear: 10x); their goal is on ours.\n\n"
    )
    (RESULTS / "bench.md").write_text(header + markdown(rows) + "\n" + "\n".join(notes) + "\n")
    (RESULTS / "bench.json").write_text(
        json.dumps(
            {
                "rows": [asdict(r) | {"ratio": r.ratio, "met": r.met} for r in rows],
                "compile": figures,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"table: {(RESULTS / 'bench.md').relative_to(RESULTS.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
