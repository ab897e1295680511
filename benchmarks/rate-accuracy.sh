#!/usr/bin/env bash
# How closely kbench holds a fixed rate when it is split over several worker processes.
#
#   benchmarks/rate-accuracy.sh [--workers N] [--rates 'R1 R2 ...'] [--warmup S] [--duration S] [--runs N]
#                               [--bootstrap HOST:PORT] [--jar KBENCH_JAR] [--keep DIR]
#
# Starts one broker (`kbench broker`; --bootstrap: uses that one instead, creating a fresh topic per run) and N `kbench worker` processes (default 3) on loopback, each a JVM of
# its own, then for every rate (default: 1000 10000 100000 msg/s) runs a workload of N producers (one per
# worker, the rate split evenly), 100 B records, 6 partitions, one consumer, with the given warm-up (default
# 10 s) and measured duration (default 30 s). From each run's result.json it takes the measured intervals
# (not the warm-up, not the last, partial one) and prints, per rate, the worst interval's deviation of the
# messages sent (and acknowledged) from the target, the whole window's, and the measured intervals flagged
# saturated (publish delay p99 above 10 ms), in how many of those a load thread woke from a park 10 ms or more
# late ("stalled": a pause, or no core in time, docs/metrics.md#worker-hosts), the longest stall of any
# measured interval, how busy the host was (every process; mean over the measured intervals / over the stalled
# ones) and the most CPU its hypervisor stole in an interval. The workers stay up across the
# runs (as on real client hosts); --runs N repeats each rate N times (default 1). --jar runs that kbench.jar
# (its lib/ beside it) instead of building this checkout's.
#
# Needs: JDK 17+, Maven (to build kbench if bin/kbench has to), python3, Linux.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workers=3
rates="1000 10000 100000"
warmup=10
duration=30
runs=1
keep=""
bootstrap=""
given_jar=""
usage() { echo "usage: $0 [--workers N] [--rates 'R1 R2 ...'] [--warmup S] [--duration S] [--runs N] [--bootstrap HOST:PORT] [--jar KBENCH_JAR] [--keep DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) [ $# -ge 2 ] || usage; workers=$2; shift 2 ;;
    --rates) [ $# -ge 2 ] || usage; rates=$2; shift 2 ;;
    --warmup) [ $# -ge 2 ] || usage; warmup=$2; shift 2 ;;
    --duration) [ $# -ge 2 ] || usage; duration=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    --bootstrap) [ $# -ge 2 ] || usage; bootstrap=$2; shift 2 ;;
    --jar) [ $# -ge 2 ] || usage; given_jar=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "rate-accuracy.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$workers" =~ ^[1-9]$ ]] || { echo "rate-accuracy.sh: --workers must be 1 to 9, got '$workers'" >&2; exit 2; }
[[ "$warmup" =~ ^[0-9]{1,4}$ ]] || { echo "rate-accuracy.sh: --warmup must be 0 to 9999 seconds, got '$warmup'" >&2; exit 2; }
[[ "$duration" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "rate-accuracy.sh: --duration must be 1 to 9999 seconds, got '$duration'" >&2; exit 2; }
[[ "$runs" =~ ^[1-9]$ ]] || { echo "rate-accuracy.sh: --runs must be 1 to 9, got '$runs'" >&2; exit 2; }
[ -n "$rates" ] || usage
[ -z "$bootstrap" ] || [[ "$bootstrap" =~ ^[A-Za-z0-9.:_-]+:[0-9]{1,5}$ ]] \
  || { echo "rate-accuracy.sh: --bootstrap must be HOST:PORT, got '$bootstrap'" >&2; exit 2; }
[ -z "$given_jar" ] || [ -f "$given_jar" ] || { echo "rate-accuracy.sh: --jar $given_jar is not a file" >&2; exit 2; }
if [ -n "$keep" ] && [ -e "$keep" ] && [ ! -d "$keep" ]; then
  echo "rate-accuracy.sh: --keep $keep exists and is not a directory" >&2; exit 2
fi
for r in $rates; do
  [[ "$r" =~ ^[1-9][0-9]{0,8}$ ]] && [ "$r" -ge "$workers" ] \
    || { echo "rate-accuracy.sh: each rate must be $workers to 999999999 msg/s, got '$r'" >&2; exit 2; }
done

work=${keep:-$(mktemp -d /tmp/kbench-rate-accuracy.XXXXXX)}
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$given_jar" ]; then
  jar=$given_jar
else
  "$here/bin/kbench" --version >&2
  mkdir -p "$work/kbench"
  cp -r "$here/distribution/target/kbench.jar" "$here/distribution/target/lib" "$work/kbench/"
  jar="$work/kbench/kbench.jar"
fi
SCRIPT=rate-accuracy.sh
. "$here/benchmarks/lib/processes.sh"
. "$here/distribution/src/main/dist/bin/jvm-options" # kbench's launcher options, for every kbench JVM here
jvm=(${kbench_jvm_options[@]+"${kbench_jvm_options[@]}"})

if [ -z "$bootstrap" ]; then
  port=$(free_port)
  java ${jvm[@]+"${jvm[@]}"} -jar "$jar" broker --host 127.0.0.1 --port "$port" > "$work/broker.log" 2>&1 &
  pids+=($!)
  wait_for "$work/broker.log" "kafka broker ready" "${pids[-1]}" "the broker"
  bootstrap="127.0.0.1:$port"
fi
addresses=()
for i in $(seq 1 "$workers"); do
  wp=$(free_port)
  java ${jvm[@]+"${jvm[@]}"} -jar "$jar" worker --bind 127.0.0.1 --port "$wp" --id "w$i" > "$work/worker$i.log" 2>&1 &
  pids+=($!)
  wait_for "$work/worker$i.log" "listening" "${pids[-1]}" "worker $i"
  addresses+=("127.0.0.1:$wp")
done
list=$(IFS=,; echo "${addresses[*]}")
echo "broker $bootstrap, workers $list, work directory $work" >&2

printf '%-10s %4s %8s %30s %30s %12s %10s %9s %14s %22s %10s\n' "rate" "run" "workers" "worst interval sent (acked)" "window sent (acked)" "intervals" "saturated" "stalled" "stall max ms" "host busy all/stalled" "steal max"
for rate in $rates; do
  for run in $(seq 1 "$runs"); do
    name="rate-$rate-$run"
    cat > "$work/$name.yaml" <<EOF
name: $name
topics: 1
partitionsPerTopic: 6
messageSize: 100
producersPerTopic: $workers
subscriptionsPerTopic: 1
consumersPerSubscription: 1
producerRate: $rate
warmupSeconds: $warmup
durationSeconds: $duration
EOF
    java ${jvm[@]+"${jvm[@]}"} -jar "$jar" run --workers "$list" --bootstrap-servers "$bootstrap" --output "$work/$name" \
        "$work/$name.yaml" > "$work/$name.log" 2>&1 \
      || { tail -5 "$work/$name.log" >&2; echo "rate-accuracy.sh: the run at $rate msg/s failed" >&2; exit 1; }
    python3 - "$work/$name/result.json" "$rate" "$run" "$workers" "$here/benchmarks/lib" <<'EOF'
import json, sys
sys.dont_write_bytecode = True  # nothing written into the checkout
sys.path.insert(0, sys.argv[5])
from stalls import figures
r = json.load(open(sys.argv[1]))
rate, run, workers = float(sys.argv[2]), sys.argv[3], sys.argv[4]
measured = [i for i in r["intervals"] if not i["warmup"] and i["startMillis"] < r["measureEndMillis"]]
full = [i for i in measured if i["endMillis"] - i["startMillis"] >= 990]
def dev(count, ms):
    return count / (rate * ms / 1000.0) - 1
worst_sent = max(full, key=lambda i: abs(dev(i["publish"]["sent"], i["endMillis"] - i["startMillis"])))
worst_acked = max(full, key=lambda i: abs(dev(i["publish"]["acked"], i["endMillis"] - i["startMillis"])))
ws = dev(worst_sent["publish"]["sent"], worst_sent["endMillis"] - worst_sent["startMillis"])
wa = dev(worst_acked["publish"]["acked"], worst_acked["endMillis"] - worst_acked["startMillis"])
span = sum(i["endMillis"] - i["startMillis"] for i in full)
s = sum(i["publish"]["sent"] for i in full)
a = sum(i["publish"]["acked"] for i in full)
stalled, longest, busy, steal = figures(measured)
print("%-10d %4s %8s %30s %30s %12d %10d %9s %14s %22s %10s" % (rate, run, workers,
      "%+.2f%% (%+.2f%%) [#%d]" % (ws * 100, wa * 100, worst_sent["index"]),
      "%+.3f%% (%+.3f%%)" % (dev(s, span) * 100, dev(a, span) * 100), len(full),
      sum(1 for i in measured if i["saturated"]), stalled, longest, busy, steal))
EOF
  done
done
