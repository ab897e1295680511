#!/usr/bin/env bash
# Builds the kbench container image (one image for worker and coordinator) without pulling anything: its
# root file system is assembled here by rootfs.sh from the release archive (kbench, a jlink-ed Java runtime
# made from this machine's JDK, the few glibc files that runtime links), then imported as an image with the
# settings of the Dockerfile beside this script (for builders with a registry: it makes the same image).
#
#   deployment/container/build-image.sh [--tool docker|podman] [--tag NAME:TAG] [--source URL] [ARCHIVE]
#
# ARCHIVE defaults to distribution/target/kbench-<version>.tar.gz (mvn package builds it). --source sets the
# org.opencontainers.image.source label (default: this checkout's git remote 'origin' when it is a URL); the
# revision label is the commit the archive was built from. The image runs as uid 10001 (user kbench), its
# entrypoint is the JVM with kbench's main class, the heap sized at 75% of the container's memory limit
# (KBENCH_JAVA_OPTS adds JVM options, as for the archive's bin/kbench); mount the cluster token and TLS files
# read-only, e.g. -v /etc/kbench/token:/etc/kbench/token:ro. See docs/container.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tool=""
tag=""
source=""
archive=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool|--tag|--source)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "build-image.sh: $1 needs a value (see --help)" >&2; exit 2; }
      case "$1" in --tool) tool="$2" ;; --tag) tag="$2" ;; *) source="$2" ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-image.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) archive="$1"; shift ;;
  esac
done
case "$source" in ''|http://*|https://*|git@*|ssh://*) ;; *) echo "build-image.sh: --source must be a URL, not $source" >&2; exit 2 ;; esac
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

if [ -z "$source" ]; then
  origin="$(git -C "$root" remote get-url origin 2>/dev/null || true)"
  case "$origin" in http://*|https://*|git@*|ssh://*) source="$origin" ;; esac
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fs="$work/rootfs"
bash "$here/rootfs.sh" "$archive" "$fs"

# the commit the archive was built from, "-dirty" when its tree had changes, as kbench --version says it
# (git.properties in kbench's protocol jar)
tar -xzf "$archive" -C "$work" --wildcards "kbench-$version/lib/kbench-protocol-*.jar"
revision=""
if (cd "$work" && jar xf kbench-"$version"/lib/kbench-protocol-*.jar io/kbench/protocol/git.properties) 2>/dev/null; then
  props="$work/io/kbench/protocol/git.properties"
  revision="$(sed -n 's/^git\.commit\.id=//p' "$props")"
  [ -n "$revision" ] && grep -qx 'git.dirty=true' "$props" && revision="$revision-dirty"
fi

# the image's settings: the Dockerfile's lines after its last FROM's COPY, with the build arguments filled in
changes=()
while IFS= read -r line; do
  line="${line//\$\{VERSION\}/$version}"
  line="${line//\$\{REVISION\}/$revision}"
  line="${line//\$\{SOURCE\}/$source}"
  changes+=(--change "$line")
done < <(sed -n '/^COPY --from=rootfs/,$p' "$here/Dockerfile" | grep -E '^(USER|WORKDIR|ENV|ENTRYPOINT|CMD|EXPOSE|LABEL) ')
[ ${#changes[@]} -ge 14 ] || { echo "build-image.sh: $here/Dockerfile lacks the image's settings" >&2; exit 2; }
tar --numeric-owner -C "$fs" -c . | "$tool" import "${changes[@]}" - "$tag" >/dev/null
size="$("$tool" image inspect --format '{{.Size}}' "$tag")"
echo "built $tag with $tool: $((size / 1024 / 1024)) MiB ($(du -sh "$fs/opt/java" | cut -f1) Java runtime, $(du -sh "$fs/opt/kbench" | cut -f1) kbench)"
