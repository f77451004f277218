"""Software papers and package vignettes (JSS, the R Journal, R and Python package documentation): a contents listing
on the first page, code names in headings and titles, a title line cut at a wide space, the JSS masthead.

Each case was found on real R package vignettes (Debian's r-cran packages: ape, network, zoo, Rcpp, RcppEigen,
forecast); the PDFs here are drawn with PyMuPDF in the same layout, so their truth is exact. The demibold title is
Latin Modern Roman Demi, as JSS's `\\pkg{}` sets it: `lmdemi.pdf` was made from TeX Live's font file by
tests/parse/papers/make_lmdemi.py (kept in the repository: the tests need no TeX).
"""
from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pipeline.parse import ParseOptions, parse_pdf
from pipeline.parse.pymupdf import PyMuPDFBackend
from pipeline.parse.venue import detect_doi_venue, detect_printed_venue

PAPERS = Path(__file__).resolve().parent / "papers"
BODY = ("Graphical functions have been present in the package since its first version and were improved over the",
        "years to become quite sophisticated although complicated to use efficiently in practice by most users.",
        "This document gives an overview of these functionalities and of the concepts behind the graphics code.",
        "A figure made with the package usually starts by calling the plotting function detailed further below.")


class Page:
    """Lines drawn top to bottom on one page of a PyMuPDF document; a line may mix fonts."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.page, self.y = doc.new_page(), 80.0

    def line(self, parts: list[tuple[str, str]] | str, size: float = 10, font: str = "tiro", x: float = 72,
             right: str = "", gap: float = 1.45) -> None:
        for text, fontname in ([(parts, font)] if isinstance(parts, str) else parts):
            self.page.insert_text((x, self.y), text, fontname=fontname, fontsize=size)
            x += pymupdf.get_text_length(text, fontname=fontname, fontsize=size)
        if right:
            self.page.insert_text((520 - pymupdf.get_text_length(right, fontname=font, fontsize=size), self.y), right,
                                  fontname=font, fontsize=size)
        self.y += size * gap

    def paragraph(self, times: int = 2) -> None:
        for _ in range(times):
            for text in BODY:
                self.line(text)
        self.y += 8


@pytest.fixture(scope="module")
def vignette(tmp_path_factory) -> Path:
    """A vignette whose contents listing fills the top of page 1 and whose text starts under it, on the same page;
    section 3's title names a function in a typewriter face."""
    doc = pymupdf.open()
    p = Page(doc)
    p.line("Drawing Phylogenies in R: Basic and Advanced Features", 17, "tibo")
    p.y += 6
    p.line("Emmanuel Paradis", 12, x=240)
    p.line("February 13, 2023", 11, x=245)
    p.y += 14
    p.line("Contents", 14, "tibo")
    for number, title, page_no in (("1", "Introduction", "1"), ("2", "Basic Concepts", "2"),
                                   ("2.1", "Graphical Model . . . . . . . . . . . . . . . . . . . . . . . . .", "2"),
                                   ("2.2", "Computations . . . . . . . . . . . . . . . . . . . . . . . . . . .", "2"),
                                   ("3", "The plot.phylo Function", "3"), ("4", "Annotating Trees", "3"),
                                   ("", "References", "4")):
        bold = "." not in number
        p.line(f"{number}  {title}".strip(), 10, "tibo" if bold else "tiro", right=page_no)
    p.y += 16
    p.line("1  Introduction", 14, "tibo")
    p.paragraph(1)
    p = Page(doc)
    p.line("2  Basic Concepts", 14, "tibo")
    p.paragraph()
    p.line("2.1  Graphical Model", 12, "tibo")
    p.paragraph()
    p.line("2.2  Computations", 12, "tibo")
    p.paragraph()
    p = Page(doc)
    p.line([("3  The ", "tibo"), ("plot.phylo", "cour"), (" Function", "tibo")], 14)  # code in a bold heading
    p.paragraph()
    p.line("4  Annotating Trees", 14, "tibo")
    p.paragraph()
    p = Page(doc)
    p.line("References", 14, "tibo")
    for entry in ("[1] L. Czech, J. Huerta-Cepas, and A. Stamatakis. A critical review on the use of support values.",
                  "[2] J. Felsenstein. Inferring Phylogenies. Sinauer Associates, Sunderland, MA, 2004.",
                  "[3] P. Murrell. R Graphics. Chapman & Hall/CRC, Boca Raton, FL, 2006."):
        p.line(entry)
    path = tmp_path_factory.mktemp("vignette") / "vignette.pdf"
    doc.save(path)
    return path


def test_contents_listing_then_the_text_on_one_page(vignette: Path) -> None:
    paper = parse_pdf(vignette, ParseOptions())
    titles = [s.title for s in paper.sections]
    # before: the listing's page was skipped from "Contents" down, `1 Introduction` with it; the code-named section
    # read as body text (its bold words under 0.6 of its letters)
    assert titles == ["1 Introduction", "2 Basic Concepts", "2.1 Graphical Model", "2.2 Computations",
                      "3 The plot.phylo Function", "4 Annotating Trees", "References"]
    assert [s.level for s in paper.sections] == [1, 1, 2, 2, 1, 1, 1]
    assert paper.sections[0].content.startswith("Graphical functions have been present")
    assert paper.metadata.authors == ["Emmanuel Paradis"]  # before: "Basic Concepts", an entry of the listing, too
    assert len(paper.references) == 3


def test_a_title_line_cut_at_a_wide_space_is_read_whole(tmp_path: Path) -> None:
    """MuPDF cuts `Extending R     with C++:` (a centred title's wide space) into two lines on one band."""
    doc = pymupdf.open()
    p = Page(doc)
    first = "Extending R"
    p.page.insert_text((52, 80), first, fontname="hebo", fontsize=22)
    p.page.insert_text((52 + pymupdf.get_text_length(first, "hebo", 22) + 18, 80), "with C++:", fontname="hebo",
                       fontsize=22)
    p.y = 106
    p.line("A Brief Introduction to Rcpp", 22, "hebo", x=52, gap=1.6)
    p.line("Dirk Eddelbuettel and James Joseph Balamuta", 9, "hebo", x=52)
    p.y += 12
    p.line("Abstract", 10, "tibo")
    p.paragraph()
    path = tmp_path / "rcpp.pdf"
    doc.save(path)
    md = PyMuPDFBackend().parse(path, ParseOptions(), views=["metadata"]).metadata
    assert md.title == "Extending R with C++: A Brief Introduction to Rcpp"  # before: "Extending R A Brief ..."
    assert md.authors == ["Dirk Eddelbuettel", "James Joseph Balamuta"]


def test_a_package_name_in_demibold_stays_in_the_title() -> None:
    """JSS sets `\\pkg{RcppEigen}` in Latin Modern Roman Demi inside a bold title: `the RcppEigen Package` is under
    0.6 bold by the bold faces alone, and was left out of the title."""
    md = PyMuPDFBackend().parse(PAPERS / "lmdemi.pdf", ParseOptions(), views=["metadata"]).metadata
    assert md.title == "Fast and Elegant Numerical Linear Algebra Using the RcppEigen Package"
    assert md.authors == ["Douglas Bates", "Dirk Eddelbuettel"]


def test_jss_masthead_and_doi_name_the_journal() -> None:
    masthead = ("JSS Journal of Statistical Software July 2008, Volume 27, Issue 3. doi: 10.18637/jss.v027.i03 "
                "Automatic Time Series Forecasting: the forecast Package for R")
    venue = detect_printed_venue(masthead, whole_page=True)
    assert (venue.abbreviation, venue.year) == ("Journal of Statistical Software", 2008)
    assert detect_doi_venue("doi: 10.18637/jss.v027.i03").abbreviation == "Journal of Statistical Software"
    # a citation of a JSS paper gives volume and issue without the date first: not a masthead
    assert detect_printed_venue("Zeileis A (2004). Journal of Statistical Software, 11(10), 1-17.",
                                whole_page=True) is None


def test_figures_after_the_reference_list_leave_its_entries_alone(tmp_path: Path) -> None:
    """brms's overview vignette ends with three pages of plots after its references, with no heading between:
    their axis labels (hundreds of rows of one or two words in small type) made the list's median size theirs, so
    every entry stood out as larger print and the list was cut to nothing."""
    def plots(p: Page) -> None:
        for _ in range(3):  # pages of trace plots: tick labels and parameter names, then a caption
            p = Page(p.page.parent)
            for k in range(60):
                x = 80 + 120 * (k % 4)
                p.line("b_Intercept" if k % 10 == 0 else f"{(k % 7) * 200}", 6.8, "helv", x=x,
                       gap=1.2 if k % 4 == 3 else 0)
            p.y += 20
            p.line("Figure 2: Trace and density plots of all relevant parameters of the kidney model.")

    paper = _with_references(tmp_path, "plots_after", lambda p: p.line("References", 12, "tibo"), plots)
    assert [r.text.split(" (")[0] for r in paper.references] == [first.split(" (")[0] for first, _ in APA]  # before: none


def _front(tmp_path: Path, name: str, draw) -> object:
    doc = pymupdf.open()
    p = Page(doc)
    draw(p)
    p.paragraph(3)
    path = tmp_path / f"{name}.pdf"
    doc.save(path)
    return PyMuPDFBackend().parse(path, ParseOptions(), views=["metadata"]).metadata


def test_names_under_a_maketitle_with_no_abstract(tmp_path: Path) -> None:
    """article's `\\maketitle` (title, author, date) straight into the text: the headings under it are bold, the
    name is not, and `1 Simple Examples` / `Example: Simple Linear Model.` were read as the authors (multcomp, tm)."""
    def draw(p: Page) -> None:
        p.line("Additional multcomp Examples", 17, x=200)
        p.y += 8
        p.line("Torsten Hothorn", 12, x=255)
        p.line("February 10, 2023", 12, x=252)
        p.y += 12
        p.line("It is described in the package documentation how the multiple comparison procedures work in general,")
        p.line("and this document shows a few more examples of them applied to data sets that come with R.")
        p.y += 12
        p.line("1  Simple Examples", 14, "tibo")
        p.line([("Example: Simple Linear Model. ", "tibo"), ("Consider a simple univariate linear model.", "tiro")])
    md = _front(tmp_path, "maketitle", draw)
    assert md.title == "Additional multcomp Examples"
    assert md.authors == ["Torsten Hothorn"]


def test_a_fachhochschule_is_an_affiliation(tmp_path: Path) -> None:
    def draw(p: Page) -> None:
        p.line("Support Vector Machines", 17, x=200)
        p.line("The Interface to libsvm in package e1071", 12, x=190)
        p.y += 10
        p.line("by David Meyer", 12, x=256)
        p.line("FH Technikum Wien, Austria", 12, x=220)
        p.line("David.Meyer@R-Project.org", 12, "cour", x=220)
        p.line("February 1, 2023", 12, x=254)
        p.y += 12
    assert _front(tmp_path, "fh", draw).authors == ["David Meyer"]  # before: also "FH Technikum Wien"


def test_a_notice_above_the_title_is_not_the_title(tmp_path: Path) -> None:
    """surveillance's vignette opens with a `Disclaimer:` paragraph in text type and sets its title a third of the
    way down the page: the title was looked for in the top 30 % only, and the disclaimer became the title."""
    def draw(p: Page) -> None:
        p.y = 130
        p.line([("Disclaimer", "tibo"), (": This vignette reflects package state at version 0.9-7 and is", "tiro")], x=138)
        p.line("somewhat outdated. Since then, new functionality has been added to the package: this", x=138)
        p.line("includes various endemic-epidemic modelling frameworks for surveillance data.", x=138)
        p.y = 280
        p.line("Getting started with outbreak detection", 17.2, x=159)
        p.y += 8
        p.line("Michael Hohle", 12, x=260)
        p.line("Department of Statistics, University of Munich, Germany", 12, x=160)
        p.line("17 November 2007", 12, x=250)
        p.y += 20
        p.line("Abstract", 10, "tibo", x=275)
    md = _front(tmp_path, "notice", draw)
    assert md.title == "Getting started with outbreak detection"
    assert md.authors == ["Michael Hohle"]


def test_the_first_sections_heading_ends_the_names(tmp_path: Path) -> None:
    """`\\maketitle` and then `1 Introduction` / `1.1 Bayes Factors` with no paragraph between: the bold headings
    were read as the authors (mcmc's vignettes: `Bayes Factors`, `The Problem`)."""
    def draw(p: Page) -> None:
        p.line("Bayes Factors via Serial Tempering", 17.2, x=184)
        p.y += 8
        p.line("Charles J. Geyer", 12, x=262)
        p.line("March 20, 2020", 12, x=266)
        p.y += 14
        p.page.insert_text((126, p.y), "1", fontname="tibo", fontsize=14.3)  # the number apart, as LaTeX sets it
        p.line("Introduction", 14.3, "tibo", x=150)
        p.line("1.1  Bayes Factors", 12, "tibo", x=126)
    assert _front(tmp_path, "bfst", draw).authors == ["Charles J. Geyer"]


def test_a_one_word_title_over_its_names(tmp_path: Path) -> None:
    """A title of one word was never a title (a journal's logotype is one word too); under it, in smaller type,
    the names say it is one (survival's `Concordance` vignette took its author line for its title)."""
    def draw(p: Page) -> None:
        p.line("Concordance", 17.2, x=260)
        p.y += 8
        p.line("Terry Therneau, Elizabeth Atkinson", 12, x=213)
        p.line("February 6, 2023", 12, x=262)
        p.y += 14
        p.line("1  The concordance statistic", 14.3, "tibo", x=98)
        p.line("1.1  Overview", 12, "tibo", x=98)
    md = _front(tmp_path, "concordance", draw)
    assert md.title == "Concordance"
    assert md.authors == ["Terry Therneau", "Elizabeth Atkinson"]


APA = [("Baayen, H. (2008). Analyzing linguistic data: A practical introduction", "to statistics using R. Cambridge University Press."),
       ("Barr, D. J., Levy, R., Scheepers, C., & Tily, H. J. (2013). Random effects", "structure for confirmatory hypothesis testing. Journal of Memory and Language, 68, 255-278."),
       ("Bates, D., Machler, M., Bolker, B., & Walker, S. (2015). Fitting linear", "mixed-effects models using lme4. Journal of Statistical Software, 67, 1-48."),
       ("Clark, H. H. (1973). The language-as-fixed-effect fallacy. Journal of", "Verbal Learning and Verbal Behavior, 12, 335-359."),
       ("Judd, C. M., Westfall, J., & Kenny, D. A. (2012). Treating stimuli as a", "random factor in social psychology. Journal of Personality, 103, 54-69.")]


def _with_references(tmp_path: Path, name: str, heading, after, size: float = 10) -> object:
    doc = pymupdf.open()
    p = Page(doc)
    p.line("An Introduction to Mixed Models for Experimental Psychology", 17, "tibo")
    p.line("Henrik Singmann and David Kellen", 12, x=200)
    p.y += 10
    p.line("Introduction", 12, "tibo")
    p.paragraph()
    p.line("Summary", 12, "tibo")
    p.paragraph()
    heading(p)
    for first, second in APA:
        p.line(first, size)
        p.line(second, size, x=86)
    after(p)
    path = tmp_path / f"{name}.pdf"
    doc.save(path)
    return parse_pdf(path, ParseOptions())


def test_a_plain_references_label_over_its_entries(tmp_path: Path) -> None:
    """An APA manuscript centres `References` in the text's own face: it was neither a heading nor the start of the
    reference view (afex's vignette: 0 references for 50)."""
    paper = _with_references(tmp_path, "apa", lambda p: p.line("References", x=270), lambda p: None)
    assert [r.text.split(" (")[0] for r in paper.references] == [first.split(" (")[0] for first, _ in APA]
    assert [s.title for s in paper.sections][-1] == "References"


def test_a_code_listing_after_the_list_is_no_entry(tmp_path: Path) -> None:
    """pinp (Rcpp's vignettes) sets its references in 7 pt and runs its appendix heading into a paragraph, so nothing
    ends the list before the appendix's code listing in 9 pt: the listing's rows, more than the entries', made the
    entries look like footnotes under the list's size, and the list came out empty."""
    def after(p: Page) -> None:
        p = Page(p.page.parent)  # the appendix on the next page
        p.line([("Appendix 2: A Minimal src/Makevars. ", "tibo"), ("In the file shown here, we link with GMP.", "tiro")],
               9)
        for code in ("CXX_STD = CXX11 # the C++ standard", "PKG_CXXFLAGS = -I. -DGMP -O2",
                     "PKG_LIBS = $(LAPACK_LIBS) $(BLAS_LIBS) -lgmp", "The following objects are masked from Rcpp:",
                     "Creating directories and the DESCRIPTION file ...", "Saving functions and data to disk ...",
                     ">> added useDynLib directive to NAMESPACE", ">> added example src file using attributes") * 2:
            p.line(code, 9, "cour", x=76)

    paper = _with_references(tmp_path, "pinp", lambda p: p.line("References", 8, "tibo"), after, size=7)
    assert [r.text.split(" (")[0] for r in paper.references] == [first.split(" (")[0] for first, _ in APA]
    assert "CXX_STD" not in paper.references[-1].text


def test_chapters_of_a_report(tmp_path: Path) -> None:
    """LaTeX's `report` sets `Chapter 1` on a line of its own over the chapter's title, larger still, and numbers the
    sections under it 1.1, 1.2: the chapters were no headings at all (survival's 100-page package report)."""
    doc = pymupdf.open()
    p = Page(doc)
    p.line("A package for survival analysis in R", 17.2, x=160)
    p.line("Terry Therneau", 12, x=255)
    p.y += 20
    p.paragraph()
    for number, title, sections in (("1", "Introduction", ["History", "Survival data"]),
                                    ("2", "Survival curves", ["One event type", "Repeated events"])):
        p = Page(doc)
        p.y = 160
        p.line(f"Chapter {number}", 20.7, "hebo")
        p.y += 14
        p.line(title, 24.8, "hebo", gap=2)
        p.paragraph()
        for k, section in enumerate(sections, 1):
            p.line(f"{number}.{k}  {section}", 14.3, "hebo")
            p.paragraph(1)
        for _ in range(2):  # the chapter goes on over pages of text (a label on every page would be a running head)
            p = Page(doc)
            p.paragraph(4)
    p = Page(doc)
    p.y = 160
    p.line("Appendix A", 20.7, "hebo")
    p.y += 14
    p.line("Changes from version 2", 24.8, "hebo", gap=2)
    p.paragraph()
    path = tmp_path / "report.pdf"
    doc.save(path)
    sections = parse_pdf(path, ParseOptions()).sections
    assert [(s.title, s.level) for s in sections] == [
        ("1 Introduction", 1), ("1.1 History", 2), ("1.2 Survival data", 2), ("2 Survival curves", 1),
        ("2.1 One event type", 2), ("2.2 Repeated events", 2), ("A Changes from version 2", 1)]
    assert sections[0].content.startswith("Graphical functions")


def test_an_address_broken_at_a_comma_is_no_name(tmp_path: Path) -> None:
    """`Shanghai, P.R. China` split at its comma leaves `P.R. China`, initials and a capitalised word (pcaMethods)."""
    def draw(p: Page) -> None:
        p.line("The pcaMethods Package", 17.2, x=206)
        p.y += 8
        p.line("Wolfram Stacklies and Henning Redestig", 12, x=192)
        p.line("CAS-MPG Partner Institute for Computational Biology (PICB)", 12, x=132)
        p.line("Shanghai, P.R. China", 12, x=241)
        p.line("and", 12, x=287)
        p.line("Max Planck Institute for Molecular Plant Physiology", 12, x=161)
        p.line("Potsdam, Germany", 12, x=247)
        p.line("November 1, 2022", 12, x=251)
        p.y += 14
        p.line("1  Overview", 14.3, "tibo")
    assert _front(tmp_path, "pcamethods", draw).authors == ["Wolfram Stacklies", "Henning Redestig"]


def test_maths_in_regular_weight_inside_a_bold_title(tmp_path: Path) -> None:
    """`Accurately Computing log(1 - exp(-|a|))`: the maths' brackets, digits and operators are regular weight, which
    left the bold line under 0.6 bold by characters, so only the title's second line was kept (Rmpfr)."""
    def draw(p: Page) -> None:
        p.line([("Accurately Computing ", "tibo"), ("log(1 - exp(-|a|))", "tiro")], 17.2, x=136)
        p.line("Assessed by the Rmpfr package", 17.2, "tibo", x=170)
        p.y += 10
        p.line("Martin Machler", 12, "tibo", x=257)
        p.line("ETH Zurich", 10.9, x=274)
        p.y += 20
        p.line("Abstract", 10, "tibo", x=280)
    assert _front(tmp_path, "rmpfr", draw).title == \
        "Accurately Computing log(1 - exp(-|a|)) Assessed by the Rmpfr package"
