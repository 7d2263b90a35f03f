"""The engine every interpreter-run uses (interp's work-items, the host executor): `Machine` on
xDSL's interpreter (`machine`), its compiled closures (`closures`), the token-order check
(`token_order`), and one module per dialect with that dialect's semantics and fast forms, as
`xdsl/interpreters/` has them. docs/interp.md says how it runs."""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions

from gpuir.runtime.engine.arith import ArithFunctions
from gpuir.runtime.engine.control_flow import CfFunctions, FuncFunctions, ScfFunctions
from gpuir.runtime.engine.llvm import LlvmStructFunctions
from gpuir.runtime.engine.machine import Machine, fail, make_machine, result_width, undefined
from gpuir.runtime.engine.math import MathFunctions
from gpuir.runtime.engine.mem import MemFunctions
from gpuir.runtime.engine.printf import PrintfFunctions
from gpuir.runtime.engine.vector import VectorFunctions

STANDARD_FUNCTIONS: tuple[type[InterpreterFunctions], ...] = (
    ArithFunctions,
    MathFunctions,
    ScfFunctions,
    CfFunctions,
    FuncFunctions,
    PrintfFunctions,
    MemFunctions,
    LlvmStructFunctions,
    VectorFunctions,
)
"""The impls of the standard dialects, `mem`, `vector` and llvm structs, in registration
order."""

__all__ = [
    "STANDARD_FUNCTIONS",
    "Machine",
    "fail",
    "make_machine",
    "result_width",
    "undefined",
]
