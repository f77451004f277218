"""Glyph -> LaTeX tables for the offline equation reconstruction (Unicode math symbols and TeX math fonts)."""
from __future__ import annotations

import re

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ϵ": "epsilon", "ε": "varepsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "vartheta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "µ": "mu",
    "ν": "nu", "ξ": "xi", "π": "pi", "ϖ": "varpi", "ρ": "rho", "ϱ": "varrho", "σ": "sigma", "ς": "varsigma",
    "τ": "tau", "υ": "upsilon", "ϕ": "phi", "φ": "varphi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma",
    "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}

SYMBOLS = {
    "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∮": r"\oint", "⋃": r"\bigcup", "⋂": r"\bigcap",
    "∈": r"\in", "∉": r"\notin", "∋": r"\ni", "⊂": r"\subset", "⊆": r"\subseteq", "⊃": r"\supset",
    "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∀": r"\forall", "∃": r"\exists",
    "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≃": r"\simeq", "≅": r"\cong", "≡": r"\equiv",
    "∼": r"\sim", "∝": r"\propto", "≪": r"\ll", "≫": r"\gg", "≺": r"\prec", "≻": r"\succ",
    "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot", "⋅": r"\cdot", "∗": "*", "∘": r"\circ",
    "◦": r"\circ", "⊙": r"\odot", "⊗": r"\otimes", "⊕": r"\oplus", "•": r"\bullet", "†": r"\dagger",
    "−": "-", "–": "-", "∞": r"\infty", "∂": r"\partial", "∇": r"\nabla", "√": r"\sqrt", "′": "'", "″": "''",
    "→": r"\rightarrow", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow", "⇐": r"\Leftarrow",
    "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "↑": r"\uparrow", "↓": r"\downarrow",
    "⟨": r"\langle", "⟩": r"\rangle", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor",
    "∥": r"\|", "‖": r"\|", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "ℓ": r"\ell", "ℝ": r"\mathbb{R}",
    "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "𝔼": r"\mathbb{E}", "…": r"\ldots", "⋯": r"\cdots", "⋮": r"\vdots",
    "⋱": r"\ddots", "⊤": r"\top", "⊥": r"\perp", "∖": r"\setminus", "{": r"\{", "}": r"\}", "#": r"\#",
    "%": r"\%", "&": r"\&", "_": r"\_", "\u0338": r"\not", "̸": r"\not", "ˆ": r"\hat{}", "˜": r"\tilde{}",
}
# Private-use code points MuPDF gives for CMEX extensible pieces of big delimiters.
for _cp, _s in {0xF8EB: "(", 0xF8EC: "", 0xF8ED: "", 0xF8F6: ")", 0xF8F7: "", 0xF8F8: "", 0xF8EE: "[",
                0xF8EF: "", 0xF8F0: "", 0xF8F9: "]", 0xF8FA: "", 0xF8FB: "", 0xF8F1: r"\{", 0xF8F2: "",
                0xF8F3: "", 0xF8F4: "", 0xF8FC: r"\}", 0xF8FD: "", 0xF8FE: ""}.items():
    SYMBOLS[chr(_cp)] = _s

# CMEX10 character codes (TeX's math extension font), as MuPDF reports them when the PDF has no Unicode for
# them: code -> (latex, kind) with kind "op" (big operator), "delim" (sized delimiter), "rad" (radical sign)
# or "" (a middle/extension piece of a tall delimiter, dropped).
def _cmex() -> dict[int, tuple[str, str]]:
    table: dict[int, tuple[str, str]] = {}
    sized = ["(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{", r"\}", r"\langle", r"\rangle",
             "|", r"\|", "/", r"\backslash"]
    for i, d in enumerate(sized):
        table[i] = (d, "delim")
    for i, d in enumerate(["(", ")", "(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{", r"\}",
                           r"\langle", r"\rangle", "/", r"\backslash", "(", ")", "[", "]", r"\lfloor", r"\rfloor",
                           r"\lceil", r"\rceil", r"\{", r"\}", r"\langle", r"\rangle", "/", r"\backslash", "/", r"\backslash"]):
        table[0x10 + i] = (d, "delim")
    for code, d in {0x30: "(", 0x31: ")", 0x32: "[", 0x33: "]", 0x38: r"\{", 0x39: r"\}", 0x44: r"\langle",
                    0x45: r"\rangle", 0x68: "[", 0x69: "]", 0x6A: r"\lfloor", 0x6B: r"\rfloor", 0x6C: r"\lceil",
                    0x6D: r"\rceil", 0x6E: r"\{", 0x6F: r"\}"}.items():
        table[code] = (d, "delim")
    for code in (0x34, 0x35, 0x36, 0x37, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40, 0x41, 0x42, 0x43, 0x74, 0x75, 0x76, 0x77):
        table[code] = ("", "")
    ops = [r"\bigsqcup", r"\oint", r"\bigodot", r"\bigoplus", r"\bigotimes"]
    for i, op in enumerate(ops):
        table[0x46 + 2 * i] = table[0x47 + 2 * i] = (op, "op")
    for i, op in enumerate([r"\sum", r"\prod", r"\int", r"\bigcup", r"\bigcap", r"\biguplus", r"\bigwedge", r"\bigvee"]):
        table[0x50 + i] = table[0x58 + i] = (op, "op")
    table[0x60] = table[0x61] = (r"\coprod", "op")
    for code in range(0x62, 0x68):
        table[code] = ("", "")  # wide hats / tildes: the accent is lost
    for code in range(0x70, 0x74):
        table[code] = ("√", "rad")
    return table


CMEX = _cmex()

FUNCTIONS = {"log", "exp", "sin", "cos", "tan", "tanh", "max", "min", "arg", "lim", "sup", "inf", "det",
             "ln", "Pr", "dim", "ker", "deg", "gcd", "sgn"}

# Maths fonts by name. TeX's own (Computer Modern's CMMI/CMSY/CMEX and its text fonts, AMS's MSAM/MSBM, Euler's
# EURM/EUSM/EUFM/EUEX, rsfs), the maths of the Times/Palatino/Bright/Kp set-ups (mathptmx's rtx and URW's
# StandardSymL, txfonts/pxfonts' tx*/px*, newtxmath/newpxmath's NewTXMI/NewPXMI, cmbright's HFBRMI/HFBRSY/HFBRBS,
# kpfonts' Kp--M-), MathType's and MathTime's (Euclid*, MT Extra, MTSY/MTMI/MTEX), STIX's maths (not STIX Two's text
# face, STIXTwoText, which is prose), and any font that names itself maths: OpenType maths (LatinModernMath,
# TeXGyreTermesMath, Garamond-Math, CambriaMath), MathDesign-*, Fourier-Math-*, PazoMath, LibertinusT1Math,
# MathematicalPi. Checked against the maths-font matrix (tests/mathfonts: 23 set-ups typeset here).
MATH_FONT = re.compile(r"^(?:CM(MI|SY|EX|R|BX|MIB|BSY|SS|TI)\d|MSBM|MSAM|EU[RSFE][MBX]?\d|RSFS|LMMath|LMRoman|"
                       r"STIX(?!TwoText)|rtx|txsy|txmi|txex|px(?:sy|mi|ex)|txmia|NewTXB?MI|NewPXB?MI|HFBR(?:MI|SY|BS|MB)|"
                       r"Kp-*M-|StandardSym|Symbol|MTSY|MTMI|MTEX|MT-?Extra|Euclid|ESSTIX|stmary|wasy|lasy|bbold|"
                       r".*Math(?!(?-i:[a-df-z])))", re.I)
MATH_CHARS = set(GREEK) | {c for c in SYMBOLS if len(c) == 1 and c not in "{}#%&_…•†–"} | set("=+<>")


def base_font(font: str) -> str:
    return font.split("+")[-1]


def is_math_font(font: str) -> bool:
    return bool(MATH_FONT.match(base_font(font)))


_ALPHABETS = (("DOUBLE-STRUCK", r"\mathbb"), ("FRAKTUR", r"\mathfrak"), ("SCRIPT", r"\mathcal"), ("BOLD", r"\mathbf"))


def _alnum_math(ch: str) -> str | None:
    r"""A Mathematical Alphanumeric Symbol (U+1D400-U+1D7FF, and the letter-like ones Unicode keeps elsewhere: ℎ, ℛ,
    ℬ, ...) as LaTeX: the letter, digit or Greek command it is a style of, bold, double-struck, script or fraktur
    as `\mathbf{}`, `\mathbb{}`, `\mathcal{}`, `\mathfrak{}` (italic is maths' default). OpenType maths fonts
    (unicode-math's Latin Modern Math or STIX Two Math under LuaLaTeX or XeLaTeX, Cambria Math in Word) set every
    maths letter so: `𝑥`, `𝜏`, `𝐖`."""
    cp = ord(ch)
    if not (0x1D400 <= cp <= 0x1D7FF or 0x2102 <= cp <= 0x2134):
        return None
    import unicodedata

    if ch == "ℓ":
        return r"\ell "
    base = unicodedata.normalize("NFKC", ch)
    if base == ch or len(base) != 1 or not ((base.isascii() and base.isalnum()) or base in GREEK):
        return None  # ℧, ℮, ...: not a styled letter
    latex = "\\" + GREEK[base] if base in GREEK else base
    name = unicodedata.name(ch, "")
    command = next((command for word, command in _ALPHABETS if word in name), None)
    return f"{command}{{{latex}}}" if command else latex + (" " if base in GREEK else "")


def span_latex(text: str, font: str) -> str:
    """LaTeX for one run of glyphs in one font (no layout: scripts and fractions are handled by the caller)."""
    name = base_font(font).upper()
    out: list[str] = []
    word = ""

    def flush() -> None:
        nonlocal word
        if not word:
            return
        if name.startswith("CMR") or name.startswith("CMBX") or not is_math_font(font):
            if word in FUNCTIONS:
                out.append("\\" + word + " ")
            elif len(word) > 1:
                out.append(r"\mathrm{" + word + "}")
            else:
                out.append(word)
        else:
            out.append(word)
        word = ""

    for ch in text:
        if ch.isascii() and ch.isalpha():
            if name.startswith(("CMSY", "LMMATHSYMBOLS")) and ch.isupper():
                flush(); out.append(r"\mathcal{" + ch + "}")  # noqa: E702
            elif name.startswith("MSBM") and ch.isupper():
                flush(); out.append(r"\mathbb{" + ch + "}")  # noqa: E702
            elif name.startswith(("CMBX", "CMMIB")):
                flush(); out.append(r"\mathbf{" + ch + "}")  # noqa: E702
            else:
                word += ch
            continue
        flush()
        if ch in GREEK:
            out.append("\\" + GREEK[ch] + " ")
        elif ch in SYMBOLS:
            s = SYMBOLS[ch]
            out.append(s + (" " if s[:1] == "\\" and s[-1:].isalpha() else ""))
        elif (a := _alnum_math(ch)) is not None:
            out.append(a)
        elif ch == "\ufffd":
            out.append(r"\sum ")  # an unmapped CMEX glyph; callers decide between big operator and delimiter
        elif not ch.isspace():
            out.append(ch)
    flush()
    return "".join(out)


# TeX's text fonts: math uses them for digits, operators and function names ("softmax"), but a paper whose body is
# set in Computer/Latin Modern prints its prose in them too; there their letters are no evidence of math.
TEXT_FONT = re.compile(r"^(CM(R|BX|TI|SS|SL|TT|CSC|B)\d|LMRoman|LMSans|LMMono)", re.I)


def prose_fonts(fonts_by_chars: dict[str, int]) -> frozenset[str]:
    """The TeX text fonts of a document whose body is set in them (empty when the body is Times, Libertine, ...)."""
    if not fonts_by_chars:
        return frozenset()
    body = max(fonts_by_chars, key=fonts_by_chars.__getitem__)
    if TEXT_FONT.match(base_font(body)):
        return frozenset(f for f in fonts_by_chars if TEXT_FONT.match(base_font(f)))
    if is_math_font(body):  # a face that sets both text and maths (STIXGeneral): its family is the prose
        family = _family(body)
        return frozenset(f for f in fonts_by_chars if _family(f) == family)
    return frozenset()


def _family(font: str) -> str:
    return re.sub(r"\d+$", "", base_font(font).split("-")[0].split(",")[0])


# short words an italic prose run (a theorem's statement, an emphasised phrase) is made of, never a variable's name
_ITALIC_WORDS = frozenset("a an and are as at be by for if in is it let of on or so the then to we with".split())


def _math_italic(span, line_has_math: bool) -> bool:
    """A variable set in the text font's italic, as mathptmx, newtxmath and other Times-like math setups do
    (`C(n) = O(nkd)`: C, n, O, nkd in Times italic between CMR10 brackets): a short italic run, one token of
    letters and not a short English word, on a line that also holds math-font characters. Only asked where the body
    is not set in a TeX text font (math_share's `prose` empty): with Computer Modern, variables are CMMI anyway."""
    token = span.text.strip()
    return (line_has_math and 0 < len(token) <= 4 and token.isalpha() and token.lower() not in _ITALIC_WORDS
            and span.italic)


def strong_math(spans: list, prose: frozenset[str] = frozenset()) -> bool:
    """Whether a line holds one character only maths sets: a glyph of a maths font that is not one of the body's
    text fonts, a maths symbol (not a hyphen: in a text font it is one), a mathematical alphanumeric. In a paper set
    in Computer or Latin Modern, the text fonts are maths fonts too (digits, brackets), so a reference's last line
    `468–486.` or a title page's `2026-11-24` is all "maths" by share and none of it by this test."""
    for s in spans:
        in_prose = s.font in prose
        for ch in s.text:
            if ch.isspace() or ch == "-":
                continue
            if (is_math_font(s.font) and not in_prose) or ch in MATH_CHARS or ord(ch) >= 0x1D400 or ch == "\ufffd":
                return True
    return False


def math_share(spans: list, prose: frozenset[str] = frozenset()) -> tuple[int, int]:
    """(math characters, all non-space characters) of a list of spans; letters in a `prose` font do not count,
    except a Times-like setup's italic variables (_math_italic)."""
    m = n = 0
    line_has_math = not prose and any(is_math_font(s.font) for s in spans)
    for s in spans:
        variable = _math_italic(s, line_has_math)
        mf = is_math_font(s.font) or variable
        in_prose = s.font in prose and not variable
        for ch in s.text:
            if ch.isspace():
                continue
            n += 1
            if in_prose and ch.isalpha() and ch not in MATH_CHARS:
                continue
            if mf or ch in MATH_CHARS or ord(ch) >= 0x1D400 or ch == "\ufffd":
                m += 1
    return m, n
