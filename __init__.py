"""gpuir: an MLIR-style IR and pass pipeline for GPU programs, on xDSL.

The repository root is this package; its folders are the layers, in the order data flows:
`dialects` (parse, verify) -> `passes` (rewrite) -> `lowering` (LLVM, PTX) -> `runtime`
(providers), with `tools` (the command-line fronts) over all of them.
"""

__version__ = "0.1.0"
