#!/usr/bin/env bash
# Cold start: seconds from `bin/kbench run workloads/quickstart.yaml` to each of its first lines, side by side
# with an older build.
#
#   benchmarks/cold-start.sh [--ref GIT-REV] [--runs N]
#
# Runs `bin/kbench run workloads/quickstart.yaml --duration 2 --warmup 0` of this tree N times (default 3)
# and, with --ref, the same command of that git revision (checked out in a temporary worktree and built by
# its own bin/kbench, class-data archive included), alternating: this build, the ref, this build, ...
# Per run it prints when the broker was ready, when prepare ended, and when the first progress line came
# (the figure docs/performance.md quotes), each counted from the launch of bin/kbench. Each build is built,
# and its archive made, before the first measured run, so no run pays for a build.
#
# Needs: JDK 17+, Maven (to build kbench and the ref), git, Linux.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ref=""
runs=3
usage() { echo "usage: $0 [--ref GIT-REV] [--runs N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) [ $# -ge 2 ] || usage; ref=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "cold-start.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$runs" =~ ^[1-9]$ ]] || { echo "cold-start.sh: --runs must be 1 to 9, got '$runs'" >&2; exit 2; }
if [ -n "$ref" ]; then
  git -C "$here" rev-parse --verify --quiet "$ref^{commit}" >/dev/null \
    || { echo "cold-start.sh: --ref '$ref' is not a commit of $here" >&2; exit 2; }
fi

work=$(mktemp -d /tmp/kbench-cold-start.XXXXXX)
tree=""
cleanup() {
  [ -z "$tree" ] || git -C "$here" worktree remove --force "$tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

declare -A home=([new]="$here")
sides=(new)
if [ -n "$ref" ]; then
  tree="$work/ref-tree"
  git -C "$here" worktree add --force --detach "$tree" "$ref" >/dev/null 2>&1
  home[ref]="$tree"
  sides+=(ref)
fi
for side in "${sides[@]}"; do
  echo "building $side (and its class-data archive) ..." >&2
  "${home[$side]}/bin/kbench" --version >&2 || { echo "cold-start.sh: building $side failed" >&2; exit 1; }
  # the archive is made on the first run command; one unmeasured run makes it
  "${home[$side]}/bin/kbench" run "$here/workloads/quickstart.yaml" --duration 1 --warmup 0 \
    --output "$work/warm-$side" >"$work/warm-$side.log" 2>&1 \
    || { tail -5 "$work/warm-$side.log" >&2; echo "cold-start.sh: the unmeasured run of $side failed" >&2; exit 1; }
done

now() { date +%s.%N; }
printf '%-4s %3s %14s %14s %20s\n' side run "broker ready s" "prepared s" "first progress s"
for i in $(seq 1 "$runs"); do
  for side in "${sides[@]}"; do
    log="$work/$side-$i.log"
    start=$(now)
    "${home[$side]}/bin/kbench" run "$here/workloads/quickstart.yaml" --duration 2 --warmup 0 \
      --output "$work/out-$side-$i" 2>&1 | while IFS= read -r line; do
        printf '%s %s\n' "$(now)" "$line"; done >"$log"
    at() { awk -v s="$start" -v re="$1" '$0 ~ re { printf "%.2f", $1 - s; exit }' "$log"; }
    printf '%-4s %3d %14s %14s %20s\n' "$side" "$i" "$(at 'broker ready')" "$(at 'prepare: ready')" \
      "$(at ' 1s \\| pub')"
  done
done
