#!/usr/bin/env bash
# Soak test: one long run on the local machine with broker, worker and coordinator as separate processes,
# to show that neither the coordinator's nor the worker's memory grows with the length of a run.
#
#   benchmarks/soak.sh [--dashboard] DURATION [RATE]      e.g. benchmarks/soak.sh 30m      benchmarks/soak.sh 2h 5000
#
# --dashboard: the coordinator also serves its live dashboard, and a headless Chromium keeps the page open for
# the whole run (it redraws on every interval, as a user's browser would); each sample then also says how many
# intervals /api/run reports.
#
# DURATION is the measured time (s, m or h suffix; plain number = seconds), RATE msg/s (default 2000;
# 1 topic x 6 partitions, 1 KiB values, 2 producers, 2 consumers). It prints the heap in use after a full GC
# (jcmd GC.run, then GC.heap_info) of coordinator and worker at the start of measurement, every 5 minutes
# and shortly before the end; then the result: snapshot gaps/repeats (the coordinator's issues), intervals
# reported, and verification (lost / duplicated / out of order). Exit 0 when heap after GC at the end has
# grown by at most 10% (or 4 MiB) over the start for both processes, no snapshot was missing or repeated,
# and nothing was lost or duplicated; 1 otherwise. Everything it starts is stopped by PID on exit; its files are kept
# under $KBENCH_SOAK_DIR (default: a new temp directory, printed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { echo "usage: $0 [--dashboard] DURATION[s|m|h] [RATE msg/s]" >&2; exit 2; }
dashboard=0
if [ "${1:-}" = --dashboard ]; then dashboard=1; shift; fi
[ $# -ge 1 ] && [ $# -le 2 ] || usage
[[ "$1" =~ ^([0-9]{1,7})([smh]?)$ ]] || { echo "soak: DURATION '$1' must be a whole number with an optional s, m or h suffix" >&2; exit 2; }
case "${BASH_REMATCH[2]}" in
  h) seconds=$(( 10#${BASH_REMATCH[1]} * 3600 )) ;;
  m) seconds=$(( 10#${BASH_REMATCH[1]} * 60 )) ;;
  *) seconds=$(( 10#${BASH_REMATCH[1]} )) ;;
esac
rate=${2:-2000}
[ "$seconds" -ge 60 ] && [ "$seconds" -le 604800 ] || { echo "soak: DURATION must be 60 s to 7 days, not $seconds s" >&2; exit 2; }
[[ "$rate" =~ ^[0-9]{1,9}$ ]] && [ "$((10#$rate))" -ge 2 ] || { echo "soak: RATE must be a whole number >= 2" >&2; exit 2; }
rate=$(( 10#$rate ))
command -v jcmd >/dev/null || { echo "soak: jcmd (from the JDK) is needed" >&2; exit 2; }
browser=""
if [ "$dashboard" = 1 ]; then
  for b in chromium chromium-browser google-chrome; do command -v "$b" >/dev/null && { browser=$(command -v "$b"); break; }; done
  [ -n "$browser" ] || { echo "soak: --dashboard needs a headless Chromium (apt-get install chromium)" >&2; exit 2; }
  command -v curl >/dev/null || { echo "soak: --dashboard needs curl" >&2; exit 2; }
fi

dir="${KBENCH_SOAK_DIR:-$(mktemp -d /tmp/kbench-soak.XXXXXX)}"
mkdir -p "$dir"
echo "soak: ${seconds} s at ${rate} msg/s; files in $dir"

# build once, in the foreground, so the processes below start at once
"$root/bin/kbench" --version >/dev/null
# a copy of the jar: a rebuild during a long soak must not pull classes from under the running processes
mkdir -p "$dir/dist"
cp -r "$root/distribution/target/kbench.jar" "$root/distribution/target/lib" "$dir/dist/"
jar="$dir/dist/kbench.jar"

free_port() {
  local p
  while :; do
    p=$(( 20000 + RANDOM % 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
}
broker_port=$(free_port)
worker_port=$(free_port)

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT

wait_port() { # PORT PID WHAT
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    kill -0 "$2" 2>/dev/null || { echo "soak: $3 exited; see $dir" >&2; exit 1; }
    sleep 0.1
  done
  echo "soak: $3 did not listen on $1 within 60 s" >&2; exit 1
}

. "$root/distribution/src/main/dist/bin/jvm-options" # kbench's launcher options, for every kbench JVM here
jvm=(${kbench_jvm_options[@]+"${kbench_jvm_options[@]}"})
java ${jvm[@]+"${jvm[@]}"} -Xmx1g -jar "$jar" broker --port "$broker_port" >"$dir/broker.log" 2>&1 &
pids+=($!); broker=$!
java ${jvm[@]+"${jvm[@]}"} -Xmx512m -jar "$jar" worker --bind 127.0.0.1 --port "$worker_port" >"$dir/worker.log" 2>&1 &
pids+=($!); worker=$!
wait_port "$broker_port" "$broker" broker
wait_port "$worker_port" "$worker" worker

warmup=10
cat >"$dir/soak.yaml" <<YAML
name: soak
topics: 1
partitionsPerTopic: 6
messageSize: 1024
producersPerTopic: 2
subscriptionsPerTopic: 1
consumersPerSubscription: 2
producerRate: $rate
warmupSeconds: $warmup
durationSeconds: $seconds
YAML

dash=()
if [ "$dashboard" = 1 ]; then
  dash_port=$(free_port)
  dash=(--dashboard "127.0.0.1:$dash_port" --dashboard-keep 0)
fi
java ${jvm[@]+"${jvm[@]}"} -Xmx256m -jar "$jar" run --workers "127.0.0.1:$worker_port" --bootstrap-servers "127.0.0.1:$broker_port" \
  ${dash[@]+"${dash[@]}"} --output "$dir/result" "$dir/soak.yaml" >"$dir/coordinator.log" 2>&1 &
pids+=($!); coordinator=$!
started=$(date +%s)
if [ "$dashboard" = 1 ]; then
  wait_port "$dash_port" "$coordinator" "the coordinator's dashboard"
  "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$dir/browser" \
    --remote-debugging-port=0 "http://127.0.0.1:$dash_port/" >"$dir/browser.log" 2>&1 &
  pids+=($!); page=$!
  echo "soak: dashboard at http://127.0.0.1:$dash_port/, open in headless Chromium (pid $page)"
fi

heap_kib() { # PID -> KiB in use after a full GC
  jcmd "$1" GC.run >/dev/null 2>&1 || { echo -1; return; }
  jcmd "$1" GC.heap_info 2>/dev/null | sed -n 's/.*heap.*total.*used \([0-9]*\)K.*/\1/p' | head -1
}
sample() { # LABEL
  local c w
  c=$(heap_kib "$coordinator"); w=$(heap_kib "$worker")
  local seen=""
  if [ "$dashboard" = 1 ]; then
    seen="   /api/run intervals $(curl -s --max-time 5 "http://127.0.0.1:$dash_port/api/run?since=999999999" \
      | sed -n 's/.*"intervalCount" *: *\([0-9]*\).*/\1/p')"
    kill -0 "$page" 2>/dev/null || seen="$seen (the page's browser exited)"
  fi
  printf '%-22s coordinator %8s KiB   worker %8s KiB   (%s)%s\n' "$1" "$c" "$w" "$(date -u +%H:%M:%S)" "$seen"
  last_c=$c; last_w=$w
}
sleep_until() { # seconds after start
  local now; now=$(date +%s)
  while [ $(( now - started )) -lt "$1" ]; do
    kill -0 "$coordinator" 2>/dev/null || return 1
    sleep 1; now=$(date +%s)
  done
}

echo "heap in use after a full GC:"
first=$(( warmup + 15 ))
sleep_until "$first" || true
sample "start (+$(( first - warmup )) s measured)"
start_c=$last_c; start_w=$last_w
end_at=$(( warmup + 5 + seconds - 15 ))
next=$(( first + 300 ))
while [ "$next" -lt "$end_at" ] && sleep_until "$next"; do
  sample "+$(( (next - warmup) / 60 )) min"
  next=$(( next + 300 ))
done
sleep_until "$end_at" || true
sample "end (+$(( end_at - warmup )) s measured)"
end_c=$last_c; end_w=$last_w

status=0
wait "$coordinator" || status=$?
echo "coordinator exit code: $status"
grep -E "^kbench soak|^  (publish|consume|verification)|^  latency|^  (publish|end-to-end)|issue:" "$dir/coordinator.log" || true
gaps=$(grep -cE "issue: .*(snapshot|no snapshot)" "$dir/coordinator.log" || true)
intervals=$(grep -c '"index"' "$dir/result/result.json" 2>/dev/null || echo 0)
verification=$(grep -E "^  verification:" "$dir/coordinator.log" || echo "  verification: (none)")
echo "snapshot gaps or repeats: $gaps; intervals in result.json: $intervals (expected about $(( warmup + seconds )))"

ok=1
within() { # START END -> 0 if END has grown by at most 10% or 4 MiB over START
  local d=$(( $2 - $1 ))
  [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && { [ $(( d * 10 )) -le "$1" ] || [ "$d" -le 4096 ]; }
}
within "$start_c" "$end_c" || { echo "soak: coordinator heap after GC grew from $start_c to $end_c KiB"; ok=0; }
within "$start_w" "$end_w" || { echo "soak: worker heap after GC grew from $start_w to $end_w KiB"; ok=0; }
[ "$status" -eq 0 ] || ok=0
[ "$gaps" -eq 0 ] || ok=0
echo "$verification" | grep -q "0 lost, 0 duplicated" || ok=0
if [ "$ok" -eq 1 ]; then echo "soak: PASSED"; else echo "soak: FAILED"; exit 1; fi
