# Shared by the benchmark scripts that start kbench processes on loopback (sourced, not run).
# Set SCRIPT to the calling script's name first: it prefixes every message.

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_for FILE TEXT PID WHAT: waits up to 120 s until FILE contains TEXT; exits 1 (with FILE shown) when the
# process PID ends first or the time runs out.
wait_for() {
  for _ in $(seq 1 240); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { cat "$1" >&2; echo "$SCRIPT: $4 did not start" >&2; exit 1; }
    sleep 0.5
  done
  echo "$SCRIPT: $4 did not start within 120 s" >&2; exit 1
}
