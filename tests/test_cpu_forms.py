"""The cpu provider's choice of form for a kernel with barriers (`lowering/cpu/workgroup_loops.py`):
`Fission.placement` decides before anything is rewritten (as pocl's WorkitemHandlerChooser), and
leaves the kernel as it found it."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.lowering.cpu.fission import Fission
from gpuir.lowering.cpu.workgroups import Helpers

KERNEL = """
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %a3, %cell = mem.slot %m3 : !mem.ptr<i32, 3>
    %c2 = arith.constant 2 : index
    %low = arith.cmpi ult, CONDITION, %c2 : index
    %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
      %s1, %s3 = gpu.sync_work_items %m1, %a3
      scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
    } else {
      scf.yield %m1, %a3 : !mem.M<1>, !mem.M<3>
    }
    func.return %r1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
"""


def placement(condition: str):
    module = Parser(make_context(), KERNEL.replace("CONDITION", condition)).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, FuncOp))
    before = str(module)
    found = Fission(kernel, Helpers(module)).placement()
    assert str(module) == before  # an analysis: nothing rewritten
    return found


def test_a_barrier_under_a_varying_condition_keeps_fission_away():
    found = placement("%item")
    assert found is not None and found.op.name == "gpu.sync_work_items"
    assert "scf.if whose condition depends on the work-item id" in str(found)


def test_a_barrier_under_a_uniform_condition_is_fission_s():
    assert placement("%group") is None


def test_the_resumable_form_is_the_same_ir_on_every_run():
    """cpu-workgroup-loops' resumable form kept its live values in the order of a set of
    SSA values (their addresses): the same input gave constants and loads in other places."""
    from gpuir.tools.tool_server import call

    source = Path(__file__).parent / "lit" / "lowering" / "cpu-workgroup-loops-resume.mlir"
    argv = ["gpu-opt", str(source), "--split-input-file", "-p", "cpu-workgroup-loops"]
    outputs = {call(argv)["stdout"] for _ in range(6)}
    assert len(outputs) == 1
