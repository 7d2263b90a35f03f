"""gpuir's front-door layer, between `dialects` and `passes`: what every tool, the API and the
passes that run pipelines of their own share.

- `registry.py`: the one registry of passes (each layer adds its own; plugins likewise);
- `source.py`: a program's text in chunks, and its diagnostics rendered at their ops
  (`file:line:col: error: …`, the source line, a caret);
- `locating_parser.py`: xDSL's MLIR parser, remembering where each op starts.
"""
