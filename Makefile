# gpuir: `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-demo
BENCH_STAMP := $(VENV)/.installed-bench
# gpuir's own folders: compiled to bytecode once at install (`compileall`), since a shell with
# PYTHONDONTWRITEBYTECODE=1 never writes it and every process would compile them again (0.2 s
# of a cold gpu-run).
PACKAGE_DIRS := __init__.py api dialects ir passes lowering runtime tools
# make test-quick: the lit folders that need no tools but gpu-opt and run in seconds.
QUICK_LIT := tests/lit/dialects

.DEFAULT_GOAL := help
.PHONY: help demo test test-quick pytest lit lint format bench bench-quick fuzz differential gpu-check mlir-integration clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-12s %s\n", $$1, $$2}'

# Two stamps: the demo needs the package alone; the tests add pytest, lit, filecheck, ruff and
# ptxas (nvidia-cuda-nvcc, 321 MB), which the demo never runs. After each editable install,
# scripts/light_editable_finder.py takes setuptools' finder out of every Python's start-up (25 ms).
$(DEMO_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	@$(BIN)/python scripts/light_editable_finder.py
	@$(BIN)/python -m compileall -q -j 0 $(PACKAGE_DIRS) > /dev/null
	@touch $(DEMO_STAMP)

$(STAMP): pyproject.toml $(DEMO_STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	@$(BIN)/python scripts/light_editable_finder.py
	@touch $(STAMP)

demo: $(DEMO_STAMP) ## parse, verify and pretty-print the example program (CPU only)
	@$(BIN)/python examples/demo.py

# The suite writes bytecode caches (__pycache__, ignored by git) even where the shell says not
# to (PYTHONDONTWRITEBYTECODE=1): else each pytest worker rewrites and compiles every test
# module again, and each tool process every module of gpuir that changed since the install.
# pytest's workers steal tests from each other at the end (xdist's worksteal), so that one long
# test does not leave a core idle.
test: $(STAMP) ## the whole suite: pytest (one worker per core), then lit tests/lit
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal
	PYTHONDONTWRITEBYTECODE= $(BIN)/lit -sv tests/lit

test-quick: $(STAMP) ## the edit loop, under a minute: pytest without the slow tests, lit on the dialects
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal -m "not slow"
	PYTHONDONTWRITEBYTECODE= $(BIN)/lit -s $(QUICK_LIT)

pytest: $(STAMP) ## only the pytest suite
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal

lit: $(STAMP) ## only the lit suite
	PYTHONDONTWRITEBYTECODE= $(BIN)/lit -sv tests/lit

lint: $(STAMP) ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP) ## ruff format and fix
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	@$(BIN)/python scripts/light_editable_finder.py
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) ## ours vs the peers in one run: one table, one plot, in benchmarks/results (ARGS=--quick)
	$(BIN)/python benchmarks/run_all.py $(ARGS)

bench-quick: $(BENCH_STAMP) ## make bench in under two minutes (fewer sizes and repeats)
	$(BIN)/python benchmarks/run_all.py --quick $(ARGS)

mlir-integration: $(STAMP) ## MLIR's GPU integration tests at the pinned LLVM release: fetch (network), then run (needs FileCheck-22)
	$(BIN)/python scripts/fetch_mlir_integration.py
	$(BIN)/python scripts/run_mlir_integration.py --expect tests/lit/upstream/Inputs/mlir-integration.expected

fuzz: $(STAMP) ## mutants of the lit corpus through gpu-opt and gpu-run (FUZZ_ARGS='--count 10000 --seed 0 --jobs 2')
	cd tests && ../$(BIN)/python -m fuzz $(FUZZ_ARGS)

differential: $(STAMP) ## random programs under cpu and interp, compared bit for bit (DIFF_ARGS='--count 1000 --seed 0 --jobs 2'; '--planted [--checked]': planted bugs interp [and cpu --check] must find; '--pass PLUGIN:NAME': a pass checked with --check-semantics)
	cd tests && ../$(BIN)/python -m differential $(DIFF_ARGS)

gpu-check: ## with an NVIDIA GPU: PyCUDA, the cuda tests and the GPU benchmark (scripts/gpu_check.sh)
	bash scripts/gpu_check.sh

clean: ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
