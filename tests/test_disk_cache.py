"""The disk cache of machine code (`gpuir.runtime.disk_cache`): what the compiled host and the
cpu provider keep between processes.

- every example and `tests/lit/run` program prints, returns and fails the same from a warm
  cache as from a cold one, and the warm run loads every entry the cold run stored (no LLVM);
- a second process reuses the entries (not rewritten), `GPUIR_CACHE=0` writes none, an entry
  cut short or changed is a miss that is compiled again and rewritten, other options are
  other entries, and runs started together on an empty cache all succeed and leave one whole
  entry per module (no temporary files);
- a fault of host code loaded from the cache is still located at its op.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_compiled_host import FAULTS, PROGRAMS, fault_program, lit_arguments

from gpuir.runtime import compiled_host, disk_cache
from gpuir.runtime.cpu import compiled as cpu_compiled
from gpuir.tools.gpu_run import main as gpu_run

ROOT = Path(__file__).resolve().parents[1]
VADD = ROOT / "benchmarks" / "programs" / "vadd.mlir"
VADD_1000 = "1498500.0\n"  # sum over k < 1000 of 3k, in f64


def forget_in_memory() -> None:
    """As a new process starts: no machine code in memory."""
    compiled_host._cache.clear()
    cpu_compiled._cache.clear()


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(disk_cache.CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(disk_cache.CACHE_ENV, raising=False)
    # The entries of module code are this file's subject; a native executable (kept after a
    # warm run, with the C runtime compiled anew in each empty folder) is test_native.py's
    monkeypatch.setenv("GPUIR_NATIVE", "0")
    forget_in_memory()
    yield tmp_path
    forget_in_memory()


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_a_warm_cache_runs_as_a_cold_one(path, cache, capsys, monkeypatch):
    argv = [str(path), "--provider", "cpu", *lit_arguments(path)]
    cold = (gpu_run(argv), *capsys.readouterr())
    stored = entries(cache)
    forget_in_memory()
    loads = []
    load = disk_cache.engine_from_object
    monkeypatch.setattr(
        disk_cache, "engine_from_object", lambda code: loads.append(1) or load(code)
    )
    warm = (gpu_run(argv), *capsys.readouterr())
    assert warm == cold
    assert len(loads) == len(stored)
    assert entries(cache) == stored


def gpu_run_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "gpuir.tools.gpu_run", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def environment(cache: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, disk_cache.CACHE_DIR_ENV: str(cache), **extra}
    env.pop(disk_cache.CACHE_ENV, None) if disk_cache.CACHE_ENV not in extra else None
    return env


def test_a_second_process_reuses_the_entries(cache):
    first = gpu_run_process(str(VADD), "--provider", "cpu", "1000", env=environment(cache))
    assert (first.returncode, first.stdout, first.stderr) == (0, VADD_1000, "")
    stored = entries(cache)
    assert sorted(p.name.split("-")[0] for p in stored) == ["cpu", "host"]
    before = {p: p.stat().st_ino for p in stored}
    second = gpu_run_process(str(VADD), "--provider", "cpu", "1000", env=environment(cache))
    assert (second.returncode, second.stdout, second.stderr) == (0, VADD_1000, "")
    assert {p: p.stat().st_ino for p in entries(cache)} == before  # read, not written again


def test_the_cache_can_be_turned_off(cache):
    env = environment(cache / "off", **{disk_cache.CACHE_ENV: "0"})
    done = gpu_run_process(str(VADD), "--provider", "cpu", "1000", env=env)
    assert (done.returncode, done.stdout) == (0, VADD_1000)
    assert not (cache / "off").exists()


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_damaged_entry_is_compiled_again(cache, damage, capsys):
    argv = [str(VADD), "--provider", "cpu", "1000"]
    assert gpu_run(argv) == 0
    for path in entries(cache):
        data = bytearray(path.read_bytes())
        if damage == "truncate":
            data = data[: len(data) // 2]
        elif damage == "flip":
            data[-100] ^= 0xFF
        else:
            data = bytearray(b"not an entry")
        path.write_bytes(bytes(data))
    forget_in_memory()
    assert gpu_run(argv) == 0
    assert capsys.readouterr().out == VADD_1000 * 2
    for path in entries(cache):  # rewritten whole
        assert disk_cache.load(path.name.split("-")[0], path.stem.split("-")[1]) is not None


def test_other_options_are_other_entries(cache, capsys):
    assert gpu_run([str(VADD), "--provider", "cpu", "1000"]) == 0
    assert gpu_run([str(VADD), "--provider", "cpu", "--index-bitwidth", "32", "1000"]) == 0
    assert capsys.readouterr().out == VADD_1000 * 2
    kinds = sorted(p.name.split("-")[0] for p in entries(cache))
    assert kinds == ["cpu", "cpu", "host"]  # the device code differs; the host code does not


def test_runs_started_together_share_one_entry_per_module(cache):
    command = [sys.executable, "-m", "gpuir.tools.gpu_run", str(VADD), "--provider", "cpu", "1000"]
    env = environment(cache)
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, env=env, text=True) for _ in range(4)]
    outputs = [(run.communicate(timeout=120)[0], run.returncode) for run in runs]
    assert outputs == [(VADD_1000, 0)] * 4
    assert sorted(p.name.split("-")[0] for p in entries(cache)) == ["cpu", "host"]
    assert list(cache.glob(".*")) == []  # no temporary file left behind


@pytest.mark.parametrize("name", [n for n, (_, line, _) in FAULTS.items() if line is not None])
def test_a_fault_of_cached_host_code_is_located(name, cache, tmp_path, capsys):
    body, line, words = FAULTS[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(fault_program(body))
    results = []
    for _ in range(2):  # cold, then warm
        status = gpu_run([str(source), "--provider", "cpu"])
        results.append((status, *capsys.readouterr()))
        forget_in_memory()
    assert results[0] == results[1]
    status, out, err = results[1]
    assert (status, out) == (1, "")
    assert err.startswith(f"{source}:{line}:") and words in err
