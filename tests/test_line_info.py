"""Line info (`gpuir.lowering.llvm.line_info`): every example that compiles keeps its op locations
down to the code. Its PTX (`gpu-opt -t ptx{sm=N}`, `.file` / `.loc`) assembles with
`ptxas -lineinfo` for sm_80 and sm_90; its device and host LLVM IR (`-t llvm`, `-t host-llvm`,
with `!DILocation`s) compile with `llc-22`; the cpu provider's object code has a DWARF line
table. A missing tool skips its tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from gpuir.dialects import make_context
from gpuir.ir.locating_parser import LocatingParser
from gpuir.ir.source import ParsedChunk
from gpuir.lowering.nvptx import ptxas
from gpuir.lowering.nvptx.ptx import PtxOptions
from gpuir.lowering.targets import HostLlvmTarget
from gpuir.runtime import disk_cache

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(
    p for p in (ROOT / "examples").glob("*.mlir") if not p.stem.startswith("invalid-")
)
GPU_OPT = str(Path(sys.executable).with_name("gpu-opt"))
LLC = shutil.which("llc-22")

needs_ptxas = pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas is not installed")
needs_llc = pytest.mark.skipif(LLC is None, reason="llc-22 is not installed")


def gpu_opt(path: Path, target: str) -> str:
    done = subprocess.run([GPU_OPT, str(path), "-t", target], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def llc(ir: str, *options: str) -> str:
    assert LLC is not None
    done = subprocess.run([LLC, *options, "-o", "-"], input=ir, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def parse_located(path: Path) -> ModuleOp:
    """The program at `path` with each op at its first token, as gpu-opt and the API read it."""
    text = path.read_text()
    parser = LocatingParser(make_context(), text, str(path))
    module = parser.parse_module()
    ParsedChunk(module, str(path), text, 0, parser.op_starts).set_locations()
    return module


# every example ----------------------------------------------------------------------------------


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_ptx_with_line_info_assembles(example: Path, sm: int):
    ptx = gpu_opt(example, f"ptx{{sm={sm}}}")
    assert f'.file\t1 "{example}"' in ptx
    assert "\t.loc\t1 " in ptx
    ptxas.assemble(ptx, sm, ("-lineinfo",))


@needs_llc
@pytest.mark.parametrize(
    ("target", "emission", "flags"),
    [
        ("llvm", "DebugDirectivesOnly", ("-mcpu=sm_80", "-mattr=+ptx80")),
        ("host-llvm", "LineTablesOnly", ("-O2",)),
    ],
    ids=["device", "host"],
)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_llvm_ir_with_line_info_compiles_with_llc(
    example: Path, target: str, emission: str, flags: tuple[str, ...]
):
    """Device code (`-t llvm`) to PTX, host code (`-t host-llvm`) to x86 assembly, which also
    names the example's file."""
    ir = gpu_opt(example, target)
    assert f"emissionKind: {emission}" in ir
    assert "!DILocation(line: " in ir
    assembly = llc(ir, *flags)
    assert "\t.loc\t1 " in assembly
    if target == "host-llvm":
        assert f'.file\t1 "{example.parent}" "{example.name}"' in assembly


def test_line_info_false_leaves_it_out():
    example = ROOT / "examples" / "array.mlir"
    for target in ("ptx{line-info=false}", "llvm{line-info=false}", "host-llvm{line-info=false}"):
        out = gpu_opt(example, target)
        assert ".loc" not in out and "!dbg" not in out and "DICompileUnit" not in out, target


# options, cache keys, the cpu provider ------------------------------------------------------------


def test_line_info_must_be_a_bool():
    assert PtxOptions().line_info is True
    with pytest.raises(ValueError, match="line-info must be true or false, found 3"):
        PtxOptions(line_info=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="line-info must be true or false, found 'yes'"):
        HostLlvmTarget(line_info="yes")  # type: ignore[arg-type]


def test_cache_key_text_holds_the_locations():
    """The machine code carries the lines, so a program read from another file (or moved by a
    line) is another cache entry."""
    source = (ROOT / "examples" / "array.mlir").read_text()
    first = parse_located(ROOT / "examples" / "array.mlir")
    ctx = make_context()
    parser = LocatingParser(ctx, "\n" + source, "elsewhere.mlir")
    moved = parser.parse_module()
    ParsedChunk(moved, "elsewhere.mlir", "\n" + source, 0, parser.op_starts).set_locations()
    assert str(first) == str(moved)
    assert 'loc("' in disk_cache.module_text(first)
    assert disk_cache.module_text(first) != disk_cache.module_text(moved)


def test_cpu_provider_object_code_has_a_line_table():
    from llvmlite import binding

    from gpuir.lowering.cpu.cpu_llvm import host_program
    from gpuir.lowering.llvm.native import new_host_machine
    from gpuir.lowering.targets import device_module
    from gpuir.passes.gpu_pipeline import GpuPipelinePass

    path = ROOT / "examples" / "histogram.mlir"
    program = parse_located(path)
    GpuPipelinePass().apply(make_context(), program)
    device = device_module(program)
    assert device is not None
    llvm_ir = host_program(device).llvm_ir
    assert "emissionKind: LineTablesOnly" in llvm_ir
    assert '!DISubprogram(name: "__gpuir_launch_histogram"' in llvm_ir  # lines kept when inlined
    engine = binding.create_mcjit_compiler(binding.parse_assembly(llvm_ir), new_host_machine())
    capture = disk_cache.ObjectCapture()
    engine.set_object_cache(capture.notify)
    engine.finalize_object()
    assert capture.code is not None
    sections = {s.name() for s in binding.ObjectFileRef.from_data(capture.code).sections()}
    assert b".debug_line" in sections
    assert b"histogram.mlir" in capture.code


@needs_ptxas
def test_a_file_name_ptx_cannot_hold_is_written_plain(tmp_path: Path):
    """PTX's `.file` takes no escapes: `"` and `\\` become `_` there (the host keeps them)."""
    path = tmp_path / 'say "hi".mlir'
    path.write_text((ROOT / "examples" / "array.mlir").read_text())
    ptx = gpu_opt(path, "ptx")
    assert f'.file\t1 "{tmp_path}/say _hi_.mlir"' in ptx
    ptxas.assemble(ptx, 80, ("-lineinfo",))
    assert 'filename: "say \\22hi\\22.mlir"' in gpu_opt(path, "host-llvm")
