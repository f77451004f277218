"""CalculateExpr: arithmetic only, parsed with Python's `ast` and walked by hand (never `eval`).

Rules:
- Allowed: numbers, + - * / // % **, unary + - (and `not`-free), parentheses, comparisons of numbers, calls of the
  whitelisted math functions below, and literal containers (list, tuple, dict, set) with strings/None/bools inside,
  since upstream models use CalculateExpr to echo lists and dicts (see the reference trajectories).
- Refused: names (other than the whitelisted functions), attributes, subscripts, comprehensions, lambdas, f-strings,
  keyword arguments, starred arguments, arithmetic on strings; `9**9**9` and any power, shift or product whose result
  would exceed `MAX_BITS` is refused before it is computed.
- Every refusal is `CalcError` with a one-line message (`name 'x' is not defined`, `invalid syntax (<string>, line 1)`
  as upstream reports them); the environment shows it as `[Error]: ...`.
"""
from __future__ import annotations

import ast
import math
import operator
from typing import Any

MAX_BITS = 4096  # largest integer result (about 1233 decimal digits)
MAX_ITEMS = 10_000  # largest container literal / argument list
FUNCTIONS: dict[str, Any] = {
    "abs": abs, "round": round, "min": min, "max": max, "sum": sum, "len": len, "float": float, "int": int,
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "log2": math.log2, "log10": math.log10,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "floor": math.floor, "ceil": math.ceil, "fabs": math.fabs,
}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}


class CalcError(Exception):
    """The expression is refused or fails; the message is one line."""


def calculate(expr: str) -> Any:
    """The value of an arithmetic expression, or CalcError."""
    if len(expr) > 10_000:
        raise CalcError("the expression is too long")
    try:
        tree = ast.parse(expr.strip(), "<string>", "eval")
    except SyntaxError as exc:
        raise CalcError(" ".join(str(exc).split())) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise CalcError(f"cannot parse the expression: {type(exc).__name__}") from None
    try:
        return _eval(tree.body)
    except CalcError:
        raise
    except RecursionError:
        raise CalcError("the expression is nested too deeply") from None
    except (ArithmeticError, ValueError, TypeError) as exc:
        raise CalcError(" ".join(str(exc).split()) or type(exc).__name__) from None


def format_result(value: Any) -> str:
    """str() of the value with float noise removed (36.29 - 19.48 -> 16.81), as upstream shows results."""
    return str(_tidy(value))


def _tidy(v: Any) -> Any:
    if isinstance(v, float) and math.isfinite(v):
        return float(f"{v:.16g}")
    if isinstance(v, list):
        return [_tidy(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_tidy(x) for x in v)
    if isinstance(v, dict):
        return {k: _tidy(x) for k, x in v.items()}
    return v


def _number(v: Any, what: str) -> int | float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise CalcError(f"{what} needs numbers, got {type(v).__name__}")
    return v


def _bits(v: int | float) -> float:
    if isinstance(v, int):
        return v.bit_length()
    return 0.0 if v == 0 or not math.isfinite(v) else max(0.0, math.log2(abs(v)))


def _check_size(op: type, a: int | float, b: int | float) -> None:
    if not (isinstance(a, int) and isinstance(b, int)):
        return  # float overflow raises OverflowError by itself
    if op is ast.Pow:
        if b < 0:
            return
        if abs(a) > 1 and b * _bits(a) > MAX_BITS:
            raise CalcError(f"the power is too large to compute (more than {MAX_BITS} bits)")
    elif op is ast.Mult and _bits(a) + _bits(b) > MAX_BITS:
        raise CalcError(f"the product is too large to compute (more than {MAX_BITS} bits)")


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (int, float, str, bool)) or node.value is None:
            return node.value
        raise CalcError(f"unsupported constant {type(node.value).__name__}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        a, b = _number(_eval(node.left), "arithmetic"), _number(_eval(node.right), "arithmetic")
        _check_size(type(node.op), a, b)
        return _BINARY[type(node.op)](a, b)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        v = _number(_eval(node.operand), "arithmetic")
        return v if isinstance(node.op, ast.UAdd) else -v
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        left = _number(_eval(node.left), "comparison")
        for op, right_node in zip(node.ops, node.comparators):
            right = _number(_eval(right_node), "comparison")
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        if len(node.elts) > MAX_ITEMS:
            raise CalcError("the literal is too long")
        items = [_eval(e) for e in node.elts]
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict):
        if None in node.keys or len(node.keys) > MAX_ITEMS:
            raise CalcError("unsupported dict literal")
        return {_eval(k): _eval(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            what = node.func.id if isinstance(node.func, ast.Name) else type(node.func).__name__
            raise CalcError(f"name '{what}' is not defined" if isinstance(node.func, ast.Name) else f"calling {what} is not allowed")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > MAX_ITEMS:
            raise CalcError(f"{node.func.id}() takes positional arguments only")
        args = [_eval(a) for a in node.args]
        for a in args:
            if isinstance(a, str) and node.func.id not in ("len",):
                raise CalcError(f"{node.func.id}() needs numbers, got str")
        return FUNCTIONS[node.func.id](*args)
    if isinstance(node, ast.Name):
        raise CalcError(f"name '{node.id}' is not defined")
    raise CalcError(f"{type(node).__name__} is not allowed in an arithmetic expression")
