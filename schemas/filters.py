"""Validate a vectorstore `filter` against the grammar in filter_rules.json and the collection's fields.

Rules:
- Operators come from filter_rules.json only: logical (not, and, or), binary arithmetic (+ - * / ** %), relational
  (< > == != <= >= in) and the array operations (`field[i]`, array_contains, array_length), plus `like` on strings
  (Milvus' prefix/infix match, which upstream models use). Names must be fields of the collection (never `vector`).
- Values are literals: strings, numbers, booleans, lists of those. Anything else (sub-queries, calls of other
  functions, attributes, `=` for equality) is refused with a one-line reason the model can act on.

Why Python's `ast`: after mapping the grammar's words (`and/or/not/in/like`, any case) to Python tokens with the
standard `tokenize` module (which already handles quotes and escapes, so a keyword inside a string literal is never
touched), the Milvus boolean grammar is a subset of Python's expression grammar with the same precedence
(not > and > or, comparisons bind looser than arithmetic). `ast.parse` then gives the correct tree for free and the
check is a closed whitelist of node types; a home-made tokenizer + precedence parser would re-implement both.
`like` is mapped to Python's `is` (a comparison at the same precedence that the grammar does not otherwise use).
"""
from __future__ import annotations

import ast
import io
import tokenize

from schemas.vectorstore import collection as _collection, filter_rules

_WORDS = {"and": "and", "or": "or", "not": "not", "in": "in", "like": "is"}
_COMPARE = {ast.Lt: "<", ast.Gt: ">", ast.Eq: "==", ast.NotEq: "!=", ast.LtE: "<=", ast.GtE: ">=", ast.In: "in",
            ast.NotIn: "not in", ast.Is: "like"}
_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.Mod: "%"}
_SUGGEST = {"paper_id": "pdf_id", "ref_paper_id": "pdf_id", "page": "page_number", "page_id": "page_number",
            "ref_page_id": "page_number", "table": "table_name", "column": "column_name"}
MAX_LENGTH = 4000


class FilterError(ValueError):
    """The filter is not valid for this collection; the message is one line."""


def _grammar_symbols() -> set[str]:
    ops = filter_rules()["operators"]
    return {o["symbol"] for group in ops.values() for o in group}


def _map_words(text: str) -> str:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        raise FilterError(f"cannot tokenize the filter: {exc.args[0] if exc.args else exc}") from None
    out = []
    for tok in tokens:
        if tok.type == tokenize.NAME and tok.string.lower() in _WORDS:
            tok = tok._replace(string=_WORDS[tok.string.lower()])
        out.append(tok)
    return tokenize.untokenize(out)


def validate_filter(text: str, collection_name: str) -> None:
    """Raise FilterError unless `text` is a valid filter for the collection (an empty filter is valid)."""
    if not text or not text.strip():
        return
    if len(text) > MAX_LENGTH:
        raise FilterError(f"the filter is longer than {MAX_LENGTH} characters")
    try:
        coll = _collection(collection_name)
    except KeyError as exc:
        raise FilterError(str(exc.args[0])) from None
    fields = {f.name: f for f in coll.fields if f.name != "vector" and not f.storage_only}
    mapped = _map_words(text.strip())
    try:
        tree = ast.parse(mapped.strip(), "<filter>", "eval")
    except SyntaxError as exc:
        hint = " (use `==` for equality)" if "=" in text and "==" not in text else ""
        raise FilterError(f"syntax error: {exc.msg}{hint}") from None
    _Checker(fields, _grammar_symbols()).check(tree.body, boolean=True)


class _Checker:
    def __init__(self, fields: dict, symbols: set[str]):
        self.fields, self.symbols = fields, symbols

    def field(self, name: str) -> None:
        if name not in self.fields:
            better = _SUGGEST.get(name)
            tail = f", please use `{better}` instead" if better else f"; valid fields are {sorted(self.fields)}"
            raise FilterError(f"`{name}` is not a valid field name of stored data entries in the vectorstore{tail}.")

    def kind(self, node: ast.AST) -> str | None:
        """'str' or 'num' for a scalar field or literal, None when unknown (arrays, arithmetic, lists)."""
        if isinstance(node, ast.Name) and node.id in self.fields:
            dtype = self.fields[node.id].dtype
            return "str" if dtype == "VARCHAR" else "num" if dtype.startswith(("INT", "FLOAT", "DOUBLE")) else None
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
            return "str" if isinstance(node.value, str) else "num"
        return None

    def same_kind(self, a: ast.AST, b: ast.AST) -> None:
        """A string field compared with a number (or the reverse) is refused here, not by Milvus at search time."""
        if isinstance(b, ast.List):
            if not b.elts:
                return
            b = b.elts[0]
        for field, other in ((a, b), (b, a)):
            if isinstance(field, ast.Name) and field.id in self.fields:
                want, got = self.kind(field), self.kind(other)
                if want and got and want != got:
                    raise FilterError(f"`{field.id}` must be compared with {'a string' if want == 'str' else 'a number'}")

    def check(self, node: ast.AST, boolean: bool = False) -> None:
        if isinstance(node, ast.BoolOp):
            for v in node.values:
                self.check(v, boolean=True)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.check(node.operand, boolean=True)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            self.check(node.operand)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, right in zip(node.ops, node.comparators):
                if type(op) not in _COMPARE:
                    raise FilterError(f"operator {type(op).__name__} is not in the filter grammar")
                if isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, ast.List):
                    raise FilterError("`in` needs a list literal on its right, e.g. pdf_id in ['a', 'b']")
                if isinstance(op, ast.Is) and not (isinstance(right, ast.Constant) and isinstance(right.value, str)):
                    raise FilterError("`like` needs a string pattern on its right, e.g. primary_key like 'abc%'")
            for operand in operands:
                self.check(operand)
            for a, b in zip(operands, operands[1:]):
                self.same_kind(a, b)
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _BINARY:
                raise FilterError(f"operator {type(node.op).__name__} is not in the filter grammar")
            self.check(node.left)
            self.check(node.right)
        elif isinstance(node, ast.Name):
            if node.id in ("True", "False"):
                return
            self.field(node.id)
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, (str, int, float, bool)):
                raise FilterError(f"unsupported literal {node.value!r}")
            if boolean and not isinstance(node.value, bool):
                raise FilterError(f"{node.value!r} is not a condition")
        elif isinstance(node, ast.List):
            for elt in node.elts:
                if not isinstance(elt, ast.Constant) and not (isinstance(elt, ast.UnaryOp) and isinstance(elt.operand, ast.Constant)):
                    raise FilterError("list elements must be literals")
                self.check(elt)
        elif isinstance(node, ast.Subscript):
            if not isinstance(node.value, ast.Name):
                raise FilterError("only a field can be indexed, e.g. bbox[0]")
            self.field(node.value.id)
            if self.fields[node.value.id].dtype != "ARRAY":
                raise FilterError(f"`{node.value.id}` is not an array field")
            if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int) and not isinstance(node.slice.value, bool)):
                raise FilterError("an array index must be an integer literal")
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name is None or name not in self.symbols or node.keywords:
                raise FilterError(f"function {name or type(node.func).__name__} is not in the filter grammar "
                                  f"(array_contains, array_length)")
            if not node.args or not isinstance(node.args[0], ast.Name):
                raise FilterError(f"{name} needs an array field as its first argument")
            self.field(node.args[0].id)
            for a in node.args[1:]:
                self.check(a)
        else:
            raise FilterError(f"{type(node).__name__} is not allowed in a filter (see the filter grammar)")


__all__ = ["FilterError", "validate_filter"]
