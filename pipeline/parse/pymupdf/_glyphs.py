"""U+FFFD recovered where the font allows: TeX's math extension fonts (CMEX, and the txfonts/pxfonts `txex`/`pxex`
that copy its layout) are embedded by pdfTeX without a Unicode mapping, so MuPDF gives U+FFFD for their glyphs in
prose (inline sums, big parentheses, radicals). Read again with TEXT_CID_FOR_UNKNOWN_UNICODE, each such glyph comes
back as its character code, which the CMEX10 encoding (`_latex_symbols.CMEX`) names; here that name becomes the
Unicode character (`\\sum` -> ∑, a sized `(` -> `(`, a radical -> √). Extension pieces of tall delimiters are
dropped. Latin Modern's LMMathExtension10 (`\\usepackage{lmodern}`) comes out as the codes themselves (`X` for a
display sum): those spans are decoded through the same table (`raw_codes`, `decode_codes`). Glyphs of other fonts with no mapping (e.g. Mathematica's) stay U+FFFD: the core drops and counts them.
"""
from __future__ import annotations

import re

from pipeline.parse.pymupdf._latex_symbols import CMEX, base_font

# the OMX-encoded extension fonts of kpfonts, fourier and MathDesign (maths-font matrix, tests/mathfonts)
_OMX = r"Kp-*M-Ex|Fourier-Math-Extension|MathDesign-\w+-\w+-Ex"
EXTENSION_FONT = re.compile(rf"^(CMEX\d*|LMMathExtension\d*|txexs?|pxexs?|rtxexs?|eufex|esint|{_OMX})", re.I)
# extension fonts that MuPDF reads as their CMEX codes (`X` for a display sum, `Z` for an integral): Computer and
# Latin Modern's and the OMX-encoded ones
CMEX_CODES = re.compile(rf"^(CMEX|LMMathExtension|{_OMX})", re.I)
_UNICODE = {"(": "(", ")": ")", "[": "[", "]": "]", r"\lfloor": "⌊", r"\rfloor": "⌋", r"\lceil": "⌈",
            r"\rceil": "⌉", r"\{": "{", r"\}": "}", r"\langle": "⟨", r"\rangle": "⟩", "|": "|", r"\|": "‖",
            "/": "/", r"\backslash": "\\", r"\sum": "∑", r"\prod": "∏", r"\int": "∫", r"\bigcup": "⋃",
            r"\bigcap": "⋂", r"\biguplus": "⨄", r"\bigwedge": "⋀", r"\bigvee": "⋁", r"\coprod": "∐",
            r"\bigsqcup": "⨆", r"\oint": "∮", r"\bigodot": "⨀", r"\bigoplus": "⨁", r"\bigotimes": "⨂", "√": "√",
            "": ""}
BY_CODE = {code: _UNICODE.get(latex, "\ufffd") for code, (latex, _) in CMEX.items()}


def raw_codes(font: str, text: str) -> bool:
    """A math extension span that MuPDF gives as the font's character codes (Latin Modern's LMMathExtension10 as
    `\\usepackage{lmodern}` embeds it: `X` for a display sum, `P` for a text one, `\\x10` for a big parenthesis):
    ASCII letters or control codes are never what an extension font's glyphs mean."""
    return bool(EXTENSION_FONT.match(base_font(font))) and "\ufffd" not in text and any(
        (c.isascii() and c.isalpha()) or ord(c) < 0x20 for c in text)


def decode_codes(text: str) -> str:
    """A span of extension-font character codes as the characters they stand for (see `raw_codes`)."""
    return "".join(_char(c) if not c.isspace() else c for c in text)


def needs_recovery(font: str, text: str) -> bool:
    return "\ufffd" in text and bool(EXTENSION_FONT.match(base_font(font)))


def _char(code: str) -> str:
    cp = ord(code)
    if cp in BY_CODE:
        return BY_CODE[cp]
    if cp >= 0x80 and not 0xE000 <= cp <= 0xF8FF:  # the font's own Unicode for it (a Greek letter, a minus)
        return code
    return "\ufffd"


def recover(text: str, with_codes: str) -> str:
    """`text` with each run of U+FFFD replaced by the characters its codes in `with_codes` (the same span read with
    CID codes) stand for. The two readings are aligned on the characters they share; unchanged when they do not
    line up."""
    out: list[str] = []
    i = j = 0
    while i < len(text):
        if text[i] != "\ufffd":
            k = with_codes.find(text[i], j)
            if k < 0:
                return text
            out.append(text[i])
            i, j = i + 1, k + 1
            continue
        r = i
        while r < len(text) and text[r] == "\ufffd":
            r += 1
        k = with_codes.find(text[r], j) if r < len(text) else len(with_codes)
        if k < 0:
            return text
        out.extend(_char(c) for c in with_codes[j:k]) if k > j else out.append(text[i:r])
        i, j = r, k
    return "".join(out)


# Extension glyphs by their names in the embedded font's own encoding (`dup 205 /summationtext.1 put`): newtx's
# txexs (acmart, Springer, many Times papers) maps most codes in its ToUnicode but not its text-style operators, which
# MuPDF then gives as the code read as Latin-1 (`Í` for a text-style sum). Names of pieces of tall delimiters
# (`parenleftbt`, `bracketleftex`) map to nothing and are dropped, as CMEX's are.
_NAMED = [("contintegral", "∮"), ("summation", "∑"), ("product", "∏"), ("coproduct", "∐"), ("integral", "∫"),
          ("union", "⋃"), ("intersection", "⋂"), ("logicaland", "⋀"), ("logicalor", "⋁"), ("circleplus", "⨁"),
          ("circlemultiply", "⨂"), ("circledot", "⨀"), ("angbracketleft", "⟨"), ("angbracketright", "⟩"),
          ("parenleft", "("), ("parenright", ")"), ("bracketleft", "["), ("bracketright", "]"), ("braceleft", "{"),
          ("braceright", "}"), ("floorleft", "⌊"), ("floorright", "⌋"), ("ceilingleft", "⌈"), ("ceilingright", "⌉"),
          ("radical", "√"), ("backslash", "\\"), ("slash", "/")]
_PIECE = re.compile(r"(bt|tp|ex|mid|bot|top)$")
_ENCODING = re.compile(rb"dup (\d+) ?/([A-Za-z][\w.]*) put")


def _unicode_of(name: str) -> str | None:
    base = name.split(".")[0]
    if _PIECE.search(base) and not base.endswith(("text", "display")):
        return ""
    return next((u for prefix, u in _NAMED if base.startswith(prefix)), None)


def extension_codes(doc, page, cache: dict[int, dict[str, str]]) -> dict[str, dict[str, str]]:
    """Font name -> {character as MuPDF gives it: the character it is} for the extension fonts of a page whose
    embedded Type 1 program names its glyphs (see `_NAMED`). `cache` (font xref -> table, one per document) keeps
    each font program from being read more than once."""
    out: dict[str, dict[str, str]] = {}
    for xref, _ext, kind, name, *_ in page.get_fonts():
        if kind != "Type1" or not EXTENSION_FONT.match(base_font(name)):
            continue
        if xref not in cache:
            table: dict[str, str] = {}
            try:
                program = doc.extract_font(xref)[3] or b""
            except Exception:  # a font MuPDF cannot hand out: its glyphs stay as they are
                program = b""
            for code, glyph in _ENCODING.findall(program[:60000]):
                u = _unicode_of(glyph.decode("latin-1"))
                if u is not None and int(code) >= 0x80:  # codes under 0x80 are CMEX's own (BY_CODE reads them)
                    table[chr(int(code))] = u
            cache[xref] = table
        if cache[xref]:
            out[base_font(name)] = cache[xref]
    return out
