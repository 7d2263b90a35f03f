"""Upstream MLIR's `amdgpu` ops that gpuir reads, and their import (`AMDGPU_IMPORTS`).

Read (MLIR 22's syntax):

- `amdgpu.sched_barrier allow = <none>` (or `<valu|all_vmem|…>`), a hint to the AMDGPU
  instruction scheduler about which instructions it may move across that point. It orders no
  memory and no work-items, so the import makes nothing of it.
- The raw buffer accesses: `amdgpu.raw_buffer_load {boundsCheck = b, indexOffset = k : i32}
  %m[%i, …] (sgprOffset %o)? : memref<…>, i32, … -> T`, `amdgpu.raw_buffer_store … %v ->
  %m[…] : T -> memref<…>, i32, …`, and the atomics `raw_buffer_atomic_fadd` / `fmax` /
  `smax` / `umin` (the store's syntax) and `raw_buffer_atomic_cmpswap %src, %cmp -> %m[…]`
  (its old value). T is the memref's element type or a 1-d vector of it; the memref is of
  global memory, any rank, with one `i32` index per dimension.

  The memref is the buffer: raw, byte-addressed memory of `max_d size(d) · stride(d)`
  elements (its `num_records`), from its base plus its offset. An access starts at the element
  `Σ i_d · stride(d) + indexOffset` of it and a vector's lane k is the element after that plus
  k, whatever the memref's shape (a vector may cross a row). With `boundsCheck` (true unless
  said otherwise, as MLIR defines it) a lane at or past `num_records` (or before the buffer) is
  out of bounds: it reads 0, its store or atomic does nothing (an atomic's old value is 0).
  `sgprOffset` is added after that check, as the hardware adds `soffset`. Without
  `boundsCheck` no lane is checked: one out of the memref's memory is an out-of-bounds access
  (interp reports it). Where MLIR leaves a partly out-of-bounds vector to the chipset, gpuir
  decides per lane.

  Each lane is a `mem.load` / `mem.store` / `mem.atomic_rmw` / `mem.cmpxchg` of one element
  (under an `scf.if` where checked), as the importer makes `vector.maskedload` and
  `maskedstore`: interp, the cpu provider and NVPTX need no op of their own.

`#rocdl.target<…>` (a gpu.module's target, `RocdlTargetAttr`) is read here too, and
`rocdl_attach_target` is MLIR's `rocdl-attach-target` (gpu-run's and gpu-opt's
`--upstream-pass=rocdl-attach-target`): a kernel of a gpu.module for ROCm reports a failed
`cf.assert` in ROCm's words.

The rest of `amdgpu` (`wmma`, `mfma`, `lds_barrier`, …) and `raw_buffer_atomic_fadd` of
`vector<2xf16>` / `vector<2xbf16>` are not read: an error at the op. A memref.subview as the
buffer is not supported (yet).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    VectorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects import mem
from gpuir.dialects.mem import ArrayType
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.common import (
    Index,
    Linear,
    OpTable,
    Ref,
    add,
    delinearize,
    mul,
    unsupported,
)
from gpuir.ir.upstream.vectors import VectorImporter, gather, lane


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


INHERENT = ("boundsCheck", "indexOffset", "operandSegmentSizes")
"""The raw buffer ops' properties (in the custom syntax, `boundsCheck` and `indexOffset` are
written in the attribute dictionary)."""


class RawBufferOp(IRDLOperation):
    """What the raw buffer ops share: their syntax, their verifier and their
    operands by MLIR's segments (values, memref, indices, sgprOffset), and the fields every one
    has: one variadic operand (all of them: `segments` splits it) and the properties. A load
    and a compare-and-swap add their result."""

    args = var_operand_def()
    boundsCheck = opt_prop_def(IntegerAttr)
    indexOffset = opt_prop_def(IntegerAttr)
    operandSegmentSizes = opt_prop_def(DenseArrayBase)

    VALUES: ClassVar[int]
    """How many values come before the memref: 0 (a load), 1, or 2 (`src`, `cmp`)."""
    RESULT: ClassVar[bool]
    """Whether it gives a value (a load, a compare-and-swap)."""
    ALLOWS: ClassVar[tuple[Attribute, ...]] = ()
    """The value types it takes where it restricts them (an atomic's); () for any."""

    @classmethod
    def parse(cls, parser: Parser) -> RawBufferOp:
        attributes = parser.parse_optional_attr_dict()
        values = []
        for k in range(cls.VALUES):
            if k:
                parser.parse_punctuation(",")
            values.append(parser.parse_operand())
        if values:
            parser.parse_punctuation("->")
        memref = parser.parse_operand()
        indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_operand)
        offset = []
        if parser.parse_optional_keyword("sgprOffset") is not None:
            offset.append(parser.parse_operand())
        parser.parse_punctuation(":")
        if values:
            parser.parse_type()
            parser.parse_punctuation("->")
        parser.parse_type()
        while parser.parse_optional_punctuation(",") is not None:
            parser.parse_type()
        result_types = []
        if cls.RESULT:
            if values:
                result_types.append(values[0].type)
            else:
                parser.parse_punctuation("->")
                result_types.append(parser.parse_type())
        sizes = [1] * len(values) + [1, len(indices), len(offset)]
        properties = {k: attributes.pop(k) for k in INHERENT if k in attributes}
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
        return cls.create(
            operands=[*values, memref, *indices, *offset],
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )

    def segments(self) -> tuple[list[SSAValue], SSAValue, list[SSAValue], SSAValue | None]:
        """The values, the memref, the indices and the sgprOffset (or None)."""
        sizes = self.properties.get("operandSegmentSizes")
        if not isinstance(sizes, DenseArrayBase) or len(sizes.get_values()) != self.VALUES + 3:
            raise VerifyException(
                f"'{self.name}' expects operandSegmentSizes of {self.VALUES + 3} sizes"
            )
        counts = [int(n) for n in sizes.get_values()]
        if sum(counts) != len(self.operands) or counts[self.VALUES] != 1 or counts[-1] > 1:
            raise VerifyException(f"'{self.name}' has operandSegmentSizes {counts} that do not fit")
        values = list(self.operands[: self.VALUES])
        memref = self.operands[self.VALUES]
        indices = list(self.operands[self.VALUES + 1 : self.VALUES + 1 + counts[-2]])
        offset = self.operands[-1] if counts[-1] else None
        return values, memref, indices, offset

    def value_type(self) -> Attribute:
        """The type it reads or writes: its result's, or its first value's."""
        if self.RESULT:
            return self.results[0].type
        return self.operands[0].type

    def bounds_check(self) -> bool:
        flag = self.properties.get("boundsCheck")
        return flag is None or (isinstance(flag, IntegerAttr) and flag.value.data != 0)

    def index_offset(self) -> int:
        offset = self.properties.get("indexOffset")
        return offset.value.data if isinstance(offset, IntegerAttr) else 0

    def verify_(self) -> None:
        values, memref, indices, offset = self.segments()
        type_ = memref.type
        if not isinstance(type_, MemRefType):
            raise VerifyException(f"'{self.name}' expects a ranked memref, found {type_}")
        space = type_.memory_space
        if not (
            isinstance(space, NoneAttr)
            or (isinstance(space, IntegerAttr) and space.value.data in (0, 1))
            or (isinstance(space, gpu_ops.AddressSpaceAttr) and space.space.data == "global")
        ):
            raise VerifyException(f"'{self.name}' expects a memref of global memory, found {type_}")
        rank = type_.get_num_dims()
        if len(indices) != rank:
            raise VerifyException(
                f"'{self.name}' expects {rank} indices into {type_}, found {len(indices)}"
            )
        for value in [*indices, *([offset] if offset is not None else [])]:
            if value.type != i32:
                raise VerifyException(
                    f"'{self.name}' expects i32 indices and offset, found {value.type}"
                )
        if len(self.results) != int(self.RESULT):
            raise VerifyException(f"'{self.name}' expects {int(self.RESULT)} results")
        value = self.value_type()
        if any(v.type != value for v in values[1:]):
            raise VerifyException(
                f"'{self.name}' expects src and cmp of one type, found "
                f"{values[0].type} and {values[1].type}"
            )
        element = value.element_type if isinstance(value, VectorType) else value
        if element != type_.element_type:
            raise VerifyException(
                f"'{self.name}' expects a value of {type_}'s element type, found {value}"
            )
        if self.ALLOWS and value not in self.ALLOWS:
            allowed = " or ".join(str(a) for a in self.ALLOWS)
            raise VerifyException(f"'{self.name}' of {value} is not supported: only of {allowed}")


@irdl_op_definition
class RawBufferLoadOp(RawBufferOp):
    name = "amdgpu.raw_buffer_load"
    VALUES: ClassVar[int] = 0
    RESULT: ClassVar[bool] = True
    value = var_result_def()


@irdl_op_definition
class RawBufferStoreOp(RawBufferOp):
    name = "amdgpu.raw_buffer_store"
    VALUES: ClassVar[int] = 1
    RESULT: ClassVar[bool] = False


@irdl_op_definition
class RawBufferAtomicCmpswapOp(RawBufferOp):
    name = "amdgpu.raw_buffer_atomic_cmpswap"
    VALUES: ClassVar[int] = 2
    RESULT: ClassVar[bool] = True
    ALLOWS: ClassVar[tuple[Attribute, ...]] = (i32, i64, f32, f64)
    value = var_result_def()


class RawBufferAtomicOp(RawBufferOp):
    """The atomics of one value and no result (methods only)."""

    VALUES: ClassVar[int] = 1
    RESULT: ClassVar[bool] = False


@irdl_op_definition
class RawBufferAtomicFaddOp(RawBufferAtomicOp):
    name = "amdgpu.raw_buffer_atomic_fadd"
    ALLOWS: ClassVar[tuple[Attribute, ...]] = (f32,)  # MLIR's vector<2xf16|bf16>: not (yet)


@irdl_op_definition
class RawBufferAtomicFmaxOp(RawBufferAtomicOp):
    name = "amdgpu.raw_buffer_atomic_fmax"
    ALLOWS: ClassVar[tuple[Attribute, ...]] = (f32, f64)


@irdl_op_definition
class RawBufferAtomicSmaxOp(RawBufferAtomicOp):
    name = "amdgpu.raw_buffer_atomic_smax"
    ALLOWS: ClassVar[tuple[Attribute, ...]] = (i32,)


@irdl_op_definition
class RawBufferAtomicUminOp(RawBufferAtomicOp):
    name = "amdgpu.raw_buffer_atomic_umin"
    ALLOWS: ClassVar[tuple[Attribute, ...]] = (i32,)


RAW_BUFFER_OPS = [
    RawBufferLoadOp,
    RawBufferStoreOp,
    RawBufferAtomicCmpswapOp,
    RawBufferAtomicFaddOp,
    RawBufferAtomicFmaxOp,
    RawBufferAtomicSmaxOp,
    RawBufferAtomicUminOp,
]


@irdl_attr_definition
class RocdlTargetAttr(ParametrizedAttribute):
    """`#rocdl.target<chip = "gfx90a", …>`: a gpu.module compiled for AMD GPUs (ROCm), its
    options kept, read and written as `#nvvm.target`'s. A kernel of such a module reports a
    failed `cf.assert` as ROCm does (`kernel.py`'s `kernel_assert`)."""

    name = "rocdl.target"
    options: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return gpu_ops.NvvmTargetAttr.parse_parameters(parser)

    def print_parameters(self, printer: Printer) -> None:
        gpu_ops.NvvmTargetAttr.print_parameters(self, printer)  # type: ignore[arg-type]


def rocdl_attach_target(module: builtin.ModuleOp) -> None:
    """MLIR's `rocdl-attach-target` (its options aside: the chip changes nothing gpuir runs):
    every gpu.module that has no `#rocdl.target` gets one (after its other targets), and every
    `gpu.launch` too, which stands for the gpu.module MLIR outlines it into before attaching."""
    for op in module.walk():
        if not isinstance(op, gpu_ops.ModuleOp | gpu_ops.LaunchOp):
            continue
        found = op.attributes.get("targets")
        targets = list(found.data) if isinstance(found, ArrayAttr) else []
        if not any(isinstance(t, RocdlTargetAttr) for t in targets):
            op.attributes["targets"] = ArrayAttr([*targets, RocdlTargetAttr(DictionaryAttr({}))])


def targets_rocm(kernel: Operation) -> bool:
    """Whether a kernel (a `gpu.func`, or a `gpu.launch` outlined) is compiled for ROCm: it,
    or the gpu.module it is in, has a `#rocdl.target`."""
    holder = kernel.parent_op() if isinstance(kernel, gpu_ops.FuncOp) else kernel
    found = holder.attributes.get("targets") if holder is not None else None
    return isinstance(found, ArrayAttr) and any(isinstance(t, RocdlTargetAttr) for t in found)


UpstreamAmdgpu = Dialect("amdgpu", [SchedBarrierOp, *RAW_BUFFER_OPS], [RocdlTargetAttr])


def drop(importer: object, op: SchedBarrierOp, b: object, s: object) -> None:
    """A scheduling hint: nothing to make."""


ATOMIC_KINDS: dict[type[RawBufferOp], str] = {
    RawBufferAtomicFaddOp: "add",
    RawBufferAtomicFmaxOp: "max",
    RawBufferAtomicSmaxOp: "max",
    RawBufferAtomicUminOp: "umin",
}
"""The single-value atomics as `mem.atomic_rmw`'s kinds."""


def buffer(op: RawBufferOp, ref: Ref, b: Builder) -> tuple[Index, list[Index], Index]:
    """The buffer of `ref`: the position of its first element in the memory of `ref.ptr`
    (row-major), its strides, and its extent in elements (`num_records`)."""
    if isinstance(ref.view, Linear):
        extent: Index = 1 if not ref.dims else 0
        for size, stride in zip(ref.dims, ref.view.strides, strict=True):
            reach = mul(b, size, stride)
            if isinstance(extent, int) and extent == 0:
                extent = reach
                continue
            pair = [v if not isinstance(v, int) else constant_index(b, v) for v in (extent, reach)]
            extent = b.insert(arith.MaxUIOp(*pair)).result
        return ref.view.offset, list(ref.view.strides), extent
    if ref.view is not None:
        raise unsupported(op, "of a memref.subview is not supported (yet)")
    inner: list[int] = []
    pointee = ref.ptr.type.pointee  # type: ignore[attr-defined]
    while isinstance(pointee, ArrayType):
        inner.append(pointee.size.data)
        pointee = pointee.element_type
    strides: list[Index] = []
    for k in range(len(ref.dims)):
        stride = 1
        for size in inner[k + 1 :]:
            stride *= size
        strides.append(stride)
    extent = mul(b, ref.dims[0], strides[0]) if ref.dims else 1
    return 0, strides, extent


def constant_index(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def as_index(b: Builder, value: SSAValue) -> SSAValue:
    """An `i32` index or offset as an `index` (signed: a negative one stays before the
    buffer, where the unsigned bounds check finds it)."""
    return b.insert(arith.IndexCastOp(value, IndexType())).result


def zero(b: Builder, type_: Attribute) -> SSAValue:
    attr = FloatAttr(0.0, type_) if isinstance(type_, AnyFloat) else IntegerAttr(0, type_)
    return b.insert(arith.ConstantOp(attr)).result  # type: ignore[arg-type]


def raw_buffer(importer: VectorImporter, op: RawBufferOp, b: Builder, s: object) -> None:
    """A raw buffer access, lane by lane (module docstring)."""
    try:
        op.verify()
    except VerifyException as e:
        raise OpError(op, str(e)) from None
    upstream_values, memref, upstream_indices, upstream_offset = op.segments()
    value_type = op.value_type()
    if isinstance(value_type, VectorType) and value_type.get_num_dims() != 1:
        raise unsupported(op, f"of {value_type} is not supported: only of a scalar or a 1-d vector")
    ref = importer.memory(op, memref, s)  # type: ignore[arg-type]
    start, strides, extent = buffer(op, ref, b)
    indices = [as_index(b, v) for v in importer.mapped(op, upstream_indices, s)]  # type: ignore[arg-type]
    values = importer.mapped(op, upstream_values, s)  # type: ignore[arg-type]
    sgpr: Index = 0
    if upstream_offset is not None:
        sgpr = as_index(b, importer.mapped(op, [upstream_offset], s)[0])  # type: ignore[arg-type]
    first: Index = op.index_offset()
    for i, stride in zip(indices, strides, strict=True):
        first = add(b, first, mul(b, i, stride))
    vector = isinstance(value_type, VectorType)
    element = value_type.element_type if isinstance(value_type, VectorType) else value_type
    count = value_type.get_shape()[0] if isinstance(value_type, VectorType) else 1
    whole = Ref(ref.ptr, [], ref.space)
    lanes = []
    for k in range(count):
        at = add(b, first, k)
        at_value = at if not isinstance(at, int) else constant_index(b, at)
        extent_value = extent if not isinstance(extent, int) else constant_index(b, extent)
        bit = None
        if op.bounds_check():
            bit = b.insert(arith.CmpiOp(at_value, extent_value, "ult")).result
        where = delinearize(ref.ptr, add(b, add(b, start, at), sgpr), b)
        given = [lane(b, v, [k]) if vector else v for v in values]
        lanes.append(access(importer, op, b, s, whole, where, bit, given, element))
    if op.RESULT:
        s.values[op.results[0]] = gather(b, lanes, value_type) if vector else lanes[0]  # type: ignore[attr-defined,arg-type]


def access(
    importer: VectorImporter,
    op: RawBufferOp,
    b: Builder,
    s: object,
    whole: Ref,
    where: Sequence[Index],
    bit: SSAValue | None,
    given: list[SSAValue],
    element: Attribute,
) -> SSAValue | None:
    """One lane's access of the element at `where`, under `bit` where checked; its value
    (0 where out of bounds) for a load or a compare-and-swap."""
    at = list(where)
    if isinstance(op, RawBufferLoadOp):
        (made,) = importer.lane_access(
            b, s, whole, at, bit, mem.LoadOp, otherwise=[zero(b, element)]
        )  # type: ignore[arg-type]
        return made
    if isinstance(op, RawBufferStoreOp):
        importer.lane_access(b, s, whole, at, bit, mem.StoreOp, given)  # type: ignore[arg-type]
        return None
    if isinstance(op, RawBufferAtomicCmpswapOp):
        src, cmp = given
        swap: Callable[..., Operation] = lambda t, p: mem.CmpxchgOp(t, p, cmp, src)  # noqa: E731
        false = b.insert(arith.ConstantOp(IntegerAttr(0, 1))).result
        old, _ = importer.lane_access(
            b, s, whole, at, bit, swap, otherwise=[zero(b, element), false]
        )  # type: ignore[arg-type]
        return old
    kind = ATOMIC_KINDS[type(op)]
    rmw: Callable[..., Operation] = lambda t, p, v: mem.AtomicRmwOp(kind, t, p, v)  # noqa: E731
    importer.lane_access(b, s, whole, at, bit, rmw, given, otherwise=[zero(b, element)])  # type: ignore[arg-type]
    return None


AMDGPU_IMPORTS: OpTable = {SchedBarrierOp: drop, **{op: raw_buffer for op in RAW_BUFFER_OPS}}
"""The `amdgpu` ops a kernel imports."""
