"""Reading a program: its text parsed with each op's location, or imported from upstream MLIR
(gpu-run and the Python API read programs this way)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuir.ir.source import ParsedChunk, SourceError, format_parse_error, parse_module


def parse_program(
    text: str, name: str, upstream: bool = False, passes: Sequence[str] = ()
) -> ParsedChunk:
    """A program's text parsed, with each op's location: upstream MLIR (recognised by its
    content, or `upstream`, or upstream `passes` to run on it first: `gpuir.ir.upstream.PASSES`)
    is imported into gpuir's dialects first. A user error is a `SourceError` that holds the
    located diagnostic."""
    from xdsl.utils.exceptions import ParseError

    from gpuir.dialects import make_context
    from gpuir.ir.locating_parser import LocatingParser
    from gpuir.ir.upstream import is_upstream

    if upstream or passes or is_upstream(text):
        from gpuir.ir.upstream.importer import UpstreamImportError, read_upstream_program

        try:
            return read_upstream_program(text, name, passes)
        except UpstreamImportError as e:
            raise SourceError(str(e)) from e
    parser = LocatingParser(make_context(), text, name)
    try:
        module = parse_module(parser)
    except ParseError as e:
        raise SourceError(format_parse_error(e, 0)) from e
    parsed = ParsedChunk(module, name, text, 0, parser.op_starts)
    parsed.set_locations()
    return parsed
