"""`make demo`: parse, verify and pretty-print the array program, show what it holds, then
compile it with the default pipeline and run its @main on the cpu provider (the kernel compiled
for this CPU with LLVM, its work-items as loops).

Later stages (PTX, running on a GPU) join this script as they land.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

from gpuir.dialects import make_context
from gpuir.dialects.gpu import LaunchOp

EXAMPLE = Path(__file__).with_name("array.mlir")


def heading(text: str) -> None:
    print(f"\n== {text} " + "=" * max(0, 72 - len(text)))


def describe(value: SSAValue) -> str:
    """A constant's value, or the SSA name of anything else."""
    if isinstance(value.owner, ConstantOp) and isinstance(value.owner.value, IntegerAttr):
        return str(value.owner.value.value.data)
    return f"%{value.name_hint}"


def summarize(module: ModuleOp) -> None:
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    kernels = {launch.kernel.string_value() for launch in launches}
    for func in module.ops:
        if isinstance(func, FuncOp):
            role = "kernel" if func.sym_name.data in kernels else "host function"
            ops = sum(1 for _ in func.walk()) - 1
            print(f"  @{func.sym_name.data:<16} {role:<14} {ops:3d} ops")
    for launch in launches:
        print(
            f"  launch of {launch.kernel}: {describe(launch.n_groups)} work-group(s) of "
            f"{describe(launch.n_items)} work-item(s), {len(launch.args)} argument(s)"
        )
    dialects = Counter(op.name.split(".")[0] for op in module.walk() if op is not module)
    print("  ops per dialect: " + ", ".join(f"{d} {n}" for d, n in dialects.most_common()))


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLE
    module = Parser(make_context(), path.read_text(), str(path)).parse_module()
    module.verify()

    heading(f"{path.name}: parsed and verified, pretty-printed")
    Printer().print_op(module)
    print()
    heading("what it holds")
    summarize(module)
    heading("the launch in the generic form (the IR contract: docs/dialects.md)")
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    Printer(print_generic_format=True).print_op(launch)
    print()
    run_on_cpu(path)
    return 0


def run_on_cpu(path: Path) -> None:
    """Compile with the default pipeline, run @main on the cpu provider, print its results."""
    import gpuir

    heading("run on the cpu provider (gpuir.compile(...).main())")
    program = gpuir.compile(path, provider="cpu")
    results = program.main(*(int(a) for a in sys.argv[2:]))
    if results is None:
        results = ()
    elif not isinstance(results, tuple):
        results = (results,)
    print(f"  kernels: {', '.join('@' + k for k in program.kernels)}")
    print(f"  @main returned: {', '.join(str(r) for r in results) or 'nothing'}")


if __name__ == "__main__":
    raise SystemExit(main())
