"""agent/ reads the store only through pipeline.read (plus pipeline.config, pipeline.llm and schemas/);
pipeline/ never imports agent/."""
from __future__ import annotations

import ast

from tests.conftest import REPO

ALLOWED = {"pipeline.read", "pipeline.config", "pipeline.llm", "pipeline"}


def _imports(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            if node.module == "pipeline":
                out.update(f"pipeline.{a.name}" for a in node.names)
    return out


def test_agent_uses_only_the_read_api():
    for path in (REPO / "agent").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith("pipeline") and m not in ALLOWED}
        assert not bad, f"{path.name} imports {bad}"


def test_pipeline_never_imports_agent():
    for path in (REPO / "pipeline").rglob("*.py"):
        assert not {m for m in _imports(path) if m == "agent" or m.startswith("agent.")}, path


def test_every_agent_module_states_its_rules():
    for path in (REPO / "agent").rglob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, path.name
