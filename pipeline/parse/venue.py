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


_MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_YEAR = r"((?:19|20)\d{2})"
# Journals and conferences outside the upstream list, named by what their pages print: (pattern, abbreviation,
# full name; None = the matched name itself). The year is the pattern's last group, else the first year after it.
_PRINTED = [
    (r"Copyright\s*(?:©|c⃝|C⃝|\(c\))?\s*" + _YEAR + r",? (?:the )?Association for the Advancement of Artificial Intelligence",
     "AAAI", "AAAI Conference on Artificial Intelligence"),
    (r"This (ICCV|CVPR|WACV|ECCV) paper is the Open Access version", None, None),
    # ACM's permission block and reference format: "CIKM ’23, October 21–25, 2023, Birmingham", "KDD, 2018, London"
    (r"\b([A-Z][A-Za-z]{1,9}(?:-[A-Z]{2,9})?)(?: ?['’‘]\d{2})?, (?:[A-Z][a-z]+ \d{1,2}\s?[–-]\s?(?:[A-Z][a-z]+ )?\d{1,2}, )?"
     + _YEAR + r", [A-Z][a-z]+(?=.{0,400}\bACM\b)", None, None),
    (r"(IEEE(?:/ACM)? TRANSACTIONS ON [A-Z][A-Z ,&\-]+?|IEEE JOURNAL OF [A-Z][A-Z ,&\-]+?|IEEE [A-Z ]+ LETTERS),?\s+VOL",
     None, None),
    (r"Journal of Machine Learning Research \d+ \(" + _YEAR + r"\)", "JMLR", "Journal of Machine Learning Research"),
    # ASME's journals: "Journal of Mechanical Design ... Copyright © 2026 by ASME" in the first page's footer
    (r"((?:Journal of|ASME Journal of)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,8})\b.{0,120}?Copyright\s*(?:©|\(c\))?\s*"
     + _YEAR + r" by ASME", None, None),
    # AIAA's forums print their name over the title: "AIAA SciTech 2026 Forum, 12–16 January 2026, Orlando, FL"
    (r"\b(AIAA (?:[A-Z][A-Za-z]+)(?: (?:[A-Z][a-z]+|and)){0,3}) " + _YEAR + r" Forum\b", None, None),
    (r"\beLife " + _YEAR + r";", "eLife", "eLife"),
    (r"\b(PLo[Ss] (?:ONE|Biology|Computational Biology|Genetics|Medicine|Pathogens))\b", None, None),
    (r"\bMNRAS (?:\d+|000), [\d–-]+ \(" + _YEAR + r"\)", "MNRAS", "Monthly Notices of the Royal Astronomical Society"),
    (r"(The Astronomical Journal|The Astrophysical Journal(?: Letters| Supplement Series)?),? \d+:", None, None),
    (r"(BMC [A-Z][a-z]+(?: [A-Z][a-z]+){0,3}) " + _YEAR + r", \d+:\d+", None, None),
    # BMC and SpringerOpen since 2016: "Dodd et al. BMC Medical Informatics and Decision Making (2026) 26:152",
    # "Chen et al. Journal of Big Data (2019) 6:54" (authors, journal, year, volume:article)
    (r"\bet al\.,? ((?:[A-Z][A-Za-z]+|of|and|for|the|in|on|&)(?: (?:[A-Z][A-Za-z]+|of|and|for|the|in|on|&)){0,9}) \("
     + _YEAR + r"\) \d+:\d+", None, None),
    (r"\b(NATURE|Nature) \| VOL \d+", "Nature", "Nature"),
    # a masthead in small capitals, which the text layer gives in lower case after the name: "Philosophers’
    # Imprint volume 26, no. 14 november 2026" (name, volume, number, month and year; whole page: a masthead may
    # stand beside the title, and a citation puts pages between number and date)
    (r"((?:The )?[A-Z][A-Za-z’']*(?: (?:[A-Z][A-Za-z’']*|of|and|for|the|in|on|&)){0,6}) (?i:volume|vol\.) \d+,? "
     r"(?i:no\.|number|issue) \d+,? (?i:" + _MONTHS + r") " + _YEAR, None, None),
    # a masthead that dates the issue before its volume and issue: "Journal of Statistical Software July 2008, Volume
    # 27, Issue 3." (JSS; the R Journal's and JOSS's footers put the volume first: below)
    (r"((?:The )?[A-Z][a-z]+(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){0,6}),? " + _MONTHS + r" " + _YEAR
     + r", Volume \d+, (?:Issue|Number|No\.) \d+", None, None),
    # a proceedings title outside upstream's list: "Proceedings of Machine Learning for Healthcare 2017"
    (r"Proceedings of (?:the )?((?:\d+(?:st|nd|rd|th) )?[A-Z][\w&-]*(?: (?:[A-Z][\w&-]*|of|on|for|and|in)){1,12}?),? "
     + _YEAR + r"\b", None, None),
    # Elsevier and Springer mastheads: "Pattern Recognition 155 (2024) 110732", "Journal of X (2015) 12:33"
    (r"((?:[A-Z][a-z]+|of|and|for|the|in|on|&)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,9}) \d+ \(" + _YEAR
     + r"\),? \d+", None, None),  # ... and AMS-style "Annals of Mathematics 204 (2026), 1–9"
    (r"((?:Journal|International Journal|Annals|Proceedings|Transactions)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,10}) "
     r"\(" + _YEAR + r"\) \d+:\d+", None, None),
    (r"(International Journal(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,8}) \d+:\d+ " + _YEAR, None, None),
    # a journal's footer or header with its volume and issue: "The R Journal Vol. 13/1, June 2021", "Journal of
    # Open Source Software, Vol. 5, No. 12, December 2020"
    (r"((?:The )?[A-Z][A-Za-z]*(?: (?:[A-Z][A-Za-z]*|of|and|for|the|in|on|&)){0,8}),? Vol(?:\.|ume) \d+(?:/\d+|, No\. \d+)?,? "
     + _MONTHS + r" " + _YEAR, None, None),
    # a journal's masthead as OUP, Wiley and T&F set it above the title: "Bioinformatics, 2026, pp. 1–5",
    # "Journal of Economic Geography, 2019, Vol. 19, No. 2, 12–40" (journal name, year, then pages or volume)
    (r"(?:^|[.|] )((?:[A-Z][a-z]+|of|and|for|the|in|on|&)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){0,8}), " + _YEAR
     + r",? (?:Vol\. ?\d+,? |\d+,? )?(?:No\. ?\d+,? )?(?:pp\. ?)?\d+ ?[–-] ?\d+\b", None, None),
    # a footnote or header naming where the paper appeared, by the venue's acronym: "Published as a conference paper
    # in ECCV’18", "Accepted at AAAI 2021", "To appear in the Proceedings of SIGIR 2019" (acronyms only: an ordinary
    # word after "in" is prose; loose: on a whole page it can be a sentence about another paper)
    (r"\b(?:Published|Accepted|To appear|Appear(?:s|ed))(?: as an? (?:conference|workshop|journal|full|short|long|oral|"
     r"poster|main[- ]conference) paper)? (?:in|at|to) (?:the )?(?:Proceedings of (?:the )?)?(?:\d+(?:st|nd|rd|th) )?"
     r"((?:IEEE |ACM )?[A-Z][A-Za-z]*[A-Z](?:-[A-Z]+)?) ?['’‘]?((?:19|20)?\d{2})\b", None, None),
    # a journal's ISO 4 abbreviation with volume and year, as mathematics and physics journals print their footer or
    # masthead: "Electron. J. Probab. 31 (2026), article no. 14", "Phys. Rev. Lett. 124, 101801 (2020)"
    (r"(?<![\w.])([A-Z][a-z]*\.(?: (?:[A-Z][a-z]*\.|[A-Z]\b|of|and|&)){1,6}) \d+(?:, \d+)? \(" + _YEAR + r"\)",
     None, None),
    # a journal's footer as Wiley sets it for society journals: its name (and a second-language name after a slash),
    # year, volume(issue): "Canadian Journal of Economics / Revue canadienne d'économique 2019 52(3)"
    (r"((?:[A-Z][a-z]+|of|and|for|the|in|on|&)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,9})(?: / [^/]{3,60}?)? "
     + _YEAR + r",? (?:Vol\. ?)?\d+ ?\(\d+\)", None, None),
    # NRC Research Press / Canadian Science Publishing footers: "Canadian Journal of Physics 99: 1–5 (2021)"
    (r"((?:[A-Z][a-z]+|of|and|for|the|in|on|&)(?: (?:[A-Z][a-z]+|of|and|for|the|in|on|&)){1,9}) \d+: ?\d+(?: ?[–-] ?\d+)? \("
     + _YEAR + r"\)", None, None),
    # a proceedings volume named in a copyright footnote with its editors: "© 2026 A. Author. Proceedings of the 44th
    # West Coast Conference on Formal Linguistics, ed. Ana Ruiz, 1-9." (Cascadilla Proceedings Project)
    (r"Proceedings of (?:the )?((?:\d+(?:st|nd|rd|th) )?[A-Z][\w&-]*(?: (?:[A-Z][\w&-]*|of|on|for|and|in)){1,12}?), eds?\. ",
     None, None),
    # a journal's running head with volume, year and issue: "TUGboat, Volume 44 (2023), No. 2", "Statistical
    # Science, Vol. 35 (2020), No. 4"
    (r"((?:The )?[A-Z][A-Za-z]*(?: (?:[A-Z][A-Za-z]*|of|and|for|the|in|on|&)){0,8}),? Vol(?:\.|ume) ?\d+,? \("
     + _YEAR + r"\),? (?:No\.|Issue|Number) ?\d+", None, None),
    # an overlay journal's footer naming it with the date of acceptance: "Accepted in Quantum 2026-11-24, click title
    # to verify" (a name in words, then an ISO date: the journal's own line, not a sentence)
    (r"\b(?:Accepted|Published) in ((?:The )?[A-Z][A-Za-z]+(?: (?:[A-Z][A-Za-z]+|of|and|for|the|in|on|&)){0,6}) "
     + _YEAR + r"-\d{2}-\d{2}\b", None, None),
]


_UPSTREAM_ACRONYMS = {"NIPS": "NeurIPS", "NeurIPS": "NeurIPS", "ICLR": "ICLR", "ICML": "ICML", "ICASSP": "icassp",
                      "ACL": "ACL", "EMNLP": "EMNLP", "NAACL": "NAACL", "EACL": "EACL", "AACL": "AACL",
                      "COLING": "COLING", "CoNLL": "CoNLL", "LREC": "LREC", "TACL": "TACL"}


def _title_case(name: str) -> str:
    if not name.isupper() or name.count(" ") < 2:  # "IEEE TPAMI" is an acronym, not a shouted title
        return name
    small = {"of", "on", "and", "for", "the", "in", "&"}
    words = [w.lower() if w.lower() in small and i else ("IEEE" if w == "IEEE" else "ACM" if w == "ACM" else w.capitalize())
             for i, w in enumerate(name.split())]
    return " ".join(words)


# patterns too loose to run over a whole page: only over the furniture text (headers, footers, margins)
_LOOSE = 13


def detect_printed_venue(text: str, whole_page: bool = False) -> Venue | None:
    """A journal or conference outside the upstream list, from its masthead, running header, copyright or
    permission line (IEEE Transactions, ACM's "CIKM '23,", AAAI's copyright, Elsevier/Springer/BMC/AAS
    mastheads, eLife/PLOS/MNRAS footers, CVF's open-access note)."""
    text = re.sub(r"\s+", " ", clean_text(text))
    for pattern, abbr, full in _PRINTED[: len(_PRINTED) - _LOOSE] if whole_page else _PRINTED:
        m = re.search(pattern, text)
        if not m:
            continue
        groups = [g for g in m.groups() if g]
        name = groups[0] if abbr is None else abbr

        year = None
        if groups and re.fullmatch(r"(19|20)\d{2}", groups[-1]):
            year = int(groups[-1])
        elif groups and re.fullmatch(r"\d{2}", groups[-1]):
            year = 2000 + int(groups[-1]) if int(groups[-1]) < 70 else 1900 + int(groups[-1])
        else:
            after = re.search(r"\b" + _YEAR + r"\b", text[m.end():m.end() + 80])
            year = int(after[1]) if after else None
        name = _title_case(name.strip(" ,"))
        if abbr is None and name in _UPSTREAM_ACRONYMS:  # spelled as upstream's metadata spells them
            name = _UPSTREAM_ACRONYMS[name]
            full = FULL_NAMES.get(name)
        if name.startswith(("PLoS ", "PLOS ", "Plos ")):
            name = "PLOS " + groups[0][5:]
        return Venue(name if abbr is None else abbr, full or name, year)
    return None


def printed_year(text: str, dates: bool = True) -> int | None:
    """The year page 1 prints for the paper itself: a copyright line ("© 2011 IEEE", "Copyright: © 2012 Fredj"),
    a publication date ("Published: 15 October 2012", "November 2012 | Volume 7"), a masthead "(2010)", or (with
    `dates`) a date line of its own ("November 3, 2000"). A bare date in the running furniture is the day the PDF was
    built (`\\today` in a header: "October 27, 2019, PalgravePrecautionary" over a paper dated June 12, 2007), so the
    furniture is read with `dates=False`."""
    text = re.sub(r"\s+", " ", clean_text(text))
    for pattern in (r"(?:©|c⃝|C⃝|\(c\)|Copyright:?)\s*(?:©\s*)?" + _YEAR + r"\b",
                    r"\bPublished(?: online)?:? (?:\d{1,2} )?" + _MONTHS + r"(?: \d{1,2},?)? " + _YEAR,
                    _MONTHS + r" " + _YEAR + r" \| Volume",
                    r"\b(?:Vol\.|Volume) \d+.{0,30}?\b" + _YEAR + r"\b",
                    *([r"^(?:.{0,200}?)\b" + _MONTHS + r" \d{1,2}, " + _YEAR + r"\b"] if dates else [])):
        m = re.search(pattern, text, re.I if "Published" in pattern else 0)
        if m:
            return int(m.group(m.lastindex))
    return None


# Journals whose DOIs name them (the DOI suffix carries a journal code): the paper's own DOI, printed on page 1 or
# in the PDF's metadata, names its venue even where no masthead does. Publisher-wide prefixes (10.1109 IEEE,
# 10.1145 ACM, 10.1016 Elsevier, 10.1007 Springer) say nothing about the venue and are not listed.
_DOI_JOURNALS = [
    (r"10\.1038/nature\d", "Nature"), (r"10\.1038/s41586-", "Nature"),
    (r"10\.1038/ncomms\d|10\.1038/s41467-", "Nature Communications"), (r"10\.1038/(?:srep\d|s41598-)", "Scientific Reports"),
    (r"10\.1126/science\.", "Science"), (r"10\.1073/pnas\.", "PNAS"),
    (r"10\.1371/journal\.pone\.", "PLOS ONE"), (r"10\.1371/journal\.pbio\.", "PLOS Biology"),
    (r"10\.1371/journal\.pcbi\.", "PLOS Computational Biology"), (r"10\.1371/journal\.pgen\.", "PLOS Genetics"),
    (r"10\.1371/journal\.pmed\.", "PLOS Medicine"), (r"10\.1371/journal\.ppat\.", "PLOS Pathogens"),
    (r"10\.7554/eLife\.", "eLife"), (r"10\.7717/peerj-cs\.", "PeerJ Computer Science"), (r"10\.7717/peerj\.", "PeerJ"),
    (r"10\.1093/mnras/", "MNRAS"), (r"10\.32614/RJ-", "The R Journal"),
    (r"10\.18637/jss\.", "Journal of Statistical Software"),
    (r"10\.4007/annals\.", "Annals of Mathematics"), (r"10\.1090/jams/", "Journal of the American Mathematical Society"),
    (r"10\.1103/PhysRevLett\.", "Physical Review Letters"), (r"10\.1103/PhysRev([A-EX])\.", "Physical Review {}"),
]
# ACL Anthology DOIs: 10.18653/v1/2023.acl-long.12, 10.18653/v1/2021.findings-emnlp.3, 10.18653/v1/N19-1423
_ANTHOLOGY = {"acl": "ACL", "emnlp": "EMNLP", "naacl": "NAACL", "eacl": "EACL", "aacl": "AACL", "coling": "COLING",
              "conll": "CoNLL", "lrec": "LREC", "tacl": "TACL"}
_ANTHOLOGY_LETTERS = {"P": "ACL", "D": "EMNLP", "N": "NAACL", "E": "EACL", "C": "COLING", "K": "CoNLL", "Q": "TACL"}
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)")


def detect_doi_venue(text: str) -> Venue | None:
    """The venue the paper's own DOI names (the first DOI in `text`: page 1's, or the PDF metadata's), or None."""
    m = _DOI.search(re.sub(r"(10\.\d{4,9}/)\s+", r"\1", clean_text(text)))
    if not m:
        return None
    doi = m[1].rstrip(".,;)")
    for pattern, name in _DOI_JOURNALS:
        j = re.match(pattern, doi)
        if j:
            name = name.format(*j.groups())
            return Venue(name, name, None)
    a = re.match(r"10\.18653/v1/(\d{4})\.(findings-)?([a-z]+)", doi)
    if a and a[3] in _ANTHOLOGY:
        abbr, year = _ANTHOLOGY[a[3]], int(a[1])
        return Venue(abbr, _full_name(abbr, year), year)
    a = re.match(r"10\.18653/v1/([A-Z])(\d{2})-\d", doi)
    if a and a[1] in _ANTHOLOGY_LETTERS:
        abbr, year = _ANTHOLOGY_LETTERS[a[1]], 2000 + int(a[2])
        return Venue(abbr, _full_name(abbr, year), year)
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
