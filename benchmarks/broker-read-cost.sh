#!/usr/bin/env bash
# What one read of a broker costs, on each side, per source: the reader's CPU (a JVM that does nothing else) and
# the broker's (from /proc, its idle CPU subtracted), for a JMX port and for the JMX exporter's endpoint.
#
#   benchmarks/broker-read-cost.sh [--reads N] [--paced N]
#
# Starts one `kbench broker` with a JMX port and Prometheus's JMX exporter agent attached
# (deployment/prometheus/jmx-exporter-kbench.yaml), then runs io.kbench.worker.BrokerReadCost for each source:
# first N reads back to back (default 3000; the cost once compiled), then, with --paced N (default 0: skipped),
# N reads one a second for both sources at once, as a run reads (the cost a run pays while the JIT has not
# compiled the read path). At one read a second, M ms of CPU per read is M/10 % of a core.
#
# Needs: JDK 17+, Maven (to build kbench and fetch the exporter agent), Linux (/proc), curl.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reads=3000
paced=0
usage() { echo "usage: $0 [--reads N] [--paced N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --reads) [ $# -ge 2 ] || usage; reads=$2; shift 2 ;;
    --paced) [ $# -ge 2 ] || usage; paced=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "broker-read-cost.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$reads" =~ ^[1-9][0-9]{2,5}$ ]] || { echo "broker-read-cost.sh: --reads must be 100 to 999999, got '$reads'" >&2; exit 2; }
[[ "$paced" =~ ^(0|[1-9][0-9]{0,4})$ ]] || { echo "broker-read-cost.sh: --paced must be 0 to 99999, got '$paced'" >&2; exit 2; }

work=$(mktemp -d /tmp/kbench-read-cost.XXXXXX)
launcher=""
broker=""
cleanup() {
  launcher=${launcher:-$broker}  # set by start_metrics_broker before the script names it
  [ -z "$launcher" ] || { pkill -P "$launcher" 2>/dev/null || true; kill "$launcher" 2>/dev/null || true;
                          wait "$launcher" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT

"$here/bin/kbench" --version >/dev/null
[ -f "$here/benchmarks/target/benchmarks.jar" ] || (cd "$here" && mvn -B -q -ntp install -DskipTests >/dev/null)
. "$here/benchmarks/lib/metrics-broker.sh"
start_metrics_broker "$here" "$work"
launcher=$broker
# the broker's JVM: the launcher itself once it execs java, else its child
broker=$launcher
case "$(readlink "/proc/$launcher/exe")" in */java) ;; *) broker=$(pgrep -P "$launcher" | head -1) ;; esac
cost() { java -cp "$here/benchmarks/target/benchmarks.jar" io.kbench.worker.BrokerReadCost "$@" 2>&1 | grep -v '^SLF4J'; }
for source in "127.0.0.1:$jmx" "http://127.0.0.1:$exporter/metrics"; do
  cost "$source" "$broker" "$reads"
done
if [ "$paced" -gt 0 ]; then
  echo "paced, one read a second, both sources at once (broker figures mix the two):"
  cost "127.0.0.1:$jmx" "$broker" "$paced" 1000 >"$work/paced-jmx" &
  a=$!
  cost "http://127.0.0.1:$exporter/metrics" "$broker" "$paced" 1000 >"$work/paced-exporter" &
  b=$!
  wait "$a" "$b"
  cat "$work/paced-jmx" "$work/paced-exporter"
fi
