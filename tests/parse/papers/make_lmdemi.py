"""Draw tests/parse/papers/lmdemi.pdf: a JSS title page whose package name is set in Latin Modern Roman Demi (as
JSS's `\\pkg{}` sets it) between words in Latin Modern Roman Bold, with TeX Live's own font files.

    .venv/bin/python tests/parse/papers/make_lmdemi.py     # needs TeX Live's lm fonts (fonts-lmodern or tex-gyre)

The PDF is kept in the repository: the test needs no TeX.
"""
from __future__ import annotations

from pathlib import Path

import pymupdf

FONTS = Path("/usr/share/texmf/fonts/opentype/public/lm")
BODY = ("The RcppEigen package provides access from R to the Eigen C++ template library",
        "for numerical linear algebra. Rcpp classes and specializations of the templated",
        "functions as and wrap provide the glue for passing objects from R to C++ and back.")


def main() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    fonts = {"bold": "lmroman12-bold.otf", "demi": "lmromandemi10-regular.otf", "roman": "lmroman10-regular.otf"}
    for name, file in fonts.items():
        page.insert_font(fontname=name, fontfile=str(FONTS / file))

    def put(x: float, y: float, text: str, font: str, size: float) -> float:
        page.insert_text((x, y), text, fontname=font, fontsize=size)
        return x + pymupdf.Font(fontfile=str(FONTS / fonts[font])).text_length(text, fontsize=size)

    put(89, 120, "Fast and Elegant Numerical Linear Algebra Using", "bold", 17.2)
    x = put(206, 141, "the ", "bold", 17.2)
    x = put(x, 141, "RcppEigen", "demi", 17.2)
    put(x, 141, " Package", "bold", 17.2)
    put(164, 186, "Douglas Bates", "bold", 12)
    put(128, 200, "University of Wisconsin-Madison", "roman", 10.9)
    put(347, 186, "Dirk Eddelbuettel", "bold", 12)
    put(360, 200, "Debian Project", "roman", 10.9)
    put(280, 240, "Abstract", "bold", 10.9)
    for i, line in enumerate(BODY * 2):
        put(100, 258 + 13.5 * i, line, "roman", 10.9)
    doc.subset_fonts()
    doc.save(Path(__file__).resolve().parent / "lmdemi.pdf", garbage=4, deflate=True)


if __name__ == "__main__":
    main()
