# RUN: python %s %t | filecheck %s
"""Every example's host module, as `gpu-opt -t host-llvm` prints it (and `{opt=3}`), passes
`opt-22 -passes=verify` and compiles with `llc-22` for this CPU: one line per example. The
`invalid-*` examples are meant to fail earlier; any other failure fails the test. gpu-opt runs
in this process (`tool_server.call`): one start-up for the 22 compilations.
"""

import subprocess
import sys
from pathlib import Path

from gpuir.tools.tool_server import call

EXAMPLES = Path(__file__).resolve().parents[4] / "examples"


def run(command: list[str], stdin: str | None = None) -> str:
    if command[0] == "gpu-opt":
        answer = call(command)
        status, out, err = answer["returncode"], answer["stdout"], answer["stderr"]
        done = subprocess.CompletedProcess(command, status, out, err)
    else:
        done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def main(scratch: str) -> None:
    for example in sorted(EXAMPLES.glob("*.mlir")):
        if example.name.startswith("invalid-"):
            continue
        for target in ("host-llvm", "host-llvm{opt=3}"):
            ir = run(["gpu-opt", str(example), "-t", target])
            run(["opt-22", "-passes=verify", "-disable-output"], ir)
            run(["llc-22", "-O2", "-o", "/dev/null"], ir)
        print(f"ok {example.name}")


if __name__ == "__main__":
    main(*sys.argv[1:])

# CHECK: ok array.mlir
# CHECK: ok bias_relu.mlir
# CHECK: ok dynamic-shared-memory.mlir
# CHECK: ok manual-streams.mlir
# CHECK: ok manual-sync.mlir
# CHECK: ok map_chain.mlir
# CHECK: ok matmul.mlir
# CHECK: ok no-arguments.mlir
# CHECK: ok scoped-streams.mlir
# CHECK: ok scoped-sync.mlir
# CHECK: ok simple.mlir
# CHECK: ok struct-params.mlir
# CHECK: ok two-arguments.mlir
# CHECK: ok two-configurations.mlir
# CHECK: ok views.mlir
# CHECK: ok workgroup-collectives.mlir
