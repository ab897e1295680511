#!/usr/bin/env bash
# Builds the kbench container image (one image for worker and coordinator) without pulling anything: its
# root file system is assembled here from the release archive, a jlink-ed Java runtime made from this
# machine's JDK, and the few glibc files that runtime links, then imported as an image.
#
#   deployment/container/build-image.sh [--tool docker|podman] [--tag NAME:TAG] [ARCHIVE]
#
# ARCHIVE defaults to distribution/target/kbench-<version>.tar.gz (mvn package builds it). The image runs
# as uid 10001 (user kbench), its entrypoint is the JVM with kbench's main class, the heap sized at 75% of
# the container's memory limit (JDK_JAVA_OPTIONS adds JVM options); mount the cluster token and TLS files
# read-only, e.g. -v /etc/kbench/token:/etc/kbench/token:ro. See docs/container.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tool=""
tag=""
archive=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool|--tag)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "build-image.sh: $1 needs a value (see --help)" >&2; exit 2; }
      if [ "$1" = --tool ]; then tool="$2"; else tag="$2"; fi
      shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-image.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) archive="$1"; shift ;;
  esac
done
if [ -z "$archive" ]; then
  archive="$(ls "$root"/distribution/target/kbench-*.tar.gz 2>/dev/null | head -1 || true)"
  [ -n "$archive" ] || { echo "build-image.sh: no release archive in distribution/target: run 'mvn -DskipTests package' first" >&2; exit 2; }
fi
[ -f "$archive" ] || { echo "build-image.sh: $archive: no such file" >&2; exit 2; }
if [ -z "$tool" ]; then
  for t in docker podman; do command -v "$t" >/dev/null 2>&1 && { tool="$t"; break; }; done
  [ -n "$tool" ] || { echo "build-image.sh: neither docker nor podman is installed" >&2; exit 2; }
fi
case "$tool" in docker|podman) ;; *) echo "build-image.sh: --tool must be docker or podman, not $tool" >&2; exit 2 ;; esac
command -v "$tool" >/dev/null 2>&1 || { echo "build-image.sh: $tool is not installed" >&2; exit 2; }
"$tool" info >/dev/null 2>&1 || { echo "build-image.sh: $tool cannot reach its engine (for docker: is dockerd running?)" >&2; exit 2; }
command -v jlink >/dev/null || { echo "build-image.sh: jlink (a JDK 17+) is needed" >&2; exit 2; }
version="$(basename "$archive" .tar.gz)"; version="${version#kbench-}"
[ -n "$tag" ] || tag="kbench:$version"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fs="$work/rootfs"
mkdir -p "$fs/opt" "$fs/etc" "$fs/tmp" "$fs/home/kbench" "$fs/etc/kbench"
chmod 1777 "$fs/tmp"

# kbench itself (the JVM is the entrypoint: no shell in the image)
tar -xzf "$archive" -C "$work"
mkdir -p "$fs/opt/kbench"
cp -r "$work/kbench-$version/lib" "$work/kbench-$version/workloads" "$work/kbench-$version/LICENSE" "$fs/opt/kbench/"

# a Java runtime with the modules kbench, gRPC, Netty, Vert.x and the embedded broker use
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.management.rmi
modules=$modules,java.naming,java.net.http,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql
modules=$modules,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.naming.dns,jdk.security.auth,jdk.unsupported,jdk.zipfs
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$fs/opt/java"
# a runtime made from a distribution JDK may link its CA store to the host's: copy the file itself
if [ -L "$fs/opt/java/lib/security/cacerts" ]; then
  cp --remove-destination "$(readlink -f "$fs/opt/java/lib/security/cacerts")" "$fs/opt/java/lib/security/cacerts"
fi

# the shared libraries the runtime links (glibc, zlib, ...), with the dynamic loader
for f in "$fs"/opt/java/bin/java "$fs"/opt/java/lib/*.so "$fs"/opt/java/lib/server/*.so; do
  ldd "$f" 2>/dev/null | awk '/=>/ && $3 ~ /^\// {print $3} /^\s*\/.*ld-linux/ {print $1}'
done | sort -u | while read -r lib; do
  mkdir -p "$fs$(dirname "$lib")"
  cp -L "$lib" "$fs$lib"
done
loader="$(ldd "$fs/opt/java/bin/java" | awk '/ld-linux/ {print $1}')"
[ -f "$fs$loader" ] || { mkdir -p "$fs$(dirname "$loader")"; cp -L "$loader" "$fs$loader"; }
case "$loader" in /lib64/*) ;; *) mkdir -p "$fs/lib64" && cp -L "$loader" "$fs/lib64/" ;; esac

# users, name resolution
printf 'root:x:0:0:root:/root:/sbin/nologin\nkbench:x:10001:10001:kbench:/home/kbench:/sbin/nologin\n' > "$fs/etc/passwd"
printf 'root:x:0:\nkbench:x:10001:\n' > "$fs/etc/group"
printf 'hosts: files dns\n' > "$fs/etc/nsswitch.conf"
chown -R 10001:10001 "$fs/home/kbench" 2>/dev/null || true

# huge pages for the heap where the host's kernel gives them on request (distribution/src/main/dist/bin/jvm-options
# says why); the image has no shell to look first, so the JVM's warning on a host without them is turned off
entry='["/opt/java/bin/java","-XX:MaxRAMPercentage=75","-XX:+ExitOnOutOfMemoryError","-XX:+UseTransparentHugePages","-Xlog:pagesize=off","-cp","/opt/kbench/lib/*","io.kbench.cli.Main"]'
tar --numeric-owner -C "$fs" -c . | "$tool" import \
  --change "USER 10001:10001" \
  --change "WORKDIR /home/kbench" \
  --change "ENV JAVA_HOME=/opt/java" \
  --change "ENTRYPOINT $entry" \
  --change 'CMD ["--help"]' \
  --change "EXPOSE 7070 9400 8080" \
  --change "LABEL org.opencontainers.image.title=kbench org.opencontainers.image.version=$version org.opencontainers.image.licenses=Apache-2.0" \
  - "$tag" >/dev/null
size="$("$tool" image inspect --format '{{.Size}}' "$tag")"
echo "built $tag with $tool: $((size / 1024 / 1024)) MiB ($(du -sh "$fs/opt/java" | cut -f1) Java runtime, $(du -sh "$fs/opt/kbench" | cut -f1) kbench)"
