"""GPU benchmark of the cuda provider, as ratios against plain PyCUDA on the same device.

1. Bandwidth: gpuir's saxpy (`y = a * x + y`, one element per work-item, 256 per group) over
   2^27 floats, against a device-to-device copy (`cuMemcpyDtoD`) of one such array; both in
   GB/s counting the bytes read plus the bytes written (saxpy 3 x 4 B per element, the copy
   2 x 4 B), timed with CUDA events over repeated runs after warm-up. Ratio saxpy / copy: 1.0
   means saxpy streams memory as fast as the copy engine path does.
2. Launch overhead: microseconds per launch of an empty kernel taking a pointer and an index,
   for 5000 back-to-back launches on the default stream then one synchronize (best of 3):
   gpuir's prepared launch (`CudaProvider.launch`, and the Python API's `Kernel.__call__` on
   top of it) against a raw PyCUDA `prepared_async_call` of the same empty kernel written by
   hand in PTX and loaded with `module_from_buffer` (PyCUDA's SourceModule would need nvcc).
   Ratio ours / raw: the cost of gpuir's checks and argument conversion per launch.

    python benchmarks/gpu.py                     # table on stdout and in benchmarks/results/
    python benchmarks/gpu.py --out DIR --log2-n 26 --launches 2000

Writes `gpu_bench.md` (the table) and `gpu_bench.json` (the figures) to `--out` (default: $OUT
when set, else benchmarks/results/). Without PyCUDA or a CUDA device it says so and exits 0.
Nothing is asserted except that saxpy computed the right values.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from kernels import SAXPY_UNGUARDED

ROOT = Path(__file__).resolve().parent.parent

PARAMS = "%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index"
RESULTS = "(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)"
EMPTY = f"""
func.func @empty({PARAMS}, %p: !mem.ptr<!mem.array<? x f32>, 1>, %n: index)
    -> {RESULTS} attributes {{gpu.kernel}} {{
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}}
"""
KERNELS = SAXPY_UNGUARDED + EMPTY

RAW_EMPTY = """//
// The empty kernel by hand: the same parameters as gpuir's @empty (a pointer, an index).
//
.version {ptx}
.target sm_{sm}
.address_size 64

.visible .entry raw_empty(
	.param .u64 raw_empty_param_0,
	.param .u64 raw_empty_param_1
)
{{
	ret;
}}
"""

BLOCK = 256


def results_dir(requested: str | None) -> Path:
    if requested:
        return Path(requested)
    if os.environ.get("OUT"):
        return Path(os.environ["OUT"])
    return ROOT / "benchmarks" / "results"


def event_ms(drv, run, repeats: int) -> float:
    """Milliseconds per `run()`, by CUDA events on the default stream, after 3 warm-ups."""
    for _ in range(3):
        run()
    drv.Context.synchronize()
    start, end = drv.Event(), drv.Event()
    start.record()
    for _ in range(repeats):
        run()
    end.record()
    end.synchronize()
    return end.time_since(start) / repeats


def host_us(drv, launch, count: int) -> float:
    """Microseconds per launch: `count` launches, then one synchronize; best of 3."""
    best = float("inf")
    for _ in range(4):  # the first round warms up
        drv.Context.synchronize()
        start = time.perf_counter()
        for _ in range(count):
            launch()
        drv.Context.synchronize()
        best = min(best, (time.perf_counter() - start) / count * 1e6)
    return best


def bandwidth(device, program, drv, log2_n: int, repeats: int) -> dict[str, float]:
    n = 1 << log2_n
    x = device.empty(n, np.float32)
    y = device.empty(n, np.float32)
    copy = device.empty(n, np.float32)
    provider = device.provider
    x_address, y_address = x.pointer.allocation.address, y.pointer.allocation.address
    one, two = np.float32(1).view(np.uint32), np.float32(2).view(np.uint32)
    drv.memset_d32(x_address, int(one), n)
    drv.memset_d32(y_address, int(two), n)
    saxpy = program.kernel("saxpy")
    groups = n // BLOCK

    def run_saxpy() -> None:
        saxpy(groups, BLOCK, BLOCK, 0.5, x, y)

    saxpy_ms = event_ms(drv, run_saxpy, repeats)
    sample = y.download()[:: max(n // 4096, 1)]
    expected = np.float32(2)
    for _ in range(3 + repeats):
        expected = np.float32(0.5) * np.float32(1) + expected
    if not np.all(sample == expected):
        raise SystemExit(f"saxpy computed {sample[:4]}…, expected {expected}")

    def run_copy() -> None:
        drv.memcpy_dtod(copy.pointer.allocation.address, x_address, n * 4)

    copy_ms = event_ms(drv, run_copy, repeats)
    provider.synchronize()
    for buffer in (x, y, copy):
        buffer.free()
    saxpy_gbs = 3 * 4 * n / (saxpy_ms * 1e-3) / 1e9
    copy_gbs = 2 * 4 * n / (copy_ms * 1e-3) / 1e9
    return {
        "n": n,
        "saxpy_ms": saxpy_ms,
        "copy_ms": copy_ms,
        "saxpy_gbs": saxpy_gbs,
        "copy_gbs": copy_gbs,
        "ratio": saxpy_gbs / copy_gbs,
    }


def launch_overhead(device, program, drv, count: int) -> dict[str, float]:
    from xdsl.dialects.builtin import IndexType

    from gpuir.runtime.provider import Stream

    provider = device.provider
    loaded = device.load(program)
    buffer = device.empty(1024, np.float32)
    empty = program.kernel("empty")
    pointer_type = empty.params[0]
    args = [(buffer.pointer.with_pointee(pointer_type.pointee), pointer_type), (1024, IndexType())]
    payload = loaded.payload
    raw_ptx = RAW_EMPTY.format(ptx=f"{payload.ptx_version:.1f}", sm=payload.sm)
    raw = drv.module_from_buffer(raw_ptx.encode() + b"\0").get_function("raw_empty")
    raw.prepare("PQ")
    address = buffer.pointer.allocation.address
    default = Stream(0)

    def ours() -> None:
        provider.launch(loaded, "empty", 1, 32, 0, default, args)

    def api() -> None:
        empty(1, 32, buffer, 1024)

    def plain() -> None:
        raw.prepared_async_call((1, 1), (32, 1, 1), None, address, 1024)

    figures = {
        "raw_us": host_us(drv, plain, count),
        "provider_us": host_us(drv, ours, count),
        "api_us": host_us(drv, api, count),
    }
    buffer.free()
    figures["provider_ratio"] = figures["provider_us"] / figures["raw_us"]
    figures["api_ratio"] = figures["api_us"] / figures["raw_us"]
    return figures


def table(info: dict[str, object], bw: dict[str, float], launch: dict[str, float]) -> str:
    n = int(bw["n"])
    rows = [
        "# gpuir cuda provider: GPU benchmark",
        "",
        f"device: {info['device']} (compute capability {info['capability']}), driver "
        f"{info['driver']}, PTX for sm_{info['sm']} / ISA {info['ptx']}, PyCUDA {info['pycuda']}",
        "",
        "| measure | gpuir | reference | ratio |",
        "| --- | ---: | ---: | ---: |",
        f"| saxpy bandwidth, 2^{n.bit_length() - 1} f32 (GB/s, read + written) "
        f"| {bw['saxpy_gbs']:.0f} | memcpy_dtod {bw['copy_gbs']:.0f} | {bw['ratio']:.2f} |",
        f"| launch, `CudaProvider.launch` (µs per launch) | {launch['provider_us']:.2f} "
        f"| raw PyCUDA {launch['raw_us']:.2f} | {launch['provider_ratio']:.2f} |",
        f"| launch, API `Kernel.__call__` (µs per launch) | {launch['api_us']:.2f} "
        f"| raw PyCUDA {launch['raw_us']:.2f} | {launch['api_ratio']:.2f} |",
        "",
        f"saxpy {bw['saxpy_ms']:.3f} ms and copy {bw['copy_ms']:.3f} ms per run (CUDA events); "
        f"launches: best of 3 rounds of {info['launches']} back-to-back launches of an empty "
        "kernel (1 x 32), then one synchronize.",
    ]
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="where to write gpu_bench.md/.json (default: $OUT)")
    parser.add_argument("--log2-n", type=int, default=27, help="saxpy over 2^N floats (27)")
    parser.add_argument("--repeats", type=int, default=20, help="timed saxpy runs (20)")
    parser.add_argument("--launches", type=int, default=5000, help="launches per round (5000)")
    options = parser.parse_args(argv)

    from gpuir.runtime.cuda import CudaProvider

    reason = CudaProvider.unavailable_reason()
    if reason is not None:
        print(f"gpu benchmark: no CUDA device to measure on: {reason}; nothing measured")
        return 0

    import pycuda
    import pycuda.driver as drv

    import gpuir

    out = results_dir(options.out)
    out.mkdir(parents=True, exist_ok=True)
    with gpuir.Device("cuda") as device:
        provider = device.provider
        program = device.compile(KERNELS)
        payload = device.load(program).payload
        major, minor = provider.capability
        version = provider.driver_version
        info = {
            "device": provider.device.name(),
            "capability": f"{major}.{minor}",
            "driver": f"{version // 1000}.{version % 1000 // 10}",
            "sm": payload.sm,
            "ptx": payload.ptx_version,
            "pycuda": pycuda.VERSION_TEXT,
            "launches": options.launches,
        }
        print(f"gpu benchmark on {info['device']}: saxpy over 2^{options.log2_n} floats …")
        bw = bandwidth(device, program, drv, options.log2_n, options.repeats)
        print(f"launch overhead, {options.launches} launches per round …")
        launch = launch_overhead(device, program, drv, options.launches)
    text = table(info, bw, launch)
    print(text)
    (out / "gpu_bench.md").write_text(text)
    figures = {"info": info, "bandwidth": bw, "launch": launch}
    (out / "gpu_bench.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"written: {out / 'gpu_bench.md'}, {out / 'gpu_bench.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
