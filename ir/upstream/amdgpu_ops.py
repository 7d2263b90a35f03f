"""Upstream MLIR's `amdgpu` ops that gpuir reads, and their import (`AMDGPU_IMPORTS`).

Read (MLIR 22's syntax): `amdgpu.sched_barrier allow = <none>` (or `<valu|all_vmem|…>`), a
hint to the AMDGPU instruction scheduler about which instructions it may move across that
point. It orders no memory and no work-items, so the import makes nothing of it. The rest of
`amdgpu` (buffer loads, `wmma`, `mfma`, …) is not read: an error at the op.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from gpuir.ir.upstream.common import OpTable


@irdl_op_definition
class SchedBarrierOp(IRDLOperation):
    """`amdgpu.sched_barrier allow = <opts>`: the options kept as `"none"`, `"valu|all_vmem"`."""

    name = "amdgpu.sched_barrier"
    allow = prop_def(StringAttr)

    @classmethod
    def parse(cls, parser: Parser) -> SchedBarrierOp:
        parser.parse_keyword("allow")
        parser.parse_punctuation("=")
        parser.parse_punctuation("<")
        options = [parser.parse_identifier()]
        while parser.parse_optional_punctuation("|") is not None:
            options.append(parser.parse_identifier())
        parser.parse_punctuation(">")
        attributes = parser.parse_optional_attr_dict()
        return cls.create(
            properties={"allow": StringAttr("|".join(options))}, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" allow = <{self.allow.data}>")


UpstreamAmdgpu = Dialect("amdgpu", [SchedBarrierOp], [])


def drop(importer: object, op: SchedBarrierOp, b: object, s: object) -> None:
    """A scheduling hint: nothing to make."""


AMDGPU_IMPORTS: OpTable = {SchedBarrierOp: drop}
"""The `amdgpu` ops a kernel imports."""
