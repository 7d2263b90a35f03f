"""The translation of a lowered device module (llvm dialect) to LLVM IR for NVPTX, with llvmlite.

`translate(module)` builds an `llvmlite.ir.Module`; `to_llvm(module)` parses and verifies it
with LLVM (`llvmlite.binding`) and returns the module, whose `str()` is LLVM's own printing.

It reuses xDSL's per-op translation (`xdsl.backend.llvm.convert_op`) and owns what NVPTX needs
and xDSL's `convert_module` lacks or gets wrong, in this one module:

- `llvm.getelementptr` on any address space (xDSL bitcasts the base to a typed `addrspace(0)`
  pointer first, which LLVM rejects for `addrspace(1)`/`(3)` pointers), with `inbounds`;
- `llvm.alloca`: an opaque pointer, as the llvm dialect's (llvmlite types it as a pointer to
  the allocated type, and then refuses a store of another type: an `i32` into the `[4 x i8]` of
  a `mem.mslot` of 4 bytes);
- functions: linkage, the `ptx_kernel` calling convention for the `nvvm.kernel` marker, and
  `convergent nounwind` on every device function (as clang does for CUDA), so that no
  optimization moves a barrier into divergent code;
- globals: linkage, address space, alignment, an opaque pointer type (a store of any type into
  `@__dynamic_smem`), an `undef` initializer for internal ones without
  a value (static shared memory);
- `llvm.fcmp` with every predicate and its fast-math flags;
- the ops of `gpuir.lowering.llvm.llvm_ext`: `addrspacecast`, `fptosi`, `fptoui`, `uitofp`,
  `extractelement`;
- `fast_math=True`: the `fast` flags on every floating-point instruction;
- `line_info` (on for `to_llvm`): the ops' locations as debug metadata, a `!dbg` on each
  instruction (`gpuir.lowering.llvm.line_info`), which NVPTX writes as `.file` / `.loc`;
- `private_shared=True` (the cpu provider): atomics on shared memory (`addrspace(3)`) as plain
  loads and stores (`plain_rmw`, `plain_cmpxchg`). There one thread runs all the items of a
  work-group, one after another, and no other thread sees the group's shared memory, so an
  atomic's read-modify-write is indivisible without a locked instruction (which costs tens of
  cycles each: a histogram in shared memory was 5x slower than `np.bincount`).

The module gets NVPTX's triple and data layout; `translate_for_host` retargets it to this CPU
(the cpu provider's and the compiled host's code). Anything else (an op outside the llvm dialect,
one that neither translation knows) is an `OpError` at that op.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from xdsl.dialects import llvm
from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS
from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from gpuir.dialects.mem import SHARED
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.llvm.conversion import NVVM_KERNEL_ATTR
from gpuir.lowering.llvm.llvm_ext import (
    AddrSpaceCastOp,
    AtomicRMWOp,
    CmpXchgOp,
    ExtractElementOp,
    FenceOp,
    FPToSIOp,
    FPToUIOp,
    PoisonOp,
    UIToFPOp,
    ordering_name,
)

if TYPE_CHECKING:
    from llvmlite import binding, ir

    from gpuir.lowering.llvm.line_info import FunctionLines, Kind

TRIPLE = "nvptx64-nvidia-cuda"
NOT_CONVERGENT = ("malloc", "free", "__nv_")
"""Callees that never synchronize: the device heap and libdevice."""
FLOAT_OPCODES = {"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp"}
FCMP_PREDICATES = tuple(CMPF_COMPARISON_OPERATIONS)
"""LLVM's `fcmp` predicates by number: the numbers of MLIR's `arith.cmpf` predicates."""


class LlvmIrError(DiagnosticException):
    """LLVM rejected the IR that the translation made (a bug in a lowering); carries LLVM's
    message and the IR."""


@cache
def nvptx_data_layout() -> str:
    """NVPTX's data layout string, from LLVM."""
    from llvmlite import binding

    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    machine = binding.Target.from_triple(TRIPLE).create_target_machine()
    return str(machine.target_data)


def translate(
    module: ModuleOp,
    fast_math: bool = False,
    atomic_scope: str | None = "device",
    private_shared: bool = False,
    line_info: Kind | None = None,
) -> ir.Module:
    """The llvmlite IR of a lowered device module (not verified yet). Atomics get the sync
    scope `atomic_scope` (NVPTX's `device`: the contract's device-scoped atomics, PTX
    `atom.relaxed.gpu`; None: LLVM's default, the system, for the host); with
    `private_shared`, those on shared memory are plain accesses (module docstring). With
    `line_info` (`line_info.NVPTX` or `line_info.HOST`), the ops' locations become debug
    metadata (`gpuir.lowering.llvm.line_info`)."""
    from llvmlite import ir

    from gpuir.lowering.llvm.line_info import LineInfo

    out = ir.Module(name=module.sym_name.data if module.sym_name else "device")
    out.triple = TRIPLE
    out.data_layout = nvptx_data_layout()
    globals_ = [op for op in module.ops if isinstance(op, llvm.GlobalOp)]
    functions = [op for op in module.ops if isinstance(op, llvm.FuncOp)]
    for op in module.ops:
        if not isinstance(op, llvm.GlobalOp | llvm.FuncOp):
            raise OpError(
                op, f"'{op.name}' cannot be translated to LLVM IR: lower it first (device-to-llvm)"
            )
    for op in globals_:
        translate_global(op, out)
    for op in functions:
        declare_function(op, out)
    info = LineInfo(out, line_info) if line_info is not None else None
    for op in functions:
        if op.body.blocks:
            translation = FunctionTranslation(op, out, fast_math, atomic_scope, private_shared)
            if info is not None:
                translation.lines = info.function(translation.function, op)
            translation.run()
    return out


def to_llvm(module: ModuleOp, fast_math: bool = False, line_info: bool = True) -> binding.ModuleRef:
    """The verified LLVM module of a lowered device module; with `line_info`, the ops'
    locations as NVPTX line info (`.file` / `.loc` in the PTX)."""
    from gpuir.lowering.llvm.line_info import NVPTX

    return parse(str(translate(module, fast_math, line_info=NVPTX if line_info else None)))


def parse(text: str) -> binding.ModuleRef:
    """Parse and verify LLVM IR text; an `LlvmIrError` carries LLVM's complaint and the IR."""
    from llvmlite import binding

    try:
        parsed = binding.parse_assembly(text)
        parsed.verify()
    except RuntimeError as e:
        raise LlvmIrError(f"LLVM rejects the translated IR: {e}\n{text}") from e
    return parsed


def translate_for_host(module: ModuleOp, line_info: bool = True) -> ir.Module:
    """The llvmlite module of a lowered module for this CPU (the cpu provider's device code and
    the compiled host's code): `translate`, retargeted (this CPU's triple and data layout, no
    `convergent`), with libdevice's `__nv_*` math as libm calls; with `line_info`, a DWARF line
    table of the ops' locations (`gpuir.lowering.llvm.line_info`)."""
    from llvmlite import binding

    from gpuir.lowering.llvm.line_info import HOST
    from gpuir.lowering.llvm.native import host_machine

    # the host's atomics: LLVM's default scope; a work-group's shared memory is one thread's
    out = translate(
        module, atomic_scope=None, private_shared=True, line_info=HOST if line_info else None
    )
    out.triple = binding.get_process_triple()
    out.data_layout = str(host_machine().target_data)
    for function in out.functions:
        function.attributes.discard("convergent")
    for function in list(out.functions):
        if function.is_declaration and function.name.startswith("__nv_"):
            define_libdevice_function(out, function)
    return out


def define_libdevice_function(out: ir.Module, function: ir.Function) -> None:
    """Give a libdevice declaration (`__nv_expf`) a body that calls libm (`expf`; `rsqrt` is
    `1 / sqrt`, `powi` LLVM's `llvm.powi`)."""
    from llvmlite import ir

    name = function.name.removeprefix("__nv_")
    function.linkage = "internal"
    b = ir.IRBuilder(function.append_basic_block("entry"))
    args = list(function.args)
    kind = function.function_type.return_type
    suffix = "f32" if isinstance(kind, ir.FloatType) else "f64"
    if name in ("rsqrtf", "rsqrt"):
        sqrt = out.declare_intrinsic("llvm.sqrt", [kind])
        b.ret(b.fdiv(ir.Constant(kind, 1.0), b.call(sqrt, args)))
        return
    if name in ("powif", "powi"):
        powi_type = ir.FunctionType(kind, [kind, ir.IntType(32)])
        b.ret(b.call(declared(out, f"llvm.powi.{suffix}.i32", powi_type), args))
        return
    b.ret(b.call(declared(out, name, function.function_type), args))


def declared(out: ir.Module, name: str, function_type: ir.FunctionType) -> ir.Function:
    """The function `name` of `out`, declared if it is not there."""
    from llvmlite import ir

    found = out.globals.get(name)
    if isinstance(found, ir.Function):
        return found
    return ir.Function(out, function_type, name)


def translate_global(op: llvm.GlobalOp, out: ir.Module) -> None:
    from llvmlite import ir
    from xdsl.backend.llvm.convert_op import create_constant
    from xdsl.backend.llvm.convert_type import convert_type

    value_type = convert_type(op.global_type)
    space = op.addr_space.value.data
    variable = ir.GlobalVariable(out, value_type, name=op.sym_name.data, addrspace=space)
    variable.type = ir.PointerType(addrspace=space)  # opaque, as the llvm dialect's pointers
    linkage = op.linkage.linkage.data
    variable.linkage = "" if linkage == "external" and op.value is not None else linkage
    variable.global_constant = op.constant is not None
    if op.alignment is not None:
        variable.align = op.alignment.value.data
    if isinstance(op.value, StringAttr):
        raw = op.value.data.encode("utf-8")
        variable.initializer = ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))
    elif op.value is not None:
        variable.initializer = create_constant(op.global_type, op.value)
    elif linkage != "external":
        variable.initializer = ir.Constant(value_type, ir.Undefined)


def declare_function(op: llvm.FuncOp, out: ir.Module) -> None:
    from llvmlite import ir
    from xdsl.backend.llvm.convert_type import convert_type

    function_type = ir.FunctionType(
        convert_type(op.function_type.output),
        [convert_type(t) for t in op.function_type.inputs],
        var_arg=op.function_type.is_variadic,
    )
    name = op.sym_name.data
    function = ir.Function(out, function_type, name=name)
    linkage = op.linkage.linkage.data
    if linkage != "external":
        function.linkage = linkage
    if NVVM_KERNEL_ATTR in op.attributes:
        function.calling_convention = "ptx_kernel"
    function.attributes.add("nounwind")
    if not name.startswith(NOT_CONVERGENT):
        function.attributes.add("convergent")
    if op.body.blocks:
        for arg, block_arg in zip(function.args, op.body.blocks[0].args, strict=True):
            arg.name = block_arg.name_hint or ""


def block_order(op: llvm.FuncOp) -> list[Block]:
    """The blocks the entry reaches, in reverse post-order: a block comes after the blocks that
    dominate it, so each value is translated before its uses (MLIR's order of blocks need not
    be that); a block that cannot run is left out."""
    from xdsl.ir.post_order import PostOrderIterator

    return list(PostOrderIterator(op.body.blocks[0]))[::-1]


class FunctionTranslation:
    """The body of one `llvm.func`: blocks (with phis for block arguments), then each op."""

    def __init__(
        self,
        op: llvm.FuncOp,
        out: ir.Module,
        fast_math: bool,
        atomic_scope: str | None = None,
        private_shared: bool = False,
    ):
        self.op = op
        self.private_shared = private_shared
        self.function = out.get_global(op.sym_name.data)
        self.fast_math = fast_math
        self.scope = f'syncscope("{atomic_scope}") ' if atomic_scope else ""
        """What goes before an atomic's ordering (llvmlite writes the ordering as given)."""
        self.values: dict[SSAValue, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.lines: FunctionLines | None = None
        """The `DILocation` of each op, with line info."""

    def run(self) -> None:
        from llvmlite import ir
        from xdsl.backend.llvm.convert_type import convert_type

        order = block_order(self.op)
        for i, block in enumerate(order):
            self.blocks[block] = self.function.append_basic_block(name=f"bb{i}" if i else "entry")
        entry = order[0]
        self.values.update(zip(entry.args, self.function.args, strict=True))
        for block in order[1:]:
            builder = ir.IRBuilder(self.blocks[block])
            for arg in block.args:
                self.values[arg] = builder.phi(convert_type(arg.type), name=arg.name_hint or "")
        for block in order:
            builder = ir.IRBuilder(self.blocks[block])
            if self.blocks[block].instructions:
                builder.position_after(self.blocks[block].instructions[-1])
            for op in block.ops:
                if self.lines is not None:
                    builder.debug_metadata = self.lines.at(op)
                self.translate_op(op, builder)
        if self.fast_math:
            add_fast_math_flags(self.function)

    def is_private(self, ptr: ir.Value) -> bool:
        """Whether an atomic on `ptr` may be plain accesses: `private_shared`, and `ptr` is
        into shared memory."""
        return self.private_shared and getattr(ptr.type, "addrspace", 0) == SHARED

    def translate_op(self, op: Operation, builder: ir.IRBuilder) -> None:
        from llvmlite.ir import instructions
        from xdsl.backend.llvm.convert_op import convert_op

        if isinstance(op, llvm.GEPOp):
            self.gep(op, builder)
        elif isinstance(op, llvm.AllocaOp):
            self.alloca(op, builder)
        elif isinstance(op, llvm.FCmpOp):
            self.fcmp(op, builder)
        elif isinstance(op, AddrSpaceCastOp | FPToSIOp | FPToUIOp | UIToFPOp):
            self.cast(op, builder)
        elif isinstance(op, AtomicRMWOp | CmpXchgOp) and self.is_private(self.values[op.ptr]):
            ptr, value = self.values[op.ptr], self.values[op.val]
            if isinstance(op, AtomicRMWOp):
                self.values[op.res] = plain_rmw(builder, op.bin_op_name, ptr, value)
            else:
                self.values[op.res] = plain_cmpxchg(builder, ptr, self.values[op.cmp], value)
        elif isinstance(op, AtomicRMWOp):
            self.values[op.res] = builder.atomic_rmw(
                op.bin_op_name,
                self.values[op.ptr],
                self.values[op.val],
                self.scope + ordering_name(op.ordering),
            )
        elif isinstance(op, CmpXchgOp):
            self.values[op.res] = builder.cmpxchg(
                self.values[op.ptr],
                self.values[op.cmp],
                self.values[op.val],
                self.scope + ordering_name(op.success_ordering),
                ordering_name(op.failure_ordering),
            )
        elif isinstance(op, FenceOp):
            builder.fence(ordering_name(op.ordering), op.syncscope.data or None)
        elif isinstance(op, ExtractElementOp):
            self.values[op.res] = builder.extract_element(
                self.values[op.vector], self.values[op.position]
            )
        elif isinstance(op, PoisonOp):
            from llvmlite import ir as llvm_ir
            from xdsl.backend.llvm.convert_type import convert_type

            self.values[op.res] = llvm_ir.Constant(convert_type(op.res.type), llvm_ir.Undefined)
        else:
            try:
                convert_op(op, builder, self.values, self.blocks)
            except NotImplementedError as e:
                raise OpError(op, f"'{op.name}' cannot be translated to LLVM IR: {e}") from e
        for result in op.results:  # keep gpu-opt's names where the IR has them
            value = self.values.get(result)
            if result.name_hint and isinstance(value, instructions.Instruction):
                value.name = result.name_hint

    def gep(self, op: llvm.GEPOp, builder: ir.IRBuilder) -> None:
        """GEP straight on the pointer, whatever its address space."""
        from llvmlite import ir
        from xdsl.backend.llvm.convert_type import convert_type

        dynamic = iter(op.ssa_indices)
        indices = [
            self.values[next(dynamic)]
            if index == llvm.GEP_USE_SSA_VAL
            else ir.Constant(ir.IntType(32), index)
            for index in op.rawConstantIndices.iter_values()
        ]
        inbounds = op.inbounds is not None or bool(op.noWrapFlags.value.data & 1)
        gep = builder.gep(
            self.values[op.ptr],
            indices,
            inbounds=inbounds,
            source_etype=convert_type(op.elem_type),
        )
        space = op.result.type.addr_space
        gep.type = ir.PointerType(addrspace=space.data if isinstance(space, IntAttr) else 0)
        self.values[op.result] = gep

    def alloca(self, op: llvm.AllocaOp, builder: ir.IRBuilder) -> None:
        """An alloca whose result is an opaque pointer: any type may be stored through it."""
        from llvmlite import ir
        from xdsl.backend.llvm.convert_type import convert_type

        alloca = builder.alloca(convert_type(op.elem_type), size=self.values[op.size])
        if op.alignment:
            alloca.align = op.alignment.value.data
        alloca.type = ir.PointerType(addrspace=alloca.type.addrspace)
        self.values[op.res] = alloca

    def fcmp(self, op: llvm.FCmpOp, builder: ir.IRBuilder) -> None:
        from llvmlite.ir import instructions

        predicate = FCMP_PREDICATES[op.predicate.value.data]
        flags = [str(flag) for flag in op.fastmathFlags.data] if op.fastmathFlags else []
        compare = instructions.FCMPInstr(
            builder.block, predicate, self.values[op.lhs], self.values[op.rhs], flags=flags
        )
        builder._insert(compare)  # noqa: SLF001 (llvmlite has no public insert)
        self.values[op.res] = compare

    def cast(self, op: AddrSpaceCastOp | FPToSIOp | FPToUIOp | UIToFPOp, builder: ir.IRBuilder):
        from xdsl.backend.llvm.convert_type import convert_type

        make = {
            AddrSpaceCastOp: builder.addrspacecast,
            FPToSIOp: builder.fptosi,
            FPToUIOp: builder.fptoui,
            UIToFPOp: builder.uitofp,
        }[type(op)]
        self.values[op.res] = make(self.values[op.arg], convert_type(op.res.type))


def add_fast_math_flags(function: ir.Function) -> None:
    """The `fast` flags on every floating-point instruction and float-returning call."""
    from llvmlite import ir
    from llvmlite.ir import instructions

    floats = (ir.HalfType, ir.FloatType, ir.DoubleType)
    for block in function.blocks:
        for instruction in block.instructions:
            if instruction.opname in FLOAT_OPCODES:
                instruction.flags = ["fast"]
            elif isinstance(instruction, instructions.CallInstr) and isinstance(
                instruction.type, floats
            ):
                instruction.fastmath = instructions.FastMathFlags(["fast"])


def plain_rmw(builder: ir.IRBuilder, bin_op: str, ptr: ir.Value, value: ir.Value) -> ir.Value:
    """`atomicrmw <bin_op> ptr, value` as a load, the operation and a store; the old value."""
    from llvmlite import ir

    old = builder.load(ptr, typ=value.type)
    signed = {"max": ">", "min": "<"}
    unsigned = {"umax": ">", "umin": "<"}
    if bin_op == "xchg":
        new = value
    elif bin_op in signed:
        new = builder.select(builder.icmp_signed(signed[bin_op], old, value), old, value)
    elif bin_op in unsigned:
        new = builder.select(builder.icmp_unsigned(unsigned[bin_op], old, value), old, value)
    elif bin_op in ("fmax", "fmin"):  # LLVM's atomicrmw fmax / fmin: maxnum / minnum
        name = "llvm.maxnum" if bin_op == "fmax" else "llvm.minnum"
        signature = ir.FunctionType(value.type, [value.type, value.type])
        intrinsic = builder.module.declare_intrinsic(name, [value.type], signature)
        new = builder.call(intrinsic, [old, value])
    else:
        arithmetic = {
            "add": builder.add,
            "sub": builder.sub,
            "and": builder.and_,
            "or": builder.or_,
            "xor": builder.xor,
            "nand": lambda a, b: builder.not_(builder.and_(a, b)),
            "fadd": builder.fadd,
            "fsub": builder.fsub,
        }
        new = arithmetic[bin_op](old, value)
    builder.store(new, ptr)
    return old


def plain_cmpxchg(
    builder: ir.IRBuilder, ptr: ir.Value, expected: ir.Value, desired: ir.Value
) -> ir.Value:
    """`cmpxchg ptr, expected, desired` as a load, a compare and a store: `{old, stored}`."""
    from llvmlite import ir

    old = builder.load(ptr, typ=desired.type)
    stored = builder.icmp_unsigned("==", old, expected)
    builder.store(builder.select(stored, desired, old), ptr)
    pair = ir.Constant(ir.LiteralStructType([desired.type, ir.IntType(1)]), ir.Undefined)
    return builder.insert_value(builder.insert_value(pair, old, 0), stored, 1)
