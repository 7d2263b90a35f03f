"""Native executables of programs for the cpu provider: the C runtime (`gpuir_cpu.c`), their
build (`build`) and where gpu-run keeps them (`key`). docs/native.md describes them."""
