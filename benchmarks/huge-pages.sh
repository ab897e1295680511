#!/usr/bin/env bash
# What transparent huge pages for the heap (kbench's launcher default, distribution/src/main/dist/bin/jvm-options)
# change on this host: side by side, the same build with -XX:-UseTransparentHugePages and -XX:+UseTransparentHugePages.
#
#   benchmarks/huge-pages.sh [--runs N] [--records N] [--keep DIR]
#
# 1. Fresh memory: a JVM with a 2 GB heap allocates a new 512 MB array three times (pages touched for the first
#    time) and rewrites the last one three times (pages touched before), once without huge pages and once with.
# 2. An unthrottled producer in a fresh JVM: `kbench run` (its in-process worker) of 1 topic x 6 partitions,
#    100 B records, 1 producer, no consumer, --records of them (default 10,000,000), against one `kbench broker`
#    (started with kbench's launcher options), alternating off, on, off, on ... N times each (default 3). Per run:
#    the achieved rate, the mean rate of its first 5 intervals, the seconds until an interval first reached 80% of
#    the run's best one, the longest collection pause in an interval, and the kbench process's CPU (user+system).
#
# Needs: JDK 17+, Maven (to build kbench if bin/kbench has to), python3, Linux with transparent_hugepage
# "madvise" or "always" (with "never" the JVM ignores the option and both sides are the same).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=3
records=10000000
keep=""
usage() { echo "usage: $0 [--runs N] [--records N] [--keep DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --records) [ $# -ge 2 ] || usage; records=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "huge-pages.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$runs" =~ ^[1-9]$ ]] || { echo "huge-pages.sh: --runs must be 1 to 9, got '$runs'" >&2; exit 2; }
[[ "$records" =~ ^[1-9][0-9]{5,9}$ ]] \
  || { echo "huge-pages.sh: --records must be 100000 to 9999999999, got '$records'" >&2; exit 2; }
if [ -n "$keep" ] && [ -e "$keep" ] && [ ! -d "$keep" ]; then
  echo "huge-pages.sh: --keep $keep exists and is not a directory" >&2; exit 2
fi
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo "not available")
echo "transparent_hugepage: $thp" >&2

work=${keep:-$(mktemp -d /tmp/kbench-huge-pages.XXXXXX)}
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$here/bin/kbench" --version >&2
mkdir -p "$work/kbench"
cp -r "$here/distribution/target/kbench.jar" "$here/distribution/target/lib" "$work/kbench/"
jar="$work/kbench/kbench.jar"
SCRIPT=huge-pages.sh
. "$here/benchmarks/lib/processes.sh"
. "$here/distribution/src/main/dist/bin/jvm-options"

echo "fresh memory, 2 GB heap:"
for side in - +; do
  printf '  %-28s %s\n' "-XX:${side}UseTransparentHugePages" \
    "$(java "-XX:${side}UseTransparentHugePages" -Xms2g -Xmx2g "$here/benchmarks/lib/FirstTouch.java")"
done

port=$(free_port)
java ${kbench_jvm_options[@]+"${kbench_jvm_options[@]}"} -jar "$jar" broker --host 127.0.0.1 --port "$port" \
  > "$work/broker.log" 2>&1 &
pids+=($!)
wait_for "$work/broker.log" "kafka broker ready" "${pids[-1]}" "the broker"

one() { # SIDE NAME
  cat > "$work/$2.yaml" <<EOF
name: $2
topics: 1
partitionsPerTopic: 6
messageSize: 100
producersPerTopic: 1
subscriptionsPerTopic: 0
producerRate: -1
numRecords: $records
EOF
  local cpu
  # the children's user+system ticks of the subshell that waited for it: the kbench JVM's whole CPU, start-up included
  (
    rc=0
    me=$BASHPID # here, not in a command's argument: that is expanded in the command's own process
    java "-XX:${1}UseTransparentHugePages" -jar "$jar" run --bootstrap-servers "127.0.0.1:$port" \
      --output "$work/$2" "$work/$2.yaml" > "$work/$2.log" 2>&1 || rc=$?
    sed 's/^.*) //' "/proc/$me/stat" | awk '{print $14 + $15}' > "$work/$2.ticks"
    exit "$rc"
  ) || { tail -5 "$work/$2.log" >&2; echo "huge-pages.sh: run $2 failed" >&2; exit 1; }
  cpu=$(cat "$work/$2.ticks")
  python3 - "$work/$2/result.json" "$1" "$cpu" "$(getconf CLK_TCK)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rates = [i["publish"]["rate"] for i in r["intervals"]]
full = [x for x in rates[:-1] if x > 0] or [0]
best = max(full)
ramp = next((k for k, x in enumerate(rates) if x >= 0.8 * best), len(rates))
gc = max((i.get("hosts") or {}).get("gcMicrosMax", 0) for i in r["intervals"]) / 1000
first5 = sum(rates[:5]) / max(1, len(rates[:5]))
print("%-4s %10.0f %14.0f %10d %12.0f %10.1f" % ("on" if sys.argv[2] == "+" else "off", r["summary"]["publishRate"],
      first5, ramp, gc, int(sys.argv[3]) / int(sys.argv[4])))
PY
}
echo "unthrottled producer, $records records of 100 B, a fresh kbench JVM per run:"
printf '%-4s %10s %14s %10s %12s %10s\n' "thp" "msg/s" "first 5 s" "ramp s" "max GC ms" "CPU s"
for i in $(seq 1 "$runs"); do
  for side in - +; do
    one "$side" "run-$i$([ "$side" = + ] && echo on || echo off)"
  done
done | tee "$work/runs.txt"
python3 - "$work/runs.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for side in ("off", "on"):
    r = [float(x[1]) for x in rows if x[0] == side]
    print("%-4s msg/s median %.0f (min %.0f, max %.0f)" % (side, statistics.median(r), min(r), max(r)))
off = [float(x[1]) for x in rows if x[0] == "off"]
on = [float(x[1]) for x in rows if x[0] == "on"]
pairs = [b / a for a, b in zip(off, on)]
print("on / off: ratio of the medians %.2fx, of the pairs %.2f-%.2fx" % (statistics.median(on) / statistics.median(off),
      min(pairs), max(pairs)))
PY
