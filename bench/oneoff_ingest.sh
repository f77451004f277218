#!/usr/bin/env bash
# One new PDF, parse + store only: in-process (default now) vs a flow run on Prefect's ephemeral server (the old default).
BIN=${BIN:-/work/wt32/.venv/bin/paperbase}
PDF=${PDF:-/work/shared/corpus/neurips2020_rag_excerpt.pdf}
root=$(mktemp -d); mkdir -p "$root/in"; cp "$PDF" "$root/in/"
export PREFECT_HOME="$root/prefect-home" PAPERBASE_STAGES=none
uptime
PAPERBASE_RUNNER=prefect "$BIN" ingest "$root/in" --data-dir "$root/warm" --json >/dev/null 2>&1  # creates Prefect's database once
for i in 1 2; do
  for runner in prefect auto; do
    rm -rf "$root/d"; t0=$(date +%s.%N)
    PAPERBASE_RUNNER=$([ $runner = auto ] && echo "" || echo $runner) "$BIN" ingest "$root/in" --data-dir "$root/d" --json > "$root/out.json" 2>/dev/null
    t1=$(date +%s.%N)
    echo "$runner: wall $(echo "$t1 - $t0" | bc) s; pipeline seconds $(python3 -c "import json,sys; print(json.loads(open('$root/out.json').readline())['seconds'])")"
  done
done
uptime; rm -rf "$root"
