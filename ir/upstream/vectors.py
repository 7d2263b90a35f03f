"""The importer's `vector` ops, the same on the host and in kernels (`VectorImporter`,
`VECTOR_OPS`): vectors in registers stay `vector` values; vectors in memory become element
accesses; `vector.print` becomes `printf`; `arith` and `math` on vectors run lane by lane.

- `vector.load` / `store`, `transfer_read` / `transfer_write`, `maskedload` / `maskedstore`:
  one `mem.load` / `mem.store` per element, at the memref's indices plus the element's
  position in the vector's dimensions (a transfer's `permutation_map` says which memref
  dimension each vector dimension walks; a `0` broadcasts). A transfer dimension that is not
  `in_bounds`, and a mask, guard each element with an `scf.if`: a read then gives the padding
  (the pass-through), a write does nothing.
- `broadcast`, `extract`, `insert`, `shuffle`, `fma`, `reduction`, `bitcast`,
  `shape_cast`, `from_elements`, `contract` are gpuir's ops as they are (`runtime/engine/vector.py`,
  `lowering/llvm/vector_to_llvm.py`); `splat`, `extractelement` and `insertelement` (older
  MLIR) are `broadcast`, `extract` and `insert`; `create_mask`, `constant_mask` and `step`
  are `from_elements` of their lanes.
- `ub.poison` (what MLIR 22's vectorizers pad reads with): zero.
- `arith` and `math` on vectors: the scalar op on each lane (`vector.extract`), the results
  gathered with `vector.from_elements`; a vector `arith.constant` is `from_elements` of its
  elements.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith, printf, scf, ub, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import MemType
from gpuir.dialects.vector_ext import FromElementsOp
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import vector_ops
from gpuir.ir.upstream.common import (
    HOST_ACCESS,
    OpTable,
    Ref,
    Scope,
    SharedImporter,
    constant,
    element_at,
    index,
    unsupported,
)

MAX_PRINT_VALUES = 64
"""The most values one `printf.print_format` takes (a device printf's limit)."""


def positions(shape: Sequence[int]) -> list[tuple[int, ...]]:
    """Every position in a vector of `shape`, in row-major order (its lanes)."""
    return list(itertools.product(*(range(n) for n in shape)))


def vector_type(value: SSAValue) -> VectorType:
    type_ = value.type
    assert isinstance(type_, VectorType)
    return type_


def lane(b: Builder, value: SSAValue, at: Sequence[int]) -> SSAValue:
    """The element of `value` at position `at`: the lane itself where `value` was gathered
    from its lanes (`from_elements`, row-major), else a `vector.extract` of it."""
    type_ = vector_type(value)
    if isinstance(value.owner, FromElementsOp):
        flat = 0
        for i, n in zip(at, type_.get_shape(), strict=True):
            flat = flat * n + i
        return value.owner.operands[flat]
    return b.insert(vector.ExtractOp(value, list(at), type_.element_type)).result


def gather(b: Builder, lanes: Sequence[SSAValue], type_: VectorType) -> SSAValue:
    return b.insert(FromElementsOp(list(lanes), type_)).result


class LaneAddresses:
    """The indices and addresses of one vector access's lanes, each index sum, constant and
    address prefix made once: a 16x16 tile's lanes share 30 sums and 16 row addresses, not 480
    sums and 256 pairs of `mem.lea`."""

    def __init__(self, b: Builder, ref: Ref, starts: Sequence[SSAValue]):
        self.b, self.ref, self.starts = b, ref, list(starts)
        self.offsets: dict[int, SSAValue] = {}
        self.sums: dict[tuple[int, int], SSAValue] = {}
        self.addresses: dict[tuple[SSAValue, ...], SSAValue] = {}

    def indices(self, moves: Sequence[tuple[int, int]]) -> list[SSAValue]:
        """The memref indices of a lane `moves` away from the starts (`walk`)."""
        out = list(self.starts)
        for d, p in moves:
            if not p:
                continue
            if p not in self.offsets:
                self.offsets[p] = index(self.b, p)
            if (d, p) not in self.sums:
                added = arith.AddiOp(self.starts[d], self.offsets[p])
                self.sums[(d, p)] = self.b.insert(added).result
            out[d] = self.sums[(d, p)]
        return out

    def address(self, at: Sequence[SSAValue]) -> SSAValue:
        """The address of the element at `at`, made in the access's own block (for a lane
        that no `scf.if` guards)."""
        if self.ref.view is not None:
            return element_at(self.ref, at, self.b)
        ptr = self.ref.ptr
        for depth in range(1, len(at) + 1):
            prefix = tuple(at[:depth])
            if prefix not in self.addresses:
                self.addresses[prefix] = self.b.insert(mem.LeaOp(ptr, at[depth - 1])).res
            ptr = self.addresses[prefix]
        return ptr


def is_vector_op(op: Operation) -> bool:
    return any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results))


class VectorImporter(SharedImporter):
    """The importer's `vector` ops (module docstring)."""

    def import_op(self, op: Operation, b: Builder, s: Scope) -> None:
        """`arith` and `math` on vectors lane by lane; every other op as `SharedImporter`
        (a `vector` op verified first: the reader does not verify)."""
        if op.dialect_name() == "vector":
            try:
                op.verify()
            except VerifyException as e:
                raise OpError(op, str(e)) from None
        if op.dialect_name() in ("arith", "math") and not op.regions and is_vector_op(op):
            self.lanewise(op, b, s)
        else:
            super().import_op(op, b, s)

    def lanewise(self, op: Operation, b: Builder, s: Scope) -> None:
        if isinstance(op, arith.ConstantOp):
            self.vector_constant(op, b, s)
            return
        shapes = {
            tuple(vector_type(v).get_shape()) for v in op.operands if isinstance(v.type, VectorType)
        }
        if (
            len(op.results) != 1
            or not isinstance(op.results[0].type, VectorType)
            or len(shapes) != 1
        ):
            raise unsupported(
                op, "on vectors of other shapes than its result's is not supported (yet)"
            )
        result = vector_type(op.results[0])
        operands = self.mapped(op, op.operands, s)
        lanes = []
        for at in positions(result.get_shape()):
            args = [lane(b, v, at) if isinstance(v.type, VectorType) else v for v in operands]
            scalar = type(op).create(
                operands=args,
                result_types=[result.element_type],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            lanes.append(b.insert(scalar).results[0])
        s.values[op.results[0]] = gather(b, lanes, result)

    def vector_constant(self, op: arith.ConstantOp, b: Builder, s: Scope) -> None:
        value = op.value
        result = vector_type(op.result)
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise unsupported(op, f"of {value} is not supported (yet)")
        values = list(value.get_values())
        count = prod(result.get_shape())
        if len(values) == 1:
            scalar = constant(b, values[0], result.element_type)
            made = b.insert(vector.BroadcastOp(scalar, result)).vector
        else:
            assert len(values) == count
            made = gather(b, [constant(b, v, result.element_type) for v in values], result)
        s.values[op.result] = made

    def poison(self, op: ub.PoisonOp, b: Builder, s: Scope) -> None:
        """`ub.poison` (a vectorizer's padding of a read): zero, one value it may be."""
        type_ = op.result.type
        if isinstance(type_, VectorType):
            zero = constant(b, 0, type_.element_type)
            s.values[op.result] = b.insert(vector.BroadcastOp(zero, type_)).vector
        elif isinstance(type_, IntegerType | IndexType | AnyFloat):
            s.values[op.result] = constant(b, 0, type_)
        else:
            raise unsupported(op, f"of {type_} is not supported (yet)")

    def clone_vector(self, op: Operation, b: Builder, s: Scope) -> None:
        """A `vector` op that gpuir runs as it is."""
        self.clone(op, b, s)

    def splat(self, op: vector_ops.SplatOp, b: Builder, s: Scope) -> None:
        (value,) = self.mapped(op, [op.input], s)
        s.values[op.result] = b.insert(vector.BroadcastOp(value, vector_type(op.result))).vector

    def extract_element(self, op: vector_ops.ExtractElementOp, b: Builder, s: Scope) -> None:
        source, *at = self.mapped(op, op.operands, s)
        if vector_type(source).get_num_dims() != 1 or len(at) != 1:
            raise unsupported(op, "of a 0-d vector is not supported (yet)")
        s.values[op.result] = b.insert(vector.ExtractOp(source, at, op.result.type)).result

    def insert_element(self, op: vector_ops.InsertElementOp, b: Builder, s: Scope) -> None:
        value, dest, *at = self.mapped(op, op.operands, s)
        if vector_type(dest).get_num_dims() != 1 or len(at) != 1:
            raise unsupported(op, "of a 0-d vector is not supported (yet)")
        s.values[op.result] = b.insert(vector.InsertOp(value, dest, at)).result

    def create_mask(self, op: vector.CreateMaskOp, b: Builder, s: Scope) -> None:
        """Lane (p_0, …) is `p_0 < n_0 and …` (a size below 0 is 0)."""
        sizes = self.mapped(op, op.mask_dim_sizes, s)
        result = vector_type(op.mask_vector)
        lanes = []
        for at in positions(result.get_shape()):
            bit: SSAValue | None = None
            for p, n in zip(at, sizes, strict=True):
                below = b.insert(arith.CmpiOp(index(b, p), n, "slt")).result
                bit = below if bit is None else b.insert(arith.AndIOp(bit, below)).result
            assert bit is not None
            lanes.append(bit)
        s.values[op.mask_vector] = gather(b, lanes, result)

    def constant_mask(self, op: vector_ops.ConstantMaskOp, b: Builder, s: Scope) -> None:
        sizes = op.mask_dim_sizes.get_values()
        result = vector_type(op.result)
        lanes = [
            constant(
                b, int(all(p < n for p, n in zip(at, sizes, strict=True))), result.element_type
            )
            for at in positions(result.get_shape())
        ]
        s.values[op.result] = gather(b, lanes, result)

    def step(self, op: vector_ops.StepOp, b: Builder, s: Scope) -> None:
        result = vector_type(op.result)
        if result.get_num_dims() != 1:
            raise unsupported(op, f"of {result} is not supported: only of a 1-d vector")
        lanes = [constant(b, k, result.element_type) for k in range(result.get_shape()[0])]
        s.values[op.result] = gather(b, lanes, result)

    # -- vectors in memory --

    def memory(self, op: Operation, memref: SSAValue, s: Scope) -> Ref:
        ref = self.ref(op, memref, s, view=True)
        if ref.space not in s.tokens:
            raise unsupported(op, f"of memory in address space {ref.space} here")
        if ref.space == 1 and 0 in s.tokens:
            raise OpError(op, HOST_ACCESS)
        return ref

    def walk(
        self,
        op: Operation,
        ref: Ref,
        starts: list[SSAValue],
        type_: VectorType,
        permutation: AffineMapAttr | None,
        in_bounds: Sequence[bool] | None,
    ) -> list[tuple[list[tuple[int, int]], list[int]]]:
        """Per lane of a vector of `type_` read from (written to) `ref` at `starts`: the memref
        dimensions it moves along with its offsets there, and the memref dimensions that the
        lane's own bounds check covers (those of transfer dimensions not `in_bounds`)."""
        rank = len(starts)
        vrank = type_.get_num_dims()
        if permutation is None:
            walked: list[int | None] = list(range(rank - vrank, rank))
        else:
            walked = []
            for expr in permutation.data.results:
                if isinstance(expr, AffineDimExpr):
                    walked.append(expr.position)
                elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
                    walked.append(None)  # a broadcast
                else:
                    raise unsupported(
                        op, f"with the permutation map {permutation} is not supported (yet)"
                    )
        if len(walked) != vrank or len(ref.dims) != rank:
            raise unsupported(op, f"of a {type_} from a rank-{rank} memref is not supported (yet)")
        checked = [
            d
            for j, d in enumerate(walked)
            if d is not None and not (in_bounds is None or in_bounds[j])
        ]
        out = []
        for at in positions(type_.get_shape()):
            moves = [(d, p) for d, p in zip(walked, at, strict=True) if d is not None]
            out.append((moves, checked))  # type: ignore[arg-type]
        return out

    def guard(
        self,
        b: Builder,
        ref: Ref,
        at: list[SSAValue],
        checked: list[int],
        mask_bit: SSAValue | None,
    ) -> SSAValue | None:
        """`mask_bit and at[d] < extent(d) for d in checked`, or None when nothing guards."""
        bit = mask_bit
        for d in checked:
            below = b.insert(arith.CmpiOp(at[d], ref.dims[d], "ult")).result
            bit = below if bit is None else b.insert(arith.AndIOp(bit, below)).result
        return bit

    def lane_access(
        self,
        b: Builder,
        s: Scope,
        ref: Ref,
        at: list[SSAValue],
        bit: SSAValue | None,
        access: type[mem.LoadOp | mem.StoreOp],
        stored: Sequence[SSAValue] = (),
        otherwise: Sequence[SSAValue] = (),
        lanes: LaneAddresses | None = None,
    ) -> Sequence[SSAValue]:
        """`access` (a `mem.load`, or a `mem.store` of `stored`) of `ref`'s element at `at`,
        threading its space's token; where `bit` is given, under an `scf.if` on it that gives
        `otherwise` (a read's padding) and the token unchanged when it is false. The results
        after the token (a read's value). `lanes` shares the addresses of unguarded lanes."""
        space = ref.space
        if bit is None:
            ptr = element_at(ref, at, b) if lanes is None else lanes.address(at)
            done = b.insert(access(s.tokens[space], ptr, *stored))
            s.tokens[space] = done.results[0]
            return done.results[1:]
        then, other = Block(), Block()
        tb = Builder(InsertPoint.at_end(then))
        done = tb.insert(access(s.tokens[space], element_at(ref, at, tb), *stored))
        tb.insert(scf.YieldOp(*done.results[1:], done.results[0]))
        Builder(InsertPoint.at_end(other)).insert(scf.YieldOp(*otherwise, s.tokens[space]))
        types = [*(value.type for value in otherwise), MemType(space)]
        made = b.insert(scf.IfOp(bit, types, Region(then), Region(other)))
        s.tokens[space] = made.results[-1]
        return made.results[:-1]

    def mask_bits(
        self, op: Operation, b: Builder, s: Scope, mask: SSAValue | None, type_: VectorType
    ) -> list:
        if mask is None:
            return [None] * prod(type_.get_shape())
        (made,) = self.mapped(op, [mask], s)
        if vector_type(made).get_shape() != type_.get_shape():
            raise unsupported(
                op, f"with a mask of {made.type} for a {type_} is not supported (yet)"
            )
        return [lane(b, made, at) for at in positions(type_.get_shape())]

    def transfer_read(self, op: vector.TransferReadOp, b: Builder, s: Scope) -> None:
        ref = self.memory(op, op.source, s)
        starts = self.mapped(op, op.indices, s)
        (pad,) = self.mapped(op, [op.padding], s)
        type_ = vector_type(op.result)
        in_bounds = [bool(v.value.data) for v in op.in_bounds.data]
        lanes_of = self.walk(op, ref, starts, type_, op.permutation_map, in_bounds)
        bits = self.mask_bits(op, b, s, op.mask, type_)
        addresses, lanes = LaneAddresses(b, ref, starts), []
        for (moves, checked), bit in zip(lanes_of, bits, strict=True):
            at = addresses.indices(moves)
            guard = self.guard(b, ref, at, checked, bit)
            lanes.append(
                self.lane_access(b, s, ref, at, guard, mem.LoadOp, (), [pad], addresses)[0]
            )
        s.values[op.result] = gather(b, lanes, type_)

    def transfer_write(self, op: vector.TransferWriteOp, b: Builder, s: Scope) -> None:
        ref = self.memory(op, op.source, s)
        starts = self.mapped(op, op.indices, s)
        (value,) = self.mapped(op, [op.vector], s)
        type_ = vector_type(value)
        in_bounds = [bool(v.value.data) for v in op.in_bounds.data]
        lanes_of = self.walk(op, ref, starts, type_, op.permutation_map, in_bounds)
        bits = self.mask_bits(op, b, s, op.mask, type_)
        addresses = LaneAddresses(b, ref, starts)
        for (moves, checked), bit, at_lane in zip(
            lanes_of, bits, positions(type_.get_shape()), strict=True
        ):
            at = addresses.indices(moves)
            guard = self.guard(b, ref, at, checked, bit)
            stored = [lane(b, value, at_lane)]
            self.lane_access(b, s, ref, at, guard, mem.StoreOp, stored, lanes=addresses)

    def read(self, op: vector.LoadOp | vector.MaskedLoadOp, b: Builder, s: Scope) -> None:
        """A vector load; a masked one reads the lanes where its mask is set and takes the
        others from its pass-through."""
        masked = isinstance(op, vector.MaskedLoadOp)
        ref = self.memory(op, op.base, s)
        starts = self.mapped(op, op.indices, s)
        passed = self.mapped(op, [op.pass_thru], s)[0] if masked else None
        type_ = vector_type(op.result)
        shape = positions(type_.get_shape())
        bits = self.mask_bits(op, b, s, op.mask, type_) if masked else [None] * len(shape)
        addresses, lanes = LaneAddresses(b, ref, starts), []
        walked = self.walk(op, ref, starts, type_, None, None)
        for (moves, _), bit, at in zip(walked, bits, shape, strict=True):
            pad = [] if passed is None else [lane(b, passed, at)]
            where = addresses.indices(moves)
            lanes.append(self.lane_access(b, s, ref, where, bit, mem.LoadOp, (), pad, addresses)[0])
        s.values[op.result] = gather(b, lanes, type_)

    def write(self, op: vector.StoreOp | vector.MaskedStoreOp, b: Builder, s: Scope) -> None:
        """A vector store; a masked one stores the lanes where its mask is set."""
        masked = isinstance(op, vector.MaskedStoreOp)
        ref = self.memory(op, op.base, s)
        starts = self.mapped(op, op.indices, s)
        (value,) = self.mapped(op, [op.value_to_store if masked else op.vector], s)
        type_ = vector_type(value)
        shape = positions(type_.get_shape())
        bits = self.mask_bits(op, b, s, op.mask, type_) if masked else [None] * len(shape)
        walked = self.walk(op, ref, starts, type_, None, None)
        addresses = LaneAddresses(b, ref, starts)
        for (moves, _), bit, at in zip(walked, bits, shape, strict=True):
            where = addresses.indices(moves)
            stored = [lane(b, value, at)]
            self.lane_access(b, s, ref, where, bit, mem.StoreOp, stored, lanes=addresses)

    # -- printing --

    def print(self, op: vector_ops.PrintOp, b: Builder, s: Scope) -> None:
        """What MLIR's lowering prints with the runner's printers: a scalar (a float as C's
        `%g`, an integer as `printI64`, an `i1` as 0 or 1), a vector as `( a, b )` (nested
        per dimension), then a newline or the punctuation; or a string, as it is."""
        if op.string is not None:  # the text alone, as MLIR's lowering prints it
            self.emit(b, [(op.string.data, None)])
            return
        pieces: list[tuple[str, SSAValue | None]] = []
        if op.source is not None:
            (value,) = self.mapped(op, [op.source], s)
            if isinstance(value.type, VectorType):
                self.vector_pieces(op, b, value, pieces)
            else:
                pieces.append(("", self.printable(op, b, value)))
        punctuation = op.punctuation.data if op.punctuation is not None else "newline"
        pieces.append(
            (
                {"no_punctuation": "", "newline": "\n", "comma": ", ", "open": "( ", "close": " )"}[
                    punctuation
                ],
                None,
            )
        )
        self.emit(b, pieces)

    def vector_pieces(self, op: Operation, b: Builder, value: SSAValue, pieces: list) -> None:
        shape = vector_type(value).get_shape()

        def level(prefix: tuple[int, ...]) -> None:
            pieces.append(("( ", None))
            for k in range(shape[len(prefix)]):
                if k:
                    pieces.append((", ", None))
                at = (*prefix, k)
                if len(at) == len(shape):
                    pieces.append(("", self.printable(op, b, lane(b, value, at))))
                else:
                    level(at)
            pieces.append((" )", None))

        level(())

    def printable(self, op: Operation, b: Builder, value: SSAValue) -> SSAValue:
        type_ = value.type
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            return b.insert(arith.ExtUIOp(value, i64)).result
        if not isinstance(type_, IntegerType | IndexType | Float32Type | Float64Type):
            raise unsupported(op, f"of {type_} is not supported (yet)")
        return value

    def emit(self, b: Builder, pieces: list[tuple[str, SSAValue | None]]) -> None:
        """`printf.print_format`s of the pieces (text, then a value or none), at most
        `MAX_PRINT_VALUES` values each; floats print as C's `%g`."""
        text, values = "", []

        def flush() -> None:
            nonlocal text, values
            if not text and not values:
                return
            made = b.insert(printf.PrintFormatOp(text, *values))
            specs = ["g" if isinstance(v.type, Float32Type | Float64Type) else "" for v in values]
            if any(specs):
                made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr(x) for x in specs])
            text, values = "", []

        for piece, value in pieces:
            text += piece.replace("{", "{{").replace("}", "}}")
            if value is not None:
                if len(values) == MAX_PRINT_VALUES:
                    flush()
                text += "{}"
                values.append(value)
        flush()


VECTOR_OPS: OpTable = {
    **{
        op_type: VectorImporter.clone_vector
        for op_type in (
            vector.BroadcastOp,
            vector.ExtractOp,
            vector.InsertOp,
            vector.ShuffleOp,
            vector.FMAOp,
            vector.ReductionOp,
            vector.BitcastOp,
            *vector_ops.vector_extension_ops(),
        )
    },
    vector_ops.SplatOp: VectorImporter.splat,
    vector_ops.ExtractElementOp: VectorImporter.extract_element,
    vector_ops.InsertElementOp: VectorImporter.insert_element,
    vector.CreateMaskOp: VectorImporter.create_mask,
    vector_ops.ConstantMaskOp: VectorImporter.constant_mask,
    vector_ops.StepOp: VectorImporter.step,
    vector.LoadOp: VectorImporter.read,
    vector.StoreOp: VectorImporter.write,
    vector.TransferReadOp: VectorImporter.transfer_read,
    vector.TransferWriteOp: VectorImporter.transfer_write,
    vector.MaskedLoadOp: VectorImporter.read,
    vector.MaskedStoreOp: VectorImporter.write,
    vector_ops.PrintOp: VectorImporter.print,
    ub.PoisonOp: VectorImporter.poison,
}
"""The `vector` ops host code and kernels import alike."""
