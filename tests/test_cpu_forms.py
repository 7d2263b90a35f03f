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


# --- which form each kernel gets (`gpuir.lowering.cpu.forms.choose_form`) -------------------------

WARP_KERNEL = """
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x i32>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %c2 = arith.constant 2 : index
    %o = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %v = arith.index_cast %item : index to i32
    %cond = arith.cmpi ult, CONDITION, %c2 : index
    %r1, %r3, %r = scf.if %cond -> (!mem.M<1>, !mem.M<3>, i32) {
      %a1, %a3, %s, %ok = gpu.shuffle "xor" %m1, %m3, %v, %o, %w : i32
      scf.yield %a1, %a3, %s : !mem.M<1>, !mem.M<3>, i32
    } else {
      scf.yield %m1, %m3, %v : !mem.M<1>, !mem.M<3>, i32
    }
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x i32>, 1>
    %s1 = mem.store %r1, %p, %r : !mem.ptr<i32, 1>
    func.return %s1, %r3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
"""

PLAIN = """
builtin.module attributes {gpu.device} {
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, %out: !mem.ptr<!mem.array<? x index>, 1>)
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
    %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x index>, 1>
    %s1 = mem.store %m1, %p, %item : !mem.ptr<index, 1>
    BODY
    func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }
}
"""


def form_of(text: str):
    from gpuir.lowering.cpu.forms import choose_form

    module = Parser(make_context(), text).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, FuncOp))
    before = str(module)
    form = choose_form(kernel, Helpers(module))
    assert str(module) == before  # an analysis: nothing rewritten
    return form


def test_a_warp_op_the_whole_group_reaches_runs_as_loops_over_the_lanes():
    """Under a condition the whole group shares, every warp reaches the shuffle with all its
    lanes: `Fission`'s form, the shuffle a loop over the group (lowering/cpu/warps.py)."""
    form = form_of(WARP_KERNEL.replace("CONDITION", "%group"))
    assert form.name == "fission"
    assert "'gpu.shuffle'" in form.why


def test_a_warp_op_under_a_varying_condition_is_resumable():
    """Items 0 and 1 only would reach the shuffle: not a whole warp, which the resumable form
    finds when it runs (barrier divergence); the form names the op in the way and why."""
    form = form_of(WARP_KERNEL.replace("CONDITION", "%item"))
    assert form.name == "resumable"
    assert form.op is not None and form.op.name == "gpu.shuffle"
    assert "scf.if whose condition depends on the work-item id" in form.why


def test_a_warp_op_in_a_cf_block_is_resumable():
    text = WARP_KERNEL.replace("CONDITION", "%group")
    text = text.replace("%c2 = arith.constant", "cf.br ^next\n  ^next:\n    %c2 = arith.constant")
    form = form_of(text)
    assert form.name == "resumable"
    assert form.op is not None and form.op.name == "gpu.shuffle"
    assert "in a cf block other than the kernel's entry block" in form.why


def test_a_warp_op_in_a_while_loop_is_resumable():
    body = """
    %z = arith.constant 0 : i32
    %w = arith.constant 32 : i32
    %x = arith.constant 1 : i32
    %t1, %t3, %n = scf.while (%q1 = %s1, %q3 = %m3, %i = %z)
        : (!mem.M<1>, !mem.M<3>, i32) -> (!mem.M<1>, !mem.M<3>, i32) {
      %go = arith.cmpi slt, %i, %w : i32
      scf.condition(%go) %q1, %q3, %i : !mem.M<1>, !mem.M<3>, i32
    } do {
    ^bb0(%r1: !mem.M<1>, %r3: !mem.M<3>, %j: i32):
      %a1, %a3, %mask = gpu.ballot %r1, %r3, %true
      %k = arith.addi %j, %x : i32
      scf.yield %a1, %a3, %k : !mem.M<1>, !mem.M<3>, i32
    }"""
    text = PLAIN.replace("BODY", "%true = arith.constant true\n" + body)
    form = form_of(text)
    assert form.name == "resumable"
    assert form.op is not None and form.op.name == "gpu.ballot"
    assert "scf.while" in form.why


def test_kernels_without_barriers():
    assert form_of(PLAIN.replace("BODY", "")).name == "item-loops"
    branchy = PLAIN.replace("BODY", "cf.br ^done\n  ^done:")
    assert form_of(branchy).name == "item-calls"


def test_warp_sum_example_is_warp_vectors():
    """examples/warp-reduce.mlir's @warp_sum: five shuffles at the top level and a lane-0
    atomic (it ran in the resumable form, one call per item per shuffle, before the choice
    looked at warps, then in `Fission`'s, with arrays between the shuffles)."""
    from gpuir.ir.reader import parse_program
    from gpuir.lowering.cpu.cpu_llvm import device_only
    from gpuir.lowering.cpu.forms import choose_form
    from gpuir.lowering.cpu.workgroup_loops import lower_lane_ids

    source = Path(__file__).parent.parent / "examples" / "warp-reduce.mlir"
    module = device_only(parse_program(source.read_text(), str(source)).module)
    kernel = next(op for op in module.walk() if isinstance(op, FuncOp))
    lower_lane_ids(kernel)
    assert choose_form(kernel, Helpers(module)).name == "warp-vectors"
