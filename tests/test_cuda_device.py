"""The cuda provider where PyCUDA or a device is missing (a clear diagnostic, never a crash), and
on a CUDA device (skipped without one); the provider on a fake driver is in
`test_cuda_provider.py`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from example_args import EXAMPLE_ARGS
from kernels import SAXPY_UNGUARDED
from test_cuda_provider import SHARED, WILD, FakeDriver, examples, gpu_run_command

import gpuir
from gpuir.runtime.cuda import (
    CudaProvider,
    driver_api,
)
from gpuir.runtime.provider import ProviderError
from gpuir.tools import gpu_run

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent

# --- without PyCUDA or without a device -------------------------------------------------------------


def test_without_pycuda_the_provider_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "pycuda", None)
    monkeypatch.setitem(sys.modules, "pycuda.driver", None)
    assert CudaProvider.unavailable_reason().startswith("PyCUDA is not installed")
    from gpuir import runtime

    assert runtime.unavailable_reason("cuda").startswith(
        "the cuda provider is not available: PyCUDA is not installed"
    )
    assert runtime.resolve("auto") != "cuda"


def test_a_pycuda_that_cannot_load_the_driver_is_unavailable(monkeypatch):
    def broken():
        raise ImportError("libcuda.so.1: cannot open shared object file: No such file")

    monkeypatch.setattr(driver_api, "driver", broken)
    assert CudaProvider.unavailable_reason() == (
        "PyCUDA cannot load the CUDA driver: libcuda.so.1: cannot open shared object file: "
        "No such file"
    )


def test_no_device_is_unavailable(monkeypatch):
    fake = FakeDriver()

    def init():
        raise fake.Error("cuInit failed: no CUDA-capable device is detected")

    fake.init = init
    monkeypatch.setattr(driver_api, "driver", lambda: fake)
    assert CudaProvider.unavailable_reason() == (
        "no CUDA device (cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected))"
    )


def test_gpu_run_without_pycuda_is_a_diagnostic(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pycuda", None)
    monkeypatch.setitem(sys.modules, "pycuda.driver", None)
    status = gpu_run.main([str(EXAMPLES / "array.mlir"), "--provider", "cuda"])
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.startswith("gpu-run: error: the cuda provider is not available: PyCUDA is not")
    assert "Traceback" not in err


def test_gpu_run_without_a_device_exits_non_zero(tmp_path):
    reason = CudaProvider.unavailable_reason()
    if reason is None:
        pytest.skip("a CUDA device is present")
    done = subprocess.run(
        [*gpu_run_command(), str(EXAMPLES / "array.mlir"), "--provider", "cuda"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"gpu-run: error: the cuda provider is not available: {reason}\n"


# --- on a CUDA device -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gpu() -> None:
    """Skips unless PyCUDA imports and a CUDA device is present."""
    pytest.importorskip("pycuda", reason="PyCUDA is not installed")
    reason = CudaProvider.unavailable_reason()
    if reason is not None:
        pytest.skip(f"the cuda provider is not available: {reason}")


@pytest.mark.parametrize("example", examples(), ids=lambda p: p.stem)
def test_gpu_every_example_prints_what_interp_prints(gpu, example, capsys):
    args = EXAMPLE_ARGS.get(example.stem, [])
    expected = gpu_run.main([str(example), "--provider", "interp", *args]), capsys.readouterr()
    found = gpu_run.main([str(example), "--provider", "cuda", *args]), capsys.readouterr()
    assert expected[0] == 0, expected[1].err
    assert (found[0], found[1].out, found[1].err) == (0, expected[1].out, "")


def test_gpu_compiled_host_fills_a_vector_add_by_host_loops(gpu):
    vadd = (ROOT / "benchmarks" / "programs" / "vadd.mlir").read_text()
    n = 1 << 20
    a = np.arange(n, dtype=np.float32)
    expected = float(np.sum((a + 2 * a).astype(np.float64)))
    assert gpuir.compile(vadd, provider="cuda").main(n) == expected
    assert gpuir.compile(vadd, provider="cuda", interpret_host=True).main(1000) == 1498500.0


@pytest.mark.parametrize("name", ["copy-out-of-bounds", "double-free", "copy-after-free"])
def test_gpu_compiled_host_faults_are_those_of_the_interpreted_host(gpu, name, tmp_path, capsys):
    from test_compiled_host import FAULTS, fault_program

    body, line, words = FAULTS[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(fault_program(body))
    found = []
    for extra in ([], ["--interpret-host"]):
        status = gpu_run.main([str(path), "--provider", "cuda", *extra])
        found.append((status, *capsys.readouterr()))
    assert found[0] == found[1]
    status, out, err = found[0]
    assert (status, out) == (1, "")
    assert err.startswith(f"{path}:{line}:") and words in err


def test_gpu_launch_errors(gpu):
    with gpuir.Device("cuda") as device:
        program = device.compile(SAXPY_UNGUARDED + SHARED)  # SHARED: @shared was not compiled
        saxpy = program.kernel("saxpy")
        x = device.upload(np.arange(8, dtype=np.float32))
        with pytest.raises(ProviderError, match="invalid launch configuration") as error:
            saxpy(1, 4096, 8, 2.0, x, x)
        assert "per group" in str(error.value)
        out = device.upload(np.zeros(4, dtype=np.int32))  # @shared writes i32
        with pytest.raises(ProviderError, match="bytes of dynamic shared memory"):
            program.kernel("shared")(1, 4, out, smem_bytes=1 << 30)
        with pytest.raises(TypeError, match="takes 4 argument"):
            saxpy(1, 4, 8, 2.0, x)
        saxpy(2, 4, 4, 2.0, x, x)  # the device is still fine
        assert x.download().tolist() == [3 * v for v in range(8)]


FAULT_SCRIPT = """
import sys
import numpy as np
import gpuir
from gpuir.runtime.provider import ProviderError

try:
    gpuir.compile(open(sys.argv[1]).read(), "cuda").main()
except ProviderError as e:
    print("fault:", e.name)
with gpuir.Device("cuda") as device:  # a fresh session works after the fault
    x = device.upload(np.arange(4, dtype=np.float32))
    print("after:", x.download().tolist())
"""


def test_gpu_a_device_fault_is_a_diagnostic(gpu, tmp_path):
    program = tmp_path / "wild.mlir"
    program.write_text(WILD)
    done = subprocess.run(
        [*gpu_run_command(), str(program), "--provider", "cuda"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr
    assert "error: cuda: " in done.stderr and "note: launch of @wild" in done.stderr
    assert "Traceback" not in done.stderr
    script = tmp_path / "fault.py"
    script.write_text(FAULT_SCRIPT)
    again = subprocess.run(
        [sys.executable, str(script), str(program)], capture_output=True, text=True, timeout=120
    )
    assert again.stdout == "fault: CUDA_ERROR_ILLEGAL_ADDRESS\nafter: [0.0, 1.0, 2.0, 3.0]\n", (
        again.stderr
    )


def test_gpu_resident_buffers_and_the_cuda_array_interface(gpu):
    with gpuir.Device("cuda") as device:
        program = device.compile(SAXPY_UNGUARDED)
        x = device.upload(np.arange(1024, dtype=np.float32))
        y = device.upload(np.ones(1024, dtype=np.float32))
        program.kernel("saxpy")(8, 128, 128, 3.0, x, y)
        device.synchronize()
        assert np.array_equal(y.download(), 3 * np.arange(1024, dtype=np.float32) + 1)
        interface = y.__cuda_array_interface__
        assert interface["shape"] == (1024,) and interface["typestr"] == "<f4"
        assert interface["data"] == (y.pointer.allocation.address, False)
        with pytest.raises(AttributeError, match="not host-visible"):
            y.__array_interface__  # noqa: B018
        try:
            import cupy
        except Exception:  # CuPy is optional: the interface's fields are checked above
            cupy = None
        if cupy is not None:
            assert np.array_equal(cupy.asnumpy(cupy.asarray(y)), y.download())
    with pytest.raises(AttributeError, match="not CUDA device memory"):
        y.__cuda_array_interface__  # noqa: B018
