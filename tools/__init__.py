"""gpuir's command-line fronts.

- `gpu-opt` (`gpu_opt.py`): xdsl-opt with gpuir's dialects and passes, whose user errors are
  diagnostics (`file:line:col: error: ...`), never Python tracebacks.
- `gpu-run` (`gpu_run.py`): runs a program's `@main` on a provider.
- `verify_diagnostics.py`: `--verify-diagnostics` with mlir-opt's semantics.
- `dot.py`: gpu-opt's `-t dot`, the program as a Graphviz picture.
- `common.py`: what both share without xdsl-opt's machinery (reporting, the stdin name, the
  debug knob), so that gpu-run does not import gpu-opt.

What they share with the Python API (reading and parsing with locations, rendering
diagnostics, the registry of passes) is the layer below: `gpuir.ir`.
"""
