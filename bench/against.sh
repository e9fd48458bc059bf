#!/usr/bin/env bash
# The cached home page of two builds side by side, and nginx serving the
# newer one's bytes from memory (gzip_static), on loopback: what `make
# bench`'s nginx comparison says of one build, for two, in one run; then
# the two builds' page handler, past the fast path.
#
#   bench/against.sh OLD_BIN [NEW_BIN]    (NEW_BIN: target/release/site)
#
# Build the old commit's release binary in a worktree of its own (its own
# CARGO_TARGET_DIR, a copy of this one's `release/` to start warm). Each of
# ROUNDS rounds (3) runs wrk (64 connections, BENCH_SECONDS s, gzip) against
# the old build, the new one and nginx in turn and prints their requests/s
# and p99; then the new build's requests/s against the old one's and
# against nginx's, per round. Then the same for what the page handler
# answers past the fast path (AGAINST_PAGE, a list page in Swahili): a
# revalidation with an ETag no longer current, and a signed-in view.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
OLD=${1:?usage: bench/against.sh OLD_BIN [NEW_BIN]}
NEW=${2:-target/release/site}
ROUNDS=${ROUNDS:-3}
# The page the page handler's rounds ask for.
PAGE=${AGAINST_PAGE:-/sw/news-events?page=2}
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

run() { # url [wrk option…]: "req/s p99-ms"
  local out url=$1
  shift
  out=$(wrk -t2 -c64 -d"${DURATION}s" --latency -H 'Accept-Encoding: gzip' "$@" "$url")
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

# Past the fast path, where the page handler decides: a browser revalidating
# a list page with an ETag no longer current (the page for everyone, from
# the page cache), and a signed-in subscriber's view of the same page (that
# page with their own parts put in).
OLD_COOKIE=$(sign_in "$OLD_BASE" 0754000001)
NEW_COOKIE=$(sign_in "$NEW_BASE" 0754000001)
echo
echo "the page handler, $PAGE (gzip, 64 connections, ${DURATION} s each, in turn): revalidated, and signed in"
printf '%-6s %-12s %12s %9s %12s %9s %9s\n' round visitor "old req/s" "p99 ms" "new req/s" "p99 ms" "new/old"
for round in $(seq "$ROUNDS"); do
  for visitor in revalidated signed-in; do
    if [ "$visitor" = revalidated ]; then
      read -r OR OP <<<"$(run "$OLD_BASE$PAGE" -H 'If-None-Match: "superseded"')"
      read -r NR NP <<<"$(run "$NEW_BASE$PAGE" -H 'If-None-Match: "superseded"')"
    else
      read -r OR OP <<<"$(run "$OLD_BASE$PAGE" -H "Cookie: $OLD_COOKIE")"
      read -r NR NP <<<"$(run "$NEW_BASE$PAGE" -H "Cookie: $NEW_COOKIE")"
    fi
    awk -v n="$round" -v v="$visitor" -v or="$OR" -v op="$OP" -v nr="$NR" -v np="$NP" \
      'BEGIN { printf "%-6d %-12s %12.0f %9.3f %12.0f %9.3f %8.2fx\n", n, v, or, op, nr, np, nr/or }'
  done
done
