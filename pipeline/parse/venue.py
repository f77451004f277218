"""Venue, arXiv stamp and bibtex (core, backend-neutral): from text a backend found where venues are printed.

Venue names follow the upstream (NeuSym-RAG) metadata files, because `paper_id` hashes the title with
`conference_abbreviation + pub_year` and must match AirQA ids: ACL-family papers keep the printed proceedings
title as `volume`, findings papers belong to the conference named in the findings volume, arXiv-only papers
are `arxiv`/`ArXiv`, and a paper with nothing printed is `uncategorized`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pipeline.document import Metadata
from pipeline.parse.cleanup import SMALL_WORDS, clean_text

UNCATEGORIZED = "uncategorized"

FULL_NAMES = {
    "ACL": "Annual Meeting of the Association for Computational Linguistics",
    "NAACL": "Annual Conference of the North American Chapter of the Association for Computational Linguistics",
    "EACL": "Conference of the European Chapter of the Association for Computational Linguistics",
    "AACL": "Conference of the Asia-Pacific Chapter of the Association for Computational Linguistics",
    "COLING": "International Conference on Computational Linguistics",
    "CoNLL": "Conference on Computational Natural Language Learning",
    "LREC": "International Conference on Language Resources and Evaluation",
    "TACL": "Transactions of the Association for Computational Linguistics",
    "ICLR": "International Conference on Learning Representations",
    "NeurIPS": "Conference on Neural Information Processing Systems",
    "ICML": "International Conference on Machine Learning",
    "icassp": "IEEE International Conference on Acoustics, Speech, and Signal Processing (ICASSP)",
    "arxiv": "ArXiv",
}
# Which conference a printed ACL Anthology proceedings title belongs to (workshops default to ACL upstream).
_PROCEEDINGS = [
    (r"International Conference on Machine Learning", "ICML"),
    (r"Empirical Methods in Natural Language Processing", "EMNLP"),
    (r"North American Chapter of the Association for Computational Linguistics", "NAACL"),
    (r"European Chapter of the Association for Computational Linguistics", "EACL"),
    (r"Asia-Pacific Chapter of the Association for Computational Linguistics", "AACL"),
    (r"International Conference on Computational Linguistics", "COLING"),
    (r"Annual Meeting of the Association for Computational Linguistics", "ACL"),
    (r"Computational Natural Language Learning", "CoNLL"),
    (r"Language Resources and Evaluation", "LREC"),
    (r"Workshop|Shared Task|SemEval", "ACL"),
    # older short forms: "Proceedings of NAACL-HLT 2019"
    (r"\bNAACL", "NAACL"), (r"\bEACL", "EACL"), (r"\bEMNLP", "EMNLP"), (r"\bAACL", "AACL"), (r"\bCOLING", "COLING"),
    (r"\bACL\b", "ACL"),
]


@dataclass
class Venue:
    abbreviation: str
    full: str
    year: int | None
    volume: str | None = None


@dataclass
class ArxivStamp:
    id: str  # without version
    version: str
    category: str
    year: int


def _full_name(abbr: str, year: int | None) -> str:
    if abbr == "EMNLP":
        return f"The {year} Conference on Empirical Methods in Natural Language Processing" if year else \
            "Conference on Empirical Methods in Natural Language Processing"
    return FULL_NAMES.get(abbr, abbr)


def detect_venue(text: str) -> Venue | None:
    """The venue printed in a page header/footer/footnote text (whitespace-normalised), or None."""
    text = re.sub(r"\s+", " ", clean_text(text))
    year_mark = re.search(r"(?:©|c⃝|\(c\)|Copyright)\s*(\d{4})", text)
    m = re.search(r"Findings of the Association for Computational Linguistics:?\s*"
                  r"((?:AACL-)?(?:ACL|EMNLP|NAACL|EACL|AACL)(?:-IJCNLP)?)\s*(\d{4})", text)
    if m:
        abbr, year = re.sub(r"-?IJCNLP", "", m[1]), int(m[2])  # "ACL-IJCNLP 2021" is ACL
        volume = f"Findings of the Association for Computational Linguistics: {m[1]} {year}"
        return Venue(abbr, _full_name(abbr, year), year, volume)
    m = re.search(r"Proceedings of (the )?(.+?)"
                  r"(?=,? pages \d|, PMLR|\. Copyright|,? [A-Z][a-z]+ \d{1,2}\s?[-–]|$)", text)
    if m:
        title = m[2].strip(" ,.")
        for pattern, abbr in _PROCEEDINGS:
            if re.search(pattern, title):
                years = re.findall(r"\b((?:19|20)\d{2})\b", title + " " + text[m.end():m.end() + 120])
                year = int(year_mark[1]) if year_mark else int(years[-1]) if years else None
                if abbr == "ICML":
                    pmlr = re.search(r"PMLR \d+", text)
                    return Venue(abbr, _full_name(abbr, year), year, pmlr[0] if pmlr else None)
                return Venue(abbr, _full_name(abbr, year), year, f"Proceedings of {m[1] or ''}{title}")
    m = re.search(r"(?:Published|Accepted) as an? (?:conference|workshop) paper at ICLR (\d{4})", text)
    if m:
        return Venue("ICLR", FULL_NAMES["ICLR"], int(m[1]))
    m = re.search(r"(Submitted to )?\d*\s*\w*\s*Conference on Neural Information Processing Systems "
                  r"\((?:NeurIPS|NIPS) (\d{4})\)", text)
    if m and not m[1]:  # "Submitted to ..." is the anonymous-review footer
        return Venue("NeurIPS", FULL_NAMES["NeurIPS"], int(m[2]))
    m = re.search(r"Workshop.{0,150}?\b(?:at|@) (?:NeurIPS|NIPS) (\d{4})", text)
    if m:
        return Venue("NeurIPS", FULL_NAMES["NeurIPS"], int(m[1]))
    # IEEE prints "ICASSP 2024 - 2024 IEEE International Conference on Acoustics, ... | ©2024 IEEE"; a bare
    # "ICASSP 2020" far from "IEEE" is a citation in the text
    m = re.search(r"\bICASSP[\s-]*((?:19|20)\d{2})\b", text)
    if m and "IEEE" in text[max(0, m.start() - 100):m.end() + 100]:
        return Venue("icassp", FULL_NAMES["icassp"], int(m[1]))
    m = re.search(r"IEEE International Conference on Acoustics,? Speech,? and Signal Processing.{0,80}?"
                  r"\b((?:19|20)\d{2})\b", text)
    if m:
        return Venue("icassp", FULL_NAMES["icassp"], int(m[1]))
    m = re.search(r"Transactions of the Association for Computational Linguistics,? (?:vol\. )?\d+.{0,60}?"
                  r"\b((?:19|20)\d{2})\b", text)
    if m:
        return Venue("TACL", FULL_NAMES["TACL"], int(m[1]))
    return None


def detect_arxiv(text: str) -> ArxivStamp | None:
    m = re.search(r"arXiv:\s?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?\s*\[([\w.\-]+)\]\s*"
                  r"\d{1,2}\s+[A-Z][a-z]{2}\s+(\d{4})", text)
    return ArxivStamp(m[1], m[2] or "", m[3], int(m[4])) if m else None


# ---- bibtex --------------------------------------------------------------------------------------------

def _ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def make_bibtex(md: Metadata, arxiv: ArxivStamp | None = None) -> str:
    last = re.sub(r"[^a-z]", "", _ascii(md.authors[0].split()[-1]).lower()) if md.authors else "anonymous"
    words = [w for w in re.findall(r"[a-z0-9]+", _ascii(md.title).lower()) if w not in SMALL_WORDS]
    key = f"{last}{md.pub_year or ''}{words[0] if words else ''}"
    entry = [f"title = {{{md.title}}}", f"author = {{{' and '.join(md.authors)}}}"]
    abbr = md.conference_abbreviation
    if abbr and abbr not in (UNCATEGORIZED, "arxiv"):
        kind = "inproceedings"
        volume = md.volume or ""
        entry.append(f"booktitle = {{{volume if volume.startswith(('Proceedings', 'Findings')) else md.conference_full}}}")
    else:
        kind = "misc"
    if md.pub_year:
        entry.append(f"year = {{{md.pub_year}}}")
    if arxiv and kind == "misc":
        entry += [f"eprint = {{{arxiv.id}}}", "archivePrefix = {arXiv}", f"primaryClass = {{{arxiv.category}}}"]
    return "@" + kind + "{" + key + ",\n" + ",\n".join("    " + e for e in entry) + "\n}"
