#!/usr/bin/env bash
# Memory after hostile traffic, on loopback (`make bench-memory`): starts the
# release server with its embedded defaults, waits for the pre-render pass,
# then runs what an attacker's tools send, one phase after another, and
# prints the server's RSS after each and after a quiet minute:
#   1. slowhttptest: slow headers, slow bodies and slow readers (apt);
#   2. addresses nobody links to: random paths, item ids, query strings and
#      junk cookies (wrk with bench/requests/hostile.lua);
#   3. wapiti's crawl and scan of every URL and form (apt), when installed
#      (it fails to download its fingerprint database here, harmlessly);
#   4. phases 1 and 2 again: what a second attack adds.
# Beside RSS: the requests answered so far and the page cache's bytes (from
# `/metrics`), and the allocator's own view (`/healthz?detail` memory: what
# the Rust code holds, and the pages jemalloc keeps for it; a build before
# jemalloc prints none), so a run says where the memory went and runs with
# different request counts can be compared.
# Everything started is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

SECONDS_PER_PHASE=${BENCH_SECONDS:-20}
WAPITI_MINUTES=${WAPITI_MINUTES:-3}
PORT=$(free_port)
METRICS_PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
WORK=$(mktemp -d)
mkdir -p "$WORK/data"
PORT=$PORT METRICS_ADDR=127.0.0.1:$METRICS_PORT HOST=127.0.0.1 SITE_URL=$BASE DATA_DIR=$WORK/data RUST_LOG=warn "$BIN" >"$WORK/site.log" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  pkill -f "slowhttptest.*127.0.0.1:$PORT" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
wait_for "$BASE/healthz" || true
wait_prerendered "$BASE"

rss_mb() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$PID/status"; }
allocated() {
  curl -s "$BASE/healthz?detail" | python3 -c '
import json, sys
m = json.load(sys.stdin).get("memory")
print("jemalloc %.1f MB allocated, %.1f MB resident" % (m["allocatedBytes"] / 2**20, m["residentBytes"] / 2**20) if m else "")'
}
counted() {
  curl -s "http://127.0.0.1:$METRICS_PORT/metrics" | python3 -c '
import sys
requests, pages = 0, 0
for line in sys.stdin:
    # The fast path answers outside the request metrics: both are counted.
    if line.startswith(("http_requests_total", "page_fast_hits_total")):
        requests += float(line.split()[-1])
    elif line.startswith("page_cache_bytes"):
        pages = float(line.split()[-1])
print("%8d requests  pages %5.1f MB" % (requests, pages / 2**20))'
}
report() { # phase
  local rss
  rss=$(rss_mb)
  printf '%-40s RSS %6s MB (%+6.1f)  %s  %s\n' "$1" "$rss" "$(python3 -c "print($rss - $BASE_RSS)")" "$(counted)" "$(allocated)"
}
# The pre-render pass's garbage is returned to the system within seconds
# (jemalloc's decay): measured once it has been.
sleep 20
BASE_RSS=$(rss_mb)
report "warm (pre-rendered, 20 s later)"

slow() {
  local mode pids=()
  for mode in -H -B -X; do
    slowhttptest -c 400 $mode -i 5 -r 100 -l "$SECONDS_PER_PHASE" -u "$BASE/" -p 5 -x 24 -k 3 -n 5 -w 1 -y 4 </dev/null >/dev/null 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
}
hostile() {
  wrk -t2 -c32 -d"${SECONDS_PER_PHASE}s" -s bench/requests/hostile.lua "$BASE" >/dev/null 2>&1 || true
}

if command -v slowhttptest >/dev/null; then slow; report "slow headers, bodies and readers"; else echo "slowhttptest not installed: phase skipped"; fi
hostile
report "random addresses, queries and cookies"
if command -v wapiti >/dev/null; then
  # gzip: wapiti 3.0.4 asks for brotli it cannot decode, and then finds
  # no link past the home page (it crawls about 1,100 URLs with gzip).
  timeout $((WAPITI_MINUTES * 60)) wapiti -u "$BASE/" --scope folder --flush-session --max-scan-time $((WAPITI_MINUTES * 60 - 10)) \
    -H "Accept-Encoding: gzip" -f txt -o "$WORK/wapiti.txt" </dev/null >/dev/null 2>&1 || true
  report "wapiti scan ($WAPITI_MINUTES min at most)"
else
  echo "wapiti not installed: phase skipped"
fi
if command -v slowhttptest >/dev/null; then slow; fi
hostile
report "the same attack again"
sleep 60
report "after a quiet minute"
