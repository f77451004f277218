# Sourced by ./paperbase and ./run-tests: create .venv at the repo root on first use (or when pins change).
#
# Quiet: one line per step on stderr; the installer's own output goes to .venv/install.log and is shown only when the
# install fails. The pinned set (constraints.txt) is installed with uv when it can be had (several times faster than
# pip for the same pins, measured in the README's set-up note), else with pip. torch is asked for by exact version:
# a CPU build of 2.13.0 lies on disk, any other pulls a CUDA build; uv merges every package source the way pip does
# (unsafe-best-match) and is given pip's own configured sources, so both pick that same wheel.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO/.venv"
UV_PIN="uv==0.13.8"  # the installer, not a dependency of paperbase

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

_pip_setting() {  # $1: pip option name (find-links, extra-index-url, index-url): env, then pip config
  local env="PIP_$(echo "$1" | tr 'a-z-' 'A-Z_')"
  if [ -n "${!env:-}" ]; then echo "${!env}"; return; fi
  "$VENV/bin/python" -m pip config get "global.$1" 2>/dev/null || true
}

_install_uv() {  # "$@": the packages to install; fails (quietly) when uv cannot be had or cannot install them
  "$VENV/bin/python" -m pip install --disable-pip-version-check "$UV_PIN" >>"$LOG" 2>&1 || return 1
  # --compile-bytecode: write .pyc files at install time as pip does; uv otherwise leaves that to the first import,
  # which never happens where PYTHONDONTWRITEBYTECODE is set, and every command then compiles pymilvus, pandas, ...
  # from source again (measured: 4.0 s of CPU per `paperbase` start-up, 1.3 s with them)
  local args=(pip install --python "$VENV/bin/python" --index-strategy unsafe-best-match)
  [ "$COMPILE" = lazy ] || args+=(--compile-bytecode)
  local value
  value="$(_pip_setting index-url)"; [ -z "$value" ] || args+=(--default-index "$value")
  for value in $(_pip_setting extra-index-url); do args+=(--index "$value"); done
  for value in $(_pip_setting find-links); do args+=(--find-links "$value"); done
  "$VENV/bin/uv" "${args[@]}" "$@" >>"$LOG" 2>&1
}

_install_pip() {
  local pip=("$VENV/bin/python" -m pip install --disable-pip-version-check)
  "${pip[@]}" "torch==2.13.0" >>"$LOG" 2>&1 && "${pip[@]}" "$@" >>"$LOG" 2>&1
}

# Byte-compile once. uv installs no .pyc files (pip does), and where PYTHONDONTWRITEBYTECODE is set (as on this
# project's machines) Python never writes one: every process then compiled torch, transformers, prefect... from source
# (a third of an ingest's samples under py-spy; `paperbase --help` 0.85 -> 0.35 s CPU once compiled).
compile_env() {
  [ "$COMPILE" = lazy ] && return
  [ -f "$VENV/.compiled" ] && return
  echo "paperbase: byte-compiling the environment (once; a few minutes on 2 cores)" >&2
  local site
  site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  "$VENV/bin/python" -m compileall -q -j 0 "$site" >>"$VENV/compile.log" 2>&1 || true  # a few test data files are not Python 3
  touch "$VENV/.compiled"
}

compile_repo() {  # paperbase's own packages (run-tests does it each run): only files changed since their .pyc compile
  (cd "$REPO" && "$VENV/bin/python" -m compileall -q -j 0 cli pipeline flows agent report schemas tests >/dev/null 2>&1) || true
}

# $2 = lazy (./run-tests): nothing is byte-compiled ahead; the caller lets Python write each module's .pyc the first
# time a process imports it (PYTHONDONTWRITEBYTECODE unset). The test suite imports a small part of the environment,
# and compiling all of it took 60 of a clean clone's 90 s of set-up on 2 cores.
bootstrap() {  # $1: pip extras, e.g. "" or "[test]"; $2: "lazy" or nothing
  local extras="${1:-}"
  COMPILE="${2:-eager}"
  local stamp="$VENV/.installed${extras//[^a-z]/-}"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$REPO/pyproject.toml" ] && [ "$stamp" -nt "$REPO/constraints.txt" ]; then
    compile_env
    return
  fi
  local t0=$SECONDS
  if [ ! -x "$VENV/bin/python" ]; then
    echo "paperbase: creating the environment in $VENV (first run only)" >&2
    "$(_pick_python)" -m venv "$VENV"
  fi
  LOG="$VENV/install.log"
  : >"$LOG"
  local n
  n="$(grep -c '==' "$REPO/constraints.txt")"
  local spec=(torch==2.13.0 -c "$REPO/constraints.txt" -e "$REPO$extras")
  if [ "${PAPERBASE_INSTALLER:-uv}" = uv ]; then
    echo "paperbase: installing $n pinned packages with uv (log: $LOG)" >&2
    if ! _install_uv "${spec[@]}"; then
      echo "paperbase: uv could not install them; installing with pip instead" >&2
      _install_pip "${spec[@]:1}" || { cat "$LOG" >&2; echo "paperbase: installing failed (log above, kept in $LOG)" >&2; exit 1; }
    fi
  else
    echo "paperbase: installing $n pinned packages with pip (log: $LOG)" >&2
    _install_pip "${spec[@]:1}" || { cat "$LOG" >&2; echo "paperbase: installing failed (log above, kept in $LOG)" >&2; exit 1; }
  fi
  case "$extras" in *mineru*|*test*)  # CI runs the mineru tests
    echo "paperbase: adding mineru without its declared dependencies (see pyproject's [mineru] extra)" >&2
    install_mineru "$VENV/bin/python" >>"$LOG" 2>&1 || { cat "$LOG" >&2; echo "paperbase: installing mineru failed (log above, kept in $LOG)" >&2; exit 1; } ;;
  esac
  rm -f "$VENV/.compiled"  # packages changed: compile what they brought
  compile_env
  compile_repo
  touch "$stamp"
  echo "paperbase: environment ready in $((SECONDS - t0)) s" >&2
}
