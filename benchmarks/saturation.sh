#!/usr/bin/env bash
# Does the load generator keep its schedule? Saturated intervals per run, side by side with an older build.
#
#   benchmarks/saturation.sh [--ref GIT-REV] [--runs N] [--rate MSG/S] [--set KEY=VALUE]... [--keep DIR]
#                            [--worker-opts 'JVM OPTIONS'] [--ref-worker-opts 'JVM OPTIONS']
#
# Starts one broker (`kbench broker`) and a `kbench worker` JVM of this build — and, with --ref, a second
# worker built from that git revision (in a temporary worktree) — all on loopback. Each worker is warmed by
# one unmeasured run; then the runs alternate (this build, the ref, this build, ...), N each (default 3):
# 1 topic x 6 partitions, 100 B records, 1 producer, 1 consumer at --rate (default 50,000 msg/s), 5 s
# warm-up + 30 s measured, client defaults unless --set gives profile keys (e.g. --set producer.linger.ms=1).
# Every kbench JVM gets the default options of its side's launcher (distribution/src/main/dist/bin/jvm-options;
# the broker this build's), so a ref from before that file runs without them. --worker-opts and --ref-worker-opts
# add JVM options to this build's and the ref's worker (e.g. --ref HEAD --ref-worker-opts -XX:+UseZGC compares
# two collectors with the same code).
# Per run it prints the measured intervals flagged saturated (publish delay p99 above 10 ms), in how many of
# them the load thread woke from a park 10 ms or more late ("stalled": a pause, or no core in time) and its
# latest wake-up of the window ("-" for a build that does not measure it), the publish delay p99 and p99.9 of
# the window, the achieved rate, how busy the host was (every process, mean over the measured intervals / over
# the stalled ones) and the most CPU its hypervisor stole in an interval; a skeptical reader reruns it and compares.
#
# Also prints, once, how late a bare Java thread that parks 1 ms in a loop wakes while one more run goes on:
# the host's own scheduling jitter, against which the generator's saturated intervals are read.
#
# Needs: JDK 17+, Maven (to build kbench and the ref), git, python3, Linux.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ref=""
runs=3
rate=50000
sets=()
keep=""
usage() { echo "usage: $0 [--ref GIT-REV] [--runs N] [--rate MSG/S] [--set KEY=VALUE]... [--keep DIR] [--worker-opts 'OPTS'] [--ref-worker-opts 'OPTS']" >&2; exit 2; }
worker_opts=""
ref_worker_opts=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) [ $# -ge 2 ] || usage; ref=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --rate) [ $# -ge 2 ] || usage; rate=$2; shift 2 ;;
    --set) [ $# -ge 2 ] || usage; sets+=(--set "$2"); shift 2 ;;
    --worker-opts) [ $# -ge 2 ] || usage; worker_opts=$2; shift 2 ;;
    --ref-worker-opts) [ $# -ge 2 ] || usage; ref_worker_opts=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "saturation.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$runs" =~ ^[1-9]$ ]] || { echo "saturation.sh: --runs must be 1 to 9, got '$runs'" >&2; exit 2; }
[[ "$rate" =~ ^[1-9][0-9]{0,7}$ ]] || { echo "saturation.sh: --rate must be 1 to 99999999 msg/s, got '$rate'" >&2; exit 2; }
for kv in ${sets[@]+"${sets[@]}"}; do
  [ "$kv" = --set ] || [[ "$kv" =~ ^[A-Za-z0-9._-]+=.+$ ]] \
    || { echo "saturation.sh: --set takes KEY=VALUE (a profile key, e.g. producer.linger.ms=1), got '$kv'" >&2; exit 2; }
done
# split on blanks, never globbed (an option such as -XX:* must reach the JVM as written)
read -r -a worker_opts <<<"$worker_opts"
read -r -a ref_worker_opts <<<"$ref_worker_opts"
for o in ${worker_opts[@]+"${worker_opts[@]}"} ${ref_worker_opts[@]+"${ref_worker_opts[@]}"}; do
  [[ "$o" == -* ]] || { echo "saturation.sh: --worker-opts and --ref-worker-opts take JVM options (each starting with '-'), got '$o'" >&2; exit 2; }
done
[ ${#ref_worker_opts[@]} -eq 0 ] || [ -n "$ref" ] || { echo "saturation.sh: --ref-worker-opts needs --ref" >&2; exit 2; }
if [ -n "$keep" ] && [ -e "$keep" ] && [ ! -d "$keep" ]; then
  echo "saturation.sh: --keep must be a directory, '$keep' is not one" >&2; exit 2
fi
if [ -n "$ref" ]; then
  git -C "$here" rev-parse --verify --quiet "$ref^{commit}" >/dev/null \
    || { echo "saturation.sh: --ref '$ref' is not a commit of $here" >&2; exit 2; }
fi

work=${keep:-$(mktemp -d /tmp/kbench-saturation.XXXXXX)}
mkdir -p "$work"
pids=()
tree=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -z "$tree" ] || git -C "$here" worktree remove --force "$tree" >/dev/null 2>&1 || true
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$here/bin/kbench" --version >&2
mkdir -p "$work/new"
cp -r "$here/distribution/target/kbench.jar" "$here/distribution/target/lib" "$work/new/"
if [ -n "$ref" ]; then
  tree="$work/ref-tree"
  git -C "$here" worktree add --force --detach "$tree" "$ref" >/dev/null 2>&1
  echo "building $ref ..." >&2
  (cd "$tree" && mvn -B -q -DskipTests package) >"$work/ref-build.log" 2>&1 \
    || { tail -20 "$work/ref-build.log" >&2; echo "saturation.sh: building $ref failed" >&2; exit 1; }
  mkdir -p "$work/ref"
  cp -r "$tree/distribution/target/kbench.jar" "$tree/distribution/target/lib" "$work/ref/"
fi
SCRIPT=saturation.sh
. "$here/benchmarks/lib/processes.sh"
# each side's JVMs get the default options of its own tree (bin/jvm-options of the archive; none before it existed)
declare -A jvm_opts
. "$here/distribution/src/main/dist/bin/jvm-options"
jvm_opts[new]="${kbench_jvm_options[*]-}"
jvm_opts[ref]=""
if [ -n "$ref" ] && [ -f "$tree/distribution/src/main/dist/bin/jvm-options" ]; then
  . "$tree/distribution/src/main/dist/bin/jvm-options"
  jvm_opts[ref]="${kbench_jvm_options[*]-}"
fi

port=$(free_port)
# shellcheck disable=SC2086 # a list of options
java ${jvm_opts[new]} -jar "$work/new/kbench.jar" broker --host 127.0.0.1 --port "$port" > "$work/broker.log" 2>&1 &
pids+=($!)
wait_for "$work/broker.log" "kafka broker ready" "${pids[-1]}" "the broker"
sides=(new)
[ -z "$ref" ] || sides+=(ref)
declare -A address
for side in "${sides[@]}"; do
  wp=$(free_port)
  # shellcheck disable=SC2086
  extra=(${worker_opts[@]+"${worker_opts[@]}"})
  [ "$side" = new ] || extra=(${ref_worker_opts[@]+"${ref_worker_opts[@]}"})
  java ${jvm_opts[$side]} ${extra[@]+"${extra[@]}"} -jar "$work/$side/kbench.jar" worker --bind 127.0.0.1 --port "$wp" --id "$side" > "$work/worker-$side.log" 2>&1 &
  pids+=($!)
  wait_for "$work/worker-$side.log" "listening" "${pids[-1]}" "worker $side"
  address[$side]="127.0.0.1:$wp"
  echo "worker $side: JVM options: ${jvm_opts[$side]:-none} ${extra[*]-}" >&2
done

workload() { # NAME WARMUP DURATION
  cat > "$work/$1.yaml" <<EOF
name: $1
topics: 1
partitionsPerTopic: 6
messageSize: 100
producersPerTopic: 1
subscriptionsPerTopic: 1
consumersPerSubscription: 1
producerRate: $rate
warmupSeconds: $2
durationSeconds: $3
EOF
}
run() { # SIDE NAME
  # shellcheck disable=SC2086
  java ${jvm_opts[$1]} -jar "$work/$1/kbench.jar" run --workers "${address[$1]}" --bootstrap-servers "127.0.0.1:$port" \
      ${sets[@]+"${sets[@]}"} --output "$work/$2" "$work/$2.yaml" > "$work/$2.log" 2>&1 \
    || { tail -5 "$work/$2.log" >&2; echo "saturation.sh: run $2 failed" >&2; exit 1; }
}
for side in "${sides[@]}"; do
  workload "warm-$side" 0 10
  run "$side" "warm-$side"
done

printf '%-6s %-4s %12s %9s %14s %18s %14s %22s %10s\n' side run saturated stalled "stall max ms" "delay p99/p99.9 ms" "msg/s" \
  "host busy all/stalled" "steal max"
for i in $(seq 1 "$runs"); do
  for side in "${sides[@]}"; do
    name="$side-$i"
    workload "$name" 5 30
    run "$side" "$name"
    python3 - "$work/$name/result.json" "$side" "$i" "$here/benchmarks/lib" <<'EOF'
import json, sys
sys.dont_write_bytecode = True  # nothing written into the checkout
sys.path.insert(0, sys.argv[4])
from stalls import figures
r = json.load(open(sys.argv[1]))
measured = [i for i in r["intervals"] if not i["warmup"] and i["startMillis"] < r["measureEndMillis"]]
sat = sum(1 for i in measured if i["saturated"])
stalled, longest, busy, steal = figures(measured)
s = r["summary"]
d = s["publishDelayMicros"]
print("%-6s %-4s %12s %9s %14s %18s %14s %22s %10s" % (sys.argv[2], sys.argv[3], "%d of %d" % (sat, len(measured)),
      stalled, longest, "%.2f / %.2f" % (d["p99"] / 1000.0, d["p999"] / 1000.0), "{:,.1f}".format(s["publishRate"]),
      busy, steal))
EOF
  done
done

# the host's own jitter: a bare thread parking 1 ms while one more run of this build goes on
mkdir -p "$work/park"
cat > "$work/park/Park.java" <<'EOF'
import java.util.concurrent.locks.LockSupport;
public class Park {
  public static void main(String[] a) {
    long end = System.nanoTime() + Long.parseLong(a[0]) * 1_000_000_000L;
    long n = 0, over10 = 0, over20 = 0, max = 0;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      LockSupport.parkNanos(1_000_000);
      long late = System.nanoTime() - t0 - 1_000_000;
      n++; max = Math.max(max, late);
      if (late > 10_000_000) over10++;
      if (late > 20_000_000) over20++;
    }
    System.out.printf("a bare thread parking 1 ms, %d parks: %d woke over 10 ms late, %d over 20 ms, the latest %.1f ms%n", n, over10, over20, max / 1e6);
  }
}
EOF
javac -d "$work/park" "$work/park/Park.java"
workload "jitter" 5 30
( sleep 8; java -cp "$work/park" Park 25 > "$work/park.txt" ) &
jitter=$!
run new jitter
wait "$jitter"
cat "$work/park.txt"
