#!/bin/sh
# Rebuild the typeset float/caption/bibliography test PDFs (TeX Live: IEEEtran, caption, natbib, hyperref).
set -e
cd "$(dirname "$0")"
for tex in *.tex; do
    pdflatex -interaction=nonstopmode "$tex" >/dev/null
    pdflatex -interaction=nonstopmode "$tex" >/dev/null
done
rm -f *.aux *.log *.out *.brf
