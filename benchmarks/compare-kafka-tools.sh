#!/usr/bin/env bash
# kbench against Kafka's own perf tools, side by side on one broker.
#
#   benchmarks/compare-kafka-tools.sh [--repeats N] [--seconds S] [--cases LIST] [--keep DIR]
#
# Fetches kafka-tools of the Kafka version kbench is built with from Maven Central (into a work directory,
# with Maven), starts one broker (`kbench broker`, a real KRaft broker in its own JVM, on loopback), and runs
# kbench and the tools alternately — kbench, tools, kbench, tools ... — N times each (default 3) per case:
#
#   rate50k      100 B records, 1 producer, 6 partitions, 50,000 msg/s, no consumer
#   unthrottled  100 B records, 1 producer, 6 partitions, unthrottled, no consumer
#   consumer     the same unthrottled, with one consumer reading the topic while it is written
#                (tools: ProducerPerformance and ConsumerPerformance side by side; kbench: one run with both,
#                plain records as the tools send them: stampMessages: false)
#   consumer-e2e the same, kbench's records stamped for end-to-end latency (its default; the tools as above)
#
# kbench producer-perf sends plain records, as ProducerPerformance does. Before the first measured run, one
# short run of each side warms the broker up (JIT, page cache); it is not counted.
#
# Every run gets a fresh topic. CPU comes from /proc: each client's whole user+system time (the children's
# times of the shell that waited for it: exact, JVM start-up included), and samples every 250 ms of the
# client, the consumer and the broker, from which the steady-state CPU per message over the middle half of
# the client's run is taken (start-up and shut-down left out). It prints per case the rates and CPU per
# message of each side with min/median/max, and kbench/tools ratios of the medians.
#
# Needs: JDK 17+, Maven (for the fetch, and to build kbench if bin/kbench has to), Linux /proc.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repeats=3
seconds=20
cases="rate50k unthrottled consumer consumer-e2e"
keep=""
usage() { echo "usage: $0 [--repeats N] [--seconds S] [--cases 'rate50k unthrottled consumer consumer-e2e'] [--keep DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats) [ $# -ge 2 ] || usage; repeats=$2; shift 2 ;;
    --seconds) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
    --cases) [ $# -ge 2 ] || usage; cases=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "compare-kafka-tools.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$repeats" =~ ^[1-9][0-9]?$ ]] || { echo "compare-kafka-tools.sh: --repeats must be 1 to 99, got '$repeats'" >&2; exit 2; }
[[ "$seconds" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "compare-kafka-tools.sh: --seconds must be 1 to 9999, got '$seconds'" >&2; exit 2; }
for c in $cases; do
  case "$c" in rate50k|unthrottled|consumer|consumer-e2e) ;; *) echo "compare-kafka-tools.sh: unknown case '$c'; allowed: rate50k unthrottled consumer consumer-e2e" >&2; exit 2 ;; esac
done

version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml" | head -1)
[ -n "$version" ] || { echo "compare-kafka-tools.sh: no <kafka.version> in $here/pom.xml" >&2; exit 2; }
work=${keep:-$(mktemp -d /tmp/kbench-vs-tools.XXXXXX)}
mkdir -p "$work"
broker_pid=""
cleanup() {
  if [ -n "$broker_pid" ] && kill -0 "$broker_pid" 2>/dev/null; then
    kill "$broker_pid" 2>/dev/null || true
    wait "$broker_pid" 2>/dev/null || true
  fi
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- kafka-tools from Maven Central ---------------------------------------------------------------------
lib="$work/kafka-tools-$version"
if [ ! -f "$lib/kafka-tools-$version.jar" ]; then
  echo "fetching org.apache.kafka:kafka-tools:$version and its runtime dependencies from Maven Central ..." >&2
  mkdir -p "$work/fetch"
  cat > "$work/fetch/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>fetch-kafka-tools</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-nop</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
EOF
  mvn -B -q -ntp -f "$work/fetch/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$lib" >&2
fi
tools_cp="$lib/*"

# --- kbench --------------------------------------------------------------------------------------------
# built once here (bin/kbench builds when sources are newer than the jar); the runs use a copy of the jar, so
# that neither a rebuild nor a build of someone else's changes lands in the middle of a measurement
"$here/bin/kbench" --version >&2
rm -rf "$work/kbench"
mkdir -p "$work/kbench"
cp -r "$here/distribution/target/kbench.jar" "$here/distribution/target/lib" "$work/kbench/"
kbench_jar="$work/kbench/kbench.jar"

# --- one broker ----------------------------------------------------------------------------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 19092)
java -jar "$kbench_jar" broker --host 127.0.0.1 --port "$port" > "$work/broker.log" 2>&1 &
broker_pid=$!
for _ in $(seq 1 120); do
  grep -q "kafka broker ready" "$work/broker.log" 2>/dev/null && break
  kill -0 "$broker_pid" 2>/dev/null || { cat "$work/broker.log" >&2; echo "compare-kafka-tools.sh: the broker did not start" >&2; exit 1; }
  sleep 0.5
done
bootstrap="127.0.0.1:$port"
echo "broker at $bootstrap (pid $broker_pid), work directory $work" >&2

ticks=$(getconf CLK_TCK)
# user+system ticks of a process (fields 14, 15 of /proc/PID/stat; the command name may hold spaces)
proc_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }

create_topic() {
  java -cp "$tools_cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --topic "$1" \
      --partitions 6 --replication-factor 1 > /dev/null
}

# Runs "$@" in a shell that samples the command's CPU ticks every 250 ms into FILE ("MILLIS TICKS" lines) while
# it runs, and afterwards prints that shell's children's ticks (fields 16, 17 of its own /proc/PID/stat): the
# command's whole user+system time, exactly, start-up and shut-down included. Usage: measured FILE CMD...
measured() {
  # shellcheck disable=SC2016
  bash -c '
    file=$1; shift
    "$@" >> "$LOG" 2>&1 &
    pid=$!
    while line=$(sed "s/^.*) //" /proc/$pid/stat 2>/dev/null) && [ "${line%% *}" != Z ]; do
      echo "$(date +%s%3N) $(echo "$line" | awk "{print \$12 + \$13}")" >> "$file"
      sleep 0.25
    done
    wait $pid
    sed "s/^.*) //" /proc/$$/stat | awk "{print \$14 + \$15}"' _ "$@"
}
export LOG="$work/clients.log"

# Samples the broker's ticks into FILE until killed.
sample_broker() {
  while true; do
    echo "$(date +%s%3N) $(proc_ticks "$broker_pid")" >> "$1"
    sleep 0.25
  done
}

results="$work/results.tsv"
: > "$results"
# One run: CASE SIDE I. Appends "CASE SIDE RATE MSGS CLIENT_TICKS BROKER_TICKS SAMPLES_DIR" to the results.
run_one() {
  local case=$1 side=$2 i=$3 topic="perf-$1-$2-$3" n rate cpu line b0 b1 sampler
  local samples="$work/samples/$1-$2-$3"
  case "$case" in
    rate50k) n=$((50000 * seconds)); rate=50000 ;;
    *) n=$((1000000 * seconds)); rate=-1 ;;
  esac
  create_topic "$topic"
  rm -rf "$samples"
  mkdir -p "$samples"
  sample_broker "$samples/broker" &
  sampler=$!
  b0=$(proc_ticks "$broker_pid")
  if [ "$side" = tools ]; then
    local cons=""
    if [ "$case" != rate50k ] && [ "$case" != unthrottled ]; then
      # the consumer's CPU counts as the client's too, as it does in kbench's single process
      measured "$samples/consumer" java -cp "$tools_cp" org.apache.kafka.tools.ConsumerPerformance \
          --bootstrap-server "$bootstrap" --topic "$topic" --messages "$n" --timeout 120000 > "$samples/consumer.ticks" &
      cons=$!
    fi
    cpu=$(measured "$samples/client" java -cp "$tools_cp" org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
        --num-records "$n" --record-size 100 --throughput "$rate" --producer-props "bootstrap.servers=$bootstrap")
    if [ -n "$cons" ]; then
      wait "$cons" || true
      cpu=$((cpu + $(cat "$samples/consumer.ticks")))
    fi
    line=$(grep -E '^[0-9]+ records sent' "$LOG" | tail -1)
  else
    if [ "$case" != rate50k ] && [ "$case" != unthrottled ]; then
      local stamp=false
      [ "$case" = consumer ] || stamp=true
      cat > "$work/w.yaml" <<EOF
name: vs-tools
topicNames: [$topic]
existingTopics: true
messageSize: 100
producersPerTopic: 1
subscriptionsPerTopic: 1
consumersPerSubscription: 1
producerRate: -1
numRecords: $n
stampMessages: $stamp
EOF
      cpu=$(measured "$samples/client" java -jar "$kbench_jar" run --bootstrap-servers "$bootstrap" \
          --output "$work/kbench-$topic" "$work/w.yaml")
      line=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("%d records sent, %.1f records/sec" % (s["acked"], s["publishRate"]))' "$work/kbench-$topic/result.json")
    else
      cpu=$(measured "$samples/client" java -jar "$kbench_jar" producer-perf --topic "$topic" --num-records "$n" \
          --record-size 100 --throughput "$rate" --bootstrap-server "$bootstrap" --output "$work/kbench-$topic")
      line=$(grep -E '^[0-9]+ records sent' "$LOG" | tail -1)
    fi
  fi
  b1=$(proc_ticks "$broker_pid")
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  local got
  got=$(echo "$line" | sed -E 's/^([0-9]+) records sent, ([0-9.]+) records\/sec.*/\1 \2/')
  [[ "$got" =~ ^[0-9]+\ [0-9.]+$ ]] || { echo "compare-kafka-tools.sh: no result line from $side ($case run $i); see $LOG" >&2; keep=$work; exit 1; }
  echo "$case $side ${got#* } ${got% *} $cpu $((b1 - b0)) $samples" >> "$results"
  printf '%-12s %-7s run %d: %12.1f msg/s, client %6.2f µs/msg (whole process)\n' "$case" "$side" "$i" "${got#* }" \
      "$(echo "$cpu ${got% *} $ticks" | awk '{print $1 / $3 * 1e6 / $2}')" >&2
}

seconds_wanted=$seconds
seconds=2
echo "warming the broker up (not counted) ..." >&2
run_one unthrottled kbench 0 2>/dev/null
run_one unthrottled tools 0 2>/dev/null
: > "$results"
seconds=$seconds_wanted
for c in $cases; do
  for i in $(seq 1 "$repeats"); do
    run_one "$c" kbench "$i"
    run_one "$c" tools "$i"
  done
done

# --- summary -------------------------------------------------------------------------------------------
echo "kafka-tools $version and kbench $(java -jar "$kbench_jar" --version | sed 's/^kbench //'), one broker ($bootstrap), $repeats run(s) each, alternating; $(nproc) cores"
python3 - "$results" "$ticks" <<'EOF'
import os, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ticks = float(sys.argv[2])

def series(path):
    if not os.path.exists(path):
        return []
    return [tuple(map(float, l.split())) for l in open(path) if len(l.split()) == 2]

def at(points, t):
    """Ticks at instant t (ms since epoch), interpolated between the samples around it."""
    for (t0, v0), (t1, v1) in zip(points, points[1:]):
        if t0 <= t <= t1:
            return v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return None

def steady(r):
    """µs of CPU per message over the middle half of the client's run: client(s), then broker."""
    d, rate = r[6], float(r[2])
    client = series(os.path.join(d, "client"))
    if len(client) < 8:
        return float("nan"), float("nan")
    t0, t1 = client[0][0], client[-1][0]
    a, b = t0 + 0.25 * (t1 - t0), t0 + 0.75 * (t1 - t0)
    out = []
    for names in (("client", "consumer"), ("broker",)):
        cpu = 0.0
        for n in names:
            s = series(os.path.join(d, n))
            if s:
                va, vb = at(s, a), at(s, b)
                if va is None or vb is None:
                    return float("nan"), float("nan")
                cpu += (vb - va) / ticks
        out.append(cpu / (rate * (b - a) / 1000.0) * 1e6)
    return out[0], out[1]

def fmt(x):
    return "nan" if x != x else ("{:,.0f}".format(x) if x >= 1000 else "{:.2f}".format(x))

def spread(v):
    return "%s / %s / %s" % tuple(fmt(x) for x in (min(v), statistics.median(v), max(v)))

print("msg/s: acknowledged records per second as each tool prints it. CPU, µs per message: 'whole' = the client")
print("process(es) from start to exit, JVM start-up included; 'steady' = the middle half of the client's run")
print("(the consumer's CPU included in the consumer case); 'broker' = the broker over that same middle half.")
print()
print("%-12s %-7s %4s  %-30s %-22s %-22s %s" % ("case", "side", "runs", "msg/s min / median / max",
      "whole min/med/max", "steady min/med/max", "broker min/med/max"))
cases = []
for r in rows:
    if r[0] not in cases:
        cases.append(r[0])
ratios = []
for c in cases:
    med = {}
    for side in ("kbench", "tools"):
        rs = [r for r in rows if r[0] == c and r[1] == side]
        rate = [float(r[2]) for r in rs]
        whole = [float(r[4]) / ticks * 1e6 / float(r[3]) for r in rs]
        st = [steady(r) for r in rs]
        med[side] = [statistics.median(v) for v in (rate, whole, [x[0] for x in st], [x[1] for x in st])]
        print("%-12s %-7s %4d  %-30s %-22s %-22s %s" % (c, side, len(rs), spread(rate), spread(whole),
              spread([x[0] for x in st]), spread([x[1] for x in st])))
    ratios.append((c, [k / t if t else float("nan") for k, t in zip(med["kbench"], med["tools"])]))
print()
print("kbench / tools, ratio of the medians:")
for c, (rate, whole, client, broker) in ratios:
    print("  %-12s rate %.2fx   client CPU/msg: whole %.2fx, steady %.2fx   broker CPU/msg %.2fx"
          % (c, rate, whole, client, broker))
EOF
