"""PTX quality: gpuir's kernels against the same kernels in CUDA C compiled by nvcc.

For each reference kernel (saxpy; a block sum with shared memory and barriers; a tiled
transpose through shared memory; a naive matmul; the kernel that `lower-btensor-map-reduce`
makes for a 256 x 256 x 256 matmul) gpuir's PTX (`gpu-opt -t ptx{sm=80}`: device-to-llvm,
LLVM -O3, NVPTX) and nvcc's PTX (`nvcc -ptx -O3 -arch=sm_80`) are both assembled by ptxas, and
the table shows what ptxas reports (registers, spilled bytes) and the number of PTX
instructions of each entry (a proxy: the CUDA wheel ships no cuobjdump/nvdisasm to count SASS
instructions), as ratios ours / nvcc. The goal is a ratio of at most 1.0. Nothing is asserted.
Ours is measured twice: with 64-bit `index` values (the default) and with
`index-bitwidth=32` (32-bit index arithmetic, as nvcc's `int`;
`gpuir.lowering.nvptx.device_to_llvm`).
What still differs with 32-bit index (sm_80): shared-memory addresses are 64-bit in our PTX where
nvcc's are 32-bit (LLVM's `--nvptx-short-ptr`, which gpuir does not set: with it block_sum has
nvcc's 12 registers and transpose 36 instructions); map_reduce_kernel_0's reference is 64-bit C
(`unsigned long long`), so the index width is not what its 3 extra registers come from (nvcc
has 29 also with `--fmad=false`; our loop is unrolled by 8, nvcc's by 16).

    python benchmarks/ptx_quality.py                 # sm_80
    python benchmarks/ptx_quality.py --sm 90 --fast-math
    python benchmarks/ptx_quality.py --show-ptx saxpy

Needs ptxas and nvcc: on PATH or in the nvidia-cuda-nvcc wheel (nvcc also needs a host C++
compiler for its preprocessing). Without nvcc the table shows gpuir's figures only and says why.
One difference is by design: nvcc contracts `a * b + c` into an FMA by default
(`--fmad=true`); gpuir does so only with `fast-math=true`, so that float results match the
CPU providers bit for bit. `--nvcc-flags=--fmad=false` compares like with like.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import kernels
from ir_text import constants, item_index
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.lowering.nvptx import ptxas
from gpuir.lowering.nvptx.ptx import PtxOptions, compile_ptx
from gpuir.lowering.targets import lowered_device_module

TOKENS = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
PARAMS = "%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index"


@dataclass(frozen=True)
class Kernel:
    name: str
    gpuir: str
    """A gpuir program (a device module, or a whole program that gpu-pipeline splits)."""
    cuda: str
    """The same kernel in CUDA C, `extern "C"` with the same name."""


SAXPY = Kernel(
    "saxpy",
    kernels.SAXPY,
    """
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}""",
)

BLOCK_SUM = Kernel(
    "block_sum",
    f"""
func.func @block_sum({PARAMS}, %x: !mem.ptr<!mem.array<? x f32>, 1>,
                     %out: !mem.ptr<!mem.array<? x f32>, 1>)
    -> ({TOKENS}) attributes {{gpu.kernel}} {{
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a3, %s = mem.slot %m3 : !mem.ptr<!mem.array<256 x f32>, 3>
  %base = arith.muli %g, %c256 : index
  %k = arith.addi %base, %i : index
  %px = mem.lea %x, %k : !mem.ptr<!mem.array<? x f32>, 1>
  %a1, %v = mem.load %m1, %px : !mem.ptr<f32, 1>
  %mine = mem.lea %s, %i : !mem.ptr<!mem.array<256 x f32>, 3>
  %b3 = mem.store %a3, %mine, %v : !mem.ptr<f32, 3>
  %c1a, %c3 = gpu.sync_work_items %a1, %b3
  %d1, %d3 = scf.for %step = %c0 to %c8 step %c1 iter_args(%t1 = %c1a, %t3 = %c3)
      -> (!mem.M<1>, !mem.M<3>) {{
    %stride = arith.shrui %c128, %step : index
    %active = arith.cmpi ult, %i, %stride : index
    %u3 = scf.if %active -> (!mem.M<3>) {{
      %j = arith.addi %i, %stride : index
      %other = mem.lea %s, %j : !mem.ptr<!mem.array<256 x f32>, 3>
      %e3, %p = mem.load %t3, %mine : !mem.ptr<f32, 3>
      %f3, %q = mem.load %e3, %other : !mem.ptr<f32, 3>
      %sum = arith.addf %p, %q : f32
      %h3 = mem.store %f3, %mine, %sum : !mem.ptr<f32, 3>
      scf.yield %h3 : !mem.M<3>
    }} else {{
      scf.yield %t3 : !mem.M<3>
    }}
    %v1, %v3 = gpu.sync_work_items %t1, %u3
    scf.yield %v1, %v3 : !mem.M<1>, !mem.M<3>
  }}
  %first = arith.cmpi eq, %i, %c0 : index
  %r1, %r3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {{
    %s0 = mem.lea %s, %c0 : !mem.ptr<!mem.array<256 x f32>, 3>
    %w3, %total = mem.load %d3, %s0 : !mem.ptr<f32, 3>
    %po = mem.lea %out, %g : !mem.ptr<!mem.array<? x f32>, 1>
    %w1 = mem.store %d1, %po, %total : !mem.ptr<f32, 1>
    scf.yield %w1, %w3 : !mem.M<1>, !mem.M<3>
  }} else {{
    scf.yield %d1, %d3 : !mem.M<1>, !mem.M<3>
  }}
  func.return %r1, %r3, %m4, %m5 : {TOKENS}
}}""",
    """
extern "C" __global__ void block_sum(const float* x, float* out) {
  __shared__ float s[256];
  unsigned i = threadIdx.x;
  s[i] = x[blockIdx.x * 256 + i];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (i < stride) s[i] += s[i + stride];
    __syncthreads();
  }
  if (i == 0) out[blockIdx.x] = s[0];
}""",
)

TRANSPOSE = Kernel(
    "transpose",
    f"""
func.func @transpose({PARAMS}, %n: index, %in: !mem.ptr<!mem.array<? x f32>, 1>,
                     %out: !mem.ptr<!mem.array<? x f32>, 1>)
    -> ({TOKENS}) attributes {{gpu.kernel}} {{
  %c32 = arith.constant 32 : index
  %a3, %tile = mem.slot %m3 : !mem.ptr<!mem.array<32 x !mem.array<33 x f32>>, 3>
  %tx = arith.remui %i, %c32 : index
  %ty = arith.divui %i, %c32 : index
  %tiles = arith.divui %n, %c32 : index
  %bx = arith.remui %g, %tiles : index
  %by = arith.divui %g, %tiles : index
  %bx32 = arith.muli %bx, %c32 : index
  %by32 = arith.muli %by, %c32 : index
  %row = arith.addi %by32, %ty : index
  %rown = arith.muli %row, %n : index
  %col = arith.addi %bx32, %tx : index
  %src = arith.addi %rown, %col : index
  %ps = mem.lea %in, %src : !mem.ptr<!mem.array<? x f32>, 1>
  %a1, %v = mem.load %m1, %ps : !mem.ptr<f32, 1>
  %trow = mem.lea %tile, %ty : !mem.ptr<!mem.array<32 x !mem.array<33 x f32>>, 3>
  %tcell = mem.lea %trow, %tx : !mem.ptr<!mem.array<33 x f32>, 3>
  %b3 = mem.store %a3, %tcell, %v : !mem.ptr<f32, 3>
  %c1, %c3 = gpu.sync_work_items %a1, %b3
  %orow = arith.addi %bx32, %ty : index
  %orown = arith.muli %orow, %n : index
  %ocol = arith.addi %by32, %tx : index
  %dst = arith.addi %orown, %ocol : index
  %urow = mem.lea %tile, %tx : !mem.ptr<!mem.array<32 x !mem.array<33 x f32>>, 3>
  %ucell = mem.lea %urow, %ty : !mem.ptr<!mem.array<33 x f32>, 3>
  %d3, %w = mem.load %c3, %ucell : !mem.ptr<f32, 3>
  %pd = mem.lea %out, %dst : !mem.ptr<!mem.array<? x f32>, 1>
  %d1 = mem.store %c1, %pd, %w : !mem.ptr<f32, 1>
  func.return %d1, %d3, %m4, %m5 : {TOKENS}
}}""",
    """
extern "C" __global__ void transpose(int n, const float* in, float* out) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  int tiles = n / 32;
  int bx = blockIdx.x % tiles, by = blockIdx.x / tiles;
  tile[ty][tx] = in[(by * 32 + ty) * n + bx * 32 + tx];
  __syncthreads();
  out[(bx * 32 + ty) * n + by * 32 + tx] = tile[tx][ty];
}""",
)

MATMUL = Kernel(
    "matmul",
    f"""
func.func @matmul({PARAMS}, %block: index, %n: index, %a: !mem.ptr<!mem.array<? x f32>, 1>,
                  %b: !mem.ptr<!mem.array<? x f32>, 1>, %c: !mem.ptr<!mem.array<? x f32>, 1>)
    -> ({TOKENS}) attributes {{gpu.kernel}} {{
{constants(c0=0, c1=1, f0="0.0 : f32")}
{item_index("%block", index="%k", group="%g", item="%i")}
  %nn = arith.muli %n, %n : index
  %inside = arith.cmpi ult, %k, %nn : index
  %r1 = scf.if %inside -> (!mem.M<1>) {{
    %row = arith.divui %k, %n : index
    %col = arith.remui %k, %n : index
    %rown = arith.muli %row, %n : index
    %t1, %acc = scf.for %j = %c0 to %n step %c1 iter_args(%tok = %m1, %s = %f0) -> (!mem.M<1>, f32) {{
      %ai = arith.addi %rown, %j : index
      %jn = arith.muli %j, %n : index
      %bi = arith.addi %jn, %col : index
      %pa = mem.lea %a, %ai : !mem.ptr<!mem.array<? x f32>, 1>
      %pb = mem.lea %b, %bi : !mem.ptr<!mem.array<? x f32>, 1>
      %u1, %va = mem.load %tok, %pa : !mem.ptr<f32, 1>
      %w1, %vb = mem.load %u1, %pb : !mem.ptr<f32, 1>
      %p = arith.mulf %va, %vb : f32
      %s2 = arith.addf %s, %p : f32
      scf.yield %w1, %s2 : !mem.M<1>, f32
    }}
    %pc = mem.lea %c, %k : !mem.ptr<!mem.array<? x f32>, 1>
    %z1 = mem.store %t1, %pc, %acc : !mem.ptr<f32, 1>
    scf.yield %z1 : !mem.M<1>
  }} else {{
    scf.yield %m1 : !mem.M<1>
  }}
  func.return %r1, %m3, %m4, %m5 : {TOKENS}
}}""",
    """
extern "C" __global__ void matmul(int n, const float* a, const float* b, float* c) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n * n) {
    int row = k / n, col = k % n;
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) acc += a[row * n + j] * b[j * n + col];
    c[k] = acc;
  }
}""",
)

MAP_REDUCE_MATMUL = Kernel(
    "map_reduce_kernel_0",
    """
func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %m1, %a = buffer.lit %m, %one : f32 -> !buffer.buf<256x256xf32>
  %m2, %b = buffer.lit %m1, %half : f32 -> !buffer.buf<256x256xf32>
  %zero = arith.constant 0.0 : f32
  %m3, %c = btensor.map_reduce %m2 ins(%a, %b : !buffer.buf<256x256xf32>, !buffer.buf<256x256xf32>)
      init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 256, 256, 256>,
      maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
      out_map = affine_map<(i, j) -> (i, j)>} combiner {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      btensor.yield %s : f32
  } : !buffer.buf<256x256xf32>
  %m4 = buffer.print %m3, %c : !buffer.buf<256x256xf32>
  func.return %m4 : !mem.M<0>
}""",
    """
// What lower-btensor-map-reduce's kernel does: one thread per output cell, n_items = 1024.
extern "C" __global__ void map_reduce_kernel_0(const float (*in0)[256], const float (*in1)[256],
                                               float (*out)[256]) {
  unsigned long long flat = blockIdx.x * 1024ull + threadIdx.x;
  if (flat < 65536) {
    unsigned long long i = flat / 256, j = flat % 256;
    float acc = 0.0f;
    for (long long k = 0; k < 256; ++k) acc = acc + in0[i][k] * in1[k][j];
    out[i][j] = acc;
  }
}""",
)

KERNELS = (SAXPY, BLOCK_SUM, TRANSPOSE, MATMUL, MAP_REDUCE_MATMUL)

INSTRUCTION = re.compile(r"^\s+(@%p\d+\s+)?[a-z][a-z0-9_.]*(\s|;)")
DECLARATION = re.compile(r"^\s+\.(reg|shared|local|param|pragma|maxntid|reqntid)\b")


def entry_body(ptx: str, name: str) -> str:
    """The text of `.entry name` up to its closing brace."""
    start = ptx.index(f".entry {name}(")
    end = ptx.index("\n}", start)
    return ptx[start:end]


def ptx_instructions(ptx: str, name: str) -> int:
    """PTX instructions in the entry `name` (no declarations, labels, braces or comments)."""
    lines = entry_body(ptx, name).split("{", 1)[1].splitlines()
    return sum(1 for line in lines if INSTRUCTION.match(line) and not DECLARATION.match(line))


def ours(kernel: Kernel, options: PtxOptions) -> str:
    ctx = make_context()
    module = Parser(ctx, kernel.gpuir).parse_module()
    return compile_ptx(lowered_device_module(ctx, module, options.index_bitwidth), options)


def nvcc_ptx(kernel: Kernel, sm: int, flags: list[str], scratch: str) -> str:
    nvcc = ptxas.find_tool("nvcc")
    if nvcc is None:
        raise RuntimeError("nvcc not found (install nvidia-cuda-nvcc or put nvcc on PATH)")
    source = os.path.join(scratch, f"{kernel.name}.cu")
    target = os.path.join(scratch, f"{kernel.name}.ptx")
    with open(source, "w") as f:
        f.write(kernel.cuda)
    command = [nvcc, "-ptx", *flags, f"-arch=sm_{sm}", "-o", target, source]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed:\n{done.stdout}{done.stderr}")
    with open(target) as f:
        return f.read()


def ratio(a: float, b: float) -> str:
    if b == 0:
        return "1.00" if a == 0 else "inf"
    return f"{a / b:.2f}"


def figures(ptx: str, name: str, sm: int) -> tuple[int, int, int]:
    usage = ptxas.resource_usage(ptx, sm)[name]
    return (
        usage["registers"],
        usage["spill_stores"] + usage["spill_loads"],
        ptx_instructions(ptx, name),
    )


INDEX_BITWIDTHS = (64, 32)
"""Ours with each index bitwidth, in the table's order."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sm", type=int, default=80)
    parser.add_argument("--fast-math", action="store_true", help="gpuir with fast-math=true")
    parser.add_argument("--nvcc-flags", default="-O3", help="nvcc's flags (default: -O3)")
    parser.add_argument(
        "--show-ptx",
        metavar="KERNEL",
        help="print the PTX texts of KERNEL (ours with each index bitwidth, nvcc's)",
    )
    args = parser.parse_args()

    if ptxas.find_ptxas() is None:
        print("ptxas not found: install nvidia-cuda-nvcc; nothing to measure")
        return 1
    flags = shlex.split(args.nvcc_flags)
    print(
        f"gpuir: -t ptx{{sm={args.sm} fast-math={str(args.fast_math).lower()} "
        "index-bitwidth=64|32} (LLVM -O3)"
    )
    print(f"nvcc:  nvcc -ptx {args.nvcc_flags} -arch=sm_{args.sm}")
    print(
        "columns: ptxas registers, spilled bytes (stores + loads), PTX instructions; ours with "
        "64-bit and 32-bit index (i64, i32), nvcc, ratios ours / nvcc\n"
    )
    header = (
        f"{'kernel':<22}{'regs':>6}{'i32':>5}{'nvcc':>6}{'ratio':>7}{'i32':>6}"
        f"{'spill':>7}{'i32':>5}{'nvcc':>6}"
        f"{'ptx ins':>9}{'i32':>5}{'nvcc':>6}{'ratio':>7}{'i32':>6}"
    )
    print(header)
    print("-" * len(header))
    nvcc_missing: str | None = None
    with tempfile.TemporaryDirectory(prefix="gpuir-ptx-quality-") as scratch:
        for kernel in KERNELS:
            mine: list[tuple[int, int, int]] = []
            for width in INDEX_BITWIDTHS:
                options = PtxOptions(sm=args.sm, fast_math=args.fast_math, index_bitwidth=width)
                text = ours(kernel, options)
                mine.append(figures(text, kernel.name, args.sm))
                if args.show_ptx == kernel.name:
                    print(f"--- gpuir, index-bitwidth={width}\n{entry_body(text, kernel.name)}\n}}")
            theirs = None
            if nvcc_missing is None:
                try:
                    theirs = nvcc_ptx(kernel, args.sm, flags, scratch)
                except RuntimeError as e:
                    nvcc_missing = str(e)
            if args.show_ptx == kernel.name and theirs is not None:
                print(f"--- nvcc\n{entry_body(theirs, kernel.name)}\n}}")
            (regs, spills, instructions), (regs32, spills32, instructions32) = mine
            if theirs is None:
                print(
                    f"{kernel.name:<22}{regs:>6}{regs32:>5}{'-':>6}{'-':>7}{'-':>6}"
                    f"{spills:>7}{spills32:>5}{'-':>6}"
                    f"{instructions:>9}{instructions32:>5}{'-':>6}{'-':>7}{'-':>6}"
                )
                continue
            n_regs, n_spills, n_instructions = figures(theirs, kernel.name, args.sm)
            print(
                f"{kernel.name:<22}{regs:>6}{regs32:>5}{n_regs:>6}"
                f"{ratio(regs, n_regs):>7}{ratio(regs32, n_regs):>6}"
                f"{spills:>7}{spills32:>5}{n_spills:>6}"
                f"{instructions:>9}{instructions32:>5}{n_instructions:>6}"
                f"{ratio(instructions, n_instructions):>7}{ratio(instructions32, n_instructions):>6}"
            )
    if nvcc_missing is not None:
        print(f"\nno nvcc comparison: {nvcc_missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
