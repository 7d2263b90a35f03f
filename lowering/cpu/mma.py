"""The matrix ops (`gpu.mma_load`, `mma_store`, `mma_compute`, `mma_constant`,
`mma_elementwise`) on the cpu provider: `expand_mma` rewrites them, before any form sees the
kernel, into ops the cpu provider runs, with interp's layout and results (docs/ir-extensions.md,
"Matrix ops"; `gpuir.runtime.interp.mma`):

- a `!gpu.fragment<RxCxT, _>` becomes the lane's share, a `vector<sxT>` holding elements
  `s l … s l + s - 1` of the row-major tile (`share_of`: 8 of a 16x16 tile, row `l / 2`, columns
  `8 (l % 2) …`; 1 of an f64 `a` or `b`, 2 of an f64 `c`), wherever it flows (`scf.for`'s
  carried values, `scf.if`'s results, a function's arguments);
- `gpu.mma_load` / `gpu.mma_store`: the lane's `s` `mem.load`s / `mem.store`s of its own
  elements;
- `gpu.mma_compute`: the lane's row of `a` and its columns of `b` (the shares of the lanes that
  hold them: for 16x16 tiles, lanes `2r`, `2r + 1` and `2k + l % 2`) gathered with `gpu.shuffle
  "idx"` of their 64-bit words, the elements widened to f32 (exact; f64 stays f64), then each
  of its outputs `c + a[r][0] b[0][j] + … + a[r][K - 1] b[K - 1][j]`, added in that order in
  f32 (each product of two f16 is exact; f64: each product rounded) and rounded once to `c`'s
  type: all of the lane's outputs at once, in LLVM's vector instructions (`fmul` and `fadd` of
  `a[r][k]` broadcast and the lane's columns of `b`'s row k; the pipeline before LLVM has no
  `arith` on vectors);
- `gpu.mma_constant` / `gpu.mma_elementwise`: the scalar, or the `arith` op, on each element.

Departure from interp: a warp that is not whole (the group's last, when its size is no
multiple of 32), or whose lanes give different tiles, is not an error here.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, vector
from xdsl.dialects.builtin import (
    Float16Type,
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
from gpuir.dialects.gpu.mma import ELEMENTWISE_OPS, FragmentType, scalar_of, share_of, tile_of
from gpuir.dialects.mem import DYNAMIC_INDEX, GLOBAL, ArrayType, PtrType
from gpuir.dialects.vector_ext import FromElementsOp
from gpuir.lowering.cpu.workgroups import index_constant


def share_type(type_: Attribute) -> Attribute:
    """A lane's share of a fragment type; any other type as it is."""
    if isinstance(type_, FragmentType):
        return VectorType(type_.element_type, [share_of(type_)])
    return type_


def elements(b: Builder, share: SSAValue) -> list[SSAValue]:
    """The share's elements."""
    assert isinstance(share.type, VectorType)
    scalar, count = share.type.element_type, share.type.get_shape()[0]
    return [b.insert(vector.ExtractOp(share, [k], scalar)).result for k in range(count)]


def share_from(b: Builder, values: list[SSAValue]) -> SSAValue:
    """The share of the elements `values`."""
    return b.insert(FromElementsOp(values, VectorType(values[0].type, [len(values)]))).result


def lane_offsets(
    b: Builder, op: gpu.MmaLoadOp | gpu.MmaStoreOp, type_: FragmentType
) -> list[SSAValue]:
    """Where the lane's elements of a `type_` are, in elements from the scalars `op.ptr` points
    to."""
    share = share_of(type_)
    per_row = index_constant(b, type_.rows_cols[1] // share)  # the lanes that hold a row
    lane = b.insert(gpu.LaneIdOp()).res
    row = b.insert(arith.DivUIOp(lane, per_row)).result
    part = b.insert(arith.RemUIOp(lane, per_row)).result
    first = b.insert(arith.MuliOp(part, index_constant(b, share))).result
    lead = index_constant(b, op.lead.value.data)
    if op.transpose is None:  # element (r, c) at r * lead + c
        start = b.insert(arith.AddiOp(b.insert(arith.MuliOp(row, lead)).result, first)).result
        step = index_constant(b, 1)
    else:  # at c * lead + r
        start = b.insert(arith.AddiOp(b.insert(arith.MuliOp(first, lead)).result, row)).result
        step = lead
    start = b.insert(arith.AddiOp(op.index, start)).result
    offsets = [start]
    for _ in range(share - 1):
        offsets.append(b.insert(arith.AddiOp(offsets[-1], step)).result)
    return offsets


def lane_pointers(
    b: Builder, op: gpu.MmaLoadOp | gpu.MmaStoreOp, type_: FragmentType
) -> tuple[list[SSAValue], bool]:
    """The pointers to the lane's elements, and whether they are in global memory."""
    ptr_type = op.ptr.type
    assert isinstance(ptr_type, PtrType)
    scalars = PtrType(ArrayType(DYNAMIC_INDEX, scalar_of(ptr_type.pointee)), ptr_type.space)
    base = b.insert(UnrealizedConversionCastOp.get([op.ptr], [scalars])).results[0]
    pointers = [b.insert(mem.LeaOp(base, at)).res for at in lane_offsets(b, op, type_)]
    return pointers, ptr_type.space.data == GLOBAL


def expand_load(b: Builder, op: gpu.MmaLoadOp, type_: FragmentType) -> list[SSAValue]:
    pointers, is_global = lane_pointers(b, op, type_)
    token, values = op.m1 if is_global else op.m3, []
    for pointer in pointers:
        load = b.insert(mem.LoadOp(token, pointer))
        token = load.res_mem
        values.append(load.res)
    m1, m3 = (token, op.m3) if is_global else (op.m1, token)
    return [m1, m3, share_from(b, values)]


def expand_store(b: Builder, op: gpu.MmaStoreOp, type_: FragmentType) -> list[SSAValue]:
    pointers, is_global = lane_pointers(b, op, type_)
    token = op.m1 if is_global else op.m3
    for pointer, value in zip(pointers, elements(b, op.value), strict=True):
        token = b.insert(mem.StoreOp(token, pointer, value)).res_mem
    return [token, op.m3] if is_global else [op.m1, token]


def widened(b: Builder, values: list[SSAValue]) -> list[SSAValue]:
    """`values` as f32 (exact for f16); f32 and f64 as they are."""
    if not isinstance(values[0].type, Float16Type):
        return values
    return [b.insert(arith.ExtFOp(x, Float32Type())).result for x in values]


def widened_vector(b: Builder, share: SSAValue) -> SSAValue:
    """`share` as a vector of f32 where it holds f16 (exact); of f32 or f64 as it is."""
    assert isinstance(share.type, VectorType)
    if not isinstance(share.type.element_type, Float16Type):
        return share
    wide = VectorType(Float32Type(), share.type.get_shape())
    return b.insert(llvm.FPExtOp(share, wide)).result


WORD = IntegerType(64)
"""What a shuffle moves: a share as its 64-bit words (2 of 8 f16, 1 of an f64)."""


def expand_compute(b: Builder, op: gpu.MmaComputeOp, a_type: FragmentType) -> list[SSAValue]:
    m1, m3 = op.m1, op.m3
    element = a_type.element_type
    (rows, depth), (_, cols) = tile_of(element, "a"), tile_of(element, "b")
    share_a, share_b, share_c = (
        rows * depth // gpu.WARP,
        depth * cols // gpu.WARP,
        rows * cols // gpu.WARP,
    )
    assert depth % share_a == 0 and share_c % share_b == 0  # a lane's row, columns: whole shares
    width = b.insert(arith.ConstantOp.from_int_and_width(gpu.WARP, i32)).result
    operand_share = share_type(a_type)
    assert isinstance(operand_share, VectorType)
    words_type = VectorType(WORD, [share_a * element.bitwidth // 64])  # type: ignore[attr-defined]

    def words_of(share: SSAValue) -> list[SSAValue]:
        words = b.insert(vector.BitcastOp(share, words_type)).result
        count = words_type.get_shape()[0]
        return [b.insert(vector.ExtractOp(words, [k], WORD)).result for k in range(count)]

    def gather(words: list[SSAValue], source: SSAValue) -> SSAValue:
        """Lane `source`'s share (from its words)."""
        nonlocal m1, m3
        found = []
        for word in words:
            shuffle = b.insert(gpu.ShuffleOp("idx", m1, m3, word, source, width))
            m1, m3 = shuffle.res_m1, shuffle.res_m3
            found.append(shuffle.res)
        packed = b.insert(FromElementsOp(found, words_type)).result
        return b.insert(vector.BitcastOp(packed, operand_share)).result

    def i32_constant(k: int) -> SSAValue:
        return b.insert(arith.ConstantOp.from_int_and_width(k, i32)).result

    def plus(base: SSAValue, k: int) -> SSAValue:
        return b.insert(arith.AddiOp(base, i32_constant(k))).result

    lane = b.insert(arith.IndexCastOp(b.insert(gpu.LaneIdOp()).res, i32)).result
    per_row = i32_constant(cols // share_c)  # the lanes that hold a row of the result
    row_index = b.insert(arith.DivUIOp(lane, per_row)).result
    part = b.insert(arith.RemUIOp(lane, per_row)).result
    # the first lane of `a`'s row, of the lane's columns in `b`'s row 0
    a_first = b.insert(arith.MuliOp(row_index, i32_constant(depth // share_a))).result
    b_first = b.insert(arith.MuliOp(part, i32_constant(share_c // share_b))).result
    a, own_b = words_of(op.a), words_of(op.b)
    row = [
        x
        for t in range(depth // share_a)
        for x in widened(b, elements(b, gather(a, plus(a_first, t))))
    ]
    # per k, the lane's columns of `b`'s row k as one vector of the sum's type
    columns = []
    for k in range(depth):
        shares = [
            gather(own_b, plus(b_first, k * (cols // share_b) + t))
            for t in range(share_c // share_b)
        ]
        columns.append(
            widened_vector(b, shares[0])
            if len(shares) == 1
            else share_from(b, [x for s in shares for x in widened(b, elements(b, s))])
        )
    result_type = op.res.type  # already the share (`expand_mma`)
    assert isinstance(result_type, VectorType)
    # each output element: c, plus the products in k order (vectors add lane by lane)
    acc = widened_vector(b, op.c)
    for k in range(depth):
        a_k = b.insert(vector.BroadcastOp(row[k], columns[k].type)).vector  # type: ignore[arg-type]
        product = b.insert(llvm.FMulOp(a_k, columns[k])).res
        acc = b.insert(llvm.FAddOp(acc, product)).res
    if acc.type != result_type:
        acc = b.insert(llvm.FPTruncOp(acc, result_type)).result
    return [m1, m3, acc]


def expand_elementwise(b: Builder, op: gpu.MmaElementwiseOp, _: FragmentType) -> list[SSAValue]:
    built = ELEMENTWISE_OPS[op.kind.data]
    shares = [elements(b, v) for v in op.values]
    found = [b.insert(built(*xs)).results[0] for xs in zip(*shares, strict=True)]  # type: ignore[call-arg]
    return [op.m1, op.m3, share_from(b, found)]


def expand_constant(b: Builder, op: gpu.MmaConstantOp, type_: FragmentType) -> list[SSAValue]:
    return [op.m1, op.m3, share_from(b, [op.value] * share_of(type_))]


def retype_fragments(module: ModuleOp) -> None:
    """Every value of a fragment type becomes its share, a `vector<sxT>` (module docstring)."""
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
"""Each matrix op's expansion, given the op and its first fragment's type (a load's result, a
store's value, a product's `a`), which the retyping of its values loses."""


def first_fragment(op: Operation) -> FragmentType:
    """The type of `op`'s first fragment operand, else its fragment result."""
    return next(t for t in (*op.operand_types, *op.result_types) if isinstance(t, FragmentType))


def expand_mma(module: ModuleOp) -> None:
    """Rewrite the matrix ops of `module` (module docstring)."""
    found = [(op, first_fragment(op)) for op in module.walk() if type(op) in EXPANSIONS]
    if not found:
        return
    retype_fragments(module)
    for op, type_ in found:
        b = Builder(InsertPoint.before(op))
        Rewriter.replace_op(op, [], EXPANSIONS[type(op)](b, op, type_))  # type: ignore[operator]
