#!/usr/bin/env bash
# The cached home page of two builds side by side, and nginx serving the
# newer one's bytes from memory (gzip_static), on loopback: what `make
# bench`'s nginx comparison says of one build, for two, in one run.
#
#   bench/against.sh OLD_BIN [NEW_BIN]    (NEW_BIN: target/release/site)
#
# Build the old commit's release binary in a worktree of its own (its own
# CARGO_TARGET_DIR, a copy of this one's `release/` to start warm). Each of
# ROUNDS rounds (3) runs wrk (64 connections, BENCH_SECONDS s, gzip) against
# the old build, the new one and nginx in turn and prints their requests/s
# and p99; then the new build's requests/s against the old one's and
# against nginx's, per round.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
OLD=${1:?usage: bench/against.sh OLD_BIN [NEW_BIN]}
NEW=${2:-target/release/site}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d)
cleanup() { stop_started; rm -rf "$WORK"; }
trap cleanup EXIT

start_site old "$OLD"; wait_prerendered "$BASE"; OLD_BASE=$BASE
start_site new "$NEW"; wait_prerendered "$BASE"; NEW_BASE=$BASE

NGINX_PORT=$(free_port)
mkdir -p "$WORK/www"
curl -s "$NEW_BASE/" -o "$WORK/www/index.html"
curl -s -H 'Accept-Encoding: gzip' "$NEW_BASE/" -o "$WORK/www/index.html.gz"
bench/static-nginx.sh "$WORK" "$NGINX_PORT" &
PIDS+=($!)
wait_for "http://127.0.0.1:$NGINX_PORT/" 50 || true

run() { # url: "req/s p99-ms"
  local out
  out=$(wrk -t2 -c64 -d"${DURATION}s" --latency -H 'Accept-Encoding: gzip' "$1")
  local rps p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}' <<<"$out")
  echo "$rps $p99"
}
echo "cached / (gzip, 64 connections, ${DURATION} s each, in turn): old $OLD, new $NEW, nginx on the new one's bytes"
printf '%-6s %12s %9s %12s %9s %12s %9s %9s %9s\n' round "old req/s" "p99 ms" "new req/s" "p99 ms" "nginx r/s" "p99 ms" "new/old" "new/ngx"
for round in $(seq "$ROUNDS"); do
  read -r OR OP <<<"$(run "$OLD_BASE/")"
  read -r NR NP <<<"$(run "$NEW_BASE/")"
  read -r XR XP <<<"$(run "http://127.0.0.1:$NGINX_PORT/")"
  awk -v n="$round" -v or="$OR" -v op="$OP" -v nr="$NR" -v np="$NP" -v xr="$XR" -v xp="$XP" \
    'BEGIN { printf "%-6d %12.0f %9.3f %12.0f %9.3f %12.0f %9.3f %8.2fx %8.2fx\n", n, or, op, nr, np, xr, xp, nr/or, nr/xr }'
done
