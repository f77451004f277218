"""Offline LaTeX reconstruction of one display equation from glyph geometry (see docs/equations.md).

Input: the glyphs of the equation (char, bbox, font, size) and the horizontal rules drawn inside it. Structure is
rebuilt bottom-up: radical sign + overbar -> \\sqrt{}, rule with glyphs above and below -> \\frac{}{}, small
glyphs above/below a big operator -> limits, separate baselines -> rows, and smaller glyphs raised or lowered
against the running baseline -> ^{} / _{}. Runs of glyphs in one font go through the symbol tables.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.parse.pymupdf._glyphs import CMEX_CODES
from pipeline.parse.pymupdf._latex_symbols import CMEX, SYMBOLS, base_font, span_latex

Rect = tuple[float, float, float, float]


@dataclass
class Atom:
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    text: str  # raw glyph(s) for kind "g"; ready LaTeX otherwise
    font: str = ""
    kind: str = "g"  # g: glyph, op: big operator, frac/sqrt/lim: built
    axis: float | None = None  # vertical centre used for script detection (fraction bar for fractions)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return self.axis if self.axis is not None else (self.y0 + self.y1) / 2


_OPENTYPE_OPS = {"∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "⋃": r"\bigcup", "⋂": r"\bigcap"}
OPENTYPE_MATH = re.compile(r"[A-Za-z]+Math(?:-|$)")  # LatinModernMath-Regular, STIXTwoMath, TeXGyreTermesMath


def glyph_atoms(chars: list[tuple[str, Rect, str, float]]) -> list[Atom]:
    """One atom per visible glyph. CMEX glyphs arrive as their TeX character codes (see CMEX); any still
    unmapped ones are big operators when wide, delimiters when narrow."""
    atoms = []
    for ch, (x0, y0, x1, y1), font, size in chars:
        if ch.isspace():
            continue
        kind = "g"
        cmex = bool(CMEX_CODES.match(base_font(font)))  # lmodern's, kpfonts', ...: CMEX's codes
        if cmex and ord(ch) < 0x80:
            ch, kind = CMEX.get(ord(ch), ("", ""))
            if kind == "rad":
                kind = "g"
            if not ch:
                continue
        elif 0xF8E5 <= ord(ch) <= 0xF8FE:  # pieces of tall delimiters: keep the top piece as the delimiter
            ch, kind = SYMBOLS.get(ch, ""), "delim"
            if not ch:
                continue
        elif ch == "\ufffd" and cmex:
            if x1 - x0 >= 0.85 * size:
                kind, ch = "op", r"\sum"
            else:
                kind, ch = "delim", "\x00"  # unknown shape; the pairing pass below turns pairs into ( )
        elif ord(ch) < 0x20:
            continue  # an unmapped code from another font
        elif ch in "∑∏∫⋃⋂" and y1 - y0 > 1.2 * size:
            kind = "op"
        elif ch in _OPENTYPE_OPS and x1 - x0 >= 1.3 * size and OPENTYPE_MATH.match(base_font(font)):
            # an OpenType maths font's display variant (unicode-math): the text one's box height, 1.4x its width
            ch, kind = _OPENTYPE_OPS[ch], "op"
        atoms.append(Atom(x0, y0, x1, y1, size, ch, font, kind))
    _pair_delimiters(atoms)
    return _attach_accents(atoms)


def _pair_delimiters(atoms: list[Atom]) -> None:
    """Unknown big delimiters come in left/right pairs: render them as ( and )."""
    open_ = True
    for a in sorted((a for a in atoms if a.kind == "delim" and a.text == "\x00"), key=lambda a: a.x0):
        a.text = "(" if open_ else ")"
        open_ = not open_


ACCENTS = {"˜": "tilde", "~": "tilde", "ˆ": "hat", "^": "hat", "¯": "bar", "˙": "dot", "¨": "ddot", "→": "vec", "´": "acute", "`": "grave"}


def _attach_accents(atoms: list[Atom]) -> list[Atom]:
    """An accent glyph sits over its base glyph (same x, higher up): fold it into \\hat{x}-style atoms."""
    out = []
    for a in atoms:
        if a.kind == "g" and a.text in ACCENTS and not _is_arrow(a):
            base = max((b for b in atoms if b is not a and b.kind == "g" and b.text not in ACCENTS and b.x0 - 1 <= a.cx <= b.x1 + 1
                        and b.cy > a.cy and b.y0 - a.y1 < 0.5 * b.size), key=lambda b: b.size, default=None)
            if base is not None:
                base.text = "\\" + ACCENTS[a.text] + "{" + span_latex(base.text, base.font) + "}"
                base.kind = "acc"
                continue
        out.append(a)
    return out


def _is_arrow(a: Atom) -> bool:
    """'→' is an accent only when small (\\vec); full-size it is \\rightarrow."""
    return a.text == "→" and a.size > 8


def _size(atoms: list[Atom]) -> float:
    sizes = [a.size for a in atoms if a.kind == "g"] or [a.size for a in atoms]
    return max(sizes) if sizes else 10.0


def _take(atoms: list[Atom], pred) -> tuple[list[Atom], list[Atom]]:
    yes = [a for a in atoms if pred(a)]
    return yes, [a for a in atoms if not pred(a)]


def _structures(atoms: list[Atom], rules: list[Rect]) -> list[Atom]:
    """Replace sqrt/fraction/limit groups by single built atoms (widest rule first, so nesting works)."""
    # Radicals first (innermost first), so a fraction sees a finished \sqrt{} atom in its denominator.
    rules = sorted(rules, key=lambda r: r[2] - r[0])
    for r in list(rules):
        y = (r[1] + r[3]) / 2
        rad = next((a for a in atoms if a.text == "√" and abs(a.x1 - r[0]) < 3 and a.y0 - 4 <= y <= a.y1 + 2), None)
        if rad is None or r not in rules:
            continue
        within = lambda a: r[0] - 1.5 <= a.cx <= r[2] + 1.5  # noqa: E731
        inner, atoms = _take([a for a in atoms if a is not rad], lambda a: within(a) and y < a.cy <= max(rad.y1, y + 1.2 * rad.size))
        sub = [q for q in rules if q is not r and r[0] - 1 <= q[0] and q[2] <= r[2] + 1 and y < q[1] <= rad.y1]
        rules = [q for q in rules if q is not r and q not in sub]
        axis = sum(a.cy for a in inner) / len(inner) if inner else rad.cy
        atoms.append(Atom(rad.x0, min(rad.y0, y), r[2], max([rad.y1] + [a.y1 for a in inner]), rad.size,
                          r"\sqrt{" + render(inner, sub) + "}", kind="sqrt", axis=axis))
    rules.sort(key=lambda r: -(r[2] - r[0]))
    while rules:
        r = rules.pop(0)
        y = (r[1] + r[3]) / 2
        S = _size([a for a in atoms if r[0] - 2 <= a.cx <= r[2] + 2] or atoms)
        within = lambda a: r[0] - 1.5 <= a.cx <= r[2] + 1.5  # noqa: E731
        num, rest = _take(atoms, lambda a: within(a) and y - 2.4 * S <= a.cy < y)
        den, rest = _take(rest, lambda a: within(a) and y < a.cy <= y + 2.4 * S)
        if not num or not den:
            continue
        sub_n = [q for q in rules if r[0] - 1 <= q[0] and q[2] <= r[2] + 1 and y - 2.4 * S <= q[1] < y]
        sub_d = [q for q in rules if r[0] - 1 <= q[0] and q[2] <= r[2] + 1 and y < q[1] <= y + 2.4 * S]
        rules = [q for q in rules if q not in sub_n and q not in sub_d]
        tex = r"\frac{" + render(num, sub_n) + "}{" + render(den, sub_d) + "}"
        group = num + den
        atoms = rest + [Atom(r[0], min(a.y0 for a in group), r[2], max(a.y1 for a in group), S, tex, kind="frac", axis=y)]
    ops = sorted((a for a in atoms if a.kind == "op"), key=lambda a: a.x0)
    for op in ops:
        h = op.y1 - op.y0
        # limits sit centred over/under the operator; scripts of a text-style operator start at its right edge
        near = lambda a: a is not op and a.kind == "g" and a.size < 0.9 * op.size and a.x0 < op.x1 - 0.25 * (op.x1 - op.x0) and a.x1 > op.x0  # noqa: E731
        upper, atoms = _take(atoms, lambda a: near(a) and a.y1 <= op.y0 + 0.25 * h and a.y1 >= op.y0 - 1.2 * op.size)
        lower, atoms = _take(atoms, lambda a: near(a) and a.y0 >= op.y1 - 0.25 * h and a.y0 <= op.y1 + 1.2 * op.size)
        upper, atoms = _whole_limit(upper, atoms, op, ops)
        lower, atoms = _whole_limit(lower, atoms, op, ops)
        if upper or lower:
            tex = op.text + ("_{" + render(lower, []) + "}" if lower else "") + ("^{" + render(upper, []) + "}" if upper else "")
            atoms = [a for a in atoms if a is not op] + [Atom(op.x0, op.y0, op.x1, op.y1, op.size, tex, kind="lim", axis=op.cy)]
    return atoms


def _whole_limit(limit: list[Atom], atoms: list[Atom], op: Atom, ops: list[Atom]) -> tuple[list[Atom], list[Atom]]:
    """A limit wider than its operator (`j \\in R(i)` under a `\\sum`) runs on past the operator's edges: script-size
    glyphs on the limit's baseline that continue it without a gap join it (they were `{}_{i)}` after the sum), up
    to the glyphs under or over another operator (`\\sum_{i=1}\\sum_{j=1}`: `j=1` is the next sum's)."""
    others = [o for o in ops if o is not op]
    if not limit:
        return limit, atoms
    limit, atoms = list(limit), list(atoms)
    while True:
        y0, y1 = min(a.y0 for a in limit), max(a.y1 for a in limit)
        x0, x1 = min(a.x0 for a in limit), max(a.x1 for a in limit)
        gap = 0.5 * max(a.size for a in limit)
        more = [a for a in atoms if a is not op and a.kind == "g" and a.size < 0.9 * op.size
                and min(a.y1, y1) - max(a.y0, y0) > 0.5 * (a.y1 - a.y0)
                and (0 <= a.x0 - x1 < gap or 0 <= x0 - a.x1 < gap)
                and not any(o.x0 - 1 <= a.cx <= o.x1 + 1 for o in others)]
        if not more:
            return limit, atoms
        limit += more
        atoms = [a for a in atoms if not any(a is m for m in more)]


def _small(a: Atom, S: float) -> bool:
    """A script-sized glyph (possibly accented); built structures are never scripts here."""
    return a.kind in ("g", "acc") and a.size < 0.9 * S


def _rows(atoms: list[Atom], S: float) -> list[list[Atom]]:
    """Split into baselines: full-size atoms that do not overlap vertically start a new row."""
    # CMEX glyphs (sized delimiters, big operators) float: their boxes come from the font's metrics and say
    # little about where they are drawn, so they join the nearest row instead of starting one
    floating = ("delim", "op", "lim")
    bases = sorted((a for a in atoms if not _small(a, S) and a.kind not in floating), key=lambda a: a.y0)
    rows: list[list[Atom]] = []
    spans: list[list[float]] = []
    for a in bases:
        if spans and a.y0 < spans[-1][1] - 0.2 * S:  # overlaps the current row vertically
            rows[-1].append(a)
            spans[-1][1] = max(spans[-1][1], a.y1)
        else:
            rows.append([a])
            spans.append([a.y0, a.y1])
    for a in atoms:
        if _small(a, S) or a.kind in floating:
            k = min(range(len(spans)), key=lambda i: 0 if spans[i][0] - 0.6 * S <= a.cy <= spans[i][1] + 0.6 * S else abs(a.cy - (spans[i][0] + spans[i][1]) / 2)) if spans else 0
            if not rows:
                rows.append([])
            rows[k].append(a)
    return rows


def _linear(atoms: list[Atom], S: float) -> str:
    atoms = sorted(atoms, key=lambda a: a.x0)
    base_cy = sorted(a.cy for a in atoms if not _small(a, S) and a.kind != "delim")
    row_cy = base_cy[len(base_cy) // 2] if base_cy else (atoms[0].cy if atoms else 0.0)
    out: list[str] = []
    run: list[Atom] = []
    prev_cy = row_cy
    i = 0

    def flush() -> None:
        if run:
            out.append(span_latex("".join(a.text for a in run), run[0].font))
            run.clear()

    while i < len(atoms):
        a = atoms[i]
        if _small(a, S):  # a script group attached to what precedes
            sup: list[Atom] = []
            sub: list[Atom] = []
            while i < len(atoms) and _small(atoms[i], S):
                b = atoms[i]
                (sup if b.cy < prev_cy - 0.12 * S else sub if b.cy > prev_cy + 0.12 * S else run).append(b)
                i += 1
            flush()
            if sub:
                out.append("_{" + render(sub, []) + "}")
            if sup:
                out.append("^{" + render(sup, []) + "}")
            continue
        if a.kind != "g":
            flush()
            out.append(a.text + " ")
        else:
            if run and (run[-1].font != a.font or a.x0 - run[-1].x1 > 0.25 * S):
                flush()
            run.append(a)
        prev_cy = a.cy if a.kind not in ("g", "delim") or abs(a.cy - row_cy) < 0.3 * S else row_cy
        i += 1
    flush()
    return "".join(out)


def render(atoms: list[Atom], rules: list[Rect]) -> str:
    if not atoms:
        return ""
    atoms = _structures(atoms, rules)
    S = _size(atoms)
    rows = [r for r in _rows(atoms, S) if r]
    tex = r" \\ ".join(_linear(r, S) for r in rows)
    return tidy(tex)


def tidy(tex: str) -> str:
    tex = re.sub(r"\s+", " ", tex).strip()
    tex = re.sub(r"\s*([_^])\s*", r"\1", tex)
    tex = re.sub(r" ?([{}()\[\],=+]) ?", r"\1", tex)
    return tex
