"""gpu-lsp's diagnostics latency: from a change to a 2,000-line file to its diagnostics.

The real server runs as a subprocess on stdio, with its default debounce, as an editor starts
it. The file is opened (and its analysis waited for), then changed `repeats` times, a comment
added each time: each change is timed from the `didChange` sent to the first
`publishDiagnostics` of its version (the parse, the verifier and the fast checks), and to the
last (after `check-barrier-divergence`, which walks every work-item of every launch). Two
programs: `pass_scaling.program` (kernels with barriers, each launched from `@main`: the
barrier check's worst case) and `parse_print.program` (func, arith, scf; no launch). Issue 33's
goal: diagnostics within 1 s of a change. Nothing is asserted.

    python benchmarks/lsp_latency.py             # 2,000 lines, 5 changes
    python benchmarks/lsp_latency.py --quick     # 3 changes
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import parse_print
import pass_scaling

LINES = 2_000
GOAL = 1.0
"""Seconds from a change to its diagnostics (issue 33)."""


class Server:
    """gpu-lsp in a subprocess, and a JSON-RPC client for it."""

    def __init__(self) -> None:
        command = [sys.executable, "-m", "gpuir.tools.lsp.server"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.messages: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (header := stream.readline()) not in (b"\r\n", b"\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            if not length:
                return
            message = json.loads(stream.read(length))
            self.messages.put((time.perf_counter(), message))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return time.perf_counter()

    def next(self) -> tuple[float, dict[str, Any]]:
        return self.messages.get(timeout=120)

    def start(self) -> None:
        self.send({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
        while self.next()[1].get("id") != 1:
            pass
        self.send({"method": "initialized", "params": {}})

    def stop(self) -> None:
        self.send({"id": 2, "method": "shutdown", "params": None})
        self.send({"method": "exit", "params": {}})
        self.process.wait(timeout=30)

    def diagnostics_of(self, version: int, sent: float, publishes: int) -> tuple[float, float, int]:
        """Seconds from `sent` to the first and to the last of the `publishes` diagnostics of
        `version` (two where the fast diagnostics come before the barrier check's), and how
        many diagnostics the last had."""
        times: list[float] = []
        count = 0
        while len(times) < publishes:
            at, message = self.next()
            params = message.get("params") or {}
            if message.get("method") == "textDocument/publishDiagnostics":
                if params.get("version") == version:
                    times.append(at)
                    count = len(params["diagnostics"])
        return times[0] - sent, times[-1] - sent, count


def program(kind: str) -> str:
    """A program of about `LINES` lines: pass_scaling's kernels, or parse_print's functions."""
    make = pass_scaling.program if kind == "kernels" else None
    if make is not None:
        per_kernel = make(2).count("\n") - make(1).count("\n")
        return make(max(1, LINES // per_kernel))
    per_function = parse_print.function(0, body_ops=32)[0].count("\n")
    return "".join(parse_print.function(i, 32)[0] for i in range(LINES // per_function))


def measure(kind: str, repeats: int) -> dict[str, Any]:
    """The latencies of `repeats` changes to the program `kind` (module docstring)."""
    text = program(kind)
    server = Server()
    try:
        server.start()
        uri = f"file:///bench/{kind}.mlir"
        document = {"uri": uri, "languageId": "mlir", "version": 1, "text": text}
        opened = server.send(
            {"method": "textDocument/didOpen", "params": {"textDocument": document}}
        )
        publishes = 2 if "gpu.launch" in text else 1
        server.diagnostics_of(1, opened, publishes)
        firsts, lasts, count = [], [], 0
        for version in range(2, repeats + 2):
            end = {"line": text.count("\n"), "character": 0}
            change = {"range": {"start": end, "end": end}, "text": f"// change {version}\n"}
            params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            sent = server.send({"method": "textDocument/didChange", "params": params})
            text += f"// change {version}\n"
            first, last, count = server.diagnostics_of(version, sent, publishes)
            firsts.append(first)
            lasts.append(last)
        server.stop()
    finally:
        if server.process.poll() is None:
            server.process.kill()
    return {
        "lines": text.count("\n"),
        "first": firsts,
        "last": lasts,
        "diagnostics": count,
    }


def rows(quick: bool) -> list[Any]:
    """The rows of `make bench`'s table (`run_all.py`): the median latency of each program,
    against the goal of 1 s."""
    from table import Row

    out = []
    for kind, label in (("kernels", "gpuir kernels+launches"), ("plain", "func/arith/scf")):
        found = measure(kind, 3 if quick else 5)
        lines = found["lines"]
        first, last = statistics.median(found["first"]), statistics.median(found["last"])
        out.append(
            Row(
                f"gpu-lsp first diagnostics, {lines:,} lines ({label})",
                first,
                GOAL,
                "goal",
                "s",
                "<= 1.0",
            )
        )
        if last > first + 1e-3:
            out.append(
                Row(
                    f"gpu-lsp all diagnostics, {lines:,} lines ({label})",
                    last,
                    GOAL,
                    "goal",
                    "s",
                    "<= 1.0",
                )
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 changes per program, not 5")
    args = parser.parse_args()
    for kind in ("kernels", "plain"):
        found = measure(kind, 3 if args.quick else 5)
        first = ", ".join(f"{t:.2f}" for t in found["first"])
        last = ", ".join(f"{t:.2f}" for t in found["last"])
        print(f"{kind}: {found['lines']} lines, {found['diagnostics']} diagnostics")
        print(
            f"  change → first diagnostics (s): {first}; median {statistics.median(found['first']):.2f}"
        )
        print(
            f"  change → all diagnostics (s):   {last}; median {statistics.median(found['last']):.2f}"
        )


if __name__ == "__main__":
    main()
