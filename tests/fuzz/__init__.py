"""A mutation fuzzer for gpu-opt and gpu-run: broken IR must get a diagnostic, never a crash.

    make fuzz                                   # 10,000 inputs, seed 0, 2 jobs
    make fuzz FUZZ_ARGS='--count 500 --seed 7'  # any of the flags of `python -m fuzz --help`

- `mutate`: the corpus (every `tests/lit/**/*.mlir` and `examples/*.mlir`, split at `// -----`,
  full-line comments dropped) and the mutations (lines and tokens deleted, duplicated or
  swapped; types, address spaces, integer literals, symbols and operands changed; lines spliced
  in from another seed). Input `i` of seed `s` is a pure function of `(s, i)`: any failure is
  reproduced by `--seed s --only i`, whatever `--jobs` was.
- `harness`: runs each input through every tool configuration (`TARGETS`: gpu-opt with no
  pass, with each of gpuir's passes, `-t llvm`, `-t ptx`, `-t dot`; `gpu-run --provider interp`)
  in-process, in worker processes, with stdout and stderr captured and a time bound per run.
  It classifies every run (the oracle is `classify`) and collects the failures.

A failure is a Python traceback, an `internal error`, an exit status other than 0 or 1, an exit
status 1 without an `error:` line, a signal that kills the worker (`crash`), a run over the time
bound (`hang`), or an output of gpu-opt that does not parse back (`roundtrip`).
"""
