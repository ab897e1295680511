#!/usr/bin/env bash
# Regenerates docs/tuning.md: runs each experiment the page shows, with the durations the page states, and replaces
# the block between "<!-- tuning:NAME -->" and "<!-- /tuning:NAME -->" with the sweep's console table, and
# docs/tuning/NAME.png with a screenshot of the sweep's report.html (headless Chromium).
#
#   benchmarks/tuning.sh [NAME...]     # default: every experiment; names: batch-size, max-in-flight, compression,
#                                      # batch-gzip-100k, acks, log-flush, broker-threads, replica-fetchers,
#                                      # replica-fetch-size, linkedin-replication, linkedin-producers,
#                                      # linkedin-record-size, linkedin-consumer, linkedin-end-to-end, and
#                                      # batch-size, max-in-flight, compression, acks, replica-fetchers and
#                                      # replica-fetch-size each with -reversed
#
# A "-reversed" experiment runs the same workload with its last matrix key of several values in reverse order: the first
# combination of a sweep runs on a cold JVM (and here a freshly started cluster), so a trend that turns around with
# the order is the warm-up's, not the setting's.
#
# TUNING_RESULTS=DIR benchmarks/tuning.sh ... keeps the sweeps' results and logs in DIR instead of deleting them.
#
# Minutes, not hours: each sweep is shortened with --warmup/--duration (the page says so). The figures are this
# machine's; on a shared 2-core VM they move from run to run (see the page).
set -euo pipefail
cd "$(dirname "$0")/.."
# TUNING_RESULTS=DIR keeps each sweep's results (result.json per combination, the console log) in DIR/NAME, for the
# figures the page quotes beside its tables (the producers' own metrics, the diagnosis's evidence)
if [ -n "${TUNING_RESULTS:-}" ]; then
  mkdir -p "$TUNING_RESULTS" 2>/dev/null \
    || { echo "tuning.sh: TUNING_RESULTS=$TUNING_RESULTS: cannot create that directory (a file in the way, or not writable)" >&2; exit 2; }
  out=$(cd "$TUNING_RESULTS" && pwd)
  for name in "$@"; do
    [ ! -e "$out/$name" ] || { echo "tuning.sh: $out/$name exists; give a new TUNING_RESULTS directory" >&2; exit 2; }
  done
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# --prime 0: the page's tables show sweeps as they ran before sweeps primed their JVMs (the first row a cold
# start's, which the -reversed experiments measure); the page says so
short="--warmup 5 --duration 15 --prime 0"
declare -A command=(
  [batch-size]="bin/kbench run workloads/producer-batch-size-sweep-1kb-50k.yaml $short"
  [max-in-flight]="bin/kbench run workloads/producer-max-in-flight-sweep-1kb-50k.yaml $short"
  [compression]="bin/kbench run workloads/producer-compression-sweep-1kb-50k.yaml $short"
  [batch-gzip-100k]="bin/kbench run workloads/producer-100k-200kb-batches-gzip.yaml $short"
  [acks]="bin/kbench run workloads/broker-acks-sweep-rf3.yaml --brokers 3 $short"
  [log-flush]="bin/kbench run workloads/broker-log-flush-sweep.yaml $short"
  [broker-threads]="bin/kbench run workloads/broker-threads-sweep.yaml $short"
  [replica-fetchers]="bin/kbench run workloads/broker-replica-fetchers-sweep-rf3.yaml --brokers 3 --network-gbps 10 $short"
  [replica-fetch-size]="bin/kbench run workloads/broker-replica-fetch-size-sweep-rf3.yaml --brokers 3 --network-gbps 10 $short"
  [linkedin-replication]="bin/kbench run workloads/linkedin-replication-sweep-100b.yaml --brokers 3 --network-gbps 1 $short"
  [linkedin-producers]="bin/kbench run workloads/linkedin-producers-sweep-100b.yaml --brokers 3 --network-gbps 1 $short"
  [linkedin-record-size]="bin/kbench run workloads/linkedin-record-size-sweep.yaml --brokers 3 --network-gbps 1 $short"
  [linkedin-consumer]="bin/kbench run workloads/linkedin-consumer-100b.yaml --brokers 3 --network-gbps 1 --prime 0"
  [linkedin-end-to-end]="bin/kbench run workloads/linkedin-end-to-end-100b.yaml --brokers 3 --network-gbps 1 $short"
)
# the page's order
all=(batch-size batch-size-reversed max-in-flight max-in-flight-reversed compression compression-reversed batch-gzip-100k
     acks acks-reversed log-flush broker-threads
     replica-fetchers replica-fetchers-reversed replica-fetch-size replica-fetch-size-reversed linkedin-replication linkedin-producers
     linkedin-record-size linkedin-consumer linkedin-end-to-end)
# NAME-reversed: NAME's command on a copy of its workload whose last matrix line of several values lists them in
# reverse order
for base in batch-size max-in-flight compression acks replica-fetchers replica-fetch-size; do
  read -r -a words <<< "${command[$base]}"
  file=${words[2]}
  reversed="$out/$(basename "$file" .yaml)-reversed.yaml"
  python3 - "$file" "$reversed" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
last = max(i for i, l in enumerate(lines) if re.match(r"\s+\S+: \[.*,.*\]\s*$", l))
key, values = re.match(r"(\s+\S+: )\[(.*)\]", lines[last]).groups()
lines[last] = key + "[" + ", ".join(v.strip() for v in reversed(values.split(","))) + "]"
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY
  command[$base-reversed]="${command[$base]/$file/$reversed}"
done
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")

for name in "${names[@]}"; do
  [ -n "${command[$name]:-}" ] || { echo "tuning.sh: no experiment '$name'; known: ${!command[*]}" >&2; exit 2; }
  echo "== $name: ${command[$name]}" >&2
  # shellcheck disable=SC2086 # the command is a list of words
  # a FAILED combination is a result too; a sweep that hangs is stopped (kbench puts broker settings back on SIGTERM)
  timeout --signal=TERM 1800 ${command[$name]} --output "$out/$name" > "$out/$name.log" 2>&1 || true
  table=$(sed -n '/^sweep: [0-9]* combination(s)/,/^sweep: /p' "$out/$name.log" | sed '$d')
  # a backlog's catch-up read is a line of its own, not a column
  catchup=$(grep '^  catch-up: ' "$out/$name.log" || true)
  [ -z "$catchup" ] || table=$(printf '%s\n%s' "$catchup" "$table")
  [ -n "$table" ] || { echo "tuning.sh: $name printed no sweep table; its log: $out/$name.log" >&2; tail -5 "$out/$name.log" >&2; exit 1; }
  shown=${command[$name]//$out\//} # a reversed copy is named as what it is, without the temporary directory
  block=$(printf '<!-- tuning:%s -->\n```\n$ %s\n%s\n```\n<!-- /tuning:%s -->' "$name" "$shown" "$table" "$name")
  BLOCK="$block" NAME="$name" python3 - <<'PY'
import os, re
p = "docs/tuning.md"
s = open(p, encoding="utf-8").read()
name = os.environ["NAME"]
pattern = re.compile(r"<!-- tuning:%s -->.*?<!-- /tuning:%s -->" % (re.escape(name), re.escape(name)), re.S)
if not pattern.search(s):
    raise SystemExit("docs/tuning.md has no block for " + name)
s = pattern.sub(lambda m: os.environ["BLOCK"], s)
open(p, "w", encoding="utf-8").write(s)
PY
  mkdir -p docs/tuning
  [[ $name == *-reversed ]] && { echo "== $name: table updated" >&2; continue; }
  # a sweep of one combination draws no line worth a picture
  grep -q '^sweep: 1 combination(s)' "$out/$name.log" && { echo "== $name: table updated" >&2; continue; }
  chromium --headless --no-sandbox --disable-gpu --window-size=1300,1400 --virtual-time-budget=3000 \
      --screenshot="$PWD/docs/tuning/$name.png" "file://$out/$name/report.html" > /dev/null 2>&1 \
      || echo "tuning.sh: no screenshot of $name (is chromium installed?)" >&2
  echo "== $name: table and docs/tuning/$name.png updated" >&2
done
