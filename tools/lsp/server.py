"""gpu-lsp's protocol side: a pygls server over stdio.

A document is analysed (`analysis.analyse`) when it is opened or saved, and `--debounce`
seconds after the last change of a burst; the analyses run one at a time in a worker thread,
and one whose text is no longer the newest stops at its next step (`Cancelled`) and publishes
nothing. The diagnostics found before the slow checks are published first (`SLOW_CHECKS`).
Hover, definition, references, symbols and completion answer from the last finished analysis.
No exception leaves a handler: a bug in an analysis is a diagnostic at the top of the file, a
bug in a request its empty answer (and a line on stderr).

    gpu-lsp                            # stdio, as editors start it (docs/editor.md)
    gpu-lsp --debounce 0.05 --check my-check --load-pass-plugin my_checks.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from gpuir import __version__
from gpuir.tools.lsp import features
from gpuir.tools.lsp.analysis import (
    CHECKS,
    Analysis,
    Cancelled,
    Checker,
    Report,
    analyse,
    internal_error,
    new_context,
)

DEBOUNCE = 0.15
"""Seconds of quiet after a change before the document is analysed."""
SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
    "remark": types.DiagnosticSeverity.Information,
}
T = TypeVar("T")


class GpuLanguageServer(LanguageServer):
    """The server's state: the newest version of each document, its last analysis, the
    analysis waiting for its debounce."""

    def __init__(self, debounce: float = DEBOUNCE, checks: Sequence[str] = CHECKS) -> None:
        super().__init__("gpu-lsp", __version__)
        self.debounce = debounce
        self.checks = tuple(checks)
        self.latest: dict[str, int | None] = {}
        """Each open document's newest version (None: closed)."""
        self.analyses: dict[str, Analysis] = {}
        self.waiting: dict[str, asyncio.Task[None]] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpu-lsp-analysis")
        self.worker_ctx = new_context()
        """The worker's parsing context; the requests use their own (`ctx`)."""
        self.ctx = new_context()

    def schedule(self, uri: str, version: int | None, delay: float) -> None:
        """Analyse `uri` after `delay` seconds, instead of any analysis still waiting."""
        self.latest[uri] = version
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.waiting[uri] = asyncio.ensure_future(self.diagnose(uri, version, delay))

    async def diagnose(self, uri: str, version: int | None, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        text = self.workspace.get_text_document(uri).source
        loop = asyncio.get_running_loop()

        def stale() -> bool:
            return self.latest.get(uri, -1) != version

        def early(analysis: Analysis, reports: list[Report]) -> None:
            loop.call_soon_threadsafe(self.accept, uri, version, text, analysis, reports)

        checker = Checker(self.worker_ctx, self.checks, stale, early)
        try:
            analysis = await loop.run_in_executor(self.worker, run, text, uri, checker)
        except Cancelled:
            return
        self.accept(uri, version, text, analysis, analysis.reports)

    def accept(
        self, uri: str, version: int | None, text: str, analysis: Analysis, reports: list[Report]
    ) -> None:
        """Answer the requests from `analysis` and publish `reports`, unless a newer text came
        in."""
        if self.latest.get(uri, -1) != version:
            return
        self.analyses[uri] = analysis
        self.publish(uri, version, text, reports)

    def publish(self, uri: str, version: int | None, text: str, reports: list[Report]) -> None:
        if self.latest.get(uri, -1) != version:
            return
        lines = features.Lines(text)
        diagnostics = [diagnostic(uri, lines, r) for r in reports]
        params = types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        self.text_document_publish_diagnostics(params)

    def forget(self, uri: str) -> None:
        self.latest.pop(uri, None)
        self.analyses.pop(uri, None)
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        params = types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        self.text_document_publish_diagnostics(params)


def run(text: str, uri: str, checker: Checker) -> Analysis:
    """The analysis of `text` (in the worker thread); a bug is a diagnostic, never a crash."""
    name = to_fs_path(uri) or uri
    try:
        return analyse(text, name, checker)
    except Cancelled:
        raise
    except Exception as e:  # noqa: BLE001  # RecursionError and MemoryError too: the server lives
        traceback.print_exc(file=sys.stderr)
        return Analysis(text, [internal_error("the analysis", e)])


def diagnostic(uri: str, lines: features.Lines, report: Report) -> types.Diagnostic:
    """A `Report` in the protocol's terms: its notes as related information (at the
    diagnostic itself when a note has no place of its own)."""
    where = place(lines, report.line, report.column, report.width)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=uri,
                range=where if n.line is None else place(lines, n.line, n.column, n.width),
            ),
            message=n.message,
        )
        for n in report.notes
    ]
    return types.Diagnostic(
        range=where,
        message=report.message,
        severity=SEVERITIES.get(report.severity, types.DiagnosticSeverity.Error),
        source="gpu-lsp",
        related_information=related or None,
    )


def place(lines: features.Lines, line: int, column: int, width: int) -> types.Range:
    start = types.Position(line=line, character=column)
    return types.Range(start=start, end=types.Position(line=line, character=column + width))


def guarded(default: T, answer: Callable[[], T]) -> T:
    """`answer()`, or `default` (and the traceback on stderr) when it fails."""
    try:
        return answer()
    except Exception:  # noqa: BLE001  # a request never takes the server down
        traceback.print_exc(file=sys.stderr)
        return default


def make_server(debounce: float = DEBOUNCE, checks: Sequence[str] = CHECKS) -> GpuLanguageServer:
    server = GpuLanguageServer(debounce, checks)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GpuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, params.text_document.version, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GpuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, params.text_document.version, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: GpuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.schedule(uri, ls.workspace.get_text_document(uri).version, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GpuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    def at(ls: GpuLanguageServer, uri: str, position: types.Position) -> tuple[Analysis, int]:
        analysis = ls.analyses.get(uri) or Analysis(ls.workspace.get_text_document(uri).source)
        return analysis, features.Lines(analysis.text).offset(position)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: GpuLanguageServer, params: types.HoverParams) -> types.Hover | None:
        def answer() -> types.Hover | None:
            analysis, offset = at(ls, params.text_document.uri, params.position)
            return features.hover(analysis, ls.ctx, offset)

        return guarded(None, answer)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: GpuLanguageServer, params: types.DefinitionParams) -> list[types.Location]:
        def answer() -> list[types.Location]:
            uri = params.text_document.uri
            analysis, offset = at(ls, uri, params.position)
            return features.definition(analysis, uri, offset)

        return guarded([], answer)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: GpuLanguageServer, params: types.ReferenceParams) -> list[types.Location]:
        def answer() -> list[types.Location]:
            uri = params.text_document.uri
            analysis, offset = at(ls, uri, params.position)
            with_definition = params.context.include_declaration
            return features.references(analysis, uri, offset, with_definition)

        return guarded([], answer)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(
        ls: GpuLanguageServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        def answer() -> list[types.DocumentSymbol]:
            analysis = ls.analyses.get(params.text_document.uri)
            return [] if analysis is None else features.document_symbols(analysis)

        return guarded([], answer)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[".", "!", "@", "%", "<"]),
    )
    def completion(ls: GpuLanguageServer, params: types.CompletionParams) -> types.CompletionList:
        def answer() -> types.CompletionList:
            uri = params.text_document.uri
            text = ls.workspace.get_text_document(uri).source
            offset = features.Lines(text).offset(params.position)
            found = features.completion(ls.analyses.get(uri), ls.ctx, text, offset)
            return types.CompletionList(is_incomplete=False, items=found)

        return guarded(types.CompletionList(is_incomplete=False, items=[]), answer)

    return server


def main(argv: Sequence[str] | None = None) -> int:
    """gpu-lsp: serve the language server protocol on stdin and stdout."""
    parser = argparse.ArgumentParser(prog="gpu-lsp", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--debounce",
        type=float,
        default=DEBOUNCE,
        metavar="SECONDS",
        help=f"quiet after a change before the analysis (default {DEBOUNCE})",
    )
    parser.add_argument(
        "--check",
        action="append",
        default=[],
        metavar="PASS",
        help="also run this pass, which must only read the module (a plugin's check)",
    )
    parser.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py|MODULE",
        help="load the passes and dialects of a plugin (also $GPUIR_PLUGINS)",
    )
    parser.add_argument("--stdio", action="store_true", help="serve on stdio (the default)")
    parser.add_argument("--version", action="version", version=f"gpu-lsp {__version__}")
    args = parser.parse_args(argv)
    from gpuir.ir.plugins import PluginError, load_plugins

    try:
        load_plugins(args.load_pass_plugin)
    except PluginError as e:
        print(f"gpu-lsp: error: {e}", file=sys.stderr)
        return 1
    server = make_server(args.debounce, (*CHECKS, *args.check))
    server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
