"""The device ops of the `gpu` dialect: the work-group barrier, synced scopes, the
collectives, fences, and the warp operations."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.common import YieldingOp, expect_type
from gpuir.dialects.gpu.common import (
    M1,
    M3,
    TokenRegionOp,
    constant_int,
    expect_region_signature,
)
from gpuir.dialects.gpu.host import WithStreamsOp
from gpuir.dialects.mem import is_word_scalar
from gpuir.dialects.traits import WarpCollective, WorkgroupBarrier


class DeviceTokensOp(IRDLOperation):
    """The shape of a device op on the work-group's tokens alone (`gpu.sync_work_items`,
    `gpu.fence`): `M<1>, M<3>` in, the next ones out."""

    m1 = operand_def(M1)
    m3 = operand_def(M3)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)


@irdl_op_definition
class SyncWorkItemsOp(DeviceTokensOp):
    """The work-group barrier."""

    name = "gpu.sync_work_items"
    traits = traits_def(WorkgroupBarrier())

    assembly_format = "$m1 `,` $m3 attr-dict"

    def __init__(self, m1: SSAValue, m3: SSAValue):
        super().__init__(operands=[m1, m3], result_types=[M1, M3])


@irdl_op_definition
class SyncedScopeOp(TokenRegionOp):
    """Barrier; the region; barrier (composite).

    `%a, %b = gpu.synced_scope %m1, %m3 { ^bb0(%x: !mem.M<1>, %y: !mem.M<3>): … gpu.yield %x, %y }`
    """

    name = "gpu.synced_scope"
    TOKENS: ClassVar[tuple[Attribute, ...]] = (M1, M3)
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    body = region_def("single_block")
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)

    def __init__(self, m1: SSAValue, m3: SSAValue, body: Region):
        super().__init__(operands=[m1, m3], regions=[body], result_types=[M1, M3])

    def verify_(self) -> None:
        expect_region_signature(self, self.body, (M1, M3), (M1, M3))


COMBINE_OPS: dict[str, tuple[type[Operation], type[Operation] | None]] = {
    "add": (arith.AddiOp, arith.AddfOp),
    "mul": (arith.MuliOp, arith.MulfOp),
    "min": (arith.MinSIOp, arith.MinimumfOp),
    "max": (arith.MaxSIOp, arith.MaximumfOp),
    "and": (arith.AndIOp, None),
    "or": (arith.OrIOp, None),
    "xor": (arith.XOrIOp, None),
}
"""How a collective of each kind combines two values: the `arith` op on integers (they wrap;
`min`/`max` compare signed) and on floats (`minimumf`/`maximumf`: a NaN wins, -0 < +0; none for
the bitwise kinds). The one rule: the lowerings build these ops (`gpuir.lowering.llvm.rules`),
interp runs their semantics (`gpuir.runtime.interp.collectives`)."""
COLLECTIVE_KINDS = tuple(COMBINE_OPS)
BITWISE_KINDS = tuple(kind for kind, (_, on_floats) in COMBINE_OPS.items() if on_floats is None)


class KeyedValueOp(IRDLOperation):
    """The custom syntax of the ops on one value per work-item (the collectives, `gpu.shuffle`):
    `"key" %m1, %m3, %value[, %a, …] : T`: the string property `KEY` (the kind, the mode), the
    tokens, the value, `I32_OPERANDS` more `i32` operands, and `T` the value's type; the
    results are the tokens, a value of `T` and `MORE_RESULTS`."""

    KEY: ClassVar[str]
    KEY_WHAT: ClassVar[str]
    """How the parser's error names the key (` for the collective kind`)."""
    I32_OPERANDS: ClassVar[int] = 0
    MORE_RESULTS: ClassVar[tuple[Attribute, ...]] = ()

    def __init__(self, key: str, m1: SSAValue, m3: SSAValue, value: SSAValue, *more: SSAValue):
        super().__init__(
            operands=[m1, m3, value, *more],
            properties={self.KEY: StringAttr(key)},
            result_types=[M1, M3, value.type, *self.MORE_RESULTS],
        )

    @classmethod
    def parse(cls, parser: Parser) -> KeyedValueOp:
        key = parser.parse_str_literal(cls.KEY_WHAT)
        m1 = parser.parse_operand(M1)
        parser.parse_punctuation(",")
        m3 = parser.parse_operand(M3)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        more: list[SSAValue] = []
        for _ in range(cls.I32_OPERANDS):
            parser.parse_punctuation(",")
            more.append(parser.parse_operand(IntegerType(32)))
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(key, m1, m3, parser.resolve_operand(value, parser.parse_type()), *more)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(getattr(self, self.KEY).data)
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


class CollectiveOp(KeyedValueOp):
    """A work-group collective over one value per work-item; acts as a barrier.

    `%a, %b, %r = gpu.workgroup_reduce "add" %m1, %m3, %v : f32`
    """

    KEY: ClassVar[str] = "kind"
    KEY_WHAT: ClassVar[str] = " for the collective kind"
    traits = traits_def(WorkgroupBarrier())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def()
    kind = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def()

    def verify_(self) -> None:
        kind = self.kind.data
        if kind not in COLLECTIVE_KINDS:
            raise VerifyException(
                f"'{self.name}' expects kind to be one of {', '.join(COLLECTIVE_KINDS)}, "
                f'found "{kind}"'
            )
        value_type = self.value.type
        is_int = isinstance(value_type, IntegerType | IndexType)
        if not is_int and not isinstance(value_type, AnyFloat):
            raise VerifyException(
                f"'{self.name}' expects an integer, index or float value, found {value_type}"
            )
        if kind in BITWISE_KINDS and not is_int:
            raise VerifyException(
                f"'{self.name}' kind \"{kind}\" needs an integer value, found {value_type}"
            )
        expect_type(self, "result", self.res.type, value_type)


@irdl_op_definition
class WorkgroupReduceOp(CollectiveOp):
    """Every work-item gets the reduction over all items' values, combined in the fixed tree
    `t(lo, hi) = t(lo, mid) op t(mid, hi)`, `mid = (lo + hi) // 2`."""

    name = "gpu.workgroup_reduce"


@irdl_op_definition
class WorkgroupScanOp(CollectiveOp):
    """Inclusive scan over the item indices, in a fixed order."""

    name = "gpu.workgroup_scan"


@irdl_op_definition
class YieldOp(YieldingOp):
    """Terminator of `gpu.with_streams` and `gpu.synced_scope`."""

    name = "gpu.yield"
    traits = traits_def(IsTerminator(), HasParent(WithStreamsOp, SyncedScopeOp))


FENCE_SCOPES = ("workgroup", "device", "system")


@irdl_op_definition
class FenceOp(DeviceTokensOp):
    """`%a1, %a3 = gpu.fence "device" %m1, %m3`: a memory fence at work-group, device or system
    scope (`__threadfence_block`, `__threadfence`, `__threadfence_system`); not a barrier."""

    name = "gpu.fence"
    scope = prop_def(StringAttr)

    assembly_format = "$scope $m1 `,` $m3 attr-dict"

    def __init__(self, scope: str, m1: SSAValue, m3: SSAValue):
        super().__init__(
            operands=[m1, m3], properties={"scope": StringAttr(scope)}, result_types=[M1, M3]
        )

    def verify_(self) -> None:
        if self.scope.data not in FENCE_SCOPES:
            raise VerifyException(
                f"'{self.name}' expects scope to be one of {', '.join(FENCE_SCOPES)}, "
                f'found "{self.scope.data}"'
            )


WARP = 32
"""Work-items per warp on every provider: a warp is 32 consecutive items of a group."""


@irdl_op_definition
class LaneIdOp(IRDLOperation):
    """`%lane = gpu.lane_id`: the work-item's lane in its warp (`item_id % 32`); pure."""

    name = "gpu.lane_id"
    res = result_def(IndexType)

    assembly_format = "attr-dict"
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[IndexType()])


SHUFFLE_MODES = ("xor", "up", "down", "idx")


def shuffle_source(mode: str, lane: int, offset: int, width: int, lanes: int) -> int | None:
    """The lane that a `gpu.shuffle` in `mode` reads for `lane` (None: none, `valid` is false):
    in the segment of `width` lanes (1 to 32; any other width makes no lane valid) that holds
    `lane`, among the warp's `lanes` lanes. `gpuir.lowering.llvm.rules.shuffle_source` builds
    the same rule in IR."""
    if not 1 <= width <= WARP:
        return None
    start = lane // width * width
    source = {
        "xor": lane ^ offset,
        "up": lane - offset,
        "down": lane + offset,
        "idx": start + offset,
    }[mode]
    if not start <= source < min(start + width, lanes):
        return None
    return source


@irdl_op_definition
class ShuffleOp(KeyedValueOp):
    """`%a1, %a3, %r, %valid = gpu.shuffle "down" %m1, %m3, %v, %offset, %width : f32`: exchange
    within a warp, as MLIR's `gpu.shuffle`: the source lane is `lane ^ offset`,
    `lane - offset`, `lane + offset` or the segment's first lane + `offset`, in segments of
    `width` lanes; a source outside the segment or the warp's existing lanes gives
    `valid = false` and the lane's own value. Every existing lane of the warp reaches it
    together. `width` is 1 to 32 lanes: the verifier checks a width that an `arith.constant`
    gives, the providers any other when it runs."""

    name = "gpu.shuffle"
    KEY: ClassVar[str] = "mode"
    KEY_WHAT: ClassVar[str] = " for the shuffle's mode"
    I32_OPERANDS: ClassVar[int] = 2
    MORE_RESULTS: ClassVar[tuple[Attribute, ...]] = (IntegerType(1),)
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def()
    offset = operand_def(IntegerType)
    width = operand_def(IntegerType)
    mode = prop_def(StringAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def()
    valid = result_def(IntegerType)

    def verify_(self) -> None:
        if self.mode.data not in SHUFFLE_MODES:
            raise VerifyException(
                f"'{self.name}' expects mode to be one of {', '.join(SHUFFLE_MODES)}, "
                f'found "{self.mode.data}"'
            )
        t = self.value.type
        if not is_word_scalar(t):
            raise VerifyException(
                f"'{self.name}' expects a scalar of 32 or 64 bits (an integer, index, f32 or "
                f"f64), found {t}"
            )
        for what, operand in (("offset", self.offset), ("width", self.width)):
            if operand.type != IntegerType(32):
                raise VerifyException(f"'{self.name}' expects its {what} to be i32")
        width = constant_int(self.width)
        if width is not None and not 1 <= width <= WARP:
            raise VerifyException(
                f"'{self.name}' expects a width of 1 to {WARP} lanes, found the constant {width}"
            )
        expect_type(self, "result", self.res.type, t)
        if self.valid.type != IntegerType(1):
            raise VerifyException(f"'{self.name}' expects its valid flag to be i1")


@irdl_op_definition
class BallotOp(IRDLOperation):
    """`%a1, %a3, %mask = gpu.ballot %m1, %m3, %pred`: bit `l` of `mask` is set iff lane `l`
    of the warp has `pred` true (0 for lanes that do not exist). Every existing lane of the
    warp reaches it together."""

    name = "gpu.ballot"
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    pred = operand_def(IntegerType(1))
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    mask = result_def(IntegerType(32))

    assembly_format = "$m1 `,` $m3 `,` $pred attr-dict"

    def __init__(self, m1: SSAValue, m3: SSAValue, pred: SSAValue):
        super().__init__(operands=[m1, m3, pred], result_types=[M1, M3, IntegerType(32)])


WARP_OPS = (ShuffleOp, BallotOp)
"""Operations that the lanes of a warp reach together."""
