"""Upstream MLIR's `gpu` dialect, as written in MLIR's own programs: the ops a GPU program in
upstream syntax uses, with their custom syntax, so that gpuir can read such a program (the
package `gpuir.ir.upstream` turns it into gpuir's dialects).

gpuir's own `gpu` dialect has the same name, so these ops live in a context of their own
(`gpuir.ir.upstream.upstream_context()`: these, xDSL's `builtin`, `func`, `arith`, `math`, `scf`
and `cf`, and `memref` and `vector` as `memref_ops` has them), which reads upstream input only;
nothing else sees them. xDSL's own `gpu` dialect has the ops but none of their custom syntax (it
reads and prints the generic form only).

Read (MLIR 22's syntax): `gpu.module @m [targets] { … }`; `gpu.func @k(args) [workgroup(…)]
[private(…)] kernel { … }` (an argument's `{attributes}` read and dropped) and `gpu.return`;
`gpu.launch_func [async] [deps] @m::@k blocks in (x, y, z) threads in (x, y, z)
[dynamic_shared_memory_size s] [args(v : t, …)]`; `gpu.launch [async] [deps] blocks(bx, by,
bz) in (sx = x, …) threads(tx, ty, tz) in (ex = x, …) [dynamic_shared_memory_size s] { …
gpu.terminator }`; `gpu.thread_id x` and `block_id`,
`block_dim`, `grid_dim`, `global_id` (`x`, `y`, `z`), `gpu.lane_id`; `gpu.barrier`;
`gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`, `gpu.memset` and `gpu.wait` with `async` and `[deps]`;
`gpu.host_register`; `gpu.dynamic_shared_memory`; `gpu.printf "fmt" [, v : t …]`;
`gpu.all_reduce [kind] %x [uniform] {…} : (T) -> T` (and `gpu.yield`); `gpu.shuffle mode %v, %offset, %width : T`. The ops print in the
generic form. Memory spaces: `#gpu.address_space<global | workgroup | private>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator

from gpuir.ir.upstream.mma_ops import UPSTREAM_MMA_OPS, MmaMatrixType

DIMENSIONS = ("x", "y", "z")


SHUFFLE_MODES = ("xor", "up", "down", "idx")
REDUCE_KINDS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and")
REDUCE_KINDS += ("or", "xor", "minimumf", "maximumf")
"""`gpu.shuffle`'s modes and the reductions' kinds, as MLIR 22 spells them."""


ADDRESS_SPACES = {"global": 1, "workgroup": 3, "private": 5}
"""`#gpu.address_space<…>`'s names, as gpuir's address spaces."""


@irdl_attr_definition
class AddressSpaceAttr(ParametrizedAttribute):
    """`#gpu.address_space<global | workgroup | private>`: a memref's memory space."""

    name = "gpu.address_space"
    space: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (StringAttr(parse_one_of(parser, cls.name, tuple(ADDRESS_SPACES))),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.space.data}>")


PROCESSORS = (
    *(f"{kind}_{d}" for kind in ("block", "thread") for d in ("x", "y", "z")),
    "sequential",
)


@irdl_attr_definition
class LoopDimMapAttr(ParametrizedAttribute):
    """`#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>`: the
    GPU mapping `--gpu-map-parallel-loops` puts on an `scf.parallel`, which stays on a loop
    that `--convert-parallel-loops-to-gpu` could not convert (read; the import runs the loop
    without it)."""

    name = "gpu.loop_dim_map"
    processor: StringAttr
    map: AffineMapAttr
    bound: AffineMapAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("processor")
            parser.parse_punctuation("=")
            processor = StringAttr(parse_one_of(parser, cls.name, PROCESSORS))
            parser.parse_punctuation(",")
            parser.parse_keyword("map")
            parser.parse_punctuation("=")
            map_ = AffineMapAttr(parser.parse_affine_map())
            parser.parse_punctuation(",")
            parser.parse_keyword("bound")
            parser.parse_punctuation("=")
            return (processor, map_, AffineMapAttr(parser.parse_affine_map()))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<processor = {self.processor.data}, map = {self.map.data}, bound = {self.bound.data}>"
        )


@irdl_attr_definition
class NvvmTargetAttr(ParametrizedAttribute):
    """`#nvvm.target<chip = "sm_80", …>`: a gpu.module's target, kept as its options (what
    `gpu-opt -t mlir-upstream` writes; the import needs none of them)."""

    name = "nvvm.target"
    options: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        options: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:
            while parser.parse_optional_punctuation(">") is None:
                if options:
                    parser.parse_punctuation(",")
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                options[key] = parser.parse_attribute()
        return (DictionaryAttr(options),)

    def print_parameters(self, printer: Printer) -> None:
        items = self.options.data.items()
        if items:
            printer.print_string("<")
            printer.print_list(items, lambda kv: printer.print_string(f"{kv[0]} = {kv[1]}"))
            printer.print_string(">")


def parse_one_of(parser: AttrParser, name: str, choices: Sequence[str]) -> str:
    """An identifier that is one of `choices`; any other is a parse error at it, saying what
    `name` (the op or attribute) expects."""
    at = parser.pos
    found = parser.parse_identifier()
    if found not in choices:
        expected = f"{', '.join(choices[:-1])} or {choices[-1]}"
        parser.raise_error(f"'{name}' expects {expected}, found {found}", at, parser.pos)
    return found


def parse_operands(parser: Parser, count: int) -> list[SSAValue]:
    """`%a, %b, …`: exactly `count` operands."""
    operands: list[SSAValue] = []
    for i in range(count):
        if i:
            parser.parse_punctuation(",")
        operands.append(parser.parse_operand())
    return operands


def parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`[async] [[%dep, …]]`: whether the op is async, and its dependencies."""
    is_async = parser.parse_optional_keyword("async") is not None
    deps: list[SSAValue] = []
    if parser.parse_optional_punctuation("[") is not None:
        if parser.parse_optional_punctuation("]") is None:
            deps = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_operand)
            parser.parse_punctuation("]")
    return is_async, deps


def typed_operands(parser: Parser, first: SSAValue) -> list[SSAValue]:
    """`first`, then `, %v …` and `: t, …` (the types, which the operands already have)."""
    values = [first]
    while parser.parse_optional_punctuation(",") is not None:
        values.append(parser.parse_operand())
    parser.parse_punctuation(":")
    parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    return values


def token_types(is_async: bool) -> list[Attribute]:
    return [AsyncTokenType()] if is_async else []


class AsyncOp(IRDLOperation):
    """An op with async dependencies (its first `n_deps` operands) and, when `async`, a token
    as its last result. Its operands are all `values`; its results, properties and regions
    are the subclass's."""

    values = var_operand_def()
    n_deps = prop_def(IntAttr)

    @property
    def deps(self) -> Sequence[SSAValue]:
        return self.values[: self.n_deps.data]

    @property
    def rest(self) -> Sequence[SSAValue]:
        return self.values[self.n_deps.data :]


@irdl_op_definition
class ModuleOp(IRDLOperation):
    name = "gpu.module"
    sym_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        name = parser.parse_symbol_name()
        targets = None
        if parser.parse_optional_punctuation("[") is not None:  # kept as the `targets` attribute
            found = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_attribute)
            parser.parse_punctuation("]")
            targets = ArrayAttr(found)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.create(properties={"sym_name": name}, regions=[parser.parse_region()])
        if attributes is not None:
            op.attributes.update(attributes.data)
        if targets is not None:
            op.attributes["targets"] = targets
        return op


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A `gpu.func`: its entry block's arguments are its parameters, then its workgroup and
    private attributions (`n_workgroup`, `n_private` of them)."""

    name = "gpu.func"
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    kernel = opt_prop_def(UnitAttr)
    n_workgroup = prop_def(IntAttr)
    n_private = prop_def(IntAttr)
    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name = parser.parse_symbol_name()
        params = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parse_argument_with_attrs(parser)
        )
        outputs: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    outputs = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type
                    )
                    parser.parse_punctuation(")")
            else:
                outputs = [parser.parse_type()]
        groups = {"workgroup": [], "private": []}
        while (keyword := parser.parse_optional_keyword("workgroup")) or (
            keyword := parser.parse_optional_keyword("private")
        ):
            groups[keyword] = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parse_argument_with_attrs(parser)
            )
        kernel = parser.parse_optional_keyword("kernel") is not None
        attributes = parser.parse_optional_attr_dict_with_keyword()
        args = [*params, *groups["workgroup"], *groups["private"]]
        region = parser.parse_region(args)  # type: ignore[arg-type]
        properties: dict[str, Attribute] = {
            "sym_name": name,
            "function_type": FunctionType.from_lists([a.type for a in params], outputs),  # type: ignore[union-attr]
            "n_workgroup": IntAttr(len(groups["workgroup"])),
            "n_private": IntAttr(len(groups["private"])),
        }
        if kernel:
            properties["kernel"] = UnitAttr()
        op = cls.create(properties=properties, regions=[region])
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op


def parse_argument_with_attrs(parser: Parser) -> Parser.Argument:
    """`%a : T {attrs}`: a parameter or attribution of a `gpu.func`, whose attributes (what
    `--test-gpu-memory-promotion` reads, `{gpu.test_promote_workgroup}`; `{llvm.noalias}`) are
    read and dropped: no import reads them."""
    argument = parser.parse_argument()
    parser.parse_optional_attr_dict()
    return argument


class TypedTerminatorOp(IRDLOperation):
    """A terminator `op %v, … : T, …` (none at all where `MAY_BE_EMPTY`)."""

    MAY_BE_EMPTY: ClassVar[bool] = False
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> TypedTerminatorOp:
        first = parser.parse_optional_operand() if cls.MAY_BE_EMPTY else parser.parse_operand()
        return cls.create(operands=[] if first is None else typed_operands(parser, first))


@irdl_op_definition
class ReturnOp(TypedTerminatorOp):
    name = "gpu.return"
    MAY_BE_EMPTY: ClassVar[bool] = True
    args = var_operand_def()


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    name = "gpu.terminator"
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> TerminatorOp:
        return cls.create()


@irdl_op_definition
class LaunchFuncOp(AsyncOp):
    """`rest`: the grid's 3 sizes, the block's 3, the dynamic shared memory size when
    `smem`, the cluster's 3 sizes when `clusters`, then the kernel's arguments."""

    name = "gpu.launch_func"
    token = var_result_def(AsyncTokenType)
    kernel = prop_def(SymbolRefAttr)
    smem = prop_def(IntAttr)
    clusters = prop_def(IntAttr)

    @classmethod
    def parse(cls, parser: Parser) -> LaunchFuncOp:
        is_async, deps = parse_async(parser)
        kernel = parser.parse_attribute()
        clusters: list[SSAValue] = []
        if parser.parse_optional_keyword("clusters") is not None:
            parser.parse_keyword("in")
            clusters_at = parser.pos
            clusters = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_operand
            )
            if len(clusters) != 3:
                parser.raise_error(
                    f"'{cls.name}' expects 3 cluster sizes, found {len(clusters)}",
                    clusters_at,
                    parser.pos,
                )
        sizes_at = parser.pos
        parser.parse_keyword("blocks")
        parser.parse_keyword("in")
        grid = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_operand)
        parser.parse_keyword("threads")
        parser.parse_keyword("in")
        block = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_operand)
        smem = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            smem = [parser.parse_operand()]
        args: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:

            def argument() -> SSAValue:
                value = parser.parse_operand()
                parser.parse_punctuation(":")
                parser.parse_type()
                return value

            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
        if len(grid) != 3 or len(block) != 3:
            parser.raise_error(
                f"'{cls.name}' expects 3 grid and 3 block sizes, found {len(grid)} and "
                f"{len(block)}",
                sizes_at,
                parser.pos,
            )
        return cls.create(
            operands=[*deps, *grid, *block, *smem, *clusters, *args],
            result_types=token_types(is_async),
            properties={
                "kernel": kernel,
                "n_deps": IntAttr(len(deps)),
                "smem": IntAttr(len(smem)),
                "clusters": IntAttr(len(clusters)),
            },
        )


@irdl_op_definition
class LaunchOp(AsyncOp):
    """`rest`: the grid's 3 sizes, the block's 3, the dynamic shared memory size when `smem`,
    the cluster's 3 sizes when `clusters`. The body's 12 arguments: block ids, thread ids, grid
    sizes, block sizes (x, y, z each); then cluster ids and cluster sizes with `clusters`."""

    name = "gpu.launch"
    token = var_result_def(AsyncTokenType)
    smem = prop_def(IntAttr)
    clusters = prop_def(IntAttr)
    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        is_async, deps = parse_async(parser)

        def ids_and_sizes(
            keyword: str, optional: bool = False
        ) -> tuple[list[Parser.Argument], list[Parser.Argument], list[SSAValue]]:
            """`keyword(ids) in (%size = value, …)`; none at all where `optional` and the
            keyword is missing."""
            if optional and parser.parse_optional_keyword(keyword) is None:
                return [], [], []
            if not optional:
                parser.parse_keyword(keyword)
            ids = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
            )
            parser.parse_keyword("in")
            sizes: list[Parser.Argument] = []
            values: list[SSAValue] = []

            def size() -> None:
                sizes.append(parser.parse_argument(expect_type=False))  # type: ignore[arg-type]
                parser.parse_punctuation("=")
                values.append(parser.parse_operand())

            parser.parse_comma_separated_list(parser.Delimiter.PAREN, size)
            return ids, sizes, values  # type: ignore[return-value]

        cluster_ids, cluster_args, clusters = ids_and_sizes("clusters", optional=True)
        block_ids, grid_args, grid = ids_and_sizes("blocks")
        thread_ids, block_args, block = ids_and_sizes("threads")
        smem = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            smem = [parser.parse_operand()]
        index = IndexType()
        named = (*block_ids, *thread_ids, *grid_args, *block_args, *cluster_ids, *cluster_args)
        args = [a.resolve(index) for a in named]  # type: ignore[union-attr]
        region = parser.parse_region(args)
        # MLIR prints the discardable attributes after the region (`{SCFToGPU_visited}`)
        attributes = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[*deps, *grid, *block, *smem, *clusters],
            result_types=token_types(is_async),
            properties={
                "n_deps": IntAttr(len(deps)),
                "smem": IntAttr(len(smem)),
                "clusters": IntAttr(len(clusters)),
            },
            attributes=attributes,
            regions=[region],
        )


class IdOp(IRDLOperation):
    """`gpu.<id> x|y|z`: an `index`."""

    @classmethod
    def parse(cls, parser: Parser) -> IdOp:
        dimension = parse_one_of(parser, cls.name, DIMENSIONS)
        if parser.parse_optional_keyword("upper_bound") is not None:
            parser.parse_attribute()
        return cls.create(
            result_types=[IndexType()], properties={"dimension": StringAttr(dimension)}
        )


def _id_op(op_name: str) -> type[IdOp]:
    @irdl_op_definition
    class Id(IdOp):
        name = op_name
        dimension = prop_def(StringAttr)
        result = var_result_def(IndexType)

    Id.__name__ = op_name.removeprefix("gpu.").title().replace("_", "") + "Op"
    return Id


ThreadIdOp = _id_op("gpu.thread_id")
BlockIdOp = _id_op("gpu.block_id")
BlockDimOp = _id_op("gpu.block_dim")
GridDimOp = _id_op("gpu.grid_dim")
ClusterIdOp = _id_op("gpu.cluster_id")
ClusterDimOp = _id_op("gpu.cluster_dim")
ClusterBlockIdOp = _id_op("gpu.cluster_block_id")
ClusterDimBlocksOp = _id_op("gpu.cluster_dim_blocks")
GlobalIdOp = _id_op("gpu.global_id")


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """`gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`: the bytes of
    the launch's dynamic shared memory (`dynamic_shared_memory_size`)."""

    name = "gpu.dynamic_shared_memory"
    result = result_def(MemRefType)

    @classmethod
    def parse(cls, parser: Parser) -> DynamicSharedMemoryOp:
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        type_ = parser.parse_type()
        expected = MemRefType(
            IntegerType(8), [DYNAMIC_INDEX], NoneAttr(), AddressSpaceAttr(StringAttr("workgroup"))
        )
        if type_ != expected:
            parser.raise_error(f"'{cls.name}' expects {expected}, found {type_}", at, parser.pos)
        return cls.create(result_types=[type_], attributes=attributes)


@irdl_op_definition
class LaneIdOp(IRDLOperation):
    name = "gpu.lane_id"
    result = var_result_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser) -> LaneIdOp:
        if parser.parse_optional_keyword("upper_bound") is not None:
            parser.parse_attribute()
        return cls.create(result_types=[IndexType()])


@irdl_op_definition
class BarrierOp(IRDLOperation):
    name = "gpu.barrier"

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        return cls.create()


@irdl_op_definition
class AllocOp(AsyncOp):
    """`rest`: the memref's dynamic sizes."""

    name = "gpu.alloc"
    results_ = var_result_def()
    host_shared = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> AllocOp:
        is_async, deps = parse_async(parser)
        shared = parser.parse_optional_keyword("host_shared") is not None
        sizes = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_operand)
        at = parser.pos
        if parser.parse_optional_punctuation("[") is not None:
            parser.raise_error(
                f"'{cls.name}' with symbol operands is not supported", at, parser.pos
            )
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        properties: dict[str, Attribute] = {"n_deps": IntAttr(len(deps))}
        if shared:
            properties["host_shared"] = UnitAttr()
        return cls.create(
            operands=[*deps, *sizes],
            result_types=[type_, *token_types(is_async)],
            properties=properties,
        )


def _memory_op(op_name: str, count: int) -> type[AsyncOp]:
    """`gpu.<op> [async] [deps] %a[, %b] : t[, u]` with `count` operands after the deps (and
    with none, `gpu.wait [async] [deps]`)."""

    @irdl_op_definition
    class Memory(AsyncOp):
        name = op_name
        token = var_result_def(AsyncTokenType)

        @classmethod
        def parse(cls, parser: Parser) -> Memory:
            is_async, deps = parse_async(parser)
            operands = parse_operands(parser, count)
            if count:
                parser.parse_punctuation(":")
                parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            return cls.create(
                operands=[*deps, *operands],
                result_types=token_types(is_async),
                properties={"n_deps": IntAttr(len(deps))},
            )

    Memory.__name__ = op_name.removeprefix("gpu.").title() + "Op"
    return Memory


DeallocOp = _memory_op("gpu.dealloc", 1)
MemcpyOp = _memory_op("gpu.memcpy", 2)
MemsetOp = _memory_op("gpu.memset", 2)
WaitOp = _memory_op("gpu.wait", 0)


@irdl_op_definition
class HostRegisterOp(IRDLOperation):
    name = "gpu.host_register"
    value = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> HostRegisterOp:
        value = parser.parse_operand()
        parser.parse_punctuation(":")
        parser.parse_type()
        return cls.create(operands=[value])


@irdl_op_definition
class PrintfOp(IRDLOperation):
    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> PrintfOp:
        text = parser.parse_str_literal()
        values: list[SSAValue] = []
        if parser.parse_optional_punctuation(",") is not None:
            values = typed_operands(parser, parser.parse_operand())
        return cls.create(operands=values, properties={"format": StringAttr(text)})


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """`gpu.all_reduce [kind] %x [uniform] {region} : (T) -> T`: `kind` is empty for the
    region form."""

    name = "gpu.all_reduce"
    kind = prop_def(StringAttr)
    value = var_operand_def()
    result = var_result_def()
    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> AllReduceOp:
        kind = parser.parse_optional_identifier() or ""
        value = parser.parse_operand()
        parser.parse_optional_keyword("uniform")
        region = parser.parse_optional_region() or Region()
        parser.parse_punctuation(":")
        type_ = parser.parse_function_type()
        return cls.create(
            operands=[value],
            result_types=list(type_.outputs.data),
            properties={"kind": StringAttr(kind)},
            regions=[region],
        )


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`gpu.shuffle mode %value, %offset, %width : T`: the value and whether it is valid."""

    name = "gpu.shuffle"
    mode = prop_def(StringAttr)
    values = var_operand_def()
    results_ = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        mode = parse_one_of(parser, cls.name, SHUFFLE_MODES)
        operands = parse_operands(parser, 3)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        return cls.create(
            operands=operands,
            result_types=[type_, IntegerType(1)],
            properties={"mode": StringAttr(mode)},
        )


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """`gpu.subgroup_reduce kind %x [uniform] [cluster(size = n[, stride = s])] : (T) -> T`:
    the value combined over the lanes of the work-item's subgroup (or cluster of it)."""

    name = "gpu.subgroup_reduce"
    kind = prop_def(StringAttr)
    value = operand_def()
    result = result_def()
    cluster_size = opt_prop_def(IntegerAttr)
    cluster_stride = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> SubgroupReduceOp:
        kind = parse_one_of(parser, cls.name, REDUCE_KINDS)
        value = parser.parse_operand()
        properties: dict[str, Attribute] = {"kind": StringAttr(kind)}
        parser.parse_optional_keyword("uniform")
        if parser.parse_optional_keyword("cluster") is not None:
            parser.parse_punctuation("(")
            while True:
                key = parse_one_of(parser, cls.name, ("size", "stride"))
                parser.parse_punctuation("=")
                properties[f"cluster_{key}"] = IntegerAttr(parser.parse_integer(), 32)
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(")")
        parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("(") is not None:  # `(T) -> (T)` as well
            result = parser.parse_type()
            parser.parse_punctuation(")")
        else:
            result = parser.parse_type()
        return cls.create(operands=[value], result_types=[result], properties=properties)


@irdl_op_definition
class YieldOp(TypedTerminatorOp):
    name = "gpu.yield"
    values = var_operand_def()


def id_dimension(op: Operation) -> int:
    """The dimension (0, 1, 2) of an id op."""
    return DIMENSIONS.index(op.properties["dimension"].data)  # type: ignore[attr-defined]


UpstreamGpu = Dialect(
    "gpu",
    [
        ModuleOp,
        FuncOp,
        ReturnOp,
        TerminatorOp,
        LaunchFuncOp,
        LaunchOp,
        ThreadIdOp,
        BlockIdOp,
        BlockDimOp,
        GridDimOp,
        ClusterIdOp,
        ClusterDimOp,
        ClusterBlockIdOp,
        ClusterDimBlocksOp,
        GlobalIdOp,
        LaneIdOp,
        DynamicSharedMemoryOp,
        BarrierOp,
        AllocOp,
        DeallocOp,
        MemcpyOp,
        MemsetOp,
        WaitOp,
        HostRegisterOp,
        PrintfOp,
        AllReduceOp,
        ShuffleOp,
        SubgroupReduceOp,
        YieldOp,
        *UPSTREAM_MMA_OPS,
    ],
    # a gpu.module's #nvvm.target too, and the matrix ops' type
    [AsyncTokenType, AddressSpaceAttr, LoopDimMapAttr, NvvmTargetAttr, MmaMatrixType],
)
