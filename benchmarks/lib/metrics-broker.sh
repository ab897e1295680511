# Sourced by the scrape-cost benchmarks: start_metrics_broker HERE WORK starts one `kbench broker` (in the
# background, output in WORK/broker.log) with a JMX port and Prometheus's JMX exporter agent attached
# (deployment/prometheus/jmx-exporter-kbench.yaml), waits until the broker is ready and the exporter answers, and sets
#   kafka, jmx, exporter  its ports on 127.0.0.1
#   broker                the PID of the launched bin/kbench (it execs java: the broker's JVM, or its parent)
start_metrics_broker() {
  local here=$1 work=$2
  local agent="$work/jmx_prometheus_javaagent.jar"
  (cd "$here" && mvn -B -q -ntp dependency:copy -Dartifact=io.prometheus.jmx:jmx_prometheus_javaagent:1.0.1 \
      -DoutputDirectory="$work" -Dmdep.stripVersion=true) >/dev/null
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
  kafka=$(free_port); jmx=$(free_port); exporter=$(free_port)
  KBENCH_JAVA_OPTS="-javaagent:$agent=127.0.0.1:$exporter:$here/deployment/prometheus/jmx-exporter-kbench.yaml \
    -Dcom.sun.management.jmxremote.port=$jmx -Dcom.sun.management.jmxremote.rmi.port=$jmx \
    -Dcom.sun.management.jmxremote.host=127.0.0.1 -Djava.rmi.server.hostname=127.0.0.1 \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false" \
    "$here/bin/kbench" broker --port "$kafka" >"$work/broker.log" 2>&1 &
  broker=$!
  local _
  for _ in $(seq 1 120); do
    # the agent answers as the JVM starts, before the broker does: both are needed
    curl -sf "http://127.0.0.1:$exporter/metrics" -o /dev/null && grep -q "kafka broker ready" "$work/broker.log" \
      && return 0
    sleep 0.5
  done
  echo "the broker or its exporter did not answer within 60 s; its log: $work/broker.log" >&2
  return 1
}
