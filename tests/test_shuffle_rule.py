"""The lane `gpu.shuffle` reads has one rule in IR (`gpuir.lowering.llvm.rules`, which the
NVPTX and cpu lowerings build) and one in Python (`gpuir.dialects.gpu.shuffle_source`, which
interp runs): the IR, run on interp, reads the lane the Python rule says for every mode, lane,
offset and width of a warp, full or partial."""

from __future__ import annotations

import io

import pytest
from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, i1, i32
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from gpuir.dialects.gpu import shuffle_source as python_rule
from gpuir.lowering.llvm.rules import SOURCES, shuffle_source
from gpuir.runtime.host import HostExecutor
from gpuir.runtime.interp import InterpProvider


def module_of(mode: str) -> ModuleOp:
    block = Block(arg_types=[i32, i32, i32, i32])
    b = Builder(InsertPoint.at_end(block))
    one = b.insert(arith.ConstantOp.from_int_and_width(1, i32)).result
    warp = b.insert(arith.ConstantOp.from_int_and_width(32, i32)).result
    read, valid = shuffle_source(b, mode, *block.args, one, warp)
    b.insert(func.ReturnOp(read, valid))
    function = func.FuncOp("f", ((i32,) * 4, (i32, i1)), Region(block))
    return ModuleOp([function])


@pytest.mark.parametrize("mode", sorted(SOURCES))
def test_the_ir_reads_the_lane_the_python_rule_reads(mode: str):
    executor = HostExecutor(module_of(mode), InterpProvider(io.StringIO()))
    for count in (32, 20):
        for width in (0, 1, 2, 3, 8, 16, 32, 33):
            for offset in (0, 1, 2, 5, 17, 31):
                for lane in range(count):
                    read, valid = executor.call("f", [lane, offset, width, count])
                    expected = python_rule(mode, lane, offset, width, count)
                    assert (bool(valid), read if valid else None) == (
                        expected is not None,
                        expected,
                    ), (mode, lane, offset, width, count)
