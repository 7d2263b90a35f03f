"""A plugin that defines a pass under a name that exists already: an error."""

from dataclasses import dataclass

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class MyCse(ModulePass):
    name = "cse"

    def apply(self, ctx, op) -> None:
        pass
