"""The action specs (agent/resources/actions.json, facts of the NeuSym-RAG action space) and their Markdown rendering.

Rules: specs are data; this module only types and renders them. A call is rendered as `Name(k=repr(v), ...)`, the way
the seeds show use cases and the way `agent.parse` reads them back.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "resources"


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    required: bool
    description: str
    default: Any = None


@dataclass(frozen=True)
class ActionSpec:
    name: str
    description: str
    observation: str
    params: tuple[Param, ...]
    use_cases: tuple[dict[str, Any], ...]

    def signature(self) -> str:
        parts = [f"{p.name}: {p.type}" if p.required else f"{p.name}: {p.type} = {p.default!r}" for p in self.params]
        return f"{self.name}({', '.join(parts)})"


@lru_cache(maxsize=None)
def load_data(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def specs() -> dict[str, ActionSpec]:
    out = {}
    for name, raw in load_data("actions.json").items():
        params = tuple(Param(p, v["type"], bool(v["required"]), v["description"], v.get("default"))
                       for p, v in raw["parameters"].items())
        out[name] = ActionSpec(raw["action_type"], raw["description"], raw["observation"], params, tuple(raw["use_cases"]))
    return out


def render_call(name: str, kwargs: dict[str, Any]) -> str:
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"


def render_spec(spec: ActionSpec) -> str:
    t = load_data("prompts.json")["action_spec"]
    params = "\n".join(
        t["required"].format(name=p.name, type=p.type, description=p.description) if p.required else
        t["optional"].format(name=p.name, type=p.type, default=repr(p.default), description=p.description)
        for p in spec.params)
    cases = t["case_separator"].join(
        t["case"].format(n=i, explanation=c["explanation"], call=render_call(spec.name, c["example"]))
        for i, c in enumerate(spec.use_cases, 1))
    return t["section"].format(name=spec.name, description=spec.description, observation=spec.observation,
                               signature=spec.signature(), parameters=params, cases=cases)


def render_specs(names: list[str]) -> str:
    t = load_data("prompts.json")["action_spec"]
    return t["spec_separator"].join(render_spec(specs()[n]) for n in names) + t["end"]
