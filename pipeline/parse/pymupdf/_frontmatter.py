"""What a first-page line is, for the metadata view: masthead furniture, affiliation, or a line of author names.

Publishers print the same kinds of furniture around the title whatever the field: the journal's name with its
volume/year/ISSN/doi/homepage, a category label ("Article", "ORIGINAL RESEARCH", "PAPER • OPEN ACCESS"), an
article-history/citation/licence sidebar, affiliations with institutions and postal addresses. These are
recognised by their wording classes (not by any one journal's name) plus typographic evidence kept in
metadata.py. Names are recognised by their shape: 2–6 capitalised tokens (initials and name particles allowed),
no digits, no sentence words; membership grades (`Senior Member, IEEE`) and footnote marks are removed first.
"""
from __future__ import annotations

import re
import unicodedata

import pymupdf

from pipeline.parse.cleanup import clean_text
from pipeline.parse.pymupdf.page import Line, Span

# journal furniture: homepage / ISSN / volume / doi / licence / article-history / sidebar labels
MASTHEAD = re.compile(
    r"journal homepage|contents lists? available|\bwww\.|https?://|\bdoi\b\s*[:.]?|\bdoi\.org|\bISSN\b|"
    r"\bvol(?:ume)?\.?\s*\d|\bno\.\s*\d|\bpp\.\s*\d|©|\(c\)\s*\d{4}|\bcopyright\b|\blicen[cs]e[de]?\b|"
    r"\bopen access\b|creative commons|article history|article info|available online|corresponding author|"
    r"^\*?\s*(?:received|revised|accepted|published|citation|edited by|reviewed by|academic editor|editor|"
    r"handling editor|correspondence|specialty section|keywords|key words)\s*:|"
    r"\b(?:received|accepted|published)\s+(?:on\s+)?\d", re.I)
# a journal or series name (not a paper title): "Journal of ...", "IEEE Transactions on ...", "Frontiers in ..."
JOURNAL_NAME = re.compile(
    r"^(?:the\s+)?(?:journal|annals|proceedings|transactions|bulletin|archives|reports|frontiers)\s+(?:of|on|in)\b|"
    r"^(?:IEEE|ACM|IOP|SIAM|AIP|APS)\s+(?:transactions|journal|letters|magazine)\b|^physical review\b", re.I)
# category labels printed above titles
LABEL = re.compile(
    r"^(?:original|research|review|short|brief|mini|technical|regular|full|invited|open[- ]access|working|"
    r"discussion|white|position|survey|conference|case)?\s*"
    r"(?:article|paper|letter|review|communication|report|note|research|editorial|perspective|opinion|"
    r"commentary|methods?|protocol)s?(?:\s*[•·|/]\s*open access)?$|^open access$|^extended abstract$", re.I)
# institutions and addresses (affiliation lines never hold author names we want)
AFFILIATION = re.compile(
    r"\b(?:Universit|Univ\.|Institut|Research|Laborator|Lab\b|Labs\b|Inc\b|Corp|Department|Dept\.|School|"
    # the same in the languages affiliations are printed in: Universidad(e), Universiteit, Uniwersytet, Istituto,
    # Departamento, Dipartimento, Département, Laboratoire, Facultad, Fakultät, Escuela, École, Hochschule, FH (a
    # Fachhochschule: `FH Technikum Wien`), ...
    r"Universidad|Universiteit|Uniwersytet|Istituto|Departament|Dipartimento|D[ée]partement|Laboratoi|Facult|"
    r"Fakult|Escuela|Escola|[ÉE]cole\b|Hochschule|Fachhochschul|\bFH\b|Technikum|Politecnico|Polit[ée]cnica|"
    r"Polytechni|Akadem|Acad[ée]mie|"
    r"College|Academy|Center|Centre|Faculty|Hospital|Clinic|Council|Ministry|Observatory|Museum|Agency|"
    r"Google|Microsoft|Facebook|Meta\b|Amazon|ByteDance|Alibaba|Tencent|Group\b|Team\b|Company|Foundation|"
    r"Equal contribution|Avenue|Street|Road|Rue\b|Strasse|Straße|P\.?O\.? Box|Campus|USA\b|U\.S\.A|China\b|"
    r"Germany\b|France\b|Japan\b|Italy\b|Spain\b|Canada\b|United Kingdom|United States|Switzerland)", re.I)
# membership grades after IEEE-style names: "Senior Member, IEEE", "Fellow, IEEE", "Student Member, ACM"
MEMBERSHIP = re.compile(
    r"\b(?:(?:Senior|Student|Graduate Student|Life|Associate|Honorary)\s+)?(?:Member|Fellow)\b|"
    r"\b(?:IEEE|ACM|OSA|SPIE|ASME|AAAI|IET|IFAC|SIAM|AIAA)\b")
MARKS = re.compile(r"[\d∗*†‡§¶♠♢♡♣♦♥♤♧⋆#✉✝⊥⊤⋄◦•✩✰☆★]+")
_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "le", "la", "bin",
              "binti", "al", "el", "ter", "ten", "y", "zu", "e", "mac"}
_MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_MONTH = re.compile(rf"\b{_MONTHS}\s+\d|\d\s+{_MONTHS}\b")  # a date, not a first name ("June Smith")
_SPACING_ACCENT_DOTLESS = re.compile("([¨´ˆ˜˘ˇ˚¯˙`])ı")


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def is_masthead(text: str) -> bool:
    return bool(MASTHEAD.search(text) or JOURNAL_NAME.search(text))


def is_label(text: str) -> bool:
    t = text.strip()
    return bool(LABEL.match(t)) or (len(t.split()) == 1 and (t.isupper() or len(t) <= 3))


def is_logo(text: str) -> bool:
    """A lower-case word mark ("applied sciences"): titles have capitals, journal logotypes often none."""
    return not any(c.isupper() for c in text) and len(text.split()) <= 4


def _institution(text: str) -> bool:
    """Institution or address words, outside names: a surname after initials is a name even when it is such a
    word ("R. A. Street", AASTeX author lists)."""
    return bool(AFFILIATION.search(re.sub(r"\b(?:[A-Z]\.\s?-?){1,3}\s?[A-Z][\w'’-]+", " ", text)))


def is_address(text: str) -> bool:
    """Affiliation, postal address, date or e-mail line: institution words (also right after a mark: "2Meta"),
    a 3+ digit number, a date."""
    return bool(_institution(re.sub(r"[\d∗*†‡§¶]", " ", text)) or re.search(r"\d{3,}", text)
                or "@" in text or "http" in text or _MONTH.search(text))


# a "name" that ends in a country is the end of an address broken at a comma (`Shanghai, P.R. China`); France and
# Jordan are surnames too
_COUNTRY_END = re.compile(r"\b(?:USA|U\.S\.A|China|Germany|Japan|Italy|Spain|Canada|Switzerland|Austria|Netherlands|"
                          r"Australia|India|Korea|Brazil|Kingdom|States)\.?$")


def _name_ok(name: str) -> bool:
    tokens = name.split()
    if not 2 <= len(tokens) <= 6 or re.search(r"\d", name) or _COUNTRY_END.search(name):
        return False
    for i, tok in enumerate(tokens):
        core = tok.strip("()\"'’‘.,")
        if not core:
            return False
        if core.lower() in _PARTICLES and i < len(tokens) - 1:
            continue
        if not core[0].isupper():
            return False
    return True


def _plain_name(part: str) -> str:
    name = clean_text(MARKS.sub(" ", _SPACING_ACCENT_DOTLESS.sub(r"\1i", part))).strip(" .,;:?!")  # "?" "!": OCR'd marks
    name = re.sub(r"(?:\s+[a-z](?:\s*,\s*[a-z])*)+$", "", name)  # Elsevier letter marks "Bronik a"
    name = re.sub(r"^(?:and|by)\s+", "", name, flags=re.I)  # "By David M. Kreps" (an old journal's byline)
    name = re.sub(r"\s+(?:iD|ID)$", "", name)  # ORCID icon drawn as text
    if name.isupper() and len(name) > 3:  # names set in capitals (amsart): "DYLAN P. THURSTON"
        name = re.sub(r"(^|[\s\-'’.])(\w)", lambda m: m[1] + m[2].upper(), name.lower())  # "Jean-Pierre"
    else:  # a surname in capitals beside a given name that is not ("Wei ZHANG", OCR'd small capitals "M. KREPS")
        name = re.sub(r"\b[A-Z][A-Z'’]{2,}\b", lambda m: m[0][0] + m[0][1:].lower(), name)
    return name


_ACCENTS = {"¨": "\u0308", "´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303", "˘": "\u0306",
            "ˇ": "\u030c", "˚": "\u030a", "¯": "\u0304", "˙": "\u0307"}


_AFTER_LETTER = re.compile("[" + "".join(_ACCENTS) + "][^aeiouyAEIOUYı\\s]")


def _line_chars(line: Line, page: pymupdf.Page) -> list[dict]:
    """The characters of one line with their boxes (a clipped text page: cheap)."""
    tp = page.get_textpage(clip=pymupdf.Rect(line.bbox) + (-1, -1, 1, 1))
    return [c for b in tp.extractRAWDICT()["blocks"] for l in b.get("lines", []) for s in l["spans"]
            for c in s["chars"]]


def _accents_placed(span: Span, chars: list[dict] | None) -> str:
    """Span text with each spacing accent put on the letter it is drawn over. Some producers write the accent
    after its letter ("He´le`ne" for Hélène), which text order alone cannot tell from "´l"; the glyph boxes can.
    Accents go on vowels in most names, so "¨u" is read in order; only an accent before a consonant may belong
    to the letter before it, and only then are the boxes read."""
    if chars is None or not _AFTER_LETTER.search(span.text):
        return span.text
    chars = [c for c in chars if span.bbox[0] - 0.5 <= (c["bbox"][0] + c["bbox"][2]) / 2 <= span.bbox[2] + 0.5]
    if "".join(c["c"] for c in chars).strip() != span.text.strip():
        return span.text
    out: list[list] = []  # [text, bbox] per printed letter
    for c in chars:
        mid = (c["bbox"][0] + c["bbox"][2]) / 2
        if c["c"] in _ACCENTS and out and out[-1][1][0] <= mid <= out[-1][1][2] and out[-1][0].isalpha():
            out[-1][0] = unicodedata.normalize("NFC", out[-1][0].replace("ı", "i") + _ACCENTS[c["c"]])
        else:
            out.append([c["c"], c["bbox"]])
    return "".join(t for t, _ in out)


def names(line: Line, page: pymupdf.Page | None = None) -> list[str]:
    """Author names of one line: superscript marks, commas, semicolons, '&', middle dots and 'and' separate names;
    membership grades and footnote marks are dropped; parts that are not name-shaped are rejected.
    With the page, accents drawn after their letter are put back on it."""
    top = line.max_size
    chars = _line_chars(line, page) if page is not None and _AFTER_LETTER.search(line.text) else None
    parts = []
    for s in line.spans:
        t = _accents_placed(s, chars)
        small = s.size < 0.8 * top and not t.isspace()
        caps = re.fullmatch(r"[A-ZÀ-Þ][A-ZÀ-Þ'’.\- ]*", t.strip()) and len(t.strip()) > 1
        if small and caps and not s.superscript:
            parts.append(t.lower())  # small capitals: "J" + "OHN"
        else:
            parts.append("|" if (s.superscript or small) and not t.isspace() else t)
    text = BRACKETED_EMAIL.sub("|", "".join(parts))
    text = MEMBERSHIP.sub("|", text)
    out = []
    # Springer separates names with middle dots, Wiley with vertical bars
    for part in re.split(r"\||,|;|&|·|•|⋅|\b(?:and|AND)\b|\s{3,}", text):
        name = _plain_name(part)
        if name and "@" not in name and "http" not in name and not _institution(name) and _name_ok(name):
            out.append(name)
    return out


# an e-mail address in brackets after a name: "Anna Müller (anna.mueller@uzh.ch)", "J. Doe <jdoe@x.org>"
BRACKETED_EMAIL = re.compile(r"[(<\[]\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*[)>\]]")


def name_like(line: Line) -> bool:
    """A line of author names (and nothing else but their e-mail addresses in brackets)."""
    text = BRACKETED_EMAIL.sub(" ", line.text)
    return not is_address(text) and not is_masthead(text) and bool(names(line))
