"""The ground every target stands on: gpuir's IR to the llvm dialect and the llvm dialect to LLVM
IR, with nothing of one target's own.

- `conversion.py`: what the passes share (the type conversion, the device and host modules, the
  index width, running stages, `printf` formats); `rules.py`: rules that the targets and the
  engine share, built as IR (a collective's combine, a shuffle's source lane, a broadcast's
  sources);
- one `convert-*-to-llvm` pass per file, as MLIR's: `arith_to_llvm.py`, `cf_to_llvm.py` (with
  `convert-scf-while-to-cf`), `func_to_llvm.py`, `math_to_llvm.py`, `mem_to_llvm.py`,
  `vector_to_llvm.py`, `erase_mem_tokens.py`, `device_printf.py` (device `printf` as
  print-buffer records; its ABI with the runtimes is `print_abi.py`);
- `llvm_ext.py` (the llvm ops xDSL lacks), `llvm_ir.py` (the translation to LLVM IR, for NVPTX
  or this CPU) with `line_info.py` (locations as debug metadata), `native.py` (this CPU as
  LLVM's target, and its optimizer).

`gpuir.lowering.nvptx`, `gpuir.lowering.cpu` and `gpuir.lowering.host` import from here; this
folder imports none of them (`tests/test_layers.py`).
"""
