"""Text clean-up (core, backend-neutral): ligatures and a one-line `clean_text` for short strings a backend reads
(names, venue lines). Joining wrapped lines and the full normalisation of every view live in normalize.py.

Ligatures are spelled out in every text field of the merged paper (`spell_paper_ligatures`, called by the parse core
after the merge), whichever backend or view made the text: table cells, captions and LaTeX come from paths that never
pass through `clean_text`. Only the ligature code points change (no blanket NFKC, which would rewrite math)."""
from __future__ import annotations

import dataclasses
import re
import unicodedata


LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE_TABLE = str.maketrans(LIGATURES)
# LaTeX-made PDFs often draw an accent as a separate spacing glyph before its letter ("M¨uller", "O˘guz").
_SPACING_ACCENTS = {"¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "˘": "\u0306", "ˇ": "\u030c",
                    "˚": "\u030a", "¯": "\u0304", "˙": "\u0307"}
# words a headline-case title keeps in lower case (also skipped when making bibtex keys)
SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
               "via", "vs", "with"}


_ANY_LIGATURE = re.compile("[" + "".join(LIGATURES) + "]")


def spell_ligatures(s: str) -> str:
    """Typographic ligatures spelled out, so text search finds 'significant' in a PDF that draws 'signiﬁcant'."""
    return s.translate(_LIGATURE_TABLE) if _ANY_LIGATURE.search(s) else s


def spell_paper_ligatures(paper: object) -> None:
    """Spell out ligatures in place in every str / list[str] field of a dataclass tree (a ParsedPaper)."""
    for f in dataclasses.fields(paper):  # type: ignore[arg-type]
        value = getattr(paper, f.name)
        if isinstance(value, str):
            setattr(paper, f.name, spell_ligatures(value))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    value[i] = spell_ligatures(item)
                elif dataclasses.is_dataclass(item):
                    spell_paper_ligatures(item)
        elif dataclasses.is_dataclass(value):
            spell_paper_ligatures(value)


def clean_text(s: str) -> str:
    s = s.replace("\ufffd", "")  # glyphs with no Unicode mapping (icons)
    for a, b in LIGATURES.items():
        s = s.replace(a, b)
    s = re.sub("([" + "".join(_SPACING_ACCENTS) + "])([A-Za-z])", lambda m: m[2] + _SPACING_ACCENTS[m[1]], s)
    s = re.sub(r"([A-Za-z])¸", "\\1\u0327", s)  # the cedilla follows its letter ("Franc¸ois")
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", s)).strip()
