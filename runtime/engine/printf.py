"""`printf` to the machine's output (`{}` is a value as gpu-run prints results)."""

from __future__ import annotations

from xdsl.dialects import printf
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls

from gpuir.dialects.gpu import format_text
from gpuir.runtime.engine.machine import Machine, fail
from gpuir.runtime.scalars import print_text, unsigned


@register_impls
class PrintfFunctions(InterpreterFunctions):
    """`printf` to the machine's output: `{}` is a value as gpu-run prints results."""

    @impl(printf.PrintFormatOp)
    def run_print_format(self, machine: Machine, op: printf.PrintFormatOp, args: PythonValues):
        types = [o.type for o in op.format_vals]
        try:
            machine.write(print_text(format_text(op), args, types))
        except (IndexError, ValueError) as e:
            raise fail(op, f"bad format string {op.format_str.data!r}: {e}") from None
        return ()

    @impl(printf.PrintCharOp)
    def run_print_char(self, machine: Machine, op: printf.PrintCharOp, args: PythonValues):
        machine.write(chr(unsigned(args[0], 8)))
        return ()

    @impl(printf.PrintIntOp)
    def run_print_int(self, machine: Machine, op: printf.PrintIntOp, args: PythonValues):
        machine.write(str(args[0]))
        return ()
