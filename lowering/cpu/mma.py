"""The matrix ops (`gpu.mma_load`, `mma_store`, `mma_compute`, `mma_constant`,
`mma_elementwise`) on the cpu provider: `expand_mma` rewrites them, before any form sees the
kernel, into ops the cpu provider runs, with interp's layout and results (docs/ir-extensions.md,
"Matrix ops"; `gpuir.runtime.interp.mma`):

- a `!gpu.fragment<16x16xT, _>` becomes the lane's share, a `vector<8xT>` holding elements
  `8l … 8l + 7` of the row-major tile (row `l / 2`, columns `8 (l % 2) …`), wherever it flows
  (`scf.for`'s carried values, `scf.if`'s results, a function's arguments);
- `gpu.mma_load` / `gpu.mma_store`: the lane's 8 `mem.load`s / `mem.store`s of its own elements;
- `gpu.mma_compute`: the lane's row of `a` (from lanes `2r`, `2r + 1`) and its 8 columns of
  `b` (from lanes `2k + l % 2`) gathered with `gpu.shuffle "idx"` of the elements widened to
  f32 (exact), then each of its 8 outputs `c + a[r][0] b[0][j] + … + a[r][15] b[15][j]`, added
  in that order in f32 (each product of two f16 is exact) and rounded once to `c`'s type;
- `gpu.mma_constant` / `gpu.mma_elementwise`: the scalar, or the `arith` op, on each element.

Departure from interp: a warp that is not whole (the group's last, when its size is no
multiple of 32), or whose lanes give different tiles, is not an error here.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, func, vector
from xdsl.dialects.builtin import (
    Float32Type,
    FunctionType,
    IntegerType,
    ModuleOp,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu.mma import ELEMENTWISE_OPS, TILE, FragmentType, scalar_of
from gpuir.dialects.mem import DYNAMIC_INDEX, GLOBAL, ArrayType, PtrType
from gpuir.dialects.vector_ext import FromElementsOp
from gpuir.lowering.cpu.workgroups import index_constant

SHARE = TILE * TILE // gpu.WARP
"""The elements each lane holds."""


def share_type(type_: Attribute) -> Attribute:
    """A lane's share of a fragment type; any other type as it is."""
    if isinstance(type_, FragmentType):
        return VectorType(type_.element_type, [SHARE])
    return type_


def elements(b: Builder, share: SSAValue) -> list[SSAValue]:
    """The share's 8 elements."""
    assert isinstance(share.type, VectorType)
    scalar = share.type.element_type
    return [b.insert(vector.ExtractOp(share, [k], scalar)).result for k in range(SHARE)]


def share_of(b: Builder, values: list[SSAValue]) -> SSAValue:
    return b.insert(FromElementsOp(values, VectorType(values[0].type, [SHARE]))).result


def lane_offsets(b: Builder, op: gpu.MmaLoadOp | gpu.MmaStoreOp) -> list[SSAValue]:
    """Where the lane's elements are, in elements from the scalars `op.ptr` points to."""
    lane = b.insert(gpu.LaneIdOp()).res
    row = b.insert(arith.DivUIOp(lane, index_constant(b, 2))).result
    half = b.insert(arith.RemUIOp(lane, index_constant(b, 2))).result
    first = b.insert(arith.MuliOp(half, index_constant(b, SHARE))).result
    lead = index_constant(b, op.lead.value.data)
    if op.transpose is None:  # element (r, c) at r * lead + c
        start = b.insert(arith.AddiOp(b.insert(arith.MuliOp(row, lead)).result, first)).result
        step = index_constant(b, 1)
    else:  # at c * lead + r
        start = b.insert(arith.AddiOp(b.insert(arith.MuliOp(first, lead)).result, row)).result
        step = lead
    start = b.insert(arith.AddiOp(op.index, start)).result
    offsets = [start]
    for _ in range(SHARE - 1):
        offsets.append(b.insert(arith.AddiOp(offsets[-1], step)).result)
    return offsets


def lane_pointers(b: Builder, op: gpu.MmaLoadOp | gpu.MmaStoreOp) -> tuple[list[SSAValue], bool]:
    """The pointers to the lane's 8 elements, and whether they are in global memory."""
    ptr_type = op.ptr.type
    assert isinstance(ptr_type, PtrType)
    scalars = PtrType(ArrayType(DYNAMIC_INDEX, scalar_of(ptr_type.pointee)), ptr_type.space)
    base = b.insert(UnrealizedConversionCastOp.get([op.ptr], [scalars])).results[0]
    pointers = [b.insert(mem.LeaOp(base, at)).res for at in lane_offsets(b, op)]
    return pointers, ptr_type.space.data == GLOBAL


def expand_load(b: Builder, op: gpu.MmaLoadOp) -> list[SSAValue]:
    pointers, is_global = lane_pointers(b, op)
    token, values = op.m1 if is_global else op.m3, []
    for pointer in pointers:
        load = b.insert(mem.LoadOp(token, pointer))
        token = load.res_mem
        values.append(load.res)
    m1, m3 = (token, op.m3) if is_global else (op.m1, token)
    return [m1, m3, share_of(b, values)]


def expand_store(b: Builder, op: gpu.MmaStoreOp) -> list[SSAValue]:
    pointers, is_global = lane_pointers(b, op)
    token = op.m1 if is_global else op.m3
    for pointer, value in zip(pointers, elements(b, op.value), strict=True):
        token = b.insert(mem.StoreOp(token, pointer, value)).res_mem
    return [token, op.m3] if is_global else [op.m1, token]


def widened(b: Builder, values: list[SSAValue]) -> list[SSAValue]:
    """`values` as f32 (exact for f16)."""
    if isinstance(values[0].type, Float32Type):
        return values
    return [b.insert(arith.ExtFOp(x, Float32Type())).result for x in values]


WORD = IntegerType(64)
WORDS = VectorType(WORD, [2])
"""An f16 share as the two 64-bit words that a shuffle moves."""


def expand_compute(b: Builder, op: gpu.MmaComputeOp) -> list[SSAValue]:
    m1, m3 = op.m1, op.m3
    width = b.insert(arith.ConstantOp.from_int_and_width(gpu.WARP, i32)).result

    def words_of(share: SSAValue) -> list[SSAValue]:
        words = b.insert(vector.BitcastOp(share, WORDS)).result
        return [b.insert(vector.ExtractOp(words, [k], WORD)).result for k in range(2)]

    def gather(words: list[SSAValue], source: SSAValue) -> list[SSAValue]:
        """Lane `source`'s share (its words), as f32."""
        nonlocal m1, m3
        found = []
        for word in words:
            shuffle = b.insert(gpu.ShuffleOp("idx", m1, m3, word, source, width))
            m1, m3 = shuffle.res_m1, shuffle.res_m3
            found.append(shuffle.res)
        packed = b.insert(FromElementsOp(found, WORDS)).result
        share = b.insert(vector.BitcastOp(packed, share_type(op.a.type))).result
        return widened(b, elements(b, share))

    def plus(base: SSAValue, k: int) -> SSAValue:
        k_value = b.insert(arith.ConstantOp.from_int_and_width(k, i32)).result
        return b.insert(arith.AddiOp(base, k_value)).result

    lane = b.insert(arith.IndexCastOp(b.insert(gpu.LaneIdOp()).res, i32)).result
    one = b.insert(arith.ConstantOp.from_int_and_width(1, i32)).result
    half = b.insert(arith.AndIOp(lane, one)).result
    pair = b.insert(arith.SubiOp(lane, half)).result  # 2r: the first lane of the lane's row
    a, own_b = words_of(op.a), words_of(op.b)
    row = gather(a, pair) + gather(a, plus(pair, 1))
    columns = [gather(own_b, plus(half, 2 * k)) for k in range(TILE)]
    result_type = op.res.type  # already the share (`expand_mma`)
    assert isinstance(result_type, VectorType)
    outputs = []
    for e, acc in enumerate(widened(b, elements(b, op.c))):
        for k in range(TILE):
            product = b.insert(arith.MulfOp(row[k], columns[k][e])).result
            acc = b.insert(arith.AddfOp(acc, product)).result
        if acc.type != result_type.element_type:
            acc = b.insert(arith.TruncFOp(acc, result_type.element_type)).result
        outputs.append(acc)
    return [m1, m3, share_of(b, outputs)]


def expand_elementwise(b: Builder, op: gpu.MmaElementwiseOp) -> list[SSAValue]:
    built = ELEMENTWISE_OPS[op.kind.data]
    shares = [elements(b, v) for v in op.values]
    found = [b.insert(built(*xs)).results[0] for xs in zip(*shares, strict=True)]  # type: ignore[call-arg]
    return [op.m1, op.m3, share_of(b, found)]


def expand_constant(b: Builder, op: gpu.MmaConstantOp) -> list[SSAValue]:
    return [op.m1, op.m3, share_of(b, [op.value] * SHARE)]


def retype_fragments(module: ModuleOp) -> None:
    """Every value of a fragment type becomes a `vector<8xT>` (module docstring)."""
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if isinstance(arg.type, FragmentType):
                        Rewriter.replace_value_with_new_type(arg, share_type(arg.type))
        for result in op.results:
            if isinstance(result.type, FragmentType):
                Rewriter.replace_value_with_new_type(result, share_type(result.type))
        if isinstance(op, func.FuncOp):
            inputs = [share_type(t) for t in op.function_type.inputs.data]
            outputs = [share_type(t) for t in op.function_type.outputs.data]
            op.function_type = FunctionType.from_lists(inputs, outputs)


EXPANSIONS = {
    gpu.MmaLoadOp: expand_load,
    gpu.MmaStoreOp: expand_store,
    gpu.MmaComputeOp: expand_compute,
    gpu.MmaConstantOp: expand_constant,
    gpu.MmaElementwiseOp: expand_elementwise,
}


def expand_mma(module: ModuleOp) -> None:
    """Rewrite the matrix ops of `module` (module docstring)."""
    found: list[Operation] = [op for op in module.walk() if type(op) in EXPANSIONS]
    if not found:
        return
    retype_fragments(module)
    for op in found:
        b = Builder(InsertPoint.before(op))
        Rewriter.replace_op(op, [], EXPANSIONS[type(op)](b, op))  # type: ignore[operator]
