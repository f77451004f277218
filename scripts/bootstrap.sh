# Sourced by ./paperbase and ./run-tests: create .venv at the repo root on first use (or when pins change).
# torch goes in first and by exact version: a CPU build of 2.13.0 lies on disk, any other pulls a CUDA build.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO/.venv"

_pick_python() {
  for py in python3.11 python3; do
    if command -v "$py" >/dev/null && "$py" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
      echo "$py"; return
    fi
  done
  echo "paperbase needs Python 3.11 (python3.11 or python3 on PATH)" >&2; exit 1
}

install_mineru() {  # $1: the venv's python. See pyproject's [mineru] extra for why --no-deps.
  "$1" -m pip install --quiet --disable-pip-version-check -c "$REPO/constraints.txt" --no-deps "mineru==4.0.12"
}

bootstrap() {  # $1: pip extras, e.g. "" or "[test]"
  local extras="${1:-}"
  local stamp="$VENV/.installed${extras//[^a-z]/-}"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$REPO/pyproject.toml" ] && [ "$stamp" -nt "$REPO/constraints.txt" ]; then
    return
  fi
  echo "paperbase: setting up $VENV (first run only) ..." >&2
  [ -x "$VENV/bin/python" ] || "$(_pick_python)" -m venv "$VENV"
  local pip=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
  "${pip[@]}" "torch==2.13.0"
  "${pip[@]}" -c "$REPO/constraints.txt" -e "$REPO$extras"
  case "$extras" in *mineru*|*test*) install_mineru "$VENV/bin/python" ;; esac  # CI runs the mineru tests
  touch "$stamp"
}
