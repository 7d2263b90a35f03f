"""Kernels and `gpu.launch`: the kernel ABI's parameter list (`docs/kernel-abi.md`), the
kernel lookup, struct arguments, and the launch op."""

from __future__ import annotations

from collections.abc import Sequence
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TypeAttribute,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.gpu.common import (
    KERNEL_TOKENS,
    M0,
    M1,
    M4,
    STREAM,
    WORKGROUP_FUNCTION_ATTR,
    WORKGROUP_PREFIX,
    parse_operands_of,
)
from gpuir.dialects.mem import (
    GLOBAL,
    SHARED,
    PtrType,
    static_extent_ok,
)

# --- kernels --------------------------------------------------------------------------------


_SYMBOLS: WeakKeyDictionary[Block, dict[str, Operation]] = WeakKeyDictionary()


def _symbol_in(table: Operation, name: str) -> Operation | None:
    """The op named `name` directly in the symbol table `table`.

    Each table's symbols are cached per block, so verifying many launches stays linear. A cached
    op is used only while it still sits in that block under that name; otherwise the table is
    read again."""
    if not table.regions or not table.regions[0].blocks:
        return None
    block = table.regions[0].block
    cached = _SYMBOLS.get(block, {}).get(name)
    if cached is not None and cached.parent is block and _symbol_name(cached) == name:
        return cached
    symbols = {sym: o for o in block.ops if (sym := _symbol_name(o)) is not None}
    _SYMBOLS[block] = symbols
    return symbols.get(name)


def _symbol_name(op: Operation) -> str | None:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


def lookup_kernel(op: IRDLOperation, kernel: SymbolRefAttr) -> Operation | None:
    """Resolve `kernel` in the symbol tables around `op`: a plain `@k` from the closest one
    outwards, a nested `@device::@k` from the outermost one inwards (as MLIR resolves the
    `@module::@kernel` of `gpu.launch_func`, and so that a launch in `@host` finds it)."""
    tables: list[Operation] = []
    anchor = op.parent_op()
    while anchor is not None:
        if anchor.has_trait(SymbolTable):
            tables.append(anchor)
        anchor = anchor.parent_op()
    if kernel.nested_references.data:
        tables.reverse()
    path = [kernel.root_reference.data, *(r.data for r in kernel.nested_references.data)]
    for table in tables:
        found: Operation | None = table
        for name in path:
            found = _symbol_in(found, name) if found is not None else None
        if found is not None:
            return found
    return None


def struct_fields(type_: Attribute) -> tuple[Attribute, ...] | None:
    """The field types of an llvm struct type (`!llvm.struct<(i32, f32)>`), None for any other
    type (by name: the llvm dialect need not be loaded for a program without structs)."""
    if type_.name != "llvm.struct":
        return None
    return tuple(type_.types.data)  # type: ignore[attr-defined]


def field_without_gpu_representation(type_: Attribute) -> tuple[str, Attribute] | None:
    """For a struct kernel argument, its first field (as `"1"`, or `"0.2"` inside a nested
    struct) that has no GPU representation, with its type; None when every field has one.

    A field has one when it is an integer (up to 64 bits), `index`, `f16`/`f32`/`f64`, a
    pointer into global memory (`!mem.ptr<T, 1>`) or an unnamed nested struct of such
    fields; a host pointer, a token, a buffer, an array, an empty struct have none."""
    for i, field in enumerate(struct_fields(type_) or ()):
        inner = struct_fields(field)
        if inner is not None and inner and not field.struct_name.data:  # type: ignore[attr-defined]
            found = field_without_gpu_representation(field)
            if found is not None:
                return f"{i}.{found[0]}", found[1]
            continue
        scalar = isinstance(field, Float16Type | Float32Type | Float64Type | IndexType) or (
            isinstance(field, IntegerType) and field.width.data <= 64
        )
        if not scalar and not (isinstance(field, PtrType) and field.space.data == GLOBAL):
            return str(i), field
    return None


def check_struct_argument(type_: Attribute, where: str) -> None:
    """A `VerifyException` when `type_` is a struct that cannot be a kernel argument: an empty
    or named one, or one with a field that has no GPU representation. `where`:
    `argument 2 of gpu.launch @k`."""
    fields = struct_fields(type_)
    if fields is None:
        return
    if not fields or type_.struct_name.data:  # type: ignore[attr-defined]
        raise VerifyException(
            f"{where} has type {type_}: a kernel argument may be a literal struct of one or "
            "more fields, not an empty or named one"
        )
    if (found := field_without_gpu_representation(type_)) is not None:
        raise VerifyException(
            f"field {found[0]} of {where} has type {found[1]}, which has no GPU representation"
        )


DEVICE_ATTR = "gpu.device"
"""The unit attribute of a device module (`split-apply`'s `@device`, or a module that is one):
the one definition, which every layer imports."""
KERNEL_ATTR = "gpu.kernel"
"""The unit attribute of a kernel function (`func.func` before, `llvm.func` after lowering) that
no `gpu.launch` names: the one definition, which every layer imports."""
KERNEL_FIXED = 6
"""A kernel's parameters before the rest: the four tokens, the work-group id, the work-item id;
then its dynamic shared-memory pointer, if it takes one (`smem_param`), then its arguments."""


KNOWN_SIZES_ATTR = "gpu.known_sizes"
"""The dictionary on a `gpu.launch` of a kernel imported with MLIR's `known_grid_size` /
`known_block_size` (`{grid = array<i64: x, y, z>, block = array<i64: x, y, z>}`, either or
both): the launch's first six arguments are the grid's and the block's sizes (x, y, z), and
must be these (`gpuir.runtime.provider.check_launch`; `docs/ir-extensions.md`)."""


def smem_param(inputs: Sequence[Attribute]) -> PtrType | None:
    """A kernel's dynamic shared-memory pointer: its parameter right after the ids, when that is
    a pointer into shared memory (`!mem.ptr<T, 3>`); None when it takes none. `inputs` are the
    kernel's parameter types. The one place that says so: every layer asks here."""
    if len(inputs) > KERNEL_FIXED:
        found = inputs[KERNEL_FIXED]
        if isinstance(found, PtrType) and found.space.data == SHARED:
            return found
    return None


def kernel_arguments(inputs: Sequence[Attribute]) -> tuple[Attribute, ...]:
    """A kernel's argument types: its parameters after the ids and the shared pointer."""
    return tuple(inputs[KERNEL_FIXED + (smem_param(inputs) is not None) :])


def kernel_prefix(smem: Attribute | None) -> tuple[Attribute, ...]:
    """The parameter types every kernel starts with (and its shared pointer, if any)."""
    fixed = (*KERNEL_TOKENS, IndexType(), IndexType())
    return fixed if smem is None else (*fixed, PtrType(smem, SHARED))


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Launch a 1-D grid of `n_groups` work-groups of `n_items` work-items each.

    `%m0, %m1, %m4 = gpu.launch @k grid(%g, %n) stream(%s) smem(!mem.array<? x f32>, %e)
       mems(%m0, %m1, %m4) args(%a, %b) : (!mem.ptr<f32, 1>, i32)`
    """

    name = "gpu.launch"
    n_groups = operand_def(IndexType)
    n_items = operand_def(IndexType)
    stream = operand_def(STREAM)
    smem_extent = opt_operand_def(IndexType)
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    m4 = operand_def(M4)
    args = var_operand_def()
    kernel = prop_def(SymbolRefAttr)
    smem = opt_prop_def(TypeAttribute)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res_m4 = result_def(M4)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: str | SymbolRefAttr,
        n_groups: SSAValue,
        n_items: SSAValue,
        stream: SSAValue,
        mems: Sequence[SSAValue],
        args: Sequence[SSAValue] = (),
        smem: Attribute | None = None,
        smem_extent: SSAValue | None = None,
    ):
        kernel = SymbolRefAttr(kernel) if isinstance(kernel, str) else kernel
        super().__init__(
            operands=[n_groups, n_items, stream, [smem_extent] if smem_extent else [], *mems, args],
            properties={"kernel": kernel} | ({"smem": smem} if smem is not None else {}),
            result_types=[M0, M1, M4],
        )

    def verify_(self) -> None:
        if self.smem is not None:
            static_extent_ok(self.smem, self.smem_extent, self)
        elif self.smem_extent is not None:
            raise VerifyException(f"'{self.name}' has a smem_extent operand but no smem type")
        if (kernel := lookup_kernel(self, self.kernel)) is None:
            raise VerifyException(
                f"'{self.name}' names the kernel {self.kernel}, which does not exist"
            )
        if kernel.name == "llvm.func":  # lowered by device-to-llvm: params = the launch's args
            self._verify_lowered_signature(kernel)
            return
        if not isinstance(kernel, FuncOp):
            raise VerifyException(
                f"'{self.name}' expects {self.kernel} to be a func.func, found {kernel.name}"
            )
        if WORKGROUP_FUNCTION_ATTR in kernel.attributes:  # cpu-workgroup-loops made it
            self._verify_workgroup_signature(kernel)
            return
        self._verify_signature(kernel)

    def _verify_workgroup_signature(self, kernel: FuncOp) -> None:
        """A kernel that `cpu-workgroup-loops` made a work-group function takes (tokens, group,
        n_items, shared, smem) and then the launch's arguments."""
        expected = kernel.function_type.inputs.data[WORKGROUP_PREFIX:]
        found = tuple(self.args.types)
        if expected != found:
            raise VerifyException(
                f"'{self.name}' of {self.kernel}: the work-group function takes arguments "
                f"({', '.join(map(str, expected))}), the launch passes "
                f"({', '.join(map(str, found))})"
            )

    def _verify_lowered_signature(self, kernel: Operation) -> None:
        inputs = kernel.properties["function_type"].inputs.data  # pyright: ignore
        if len(inputs) != len(self.args):
            raise VerifyException(
                f"'{self.name}' of {self.kernel}: the lowered kernel takes {len(inputs)} "
                f"parameters, the launch passes {len(self.args)} arguments"
            )

    def _verify_signature(self, kernel: FuncOp) -> None:
        inputs = kernel.function_type.inputs.data
        outputs = kernel.function_type.outputs.data
        where = f"'{self.name}' of {self.kernel}"
        if outputs != KERNEL_TOKENS:
            raise VerifyException(
                f"{where}: a kernel must return ({', '.join(map(str, KERNEL_TOKENS))}), "
                f"found ({', '.join(map(str, outputs))})"
            )
        prefix = kernel_prefix(self.smem)
        if inputs[: len(prefix) - (self.smem is not None)] != prefix[:6]:
            raise VerifyException(
                f"{where}: a kernel must start with the parameters "
                f"({', '.join(map(str, prefix[:6]))}), found ({', '.join(map(str, inputs[:6]))})"
            )
        takes_smem = smem_param(inputs) is not None
        if self.smem is None and takes_smem:
            raise VerifyException(
                f"{where}: the kernel takes the shared-memory pointer {inputs[6]}, "
                "but the launch has no smem type"
            )
        if self.smem is not None and (not takes_smem or inputs[6] != prefix[6]):
            found = inputs[6] if len(inputs) > 6 else "none"
            raise VerifyException(
                f"{where}: the launch's smem type expects the kernel parameter {prefix[6]}, "
                f"found {found}"
            )
        expected_args = inputs[len(prefix) :]
        found_args = tuple(self.args.types)
        for i, type_ in enumerate(found_args):
            check_struct_argument(type_, f"argument {i} of {self.name} {self.kernel}")
        if expected_args != found_args:
            raise VerifyException(
                f"{where}: the kernel takes arguments ({', '.join(map(str, expected_args))}), "
                f"the launch passes ({', '.join(map(str, found_args))})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        pos = parser.pos
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error(
                f"'{cls.name}' expects a kernel symbol, found {kernel}", pos, parser.pos
            )
        parser.parse_keyword("grid")
        with parser.in_parens():
            n_groups = parser.parse_operand(IndexType())
            parser.parse_punctuation(",")
            n_items = parser.parse_operand(IndexType())
        parser.parse_keyword("stream")
        with parser.in_parens():
            stream = parser.parse_operand(STREAM)
        smem = smem_extent = None
        if parser.parse_optional_keyword("smem"):
            with parser.in_parens():
                smem = parser.parse_type()
                if parser.parse_optional_punctuation(","):
                    smem_extent = parser.parse_operand(IndexType())
        parser.parse_keyword("mems")
        with parser.in_parens():
            mems = parse_operands_of(parser, (M0, M1, M4))
        unresolved = []
        has_args = parser.parse_optional_keyword("args") is not None
        if has_args:
            unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        attributes = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if has_args:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            if len(types) != len(unresolved):
                parser.raise_error(
                    f"'{cls.name}' has {len(unresolved)} arguments but {len(types)} types", pos
                )
        args = [parser.resolve_operand(a, t) for a, t in zip(unresolved, types, strict=True)]
        op = cls(kernel, n_groups, n_items, stream, mems, args, smem, smem_extent)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        printer.print_string(" grid(")
        printer.print_list((self.n_groups, self.n_items), printer.print_operand)
        printer.print_string(") stream(")
        printer.print_operand(self.stream)
        printer.print_string(")")
        if self.smem is not None:
            printer.print_string(" smem(")
            printer.print_attribute(self.smem)
            if self.smem_extent is not None:
                printer.print_string(", ")
                printer.print_operand(self.smem_extent)
            printer.print_string(")")
        printer.print_string(" mems(")
        printer.print_list((self.m0, self.m1, self.m4), printer.print_operand)
        printer.print_string(")")
        if self.args:
            printer.print_string(" args(")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        if self.args:
            printer.print_string(" : (")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
