#!/usr/bin/env bash
# Scrape cost: what reading a broker's figures once a second costs the broker and the worker, side by side.
#
#   benchmarks/scrape-cost.sh [--rounds N] [--seconds S] [--rate MSGS] [--worker] [--jmx-c2 | --jmx-cold]
#
# Starts one `kbench broker` process with a JMX port and Prometheus's JMX exporter agent attached
# (deployment/prometheus/jmx-exporter-kbench.yaml), then runs the same load against it N times (default 3; by
# default 1 msg/s for 60 s, so that the scrape is most of what changes) in each of three modes, alternating: no
# broker figures, --broker-jmx, --broker-metrics, after one unmeasured warm-up run. Per run it prints the broker
# process's CPU over the run (from /proc, in cores) and the worker's CPU over the measured window (the worker's
# own figure in result.json, in cores), and at the end each mode's difference to the run without figures of
# the same round, as a range over the rounds: that difference is what the scrape costs.
#
# By default every run is `kbench run` alone: its in-process worker reads the broker, a new JVM each run, which
# pays its reader's start-up (classes, the JIT compiling the read path) in every run. --worker runs them all
# through one `kbench worker` JVM instead, as a worker on a client host serves run after run: its warm-up run
# reads no figures, so round 1's reading runs show what a worker's first read of each source costs it, and the
# later rounds what each run costs once it has read before; the range is then printed for rounds 2 on apart.
#
# --jmx-c2 adds a fourth mode, jmx-c2: --broker-jmx with -Dkbench.jmx.c1Only=false, the worker's JIT free to compile
# the RMI client with C2 as before 2026-11-29 (JmxBrokerSource.C1_ONLY_DIRECTIVE), to compare with jmx in the same rounds
# (the two swap places in every other round).
# --jmx-cold adds, the same way, a mode jmx-cold: --broker-jmx with -Dkbench.jmx.warmReads=0, without the reads made
# back to back while the run is prepared (JmxBrokerSource.WARM_READS, since 2026-11-29).
#
# Needs: JDK 17+, Maven (to build kbench and fetch the exporter agent), Linux (/proc), python3.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=3
seconds=60
rate=1
worker_mode=0
jmx_c2=0
jmx_other=""
usage() { echo "usage: $0 [--rounds N] [--seconds S] [--rate MSGS] [--worker] [--jmx-c2 | --jmx-cold]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
    --seconds) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
    --rate) [ $# -ge 2 ] || usage; rate=$2; shift 2 ;;
    --worker) worker_mode=1; shift ;;
    --jmx-c2) [ -z "$jmx_other" ] || usage; jmx_c2=1; jmx_other=jmx-c2; shift ;;
    --jmx-cold) [ -z "$jmx_other" ] || usage; jmx_c2=1; jmx_other=jmx-cold; shift ;;
    -h|--help) sed -n '2,/^# Needs/p' "$0"; exit 0 ;;
    *) echo "scrape-cost.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ "$worker_mode" = 0 ] || [ "$jmx_c2" = 0 ] \
  || { echo "scrape-cost.sh: --$jmx_other sets an option on each run's own JVM; with --worker the runs share one" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9]$ ]] || { echo "scrape-cost.sh: --rounds must be 1 to 9, got '$rounds'" >&2; exit 2; }
[[ "$seconds" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "scrape-cost.sh: --seconds must be 1 to 9999, got '$seconds'" >&2; exit 2; }
[[ "$rate" =~ ^[1-9][0-9]{0,6}$ ]] || { echo "scrape-cost.sh: --rate must be 1 to 9999999 msg/s, got '$rate'" >&2; exit 2; }

work=$(mktemp -d /tmp/kbench-scrape-cost.XXXXXX)
broker=""
worker=""
cleanup() {
  [ -z "$worker" ] || { kill "$worker" 2>/dev/null || true; wait "$worker" 2>/dev/null || true; }
  [ -z "$broker" ] || { kill "$broker" 2>/dev/null || true; wait "$broker" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT

"$here/bin/kbench" --version >/dev/null
. "$here/benchmarks/lib/metrics-broker.sh"
start_metrics_broker "$here" "$work"
# the launcher execs java: the PID is the broker's JVM
cat >"$work/w.yaml" <<EOF
name: scrape-cost
partitionsPerTopic: 3
messageSize: 1000
producerRate: $rate
warmupSeconds: 5
durationSeconds: $seconds
EOF
workers=()
if [ "$worker_mode" = 1 ]; then
  SCRIPT=scrape-cost.sh
  . "$here/benchmarks/lib/processes.sh"
  wport=$(free_port)
  "$here/bin/kbench" worker --bind 127.0.0.1 --port "$wport" >"$work/worker.log" 2>&1 &
  worker=$!
  wait_for "$work/worker.log" "listening" "$worker" "the worker"
  workers=(--workers "127.0.0.1:$wport")
fi
ticks=$(getconf CLK_TCK)
cpu_seconds() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$broker/stat"; }

# one run first, not measured: the broker's JIT warms up on it (its first run cost it 2-4x the CPU of the next)
"$here/bin/kbench" run ${workers[@]+"${workers[@]}"} --output "$work/warm-up" --bootstrap-servers "127.0.0.1:$kafka" "$work/w.yaml" >"$work/warm-up.log" 2>&1 \
    || { echo "scrape-cost.sh: the warm-up run failed:" >&2; tail -5 "$work/warm-up.log" >&2; exit 1; }
printf '%-6s %-11s %14s %14s\n' round mode "broker cores" "worker cores"
: >"$work/table"
for round in $(seq 1 "$rounds"); do
  modes=(none jmx prometheus)
  # the broker's own JIT warms over the runs (its CPU falls from round to round): jmx and jmx-c2 swap places in
  # every other round, so that neither always comes later
  [ "$jmx_c2" = 0 ] || { if [ $((round % 2)) = 1 ]; then modes+=("$jmx_other"); else modes=(none "$jmx_other" prometheus jmx); fi; }
  for mode in "${modes[@]}"; do
    opts=${KBENCH_JAVA_OPTS:-}
    case $mode in
      none) extra=() ;;
      jmx) extra=(--broker-jmx "127.0.0.1:$jmx") ;;
      jmx-c2) extra=(--broker-jmx "127.0.0.1:$jmx"); opts="$opts -Dkbench.jmx.c1Only=false" ;;
      jmx-cold) extra=(--broker-jmx "127.0.0.1:$jmx"); opts="$opts -Dkbench.jmx.warmReads=0" ;;
      prometheus) extra=(--broker-metrics "http://127.0.0.1:$exporter/metrics") ;;
    esac
    out="$work/$round-$mode"
    c0=$(cpu_seconds); t0=$(date +%s.%N)
    KBENCH_JAVA_OPTS="$opts" "$here/bin/kbench" run ${workers[@]+"${workers[@]}"} --output "$out" --bootstrap-servers "127.0.0.1:$kafka" "${extra[@]}" "$work/w.yaml" \
        >"$out.log" 2>&1 || { echo "scrape-cost.sh: the $mode run failed:" >&2; tail -5 "$out.log" >&2; exit 1; }
    c1=$(cpu_seconds); t1=$(date +%s.%N)
    python3 - "$out/result.json" "$c0" "$c1" "$t0" "$t1" "$round" "$mode" <<'PY' | tee -a "$work/table"
import json, sys
r = json.load(open(sys.argv[1]))
c0, c1, t0, t1 = map(float, sys.argv[2:6])
h = r["workers"][0].get("host") or {}
worker = h.get("cpuMean", float("nan")) * h.get("processors", 0)
print(f"{sys.argv[6]:<6} {sys.argv[7]:<11} {(c1 - c0) / (t1 - t0):14.4f} {worker:14.4f}")
PY
  done
done
python3 - "$work/table" "$worker_mode" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for rnd, mode, b, w in rows:
    by.setdefault(rnd, {})[mode] = (float(b), float(w))
def show(title, rounds):
    print(title)
    for mode in ("jmx", "jmx-c2", "jmx-cold", "prometheus"):
        db = [100 * (v[mode][0] - v["none"][0]) for r, v in by.items() if r in rounds and mode in v and "none" in v]
        dw = [100 * (v[mode][1] - v["none"][1]) for r, v in by.items() if r in rounds and mode in v and "none" in v]
        if db:
            print(f"  {mode:<11} broker {min(db):+.2f} to {max(db):+.2f}   worker {min(dw):+.2f} to {max(dw):+.2f}"
                  f"   ({len(db)} round(s))")
print()
if sys.argv[2] == "1":
    show("cost of reading the brokers once a second, % of one core (mode minus the run without, same round), "
         "one worker JVM for every run:", {"1"})
    print("  (round 1: the worker's first read of each source)")
    if len(by) > 1:
        show("rounds 2 on: a worker that has read each source before", set(by) - {"1"})
else:
    show("cost of reading the brokers once a second, % of one core (mode minus the run without, same round):",
         set(by))
PY
