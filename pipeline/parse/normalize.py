"""Text normalisation (core, backend-neutral): one step that every backend's text views go through, after the merge.

`normalize_paper` rewrites, in place, the text of every view of a ParsedPaper -- pages (and their chunk source,
`Page.prose`), sections, captions, references, metadata -- so that search, the agent's SQL and the export read whole
words and real characters whatever backend made the text. Table cells get the character-level rules only (their
HTML has no line breaks), equation LaTeX gets ligatures only: mathematical letters stay as they are there.

Text format: paragraphs are separated by a blank line (`\\n\\n`); a backend may send the lines of a paragraph separated
by `\\n`, and they are joined here. After normalisation no paragraph holds a line break.

Rules, in order:

1. **Ligatures** (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ) spelled out.
2. **Soft hyphens** (U+00AD) removed, with the line break or space after one (it marks where a word was broken).
3. **U+FFFD** (a glyph the PDF maps to no character) dropped and counted: a backend that can recover the character
   from the font does so before this step (the PyMuPDF backend maps TeX font codes, see pymupdf/_glyphs.py).
4. **Spacing accents composed** with their letter: LaTeX PDFs often draw an accent as its own spacing glyph before
   the letter (`Nystr¨om`, `G¨odel`, `ˆS`), after it (the cedilla: `Franc¸ois`) or between two copies of it
   (`Nystro¨om`); each becomes the combining mark on its letter, then NFC (`Nyström`). A grave accent counts only
   between letters (`Br`ezis`), so code and quotes keep their backticks. Some typesetters draw every accent after its
   letter (`Pedro´s-Alio´`, `He´le`ne`): the document's convention is voted over its page text (accents closing a
   word against accents opening one, `accents_drawn_after`) and an accent inside a word goes to the letter before it
   in such a document.
5. **Mathematical alphanumerics** (U+1D400-U+1D7FF, and U+210E) folded to their plain letter or digit (𝐾 -> K,
   𝛼 -> α, 𝟏 -> 1): in prose they are italic letters of inline maths, which search must see as letters.
6. **Lines of a paragraph joined**, a word broken at a line end re-joined. Whether `compo-` + `nent` is one word or a
   compound (`large-` + `scale`) is decided, in order, by:
   a. the **document's own vocabulary**: how often the paper prints the joined word and the hyphenated compound
      elsewhere (not at a line end); the more frequent form wins (`softmax` vs `soft-max`, `Nyströmformer`);
   b. the **word list** of the maintained PyPI package `pyspellchecker` (its English frequency list, ~160k words,
      loaded once per process; `quality.word_list`): a joined form in the list is one word (`component`, `nonlinear`);
   c. otherwise a compound when both halves are words (`large-scale`, `self-attention`, `fine-tuning`) or a name is
      followed by a common word (`Nyström-based`), one word when the second half is not a word (`Transform-` +
      `ers`, `approxi-` + `mation`). A name split inside (`Lin-` + `former`) is left to rule a: the paper prints it
      whole elsewhere.
   A hyphen next to a digit (`SST-2`, `2e-5`) is kept; so is one before a capital or after an acronym (`Moore-Penrose`,
   `BERT-small`) unless the paper prints the joined form (`SCI-` + `DOCS` -> `SCIDOCS`); before a conjunction
   (`first- and second-order`) it is a suspended hyphen and keeps its space. The same decision applies to `compo- nent` inside a line (text a backend already joined
   with a space).
7. Runs of spaces collapsed; Unicode NFC.

Every rule is idempotent (normalising twice changes nothing) and every rewrite is counted in `ParsedPaper.text_stats`.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from pipeline.parse.cleanup import spell_ligatures
from pipeline.parse.quality import SPACING_ACCENTS, SUSPENDED, word_list

# spacing accent -> combining mark
COMBINING = {"¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "˘": "\u0306", "ˇ": "\u030c", "˚": "\u030a",
             "¯": "\u0304", "˙": "\u0307", "˝": "\u030b", "˛": "\u0328", "¸": "\u0327", "`": "\u0300"}
assert set(SPACING_ACCENTS) <= set(COMBINING)
_ACC = re.escape(SPACING_ACCENTS)
_LETTER = "A-Za-zıȷ"
_BETWEEN_COPIES = re.compile(rf"([{_LETTER}])([{_ACC}])\1")  # Nystro¨om
_BEFORE_IN_WORD = re.compile(rf"(?<=[{_LETTER}])([{_ACC}]) ?([{_LETTER}])")  # Nystr¨om, Nystr¨ om
_BEFORE = re.compile(rf"([{_ACC}]) ?([{_LETTER}])")  # ˆS, ¨Ozg¨ur, and inline maths' "φ ˜ K"
_GRAVE = re.compile(rf"(?<=[{_LETTER}])`([{_LETTER}])")
_GRAVE_AFTER = re.compile(rf"([{_LETTER}])`(?=[{_LETTER}])")
_CEDILLA_AFTER = re.compile(rf"([{_LETTER}])¸")
_AFTER = re.compile(rf"([{_LETTER}])([{_ACC}])(?![{_LETTER}])")
_AFTER_IN_WORD = re.compile(rf"([{_LETTER}])([{_ACC}])(?=[{_LETTER}])")  # Pedro´s, He´le`ne (accent after its letter)
# the document's convention, voted over its text: an accent closing a word (Alio´ ,) is drawn after its letter; one
# opening a word (´Eric, ˆx) before it. TeX draws accents before their letter; some typesetters (Arbortext, 3B2 via
# Distiller, as Nature and PLOS printed around 2012) after it, and a letter between two accents is ambiguous alone.
_VOTE_AFTER = re.compile(rf"[{_LETTER}][{_ACC}](?=[ ,.;:)\]])")
_VOTE_BEFORE = re.compile(rf"(?:(?<=[ (\[\n])|^)[{_ACC}][{_LETTER}]", re.M)
# a combining mark drawn before its letter (a vector arrow U+20D7 before V): moved after it
_LOOSE_MARK = re.compile(r"(?:(?<=[^A-Za-z\u0300-\u036f\u20d0-\u20ff])|^)([\u0300-\u036f\u20d0-\u20ff]+)([A-Za-z0-9])")
_NEGATION = re.compile(r"\u0338 ?([=<>∈∋≡∼≃≈⊂⊃⊆⊇∣∥])")  # a slash drawn before its relation: ̸= -> ≠
_MATH_ALNUM = {cp: unicodedata.normalize("NFKC", chr(cp)) for cp in [*range(0x1D400, 0x1D800), 0x210E]
               if unicodedata.normalize("NFKC", chr(cp)) != chr(cp)}
_ANY_SPACING = re.compile(f"[{_ACC}]")
_ANY_MARK = re.compile("[\u0300-\u036f\u20d0-\u20ff]")
_HAS_MATH_ALNUM = re.compile("[\U0001d400-\U0001d7ff\u210e]")
_DOTLESS = str.maketrans({"ı": "i", "ȷ": "j"})

_WORD = re.compile(r"[A-Za-zÀ-ɏ]+(?:-[A-Za-zÀ-ɏ]+)*")
_LINE_END_HYPHEN = re.compile(r"([A-Za-zÀ-ɏ0-9]+)-$")
_LINE_START_WORD = re.compile(r"^([A-Za-zÀ-ɏ0-9]+)")
_SPACE_SPLIT = re.compile(r"\b([A-Za-zÀ-ɏ]{2,})- ([a-zà-ɏ]{2,})\b")
COMMON = 1000  # a word list frequency above which a word after a capitalised name makes a compound (Nyström-based)
_URLISH = re.compile(r"(?:https?://|www\.|doi\.org/)\S*[/._\-#?=&]$")


@dataclass
class Vocabulary:
    """How often a document prints each word and each hyphenated compound away from line ends (lower case)."""
    words: Counter[str] = field(default_factory=Counter)
    compounds: Counter[str] = field(default_factory=Counter)

    def add(self, text: str) -> None:
        for line in text.split("\n"):
            line = line.strip()
            if line.endswith("-"):  # the broken word at the end is what we are deciding about
                line = line[: line.rfind(" ") + 1] if " " in line else ""
            for w in _WORD.findall(line):
                w = w.lower()
                if "-" in w:
                    self.compounds[w] += 1
                    for part in w.split("-"):
                        self.words[part] += 1
                else:
                    self.words[w] += 1


def hyphen_join(left: str, right: str, vocab: Vocabulary | None = None) -> str:
    """How `left-` at a line end and `right` at the next line's start read as one token: `leftright`,
    `left-right` or (a suspended hyphen) `left- right`. See rule 6 of the module docstring."""
    if right[:1].isdigit() or any(c.isdigit() for c in left):
        return f"{left}-{right}"
    lo, ro = left.lower(), right.lower()
    joined, compound = lo + ro, f"{lo}-{ro}"
    if vocab is not None and ro not in SUSPENDED:
        nj, nc = vocab.words[joined], vocab.compounds[compound]
        if nj or nc:
            return f"{left}{right}" if nj > nc else f"{left}-{right}"
    if right[:1].isupper() or (len(left) > 1 and left.isupper()):
        return f"{left}-{right}"
    if ro in SUSPENDED:
        return f"{left}- {right}"
    words = word_list()
    if joined in words:
        return f"{left}{right}"
    if ro in words and (lo in words or left[:1].isupper()) and (lo in words or words[ro] >= COMMON):
        return f"{left}-{right}"
    return f"{left}{right}"


@dataclass
class Normalizer:
    """The rules of the module docstring, with the document's vocabulary and the counts of what was rewritten."""
    vocab: Vocabulary = field(default_factory=Vocabulary)
    stats: Counter[str] = field(default_factory=Counter)
    accents_after: bool = False  # the document draws spacing accents after their letter (`accents_drawn_after`)

    # ---- character level (every text field, table cells too) ----------------------------------------------

    def chars(self, s: str) -> str:
        if not s:
            return s
        s = spell_ligatures(s)
        if "\u00ad" in s:
            self.stats["soft_hyphens"] += s.count("\u00ad")
            s = re.sub(r"\u00ad[ \t]*\n?[ \t]*", "", s)
        if "\ufffd" in s:
            self.stats["fffd_dropped"] += s.count("\ufffd")
            s = re.sub(r"(?m)^[ \t]*\ufffd+[ \t]*(?:\n|$)", "", s)  # a line of nothing else goes with its break
            s = re.sub(r"[ \t]*\ufffd+[ \t]*", lambda m: " " if m[0][0] in " \t" or m[0][-1] in " \t" else "", s)
        if _ANY_SPACING.search(s) or "`" in s or _ANY_MARK.search(s):
            s = self._accents(s)
        if _HAS_MATH_ALNUM.search(s):
            self.stats["math_folded"] += sum(1 for c in s if ord(c) in _MATH_ALNUM)
            s = s.translate(_MATH_ALNUM)
        return unicodedata.normalize("NFC", s)

    def _accents(self, s: str) -> str:
        def compose_mark(base: str, mark: str) -> str:
            self.stats["accents_composed"] += 1
            return base + mark

        def compose(letter: str, accent: str) -> str:
            self.stats["accents_composed"] += 1
            base = letter.translate(_DOTLESS) if accent != "¸" else letter
            return base + COMBINING[accent]

        if "¸" in s:
            s = _CEDILLA_AFTER.sub(lambda m: compose(m[1], "¸"), s)
        if _ANY_SPACING.search(s) or "`" in s:
            if self.accents_after:  # its letter first, so `Delboulbe´ A.` stays two words
                s = _AFTER_IN_WORD.sub(lambda m: compose(m[1], m[2]), s)
                if "`" in s:
                    s = _GRAVE_AFTER.sub(lambda m: compose(m[1], "`"), s)
                s = _AFTER.sub(lambda m: compose(m[1], m[2]), s)
            else:
                s = _BETWEEN_COPIES.sub(lambda m: compose(m[1], m[2]), s)
                s = _BEFORE_IN_WORD.sub(lambda m: compose(m[2], m[1]), s)
                if "`" in s:
                    s = _GRAVE.sub(lambda m: compose(m[1], "`"), s)
            s = _BEFORE.sub(lambda m: compose(m[2], m[1]) if m[1] != "`" else m[0], s)
            s = _AFTER.sub(lambda m: compose(m[1], m[2]) if m[2] != "`" else m[0], s)
        if "\u0338" in s:  # a negation slash drawn before its relation, composed by NFC (= + U+0338 is U+2260)
            s = unicodedata.normalize("NFC", _NEGATION.sub(lambda m: compose_mark(m[1], "\u0338"), s))
        if _ANY_MARK.search(s):
            s = _LOOSE_MARK.sub(lambda m: m[2] + m[1], s)
        return s

    # ---- paragraph level ---------------------------------------------------------------------------------

    def join(self, lines: list[str]) -> str:
        """One paragraph from its lines: broken words re-joined (rule 6), spaces between the other lines."""
        parts: list[str] = []  # pieces of the paragraph; only the last one is ever looked at again
        for text in (t.strip() for t in lines):
            if not text:
                continue
            last = parts[-1] if parts else ""
            if last.endswith("-") and not last.endswith("--"):
                m = _LINE_END_HYPHEN.search(last[-60:])
                n = _LINE_START_WORD.match(text)
                if m and n:
                    token = hyphen_join(m[1], n[1], self.vocab)
                    self.stats["hyphens_joined" if "-" not in token else "compounds_kept"] += 1
                    parts[-1] = last[: len(last) - len(m[0])] + token + text[n.end():]
                    continue
            # a URL broken over two lines; after a full stop, a capitalised word and a space open a sentence
            # ("... biomedcentral.com/1741-7015/12/201." / "Trial registration: ...")
            if last and last[-1:] in "/._-#?=&" and _URLISH.search(last[-200:]) \
                    and not (last.endswith(".") and re.match(r"[A-Z][a-z]+\s", text)):
                parts[-1] = last + text
                continue
            parts.append(text)
        out = " ".join(parts)
        if "- " in out:
            out = _SPACE_SPLIT.sub(self._space_split, out)
        return re.sub(r"[ \t\u00a0]{2,}", " ", out).strip()

    def _space_split(self, m: re.Match) -> str:
        if m[2].lower() in SUSPENDED:
            return m[0]
        token = hyphen_join(m[1], m[2], self.vocab)
        self.stats["hyphens_joined" if "-" not in token else "compounds_kept"] += 1
        return token

    def text(self, s: str) -> str:
        """A text view: paragraphs (blank-line separated) each joined into one line, characters normalised."""
        if not s:
            return s
        s = self.chars(s.replace("\r\n", "\n").replace("\r", "\n"))
        paragraphs = re.split(r"\n[ \t]*\n+", s)
        for i in range(len(paragraphs) - 1, 0, -1):  # a word broken at a line end never ends a paragraph
            if re.search(r"[A-Za-z]-[ \t]*$", paragraphs[i - 1]) and re.match(r"[ \t]*[a-z]", paragraphs[i]):
                paragraphs[i - 1] = paragraphs[i - 1].rstrip() + "\n" + paragraphs.pop(i).lstrip()
        out = "\n\n".join(p for p in (self.join(par.split("\n")) for par in paragraphs) if p)
        return self._after_join(out)

    def _after_join(self, s: str) -> str:
        """An accent or mark left at a line end meets its letter only once the lines are joined (`ˆ` + `AS`)."""
        if _ANY_SPACING.search(s) or "`" in s or _ANY_MARK.search(s):
            s = unicodedata.normalize("NFC", self._accents(s))
        return s

    def line(self, s: str) -> str:
        """A one-line field (a title, a caption, an author name): its lines joined into one."""
        return self._after_join(self.join(self.chars(s or "").split("\n"))) if s else s


def _pages_joined(pages, norm: Normalizer) -> None:
    """A word broken at the end of a page ends on that page's prose: `writ-` + the next page's `ing systems` gives
    `writing` on the first page and `systems` on the next (chunks never cross pages). Page text is left as printed."""
    for page, after in zip(pages, pages[1:]):
        if not page.prose or not after.prose:
            continue
        m = re.search(r"([A-Za-zÀ-ɏ]+)-$", page.prose)
        n = re.match(r"([a-zà-ɏ]+)[ \t]*", after.prose)
        if m and n:
            token = hyphen_join(m[1], n[1], norm.vocab)
            norm.stats["hyphens_joined" if "-" not in token else "compounds_kept"] += 1
            page.prose = page.prose[: m.start()] + token
            after.prose = after.prose[n.end():].lstrip()


def _table_html(norm: Normalizer, html: str) -> str:
    """Character rules on the text between tags only; the tags and attributes are left as they are."""
    return re.sub(r"(?<=>)([^<]+)(?=<)", lambda m: norm.chars(m[1]), html) if html else html


def accents_drawn_after(texts) -> bool:
    """Whether a document draws its spacing accents after their letter (`Pedro´s-Alio´`), by a vote over its text:
    accents closing a word against accents opening one (TeX's `´Eric`, `ˆx`); ties (no evidence) read TeX's way."""
    after = before = 0
    for text in texts:
        if text and _ANY_SPACING.search(text):
            after += len(_VOTE_AFTER.findall(text))
            before += len(_VOTE_BEFORE.findall(text))
    return after > before


def normalize_paper(paper) -> Counter[str]:
    """Normalise every text view of a merged ParsedPaper in place; returns (and stores in paper.text_stats) the
    counts of rewrites."""
    norm = Normalizer(accents_after=accents_drawn_after(page.text for page in paper.pages))
    for page in paper.pages:
        norm.vocab.add(page.text)
    for s in paper.sections:
        norm.vocab.add(s.content)
    md = paper.metadata
    md.title = norm.line(md.title)
    md.abstract = norm.text(md.abstract)
    md.authors = [norm.line(a) for a in md.authors]
    for name in ("conference_full", "conference_abbreviation", "volume", "bibtex"):
        value = getattr(md, name)
        if isinstance(value, str):
            setattr(md, name, norm.chars(value))
    for page in paper.pages:
        page.text = norm.text(page.text)
        if page.prose is not None:
            page.prose = norm.text(page.prose)
    _pages_joined(paper.pages, norm)
    for s in paper.sections:
        s.title = norm.line(s.title)
        s.content = norm.text(s.content)
    for t in paper.tables:
        t.caption = norm.line(t.caption)
        t.html = _table_html(norm, t.html)
    for f in paper.figures:
        f.caption = norm.line(f.caption)
    for e in paper.equations:
        e.latex = spell_ligatures(e.latex)
    for r in paper.references:
        r.text = norm.line(r.text)
    paper.text_stats.update(norm.stats)
    return norm.stats


def join_lines(lines: list[str]) -> str:
    """Wrapped lines of one field (a caption, a title, an abstract read by a backend) as one normalised line."""
    norm = Normalizer()
    return norm.join([norm.chars(line) for line in lines])


def normalize_text(text: str, vocab: Vocabulary | None = None) -> str:
    """One text normalised on its own (tests, one-off callers): paragraphs kept, lines joined."""
    return Normalizer(vocab or Vocabulary()).text(text)


__all__ = ["Normalizer", "Vocabulary", "hyphen_join", "join_lines", "normalize_paper", "normalize_text"]
