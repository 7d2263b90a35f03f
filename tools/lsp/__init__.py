"""gpu-lsp: a language server for gpuir programs (`docs/editor.md`).

`analysis` runs what gpu-opt runs on a text and keeps its diagnostics; `index` knows where each
value, block and symbol is defined and used; `features` answers hover, definition, references,
document symbols and completion from them; `server` speaks the protocol (pygls) over stdio.
"""
