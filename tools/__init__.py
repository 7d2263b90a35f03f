"""gpuir's command-line fronts.

- `gpu-opt` (`gpu_opt.py`): xdsl-opt with gpuir's dialects and passes, whose user errors are
  diagnostics (`file:line:col: error: ...`), never Python tracebacks.
- `locating_parser.py`: xDSL's MLIR parser, remembering where each op starts.
"""
