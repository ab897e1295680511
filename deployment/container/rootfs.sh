#!/usr/bin/env bash
# Assembles the kbench image's root file system in OUT from the release archive: kbench (lib/, the shipped
# workloads and client profiles, LICENSE, NOTICE and the bundled libraries' licences) under /opt/kbench, a Java
# runtime jlink-ed from this machine's JDK under /opt/java, the shared libraries that runtime links (glibc, zlib,
# with the dynamic loader), /etc/passwd and /etc/group with user kbench (uid 10001). No shell, no package manager.
#
#   deployment/container/rootfs.sh ARCHIVE OUT
#
# build-image.sh runs it on the build machine and imports OUT; the Dockerfile beside it runs it in a JDK image's
# build stage and copies OUT into an image made from scratch: both images hold the same files.
set -euo pipefail
[ $# -eq 2 ] || { echo "rootfs.sh: usage: rootfs.sh ARCHIVE OUT" >&2; exit 2; }
archive="$1"
fs="$2"
[ -f "$archive" ] || { echo "rootfs.sh: $archive: no such file" >&2; exit 2; }
command -v jlink >/dev/null || { echo "rootfs.sh: jlink (a JDK 17+) is needed" >&2; exit 2; }
if [ -e "$fs" ] && [ -n "$(ls -A "$fs" 2>/dev/null)" ]; then
  echo "rootfs.sh: $fs is not empty" >&2
  exit 2
fi
version="$(basename "$archive" .tar.gz)"; version="${version#kbench-}"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
mkdir -p "$fs/opt" "$fs/etc" "$fs/tmp" "$fs/home/kbench" "$fs/etc/kbench"
chmod 1777 "$fs/tmp"

# kbench itself (the JVM is the entrypoint: no shell in the image)
tar -xzf "$archive" -C "$unpacked"
home="$unpacked/kbench-$version"
[ -d "$home/lib" ] || { echo "rootfs.sh: $archive has no kbench-$version/lib: not a kbench release archive" >&2; exit 2; }
mkdir -p "$fs/opt/kbench/deployment"
cp -r "$home/lib" "$home/workloads" "$home/LICENSE" "$home/NOTICE" "$home/THIRD-PARTY.txt" "$home/licenses" "$fs/opt/kbench/"
cp -r "$home/deployment/kafka" "$fs/opt/kbench/deployment/"

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
