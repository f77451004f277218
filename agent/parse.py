"""Model text -> action: read `[Thought]: ... [Action]: Name(...)` the way the seeds and trajectories show.

Rules:
- The action is the text after the first `[Action]:` (or the whole reply when it has no marker); it must start with a
  known action name. A hallucinated `[Observation]:` after the call is cut off.
- Arguments are Python literals (`ast.parse` + `ast.literal_eval`): positional or keyword, any quote style, triple
  quotes, multi-line strings. Nothing is ever evaluated beyond literals.
- Failure is a value, never an exception: `ParseError.observation` is the `[Error]: ...` text upstream shows, e.g.
  `Failed to parse a valid action from the response. ...` or `Failed to parse the parameters for action X ...`.
  A call of a name that is no action here gets one more sentence naming it (upstream says nothing of the name, and
  the model repeats it); otherwise the text is upstream's, byte for byte.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from agent.specs import render_call, specs

_ACTION = re.compile(r"\[Action\]:")
_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")  # a call of some name: the model meant an action by that name
_THOUGHT = re.compile(r"\[Thought\]:\s*(.*?)\s*(?=\[Action\]:|$)", re.S)


@dataclass
class Action:
    name: str
    args: dict[str, Any] = field(default_factory=dict)

    def call(self) -> str:
        return render_call(self.name, self.args)


@dataclass
class ParseError:
    message: str  # the text after `[Error]: `

    @property
    def observation(self) -> str:
        return f"[Error]: {self.message}"


def thought_of(text: str) -> str:
    m = _THOUGHT.search(text)
    return m.group(1) if m else ""


def _action_text(text: str) -> str:
    m = _ACTION.search(text)
    body = text[m.end():] if m else text
    cut = body.find("[Observation]:")
    return (body[:cut] if cut >= 0 else body).strip()


def parse_action(text: str, allowed: list[str]) -> Action | ParseError:
    """The action in a model reply, or why there is none (an error the model can read)."""
    body = _action_text(text)
    name = next((n for n in sorted(allowed, key=len, reverse=True)
                 if body.startswith(n) and body[len(n):].lstrip().startswith("(")), None)
    if name is None:
        called = _CALLED.match(body)
        named = ""
        if called and called[1] in specs():
            named = f" The action {called[1]} is not available to this agent."
        elif called:
            named = f" The action {called[1]} does not exist."
        return ParseError(f"Failed to parse a valid action from the response.{named} Please check the specification "
                          f"for these actions {allowed}.")
    try:
        return Action(name, _bind(name, *_literal_args(body)))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return ParseError(f"Failed to parse the parameters for action {name} from the response. {reason}.")


def _literal_args(body: str) -> tuple[list[Any], dict[str, Any]]:
    tree = ast.parse(body)  # SyntaxError -> "invalid syntax (<unknown>, line 1)", as upstream
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr) or not isinstance(tree.body[0].value, ast.Call):
        raise SyntaxError("expected exactly one action call")
    call = tree.body[0].value
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise SyntaxError("* and ** arguments are not allowed")
    return [ast.literal_eval(a) for a in call.args], {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def _bind(name: str, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    params = specs()[name].params
    if len(args) > len(params):
        raise TypeError(f"{name} takes at most {len(params)} arguments ({len(args)} given)")
    bound: dict[str, Any] = {}
    for p, v in zip(params, args):
        bound[p.name] = v
    known = {p.name for p in params}
    for k, v in kwargs.items():
        if k not in known:
            raise TypeError(f"{name} got an unexpected keyword argument {k!r}")
        if k in bound:
            raise TypeError(f"{name} got multiple values for argument {k!r}")
        bound[k] = v
    for p in params:
        if p.name not in bound:
            if p.required:
                raise TypeError(f"{name} missing required argument {p.name!r}")
            bound[p.name] = p.default
        bound[p.name] = _check_type(name, p.name, p.type, bound[p.name])
    return {p.name: bound[p.name] for p in params}


def _check_type(action: str, param: str, kind: str, value: Any) -> Any:
    if kind == "str" and not isinstance(value, str):
        raise TypeError(f"{action} parameter {param!r} must be a string, got {type(value).__name__}")
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise TypeError(f"{action} parameter {param!r} must be an integer, got {value!r}")
        return int(value)
    if kind == "List[float]":
        if not isinstance(value, (list, tuple)) or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
            raise TypeError(f"{action} parameter {param!r} must be a list of numbers, got {value!r}")
        return [float(x) for x in value]
    return value
