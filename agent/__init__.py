"""The agent runtime: an LLM answers questions over a paperbase store by acting in the NeuSym-RAG action space.

Rules:
- Downstream of `pipeline/`: reads DuckDB and Milvus only through `pipeline.read.Reader`, talks to models only through
  `pipeline.llm`, renders prompts from `schemas/` and the data files in `agent/resources/`. `pipeline/` never imports us.
- One job per module: `specs` (action specs as data), `parse` (model text -> action), `calc` (safe arithmetic),
  `observe` (observation strings), `env` (run an action against the store), `prompts` (system/task messages),
  `loop` (the turn loop), `config` (settings), `cli` (the `ask` command's logic).
"""
