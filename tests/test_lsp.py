"""gpu-lsp over stdio, as an editor drives it: a JSON-RPC client of its own (`Client`) starts
the real server (`python -m gpuir.tools.lsp.server`) and speaks the protocol to it.

One server serves the whole file (each test opens documents of its own), so that its start-up
is paid once. No test measures time: a wait is for a message, with a generous deadline that
only a hung server reaches."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 60.0
"""Seconds to wait for one message: far beyond any normal answer."""

PROGRAM = """\
func.func @kernel(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                  %group: index, %item: index, %p: !mem.ptr<!mem.array<4 x i32>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %e = mem.lea %p, %item : !mem.ptr<!mem.array<4 x i32>, 1>
  %a1, %v = mem.load %m1, %e : !mem.ptr<i32, 1>
  %b1 = mem.store %a1, %e, %v : !mem.ptr<i32, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @blocks(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  cf.br ^bb1
^bb1:
  cf.br ^bb2
^bb2:
  cf.br ^bb3
^bb3:
  %y = arith.addi %one, %x : i32
  func.return %y : i32
}

func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %d1, %dev = gpu.alloc.block %m1 : !mem.ptr<!mem.array<4 x i32>, 1>
  %stream = gpu.default_stream
  %one = arith.constant 1 : index
  %four = arith.constant 4 : index
  %l0, %l1, %l4 = gpu.launch @kernel grid(%one, %four) stream(%stream)
      mems(%m0, %d1, %m4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %k0, %k1, %k4 = gpu.launch @kernel grid(%one, %four) stream(%stream)
      mems(%l0, %l1, %l4) args(%dev) : (!mem.ptr<!mem.array<4 x i32>, 1>)
  %f1 = gpu.free.block %k1, %dev : !mem.ptr<!mem.array<4 x i32>, 1>
  %done = gpu.deinit %k0, %f1, %k4
  func.return %done : !mem.M<0>
}
"""
LINES = PROGRAM.splitlines()


def position(line: int, text: str, occurrence: int = 0) -> dict[str, int]:
    """The position of the `occurrence`-th `text` on line `line` (0-based)."""
    column = -1
    for _ in range(occurrence + 1):
        column = LINES[line].index(text, column + 1)
    return {"line": line, "character": column}


class Client:
    """A JSON-RPC client over the server's stdin and stdout: requests wait for their answer,
    notifications from the server are kept in order."""

    def __init__(self, *args: str) -> None:
        command = [sys.executable, "-m", "gpuir.tools.lsp.server", *args]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.answers: dict[int, dict[str, Any]] = {}
        self.next_id = 0
        self.stderr: list[bytes] = []
        threading.Thread(target=self.read, daemon=True).start()
        threading.Thread(
            target=lambda: self.stderr.extend(self.process.stderr), daemon=True
        ).start()  # type: ignore[arg-type]

    def read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any] | None) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        answer = self.wait(lambda: self.answers.pop(ident, None))
        assert "error" not in answer, answer["error"]
        return answer.get("result")

    def wait(self, found: Callable[[], Any]) -> Any:
        """Take messages until `found()` gives something."""
        while (result := found()) is None:
            try:
                message = self.messages.get(timeout=DEADLINE)
            except queue.Empty:
                stderr = b"".join(self.stderr).decode(errors="replace")
                raise AssertionError(f"no answer from gpu-lsp; its stderr:\n{stderr}") from None
            if "id" in message and "method" not in message:
                self.answers[message["id"]] = message
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.notifications.append(message["params"])
            elif "id" in message:  # a request of the server's (window/…): answered empty
                self.send({"id": message["id"], "result": None})
        return result

    def diagnostics(
        self, uri: str, accept: Callable[[list[dict[str, Any]]], bool]
    ) -> list[dict[str, Any]]:
        """The first diagnostics published for `uri` that `accept` takes (those published
        before it are dropped)."""

        def found() -> list[dict[str, Any]] | None:
            while self.notifications:
                params = self.notifications.pop(0)
                if params["uri"] == uri and accept(params["diagnostics"]):
                    return params["diagnostics"]
            return None

        return self.wait(found)

    def published(self, uri: str, version: int) -> list[dict[str, Any]]:
        """Every publication for `uri` up to the first of `version`."""
        seen: list[dict[str, Any]] = []

        def found() -> list[dict[str, Any]] | None:
            while self.notifications:
                params = self.notifications.pop(0)
                if params["uri"] == uri:
                    seen.append(params)
                    if params.get("version") == version:
                        return seen
            return None

        return self.wait(found)

    def open(self, name: str, text: str) -> str:
        uri = f"file:///work/{name}"
        document = {"uri": uri, "languageId": "mlir", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": document})
        return uri


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    plugin = ROOT / "examples" / "plugins" / "mul_to_shift.py"
    lsp = Client("--debounce", "0.02", "--load-pass-plugin", str(plugin), "--check", "mul-to-shift")
    result = lsp.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    lsp.notify("initialized", {})
    lsp.capabilities = result["capabilities"]  # type: ignore[attr-defined]
    yield lsp
    if lsp.process.poll() is None:
        lsp.process.kill()
        lsp.process.wait()


def opened(client: Client, name: str, text: str = PROGRAM) -> str:
    """Open a document and wait until its analysis is in (its diagnostics published)."""
    uri = client.open(name, text)
    client.diagnostics(uri, lambda _: True)
    return uri


def hover(client: Client, uri: str, at: dict[str, int]) -> str:
    """The text the server shows on hovering at `at` in the document `uri`."""
    answer = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
    return answer["contents"]["value"]


def test_initialize(client: Client) -> None:
    capabilities = client.capabilities  # type: ignore[attr-defined]
    for provider in ("hoverProvider", "definitionProvider", "referencesProvider"):
        assert capabilities[provider]
    assert capabilities["documentSymbolProvider"]
    assert "." in capabilities["completionProvider"]["triggerCharacters"]


def test_bad_file_then_fixed(client: Client) -> None:
    bad = PROGRAM.replace("mem.load %m1, %e", "mem.load %m3, %e")
    uri = client.open("bad.mlir", bad)
    [diagnostic] = client.diagnostics(uri, lambda d: len(d) > 0)
    assert diagnostic["message"] == (
        "operand is used with type !mem.M<1>, but has been previously used or defined with "
        "type !mem.M<3>"
    )
    assert diagnostic["range"] == {  # gpu-opt's carets: under `%m3`
        "start": {"line": 4, "character": 21},
        "end": {"line": 4, "character": 24},
    }
    assert diagnostic["severity"] == 1
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(LINES), "character": 0}}
    change = {"range": whole, "text": PROGRAM}
    document = {"uri": uri, "version": 2}
    client.notify("textDocument/didChange", {"textDocument": document, "contentChanges": [change]})
    assert client.diagnostics(uri, lambda d: not d) == []


def test_a_burst_of_changes_ends_with_the_newest(client: Client) -> None:
    uri = opened(client, "burst.mlir")
    bad = PROGRAM.replace("mem.load %m1, %e", "mem.load %m3, %e")
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(LINES) + 5, "character": 0}}
    for version in range(2, 8):
        change = {"range": whole, "text": PROGRAM if version == 7 else bad}
        document = {"uri": uri, "version": version}
        client.notify(
            "textDocument/didChange", {"textDocument": document, "contentChanges": [change]}
        )
    published = client.published(uri, 7)
    versions = [p["version"] for p in published]
    assert versions == sorted(versions)  # nothing older comes after something newer
    assert published[-1]["diagnostics"] == []


def test_check_error_with_a_note(client: Client) -> None:
    text = PROGRAM.replace(
        "  %b1 = mem.store %a1, %e, %v : !mem.ptr<i32, 1>\n",
        "  %b1 = mem.store %a1, %e, %v : !mem.ptr<i32, 1>\n"
        "  %c1 = mem.store %a1, %e, %v : !mem.ptr<i32, 1>\n",
    )
    uri = client.open("check-tokens.mlir", text)
    [diagnostic] = client.diagnostics(uri, lambda d: len(d) > 0)
    assert diagnostic["message"].startswith(
        "'mem.store' and 'mem.store' at /work/check-tokens.mlir:6:3 consume the same !mem.M<1> "
        "token, so no token chain orders them"
    )
    assert diagnostic["range"] == {
        "start": {"line": 6, "character": 2},
        "end": {"line": 6, "character": len("  %c1 = mem.store")},
    }
    notes = {
        (n["location"]["range"]["start"]["line"], n["message"])
        for n in diagnostic["relatedInformation"]
    }
    assert (5, "the other op of the pair") in notes


def test_hover_on_mem_load(client: Client) -> None:
    uri = opened(client, "hover.mlir")
    text = hover(client, uri, position(4, "mem.load"))
    assert "`mem.load`" in text
    assert "| operand | `mem` |" in text and "| result | `res` |" in text
    value = hover(client, uri, position(4, "%v"))
    assert "%v : i32" in value
    assert "result #1 of `mem.load`" in value


def test_hover_on_launch_shows_the_kernel(client: Client) -> None:
    uri = opened(client, "launch-hover.mlir")
    text = hover(client, uri, position(27, "gpu.launch"))
    assert "kernel `@kernel`" in text
    assert "%p: !mem.ptr<!mem.array<4 x i32>, 1>" in text


def test_definition_three_blocks_away(client: Client) -> None:
    uri = opened(client, "definition.mlir")
    use = position(17, "%one")  # in ^bb3; defined in the entry block
    [found] = client.request(
        "textDocument/definition", {"textDocument": {"uri": uri}, "position": use}
    )
    assert found["uri"] == uri
    assert found["range"]["start"] == position(10, "%one")
    label = position(13, "^bb2")  # cf.br ^bb2 → the block's label
    [block] = client.request(
        "textDocument/definition", {"textDocument": {"uri": uri}, "position": label}
    )
    assert block["range"]["start"] == {"line": 14, "character": 0}


def test_references_of_a_kernel(client: Client) -> None:
    uri = opened(client, "references.mlir")
    params = {
        "textDocument": {"uri": uri},
        "position": position(0, "@kernel"),
        "context": {"includeDeclaration": True},
    }
    found = client.request("textDocument/references", params)
    lines = sorted(r["range"]["start"]["line"] for r in found)
    assert lines == [0, 27, 29]  # the definition and both launches
    launch = dict(params, position=position(29, "@kernel"))
    launch["context"] = {"includeDeclaration": False}
    assert len(client.request("textDocument/references", launch)) == 2


def test_document_symbols(client: Client) -> None:
    uri = opened(client, "symbols.mlir")
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["@kernel", "@blocks", "@main"]
    assert symbols[0]["detail"] == "kernel"
    assert symbols[2]["range"]["start"]["line"] == 21
    assert [c["name"] for c in symbols[2]["children"]] == ["gpu.launch @kernel"] * 2


def test_split_chunks_are_modules(client: Client) -> None:
    text = PROGRAM + "\n// -----\n\nfunc.func @other() {\n  func.return\n}\n"
    uri = opened(client, "split.mlir", text)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["chunk 1", "chunk 2"]
    assert [c["name"] for c in symbols[1]["children"]] == ["@other"]


def test_verify_diagnostics_annotations(client: Client) -> None:
    text = (
        "// RUN: gpu-opt %s --verify-diagnostics --split-input-file\n"
        "func.func @f(%a: i32) -> i32 {\n"
        "  // expected-error @+1 {{Expected arguments to have the same types}}\n"
        "  func.return %a, %a : i32, i32\n"
        "}\n"
        "// -----\n"
        "func.func @g(%a: i32) -> i32 {\n"
        "  // expected-error @+1 {{never comes}}\n"
        "  func.return %a : i32\n"
        "}\n"
    )
    uri = client.open("annotated.mlir", text)
    [diagnostic] = client.diagnostics(uri, lambda d: len(d) > 0)
    assert diagnostic["message"] == 'expected error "never comes" was not produced'
    assert diagnostic["range"]["start"] == {"line": 7, "character": 5}


def test_completion_after_mem(client: Client) -> None:
    uri = opened(client, "completion.mlir")
    end = {"line": 5, "character": len(LINES[5])}
    document = {"uri": uri, "version": 2}
    edit = {"range": {"start": end, "end": end}, "text": "\n  %z = mem."}
    client.notify("textDocument/didChange", {"textDocument": document, "contentChanges": [edit]})
    at = {"line": 6, "character": len("  %z = mem.")}
    answer = client.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": at}
    )
    labels = [item["label"] for item in answer["items"]]
    assert "mem.load" in labels and "mem.store" in labels
    assert all(label.startswith("mem.") for label in labels)
    types = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": position(3, "!mem")},
    )
    assert types is not None


def test_completion_of_types_and_symbols(client: Client) -> None:
    text = PROGRAM + "func.func @user(%q: !mem.M<\n"
    uri = opened(client, "types.mlir", text)
    line = len(LINES)
    at = {"line": line, "character": len("func.func @user(%q: !mem.M<")}
    answer = client.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": at}
    )
    assert "!mem.M<1>" in [item["label"] for item in answer["items"]]
    at = {"line": line, "character": len("func.func @user(%q: !")}
    labels = [
        item["label"]
        for item in client.request(
            "textDocument/completion", {"textDocument": {"uri": uri}, "position": at}
        )["items"]
    ]
    assert "!mem.ptr<" in labels and "!mem.M<" in labels
    at = {"line": 27, "character": LINES[27].index("@kernel") + 1}
    answer = client.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": at}
    )
    assert {"@kernel", "@blocks", "@main"} <= {item["label"] for item in answer["items"]}


def test_upstream_file_is_recognised(client: Client) -> None:
    text = (ROOT / "tests" / "lit" / "upstream" / "launch-attributes.mlir").read_text()
    uri = client.open("upstream.mlir", text)
    assert client.diagnostics(uri, lambda _: True) == []


def test_a_crashing_pass_is_a_diagnostic(client: Client) -> None:
    # mul-to-shift (examples/plugins, run as a check) has a bug: a multiplication by 0 raises
    text = PROGRAM.replace(
        "  %y = arith.addi %one, %x : i32",
        "  %zero = arith.constant 0 : i32\n  %y = arith.muli %x, %zero : i32",
    )
    uri = client.open("crash.mlir", text)
    [diagnostic] = client.diagnostics(uri, lambda d: len(d) > 0)
    assert diagnostic["message"].startswith("gpu-lsp: internal error in mul-to-shift: ValueError")
    assert diagnostic["range"]["start"] == {"line": 0, "character": 0}
    assert client.process.poll() is None  # and the server goes on
    assert "`mem.load`" in hover(client, uri, position(4, "mem.load"))


def test_shutdown(client: Client) -> None:
    assert client.request("shutdown", None) is None
    client.notify("exit", {})
    assert client.process.wait(timeout=DEADLINE) == 0
