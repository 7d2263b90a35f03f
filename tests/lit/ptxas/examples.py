# RUN: python %s 80 %t | filecheck %s --check-prefix=SM80
# RUN: python %s 90 %t | filecheck %s --check-prefix=SM90
# RUN: python %s 80 %t index-bitwidth=32 | filecheck %s --check-prefix=SM80
# RUN: python %s 90 %t index-bitwidth=32 | filecheck %s --check-prefix=SM90
"""Every kernel of every example program, compiled by `gpu-opt -t ptx{sm=N}` and assembled by
`ptxas -arch=sm_N`: one line per example with the kernels it assembled. A third argument adds
target options (`index-bitwidth=32`: 32-bit index values in device code).

The `invalid-*` examples are meant to fail earlier; any other failure fails the test. gpu-opt
runs in this process (`tool_server.call`): one start-up for all the examples.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from gpuir.tools.tool_server import call

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def main(sm: str, scratch: str, options: str = "") -> int:
    os.makedirs(scratch, exist_ok=True)
    for example in sorted(EXAMPLES.glob("*.mlir")):
        if example.name.startswith("invalid-"):
            continue
        compiled = call(
            ["gpu-opt", str(example), "-t", f"ptx{{sm={sm} {options}}}".replace(" }", "}")]
        )
        if compiled["returncode"] != 0:
            print(f"{example.name}: gpu-opt failed:\n{compiled['stderr']}")
            return 1
        suffix = "".join(c for c in options if c.isalnum())
        ptx = os.path.join(scratch, f"{example.stem}.sm{sm}{suffix}.ptx")
        with open(ptx, "w") as f:
            f.write(compiled["stdout"])
        cubin = ptx.removesuffix(".ptx") + ".cubin"
        assembled = subprocess.run(
            ["ptxas", f"-arch=sm_{sm}", "-o", cubin, ptx], capture_output=True, text=True
        )
        if assembled.returncode != 0:
            print(f"{example.name}: ptxas failed:\n{assembled.stdout}{assembled.stderr}")
            return 1
        kernels = re.findall(r"\.entry (\w+)\(", compiled["stdout"])
        print(f"{example.name}: sm_{sm}: {len(kernels)} kernels: {' '.join(kernels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

# SM80-DAG: array.mlir: sm_80: 1 kernels: array_kernel
# SM80-DAG: bias_relu.mlir: sm_80: 1 kernels: map_reduce_kernel_0
# SM80-DAG: dynamic-shared-memory.mlir: sm_80: 1 kernels: neighbours
# SM80-DAG: kernel-printf.mlir: sm_80: 1 kernels: k
# SM80-DAG: manual-streams.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: manual-sync.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: matmul.mlir: sm_80: 1 kernels: map_reduce_kernel_0
# SM80-DAG: no-arguments.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: scoped-streams.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: scoped-sync.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: simple.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: two-arguments.mlir: sm_80: 1 kernels: kernel
# SM80-DAG: two-configurations.mlir: sm_80: 1 kernels: group_ids
# SM80-DAG: views.mlir: sm_80: 2 kernels: map_reduce_kernel_0 map_reduce_kernel_1
# SM80-DAG: workgroup-collectives.mlir: sm_80: 1 kernels: collectives
# SM80-NOT: failed

# SM90-DAG: array.mlir: sm_90: 1 kernels: array_kernel
# SM90-DAG: bias_relu.mlir: sm_90: 1 kernels: map_reduce_kernel_0
# SM90-DAG: dynamic-shared-memory.mlir: sm_90: 1 kernels: neighbours
# SM90-DAG: kernel-printf.mlir: sm_90: 1 kernels: k
# SM90-DAG: manual-streams.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: manual-sync.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: matmul.mlir: sm_90: 1 kernels: map_reduce_kernel_0
# SM90-DAG: no-arguments.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: scoped-streams.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: scoped-sync.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: simple.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: two-arguments.mlir: sm_90: 1 kernels: kernel
# SM90-DAG: two-configurations.mlir: sm_90: 1 kernels: group_ids
# SM90-DAG: views.mlir: sm_90: 2 kernels: map_reduce_kernel_0 map_reduce_kernel_1
# SM90-DAG: workgroup-collectives.mlir: sm_90: 1 kernels: collectives
# SM90-NOT: failed
