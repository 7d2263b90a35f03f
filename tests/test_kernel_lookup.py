"""gpu.launch resolves its kernel through a per-block symbol cache; it must never go stale."""

import pytest
from kernels import kernel, launching_main
from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects import make_context
from gpuir.dialects.gpu import LaunchOp

PROGRAM = kernel("k", "%g: index, %i: index", "", marked=False) + launching_main(
    "%one, %one", "  %one = arith.constant 1 : index"
)


def parse():
    module = Parser(make_context(), PROGRAM).parse_module()
    module.verify()
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    kernel = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == "k")
    return module, launch, kernel


def test_renamed_kernel_is_not_found():
    _, launch, kernel = parse()
    kernel.sym_name = StringAttr("renamed")
    with pytest.raises(VerifyException, match="names the kernel @k, which does not exist"):
        launch.verify()


def test_erased_kernel_is_not_found():
    _, launch, kernel = parse()
    kernel.detach()
    with pytest.raises(VerifyException, match="which does not exist"):
        launch.verify()


def test_replacement_kernel_is_found():
    module, launch, kernel = parse()
    replacement = kernel.clone()
    kernel.detach()
    module.body.block.insert_op_before(replacement, module.body.block.first_op)
    launch.verify()
    assert replacement.parent is module.body.block
