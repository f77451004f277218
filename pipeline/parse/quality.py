"""What counts as a text defect and as a plausible equation: one definition for the parse core (which drops
implausible equation rows), the benchmark (`bench/text_quality.py`) and the tests.

Text defects, counted in the chunk text (issue 27's table):

- `split`: a word split by a line-break hyphen: `compo-\\nnent` or `large-\\nscale` (a hyphen before a line break
  inside a paragraph), `compo- nent` (the same joined with a space; a suspended hyphen before a conjunction,
  `first- and second-order`, is not counted), and `compo-nent` (a joined word that keeps its hyphen: the joined form
  is in the word list and neither half is a word; `pre-defined` is a compound as printed, not a defect);
- `accent`: a spacing accent (¨ ´ ˆ ˜ ˘ ˇ ˚ ¯ ˙ ¸ ˝ ˛, or a grave between letters) next to a letter, or a combining
  mark with no letter or digit to sit on: `Nystr¨om`;
- `math_alnum`: Mathematical Alphanumeric Symbols (U+1D400-U+1D7FF, and U+210E, the italic h they lack);
- `fffd`: U+FFFD, a glyph the PDF maps to no character;
- `soft_hyphen`: U+00AD.

An equation row is *plausible* when `latex_problem` finds nothing: it parses as LaTeX (pylatexenc, strict), its
braces, `\\left`/`\\right` and brackets balance (a half-open interval `[0, 1)` counts as balanced: only the totals of
opening and closing round/square brackets must agree), no base carries two subscripts or two superscripts
(`\\sum_{\\sigma}_{f}`), no script hangs on an operator or an opening bracket (`=_{x}`), it is not prose set in
`\\mathrm{}` words (unless it carries an equation number, `\\tag{}`: a numbered `cases` or a display with
`\\text{for all ...}` is mostly words), not a row of identifiers or numbers (an accession
table read as a formula) and it holds some mathematics (an operator, a relation, a script, a command or a Greek
letter).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from pylatexenc.latexwalker import (LatexCharsNode, LatexGroupNode, LatexMacroNode, LatexMathNode,
                                    LatexWalker, LatexWalkerError)

DEFECTS = ("split", "accent", "math_alnum", "fffd", "soft_hyphen")
SPACING_ACCENTS = "¨´ˆ˜˘ˇ˚¯˙¸˝˛"
# words a suspended hyphen stands before ("first- and second-order", "pre- or post-training")
SUSPENDED = frozenset({"and", "or", "nor", "to", "vs", "versus", "as", "but", "than", "und", "et"})

_BREAK_SPLIT = re.compile(r"([A-Za-z]{2,})-[ \t]*\n\s*([a-z]{2,})")
_SPACE_SPLIT = re.compile(r"\b([A-Za-z]{2,})- ([a-z]{2,})")
_KEPT_SPLIT = re.compile(r"\b([a-z]{2,})-([a-z]{2,})\b(?![./-]\w)")
_ACCENT = re.compile(rf"[A-Za-z][{SPACING_ACCENTS}]|[{SPACING_ACCENTS}] ?[A-Za-z]|[A-Za-z]`[A-Za-z]")
_MATH_ALNUM = re.compile("[\U0001d400-\U0001d7ff\u210e]")


@lru_cache(maxsize=1)
def word_list() -> dict[str, int]:
    """English words (lower case) -> frequency, pyspellchecker's maintained frequency list: the dictionary that
    decides whether a line-break hyphen joins a word or a compound (see normalize.py).

    The list is read from the package's own file: `SpellChecker()` reads that same file and then copies it into a
    Counter of its own, lower-casing keys that already are lower case. Every parser process loads this list, and the
    direct read takes half the time (0.17 s against 0.36 s). Should the file move in another release, the
    SpellChecker route is taken."""
    import gzip
    import json
    from importlib.resources import files

    try:
        words = json.loads(gzip.decompress(files("spellchecker").joinpath("resources/en.json.gz").read_bytes()))
        if isinstance(words, dict) and words:
            return words
    except (OSError, ValueError, ModuleNotFoundError):
        pass
    from spellchecker import SpellChecker

    return dict(SpellChecker(language="en", distance=1).word_frequency.dictionary)


def text_defects(text: str) -> Counter[str]:
    """Counts of each defect in `text` (keys: DEFECTS)."""
    words = word_list()
    out: Counter[str] = Counter({k: 0 for k in DEFECTS})
    out["split"] = (len(_BREAK_SPLIT.findall(text))
                    + sum(1 for a, b in _SPACE_SPLIT.findall(text) if b.lower() not in SUSPENDED)
                    + sum(1 for a, b in _KEPT_SPLIT.findall(text)
                          if a + b in words and a not in words and b not in words))
    out["accent"] = len(_ACCENT.findall(text)) + sum(
        1 for i, c in enumerate(text) if unicodedata.combining(c) and (i == 0 or not text[i - 1].isalnum()))
    out["math_alnum"] = len(_MATH_ALNUM.findall(text))
    out["fffd"] = text.count("\ufffd")
    out["soft_hyphen"] = text.count("\u00ad")
    return out


# ---- equations -------------------------------------------------------------------------------------------

_GREEK = frozenset("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi "
                   "rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi "
                   "Omega".split())
_WORD_MACROS = frozenset({"mathrm", "text", "textrm", "textit", "mathit", "operatorname", "textbf", "mbox"})
_IDENTIFIER = re.compile(r"^[A-Z]{1,4}_?\d{4,}(?:\.\d+)?$")  # GenBank/accession-like ids: KC123456, NC_000913
_MATHY = re.compile(r"[=<>+\-*/^_|≤≥≈∼∝→←↔∈∉⊂⊆∪∩∑∏∫√∞±×·÷]")


def _brackets_balance(latex: str) -> bool:
    body = re.sub(r"\\[{}]", "", latex)
    if body.count("{") != body.count("}"):
        return False
    if len(re.findall(r"\\left\b", latex)) != len(re.findall(r"\\right\b", latex)):
        return False
    if re.search(r"\\(?:left|right)\b(?!\s*(?:[()\[\]|./]|\\[{}|]|\\[lr](?:angle|brace|vert|Vert|floor|ceil)))", latex):
        return False  # \left or \right without its delimiter
    plain = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)[lr]?\s*[()\[\]]", "", latex)
    return plain.count("(") + plain.count("[") == plain.count(")") + plain.count("]")


def _double_script(latex: str) -> int:
    """Where a base gets a second subscript or superscript (`x_{a}_{b}`, `\\sum_i^n_j`, `x^2^3`, at any depth): the
    index of that second script's marker, or -1."""
    n = len(latex)

    def macro_end(i: int) -> int:
        j = i + 1
        while j < n and latex[j].isalpha():
            j += 1
        return j if j > i + 1 else min(n, i + 2)  # \alpha, or a one-character control symbol (\{ \, \\)

    def sequence(i: int) -> tuple[int, int]:
        """Scan from i to the closing brace of the current group; (index found or -1, index after it)."""
        run: set[str] = set()  # script kinds already attached to the current base
        while i < n:
            c = latex[i]
            if c == "}":
                return -1, i + 1
            if c.isspace():
                i += 1
                continue
            if c in "_^":
                if c in run:
                    return i, i
                run.add(c)
                i += 1
                while i < n and latex[i] == " ":
                    i += 1
                if i < n and latex[i] == "{":
                    found, i = sequence(i + 1)
                    if found >= 0:
                        return found, i
                elif i < n and latex[i] == "\\":
                    i = macro_end(i)
                else:
                    i += 1
                continue
            run = set()  # a new base
            if c == "{":
                found, i = sequence(i + 1)
                if found >= 0:
                    return found, i
            elif c == "\\":
                i = macro_end(i)
            else:
                i += 1
        return -1, i

    return sequence(0)[0]


def _words(nodes, out: list[str]) -> None:
    for node in nodes or ():
        if isinstance(node, LatexMacroNode):
            if node.macroname in _WORD_MACROS and node.nodeargd and node.nodeargd.argnlist:
                for arg in node.nodeargd.argnlist:
                    if isinstance(arg, LatexGroupNode):
                        text = "".join(n.chars for n in arg.nodelist if isinstance(n, LatexCharsNode))
                        out.extend(re.findall(r"[A-Za-z]{2,}", text))
        elif isinstance(node, (LatexGroupNode, LatexMathNode)):
            _words(node.nodelist, out)


@lru_cache(maxsize=1)
def _latex_context():
    from pylatexenc.latexwalker import get_default_latex_context_db

    return get_default_latex_context_db()  # built once: a walker builds it anew by default (most of its cost)


_SCRIPT_WORD = re.compile(r"[_^]\{\\(?:mathrm|text|mathit|operatorname)\{[^{}]*\}\}")


@lru_cache(maxsize=4096)
def latex_problem(latex: str) -> str | None:
    """Why `latex` is not a plausible equation row, or None when it is (see the module docstring). Cached: the
    backend and the core judge the same rows."""
    body = re.sub(r"\\tag\{[^{}]*\}", "", latex or "").strip()
    if not body:
        return "empty"
    if not _brackets_balance(body):
        return "unbalanced"
    try:
        nodes, _, _ = LatexWalker(body, latex_context=_latex_context(), tolerant_parsing=False).get_latex_nodes()
    except LatexWalkerError:
        return "does not parse"
    except Exception:  # pylatexenc raises plain errors on some malformed input
        return "does not parse"
    if _double_script(body) >= 0:
        return "double script"
    words: list[str] = []
    # a word set as a sub- or superscript is a label (`x_{\mathrm{query}}`), not prose: neither side counts it
    unlabelled = _SCRIPT_WORD.sub("", body)
    if unlabelled != body:
        try:
            nodes = LatexWalker(unlabelled, latex_context=_latex_context(), tolerant_parsing=False).get_latex_nodes()[0]
        except Exception:  # the script groups were what held it together: judge the whole row
            unlabelled = body
    _words(nodes, words)
    letters = sum(ch.isalpha() for ch in re.sub(r"\\[A-Za-z]+", "", unlabelled))
    word_letters = sum(len(w) for w in words)
    # words inside a numbered display (`cases`' "if" and "otherwise", `\text{for all batches}`) are no prose: the
    # number printed at the margin says the row is a display
    if len(words) >= 3 and word_letters >= 0.6 * max(letters, 1) and body == (latex or "").strip():
        return "prose"
    plain = re.sub(r"\\(?:mathrm|text|mathbf|mathit|operatorname)\{([^{}]*)\}", r"\1", body)
    tokens = re.findall(r"[A-Za-z_]*\d[\w.]*|[A-Za-z]{2,}", plain)
    if sum(1 for t in tokens if _IDENTIFIER.match(t)) >= 2:
        return "identifiers"
    if re.search(r"(?:^|[=+\-*/(\[,|<>&])\s*[_^]", body):
        return "script without a base"  # `=_{x}`, `(1-_{\alpha)`: glyphs of a formula put together wrongly
    if not re.search(r"[A-Za-z0-9]", body):
        return "no mathematics"  # `***`, a rule of symbols
    commands = set(re.findall(r"\\([A-Za-z]+)", body)) - _WORD_MACROS - {"tag", "quad", "qquad"}
    if not commands and not _MATHY.search(body) and not (commands & _GREEK):
        return "no mathematics"
    return None


def plausible(latex: str) -> bool:
    return latex_problem(latex) is None


def _balance_braces(latex: str) -> str:
    out, depth = [], 0
    i = 0
    while i < len(latex):
        c = latex[i]
        if c == "\\" and i + 1 < len(latex):
            out.append(latex[i:i + 2])
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:  # a closing brace with nothing open: dropped
                i += 1
                continue
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out) + "}" * depth


def _balance_brackets(latex: str) -> str:
    """Round and square brackets that close nothing or are never closed are dropped (a glyph reconstruction loses
    one half of a tall delimiter); `(` and `[` pair with either closer, so half-open intervals stay."""
    keep = [True] * len(latex)
    stack: list[int] = []
    for i, c in enumerate(latex):
        if i and latex[i - 1] == "\\":
            continue
        if c in "([":
            stack.append(i)
        elif c in ")]":
            if stack:
                stack.pop()
            else:
                keep[i] = False
    for i in stack:
        keep[i] = False
    return "".join(c for c, k in zip(latex, keep) if k)


_BIG_OP = r"\\(?:sum|prod|int|oint|coprod|bigcup|bigcap|bigoplus|bigotimes|bigvee|bigwedge)"
_SPLIT_LIMIT = re.compile(r"([_^])\{([^{}]*)\}\s*(" + _BIG_OP + r")\1\{([^{}]*)\}")
_ORPHAN = re.compile(r"((?:^|[=+\-*/(\[,|<>&])\s*)[_^](?=\{)")


def _orphan_scripts(body: str) -> str:
    """Scripts hanging on nothing: a limit whose first part landed before its operator (`=_{i}\\sum_{=1}` ->
    `=\\sum_{i=1}`) is put back together; any other such script keeps its content as a plain group."""
    body = _SPLIT_LIMIT.sub(lambda m: f"{m[3]}{m[1]}{{{m[2]}{m[4]}}}", body)
    return _ORPHAN.sub(r"\1", body)


def repair_latex(latex: str) -> str:
    """Mechanical repairs of a reconstructed formula before it is judged: braces balanced, `\\left`/`\\right` dropped
    when they do not pair, unpaired round/square brackets dropped, a limit split around its operator put back and
    a script on no base made a plain group, a second script on one base given an empty base
    (`x_{a}_{b}` -> `x_{a}{}_{b}`, valid LaTeX that prints the same). Leaves a plausible formula unchanged."""
    if not latex or latex_problem(latex) is None:
        return latex
    tag = re.search(r"\s*\\tag\{[^{}]*\}\s*$", latex)
    body, suffix = (latex[: tag.start()], tag[0]) if tag else (latex, "")
    body = _balance_braces(body)
    if len(re.findall(r"\\left\b", body)) != len(re.findall(r"\\right\b", body)):
        body = re.sub(r"\\(?:left|right)\b\s*\.?", "", body)
    plain = re.sub(r"\\[{}()\[\]]", "", body)
    if plain.count("(") + plain.count("[") != plain.count(")") + plain.count("]"):
        body = _balance_brackets(body)
    body = _orphan_scripts(body)
    for _ in range(20):
        at = _double_script(body)
        if at < 0:
            break
        body = body[:at] + "{}" + body[at:]
    return body.strip() + suffix


def screen_equations(paper) -> None:
    """Every equation row of a merged paper repaired (`repair_latex`) and dropped when still implausible; the rows
    left keep their order and are numbered again per page. Counts go to `paper.text_stats`."""
    kept, ordinals = [], {}
    for eq in paper.equations:
        latex = repair_latex(eq.latex)
        if latex != eq.latex:
            paper.text_stats["equations_repaired"] += 1
        problem = latex_problem(latex)
        if problem is not None:
            paper.text_stats[f"equations_dropped_{problem.replace(' ', '_')}"] += 1
            continue
        eq.latex = latex
        eq.ordinal = ordinals.get(eq.page_number, 0)
        ordinals[eq.page_number] = eq.ordinal + 1
        kept.append(eq)
    paper.equations = kept
