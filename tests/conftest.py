"""pytest's set-up for the whole suite: the disk cache of machine code in a folder of this run
(`GPUIR_CACHE_DIR`, which the suite's subprocesses inherit), never the user's."""

from __future__ import annotations

import os
import shutil
import tempfile

_made: list[str] = []


def pytest_configure() -> None:
    if "GPUIR_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="gpuir-pytest-cache-")
        _made.append(folder)
        os.environ["GPUIR_CACHE_DIR"] = folder


def pytest_unconfigure() -> None:
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
