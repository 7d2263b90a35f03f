"""lit configuration for a suite of FileCheck tests of one's own, outside gpuir's tree
(docs/lit-suites.md). A suite's `lit.cfg` is three lines:

    from gpuir.tools.lit_config import configure

    configure(config)

`configure` finds `gpu-opt`, `gpu-run` and the Python `filecheck` (next to the Python that runs
lit, else on PATH) and puts their folders first on the tests' PATH; makes `FileCheck` in a RUN
line LLVM's `FileCheck-22` (or `FileCheck`) when one is installed, else the Python `filecheck`
(and `filecheck` LLVM's when only that is installed); sets the suffixes, gpuir's `ROUNDTRIP` /
`GENERIC_ROUNDTRIP` substitutions (those of tests/lit/lit.cfg) and the feature
`llvm-filecheck`, passes the `GPUIR_*` debug knobs through to the tests, and starts the tools'
fork server for the run (`use_tool_server`: a RUN line's gpu-opt starts in a few
milliseconds; `GPUIR_TOOL_SERVER=0` turns it off).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Sequence
from typing import Any

LLVM_FILECHECK = ("FileCheck-22", "FileCheck")
"""LLVM's FileCheck, preferred in this order for `FileCheck` in a RUN line."""
COMMAND = r"(?<![\w/.-]){}(?![\w.-])"
"""A command's name as a word of a RUN line (not inside `FileCheck-22` or a path)."""

GENERIC_ROUNDTRIP = (
    "gpu-opt %s --print-op-generic --split-input-file"
    " | gpu-opt --print-op-generic --split-input-file"
    " | filecheck %s --check-prefix=CHECK-GENERIC"
)
"""Print generic, re-parse, print generic again: checked by the `// CHECK-GENERIC:` lines."""
ROUNDTRIP = (
    "gpu-opt %s --print-op-generic --split-input-file | gpu-opt --split-input-file | filecheck %s"
)
"""Print generic, re-parse, print custom syntax: checked by the `// CHECK:` lines."""


def configure(config: Any, *, name: str = "tests", suffixes: Sequence[str] = (".mlir",)) -> None:
    """Set up lit's `config` (the global of a suite's `lit.cfg`) for gpuir's tools: `name` is
    the suite's name in lit's report, `suffixes` the test files' extensions."""
    import lit.formats

    config.name = name
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = list(suffixes)
    config.excludes = [*getattr(config, "excludes", []), "lit.cfg", "lit.local.cfg", "Inputs"]

    python_filecheck = beside_python("filecheck") or shutil.which("filecheck")
    llvm = next(filter(None, map(shutil.which, LLVM_FILECHECK)), None)
    if python_filecheck is None and llvm is None:
        sys.exit(
            "lit.cfg: error: neither the Python filecheck (pip install filecheck) nor LLVM's "
            "FileCheck is installed"
        )
    tools = [tool_path("gpu-opt"), tool_path("gpu-run"), python_filecheck]
    folders = [os.path.dirname(tool) for tool in tools if tool is not None]
    path = config.environment.get("PATH", os.environ.get("PATH", ""))
    config.environment["PATH"] = os.pathsep.join([*dict.fromkeys(folders), path])
    for knob, value in os.environ.items():
        if knob.startswith("GPUIR_"):
            config.environment[knob] = value

    # In lit's order: the substitutions' own `filecheck` is replaced by the ones after them.
    # GENERIC_ROUNDTRIP before ROUNDTRIP, which is part of its name.
    config.substitutions.append(("GENERIC_ROUNDTRIP", GENERIC_ROUNDTRIP))
    config.substitutions.append(("ROUNDTRIP", ROUNDTRIP))
    config.substitutions.append((COMMAND.format("FileCheck"), llvm or python_filecheck))
    if python_filecheck is None:
        config.substitutions.append((COMMAND.format("filecheck"), llvm))
    if llvm is not None:
        config.available_features.add("llvm-filecheck")
    use_tool_server(config)


def use_tool_server(config: Any) -> None:
    """Start the tools' fork server (`gpuir.tools.forkserver`) for this lit run, stopped when
    lit ends, and name its socket to the tests (`GPUIR_TOOL_SERVER`); with
    `GPUIR_TOOL_SERVER=0`, none: each call is a process of its own, as in a shell."""
    from gpuir.tools.launch import SERVER_ENV

    if os.environ.get(SERVER_ENV, "") == "0":
        config.environment.pop(SERVER_ENV, None)
        return
    import atexit
    import tempfile

    from gpuir.tools.forkserver import start_server, stop_server

    folder = tempfile.mkdtemp(prefix="gpuir-lit-tools-")
    server, socket_path = start_server(folder)
    atexit.register(shutil.rmtree, folder, True)
    atexit.register(stop_server, server)
    config.environment[SERVER_ENV] = socket_path
    bin_folder = os.path.join(folder, "bin")
    os.mkdir(bin_folder)
    served = served_commands(bin_folder)
    if "filecheck" not in served and importlib.util.find_spec("filecheck") is not None:
        served_filecheck(os.path.join(bin_folder, "filecheck"))
    path = config.environment.get("PATH", os.environ.get("PATH", ""))
    config.environment["PATH"] = os.pathsep.join([bin_folder, path])


SERVED = ("gpu-opt", "gpu-run", "gpu-reduce", "filecheck")
"""The commands a RUN line calls by name that the fork server runs."""


def served_commands(folder: str) -> list[str]:
    """Those of `SERVED` installed beside the Python that runs lit, as commands in `folder`
    that send the call to the fork server without starting a Python (`tools/tool_client.c`,
    compiled here with the C compiler: 1 ms of CPU a call, not the 10 of a Python launcher's;
    about 2,500 calls in gpuir's suite). None where there is no C compiler, or the client
    does not compile: then the Python commands send the calls."""
    fallback = os.path.dirname(sys.executable)
    tools = [tool for tool in SERVED if beside_python(tool) is not None]
    compiler = os.environ.get("CC") or shutil.which("cc")
    if not tools or compiler is None or not fallback.isascii() or '"' in fallback:
        return []
    import subprocess

    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tool_client.c")
    client = os.path.join(folder, ".tool-client")
    define = f'-DFALLBACK="{fallback.replace(chr(92), chr(92) * 2)}"'
    try:
        built = subprocess.run(
            [compiler, "-O2", define, source, "-o", client], capture_output=True, check=False
        )
    except OSError:
        return []
    if built.returncode != 0:
        return []
    try:
        for tool in tools:
            os.link(client, os.path.join(folder, tool))
    except OSError:  # a folder without hard links: the Python commands, then
        for tool in tools:
            if os.path.exists(os.path.join(folder, tool)):
                os.unlink(os.path.join(folder, tool))
        return []
    return tools


def served_filecheck(path: str) -> None:
    """Write a `filecheck` command at `path` that runs the Python filecheck in the fork server:
    a RUN line's `| filecheck %s` then starts in a few milliseconds, not the 50 ms of its
    imports."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(
            f"#!{sys.executable}\nimport sys\nfrom gpuir.tools.launch import filecheck\n\n"
            "sys.exit(filecheck())\n"
        )
    os.chmod(path, 0o755)


def tool_path(tool: str) -> str:
    """gpuir's command `tool`: the one next to the Python that runs lit (the environment gpuir
    is installed in), else the first on PATH."""
    found = beside_python(tool) or shutil.which(tool)
    if found is None:  # lit stops with this message (a SystemExit from lit.cfg)
        sys.exit(
            f"lit.cfg: error: gpuir's '{tool}' is neither next to {sys.executable} nor on PATH: "
            "run lit with the Python that gpuir is installed in"
        )
    return found


def beside_python(tool: str) -> str | None:
    """`tool` in the folder of the Python that runs lit, when it is there."""
    path = os.path.join(os.path.dirname(sys.executable), tool)
    return path if os.access(path, os.X_OK) else None
