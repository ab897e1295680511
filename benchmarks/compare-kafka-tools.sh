#!/usr/bin/env bash
# kbench against Kafka's own perf tools, side by side on one broker.
#
#   benchmarks/compare-kafka-tools.sh [--repeats N] [--seconds S] [--warmup-seconds S] [--warm-worker] [--cases LIST] [--heap SIZE]
#                                     [--jar KBENCH_JAR] [--keep DIR] [--cds]
#
# Fetches kafka-tools of the Kafka version kbench is built with from Maven Central (into a work directory,
# with Maven), starts one broker (`kbench broker`, a real KRaft broker in its own JVM, on loopback), and runs
# kbench and the tools in N pairs (default 3) per case, the side that goes first alternating from one pair to the
# next — kbench, tools; tools, kbench; kbench, tools ... — so neither side always meets the broker as the other left it.
# 100 B records, 1 producer, 6 partitions throughout; "tools" is ProducerPerformance (with
# ConsumerPerformance beside it where kbench has a consumer).
#
#   rate50k       50,000 msg/s, no consumer; kbench producer-perf (plain records, as the tool sends)
#   unthrottled   unthrottled, no consumer; kbench producer-perf
#   consumer      unthrottled with one consumer reading the topic while it is written; kbench run in one
#                 process (in-process worker), plain records (stampMessages: false)
#   consumer-e2e  the same, kbench's records stamped for end-to-end latency (its default)
#   dist          the path users run: a separate `kbench worker` JVM and `kbench run --workers` (the
#                 coordinator) — stamped records, verification on (the defaults), unthrottled, no consumer
#   dist-consumer the same with one consumer
#   dist-linger   dist with linger.ms=1 and batch.size=131072 on both sides
#   dist-rate50k  dist at 50,000 msg/s with one consumer; the first 5 s of records are a warm-up on both
#                 sides (kbench warmupRecords, the tool's --warmup-records), kept out of the saturation count
#   share         a share group of one consumer reads --seconds × 100,000 records that ProducerPerformance wrote
#                 first (not measured); kbench share-consumer-perf (one process) against ShareConsumerPerformance,
#                 the same client settings on both (fetch.max.bytes 1 MB, receive.buffer.bytes 2 MB, check.crcs
#                 false: the tool's); each run a new group, started at the log's beginning (the tool's group by
#                 kafka-share-groups --reset-offsets --to-earliest, kbench's by itself). Records are deliveries.
#                 After each measured run the same side reads the topic's first 20,000 records again with a new
#                 group: that short read's CPU is the side's fixed cost (start, group, exit), and the summary gives
#                 both sides' CPU per record beyond it ('marginal', --seconds 10 or more), apart from the whole run's
#   accuracy3     no tools side: 3 worker JVMs share 10,000 and 100,000 msg/s (benchmarks/rate-accuracy.sh
#                 against this broker, 30 measured seconds each): worst 1-s interval, window, saturated
#
# For kbench the client's CPU is every kbench process of the run: producer-perf, or the run's one process,
# or worker + coordinator; for the tools the producer's and consumer's. Every client JVM (both sides) gets the
# same heap: --heap SIZE as -Xms/-Xmx (default: none, the JVM's default heap for all of them), and the options
# kbench's launcher gives its JVMs (distribution/src/main/dist/bin/jvm-options), the broker's too. Before the
# first measured run, runs of each side of each case asked for (--warmup-seconds each, default 10) warm the broker up
# (JIT, page cache) on the paths that case takes: a pair (kbench, then the tools) at a time, until the broker's JIT
# compiler threads used at most 2% of a core in each run of a pair (5 pairs at most). They are not counted, and each
# prints the CPU seconds the broker's JIT compiler threads spent in it. A broker that first meets a kind of traffic
# compiles for it: after 2-s warm-up runs its JIT threads still spent 1.7–2.1 s in the first measured `dist` run
# (0.1–0.3 s in the later runs of either side; measured 2026-11-27, when kbench went first in every pair), which the
# `broker JIT s` column shows and `broker req` (the request threads alone) leaves out.
# The dist cases start a new worker JVM for each run and count its whole CPU, start-up and JIT included, as the
# tools' JVMs are counted. --warm-worker runs them all on one worker JVM instead — started by the first of them (a
# warm-up run), counted only while each run lasts — as a `kbench worker` serves run after run on a client host;
# the tools have no such mode (each run is a new JVM).
# --cds (the share and dist cases): every client JVM starts with a class-data archive of its own, made by the same
# JVM of that side's warm-up run of the case (-XX:ArchiveClassesAtExit; the measured runs -XX:SharedArchiveFile):
# the share case's two readers, the dist cases' worker and coordinator and the tools' ProducerPerformance and
# ConsumerPerformance — so that neither side pays for loading and verifying its classes one by one, as bin/kbench of a
# checkout runs kbench (its archive comes from a quickstart run instead); Kafka's scripts give the tools none. Without
# it both sides load their classes. Not with --warm-worker (that worker starts before any archive is made).
# --jar measures that kbench.jar (its lib/ beside it; e.g. one built from an earlier commit) instead of
# building this checkout's.
#
# A kbench run that did not complete (its result.json's status other than COMPLETED: a worker lost, a run stopped)
# stops the comparison with one line naming the run, its status and error; the work directory is kept. Until
# 2026-12-03 such a run's rate and CPU per message were taken into the medians as if it had completed.
# Every run gets a fresh topic. CPU comes from /proc: each client's whole user+system time (the children's
# times of a subshell that started only it and waited for it: exact, JVM start-up included), and samples every
# 250 ms of the client processes and the broker (bash builtins only, no process started per sample: the samplers
# cost 0.5% of a core for a process, 1.2% with its JIT threads, 3.6% with every thread of an idle 60-thread JVM —
# the share case —, by `time` over 20-s runs; until 2026-12-02 they started processes per sample that counted in
# the clients' whole CPU: `sleep 20` measured 2.4 s), from which the steady-state CPU per message over the middle half of
# the client's run is taken (start-up and shut-down left out; not the JIT: how much of that figure the client
# JVMs' JIT compiler threads still spent is printed under the table — a new JVM compiles its hot code over its
# first minute or more, so the longer --seconds, the less of it). It prints per case the rates and CPU per
# message of each side with min/median/max — the broker's both over that middle half and over the whole client
# run (every message, from the client's start to its exit) — the producer's records per produce request
# (what the broker's work per message follows), kbench/tools ratios of the medians (with the range of the
# ratios of runs i, which ran one after the other); for the dist cases also
# kbench's measured intervals flagged saturated (publish delay p99 above 10 ms) out of all.
#
# Needs: JDK 17+, Maven (for the fetch, and to build kbench if bin/kbench has to), python3, bash 5+ (EPOCHREALTIME),
# Linux /proc.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repeats=3
seconds=20
warmup_seconds=10
warm_worker=0
cds=0
all_cases="rate50k unthrottled consumer consumer-e2e dist dist-consumer dist-linger dist-rate50k share accuracy3"
cases=$all_cases
keep=""
heap=""
given_jar=""
usage() { echo "usage: $0 [--repeats N] [--seconds S] [--warmup-seconds S] [--warm-worker] [--cases '$all_cases'] [--heap SIZE] [--jar KBENCH_JAR] [--keep DIR] [--cds]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats) [ $# -ge 2 ] || usage; repeats=$2; shift 2 ;;
    --seconds) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
    --warmup-seconds) [ $# -ge 2 ] || usage; warmup_seconds=$2; shift 2 ;;
    --warm-worker) warm_worker=1; shift ;;
    --cds) cds=1; shift ;;
    --cases) [ $# -ge 2 ] || usage; cases=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    --heap) [ $# -ge 2 ] || usage; heap=$2; shift 2 ;;
    --jar) [ $# -ge 2 ] || usage; given_jar=$2; shift 2 ;;
    -h|--help) sed -n '2,/^# Needs/p' "$0"; exit 0 ;;
    *) echo "compare-kafka-tools.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$repeats" =~ ^[1-9][0-9]?$ ]] || { echo "compare-kafka-tools.sh: --repeats must be 1 to 99, got '$repeats'" >&2; exit 2; }
[[ "$seconds" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "compare-kafka-tools.sh: --seconds must be 1 to 9999, got '$seconds'" >&2; exit 2; }
[[ "$warmup_seconds" =~ ^[1-9][0-9]{0,3}$ ]] \
  || { echo "compare-kafka-tools.sh: --warmup-seconds must be 1 to 9999, got '$warmup_seconds'" >&2; exit 2; }
[ -n "${cases// /}" ] || { echo "compare-kafka-tools.sh: --cases is empty; allowed: $all_cases" >&2; exit 2; }
for c in $cases; do
  case " $all_cases " in *" $c "*) ;; *) echo "compare-kafka-tools.sh: unknown case '$c'; allowed: $all_cases" >&2; exit 2 ;; esac
done
if [ "$cds" = 1 ]; then
  [[ " $cases " =~ \ (share|dist[a-z0-9-]*)\  ]] \
    || { echo "compare-kafka-tools.sh: --cds applies to the share and dist cases only, and --cases '$cases' has none" >&2; exit 2; }
  [ "$warm_worker" = 0 ] || { echo "compare-kafka-tools.sh: --cds and --warm-worker do not go together: the warm worker" \
    "starts before any archive is made" >&2; exit 2; }
fi
[ -z "$heap" ] || [[ "$heap" =~ ^[1-9][0-9]{0,5}[mMgG]$ ]] \
  || { echo "compare-kafka-tools.sh: --heap must be a size such as 512m or 2g, got '$heap'" >&2; exit 2; }
[ -z "$given_jar" ] || [ -f "$given_jar" ] || { echo "compare-kafka-tools.sh: --jar $given_jar is not a file" >&2; exit 2; }
# kbench's launcher options (huge pages for the heap where the kernel gives them) for every JVM here, the tools'
# too: both sides run with the same JVM settings, so the ratios measure the code
. "$here/distribution/src/main/dist/bin/jvm-options"
jvm=(${kbench_jvm_options[@]+"${kbench_jvm_options[@]}"})
[ -z "$heap" ] || jvm+=("-Xms$heap" "-Xmx$heap")
if [ -n "$keep" ] && [ -e "$keep" ] && [ ! -d "$keep" ]; then
  echo "compare-kafka-tools.sh: --keep $keep exists and is not a directory" >&2; exit 2
fi

version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml" | head -1)
[ -n "$version" ] || { echo "compare-kafka-tools.sh: no <kafka.version> in $here/pom.xml" >&2; exit 2; }
work=${keep:-$(mktemp -d /tmp/kbench-vs-tools.XXXXXX)}
mkdir -p "$work"
broker_pid=""
worker_pid=""
worker_port=""
cleanup() {
  if [ -n "$worker_pid" ] && kill -0 "$worker_pid" 2>/dev/null; then
    kill "$worker_pid" 2>/dev/null || true
    wait "$worker_pid" 2>/dev/null || true
  fi
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
rm -rf "$work/kbench"
mkdir -p "$work/kbench"
if [ -n "$given_jar" ]; then
  cp -r "$given_jar" "$(dirname "$given_jar")/lib" "$work/kbench/"
  mv "$work/kbench/$(basename "$given_jar")" "$work/kbench/kbench.jar" 2>/dev/null || true
else
  "$here/bin/kbench" --version >&2
  cp -r "$here/distribution/target/kbench.jar" "$here/distribution/target/lib" "$work/kbench/"
fi
kbench_jar="$work/kbench/kbench.jar"

# --- one broker ----------------------------------------------------------------------------------------
SCRIPT=compare-kafka-tools.sh
. "$here/benchmarks/lib/processes.sh"
port=$(free_port)
java ${kbench_jvm_options[@]+"${kbench_jvm_options[@]}"} -jar "$kbench_jar" broker --host 127.0.0.1 --port "$port" > "$work/broker.log" 2>&1 &
broker_pid=$!
wait_for "$work/broker.log" "kafka broker ready" "$broker_pid" "the broker"
bootstrap="127.0.0.1:$port"
echo "broker at $bootstrap (pid $broker_pid), work directory $work" >&2

ticks=$(getconf CLK_TCK)
# The samplers below run every 250 ms beside the measured processes, on the same cores: bash builtins only, no
# process started per sample (what the old ones cost and booked to the clients: the header, docs/performance.md).

# STAT_STATE and STAT_TICKS (user+system: fields 14, 15) of a /proc/.../stat file, and STAT_CHILD_TICKS (its waited-for
# children's: 16, 17); false when it cannot be read (the process or thread is gone). The command name may hold spaces
# and parentheses: the fields are counted from its last ')'.
stat_ticks() {
  local line
  { read -r line < "$1"; } 2>/dev/null || return 1
  parse_stat "$line"
}
# The same from a line of such a file.
parse_stat() {
  # the last ') ' within the line's first 48 characters (pid, ' (', a name of at most 15 bytes, ') '): a pattern
  # matched against the whole line costs bash a scan per character
  local - head=${1:0:48} tail
  tail=${head##*) }
  set -f # the fields split on blanks, never globbed (no here-string: that is a pipe per call)
  # shellcheck disable=SC2086
  set -- ${1:${#head}-${#tail}}
  STAT_STATE=$1
  STAT_TICKS=$((${12} + ${13}))
  STAT_CHILD_TICKS=$((${14} + ${15}))
}
# user+system ticks of a process so far
proc_ticks() { stat_ticks "/proc/$1/stat" || return 1; echo "$STAT_TICKS"; }
# The broker's CPU ticks so far in two groups of its threads: "REQUESTS JIT" — the request path (the threads named
# data-plane-kafka-*: network processors and request handlers) and the JIT compiler threads, whose work is the
# broker compiling for a new client's traffic, not per message. Threads that ended are not counted (neither group's
# do while the broker runs).
thread_ticks() {
  local t c req=0 jit=0
  for t in /proc/"$1"/task/*; do
    { read -r c < "$t/comm"; } 2>/dev/null || continue
    stat_ticks "$t/stat" || continue
    case "$c" in
      data-plane*) req=$((req + STAT_TICKS)) ;;
      C1\ Compiler* | C2\ Compiler*) jit=$((jit + STAT_TICKS)) ;;
    esac
  done
  echo "$req $jit"
}
create_topic() {
  java -cp "$tools_cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --topic "$1" \
      --partitions 6 --replication-factor 1 > /dev/null
}
# Deletes a measured run's topic: an unthrottled 20-s run writes about 2 GB, and an invocation's runs together more
# than this VM's page cache (and, with --seconds 60, its free disk) would hold; the broker removes the files a minute
# later (file.delete.delay.ms), while another run goes on, whichever side it is.
delete_topic() {
  java -cp "$tools_cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --delete --topic "$1" \
      > /dev/null 2>> "$LOG_ERR" || echo "compare-kafka-tools.sh: could not delete topic $1 (left on the broker)" >&2
}

# Milliseconds since the epoch, in NOW_MS (EPOCHREALTIME's digits: whatever the locale's decimal mark).
now_ms() { local us=${EPOCHREALTIME//[!0-9]/}; NOW_MS=${us:0:${#us}-3}; }
# One sample of process PID's threads at MILLIS: to file descriptor JIT_FD (if not empty) "MILLIS TID NAME TICKS"
# of each JIT compiler thread (C1/C2 CompilerThread), to THREADS_FD (if not empty) "TID NAME TICKS" of every
# thread; a name's blanks as '_'. With only JIT_FD, every thread is looked at when the array JIT_TASKS is empty and
# the compiler threads found are kept in it; after that only they are read (the caller empties it now and then:
# HotSpot starts and stops C2 threads as it needs them). Usage: sample_threads PID MILLIS JIT_FD THREADS_FD
sample_threads() {
  local t line name fresh=1
  local -a tasks
  if [ -z "$4" ] && [ "${#JIT_TASKS[@]}" -gt 0 ]; then
    tasks=("${JIT_TASKS[@]}")
    fresh=0
  else
    tasks=(/proc/"$1"/task/*)
    JIT_TASKS=()
  fi
  for t in "${tasks[@]}"; do
    { read -r line < "$t/stat"; } 2>/dev/null || continue
    name=${line:0:48}
    name=${name#*(}
    name=${name%)*}
    name=${name// /_}
    parse_stat "$line"
    if [ -n "$3" ]; then
      case "$name" in
        C1_Compiler* | C2_Compiler*)
          echo "$2 ${t##*/} $name $STAT_TICKS" >&"$3"
          [ -n "$4" ] || [ "$fresh" = 0 ] || JIT_TASKS+=("$t")
          ;;
      esac
    fi
    [ -z "$4" ] || echo "${t##*/} $name $STAT_TICKS" >&"$4"
  done
}
# Samples process PID every 250 ms until it ends (or turns zombie): "MILLIS TICKS" lines to FILE, and with the
# JIT_OUT / THREADS_OUT files named, sample_threads into them (a thread's last line is its CPU as of 250 ms or less
# before it ended; the compiler threads looked for among all every 2 s). Usage: sample_loop PID FILE
sample_loop() {
  local sfd ofd jfd="" tfd="" n=0
  JIT_TASKS=()
  exec {sfd}<> <(:) # a pipe nobody writes: read -t on it waits without a process
  exec {ofd}>> "$2"
  [ -z "${JIT_OUT:-}" ] || exec {jfd}>> "$JIT_OUT"
  [ -z "${THREADS_OUT:-}" ] || exec {tfd}>> "$THREADS_OUT"
  while stat_ticks "/proc/$1/stat" && [ "$STAT_STATE" != Z ]; do
    now_ms
    echo "$NOW_MS $STAT_TICKS" >&"$ofd"
    [ $((n++ % 8)) != 0 ] || JIT_TASKS=()
    [ -z "$jfd$tfd" ] || sample_threads "$1" "$NOW_MS" "$jfd" "$tfd"
    read -t 0.25 -u "$sfd" _ || true
  done
  exec {sfd}>&- {ofd}>&-
  [ -z "$jfd" ] || exec {jfd}>&-
  [ -z "$tfd" ] || exec {tfd}>&-
}

# Runs "$@" (stdout to $LOG, stderr to $LOG_ERR) in a subshell of its own, samples it with sample_loop into FILE while
# it runs, and prints its whole user+system ticks, start-up and shut-down included: that subshell's children's ticks,
# read once the command ended — the subshell starts no other process, and the sampler is not its child. With
# JIT_OUT / THREADS_OUT set, the samples of the command's threads go there too. Usage: measured FILE CMD...
measured() {
  local file=$1 pidf cpuf pid="" wrapper
  shift
  pidf=$(mktemp)
  cpuf=$(mktemp)
  (
    "$@" >> "$LOG" 2>> "$LOG_ERR" &
    echo "$!" > "$pidf"
    wait "$!" || true
    stat_ticks "/proc/$BASHPID/stat"
    echo "$STAT_CHILD_TICKS" > "$cpuf"
  ) &
  wrapper=$!
  local sfd
  exec {sfd}<> <(:)
  while [ -z "$pid" ] && kill -0 "$wrapper" 2>/dev/null; do
    { read -r pid < "$pidf"; } 2>/dev/null || true
    [ -n "$pid" ] || read -t 0.01 -u "$sfd" _ || true
  done
  exec {sfd}>&-
  [ -z "$pid" ] || sample_loop "$pid" "$file"
  wait "$wrapper" || true
  [ -s "$cpuf" ] || { echo "compare-kafka-tools.sh: no CPU figure for '$*' (its subshell ended early)" >&2; exit 1; }
  cat "$cpuf"
  rm -f "$pidf" "$cpuf"
}
# stdout and stderr apart: a line one of them prints in pieces cannot be cut by the other's
export LOG="$work/clients.log" LOG_ERR="$work/clients.err"

# Samples process PID into FILE every 250 ms until it ends (or the sampler is killed); with a JIT_FILE, also its JIT
# compiler threads' (sample_threads). Usage: sample_pid PID FILE [JIT_FILE]
sample_pid() { JIT_OUT=${3:-} THREADS_OUT="" sample_loop "$1" "$2"; }

# The client processes' JIT compiler threads' ticks over the run: from the jit-* files of DIR (each client process
# sampled with jit_threads), per thread its last sample, less its first in FROM_FIRST (the file of a process that
# ran before the run: the warm worker). Usage: client_jit DIR [FROM_FIRST]
client_jit() {
  python3 - "$1" "${2:-}" <<'PY'
import glob, os, sys
total = 0
for f in glob.glob(os.path.join(sys.argv[1], "jit-*")):
    first, last = {}, {}
    for line in open(f):
        p = line.split()
        if len(p) != 4 or not p[3].isdigit() or not p[2].startswith(("C1_Compiler", "C2_Compiler")):
            continue
        first.setdefault(p[1], int(p[3]))
        last[p[1]] = int(p[3])
    base = os.path.basename(f) == sys.argv[2]
    total += sum(v - (first[t] if base else 0) for t, v in last.items())
print(total)
PY
}

# records of the share case's short read (the fixed part of a side's CPU: start, group, shut-down)
short_read=20000
# The share case's read by SIDE of N records of TOPIC, as a command in the array SHARE_CMD: the tool's on GROUP (started
# at the log's beginning by reset_share_group first), kbench's (a new group of its own, from the beginning) writing
# its result to DIR; both with the tool's client settings and the run's class-data archive options (the caller's
# array archive). Usage: share_command SIDE TOPIC N GROUP DIR
share_command() {
  local common=(--bootstrap-server "$bootstrap" --topic "$2" --num-records "$3" --timeout 120000)
  if [ "$1" = tools ]; then
    SHARE_CMD=(java "${jvm[@]}" ${archive[@]+"${archive[@]}"} -cp "$tools_cp"
      org.apache.kafka.tools.ShareConsumerPerformance "${common[@]}" --group "$4")
  else
    SHARE_CMD=(java "${jvm[@]}" ${archive[@]+"${archive[@]}"} -jar "$kbench_jar" share-consumer-perf "${common[@]}"
      --fetch-size 1048576 --socket-buffer-size 2097152 --command-property check.crcs=false --output "$5")
  fi
}
# The class-data archive options (--cds) of the JVM ROLE plays in CASE's run I, in the array ARCHIVE: the warm-up run
# (I = 0) writes the archive as that JVM exits, the measured runs start from it; none without --cds.
# Usage: cds_archive ROLE CASE I (not in a command substitution: it exits the script when the archive is missing)
cds_archive() {
  local f="$work/cds/$2-$1.jsa"
  ARCHIVE=()
  [ "$cds" = 1 ] || return 0
  mkdir -p "$work/cds"
  if [ "$3" = 0 ]; then
    rm -f "$f"
    ARCHIVE=("-XX:ArchiveClassesAtExit=$f")
  else
    [ -s "$f" ] || { echo "compare-kafka-tools.sh: --cds: the $1 JVM of the $2 case's warm-up run made no class-data" \
      "archive" >&2; exit 1; }
    ARCHIVE=("-XX:SharedArchiveFile=$f")
  fi
  ARCHIVE+=(-Xlog:cds=off -Xlog:cds+dynamic=off)
}
# Starts the tool's share GROUP on TOPIC at the log's beginning. Usage: reset_share_group GROUP TOPIC
reset_share_group() {
  java -cp "$tools_cp" org.apache.kafka.tools.consumer.group.ShareGroupCommand --bootstrap-server "$bootstrap" \
      --reset-offsets --to-earliest --group "$1" --topic "$2" --execute >> "$LOG" 2>&1
}
# The last share perf row of FILE (start, end, MB, MB/s, records/s, records, fetch ms) as "N records sent, R
# records/sec"; empty when there is none. Usage: share_row FILE
share_row() {
  grep -E '^[0-9]{4}-[0-9-]+ [0-9:]+, [0-9-]+ [0-9:]+, [0-9.]+, [0-9.]+, [0-9.]+, [0-9]+, [0-9]+$' "$1" \
    | tail -1 | awk -F', ' '{print $6 " records sent, " $5 " records/sec"}'
}
# Stops the comparison when the kbench run that wrote DIR/result.json did not complete: a failed or stopped run's
# figures (the rate and counts of what it did before it ended) are not its side's result, and a median of them would
# compare a broken run with a whole one. The work directory is kept. Usage: kbench_completed DIR CASE I
kbench_completed() {
  local why
  why=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
if r.get("status") != "COMPLETED":
    print("%s: %s" % (r.get("status"), r.get("error") or "no error recorded"))' "$1/result.json" 2>&1) \
    || why="its result.json could not be read: $(printf '%s\n' "$why" | tail -1)"
  [ -z "$why" ] || { echo "compare-kafka-tools.sh: kbench's run $3 of $2 did not complete ($why); its figures are" \
    "not compared. See $LOG, $LOG_ERR and $1" >&2; keep=$work; exit 1; }
}
results="$work/results.tsv"
: > "$results"
has_consumer() { case "$1" in consumer|consumer-e2e|dist-consumer|dist-rate50k) return 0 ;; *) return 1 ;; esac; }

# One run: CASE SIDE I [PAIR] (PAIR: the warm-up pair a run of I = 0 belongs to, its topic's suffix: a deleted
# topic's name may not be free again at once). Appends "CASE SIDE RATE MSGS CLIENT_TICKS BROKER_TICKS SAMPLES_DIR
# SATURATED RPR REQUEST_TICKS JIT_TICKS CLIENT_JIT_TICKS SHORT_TICKS" to the
# results (SATURATED: kbench run's measured intervals flagged saturated, "N/M"; "-" for the others; RPR: the
# producer's records per produce request, its records-per-request-avg — kbench's mean over the measured intervals,
# the tool's at its end (--print-metrics) — "-" where there is no producer metric to read; REQUEST_TICKS and
# JIT_TICKS: the broker's request threads and JIT compiler threads over the run, thread_ticks; CLIENT_JIT_TICKS: the
# client processes' JIT compiler threads over the run, client_jit; SHORT_TICKS: the share case's short read of
# $short_read records by the same side, its whole CPU, "-" for the others and for warm-up runs).
run_one() {
  local case=$1 side=$2 i=$3 topic="perf-$1-$2-$3${4:+-w$4}" n rate cpu line b0 b1 sampler sat="-" rpr="-" t0 t1
  local samples="$work/samples/$1-$2-$3" props=() warm=0 tool_warm=()
  case "$case" in
    rate50k|dist-rate50k) n=$((50000 * seconds)); rate=50000 ;;
    *) n=$((1000000 * seconds)); rate=-1 ;;
  esac
  [ "$case" != dist-linger ] || props=(linger.ms=1 batch.size=131072)
  if [ "$case" = dist-rate50k ]; then
    warm=$((50000 * 5))
    n=$((n + warm))
    tool_warm=(--warmup-records "$warm")
  fi
  create_topic "$topic"
  rm -rf "$samples"
  mkdir -p "$samples"
  sample_pid "$broker_pid" "$samples/broker" &
  sampler=$!
  b0=$(proc_ticks "$broker_pid")
  t0=$(thread_ticks "$broker_pid")
  if [ "$case" = share ]; then
    n=$((100000 * seconds))
    java "${jvm[@]}" -cp "$tools_cp" org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$n" \
        --record-size 100 --throughput -1 --producer-props "bootstrap.servers=$bootstrap" >> "$LOG" 2>&1
    b0=$(proc_ticks "$broker_pid")
    t0=$(thread_ticks "$broker_pid")
    local archive=()
    cds_archive "$side" share "$i"
    archive=(${ARCHIVE[@]+"${ARCHIVE[@]}"})
    if [ "$side" = tools ]; then
      reset_share_group "perf-share-$topic" "$topic"
      b0=$(proc_ticks "$broker_pid")
      t0=$(thread_ticks "$broker_pid")
    fi
    share_command "$side" "$topic" "$n" "perf-share-$topic" "$work/kbench-$topic"
    cpu=$(THREADS_OUT="$samples/threads" JIT_OUT="$samples/jit-client" measured "$samples/client" "${SHARE_CMD[@]}")
    [ "$side" != kbench ] || kbench_completed "$work/kbench-$topic" "$case" "$i"
    line=$(share_row "$LOG")
  elif [ "$side" = tools ]; then
    local cons="" pa=() ca=()
    if [[ "$case" == dist* ]]; then
      cds_archive producer "$case" "$i"
      pa=(${ARCHIVE[@]+"${ARCHIVE[@]}"})
      if has_consumer "$case"; then
        cds_archive consumer "$case" "$i"
        ca=(${ARCHIVE[@]+"${ARCHIVE[@]}"})
      fi
    fi
    if has_consumer "$case"; then
      # the consumer's CPU counts as the client's too, as it does in kbench
      JIT_OUT="$samples/jit-consumer" measured "$samples/consumer" java "${jvm[@]}" ${ca[@]+"${ca[@]}"} -cp "$tools_cp" org.apache.kafka.tools.ConsumerPerformance \
          --bootstrap-server "$bootstrap" --topic "$topic" --messages "$n" --timeout 120000 > "$samples/consumer.ticks" &
      cons=$!
    fi
    : > "$samples/tool.out"
    cpu=$(LOG="$samples/tool.out" JIT_OUT="$samples/jit-producer" measured "$samples/client" java "${jvm[@]}" \
        ${pa[@]+"${pa[@]}"} -cp "$tools_cp" \
        org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$n" --record-size 100 \
        --throughput "$rate" "${tool_warm[@]}" --print-metrics --producer-props "bootstrap.servers=$bootstrap" \
        "${props[@]}")
    cat "$samples/tool.out" >> "$LOG"
    if [ -n "$cons" ]; then
      wait "$cons" || true
      cpu=$((cpu + $(cat "$samples/consumer.ticks")))
    fi
    line=$(grep -E '^[0-9]+ records sent' "$samples/tool.out" | tail -1)
    rpr=$(sed -nE 's/^producer-metrics:records-per-request-avg:\{client-id=[^}]*\} *: *([0-9.]+).*/\1/p' \
        "$samples/tool.out" | tail -1)
    [ -n "$rpr" ] || rpr="-"
  elif [ "$case" = rate50k ] || [ "$case" = unthrottled ]; then
    cpu=$(JIT_OUT="$samples/jit-client" measured "$samples/client" java "${jvm[@]}" -jar "$kbench_jar" producer-perf --topic "$topic" \
        --num-records "$n" --record-size 100 --throughput "$rate" --bootstrap-server "$bootstrap" \
        --output "$work/kbench-$topic")
    kbench_completed "$work/kbench-$topic" "$case" "$i"
    line=$(grep -E '^[0-9]+ records sent' "$LOG" | tail -1)
  else
    local consumers=0 stamp=true sets=() where=() wpid="" wsampler="" wport kv w0 coa=()
    ! has_consumer "$case" || consumers=1
    [ "$case" != consumer ] || stamp=false
    for kv in "${props[@]}"; do sets+=(--set "producer.$kv"); done
    if [[ "$case" == dist* ]]; then
      # a separate worker JVM, as on a client host: a new one for this run, its whole CPU (start-up included)
      # counted; with --warm-worker the one JVM that served the runs before (the warm-ups first), its CPU during
      # this run counted
      if [ "$warm_worker" = 1 ] && [ -n "$worker_pid" ] && kill -0 "$worker_pid" 2>/dev/null; then
        wpid=$worker_pid
        wport=$worker_port
      else
        wport=$(free_port)
        cds_archive worker "$case" "$i"
        java "${jvm[@]}" ${ARCHIVE[@]+"${ARCHIVE[@]}"} -jar "$kbench_jar" worker --bind 127.0.0.1 --port "$wport" --id w1 > "$samples/worker.log" 2>&1 &
        wpid=$!
        worker_pid=$wpid
        worker_port=$wport
        wait_for "$samples/worker.log" "listening" "$wpid" "the worker"
      fi
      w0=0
      [ "$warm_worker" = 0 ] || w0=$(proc_ticks "$wpid")
      sample_pid "$wpid" "$samples/worker" "$samples/jit-worker" &
      wsampler=$!
      where=(--workers "127.0.0.1:$wport")
      cds_archive coordinator "$case" "$i"
      coa=(${ARCHIVE[@]+"${ARCHIVE[@]}"})
    fi
    cat > "$work/w.yaml" <<EOF
name: vs-tools-$case
topicNames: [$topic]
existingTopics: true
messageSize: 100
producersPerTopic: 1
subscriptionsPerTopic: $consumers
consumersPerSubscription: 1
producerRate: $rate
numRecords: $n
stampMessages: $stamp
EOF
    [ "$warm" = 0 ] || echo "warmupRecords: $warm" >> "$work/w.yaml"
    cpu=$(JIT_OUT="$samples/jit-client" measured "$samples/client" java "${jvm[@]}" ${coa[@]+"${coa[@]}"} -jar "$kbench_jar" run "${where[@]}" \
        --bootstrap-servers "$bootstrap" "${sets[@]}" --output "$work/kbench-$topic" "$work/w.yaml")
    if [ -n "$wpid" ]; then
      cpu=$((cpu + $(proc_ticks "$wpid") - w0))
      if [ "$warm_worker" = 1 ]; then
        kill "$wsampler" 2>/dev/null || true
        wait "$wsampler" 2>/dev/null || true
      else
        kill "$wsampler" "$wpid" 2>/dev/null || true
        wait "$wsampler" "$wpid" 2>/dev/null || true
      fi
    fi
    [ -f "$work/kbench-$topic/result.json" ] \
      || { echo "compare-kafka-tools.sh: kbench run wrote no result ($case run $i); see $LOG and $LOG_ERR" >&2; keep=$work; exit 1; }
    kbench_completed "$work/kbench-$topic" "$case" "$i"
    line=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("%d records sent, %.1f records/sec" % (s["acked"], s["publishRate"]))' "$work/kbench-$topic/result.json")
    sat=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
m = [i for i in r["intervals"] if not i["warmup"] and i["startMillis"] < r["measureEndMillis"]]
print("%d/%d" % (sum(1 for i in m if i["saturated"]), len(m)))' "$work/kbench-$topic/result.json")
    rpr=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
v = [i["client"]["producer"]["records-per-request-avg"] for i in r["intervals"] if not i["warmup"]
     and (i.get("client") or {}).get("producer") and "records-per-request-avg" in i["client"]["producer"]]
print("%.1f" % (sum(v) / len(v)) if v else "-")' "$work/kbench-$topic/result.json")
  fi
  b1=$(proc_ticks "$broker_pid")
  t1=$(thread_ticks "$broker_pid")
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  # the share case's short read: the same side, a new group, the first $short_read records of the same topic, after
  # the broker's figures were taken; its CPU is the side's fixed cost (start, group, exit) with few records, so that
  # (whole - short) / (records - short_read) is the side's CPU per record beyond it (the summary's 'marginal')
  local short="-"
  if [ "$case" = share ] && [ "$i" != 0 ]; then
    local short_out="$samples/short.out"
    [ "$side" != tools ] || reset_share_group "perf-share-short-$topic" "$topic"
    share_command "$side" "$topic" "$short_read" "perf-share-short-$topic" "$work/kbench-short-$topic"
    short=$(LOG="$short_out" measured "$samples/short" "${SHARE_CMD[@]}")
    # a short read that failed early would pass its few ticks off as the side's fixed cost
    [ -n "$(share_row "$short_out")" ] || { echo "compare-kafka-tools.sh: the $side side's short read ($case run $i)" \
      "printed no row; see $short_out and $LOG_ERR" >&2; keep=$work; exit 1; }
  fi
  delete_topic "$topic"
  local got what=""
  got=$(echo "$line" | sed -E 's/^([0-9]+) records sent, ([0-9.]+) records\/sec.*/\1 \2/')
  [[ "$got" =~ ^[0-9]+\ [0-9.]+$ ]] \
    || { echo "compare-kafka-tools.sh: no result line from $side ($case run $i); see $LOG and $LOG_ERR" >&2; keep=$work; exit 1; }
  local cjit
  cjit=$(client_jit "$samples" "$([ "$warm_worker" = 1 ] && echo jit-worker)")
  echo "$case $side ${got#* } ${got% *} $cpu $((b1 - b0)) $samples $sat $rpr $((${t1% *} - ${t0% *})) $((${t1#* } - ${t0#* })) $cjit $short" \
      >> "$results"
  [ "$sat" = - ] || what=", saturated intervals $sat"
  printf '%-13s %-7s run %d: %12.1f msg/s, client %6.2f µs/msg (whole)%s\n' "$case" "$side" "$i" "${got#* }" \
      "$(echo "$cpu ${got% *} $ticks" | awk '{print $1 / $3 * 1e6 / $2}')" "$what" >&2
}

seconds_wanted=$seconds
seconds=$warmup_seconds
# A broker that first meets a case's traffic compiles for it for longer than one short warm-up run: its JIT threads
# spent 1.6-3.8 s in the first measured run after one 10-s pair (2026-12-03), and that run was always kbench's. So the
# warm-up pair (kbench, then the tools) runs again until the broker's JIT used at most WARMUP_JIT_SHARE of a core in
# each of the pair's runs, at most WARMUP_PAIRS pairs.
WARMUP_JIT_SHARE=0.02
WARMUP_PAIRS=5
echo "warming the broker up on each case's paths, $warmup_seconds s per side, until its JIT threads use at most" \
  "$WARMUP_JIT_SHARE of a core in a run ($WARMUP_PAIRS pairs at most; not counted) ..." >&2
for c in $cases; do
  [ "$c" != accuracy3 ] || continue
  for pair in $(seq 1 "$WARMUP_PAIRS"); do
    settled=1
    for side in kbench tools; do
      run_one "$c" "$side" 0 "$pair" 2>/dev/null
      # the broker's JIT seconds in the run, and their share of a core over the run (records / rate seconds)
      read -r jit share < <(tail -1 "$results" \
        | awk -v t="$ticks" '{s = $11 / t; d = ($3 > 0 ? $4 / $3 : 0); print s, (d > 0 ? s / d : 1)}')
      printf 'warm-up %-13s %-7s pair %d: broker JIT %.1f s (%.1f%% of a core)\n' "$c" "$side" "$pair" "$jit" \
          "$(awk -v x="$share" 'BEGIN {print 100 * x}')" >&2
      awk -v x="$share" -v m="$WARMUP_JIT_SHARE" 'BEGIN {exit !(x <= m)}' || settled=0
    done
    [ "$settled" = 0 ] || break
  done
  [ "$settled" = 1 ] || echo "warm-up $c: the broker's JIT had not settled after $WARMUP_PAIRS pairs; its first" \
    "measured runs may still pay for compilation (the 'broker JIT s' column shows it)" >&2
done
: > "$results"
seconds=$seconds_wanted
accuracy=""
for c in $cases; do
  if [ "$c" = accuracy3 ]; then
    echo "accuracy3: 3 worker JVMs at 10,000 and 100,000 msg/s (benchmarks/rate-accuracy.sh --bootstrap $bootstrap) ..." >&2
    accuracy=$("$here/benchmarks/rate-accuracy.sh" --bootstrap "$bootstrap" --jar "$kbench_jar" --rates "10000 100000" \
        --runs "$repeats")
    continue
  fi
  for i in $(seq 1 "$repeats"); do
    if [ $((i % 2)) = 1 ]; then
      run_one "$c" kbench "$i"
      run_one "$c" tools "$i"
    else
      run_one "$c" tools "$i"
      run_one "$c" kbench "$i"
    fi
  done
done

# --- summary -------------------------------------------------------------------------------------------
echo "kafka-tools $version and kbench $(java -jar "$kbench_jar" --version | sed 's/^kbench //'), one broker ($bootstrap), $repeats run(s) each, alternating; $(nproc) cores; client heap: ${heap:-the JVM default}; dist worker: $([ "$warm_worker" = 1 ] && echo "one JVM for every run (--warm-worker)" || echo "a new JVM per run"); share clients: $([ "$cds" = 1 ] && echo "a class-data archive each (--cds)" || echo "no class-data archive")"
[ ! -s "$results" ] || python3 - "$results" "$ticks" "$short_read" <<'EOF'
import glob, os, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ticks = float(sys.argv[2])
SHORT = int(sys.argv[3])

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
    for names in (("client", "consumer", "worker"), ("broker",)):
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

def jit_series(path):
    """[(ms, ticks)] of a jit-* file: at each sample, the ticks of every JIT compiler thread seen so far (a thread
    that ended keeps its last value: the JVM stops compiler threads it no longer needs)."""
    last, out = {}, []
    for line in open(path):
        p = line.split()
        if len(p) != 4 or not p[0].isdigit() or not p[3].isdigit():
            continue
        t = int(p[0])
        last[p[1]] = int(p[3])
        if out and out[-1][0] == t:
            out[-1] = (t, sum(last.values()))
        else:
            out.append((t, sum(last.values())))
    return out

def steady_jit(r):
    """µs of the client processes' JIT compiler threads' CPU per message over the middle half of the client's run
    (part of steady(r)[0]: what a new JVM still spends compiling then)."""
    d, rate = r[6], float(r[2])
    client = series(os.path.join(d, "client"))
    if len(client) < 8:
        return float("nan")
    t0, t1 = client[0][0], client[-1][0]
    a, b = t0 + 0.25 * (t1 - t0), t0 + 0.75 * (t1 - t0)
    cpu = 0.0
    for f in glob.glob(os.path.join(d, "jit-*")):
        s = jit_series(f)
        va, vb = at(s, a), at(s, b)
        if va is None or vb is None:
            return float("nan")
        cpu += (vb - va) / ticks
    return cpu / (rate * (b - a) / 1000.0) * 1e6

def broker_whole(r):
    """µs of the broker's CPU per message from the client's start to its exit (start-up and drain included)."""
    return float(r[5]) / ticks * 1e6 / float(r[3]) if float(r[3]) > 0 else float("nan")

def broker_requests(r):
    """µs of the broker's request threads' CPU per message over the whole client run (nan: not measured)."""
    return float(r[9]) / ticks * 1e6 / float(r[3]) if len(r) > 9 and float(r[3]) > 0 else float("nan")

def fmt(x):
    return "nan" if x != x else ("{:,.0f}".format(x) if x >= 1000 else "{:.2f}".format(x))

def spread(v):
    return "%s / %s / %s" % tuple(fmt(x) for x in (min(v), statistics.median(v), max(v)))

print("msg/s: acknowledged records per second as each tool prints it. CPU, µs per message: 'whole' = the client")
print("process(es) from start to exit, JVM start-up included; 'steady' = the middle half of the client's run")
print("(consumer, worker and coordinator included where there are); 'broker' = the broker over that same middle")
print("half, 'broker whole' = the broker from the client's start to its exit over every message, 'broker req' = its")
print("request threads (network processors and request handlers) over the same, and 'broker JIT s' the CPU seconds its")
print("JIT compiler threads spent meanwhile (compiling for the traffic it saw, not per message); 'client JIT s' the same")
print("for the client processes (a new JVM compiles its hot code in its first tens of seconds: at 50k msg/s that is")
print("much of a 20-s run's client CPU). rec/req: the")
print("producer's records per produce request (records-per-request-avg; the broker's work per message falls as it")
print("rises). saturated: kbench's measured intervals with publish delay p99 above 10 ms, of all (dist cases).")
print()
print("%-13s %-7s %4s  %-30s %-22s %-22s %-22s %-22s %-22s %-22s %-24s %-24s %s" % ("case", "side", "runs",
      "msg/s min / median / max", "whole min/med/max", "steady min/med/max", "broker min/med/max", "broker whole",
      "broker req", "broker JIT s", "client JIT s", "rec/req min/med/max", "saturated"))
cases = []
jit_lines = []
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
        bwhole = [broker_whole(r) for r in rs]
        rpr = [float(r[8]) for r in rs if len(r) > 8 and r[8] != "-"]
        breq = [broker_requests(r) for r in rs]
        jit = [float(r[10]) / ticks for r in rs if len(r) > 10]
        cjit = [float(r[11]) / ticks for r in rs if len(r) > 11]
        med[side] = [statistics.median(v) for v in (rate, whole, [x[0] for x in st], [x[1] for x in st], bwhole, breq)]
        sat = [r[7] for r in rs if len(r) > 7 and r[7] != "-"]
        sj = [x for x in (steady_jit(r) for r in rs) if x == x]
        if sj:
            jit_lines.append("  %-13s %-7s %s" % (c, side, spread(sj)))
        print("%-13s %-7s %4d  %-30s %-22s %-22s %-22s %-22s %-22s %-22s %-24s %-24s %s" % (c, side, len(rs), spread(rate),
              spread(whole), spread([x[0] for x in st]), spread([x[1] for x in st]), spread(bwhole), spread(breq),
              " ".join("%.1f" % x for x in jit) or "-", " ".join("%.1f" % x for x in cjit) or "-",
              spread(rpr) if rpr else "-", " ".join(sat) or "-"))
    # pairs: kbench run i and tools run i ran one after the other, so the machine's mood was alike
    ks = sorted((r for r in rows if r[0] == c and r[1] == "kbench"), key=lambda r: int(r[6].rsplit("-", 1)[1]))
    ts = sorted((r for r in rows if r[0] == c and r[1] == "tools"), key=lambda r: int(r[6].rsplit("-", 1)[1]))
    pair = [float(k[2]) / float(t[2]) for k, t in zip(ks, ts) if float(t[2]) > 0]
    pair_cpu = [steady(k)[0] / steady(t)[0] for k, t in zip(ks, ts) if steady(t)[0] > 0]
    pair_broker = [steady(k)[1] / steady(t)[1] for k, t in zip(ks, ts) if steady(t)[1] > 0]
    pair_bwhole = [broker_whole(k) / broker_whole(t) for k, t in zip(ks, ts) if broker_whole(t) > 0]
    pair_breq = [broker_requests(k) / broker_requests(t) for k, t in zip(ks, ts) if broker_requests(t) > 0]
    ratios.append((c, [k / t if t else float("nan") for k, t in zip(med["kbench"], med["tools"])],
                   (pair, pair_cpu, pair_broker, pair_bwhole, pair_breq)))
if jit_lines:
    print()
    print("of 'steady', the client processes' JIT compiler threads over the same middle half, µs per message, min /")
    print("median / max (a new JVM is still compiling its hot code there; less of it the longer the run):")
    print("\n".join(jit_lines))
def consumer_threads(r):
    """The share case: CPU µs per record of the consumer's own threads: the Kafka client's background thread and the
    thread that polls it (the tool's pool-N-thread-M, kbench's kbench-consumer-N), each at its last sample."""
    path = os.path.join(r[6], "threads")
    if not os.path.exists(path):
        return float("nan")
    last = {}
    for l in open(path):
        p = l.split()
        if len(p) == 3 and p[2].isdigit():
            last[p[0]] = (p[1], int(p[2]))
    names = ("consumer_backgr", "kbench-consumer", "pool-")
    ticks_used = sum(v for n, v in last.values() if n.startswith(names))
    return ticks_used / ticks * 1e6 / float(r[3])

share_rows = [r for r in rows if r[0] == "share"]
if share_rows:
    print()
    print("share: CPU µs per record of the consumer's own threads (the Kafka client's background thread and the thread")
    print("that polls it), whole run; the rest of 'whole' is JIT compilation, start-up, and for kbench its coordinator,")
    print("gRPC and the Admin reads of the group's backlog:")
    for side in ("kbench", "tools"):
        v = [consumer_threads(r) for r in share_rows if r[1] == side]
        v = [x for x in v if x == x]
        if v:
            print("  %-7s %s" % (side, spread(v)))
    ks = sorted((r for r in share_rows if r[1] == "kbench"), key=lambda r: int(r[6].rsplit("-", 1)[1]))
    ts = sorted((r for r in share_rows if r[1] == "tools"), key=lambda r: int(r[6].rsplit("-", 1)[1]))
    pair = [consumer_threads(k) / consumer_threads(t) for k, t in zip(ks, ts) if consumer_threads(t) > 0]
    pair = [x for x in pair if x == x]
    if pair:
        print("  kbench / tools per run pair: %s" % " ".join("%.2f" % x for x in pair))
    # fixed and marginal: each run's side also read the first SHORT records with a new group (column 13)
    def short_s(r):
        return float(r[12]) / ticks if len(r) > 12 and r[12] != "-" else float("nan")
    def marginal(r):
        n = float(r[3]) - SHORT
        return (float(r[4]) - float(r[12])) / ticks * 1e6 / n if short_s(r) == short_s(r) and n > 0 else float("nan")
    if any(short_s(r) == short_s(r) for r in share_rows):
        # the per-record part must stand out of the fixed part's run-to-run spread (about half a second here): with
        # fewer than 50 times the short read's records, the difference of the two is that spread, not a cost
        enough = all(float(r[3]) >= 50 * SHORT for r in share_rows)
        print()
        print("share: each run's side read the first %d records again with a new group right after (same options):" % SHORT)
        print("its whole CPU is the side's fixed cost — JVM start, group start, shut-down, few records; 'marginal' =")
        print("(whole run - short read) / (records - %d), µs of CPU per record beyond that fixed cost:" % SHORT)
        for side in ("kbench", "tools"):
            f = [x for x in (short_s(r) for r in share_rows if r[1] == side) if x == x]
            m = [x for x in (marginal(r) for r in share_rows if r[1] == side) if x == x]
            if f:
                print("  %-7s fixed s %s   marginal µs/record %s" % (side, spread(f), spread(m) if m and enough else "-"))
        pf = [short_s(k) / short_s(t) for k, t in zip(ks, ts) if short_s(t) > 0]
        pm = [marginal(k) / marginal(t) for k, t in zip(ks, ts) if marginal(t) > 0 and marginal(k) > 0]
        if pf:
            print("  kbench / tools per run pair: fixed %s; marginal %s" % (" ".join("%.2f" % x for x in pf),
                  " ".join("%.2f" % x for x in pm) if pm and enough else "-"))
        if not enough:
            print("  (no marginal figure: a read of fewer than %d records — --seconds 10 or more — leaves the per-record"
                  % (50 * SHORT))
            print("  part within the fixed part's run-to-run spread)")
print()
print("kbench / tools, ratio of the medians [range of the ratios of runs i, which ran one after the other]:")
def rng(v):
    v = [x for x in v if x == x]
    return "[%.2f-%.2f]" % (min(v), max(v)) if v else "[-]"
for c, (rate, whole, client, broker, bwhole, breq), (pair, pair_cpu, pair_broker, pair_bwhole, pair_breq) in ratios:
    print("  %-13s rate %.2fx %s   client CPU/msg: whole %.2fx, steady %.2fx %s   broker CPU/msg %.2fx %s, whole run "
          "%.2fx %s, request threads %.2fx %s" % (c, rate, rng(pair), whole, client, rng(pair_cpu), broker, rng(pair_broker),
                                                 bwhole, rng(pair_bwhole), breq, rng(pair_breq)))
EOF
if [ -n "$accuracy" ]; then
  echo
  echo "accuracy3: 3 worker JVMs sharing the rate (benchmarks/rate-accuracy.sh), 100 B, 6 partitions, 1 consumer:"
  echo "$accuracy"
fi
