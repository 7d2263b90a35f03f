"""gpuir's front-door layer, between `dialects` and `passes`: what every tool, the API and the
passes that run pipelines of their own share.

- `registry.py`: the one registry of passes (each layer adds its own; plugins likewise);
- `source.py`: a program's text in chunks, and its diagnostics rendered at their ops
  (`file:line:col: error: …`, the source line, a caret);
- `locating_parser.py`: xDSL's MLIR parser, remembering where each op starts;
- `diagnostics.py`: `OpError`, the user error at an op that every layer above raises;
- `verifier.py`, `dominance.py`: the verifier the tools and the API run (xDSL's, and SSA
  dominance, which xDSL's does not check);
- `plugins.py`: passes and dialects from plugin files, modules and entry points.
"""
