"""Plain-text helpers: cleaning PDF text, sentence splitting, finding mentions, trimming, keyphrases.

Deterministic and dependency-free (no NLTK data), so the offline backend runs anywhere.
"""
from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

_HYPHEN = re.compile(r"([a-z])-[ \t]*\n\s*([a-z])|([A-Z])-[ \t]*\n\s*([A-Z])")
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|Fig|Figs|Eq|Eqs|Sec|Tab|cf|No|resp|approx|Dr|Mr|Ms|al)\.$", re.I)
_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}


def clean(text: str) -> str:
    """Join hyphenated line breaks ("ta-\\nbles" -> "tables") and collapse whitespace."""
    joined = _HYPHEN.sub(lambda m: (m.group(1) or m.group(3)) + (m.group(2) or m.group(4)), text or "")
    return re.sub(r"\s+", " ", joined).strip()


def split_at_headings(text: str, headings: list[str]) -> list[str]:
    """Pieces of raw page text (lines kept) between the paper's section headings, each heading set on lines of its
    own ("5.4" / "Ablation study"): a heading has no full stop, so without this it glues onto the sentence after it
    and a citing sentence ("5.4 Ablation study We perform ... in Table 8") carries the heading above a table into
    that table's summary."""
    words = [h.split() for h in headings if len(h.strip()) > 1]
    if not words:
        return [text]
    alternatives = sorted({r"\s+".join(re.escape(w) for w in ws) for ws in words}, key=len, reverse=True)
    pattern = re.compile(r"(?:^|\n)[ \t]*(?:" + "|".join(alternatives) + r")[ \t]*(?=\n|$)")
    return [piece for piece in pattern.split(text) if piece.strip()]


def sentences(text: str) -> list[str]:
    """Split cleaned text into sentences, not breaking after common abbreviations ("et al.", "Fig.")."""
    out: list[str] = []
    buf = ""
    for part in _SENT_END.split(text):
        buf = f"{buf} {part}".strip() if buf else part.strip()
        if buf and not _ABBREV.search(buf[-10:]):  # only the tail can end in an abbreviation
            out.append(buf)
            buf = ""
    if buf:
        out.append(buf)
    return out


def is_noise(sentence: str) -> bool:
    """Running heads, affiliations, arXiv stamps, citation lists, number soup: not worth extracting."""
    words = sentence.split()
    if len(words) < 4:
        return True
    letters = sum(c.isalpha() for c in sentence)
    if letters < 0.6 * len(sentence.replace(" ", "")):
        return True
    if re.search(r"arXiv:\d|@\w+\.\w|https?://|\bProceedings of\b|\bCopyright\b|\blicen[cs]e\b", sentence, re.I):
        return True
    if len(re.findall(r"\b(?:19|20)\d\d[a-z]?\b", sentence)) >= 3:  # reference-list entries
        return True
    if re.search(r"\bIn (?:Proceedings|AAAI|ACL|EMNLP|NAACL|ICLR|ICML|NeurIPS)\b|\bpages \d+\s*[–-]\s*\d+|arXiv preprint|\bdoi\b", sentence):
        return True
    caps = sum(w[:1].isupper() for w in words)
    return len(words) >= 6 and caps > 0.7 * len(words)  # author lists, title-case headings


def truncate_words(text: str, limit: int) -> str:
    words = text.split()
    if len(words) <= limit:
        return text
    return _end_cleanly(" ".join(words[:limit])) + " …"


_TRAILING = re.compile(r"[\s,;:(\[\-–—]+$|\s+(?:a|an|the|of|and|or|to|in|on|for|with|by|from|as|at|is|are|be|that|which|we|our|its|their|this|these|over|into|onto|under|without|between|than|via|per|such|not|can|how|when|while|whether|both|either|using)$", re.I)


def _end_cleanly(text: str) -> str:
    """Drop dangling function words and punctuation left by a cut."""
    prev = None
    while prev != text:
        prev, text = text, _TRAILING.sub("", text)
    return text


_RUNNING_HEAD = re.compile(r"(?:Published as a conference paper at|Under review as a conference paper at) [A-Z]+ \d{4}\s*")


def extract(text: str, max_words: int, *, skip_fragment: bool = True) -> str:
    """First sentences of `text` up to about max_words words, skipping noise. A page that starts mid-sentence
    (lowercase first letter: carried over from the previous page) skips that fragment."""
    sents = sentences(_RUNNING_HEAD.sub("", clean(text[:8000])))  # the opening is all we keep
    if skip_fragment and sents and sents[0][:1].islower() and len(sents) > 1:
        sents = sents[1:]
    picked: list[str] = []
    count = 0
    for s in sents:
        if is_noise(s):
            continue
        n = len(s.split())
        if picked and count + n > max_words:
            break
        picked.append(s)
        count += n
        if count >= 0.8 * max_words:
            break
    if not picked:  # nothing sentence-like (a table of numbers, a reference list): the opening words, marked cut
        return truncate_words(clean(text), max_words)
    return truncate_words(" ".join(picked), max_words)


def element_label(caption: str, kind: str) -> str | None:
    """"3" for "Table 3: ..." / "Figure 3." / "Fig. 3"; None when the caption carries no number."""
    pattern = r"^\W*(?:Table|Tab\.?)\s*([0-9]+|[IVX]+)\b" if kind == "table" else r"^\W*(?:Figure|Fig\.?)\s*([0-9]+)\b"
    m = re.match(pattern, clean(caption), re.I)
    if not m:
        return None
    label = m.group(1)
    return str(_ROMAN.get(label.lower(), label)) if not label.isdigit() else label


def mentions(paper_sentences: list[str], kind: str, label: str, limit: int = 2) -> list[str]:
    """Sentences citing the element ("as Table 3 shows", "(Fig. 2)"), not its caption, at most `limit`."""
    word = r"(?:Tables?|Tab\.)" if kind == "table" else r"(?:Figures?|Figs?\.)"
    cite = re.compile(rf"\b{word}\s*(?:\d+\s*(?:,|and|&)\s*)*{re.escape(label)}(?![0-9])", re.I)
    caption = re.compile(rf"(?:^\W*{word}\s*{re.escape(label)}\s*[.|]|\b{word}\s*{re.escape(label)}\s*:)", re.I)
    out: list[str] = []
    for s in paper_sentences:
        # the caption itself, or figure/table text glued to it by the text layer, is not a citing sentence
        if cite.search(s) and not caption.search(s) and len(s.split()) <= 60 and not _number_soup(s) and s not in out:
            out.append(s)
            if len(out) >= limit:
                break
    return out


def _number_soup(sentence: str) -> bool:
    tokens = sentence.split()
    return sum(any(c.isdigit() for c in t) for t in tokens) > max(3, 0.2 * len(tokens)) or is_noise(sentence)


class _HeaderCells(HTMLParser):
    """Collects the cells of the first table row."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.rows = 0
        self._in_cell = False
        self._buf = ""

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows += 1
        elif tag in ("td", "th") and self.rows <= 1:
            self._in_cell, self._buf = True, ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._in_cell:
            self.cells.append(clean(self._buf))
            self._in_cell = False

    def handle_data(self, data):
        if self._in_cell:
            self._buf += data


def table_shape(html: str) -> tuple[list[str], int]:
    """(non-empty header cells, number of rows) of an HTML table."""
    parser = _HeaderCells()
    try:
        parser.feed(html or "")
    except Exception:  # malformed HTML from a parser: no header rather than no summary
        return [], 0
    return [c for c in parser.cells if c], parser.rows


def choose_tldr_sentence(text: str) -> str:
    """The sentence that states the contribution ("we propose ...") if one of the first five does, else the first."""
    sents = [s for s in sentences(clean(text)) if not is_noise(s)]
    if not sents:
        return ""
    for s in sents[:5]:
        if re.search(r"\b(?:we|this (?:paper|work)|here)\s+(?:propose|present|introduce|show|describe|develop|study|release)", s, re.I):
            return s
    return sents[0]


_LEAD_IN = re.compile(r"^(?:In (?:this|the present) (?:paper|work|study)|Here|To (?:this end|address [^,]{0,60})|Along the way|In this work),\s*", re.I)
_CLAUSE = re.compile(r",\s|\s(?:that|which|where|while|whereas|using|via|and thus)\s|\s[–—-]\s|;\s")


def trim_chars(text: str, limit: int) -> str:
    """At most `limit` characters: drop a lead-in ("In this paper, "), then cut at the last clause boundary past
    half the limit, else at a word boundary with "…"; never end on a dangling function word."""
    text = _LEAD_IN.sub("", clean(text))
    text = text[:1].upper() + text[1:]
    if len(text) <= limit:
        return text
    clauses = [m.start() for m in _CLAUSE.finditer(text[: limit - 1]) if m.start() >= limit // 2]
    if clauses:
        return _end_cleanly(text[: clauses[-1]]) + "."
    cut = text[: limit - 2]
    cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return _end_cleanly(cut.rstrip(".")) + " …"


STOPWORDS = frozenset("""a about above across after again against all almost along also although always am among an and another
any are around as at be because been before being below between both but by can could did do does doing done down during each
either enough even every few for from further had has have having he her here hers him his how however i if in into is it its
itself just least less like made make many may me might more most much must my neither no nor not now of off often on once one
only or other others our ours out over own per rather same several she should show shows shown since so some such than that
the their them then there these they this those though through thus to too under until up upon us use used uses using very via
was we well were what when where whether which while who whom whose why will with within without would yet you your based new
paper propose proposed approach method methods results result present introduce work task tasks model models also first
demonstrate achieve achieves significantly large show shows existing however two three recent recently different novel""".split())


_VERBS = frozenset("""enhance enhances enhanced demonstrate demonstrates reveal reveals achieved outperform outperforms
outperforming provide provides include includes including remain remains offer offers enable enables exceed exceeds allow
allows improve improves improved require requires requiring find finds found obtain obtains perform performs performed
consider considers suggest suggests help helps lead leads yield yields call called allowing give gives given take takes
introduces presents proposes explore explores study studies investigate investigates evaluate evaluates apply applies
compare compares report reports release releases""".split())
_URL = re.compile(r"https?://\S+|\b\S+\.(?:com|org|io|net|edu)\S*")
_ARXIV_STAMP = re.compile(r"^arXiv:\S+")


def keyphrases(title: str, abstract: str, n: int = 5) -> list[str]:
    """Keyphrases by frequency: candidates are 1-3 word n-grams inside runs of content words (stopwords, common
    verbs and punctuation split runs); score = length weight x damped occurrences, plus a bonus for title phrases."""
    title_c = "" if _ARXIV_STAMP.match(clean(title)) else clean(title)  # a parser that took the arXiv stamp as title
    runs: list[list[str]] = []
    for chunk in re.split(r"[.,;:!?()\[\]\"“”]|\s[-–—]\s", _URL.sub(" ", f"{title_c}. {clean(abstract)}")):
        run: list[str] = []
        for tok in re.findall(r"[A-Za-z][A-Za-z0-9\-+']*", chunk):
            low = tok.lower()
            if low in STOPWORDS or low in _VERBS or len(tok) < 2 or low.endswith("ly"):
                if run:
                    runs.append(run)
                run = []
            else:
                run.append(tok)
        if run:
            runs.append(run)
    weight = {1: 1.0, 2: 2.2, 3: 2.8}
    title_key = " " + _stemkey(title_c) + " "
    counts: Counter = Counter()
    surface: dict[str, str] = {}
    for run in runs:
        for size in (1, 2, 3):
            for i in range(len(run) - size + 1):
                gram = run[i:i + size]
                if gram[-1].lower().endswith("ed"):  # "outputs generated": a clause, not a term
                    continue
                key = _stemkey(" ".join(gram))
                counts[key] += 1
                surface.setdefault(key, " ".join(w if any(c.isupper() for c in w[1:]) or w.isupper() else w.lower() for w in gram))
    # counts are damped so one frequent word does not beat the multi-word terms; title phrases get a per-word bonus
    score = {k: weight[len(k.split())] * c ** 0.7 + (3.0 * len(k.split()) if f" {k} " in title_key else 0.0) for k, c in counts.items()}
    out: list[str] = []
    for key in sorted(score, key=lambda k: (-score[k], k)):
        if any(f" {key} " in f" {o} " or f" {o} " in f" {key} " for o in out):  # no "parsing" next to "semantic parsing"
            continue
        out.append(key)
        if len(out) >= n:
            break
    return [surface[k] for k in out]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _stemkey(phrase: str) -> str:
    return " ".join(_stem(w.lower()) for w in phrase.split())
