"""A target plugin: `gpu-opt -t count-ops` prints how many ops the module holds."""

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target


@dataclass(frozen=True)
class CountOpsTarget(Target):
    name = "count-ops"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(f"{sum(1 for _ in module.walk())} ops\n")
