"""How the passes' time grows with the size of the module.

Generates valid programs of growing size (K kernels, each launched once from `@main`, host
allocations in global memory, a synced scope in every kernel) and times, in-process, parsing
and each stage of `gpu-pipeline` plus `remove-double-syncs` after the split. Reports seconds
per stage and the growth factor per 10x ops; linear growth is a factor of about 10.

    python benchmarks/pass_scaling.py [--sizes 1000,10000,50000] [--quick]
"""

from __future__ import annotations

import argparse
import math
import time

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.passes import get_all_passes
from gpuir.passes.gpu_pipeline import GPU_PIPELINE

KERNEL = """
func.func @k{i}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %t: index,
                %p: !mem.ptr<!mem.array<? x f32>, 1>) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {{
  %a, %b = gpu.sync_work_items %m1, %m3
  %e = mem.lea %p, %t : !mem.ptr<!mem.array<? x f32>, 1>
  %c, %v = mem.load %a, %e : !mem.ptr<f32, 1>
  %w = arith.addf %v, %v : f32
  %d = mem.store %c, %e, %w : !mem.ptr<f32, 1>
  %x, %y = gpu.synced_scope %d, %b {{
  ^bb0(%q: !mem.M<1>, %r: !mem.M<3>):
    gpu.yield %q, %r : !mem.M<1>, !mem.M<3>
  }}
  func.return %x, %y, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}}
"""
OPS_PER_KERNEL = 10 + 3  # kernel ops + the host ops per launch

LAUNCH = """
  %g{i}a, %p{i} = mem.alloc %g{j}, %n : !mem.ptr<!mem.array<? x f32>, 1>
  %h{i}, %g{i}b, %c{i} = gpu.launch @k{j} grid(%one, %n) stream(%s) mems(%h{j}, %g{i}a, %c{j})
      args(%p{i}) : (!mem.ptr<!mem.array<? x f32>, 1>)
  %g{i} = mem.free %g{i}b, %p{i} : !mem.ptr<!mem.array<? x f32>, 1>
"""


def program(kernels: int) -> str:
    """K kernels and a `@main` that launches each once on a host allocation in global memory."""
    parts = [KERNEL.format(i=i) for i in range(kernels)]
    parts.append(
        "func.func @main(%m: !mem.M<0>) -> !mem.M<0> {\n"
        "  %h0, %g0, %c0 = gpu.init %m\n"
        "  %s = gpu.default_stream\n"
        "  %one = arith.constant 1 : index\n"
        "  %n = arith.constant 256 : index\n"
    )
    parts.extend(LAUNCH.format(i=i, j=i - 1) for i in range(1, kernels + 1))
    k = kernels
    parts.append(f"  %end = gpu.deinit %h{k}, %g{k}, %c{k}\n  func.return %end : !mem.M<0>\n}}\n")
    return "".join(parts)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(text: str, ctx: Context) -> dict[str, float]:
    times: dict[str, float] = {}
    module: ModuleOp | None = None

    def parse() -> None:
        nonlocal module
        module = Parser(ctx, text).parse_module()

    times["parse"] = timed(parse)
    assert module is not None
    times["verify"] = timed(module.verify)
    passes = get_all_passes()
    for name in GPU_PIPELINE:
        pass_ = passes[name]()()
        times[name] = timed(lambda p=pass_: p.apply(ctx, module))
    times["verify after"] = timed(module.verify)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000", help="target op counts")
    parser.add_argument("--quick", action="store_true", help="sizes 1000 and 10000 only")
    args = parser.parse_args()
    sizes = [1000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]

    rows: list[tuple[int, dict[str, float]]] = []
    for size in sizes:
        kernels = max(1, size // OPS_PER_KERNEL)
        text = program(kernels)
        ctx = make_context()
        ops = sum(1 for _ in Parser(ctx, text).parse_module().walk())
        rows.append((ops, measure(text, ctx)))

    stages = list(rows[0][1])
    print(f"{'stage':<26}" + "".join(f"{ops:>12,d} ops" for ops, _ in rows) + "   growth/10x ops")
    for stage in stages:
        cells = "".join(f"{t[stage]:>14.3f} s" for _, t in rows)
        (o1, t1), (o2, t2) = rows[0], rows[-1]
        decades = math.log10(o2 / o1)
        growth = (
            (t2[stage] / t1[stage]) ** (1 / decades) if t1[stage] > 0 and decades else float("nan")
        )
        print(f"{stage:<26}{cells}   {growth:8.1f}x")


if __name__ == "__main__":
    main()
