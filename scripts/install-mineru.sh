#!/usr/bin/env bash
# Install the optional mineru parse backend into the repo's .venv (or the python given as $1): the [mineru]
# extra (docvortex, MinerU 4's engine), then mineru==4.0.12 without its declared dependencies (openai<3 clashes with
# our openai 3.x pin; gradio/modelscope/llama.cpp are only for tiers and servers we do not use). Offline models for
# the basic/standard tiers are separate: `mineru-models-download` on a networked machine, then parse.mineru.models_dir.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
PY="${1:-$VENV/bin/python}"
[ -x "$PY" ] || bootstrap ""
"$PY" -m pip install --quiet --disable-pip-version-check -c "$REPO/constraints.txt" -e "$REPO[mineru]"
install_mineru "$PY"
echo "mineru backend installed; check with: paperbase doctor" >&2
