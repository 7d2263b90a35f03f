"""`convert-vector-to-gpu`: MLIR's pass of that name (its WMMA path), on an upstream program
before it is imported: the vector ops on 2-D tiles that feed or follow a `vector.contract`
become the warp's matrix ops, `gpu.subgroup_mma_*` (`mma_ops`), which a warp runs together.

For each `vector.contract`, the chain of ops that reach it or that it reaches through vectors
(its slice, as MLIR takes it: every op with a vector result that one of the chain uses, every op
with a vector operand that uses one of the chain's) is converted when MLIR's WMMA path takes
each of its ops, and left as it is otherwise (as MLIR leaves it):
- `vector.transfer_read` of a 2-D tile, without a mask, in bounds, from a memref whose rows are
  contiguous at a constant stride: `subgroup_mma_load_matrix` with that stride as its
  `leadDimension`; a permutation map `(d0, d1) -> (d1, d0)` loads it `transpose`d, and
  `(d0, d1) -> (0, d1)` (every row the first) with a `leadDimension` of 0;
- `vector.transfer_write` of the same kind, with the identity map: `subgroup_mma_store_matrix`;
- `vector.contract` of the row-major matmul maps (`(m, k)`, `(k, n)`, `(m, n)`, `add`):
  `subgroup_mma_compute`;
- a splat `arith.constant` of a 2-D vector, and `vector.broadcast` of a float to one:
  `subgroup_mma_constant_matrix`;
- `arith.addf`, `subf`, `mulf`, `divf`, `maximumf`, `minimumf`, `negf`:
  `subgroup_mma_elementwise` (`addf`, …, `maxf`, `minf`, `negatef`).
A tile is an `"AOp"` where it is (through single uses of elementwise ops) a contract's left
operand, a `"BOp"` where it is its right one, a `"COp"` otherwise. The chain's vector ops go
(MLIR leaves them to a later dead-code elimination).

Where it departs from MLIR: a chain that MLIR converts but gpuir's matrix ops cannot run is an
error at its op, not left as vector ops: tiles other than gpuir's fragments (16x16 of f16 with
f16 or f32 accumulators, f64's m8n8k4), a broadcast row (gpuir's loads take a `leadDimension` of
at least a row), contracts of other maps (MLIR transposes them first), a chain through `scf.for`
(MLIR carries the matrices through the loop) or across blocks.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.dialects.gpu.mma import ELEMENTWISE_OPS, fragment_problem
from gpuir.dialects.vector_ext import ContractionOp
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream.mma_ops import (
    KINDS,
    ComputeOp,
    ConstantMatrixOp,
    ElementwiseOp,
    LoadMatrixOp,
    MmaMatrixType,
    StoreMatrixOp,
)

NAME = "convert-vector-to-gpu"
ELEMENTWISE_KINDS = {op: kind for kind, op in ELEMENTWISE_OPS.items()}
"""arith op type → the `subgroup_mma_elementwise` kind it becomes."""

_d0, _d1, _d2 = (AffineExpr.dimension(i) for i in range(3))
MATMUL_MAPS = (
    AffineMap(3, 0, (_d0, _d2)),
    AffineMap(3, 0, (_d2, _d1)),
    AffineMap(3, 0, (_d0, _d1)),
)
"""The contract maps of `(m, k) x (k, n) -> (m, n)`."""


def error(op: Operation, what: str) -> OpError:
    return OpError(op, f"{NAME}: '{op.name}' {what}")


def row_stride(type_: Attribute) -> int | None:
    """The constant stride between the rows of a memref whose last dimension is contiguous."""
    if not isinstance(type_, MemRefType) or type_.get_num_dims() < 2:
        return None
    strides = type_.get_strides()
    if strides is None or strides[-1] != 1 or strides[-2] is None:
        return None
    return strides[-2]


def tile_map(op: vector.TransferReadOp | vector.TransferWriteOp) -> str | None:
    """How a transfer's permutation map reads a tile: `identity`, `transpose`, `broadcast` (every
    row the first), or None."""
    permutation = op.permutation_map.data
    if permutation.num_symbols:
        return None
    n = permutation.num_dims
    inner, outer = AffineExpr.dimension(n - 1), AffineExpr.dimension(n - 2)
    maps = {
        "identity": (outer, inner),
        "transpose": (inner, outer),
        "broadcast": (AffineExpr.constant(0), inner),
    }
    return next((k for k, r in maps.items() if tuple(permutation.results) == r), None)


def plain_transfer(op: vector.TransferReadOp | vector.TransferWriteOp, vector_type) -> bool:
    """A transfer of a 2-D tile, unmasked, in bounds, of rows at a constant stride."""
    in_bounds = all(bool(b.value.data) for b in op.in_bounds.data)
    shaped = isinstance(vector_type, VectorType) and vector_type.get_num_dims() == 2
    return op.mask is None and in_bounds and shaped and row_stride(op.source.type) is not None


def taken(op: Operation) -> bool:
    """Whether MLIR's WMMA path converts `op` (module docstring)."""
    if isinstance(op, vector.TransferReadOp):
        return plain_transfer(op, op.result.type) and tile_map(op) is not None
    if isinstance(op, vector.TransferWriteOp):
        return plain_transfer(op, op.vector.type) and tile_map(op) == "identity"
    if isinstance(op, ContractionOp):
        iterators = [i.data for i in op.iterator_types.data]
        return iterators == ["parallel", "parallel", "reduction"]
    if isinstance(op, arith.ConstantOp):
        value = op.value
        return (
            isinstance(value, DenseIntOrFPElementsAttr)
            and isinstance(op.result.type, VectorType)
            and op.result.type.get_num_dims() == 2
            and value.is_splat()
        )
    if isinstance(op, vector.BroadcastOp):
        result = op.vector.type
        return (
            isinstance(result, VectorType)
            and result.get_num_dims() == 2
            and isinstance(op.source.type, AnyFloat)
        )
    return isinstance(op, scf.ForOp | scf.YieldOp) or type(op) in ELEMENTWISE_KINDS


def is_vector(values) -> bool:
    return any(isinstance(v.type, VectorType) for v in values)


def slice_of(contract: ContractionOp) -> list[Operation]:
    """The ops that reach `contract` or that it reaches through vectors (module docstring)."""
    found: list[Operation] = [contract]
    seen = {contract}
    for op in found:  # grows as it goes
        near = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        near = [o for o in near if is_vector(o.results)]
        near += [u.operation for r in op.results for u in r.uses if is_vector(u.operation.operands)]
        for other in near:
            if other not in seen:
                seen.add(other)
                found.append(other)
    return found


def kind_of(value: SSAValue) -> str:
    """`"AOp"`, `"BOp"` or `"COp"`: what a contract takes `value` as, through single uses of
    elementwise ops (module docstring)."""
    uses = list(value.uses)
    if len(uses) == 1 and type(uses[0].operation) in ELEMENTWISE_KINDS:
        return kind_of(uses[0].operation.results[0])
    for use in uses:
        user = use.operation
        if isinstance(user, ContractionOp) and value in (user.lhs, user.rhs):
            return "AOp" if user.lhs == value else "BOp"
    return "COp"


def matrix_of(op: Operation, value: SSAValue, kind: str) -> MmaMatrixType:
    """The `!gpu.mma_matrix` of the tile `value`; an error at `op` where gpuir has no such
    fragment."""
    type_ = value.type
    assert isinstance(type_, VectorType)
    shape = tuple(type_.get_shape())
    problem = fragment_problem(shape, type_.element_type, KINDS[kind])
    if problem is not None:
        shown = "x".join(map(str, shape))
        raise error(
            op,
            f'makes a {shown}x{type_.element_type} tile ("{kind}") that gpuir\'s matrix ops '
            f"cannot take: {problem}",
        )
    return MmaMatrixType(type_.shape, type_.element_type, StringAttr(kind))


def check_chain(chain: list[Operation]) -> None:
    """What gpuir cannot convert of a chain that MLIR converts: an error at its op."""
    for op in chain:
        if isinstance(op, scf.ForOp | scf.YieldOp):
            loop = op.parent_op() if isinstance(op, scf.YieldOp) else op
            assert loop is not None
            raise error(loop, "carries a matrix of a vector.contract's chain: not supported (yet)")
    block = chain[0].parent_block()
    for op in chain:
        if op.parent_block() is not block:
            raise error(op, "is in another block than the vector.contract it follows or feeds")
        if isinstance(op, ContractionOp):
            maps = tuple(m.data for m in op.indexing_maps.data)
            if maps != MATMUL_MAPS or op.kind.data != vector.CombiningKindFlag.ADD:
                raise error(
                    op,
                    "is not the row-major matmul (maps (m, k), (k, n) -> (m, n), kind add): "
                    "not supported (yet)",
                )
        if isinstance(op, vector.TransferReadOp) and tile_map(op) == "broadcast":
            raise error(
                op,
                "broadcasts a row (a leadDimension of 0), which gpuir's matrix loads do not "
                "take: they read rows at least a row apart",
            )


def convert(op: Operation, values: dict[SSAValue, SSAValue]) -> list[Operation]:
    """The matrix ops that replace `op` of a chain (`values`: each converted tile's matrix)."""
    if isinstance(op, vector.TransferReadOp):
        stride = row_stride(op.source.type)
        properties: dict[str, Attribute] = {"leadDimension": IntegerAttr(stride, IndexType())}
        if tile_map(op) == "transpose":
            properties["transpose"] = UnitAttr()
        result = matrix_of(op, op.result, kind_of(op.result))
        operands = [op.source, *op.indices]
        return [
            LoadMatrixOp.create(operands=operands, result_types=[result], properties=properties)
        ]
    if isinstance(op, vector.TransferWriteOp):
        stride = row_stride(op.source.type)
        properties = {"leadDimension": IntegerAttr(stride, IndexType())}
        operands = [values[op.vector], op.source, *op.indices]
        return [StoreMatrixOp.create(operands=operands, properties=properties)]
    if isinstance(op, ContractionOp):
        result = matrix_of(op, op.result, "COp")
        operands = [values[op.lhs], values[op.rhs], values[op.acc]]
        for i, (value, kind) in enumerate(zip(operands, ("AOp", "BOp", "COp"), strict=True)):
            made = value.type.operand.data  # type: ignore[attr-defined]
            if made != kind:
                raise error(
                    op,
                    f'needs a "{kind}" matrix as operand {i}, but the chain makes it a "{made}" one',
                )
        return [ComputeOp.create(operands=operands, result_types=[result])]
    if isinstance(op, arith.ConstantOp):
        assert isinstance(op.value, DenseIntOrFPElementsAttr)
        result = matrix_of(op, op.result, kind_of(op.result))  # a float's, or an error
        first = next(iter(op.value.iter_values()))
        scalar = arith.ConstantOp(FloatAttr(first, result.element_type))
        made = ConstantMatrixOp.create(operands=[scalar.result], result_types=[result])
        return [scalar, made]
    if isinstance(op, vector.BroadcastOp):
        result = matrix_of(op, op.vector, kind_of(op.vector))
        return [ConstantMatrixOp.create(operands=[op.source], result_types=[result])]
    kind = ELEMENTWISE_KINDS[type(op)]
    operands = [values[v] for v in op.operands]
    result = operands[0].type
    if any(v.type != result for v in operands):
        shown = ", ".join(str(v.type) for v in operands)
        raise error(op, f"combines tiles that the chain makes as different matrices: {shown}")
    return [
        ElementwiseOp.create(
            operands=operands, result_types=[result], properties={"kind": StringAttr(kind)}
        )
    ]


def convert_vector_to_gpu(module: ModuleOp) -> None:
    """The pass (module docstring), in place; an `OpError` at an op it cannot convert."""
    chains: list[list[Operation]] = []
    done: set[Operation] = set()
    for contract in module.walk():
        if not isinstance(contract, ContractionOp) or contract in done:
            continue
        chain = slice_of(contract)
        done.update(chain)
        if all(taken(op) for op in chain):
            check_chain(chain)
            chains.append(chain)
    for chain in chains:
        block = chain[0].parent_block()
        assert block is not None
        ordered = sorted(chain, key=block.get_operation_index)
        values: dict[SSAValue, SSAValue] = {}
        for op in ordered:
            made = convert(op, values)
            Rewriter.insert_op(made, InsertPoint.before(op))
            if op.results:
                values[op.results[0]] = made[-1].results[0]
        for op in reversed(ordered):
            Rewriter.erase_op(op)
