"""An MLIR parser that remembers where each op starts, for gpu-opt's diagnostics.

Its own module so that `gpu-opt --help` does not import xDSL's parser.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.parser import Parser


class LocatingParser(Parser):
    """xDSL's MLIR parser, remembering where each op starts.

    xDSL's parser keeps only an explicit `loc(...)`; `gpu_opt.ParsedChunk.set_locations` gives the
    other ops the location of their first token, as MLIR's parser does.
    """

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.op_starts: dict[Operation, int] = {}

    def parse_operation(self) -> Operation:
        start = self.pos
        op = super().parse_operation()
        self.op_starts[op] = start
        return op
