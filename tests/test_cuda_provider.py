"""The `cuda` provider (gpuir.runtime.cuda).

Everywhere: the argument format and values against the kernel parameters of the PTX, the target
(`sm`, PTX ISA) chosen for a device and driver, the dynamic shared memory a launch passes,
CUDA error names, `unavailable_reason()` without PyCUDA, `gpu-run --provider cuda` without a
device, and the provider's own work on a fake `pycuda.driver` (memory, copies, streams, the
packed arguments of a launch, the checks before a launch, a fault and the session after it;
no kernel runs).

With PyCUDA and a CUDA device (skipped otherwise, with the reason): every example prints under
`cuda` what it prints under `interp`; the compiled host (a vector add filled by host loops, its
faults as the interpreted host reports them); launch errors; a device fault; the resident-buffer API and
`__cuda_array_interface__`.
"""

from __future__ import annotations

import re
import shutil
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from kernels import SAXPY_UNGUARDED
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, f16, f32, f64, i1, i8, i32
from xdsl.parser import Parser

import gpuir
from gpuir.dialects import make_context
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.runtime import get_provider
from gpuir.runtime.cuda import (
    CudaProvider,
    DriverError,
    arg_format,
    arg_value,
    choose_target,
    driver_api,
    driver_ptx,
    min_smem_bytes,
)
from gpuir.runtime.interp import InterpProvider
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import LoadedModule, ProviderError, Stream
from gpuir.tools import gpu_run

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent


def gpu_run_command() -> list[str]:
    """How to start gpu-run: the venv's command, else the one on PATH, else the module."""
    if (BIN / "gpu-run").exists():
        return [str(BIN / "gpu-run")]
    found = shutil.which("gpu-run")
    return [found] if found else [sys.executable, "-m", "gpuir.tools.gpu_run"]


TOKENS = "%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index"
RESULTS = "(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)"
RETURN = "func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"

PARAMS_KERNEL = f"""
func.func @params({TOKENS}, %a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: f16, %h: f32,
                  %j: f64, %n: index, %p: !mem.ptr<!mem.array<? x f32>, 1>, %k: i8,
                  %q: !mem.ptr<i32, 1>) -> {RESULTS} attributes {{gpu.kernel}} {{
  {RETURN}
}}
"""

SHARED = f"""
func.func @shared({TOKENS}, %smem: !mem.ptr<!mem.array<4 x i32>, 3>,
                  %out: !mem.ptr<!mem.array<? x i32>, 1>) -> {RESULTS} attributes {{gpu.kernel}} {{
  {RETURN}
}}
"""

WILD = """
// A kernel that stores far outside any allocation: a device fault (CUDA_ERROR_ILLEGAL_ADDRESS).
func.func @wild(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %g: index, %i: index, %data: !mem.ptr<!mem.array<? x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %far = arith.constant 1099511627776 : index
  %p = mem.lea %data, %far : !mem.ptr<!mem.array<? x i32>, 1>
  %v = arith.constant 7 : i32
  %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
  %m0, %m1, %m4 = gpu.init %m
  %four = arith.constant 4 : index
  %a0, %host = mem.alloc %m0, %four : !mem.ptr<!mem.array<? x i32>, 0>
  %a1, %dev = gpu.alloc.block %m1, %four : !mem.ptr<!mem.array<? x i32>, 1>
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %l0, %l1, %l4 = gpu.launch @wild grid(%one, %one) stream(%s) mems(%a0, %a1, %m4)
      args(%dev) : (!mem.ptr<!mem.array<? x i32>, 1>)
  %c0, %c1 = gpu.copy_to_host.block %l0, %l1, %dev -> %host
      : !mem.ptr<!mem.array<? x i32>, 1> -> !mem.ptr<!mem.array<? x i32>, 0>
  %f1 = gpu.free.block %c1, %dev : !mem.ptr<!mem.array<? x i32>, 1>
  %done = gpu.deinit %c0, %f1, %l4
  %zero = arith.constant 0 : i32
  func.return %done, %zero : !mem.M<0>, i32
}
"""


def examples() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.mlir") if not p.name.startswith("invalid-"))


def parse(text: str):
    module = Parser(make_context(), text, "kernels.mlir").parse_module()
    module.verify()
    return module


def host_pointer(data: bytes, pointee=None) -> Pointer:
    pointee = pointee or ArrayType(len(data), i8)
    allocation = Allocation(0, len(data), pointee)
    assert allocation.data is not None
    allocation.data[:] = np.frombuffer(data, np.uint8)
    return Pointer(allocation, 0, pointee)


# --- the kernel ABI: argument format and values ------------------------------------------------


def ptx_param_offsets(ptx: str, kernel: str) -> list[tuple[int, int]]:
    """(offset, size) of each `.param` of `kernel`, laid out as CUDA lays out a parameter
    buffer: each parameter at the next multiple of its alignment."""
    entry = re.search(rf"\.entry {kernel}\((.*?)\)", ptx, re.S)
    assert entry is not None
    sizes = {"8": 1, "16": 2, "32": 4, "64": 8}
    offsets, offset = [], 0
    for line in entry.group(1).splitlines():
        if ".param" not in line:
            continue
        if m := re.search(r"\.align (\d+) \.b8 \w+\[(\d+)\]", line):
            align, size = int(m.group(1)), int(m.group(2))
        else:
            m = re.search(r"\.param \.[a-z](\d+)", line)
            assert m is not None, line
            align = size = sizes[m.group(1)]
        offset = (offset + align - 1) // align * align
        offsets.append((offset, size))
        offset += size
    return offsets


def struct_offsets(fmt: str) -> list[tuple[int, int]]:
    """(offset, size) of each field of a native-aligned `struct` format (as PyCUDA packs)."""
    result = []
    for i, char in enumerate(fmt):
        size = struct.calcsize(char)
        end = struct.calcsize(fmt[: i + 1])
        result.append((end - size, size))
    return result


def test_the_argument_format_lays_out_arguments_as_the_ptx_parameters():
    from gpuir.lowering.nvptx.ptx import PtxOptions, compile_ptx
    from gpuir.lowering.targets import lowered_device_module

    module = parse(PARAMS_KERNEL)
    func = next(iter(module.ops))
    params = func.function_type.inputs.data[6:]
    fmt = arg_format(params)
    assert fmt == "BBHIQHfdQPBP"
    ptx = compile_ptx(lowered_device_module(make_context(), module), PtxOptions(sm=90))
    assert struct_offsets(fmt) == ptx_param_offsets(ptx, "params")


def test_argument_values_are_what_the_kernel_reads():
    allocation = Allocation(1, 64, ArrayType(16, f32), host_visible=False, address=0x7000_0000)
    pointer = Pointer(allocation, 8, f32)
    types = [i1, i8, i32, IndexType(), f16, f32, f64, PtrType(f32, 1)]
    values = [1, -1, -2, -1, np.float16(1.0), np.float32(0.1), np.float64(-2.5), pointer]
    packed = struct.pack(
        arg_format(types), *(arg_value(v, t) for v, t in zip(values, types, strict=True))
    )
    expected = struct.pack(
        "BBIQHfdP", 1, 0xFF, 0xFFFF_FFFE, 2**64 - 1, 0x3C00, np.float32(0.1), -2.5, 0x7000_0008
    )
    assert packed == expected
    f32_offset = struct_offsets("BBIQHf")[5][0]
    assert f32_offset == 20 and struct.unpack_from("f", packed, f32_offset)[0] == np.float32(0.1)


@pytest.mark.parametrize("type_", [IntegerType(24), IntegerType(128), IntegerType(7)])
def test_integer_arguments_of_other_widths_are_refused(type_):
    with pytest.raises(ValueError, match=f"1, 8, 16, 32 or 64 bits, not {type_}"):
        arg_format([type_])


# --- the target ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("capability", "driver", "target"),
    [
        ((9, 0), 13000, (90, 8.0)),  # H100/H200, CUDA 13 driver: sm_90, PTX 8.0
        ((8, 0), 12020, (80, 8.0)),
        ((8, 6), 11080, (86, 7.8)),  # an old driver: the newest PTX it accepts
        ((9, 0), 11080, (90, 7.8)),
        ((10, 0), 12080, (100, 8.6)),  # sm_100 needs PTX 8.6
        ((12, 0), 12090, (120, 8.7)),
        ((8, 9), 12000, (89, 8.0)),
        ((7, 5), 10020, (75, 6.5)),
        ((15, 0), 13000, (121, 8.8)),  # newer than LLVM knows: the newest sm it knows
    ],
)
def test_the_target_follows_the_device_and_the_driver(capability, driver, target):
    assert choose_target(capability, driver) == target


def test_a_device_or_driver_too_old_is_a_clear_error():
    with pytest.raises(ValueError, match="older than sm_50"):
        choose_target((3, 5), 12000)
    with pytest.raises(ValueError, match=r"\(11\.7\) accepts PTX ISA up to 7\.7; sm_90 needs 7\.8"):
        choose_target((9, 0), 11070)
    assert driver_ptx(9020) == 0 and driver_ptx(12060) == 85 and driver_ptx(13020) == 90


# --- dynamic shared memory ------------------------------------------------------------------------


class RecordingProvider(InterpProvider):
    """interp, recording the dynamic shared memory of each launch."""

    def __init__(self) -> None:
        super().__init__()
        self.smem: list[int] = []

    def launch(self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None):
        self.smem.append(smem_bytes)
        super().launch(module, kernel, n_groups, n_items, smem_bytes, stream, args, op=op)


SMEM_PROGRAM = f"""
func.func @dyn({TOKENS}, %smem: !mem.ptr<!mem.array<? x f64>, 3>) -> {RESULTS} {{
  {RETURN}
}}
func.func @fixed({TOKENS}, %smem: !mem.ptr<!mem.array<3 x !mem.array<5 x i16>>, 3>)
    -> {RESULTS} {{
  {RETURN}
}}
func.func @main(%m: !mem.M<0>, %n: index) -> !mem.M<0> {{
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %a0, %a1, %a4 = gpu.launch @dyn grid(%one, %one) stream(%s) smem(!mem.array<? x f64>, %n)
      mems(%m0, %m1, %m4) args() : ()
  %b0, %b1, %b4 = gpu.launch @fixed grid(%one, %one) stream(%s)
      smem(!mem.array<3 x !mem.array<5 x i16>>) mems(%a0, %a1, %a4) args() : ()
  %done = gpu.deinit %b0, %b1, %b4
  func.return %done : !mem.M<0>
}}
"""


def test_a_launch_passes_the_size_of_its_shared_memory_type():
    """sharedMemBytes = extent * sizeof(element) for `!mem.array<? x T>`, sizeof(T) else."""
    provider = RecordingProvider()
    program = gpuir.compile(SMEM_PROGRAM, provider)
    program.main(5)
    assert provider.smem == [5 * 8, 3 * 5 * 2]


def test_the_least_shared_memory_a_kernel_takes():
    assert min_smem_bytes(ArrayType(4, i32)) == 16
    assert min_smem_bytes(ArrayType(DYNAMIC_INDEX, i32)) == 0
    assert min_smem_bytes(f64) == 8


# --- errors ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "name", "detail"),
    [
        ("cuMemcpyDtoH failed: an illegal memory access was encountered",
         "CUDA_ERROR_ILLEGAL_ADDRESS", ""),
        ("cuMemAlloc failed: out of memory", "CUDA_ERROR_OUT_OF_MEMORY", ""),
        ("cuModuleLoadDataEx failed: a PTX JIT compilation failed - ptxas fatal: bad",
         "CUDA_ERROR_INVALID_PTX", "ptxas fatal: bad"),
        ("cuInit failed: no CUDA-capable device is detected", "CUDA_ERROR_NO_DEVICE", ""),
        ("cuFoo failed: something new", "CUDA error", ""),
    ],
)  # fmt: skip
def test_driver_errors_get_their_cuda_names(message, name, detail):
    parsed = DriverError.parse(message)
    assert (parsed.name, parsed.detail) == (name, detail)
    assert parsed.describe().startswith(f"{message.split(' failed: ')[0]} failed: {name} (")


# --- the provider on a fake driver -----------------------------------------------------------------


class FakeError(Exception):
    pass


class FakeDriver:
    """A stand-in for `pycuda.driver`: device memory in bytearrays, launches recorded (packed
    as PyCUDA packs them), faults on demand. No kernel runs."""

    Error = FakeError
    device_attribute = SimpleNamespace(
        MAX_THREADS_PER_BLOCK="MAX_THREADS_PER_BLOCK",
        MAX_GRID_DIM_X="MAX_GRID_DIM_X",
        MAX_SHARED_MEMORY_PER_BLOCK_OPTIN="MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
    )
    function_attribute = SimpleNamespace(
        MAX_THREADS_PER_BLOCK="MAX_THREADS_PER_BLOCK",
        SHARED_SIZE_BYTES="SHARED_SIZE_BYTES",
        MAX_DYNAMIC_SHARED_SIZE_BYTES="MAX_DYNAMIC_SHARED_SIZE_BYTES",
    )

    def __init__(self, kernel_max_threads: int = 1024):
        self.memory: dict[int, bytearray] = {}
        self.next_address = 0x7F00_0000_0000
        self.launches: list[dict[str, object]] = []
        self.ptx: list[str] = []
        self.stack: list[str] = []
        self.released = 0
        self.fault: str | None = None
        self.kernel_max_threads = kernel_max_threads
        self.next_stream = 0x5000
        self.on_launch: Callable[[str, tuple, tuple], None] | None = None
        self.globals: dict[str, int] = {}
        """The device addresses of the loaded modules' globals, by name (the last module's)."""
        fake = self

        class Context:
            def push(self):
                fake.stack.append("primary")

            @staticmethod
            def pop():
                fake.stack.pop()

            def detach(self):
                fake.released += 1
                fake.fault = None  # the context is destroyed with its error

            @staticmethod
            def synchronize():
                fake.raise_fault("cuCtxSynchronize")

        class Device:
            def __init__(self, ordinal: int):
                assert ordinal == 0

            @staticmethod
            def count() -> int:
                return 1

            def get_attribute(self, attribute: str) -> int:
                limits = {
                    "MAX_THREADS_PER_BLOCK": 1024,
                    "MAX_GRID_DIM_X": 2**31 - 1,
                    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 232448,
                }
                return limits[attribute]

            def compute_capability(self) -> tuple[int, int]:
                return (9, 0)

            def retain_primary_context(self) -> Context:
                return Context()

        class DeviceAllocation:
            def __init__(self, address: int):
                self.address = address

            def __int__(self) -> int:
                return self.address

            def free(self) -> None:
                fake.raise_fault("cuMemFree")
                del fake.memory[self.address]

        class FakeStream:
            def __init__(self):
                self.handle = fake.next_stream
                fake.next_stream += 16

            def synchronize(self):
                fake.raise_fault("cuStreamSynchronize")

        class Function:
            def __init__(self, name: str):
                self.name = name
                self.arg_format = None
                self.attributes: dict[str, int] = {}

            def prepare(self, fmt: str):
                self.arg_format = fmt
                return self

            def get_attribute(self, attribute: str) -> int:
                return {
                    "MAX_THREADS_PER_BLOCK": fake.kernel_max_threads,
                    "SHARED_SIZE_BYTES": 0,
                    "MAX_DYNAMIC_SHARED_SIZE_BYTES": 48 * 1024,
                }[attribute]

            def set_attribute(self, attribute: str, value: int) -> None:
                self.attributes[attribute] = value

            def prepared_async_call(self, grid, block, stream, *args, shared_size=0):
                fake.raise_fault("cuLaunchKernel")
                if fake.on_launch is not None:  # what the kernel would do on a device
                    fake.on_launch(self.name, grid, block)
                fake.launches.append(
                    {
                        "kernel": self.name,
                        "grid": grid,
                        "block": block,
                        "stream": stream,
                        "format": self.arg_format,
                        "buffer": struct.pack(self.arg_format, *args),
                        "shared_size": shared_size,
                    }
                )

        class Module:
            def __init__(self, ptx: str):
                self.ptx = ptx
                self.globals: dict[str, int] = {}

            def get_global(self, name: str) -> tuple[object, int]:
                match = re.search(rf"\.visible \.global \.align \d+ \.u64 {name};", self.ptx)
                if match is None:
                    raise FakeError("cuModuleGetGlobal failed: named symbol not found")
                if name not in self.globals:
                    self.globals[name] = fake.mem_alloc(8).address
                    fake.globals[name] = self.globals[name]
                return fake.DeviceAllocation(self.globals[name]), 8

            def get_function(self, name: str) -> Function:
                if f".entry {name}(" not in self.ptx:
                    raise FakeError("cuModuleGetFunction failed: named symbol not found")
                return Function(name)

        self.Context, self.Device, self.Stream = Context, Device, FakeStream
        self.DeviceAllocation, self.Module = DeviceAllocation, Module

    def raise_fault(self, routine: str) -> None:
        if self.fault is not None:
            raise FakeError(f"{routine} failed: {self.fault}")

    def init(self) -> None:
        pass

    def get_driver_version(self) -> int:
        return 13000

    def mem_alloc(self, nbytes: int):
        self.raise_fault("cuMemAlloc")
        address = self.next_address
        self.next_address += (nbytes + 511) // 256 * 256
        self.memory[address] = bytearray(nbytes)
        return self.DeviceAllocation(address)

    def _at(self, address: int, nbytes: int) -> tuple[bytearray, int]:
        for base, data in self.memory.items():
            if base <= address and address + nbytes <= base + len(data):
                return data, address - base
        raise FakeError("cuMemcpy failed: invalid argument")

    def memcpy_htod(self, address: int, data: np.ndarray, stream=None) -> None:
        self.raise_fault("cuMemcpyHtoD")
        memory, offset = self._at(address, len(data))
        memory[offset : offset + len(data)] = bytes(data)

    def memcpy_dtoh(self, data: np.ndarray, address: int, stream=None) -> None:
        self.raise_fault("cuMemcpyDtoH")
        memory, offset = self._at(address, len(data))
        data[:] = np.frombuffer(bytes(memory[offset : offset + len(data)]), np.uint8)

    memcpy_htod_async = memcpy_htod
    memcpy_dtoh_async = memcpy_dtoh

    def module_from_buffer(self, ptx: bytes):
        self.ptx.append(ptx.decode())
        return self.Module(ptx.decode())


@pytest.fixture
def fake(monkeypatch) -> FakeDriver:
    driver = FakeDriver()
    monkeypatch.setattr(driver_api, "driver", lambda: driver)
    return driver


def test_fake_a_session_retains_and_releases_the_primary_context(fake):
    provider = get_provider("cuda")
    provider.open()
    assert fake.stack == ["primary"]
    provider.close()
    assert fake.stack == [] and fake.released == 1
    with pytest.raises(ProviderError, match="needs an open device"):
        provider.alloc(4, i32)


def test_fake_memory_and_copies(fake):
    provider = CudaProvider()
    provider.open()
    ptr = provider.alloc(8, ArrayType(8, i8))
    assert ptr.allocation.data is None and ptr.allocation.address in fake.memory
    provider.copy_to_device(ptr, host_pointer(b"abcdefgh"), 8)
    assert fake.memory[ptr.allocation.address] == bytearray(b"abcdefgh")
    back = host_pointer(bytes(8))
    provider.copy_to_host(back, ptr, 8, stream=provider.default_stream())
    assert bytes(back.allocation.data) == b"abcdefgh"
    with pytest.raises(ProviderError, match="out of bounds: reads 9 bytes at byte offset 0"):
        provider.copy_to_host(host_pointer(bytes(9)), ptr, 9)
    with pytest.raises(ProviderError, match="source is global memory, expected host memory"):
        provider.copy_to_device(ptr, ptr, 8)
    provider.free(ptr)
    assert ptr.allocation.address not in fake.memory
    with pytest.raises(ProviderError, match="use after free") as error:
        provider.free(ptr)
    assert error.value.name == "use after free"
    provider.close()


def test_fake_streams(fake):
    provider = CudaProvider()
    provider.open()
    stream = provider.create_stream()
    assert stream.handle != 0
    ptr = provider.alloc(4, i32, stream=stream)
    provider.copy_to_device(ptr, host_pointer(b"\x01\x00\x00\x00", i32), 4, stream=stream)
    provider.free(ptr, stream=stream)
    provider.sync_stream(stream)
    provider.destroy_stream(stream)
    with pytest.raises(ProviderError, match=r"Stream\(\d+\) does not exist") as error:
        provider.sync_stream(stream)
    assert error.value.name == "invalid stream"
    with pytest.raises(ProviderError, match="default stream cannot be destroyed"):
        provider.destroy_stream(Stream(0))
    provider.close()


def test_fake_a_launch_packs_its_arguments_by_the_kernel_abi(fake):
    provider = CudaProvider()
    provider.open()
    loaded = provider.load_module(parse(PARAMS_KERNEL + SAXPY_UNGUARDED + SHARED))
    assert ".target sm_90" in fake.ptx[0] and ".version 8.0" in fake.ptx[0]
    x = provider.alloc(64, ArrayType(DYNAMIC_INDEX, f32), 16)
    q = provider.alloc(4, i32)
    types = [i1, i8, IntegerType(16), i32, IntegerType(64), f16, f32, f64, IndexType(),
             PtrType(ArrayType(DYNAMIC_INDEX, f32), 1), i8, PtrType(i32, 1)]  # fmt: skip
    values = [1, -3, 513, -1, 2**40, np.float16(-2), np.float32(1.5), np.float64(0.25), 7,
              x.lea(2), 5, q]  # fmt: skip
    provider.launch(loaded, "params", 3, 32, 0, Stream(0), list(zip(values, types, strict=True)))
    launch = fake.launches[-1]
    assert (launch["grid"], launch["block"], launch["stream"]) == ((3, 1), (32, 1, 1), None)
    assert launch["format"] == "BBHIQHfdQPBP"
    assert launch["buffer"] == struct.pack(
        "BBHIQHfdQPBP", 1, 253, 513, 2**32 - 1, 2**40, 0xC000, 1.5, 0.25, 7,
        x.allocation.address + 8, 5, q.allocation.address,
    )  # fmt: skip
    provider.launch(
        loaded, "shared", 1, 4, 16, Stream(0), [(x, PtrType(ArrayType(DYNAMIC_INDEX, i32), 1))]
    )
    assert fake.launches[-1]["shared_size"] == 16
    provider.close()


def open_saxpy() -> tuple[CudaProvider, LoadedModule, Pointer, list]:
    """A session on the fake driver with SAXPY_UNGUARDED and SHARED loaded, a 64-byte `y` and the
    arguments of `saxpy` over it (n = 4, a = 2, x = y = `y`) with their types."""
    provider = CudaProvider()
    provider.open()
    loaded = provider.load_module(parse(SAXPY_UNGUARDED + SHARED))
    y = provider.alloc(64, ArrayType(DYNAMIC_INDEX, f32), 16)
    ptr_type = PtrType(ArrayType(DYNAMIC_INDEX, f32), 1)
    args = [(4, IndexType()), (np.float32(2), f32), (y, ptr_type), (y, ptr_type)]
    return provider, loaded, y, args


def test_fake_launches_are_checked_before_they_reach_the_driver(fake):
    fake.kernel_max_threads = 256
    provider, loaded, y, args = open_saxpy()
    shared_args = [(y, PtrType(ArrayType(DYNAMIC_INDEX, i32), 1))]
    cases = [
        (("saxpy", 1, 512, 0), "512 work-items per group, but this device runs at most 256"),
        (("saxpy", 0, 4, 0), "0 work-group"),
        (("saxpy", 2**31, 4, 0), "2147483648 work-groups, but this device runs at most"),
        (("shared", 1, 4, 8), r"takes a shared pointer to !mem.array<4 x i32> \(16 bytes\)"),
        (("shared", 1, 4, 300_000), "300000 bytes of dynamic shared memory"),
        (("nothing", 1, 4, 0), "no kernel named @nothing"),
    ]
    for (kernel, groups, items, smem), message in cases:
        kernel_args = args if kernel == "saxpy" else shared_args
        with pytest.raises(ProviderError, match=message):
            provider.launch(loaded, kernel, groups, items, smem, Stream(0), kernel_args)
    with pytest.raises(ProviderError, match="@saxpy takes 4 argument"):
        provider.launch(loaded, "saxpy", 1, 4, 0, Stream(0), args[:3])
    host = host_pointer(bytes(64), ArrayType(DYNAMIC_INDEX, f32))
    with pytest.raises(ProviderError, match="argument 2 of @saxpy points to a 64-byte host"):
        provider.launch(
            loaded, "saxpy", 1, 4, 0, Stream(0), [*args[:2], (host, args[2][1]), args[3]]
        )
    assert fake.launches == []
    provider.launch(loaded, "shared", 1, 4, 64 * 1024, Stream(0), shared_args)  # opts in: > 48 KiB
    assert len(fake.launches) == 1
    provider.close()


def test_fake_a_fault_is_reported_at_the_next_call_and_ends_the_session(fake):
    provider, loaded, y, args = open_saxpy()
    provider.launch(loaded, "saxpy", 4, 4, 0, Stream(0), args)
    fake.fault = "an illegal memory access was encountered"
    with pytest.raises(ProviderError) as error:
        provider.copy_to_host(host_pointer(bytes(64)), y, 64)
    assert error.value.name == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert str(error.value).startswith(
        "cuda: cuMemcpyDtoH failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
        "encountered); a kernel faulted, and the device reports a fault at the first call after "
        "it (launches not yet waited for: @saxpy)"
    )
    with pytest.raises(ProviderError, match="the device faulted earlier in this session"):
        provider.alloc(4, i32)
    provider.close()  # no second report of the fault
    assert fake.stack == [] and y.allocation.freed
    provider.open()  # a fresh context
    provider.alloc(4, i32)
    provider.close()


def test_fake_a_kernel_that_is_not_lowered_is_a_compile_error(fake):
    collective = f"""
    func.func @reduce({TOKENS}, %one: f128) -> {RESULTS} attributes {{gpu.kernel}} {{
      %n1, %n3, %s = gpu.workgroup_reduce "add" %m1, %m3, %one : f128
      func.return %n1, %n3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }}"""
    provider = CudaProvider()
    provider.open()
    with pytest.raises(ProviderError, match="cannot compile the device module to PTX for sm_90"):
        provider.load_module(parse(collective))
    provider.close()


def test_fake_gpu_run_launches_the_dynamic_shared_memory_example(fake, capsys):
    """End to end through gpu-run: the launch's grid, block, packed arguments and
    sharedMemBytes (4 items x 4 bytes); the kernel does not run, so main's sum is 0."""
    status = gpu_run.main([str(EXAMPLES / "dynamic-shared-memory.mlir"), "--provider", "cuda"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (0, "0\n", "")
    (launch,) = fake.launches
    assert launch["kernel"] == "neighbours" and launch["format"] == "QP"
    assert (launch["grid"], launch["block"], launch["shared_size"]) == ((2, 1), (4, 1, 1), 16)
    assert struct.unpack("QP", launch["buffer"])[0] == 4
    assert fake.stack == [] and fake.memory == {}


PRINTING = """
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
             %group: index, %item: index, %x: f32)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  printf.print_format "item {}: {}\\n", %item : index, %x : f32
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %s = gpu.default_stream
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  %x = arith.constant 0.1 : f32
  printf.print_format "host: before\\n"
  %l0, %l1, %l4 = gpu.launch @k grid(%one, %two) stream(%s) mems(%m0, %m1, %m4) args(%x) : (f32)
  printf.print_format "host: after\\n"
  %e = gpu.deinit %l0, %l1, %l4
  func.return %e : !mem.M<0>
}
"""


def fake_records(fake: FakeDriver, records: list[bytes], claim: int | None = None) -> None:
    """What a printing kernel does on a device: claim room at the cursor, write its records."""

    def on_launch(name: str, grid: tuple, block: tuple) -> None:
        def word(name: str) -> int:
            data, offset = fake._at(fake.globals[name], 8)  # noqa: SLF001
            return int.from_bytes(data[offset : offset + 8], "little")

        assert word("__gpuir_print_cursor") == 0  # each launch starts with an empty buffer
        assert word("__gpuir_print_capacity") == 1 << 20
        buffer, offset = fake._at(word("__gpuir_print_buffer"), 1 << 20)  # noqa: SLF001
        data = b"".join(records)
        buffer[offset : offset + len(data)] = data
        cursor, at = fake._at(fake.globals["__gpuir_print_cursor"], 8)  # noqa: SLF001
        cursor[at : at + 8] = (len(data) if claim is None else claim).to_bytes(8, "little")

    fake.on_launch = on_launch


def record(ident: int, *slots: bytes) -> bytes:
    return struct.pack("<q", ((ident + 1) << 32) | len(slots)) + b"".join(slots)


def test_fake_kernel_printf_is_formatted_from_the_print_buffer(fake, tmp_path, capsys):
    path = tmp_path / "printing.mlir"
    path.write_text(PRINTING)
    tenth = struct.pack("<d", float(np.float32(0.1)))  # the f32 widened, as the kernel stores it
    fake_records(fake, [record(0, struct.pack("<q", i), tenth) for i in (1, 0)])
    status = gpu_run.main([str(path), "--provider", "cuda"])
    captured = capsys.readouterr()
    assert (status, captured.err) == (0, "")
    assert captured.out == "host: before\nitem 1: 0.1\nitem 0: 0.1\nhost: after\n"
    assert "atom.global.add.u64" in fake.ptx[-1]


def test_fake_kernel_printf_that_overflows_is_cut_with_a_warning(fake, tmp_path, capsys):
    path = tmp_path / "printing.mlir"
    path.write_text(PRINTING)
    tenth = struct.pack("<d", 0.5)
    fake_records(fake, [record(0, struct.pack("<q", 3), tenth)], claim=(1 << 20) + 48)
    status = gpu_run.main([str(path), "--provider", "cuda"])
    captured = capsys.readouterr()
    assert status == 0
    assert captured.out == "host: before\nitem 3: 0.5\nhost: after\n"
    assert "warning: cuda: the printf output of @k was cut: 48 bytes of records did not fit" in (
        captured.err
    )
