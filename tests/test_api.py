"""The Python API: gpuir.compile, Program.main, and resident buffers on a Device."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from kernels import SAXPY_UNGUARDED, constants, if_then, item_load, kernel

import gpuir
from gpuir.api import CompileError, KernelNotFound
from gpuir.runtime.provider import ProviderError

EXAMPLES = Path(__file__).parent.parent / "examples"

BLOCK_SUM = kernel(
    "block_sum",
    "%group: index, %item: index, %smem: !mem.ptr<!mem.array<? x i32>, 3>,"
    " %x: !mem.ptr<!mem.array<? x i32>, 1>, %out: !mem.ptr<!mem.array<? x i32>, 1>",
    constants(n=4)
    + item_load("%a1, %v", "%x", "i32")
    + """
  %ps = mem.lea %smem, %item : !mem.ptr<!mem.array<? x i32>, 3>
  %a3 = mem.store %m3, %ps, %v : !mem.ptr<i32, 3>
  %b1, %b3, %s = gpu.workgroup_reduce "add" %a1, %a3, %v : i32
  %po = mem.lea %out, %group : !mem.ptr<!mem.array<? x i32>, 1>
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %item, %zero : index
"""
    + if_then("%r1", "%first", "    %c1 = mem.store %b1, %po, %s : !mem.ptr<i32, 1>", "%c1", "%b1"),
    "%r1, %b3, %m4, %m5",
)
KERNELS = SAXPY_UNGUARDED + BLOCK_SUM


# --- compile and main ----------------------------------------------------------------------------


def test_compile_and_main_return_numpy_scalars():
    program = gpuir.compile(EXAMPLES.joinpath("no-arguments.mlir").read_text())
    result = program.main(41)
    assert result == 41 and type(result) is np.int32
    assert program.main(np.int32(-3)) == -3
    assert gpuir.compile(EXAMPLES / "two-configurations.mlir").main() == (0, 24)
    assert gpuir.compile(EXAMPLES / "simple.mlir").main() is None


def test_main_output_goes_to_out():
    out = io.StringIO()
    gpuir.compile(EXAMPLES / "bias_relu.mlir", out=out).main()
    assert out.getvalue() == "4, 0, 0, 8, \n0, 13, 9, 0, \n"


def test_main_checks_its_arguments():
    program = gpuir.compile(EXAMPLES / "no-arguments.mlir")
    with pytest.raises(TypeError, match=r"@main takes 1 argument\(s\) \(i32\), got 0"):
        program.main()
    with pytest.raises(
        TypeError, match="argument 0 of @main: expected an integer for i32, got 1.5"
    ):
        program.main(1.5)
    with pytest.raises(TypeError, match="does not fit in i32"):
        program.main(2**40)
    with pytest.raises(ValueError, match=r"3000000000 does not fit in i32 \(from -2147483648 to"):
        program.main(3_000_000_000)  # a number out of range (its bits would be a negative i32)
    assert program.main(np.uint32(3_000_000_000)) == program.main(3_000_000_000 - 2**32)


def test_compile_errors_are_located_diagnostics():
    with pytest.raises(CompileError, match=r"<string>:1:\d+: error: "):
        gpuir.compile("func.func @main(%m: !mem.M<7>) -> ()")
    with pytest.raises(CompileError, match="across the device boundary"):
        gpuir.compile(EXAMPLES / "invalid-token-argument.mlir")


def test_runtime_errors_are_provider_errors():
    program = gpuir.compile(Path(__file__).parent / "lit" / "run" / "out-of-bounds.mlir")
    with pytest.raises(ProviderError, match="out of bounds: work-item") as e:
        program.main()
    assert e.value.name == "out of bounds" and e.value.op.name == "mem.store"


def test_kernel_lookup_lists_the_kernels():
    program = gpuir.compile(KERNELS)
    assert program.kernels == ("block_sum", "saxpy")
    with pytest.raises(
        KernelNotFound, match="no kernel named 'sax'; the kernels are: block_sum, saxpy"
    ):
        program.kernel("sax")
    assert isinstance(KernelNotFound("x"), KeyError)
    with pytest.raises(KernelNotFound, match="the kernels are: kernel"):
        gpuir.compile(EXAMPLES / "simple.mlir").kernel("main")


# --- resident buffers ---------------------------------------------------------------------------


def test_upload_launch_many_times_download():
    with gpuir.Device("interp") as device:
        program = device.compile(KERNELS)
        saxpy = program.kernel("saxpy")
        x = device.upload(np.arange(16, dtype=np.float32))
        y = device.upload(np.ones(16, dtype=np.float32))
        for _ in range(3):
            saxpy(4, 4, 4, 0.5, x, y)
        device.synchronize()
        expected = np.ones(16, np.float32)
        for _ in range(3):
            expected = np.float32(0.5) * np.arange(16, dtype=np.float32) + expected
        assert np.array_equal(y.download(), expected)
        view = np.asarray(y)  # interp's device memory is host memory: no copy
        assert np.array_equal(view, expected) and view.dtype == np.float32
        y.upload(np.zeros(16))
        assert not view.any()
    assert not device.is_open


def test_dynamic_shared_memory_and_collectives_through_the_api():
    with gpuir.Device() as device:
        program = device.compile(KERNELS)
        x = device.upload(np.arange(12, dtype=np.int32))
        out = device.empty(3, np.int32)
        program.kernel("block_sum")(3, 4, x, out, smem_bytes=16)
        assert list(out.download()) == [6, 22, 38]
        with pytest.raises(TypeError, match="takes dynamic shared memory: pass smem_bytes="):
            program.kernel("block_sum")(3, 4, x, out)


def test_kernel_arguments_are_checked():
    with gpuir.Device() as device:
        saxpy = device.compile(KERNELS).kernel("saxpy")
        x = device.upload(np.arange(4, dtype=np.float32))
        ints = device.upload(np.arange(4, dtype=np.int32))
        with pytest.raises(TypeError, match=r"@saxpy takes 4 argument\(s\)"):
            saxpy(1, 4, 4, 0.5, x)
        with pytest.raises(TypeError, match="argument 3 of @saxpy is .*, got a buffer of int32"):
            saxpy(1, 4, 4, 0.5, x, ints)
        with pytest.raises(
            TypeError, match="argument 2 of @saxpy is .*: pass a Buffer, got ndarray"
        ):
            saxpy(1, 4, 4, 0.5, np.zeros(4, np.float32), x)
        with gpuir.Device() as other:
            elsewhere = other.upload(np.zeros(4, np.float32))
            with pytest.raises(TypeError, match="the buffer lives on another device"):
                saxpy(1, 4, 4, 0.5, x, elsewhere)


def test_a_race_through_the_api():
    with gpuir.Device() as device:
        saxpy = device.compile(KERNELS).kernel("saxpy")
        x = device.upload(np.arange(8, dtype=np.float32))
        # n = 0: every group computes the same 4 indices, so groups race on y.
        with pytest.raises(
            ProviderError, match=r"race on global memory: work-item \(group 1, item 0\)"
        ):
            saxpy(2, 4, 0, 0.5, x, x)


def test_buffers_die_with_their_device():
    device = gpuir.Device().open()
    buffer = device.upload(np.arange(3))
    assert buffer.shape == (3,) and buffer.nbytes == 24
    device.close()
    with pytest.raises(AttributeError, match="not host-visible"):
        buffer.__array_interface__  # noqa: B018
    assert not hasattr(buffer, "__array_interface__")
    with pytest.raises(ProviderError, match="needs an open device"):
        buffer.download()


def test_streams_and_main_on_an_open_device():
    with gpuir.Device() as device:
        stream = device.stream()
        x = device.upload(np.arange(4, dtype=np.float32), stream=stream)
        device.synchronize(stream)
        assert list(x.download(stream=stream)) == [0, 1, 2, 3]
        device.destroy_stream(stream)
        # main's gpu.init joins the open session and leaves the device open
        program = device.compile(EXAMPLES / "manual-streams.mlir")
        assert program.main(1) == 84
        assert device.is_open


def test_a_module_is_copied_not_changed():
    from xdsl.parser import Parser

    from gpuir.dialects import make_context

    module = Parser(make_context(), EXAMPLES.joinpath("array.mlir").read_text()).parse_module()
    before = str(module)
    assert gpuir.compile(module).main() == 60
    assert str(module) == before


def test_a_pipeline_may_name_any_registered_pass():
    text = (EXAMPLES / "array.mlir").read_text()
    program = gpuir.compile(text, provider="cpu", pipeline="gpu-pipeline,convert-scf-while-to-cf")
    assert program.main() == 60


def test_a_plugin_pass_works_from_the_api(tmp_path):
    plugin = Path(__file__).parent / "lit" / "plugins" / "Inputs" / "count_launches.py"
    assert gpuir.load_plugin(str(plugin)) == ["count-launches"]
    assert gpuir.load_plugin(str(plugin)) == ["count-launches"]  # once
    program = gpuir.compile(
        EXAMPLES / "array.mlir", provider="cpu", pipeline="gpu-pipeline,count-launches"
    )
    assert program.main() == 60
    assert program.module.attributes["count.launches"].value.data == 1


def test_a_plugin_that_cannot_load_is_a_plugin_error(tmp_path):
    from gpuir.ir.plugins import PluginError

    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no')\n")
    with pytest.raises(
        PluginError, match=r"cannot load the plugin '.*broken.py': RuntimeError: no"
    ):
        gpuir.load_plugin(str(broken))


def test_an_installed_plugin_is_found_by_its_entry_point(tmp_path):
    """A package that names its plugin module in the `gpuir.plugins` entry-point group (here a
    distribution's metadata on the path, as `pip install` leaves it): gpu-opt, gpu-run and the
    API know its passes without --load-pass-plugin."""
    import subprocess
    import sys

    site = tmp_path / "site"
    site.mkdir()
    source = Path(__file__).parent / "lit" / "plugins" / "Inputs" / "count_launches.py"
    (site / "counting_plugin.py").write_text(source.read_text())
    info = site / "counting_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: counting-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gpuir.plugins]\ncounting = counting_plugin\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(site)}
    example = str(EXAMPLES / "array.mlir")
    opt = [sys.executable, "-m", "gpuir.tools.gpu_opt", example, "-p", "count-launches"]
    found = subprocess.run(opt, capture_output=True, text=True, env=env, check=False)
    assert found.returncode == 0, found.stderr
    assert "count.launches = 1 : i64" in found.stdout
    api = (
        f"import gpuir, pathlib; p = gpuir.compile(pathlib.Path({example!r}), provider='cpu', "
        "pipeline='gpu-pipeline,count-launches'); "
        "print(p.main(), p.module.attributes['count.launches'].value.data)"
    )
    found = subprocess.run(
        [sys.executable, "-c", api], capture_output=True, text=True, env=env, check=False
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["60", "1"]
    run = [
        sys.executable,
        "-m",
        "gpuir.tools.gpu_run",
        example,
        "-p",
        "gpu-pipeline,count-launches",
    ]
    found = subprocess.run(run, capture_output=True, text=True, env=env, check=False)
    assert (found.returncode, found.stdout) == (0, "60\n"), found.stderr
