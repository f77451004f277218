"""metadata view across house styles: title exact, authors F1, abstract found, against truth read off the printed page.

Two sets: corpus2 (20 real papers in other styles; truth in tests/data/parse_truth/metadata.json, skipped when
../shared/corpus2 is absent) and the typeset front matter in tests/data/frontmatter/ (MDPI-, Frontiers-,
Copernicus-, IOP-, Elsevier-production-like pages and an IEEEtran author line with membership grades; exact truth
from the generator make.py; always run).
"""
from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pymupdf
import pytest

from pipeline.document import Metadata
from pipeline.parse import ParseOptions
from pipeline.parse.pymupdf._frontmatter import is_address, is_masthead, names
from pipeline.parse.pymupdf.metadata import extract_metadata
from pipeline.parse.pymupdf.page import Line, Span, analyze_document
from tests.conftest import CORPUS2, needs_corpus2, needs_corpus3

DATA = Path(__file__).resolve().parents[1] / "data"
CORPUS2_TRUTH = json.loads((DATA / "parse_truth" / "metadata.json").read_text(encoding="utf-8"))
FRONTMATTER = DATA / "frontmatter"
FRONTMATTER_TRUTH = json.loads((FRONTMATTER / "truth.json").read_text(encoding="utf-8"))


def _norm(s: str) -> str:
    """Compare printed text, not typography: case, spacing, dashes and quotes unified."""
    s = unicodedata.normalize("NFC", s).casefold()
    s = re.sub(r"[‐‑‒–—−]", "-", s).replace("’", "'").replace("‘", "'")
    return re.sub(r"\s+", " ", s).strip()


def _name(s: str) -> str:
    return re.sub(r"[\s.]+", " ", _norm(s)).strip()


def score(md: Metadata, truth: dict) -> dict:
    """title exact (normalised), authors F1 (normalised names), abstract found (starts with the truth's words)
    and exact (whole text, or start and end words)."""
    got, want = [_name(a) for a in md.authors], [_name(a) for a in truth["authors"]]
    hit = len(set(got) & set(want))
    p = hit / len(got) if got else 0.0
    r = hit / len(want) if want else 0.0
    abstract = _norm(md.abstract)
    return {"title": _norm(md.title) == _norm(truth["title"]),
            "authors_f1": 2 * p * r / (p + r) if p + r else 0.0,
            "abstract": abstract.startswith(_norm(truth["abstract_start"])),
            # exact: the whole abstract (typeset pages) or its printed last words (real papers)
            "abstract_exact": (abstract == _norm(truth["abstract"]) if "abstract" in truth
                               else abstract.endswith(_norm(truth.get("abstract_end", "")))
                               and abstract.startswith(_norm(truth["abstract_start"])))}


@lru_cache(maxsize=None)
def meta(path: Path) -> Metadata:
    md = Metadata()
    with pymupdf.open(path) as doc:
        extract_metadata(analyze_document(doc), path, ParseOptions(sidecar_metadata=False), md)
    return md


def _check(md: Metadata, truth: dict) -> None:
    s = score(md, truth)
    assert s["title"], f"title {md.title!r} != {truth['title']!r}"
    assert s["authors_f1"] == 1.0, f"authors {md.authors} != {truth['authors']}"
    assert s["abstract"], f"abstract {md.abstract[:120]!r} does not start with {truth['abstract_start']!r}"
    assert s["abstract_exact"], f"abstract {md.abstract!r} != the printed one ({truth.get('abstract_end', '')!r})"


@pytest.mark.parametrize("name", sorted(FRONTMATTER_TRUTH))
def test_typeset_front_matter(name: str) -> None:
    _check(meta(FRONTMATTER / name), FRONTMATTER_TRUTH[name])


@needs_corpus2
@pytest.mark.parametrize("name", sorted(CORPUS2_TRUTH))
def test_corpus2(name: str) -> None:
    path = CORPUS2 / name
    if not path.exists():
        pytest.skip(f"corpus2 PDF {path} is absent")
    _check(meta(path), CORPUS2_TRUTH[name])


def test_scorer_catches_errors() -> None:
    truth = {"title": "A Title", "authors": ["Jane Doe", "John Roe"], "abstract_start": "We study"}
    md = Metadata(title="a  title", authors=["Jane Doe", "Senior Member"], abstract="We study things.")
    s = score(md, truth)
    assert s["title"] and s["abstract"] and s["abstract_exact"] and s["authors_f1"] == 0.5
    assert not score(md, {**truth, "abstract_end": "other things."})["abstract_exact"]
    assert not score(Metadata(title="Journal of X", authors=[], abstract=""), truth)["title"]


def _line(*spans: tuple[str, float, int]) -> Line:
    """A printed line from (text, size, flags) spans (flags 1: superscript)."""
    return Line(bbox=(0, 0, 300, 12), spans=[Span(t, (0, 0, 10, 10), size, "Times", flags) for t, size, flags in spans],
                block=0)


@pytest.mark.parametrize("spans,expected", [
    ([("Jane Doe, Senior Member, IEEE, Ali Khan, Student Member, IEEE, and John Roe, Life Fellow, IEEE", 10, 0)],
     ["Jane Doe", "Ali Khan", "John Roe"]),
    ([("Kim Lee · Omar Farouk · Sara Nilsson", 10, 0)], ["Kim Lee", "Omar Farouk", "Sara Nilsson"]),
    ([("Kevin Bronik a, Le Zhang b,∗", 10, 0)], ["Kevin Bronik", "Le Zhang"]),
    ([("Lena Fischer", 10, 0), ("1*", 7, 1), (", Petr Novak", 10, 0), ("2", 7, 1), (" and Samir Haddad", 10, 0)],
     ["Lena Fischer", "Petr Novak", "Samir Haddad"]),
    ([("D", 10, 0), ("YLAN", 8, 0), (" P. T", 10, 0), ("HURSTON", 8, 0)], ["Dylan P. Thurston"]),  # small caps
    ([("DYLAN P. THURSTON", 10, 0)], ["Dylan P. Thurston"]),
    ([("LÉA MOREAU, JEAN-PIERRE O’NEIL, AND DANIEL K. OKAFOR", 10, 0)],
     ["Léa Moreau", "Jean-Pierre O’Neil", "Daniel K. Okafor"]),
    ([("Maria van der Berg and June Smith", 10, 0)], ["Maria van der Berg", "June Smith"]),
    ([("ISSN 0031-3203", 10, 0)], []),
    ([("The paper is organized as follows", 10, 0)], []),
])
def test_names(spans: list[tuple[str, float, int]], expected: list[str]) -> None:
    assert names(_line(*spans)) == expected


@pytest.mark.parametrize("text,address,masthead", [
    ("2Meta, Menlo Park, CA", True, False),
    ("Ann Arbor, MI 48109-2122, USA", True, False),
    ("November 3, 2000", True, False),
    ("June Smith", False, False),
    ("journal homepage: www.elsevier.com/locate/pr", False, True),
    ("Contents lists available at ScienceDirect", False, True),
    ("Received: 3 March 2023", True, True),
    ("Citation-informed Transformers", False, False),  # a title line, not a sidebar label
    ("Journal of Physics Communications", False, True),
])
def test_line_classes(text: str, address: bool, masthead: bool) -> None:
    assert (is_address(text), is_masthead(text)) == (address, masthead)


@needs_corpus3
def test_aastex_author_blocks_under_a_capitals_title():
    # AAS journals: names with affiliation superscripts over several lines, as large as the capitals title;
    # "R. A. Street" is a name, not an address
    from tests.conftest import corpus3_pdf

    aj = _meta_of(corpus3_pdf("astro_aj2011_hal01438069.pdf")).authors
    assert len(aj) == 38 and aj[:2] == ["E. K. Simpson", "S. C. C. Barros"] and "R. A. Street" in aj
    assert aj[-1] == "P. J. Wheatley"
    apj = _meta_of(corpus3_pdf("astro_apj2013_hal01439486.pdf")).authors
    assert apj == ["V. B. Kostov", "P. R. McCullough", "T. C. Hinse", "Z. I. Tsvetanov", "G. Hébrard", "R. F. Díaz",
                   "M. Deleuil", "J. A. Valenti"]
    # the capitals title in headline case, its catalogue acronym as the abstract writes it (not "Kic 4862625")
    title = _meta_of(corpus3_pdf("astro_apj2013_hal01439486.pdf")).title
    assert title.startswith("A Gas Giant Circumbinary Planet Transiting the F Star Primary of the Eclipsing Binary "
                            "Star KIC 4862625 and the Independent Discovery")


def test_capitals_title_keeps_the_acronyms_its_page_prints():
    from pipeline.parse.pymupdf.metadata import _title_case

    assert _title_case("THE KIC 4862625 SYSTEM AND NGC 1275", frozenset({"KIC", "NGC"})) == \
        "The KIC 4862625 System and NGC 1275"
    assert _title_case("A STUDY OF THE RICH") == "A Study of the Rich"


@needs_corpus3
def test_abstracts_that_go_on_overleaf():
    """BMC breaks a long structured abstract off with `(Continued on next page)` and goes on under `(Continued from
    previous page)`; an IMF working paper's cover holds the title alone and its second title page the abstract, under
    front matter and a boxed disclaimer, in the page's top half. Authors: `Klaus Schmidt-` / `Hebbel` is one name."""
    from tests.conftest import corpus3_pdf

    bmc = _meta_of(corpus3_pdf("bmc_bmcmed2014_antenatal_diet.pdf")).abstract
    assert bmc.startswith("Background: Overweight and obesity is a significant health concern during pregnancy.")
    assert "stratification variables. Results: Women randomised to Lifestyle Advice" in bmc
    assert "lifestyle advice improves maternal diet and physical activity during pregnancy." in bmc
    assert "Continued" not in bmc and "Keywords" not in bmc and "Obesity is recognised" not in bmc
    imf = _meta_of(corpus3_pdf("econ_imfwp2014_world_saving.pdf"))
    assert imf.abstract.startswith("This paper presents new evidence on the behavior of saving in the world")
    assert imf.abstract.endswith("for different periods and country groups, and for different saving aggregates.")
    assert imf.authors == ["Francesco Grigoli", "Alexander Herman", "Klaus Schmidt-Hebbel"]


def _meta_of(path):
    from pipeline.parse.options import ParseOptions
    from pipeline.parse.pymupdf import PyMuPDFBackend

    return PyMuPDFBackend().parse(path, ParseOptions(), views=["metadata"]).metadata


def test_run_in_abstract_label_apart_from_its_text(tmp_path: Path) -> None:
    """`Abstract` in bold, a quad, then the text: the text layer keeps the label as a line of its own beside the
    abstract's first line (the R Journal's layout); that first line belongs to the abstract."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), "Learning Sparse Routing for Long Documents", fontsize=18, fontname="hebo")
    page.insert_text((72, 120), "by Anna Rossi and Kenji Tanaka", fontsize=12, fontname="tiro")
    page.insert_text((72, 150), "Abstract", fontsize=10, fontname="tibo")
    first = "Transformer encoders scale quadratically with the length of"
    page.insert_text((128, 150), first, fontsize=10, fontname="tiro")
    for i, text in enumerate(["their input, which makes the classification of long documents expensive for",
                              "every reader. We propose a routing layer that learns which tokens to read."]):
        page.insert_text((72, 162 + 12 * i), text, fontsize=10, fontname="tiro")
    page.insert_text((72, 230), "Introduction", fontsize=14, fontname="hebo")
    page.insert_text((72, 250), "Long documents are everywhere and we read them with transformers today.", fontsize=10,
                     fontname="tiro")
    path = tmp_path / "runin.pdf"
    doc.save(path)
    md = Metadata(title="", abstract="", authors=[], num_pages=1)
    with pymupdf.open(path) as pdf:
        extract_metadata(analyze_document(pdf), path, ParseOptions(), md)
    assert md.abstract.startswith(first), md.abstract
    assert md.abstract.endswith("which tokens to read."), md.abstract
