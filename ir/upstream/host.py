"""The importer's host code: `@main` (the device opened first, closed last), memref.globals,
and the ops host code imports (`HOST_OPS`: the shared ones and host and device allocation,
`gpu.memset` and `gpu.memcpy`, `gpu.host_register` (a device copy), `vector.print` and the
runner's print functions, calls of host functions (inlined), and launches: `gpu.launch_func`,
and `gpu.launch` with its body outlined as a kernel).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, builtin, cf, func, memref, printf, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import STREAM, StreamType
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.ir.data_layout import size_of
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import gpu_ops, memref_ops
from gpuir.ir.upstream.async_ops import ASYNC_OPS, sync
from gpuir.ir.upstream.common import (
    SHARED_OPS,
    OpTable,
    Ref,
    Scope,
    each_element,
    element_at,
    index,
    pointee_of,
    store_global,
    unsupported,
)
from gpuir.ir.upstream.kernel import KernelImporter
from gpuir.ir.upstream.parallel import PARALLEL_OPS
from gpuir.ir.upstream.strided import STRIDED_OPS, LaunchMade, kernel_for_launch
from gpuir.ir.upstream.vectors import VECTOR_OPS

HOST_SPACES = (0, 1, 4)
PRINT_MEMREF = {"printMemrefF32", "printMemrefF64", "printMemrefI32", "printMemrefI64"}
PRINT_TEXT = {"printNewline": "\n", "printComma": ", ", "printOpen": "( ", "printClose": " )"}
PRINT_VALUE = {"printI64", "printU64"}
PRINT_FLOAT = {"printF32", "printF64"}
DEVICE_VIEWS = {"mgpuMemGetDeviceMemRef1dFloat": "f32", "mgpuMemGetDeviceMemRef1dInt32": "i32"}
"""ROCm's runtime shims that give the device's view of registered host memory (a 1-d memref of
these elements)."""


class HostImporter(KernelImporter):
    """The importer's host code (module docstring); a launch's kernel is `KernelImporter`'s."""

    def __init__(self, source: builtin.ModuleOp):
        super().__init__(source)
        self.registered: list[Ref] = []
        """Host memory with a device copy (`mirror`), copied in before each launch, out after."""
        self.stream: SSAValue | None = None
        self.host_functions: dict[str, func.FuncOp] = {}
        """Host functions other than @main, by name: each call is their body, inlined."""
        self.globals: dict[str, memref_ops.GlobalOp] = {}
        """The program's memref.globals; @main makes each in host memory first."""
        self.global_refs: dict[str, Ref] = {}
        self.by_launch: dict[tuple[str, ...], LaunchMade] = {}
        """The kernels made at their launches (`strided.kernel_for_launch`)."""
        self.destroyed: set[SSAValue] = set()
        """The streams of async tokens that a `gpu.wait` destroyed."""
        self.deferred = False
        """Whether registered memory waits to be copied back (async launches: at a `gpu.wait`,
        or before the next op that may touch it)."""
        self.fresh_copies = False
        """Whether registered memory's device copies are as the host left it: no op that may
        touch it since an async launch copied it there."""

    def import_op(self, op: Operation, b: Builder, s: Scope) -> None:
        """Host code's `op` (`SharedImporter.import_op`), after registered memory is copied
        back where async launches left it on the device and `op` may touch it; an async
        token that `op` makes is on the stream of its first dependency."""
        if s.table is HOST_OPS and not keeps_copies(op):
            self.fresh_copies = False
            if self.deferred:
                self.copy_back(b, s)
        super().import_op(op, b, s)
        if isinstance(
            op, gpu_ops.AllocOp | gpu_ops.DeallocOp | gpu_ops.MemcpyOp | gpu_ops.MemsetOp
        ):
            token = op.results[-1] if op.results else None
            if token is not None and isinstance(token.type, AsyncTokenType) and op.deps:
                stream = self.live_stream(op.deps[0], s)
                if stream is not None:
                    s.values[token] = stream

    def copy_back(self, b: Builder, s: Scope) -> None:
        """Registered memory copied back from its device copies (blocking: after every
        stream's work)."""
        for ref in self.registered:
            assert ref.mirror is not None
            copy = gpu.CopyToHostBlockOp(s.tokens[0], s.tokens[1], ref.mirror.ptr, ref.ptr)
            s.tokens[0], s.tokens[1] = b.insert(copy).results
        self.deferred = False

    def main(self, op: func.FuncOp) -> None:
        inputs, outputs = op.function_type.inputs.data, op.function_type.outputs.data
        for type_ in (*inputs, *outputs):
            if not isinstance(type_, IntegerType | IndexType | AnyFloat):
                raise unsupported(op, f"@main taking or returning {type_} is not supported")
        m0 = MemType(0)
        body = Block(arg_types=[m0, *inputs])  # gpu-run's arguments, and its printed results
        body.args[0].name_hint = "m"
        b = Builder(InsertPoint.at_end(body))
        init = b.insert(gpu.InitOp(body.args[0]))
        scope = Scope(HOST_SPACES, HOST_OPS, dict(zip(HOST_SPACES, init.results, strict=True)))
        self.stream = b.insert(gpu.DefaultStreamOp()).results[0]
        for arg, given in zip(body.args[1:], op.body.blocks[0].args, strict=True):
            arg.name_hint = given.name_hint
            scope.values[given] = arg
        signature = FunctionType.from_lists([m0, *inputs], [m0, *outputs])
        new = func.FuncOp("main", signature, Region(body))
        new.location = op.location
        self.out.body.block.add_op(new)
        self.main_op = new
        for made in self.globals.values():
            self.make_global(made, b, scope)
        self.blocks(op.body, body, b, scope)

    def host_return(self, op: func.ReturnOp, b: Builder, s: Scope) -> None:
        """`return`: the end of a host function being inlined, or of @main (registered memory's
        device copies freed, the device closed)."""
        if self.inlined:
            self.return_from_inlined(op, b, s)
            return
        for ref in self.registered:
            assert ref.mirror is not None
            s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.mirror.ptr)).results[0]
        results = self.mapped(op, op.arguments, s)  # @main's results, if it has any
        done = b.insert(gpu.DeinitOp(s.tokens[0], s.tokens[1], s.tokens[4])).results[0]
        b.insert(func.ReturnOp(done, *results))

    def host_alloc(self, op: memref.AllocOp | memref.AllocaOp, b: Builder, s: Scope) -> None:
        self.allocate(op, op.memref, list(op.dynamic_sizes), 0, b, s)

    def gpu_alloc(self, op: gpu_ops.AllocOp, b: Builder, s: Scope) -> None:
        """`gpu.alloc`: device memory; `host_shared`: host memory and its device copy."""
        if op.host_shared is not None:
            self.allocate(op, op.results[0], list(op.rest), 0, b, s)  # the host's, and a copy
            self.mirror(s.refs[op.results[0]], b, s)
        else:
            self.allocate(op, op.results[0], list(op.rest), 1, b, s)

    def dealloc(self, op: memref.DeallocOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.memref, s)
        if ref.space != 0:
            raise unsupported(op, "of device memory (gpu.dealloc frees it)")
        if ref.mirror is not None:  # registered: its device copy goes with it
            s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.mirror.ptr)).results[0]
            self.registered.remove(ref)
            ref.mirror = None
        s.tokens[0] = b.insert(mem.FreeOp(s.tokens[0], ref.ptr)).results[0]

    def gpu_dealloc(self, op: gpu_ops.DeallocOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.rest[0], s)
        s.tokens[1] = b.insert(gpu.FreeBlockOp(s.tokens[1], ref.ptr)).results[0]

    # -- async tokens and their streams --

    def live_stream(self, token: SSAValue, s: Scope) -> SSAValue | None:
        """The stream of an async token, if its work may still be pending (None: done)."""
        stream = s.values.get(token)
        if stream is None or stream in self.destroyed or not isinstance(stream.type, StreamType):
            return None
        return stream

    def new_stream(self, b: Builder, s: Scope) -> SSAValue:
        """A stream of its own (`gpu.stream_init` in a host slot)."""
        made = b.insert(mem.AllocOp(s.tokens[0], PtrType(STREAM, 0)))
        slot = made.results[1]
        init = b.insert(gpu.StreamInitOp(made.results[0], s.tokens[1], slot))
        s.tokens[0], s.tokens[1] = init.results
        s.tokens[0], stream = b.insert(mem.LoadOp(s.tokens[0], slot)).results
        s.tokens[0] = b.insert(mem.FreeOp(s.tokens[0], slot)).results[0]
        stream.name_hint = "stream"
        return stream

    def async_stream(
        self, deps: Sequence[SSAValue], b: Builder, s: Scope, reuse: bool = True
    ) -> SSAValue:
        """The stream of an async op with dependencies `deps`: its first dependency's (with
        `reuse`, while pending), else a new one; the host first waits for the streams of the
        others (where a GPU waits for an event on the stream)."""
        streams: list[SSAValue] = []
        for dep in deps:
            found = self.live_stream(dep, s)
            if found is not None and found not in streams:
                streams.append(found)
        first = self.live_stream(deps[0], s) if deps and reuse else None
        for other in streams:
            if other is not first:
                sync(self, other, b, s)
        return first if first is not None else self.new_stream(b, s)

    def wait(self, op: gpu_ops.WaitOp, b: Builder, s: Scope) -> None:
        """`gpu.wait async [deps]`: a new stream after the dependencies' (its token's);
        `gpu.wait [deps]`: the host waits for their streams and destroys them, then copies
        registered memory back."""
        if op.token:
            s.values[op.token[0]] = self.async_stream(op.deps, b, s, reuse=False)
            return
        for dep in op.deps:
            stream = self.live_stream(dep, s)
            if stream is not None:
                done = b.insert(gpu.StreamDeinitOp(s.tokens[0], s.tokens[1], stream))
                s.tokens[0], s.tokens[1] = done.results
                self.destroyed.add(stream)
        self.fresh_copies = False
        if self.deferred:
            self.copy_back(b, s)

    def get_global(self, op: memref.GetGlobalOp, b: Builder, s: Scope) -> None:
        found = self.global_refs.get(op.name_.root_reference.data)
        if found is None:
            raise OpError(op, f"importing upstream MLIR: no memref.global {op.name_}")
        s.refs[op.memref] = found

    def make_global(self, op: memref_ops.GlobalOp, b: Builder, s: Scope) -> None:
        """A memref.global in host memory, its elements stored one by one (`get_global` gives
        it; a kernel takes it once it is registered)."""
        type_ = op.type
        if not isinstance(type_, MemRefType) or DYNAMIC_INDEX in type_.get_shape():
            raise unsupported(op, f"of type {type_}")
        shape = list(type_.get_shape())
        dims = [index(b, d) for d in shape]
        ptr_type = PtrType(pointee_of(type_, op), 0)
        made = b.insert(mem.AllocOp(s.tokens[0], ptr_type, dims[0] if dims else None))
        s.tokens[0], ptr = made.results
        ptr.name_hint = op.sym_name.data
        store_global(op, ptr, 0, b, s)
        self.global_refs[op.sym_name.data] = Ref(ptr, dims, 0)

    def allocate(
        self,
        op: Operation,
        result: SSAValue,
        sizes: list[SSAValue],
        space: int,
        b: Builder,
        s: Scope,
    ) -> None:
        type_ = result.type
        assert isinstance(type_, MemRefType)
        dynamic = iter(self.mapped(op, sizes, s))
        dims = [next(dynamic) if d == DYNAMIC_INDEX else index(b, d) for d in type_.get_shape()]
        pointee = pointee_of(type_, op)
        extent = dims[0] if dims else None
        ptr_type = PtrType(pointee, space)
        if space == 0:
            made = b.insert(mem.AllocOp(s.tokens[0], ptr_type, extent))
            s.tokens[0] = made.results[0]
        else:
            made = b.insert(gpu.AllocBlockOp(s.tokens[1], ptr_type, extent))
            s.tokens[1] = made.results[0]
        made.results[1].name_hint = result.name_hint
        s.refs[result] = Ref(made.results[1], dims, space)

    def memset(self, op: gpu_ops.MemsetOp, b: Builder, s: Scope) -> None:
        """`gpu.memset` of device memory: a host array of the value, copied there; of host
        memory: the value stored into each element."""
        ref = self.ref(op, op.rest[0], s)
        (value,) = self.mapped(op, [op.rest[1]], s)

        def fill(ptr: SSAValue, tokens: dict[int, SSAValue]) -> dict[int, SSAValue]:
            def store(at: list[SSAValue], b: Builder, t: dict[int, SSAValue]):
                target = element_at(Ref(ptr, ref.dims, 0), at, b)
                return {**t, 0: b.insert(mem.StoreOp(t[0], target, value)).results[0]}

            return each_element(ref.dims, tokens, b, store)

        if ref.space == 0:
            s.tokens.update(fill(ref.ptr, s.tokens))
            return
        assert isinstance(ref.ptr.type, PtrType)
        extent = ref.dims[0] if ref.dims else None
        made = b.insert(mem.AllocOp(s.tokens[0], PtrType(ref.ptr.type.pointee, 0), extent))
        token, host = made.results
        s.tokens.update(fill(host, {**s.tokens, 0: token}))
        copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], host, ref.ptr)
        token, s.tokens[1] = b.insert(copy).results
        s.tokens[0] = b.insert(mem.FreeOp(token, host)).results[0]

    def memcpy(self, op: gpu_ops.MemcpyOp, b: Builder, s: Scope) -> None:
        dst, src = (self.ref(op, v, s) for v in op.rest)
        if src.space == 0 and dst.space == 1:
            copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr)
        elif src.space == 1 and dst.space == 0:
            copy = gpu.CopyToHostBlockOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr)
        elif src.space == 1 and dst.space == 1:  # through host memory made for it
            assert isinstance(src.ptr.type, PtrType)
            extent = src.dims[0] if src.dims else None
            made = b.insert(mem.AllocOp(s.tokens[0], PtrType(src.ptr.type.pointee, 0), extent))
            staging = made.results[1]
            out = b.insert(gpu.CopyToHostBlockOp(made.results[0], s.tokens[1], src.ptr, staging))
            back = gpu.CopyToDeviceBlockOp(*out.results, staging, dst.ptr)
            host, s.tokens[1] = b.insert(back).results
            s.tokens[0] = b.insert(mem.FreeOp(host, staging)).results[0]
            return
        else:  # within host memory: element by element, as memref.copy
            self.copy(op, src, dst, b, s)
            return
        s.tokens[0], s.tokens[1] = b.insert(copy).results

    def register(self, op: gpu_ops.HostRegisterOp, b: Builder, s: Scope) -> None:
        ref = self.ref(op, op.operands[0], s)
        if ref.space != 0 or ref.mirror is not None:
            raise unsupported(op, "of memory that is not host memory, or twice")
        self.mirror(ref, b, s)

    def mirror(self, ref: Ref, b: Builder, s: Scope) -> None:
        """A device copy of host memory that kernels use (copied in before each launch and
        out after it): `gpu.host_register`, and `gpu.alloc host_shared`."""
        assert isinstance(ref.ptr.type, PtrType)
        ptr_type = PtrType(ref.ptr.type.pointee, 1)
        extent = ref.dims[0] if ref.dims else None
        made = b.insert(gpu.AllocBlockOp(s.tokens[1], ptr_type, extent))
        s.tokens[1] = made.results[0]
        ref.mirror = Ref(made.results[1], ref.dims, 1)
        self.registered.append(ref)

    def call(self, op: func.CallOp, b: Builder, s: Scope) -> None:
        callee = op.callee.root_reference.data
        if callee in PRINT_MEMREF | PRINT_VALUE | PRINT_FLOAT and len(op.arguments) != 1:
            raise unsupported(op, f"of @{callee} takes one argument")
        if callee in PRINT_MEMREF:
            ref = self.ref(op, op.arguments[0], s)
            if ref.space != 0:
                raise unsupported(op, "of device memory: copy it to the host first")
            s.tokens[0] = b.insert(mem.PrintMemrefOp(s.tokens[0], ref.ptr)).results[0]
        elif callee in PRINT_TEXT:
            b.insert(printf.PrintFormatOp(PRINT_TEXT[callee]))
        elif callee in PRINT_VALUE:
            b.insert(printf.PrintFormatOp("{}", *self.mapped(op, op.arguments[:1], s)))
        elif callee in PRINT_FLOAT:  # C's %g, as mlir-runner's printF32 / printF64
            made = b.insert(printf.PrintFormatOp("{}", *self.mapped(op, op.arguments[:1], s)))
            made.attributes[gpu.PRINTF_SPECS_ATTR] = ArrayAttr([StringAttr("g")])
        elif callee in DEVICE_VIEWS:
            self.device_view(op, callee, s)
        elif callee in self.host_functions:
            self.inline(op, self.host_functions[callee], b, s)
        else:
            raise unsupported(op, f"of @{callee} is not supported (yet)")

    def device_view(self, op: func.CallOp, callee: str, s: Scope) -> None:
        """ROCm's `mgpuMemGetDeviceMemRef1d*`: the device's view of registered host memory,
        which on gpuir's providers is that memory (a launch copies it in and out, as any
        registered memory)."""
        types = [*(a.type for a in op.arguments), *(r.type for r in op.results)]
        element = DEVICE_VIEWS[callee]
        if len(types) != 2 or any(str(t) != f"memref<?x{element}>" for t in types):
            raise unsupported(op, f"of @{callee} takes and returns one memref<?x{element}>")
        ref = self.ref(op, op.arguments[0], s)
        if ref.mirror is None:
            raise unsupported(op, "of memory that is not registered (gpu.host_register it)")
        s.refs[op.results[0]] = ref

    # -- launches --

    def host_assert(self, op: cf.AssertOp, b: Builder, s: Scope) -> None:
        """`cf.assert` in host code, as mlir-runner runs MLIR's lowering of it: where the
        condition is false, the message and a newline on the output (its `puts`), then the
        program fails at the op (where mlir-runner aborts)."""
        (cond,) = self.mapped(op, [op.arg], s)
        true = b.insert(arith.ConstantOp.from_int_and_width(1, 1)).result
        failed = b.insert(arith.XOrIOp(cond, true)).result
        text = op.msg.data.replace("{", "{{").replace("}", "}}") + "\n"
        b.insert(scf.IfOp(failed, [], Region(Block([printf.PrintFormatOp(text), scf.YieldOp()]))))
        b.insert(cf.AssertOp(cond, op.msg))

    def launch_func(self, op: gpu_ops.LaunchFuncOp, b: Builder, s: Scope) -> None:
        path = (op.kernel.root_reference.data, *(r.data for r in op.kernel.nested_references))
        known = len(path) == 2 and (tuple(path) in self.kernel_names or path in self.by_launch)
        if not known:
            raise OpError(op, f"importing upstream MLIR: no kernel {op.kernel}")
        sizes = list(op.rest[: 6 + op.smem.data])
        self.single_clusters(op, op.rest[len(sizes) : len(sizes) + op.clusters.data])
        args = list(op.rest[len(sizes) + op.clusters.data :])
        if path in self.by_launch:  # made for the memory this launch gives it
            name = kernel_for_launch(self, op, path, args, s)
        else:
            name = self.kernel_names[path]
        self.launch(op, name, sizes, args, b, s)

    def launch_region(self, op: gpu_ops.LaunchOp, b: Builder, s: Scope) -> None:
        self.single_clusters(op, op.rest[6 + op.smem.data :])
        captured = captured_values(op)
        name = self.fresh("launch_kernel")
        # a captured memref keeps the pointer the host made it with (a cast may have hidden
        # its static inner extents)
        pointers = {}
        for value in captured:
            ref = s.refs.get(value)
            if ref is not None:
                device = ref.mirror if ref.mirror is not None else ref
                pointers[value] = device.ptr.type
        self.kernel(op.body, captured, name, op, region_ids=True, pointers=pointers)
        self.launch(op, name, list(op.rest[: 6 + op.smem.data]), captured, b, s)

    def single_clusters(self, op: Operation, sizes: Sequence[SSAValue]) -> None:
        """A launch's `clusters` sizes, if it has them: constants of 1x1x1 (a cluster is a
        block, as in a launch without them); any other is an error at the launch."""
        known = [v.owner.value for v in sizes if isinstance(v.owner, arith.ConstantOp)]
        values = [v.value.data for v in known if isinstance(v, IntegerAttr)]
        if len(values) != len(sizes):
            raise unsupported(
                op,
                "with cluster sizes that are not constants is not supported: gpuir has no "
                "thread block clusters, and runs only clusters of 1x1x1 blocks",
            )
        if any(v != 1 for v in values):
            raise unsupported(
                op,
                f"with clusters of {'x'.join(map(str, values))} blocks is not supported: "
                "gpuir has no thread block clusters (no cluster barrier or distributed shared "
                "memory), and runs only clusters of 1x1x1 blocks",
            )

    def launch(
        self,
        op: Operation,
        kernel: str,
        sizes: list[SSAValue],
        args: list[SSAValue],
        b: Builder,
        s: Scope,
    ) -> None:
        """A launch of `kernel` with the grid's and block's `sizes` (and then the dynamic
        shared memory's bytes, if given) and the kernel's `args`."""
        sizes = [self.as_index(v, b) for v in self.mapped(op, sizes, s)]
        smem, smem_extent = self.shared_memory(kernel, sizes[6:], b)
        n_groups = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
        n_groups = b.insert(arith.MuliOp(n_groups, sizes[2])).result
        known = self.known_sizes.get(kernel, {})
        if known:  # no group where a size is not the known one: check_launch then says why
            n_groups = self.unless_known(n_groups, sizes, known, b)
        n_items = b.insert(arith.MuliOp(sizes[3], sizes[4])).result
        n_items = b.insert(arith.MuliOp(n_items, sizes[5])).result
        values: list[SSAValue] = sizes[:6]
        for arg in args:
            if arg in s.refs:
                ref = self.ref(op, arg, s)
                device = ref.mirror if ref.mirror is not None else ref
                if device.space != 1:
                    raise OpError(
                        op,
                        "importing upstream MLIR: a kernel takes host memory that is not "
                        "registered (gpu.host_register it, or copy it to a gpu.alloc)",
                    )
                values += [device.ptr, self.extent(device, b)]
            elif isinstance(arg.type, MemRefType | UnrankedMemRefType):
                raise unsupported(op, "of a memref the importer does not know")
            else:
                values += self.mapped(op, [arg], s)
        token = None
        if isinstance(op, gpu_ops.LaunchFuncOp | gpu_ops.LaunchOp) and op.token:
            token = op.token[0]
        if not (token is not None and self.fresh_copies):
            for ref in self.registered:
                assert ref.mirror is not None
                copy = gpu.CopyToDeviceBlockOp(s.tokens[0], s.tokens[1], ref.ptr, ref.mirror.ptr)
                s.tokens[0], s.tokens[1] = b.insert(copy).results
        stream = self.stream
        if token is not None:  # on a stream of its own, registered memory copied back later
            assert isinstance(op, gpu_ops.LaunchFuncOp | gpu_ops.LaunchOp)
            stream = s.values[token] = self.async_stream(op.deps, b, s)
        assert stream is not None
        mems = [s.tokens[0], s.tokens[1], s.tokens[4]]
        made = gpu.LaunchOp(kernel, n_groups, n_items, stream, mems, values, smem, smem_extent)
        done = b.insert(made)
        if known:
            attrs = {k: DenseArrayBase.from_list(IntegerType(64), v) for k, v in known.items()}
            done.attributes[gpu.KNOWN_SIZES_ATTR] = DictionaryAttr(attrs)
        s.tokens[0], s.tokens[1], s.tokens[4] = done.results
        if token is not None:
            self.deferred = self.deferred or bool(self.registered)
            self.fresh_copies = True
            return
        for ref in self.registered:
            assert ref.mirror is not None
            copy = gpu.CopyToHostBlockOp(s.tokens[0], s.tokens[1], ref.mirror.ptr, ref.ptr)
            s.tokens[0], s.tokens[1] = b.insert(copy).results

    def shared_memory(
        self, kernel: str, size: list[SSAValue], b: Builder
    ) -> tuple[Attribute | None, SSAValue | None]:
        """The dynamic shared memory of a launch of `kernel` (its type and extent), from the
        launch's bytes (`size`; none: 0): as many of the kernel's elements (or rows) as fit.
        None where the kernel takes none (a launch's bytes are then unused, as on a GPU)."""
        pointee = self.smem_kernels.get(kernel)
        if pointee is None:
            return None, None
        assert isinstance(pointee, ArrayType)
        if not size:
            return pointee, index(b, 0)
        row = index(b, size_of(pointee.element_type))
        return pointee, b.insert(arith.DivUIOp(size[0], row)).result

    def unless_known(
        self,
        n_groups: SSAValue,
        sizes: list[SSAValue],
        known: dict[str, tuple[int, ...]],
        b: Builder,
    ) -> SSAValue:
        """`n_groups` where the launch's grid and block `sizes` are the kernel's `known` ones,
        else 0: an invalid launch, which every provider checks with `check_launch` (whose
        message names the sizes: `gpu.KNOWN_SIZES_ATTR`) before it runs anything."""
        same = b.insert(arith.ConstantOp(IntegerAttr(1, 1))).result
        for offset, kind in ((0, "grid"), (3, "block")):
            for d, size in enumerate(known.get(kind, ())):
                equal = arith.CmpiOp(sizes[offset + d], index(b, size), "eq")
                same = b.insert(arith.AndIOp(same, b.insert(equal).result)).result
        return b.insert(arith.SelectOp(same, n_groups, index(b, 0))).result

    def as_index(self, value: SSAValue, b: Builder) -> SSAValue:
        if isinstance(value.type, IndexType):
            return value
        return b.insert(arith.IndexCastOp(value, IndexType())).result

    def extent(self, ref: Ref, b: Builder) -> SSAValue:
        return ref.dims[0] if ref.dims else index(b, 1)


def keeps_copies(op: Operation) -> bool:
    """Whether host code's `op` leaves registered memory and its device copies as they are
    and ends no block: arithmetic, a cast, a `gpu.wait` (it copies back itself) and an async
    launch (it runs while the host goes on)."""
    if isinstance(op, gpu_ops.LaunchFuncOp | gpu_ops.LaunchOp):
        return bool(op.token)
    if isinstance(op, gpu_ops.WaitOp | memref_ops.CastOp):
        return True
    return op.dialect_name() in ("arith", "math") and not op.regions


HOST_OPS: OpTable = {
    **SHARED_OPS,
    **VECTOR_OPS,
    **STRIDED_OPS,
    **PARALLEL_OPS,
    **ASYNC_OPS,
    func.ReturnOp: HostImporter.host_return,
    func.CallOp: HostImporter.call,
    memref.AllocOp: HostImporter.host_alloc,
    memref.AllocaOp: HostImporter.host_alloc,
    memref.DeallocOp: HostImporter.dealloc,
    memref.GetGlobalOp: HostImporter.get_global,
    gpu_ops.AllocOp: HostImporter.gpu_alloc,
    gpu_ops.DeallocOp: HostImporter.gpu_dealloc,
    gpu_ops.MemcpyOp: HostImporter.memcpy,
    gpu_ops.MemsetOp: HostImporter.memset,
    gpu_ops.WaitOp: HostImporter.wait,
    gpu_ops.HostRegisterOp: HostImporter.register,
    gpu_ops.LaunchFuncOp: HostImporter.launch_func,
    gpu_ops.LaunchOp: HostImporter.launch_region,
    cf.AssertOp: HostImporter.host_assert,
}
"""The ops host code imports, by type (`SharedImporter.import_op`)."""


def captured_values(op: gpu_ops.LaunchOp) -> list[SSAValue]:
    """The values from outside a gpu.launch that its body uses, in the order of first use:
    the arguments of the kernel it becomes."""
    inside = {v for inner in op.body.walk() for v in inner.results}
    inside |= {a for block in op.body.blocks for a in block.args}
    for inner in op.body.walk():
        inside |= {a for region in inner.regions for block in region.blocks for a in block.args}
    captured: list[SSAValue] = []
    for inner in op.body.walk():
        for operand in inner.operands:
            if operand not in inside and operand not in captured:
                captured.append(operand)
    return captured
