"""`mem-checks`: memory tokens stay on their side (MimIR's `gpu.mem_checks`).

- A `gpu.launch` may not pass a `!mem.M` (of any address space) as a kernel argument: the kernel
  gets its device tokens from the launch, and no token crosses the device boundary.
- `@main` (the host entry point) may take and return only the host token: a `!mem.M<a>` with
  `a != 0` cannot come from or go to the caller, so `main` opens the device with `gpu.init` and
  closes it with `gpu.deinit` itself.

MimIR looks for `%mem.M` inside tuple types too; our kernel arguments and function types are flat,
so an argument or result whose type *is* a `!mem.M` is what we check (a pointer to a token is a
pointer). A function named `main` that is device code is a kernel, not the entry point, and is
not checked. The pass only checks and reports the first violation in program order, anchored at
the launch or at `@main`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass

from gpuir.dialects.gpu import LaunchOp
from gpuir.dialects.mem import HOST, MemType
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.passes.device_code import is_device_function

MAIN = "main"


def check_launch(op: LaunchOp) -> None:
    for i, arg in enumerate(op.args):
        if isinstance(arg.type, MemType):
            what = f"%{arg.name_hint}" if arg.name_hint else f"kernel argument #{i}"
            raise OpError(
                op,
                "You may not pass any !mem.M across the device boundary: "
                f"passing {what} : {arg.type} from host to kernel {op.kernel}",
            )


def first_device_token(types: Sequence[Attribute]) -> int | None:
    """The position of the first `!mem.M<a>` with `a != 0` among `types`."""
    tokens = (i for i, t in enumerate(types) if isinstance(t, MemType) and t.space.data != HOST)
    return next(tokens, None)


MAIN_SIGNATURE = (
    ("take", "argument", "come from outside the program; create it with gpu.init"),
    ("return", "result", "leave the program; consume it with gpu.deinit"),
)
"""Per side of `@main`'s signature (inputs, outputs): the words of the error at a device token."""


def check_main(op: FuncOp) -> None:
    sides = (op.function_type.inputs.data, op.function_type.outputs.data)
    for types, (verb, what, why) in zip(sides, MAIN_SIGNATURE, strict=True):
        if (i := first_device_token(types)) is not None:
            raise OpError(
                op,
                f"@main may not {verb} {types[i]} ({what} #{i}): a !mem.M with a non-zero "
                f"address space cannot {why}",
            )


def is_entry_point(func: FuncOp) -> bool:
    return func.sym_name.data == MAIN and not is_device_function(func)


@dataclass(frozen=True)
class MemChecksPass(ModulePass):
    """Reject `!mem.M` kernel arguments, and device tokens in `@main`'s signature."""

    name = "mem-checks"
    PRESERVES_IR: ClassVar[bool] = True
    """An analysis: it reports and leaves the IR as it is (not verified again after it)."""

    launches = Statistic("num-launches-checked", "Number of gpu.launch ops checked")
    entries = Statistic("num-entry-points-checked", "Number of @main signatures checked")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, LaunchOp):
                check_launch(inner)
                self.launches.add()
            elif isinstance(inner, FuncOp) and is_entry_point(inner):
                check_main(inner)
                self.entries.add()
