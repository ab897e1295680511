#!/usr/bin/env bash
# The embedded cluster's nodes in kbench's JVM (the default) against each in a JVM of its own
# (--broker-processes): what the separate JVMs cost, side by side on this machine.
#
#   benchmarks/broker-processes.sh [--runs N] [--brokers N] [--rate MSG_PER_S]
#
# Runs, alternating shared and separate, N times each (default 2): a 3-node cluster (--brokers) with RF 3,
# min.insync.replicas 2 and acks=all at a fixed rate (default 5,000 msg/s) of 1 KB values, 2 producers and 2
# consumers, 20 s of warm-up and 20 s measured. Per run it prints the seconds from launch to "ready", the rate
# achieved, the publish response p99, the measured intervals saturated, the host's busy share (every process on
# it, /proc/stat, the worker's figure), and the brokers' CPU (the one shared process, or each node's JVM), each
# as a share of the host's processors. docs/metrics.md quotes the ranges.
#
# Needs: JDK 17+, Maven (bin/kbench builds kbench on first use), python3, Linux.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=2
brokers=3
rate=5000
usage() { echo "usage: $0 [--runs N] [--brokers N] [--rate MSG_PER_S]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --brokers) [ $# -ge 2 ] || usage; brokers=$2; shift 2 ;;
    --rate) [ $# -ge 2 ] || usage; rate=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "broker-processes.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$runs" =~ ^[1-9]$ ]] || { echo "broker-processes.sh: --runs must be 1 to 9, got '$runs'" >&2; exit 2; }
[[ "$brokers" =~ ^[3-9]$ ]] || { echo "broker-processes.sh: --brokers must be 3 to 9 (RF 3), got '$brokers'" >&2; exit 2; }
[[ "$rate" =~ ^[1-9][0-9]{0,6}$ ]] || { echo "broker-processes.sh: --rate must be 1 to 9999999 msg/s, got '$rate'" >&2; exit 2; }
command -v python3 >/dev/null || { echo "broker-processes.sh: python3 is needed to read result.json" >&2; exit 2; }

work=$(mktemp -d /tmp/kbench-broker-processes.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

cat >"$work/workload.yaml" <<EOF
name: broker-processes-acks-all-rf3
topics: 1
partitionsPerTopic: 6
messageSize: 1024
randomBytesRatio: 0.5
producersPerTopic: 2
subscriptionsPerTopic: 1
consumersPerSubscription: 2
producerRate: $rate
warmupSeconds: 20
durationSeconds: 20
EOF

echo "building (and the class-data archive) ..." >&2
"$here/bin/kbench" run "$here/workloads/quickstart.yaml" --duration 1 --warmup 0 --output "$work/warm" \
  >"$work/warm.log" 2>&1 || { tail -5 "$work/warm.log" >&2; echo "broker-processes.sh: the unmeasured run failed" >&2; exit 1; }

printf '%-9s %3s %8s %10s %12s %10s %10s %s\n' layout run ready_s msg_per_s resp_p99_ms saturated host_busy brokers_cpu
for i in $(seq 1 "$runs"); do
  for layout in shared separate; do
    flag=()
    [ "$layout" = shared ] || flag=(--broker-processes)
    out="$work/$layout-$i"
    start=$(date +%s.%N)
    "$here/bin/kbench" run "$work/workload.yaml" --brokers "$brokers" ${flag[@]+"${flag[@]}"} \
      --set replicationFactor=3 --set topic.min.insync.replicas=2 --set producer.acks=all --output "$out" 2>&1 \
      | while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$out.log"
    ready=$(awk -v s="$start" '/ready at/ { printf "%.1f", $1 - s; exit }' "$out.log")
    python3 - "$out/result.json" "$layout" "$i" "$ready" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
host = r["workers"][0].get("host", {})
cpu = {}
for i in r["intervals"]:
    if i.get("warmup"):
        continue
    for b in i.get("brokers") or []:
        v = b["figures"].get("processCpu")
        if v is not None:
            cpu.setdefault(b["source"], []).append(v)
means = {k: sum(v) / len(v) for k, v in cpu.items()}
shown = "+".join("%.2f" % m for m in means.values()) + ("=%.2f" % sum(means.values()) if len(means) > 1 else "")
if sys.argv[2] == "shared":
    shown += " (with the workers)"
p99 = s.get("publishResponseMicros", {}).get("p99", float("nan")) / 1000
print("%-9s %3s %8s %10.0f %12.1f %10s %10.2f %s" % (sys.argv[2], sys.argv[3], sys.argv[4], s["publishRate"], p99,
      s.get("saturatedIntervals", "?"), host.get("hostBusyMean", float("nan")), shown))
EOF
  done
done
