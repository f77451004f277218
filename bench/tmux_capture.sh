#!/usr/bin/env bash
# A terminal capture of `paperbase ingest` as a user sees it (issue 32): the command runs in a detached tmux pane
# (a real terminal: the live display is on), the pane is captured every STEP seconds, and every capture whose text
# changed is appended to OUT with the seconds since the start. Then: lines that look like a third-party logger or
# progress bar (Prefect's "HH:MM:SS.mmm | INFO", tqdm's "it/s]", transformers' "Loading weights") are counted.
#   bench/tmux_capture.sh [FOLDER] [OUT]    (default: ../shared/corpus2 -> bench/results/tmux_ingest_corpus2.txt)
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
FOLDER=$(realpath "${1:-$REPO/../shared/corpus2}")
OUT=${2:-$REPO/bench/results/tmux_ingest_corpus2.txt}
STEP=${STEP:-2}
data=$(mktemp -d)
session=pb-capture-$$
: > "$OUT"
{ echo "# paperbase ingest $FOLDER (fresh data dir), tmux pane 100x30, captured every ${STEP}s when it changed"
  echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"; } >> "$OUT"
tmux new-session -d -s "$session" -x 100 -y 30 \
  "cd '$REPO' && .venv/bin/paperbase ingest '$FOLDER' --data-dir '$data/d'; echo \"[exit \$?]\"; sleep 600"
start=$(date +%s.%N); last=""
while true; do
  sleep "$STEP"
  pane=$(tmux capture-pane -p -t "$session" 2>/dev/null) || break
  if [ "$pane" != "$last" ]; then
    printf '\n----- t=%.0fs -----\n%s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$pane" >> "$OUT"
    last=$pane
  fi
  case "$pane" in *"[exit "*) break ;; esac
done
{ echo; echo "----- the whole terminal at the end, scrollback included -----"
  tmux capture-pane -p -S - -t "$session" 2>/dev/null; } >> "$OUT"
tmux kill-session -t "$session" 2>/dev/null
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT"
third=$(grep -cE '[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \| (INFO|WARNING|DEBUG)|it/s\]|s/it\]|Loading weights|Batches:' "$OUT")
echo "# lines from a third-party logger or progress bar: $third" >> "$OUT"
rm -rf "$data"
echo "$OUT: $(grep -c '^----- t=' "$OUT") frames; third-party lines: $third"
