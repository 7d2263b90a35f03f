"""gpuir: an MLIR-style IR and pass pipeline for GPU programs, on xDSL.

The repository root is this package; its folders are the layers, in the order data flows:
`dialects` (parse, verify) -> `passes` (rewrite) -> `lowering` (LLVM, PTX) -> `runtime`
(providers), with `tools` (the command-line fronts) over all of them.

The Python API (`gpuir.api`) is here too, imported on first use: `gpuir.compile(text)` gives a
`Program` (`main(...)`, `kernel(name)`), `gpuir.Device(provider)` resident buffers,
`gpuir.Layout` the strided layouts of their views (`gpuir.runtime.layout`).
"""

__version__ = "0.1.0"

_API = ("compile", "Device", "Program", "Kernel", "Buffer", "CompileError", "KernelNotFound")
_LAYOUT = ("Layout",)


def __getattr__(name: str) -> object:
    """`gpuir.compile`, `gpuir.Device`, …: the API, imported lazily (so that `import gpuir`
    and the command-line tools start fast)."""
    if name in _API:
        from gpuir import api

        return getattr(api, name)
    if name in _LAYOUT:
        from gpuir.runtime import layout

        return getattr(layout, name)
    if name == "load_plugin":
        from gpuir.ir.plugins import load_plugin

        return load_plugin
    raise AttributeError(f"module 'gpuir' has no attribute '{name}'")
