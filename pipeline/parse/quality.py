"""What counts as a text defect and as a plausible equation: one definition for the parse core (which drops
implausible equation rows), the benchmark (`bench/text_quality.py`) and the tests.

Text defects, counted in the chunk text (issue 27's table):

- `split`: a word split by a line-break hyphen: `compo-\\nnent` or `large-\\nscale` (a hyphen before a line break
  inside a paragraph), `compo- nent` (the same joined with a space; a suspended hyphen before a conjunction,
  `first- and second-order`, is not counted), and `compo-nent` (a joined word that keeps its hyphen: the joined form
  is in the word list and one of its halves is not a word);
- `accent`: a spacing accent (¨ ´ ˆ ˜ ˘ ˇ ˚ ¯ ˙ ¸ ˝ ˛, or a grave between letters) next to a letter, or a combining
  mark with no letter to sit on: `Nystr¨om`;
- `math_alnum`: Mathematical Alphanumeric Symbols (U+1D400-U+1D7FF, and U+210E, the italic h they lack);
- `fffd`: U+FFFD, a glyph the PDF maps to no character;
- `soft_hyphen`: U+00AD.

An equation row is *plausible* when `latex_problem` finds nothing: it parses as LaTeX (pylatexenc, strict), its
braces, `\\left`/`\\right` and brackets balance (a half-open interval `[0, 1)` counts as balanced: only the totals of
opening and closing round/square brackets must agree), no base carries two subscripts or two superscripts
(`\\sum_{\\sigma}_{f}`), it is not prose set in `\\mathrm{}` words, not a row of identifiers or numbers (an accession
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
_KEPT_SPLIT = re.compile(r"\b([a-z]{2,})-([a-z]{2,})\b")
_ACCENT = re.compile(rf"[A-Za-z][{SPACING_ACCENTS}]|[{SPACING_ACCENTS}] ?[A-Za-z]|[A-Za-z]`[A-Za-z]")
_MATH_ALNUM = re.compile("[\U0001d400-\U0001d7ff\u210e]")


@lru_cache(maxsize=1)
def word_list() -> frozenset[str]:
    """English words (lower case) of pyspellchecker's maintained frequency list: the dictionary that decides
    whether a line-break hyphen joins a word or a compound (see normalize.py)."""
    from spellchecker import SpellChecker

    return frozenset(SpellChecker(language="en", distance=1).word_frequency.dictionary)


def text_defects(text: str) -> Counter[str]:
    """Counts of each defect in `text` (keys: DEFECTS)."""
    words = word_list()
    out: Counter[str] = Counter({k: 0 for k in DEFECTS})
    out["split"] = (len(_BREAK_SPLIT.findall(text))
                    + sum(1 for a, b in _SPACE_SPLIT.findall(text) if b.lower() not in SUSPENDED)
                    + sum(1 for a, b in _KEPT_SPLIT.findall(text)
                          if a + b in words and (a not in words or b not in words)))
    out["accent"] = len(_ACCENT.findall(text)) + sum(
        1 for i, c in enumerate(text) if unicodedata.combining(c) and (i == 0 or not text[i - 1].isalpha()))
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
    plain = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)[lr]?\s*[()\[\]]", "", latex)
    return plain.count("(") + plain.count("[") == plain.count(")") + plain.count("]")


def _double_script(latex: str) -> bool:
    """A base with two subscripts or two superscripts: `x_{a}_{b}`, `\\sum_i^n_j`, `x^2^3` (at any depth)."""
    n = len(latex)

    def macro_end(i: int) -> int:
        j = i + 1
        while j < n and latex[j].isalpha():
            j += 1
        return j if j > i + 1 else min(n, i + 2)  # \alpha, or a one-character control symbol (\{ \, \\)

    def sequence(i: int) -> tuple[bool, int]:
        """Scan from i to the closing brace of the current group; (found, index after it)."""
        run: set[str] = set()  # script kinds already attached to the current base
        while i < n:
            c = latex[i]
            if c == "}":
                return False, i + 1
            if c.isspace():
                i += 1
                continue
            if c in "_^":
                if c in run:
                    return True, i
                run.add(c)
                i += 1
                while i < n and latex[i] == " ":
                    i += 1
                if i < n and latex[i] == "{":
                    found, i = sequence(i + 1)
                    if found:
                        return True, i
                elif i < n and latex[i] == "\\":
                    i = macro_end(i)
                else:
                    i += 1
                continue
            run = set()  # a new base
            if c == "{":
                found, i = sequence(i + 1)
                if found:
                    return True, i
            elif c == "\\":
                i = macro_end(i)
            else:
                i += 1
        return False, i

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


def latex_problem(latex: str) -> str | None:
    """Why `latex` is not a plausible equation row, or None when it is (see the module docstring)."""
    body = re.sub(r"\\tag\{[^{}]*\}", "", latex or "").strip()
    if not body:
        return "empty"
    if not _brackets_balance(body):
        return "unbalanced"
    try:
        nodes, _, _ = LatexWalker(body, tolerant_parsing=False).get_latex_nodes()
    except LatexWalkerError:
        return "does not parse"
    except Exception:  # pylatexenc raises plain errors on some malformed input
        return "does not parse"
    if _double_script(body):
        return "double script"
    words: list[str] = []
    _words(nodes, words)
    letters = sum(ch.isalpha() for ch in re.sub(r"\\[A-Za-z]+", "", body))
    word_letters = sum(len(w) for w in words)
    if len(words) >= 3 and word_letters >= 0.6 * max(letters, 1):
        return "prose"
    plain = re.sub(r"\\(?:mathrm|text|mathbf|mathit|operatorname)\{([^{}]*)\}", r"\1", body)
    tokens = re.findall(r"[A-Za-z_]*\d[\w.]*|[A-Za-z]{2,}", plain)
    if sum(1 for t in tokens if _IDENTIFIER.match(t)) >= 2:
        return "identifiers"
    commands = set(re.findall(r"\\([A-Za-z]+)", body)) - _WORD_MACROS - {"tag", "quad", "qquad"}
    if not commands and not _MATHY.search(body) and not (commands & _GREEK):
        return "no mathematics"
    return None


def plausible(latex: str) -> bool:
    return latex_problem(latex) is None
