#!/usr/bin/env bash
# Load benchmark on loopback, bounded in time. Starts the release server, runs
# wrk against each scenario and prints requests/s, p50 and p99, each as a
# ratio against the static-asset baseline measured in the same run, plus the
# server's peak RSS and the client JS a page ships (gzip, over HTTP).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${SITE_BIN:-target/release/site}
DURATION=${BENCH_SECONDS:-5}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
DATA=$(mktemp -d)
LOG=$(mktemp)

PORT=$PORT HOST=127.0.0.1 SITE_URL=$BASE DATA_DIR=$DATA RUST_LOG=warn "$BIN" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA" "$LOG"' EXIT
for _ in $(seq 100); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.1; done

HOME_HTML=$(curl -sf "$BASE/")
ENTRY=$(grep -o '<script type="module" src="[^"]*"' <<<"$HOME_HTML" | sed 's/.*src="//;s/"$//')
mapfile -t CHUNKS < <(grep -o 'rel="modulepreload" href="[^"]*"' <<<"$HOME_HTML" | sed 's/.*href="//;s/"$//')

# Every request of the "miss" scenario carries a new query string, so no
# cache in front of the renderer can answer it.
MISS_LUA=$(mktemp --suffix=.lua)
cat >"$MISS_LUA" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/?bench=" .. counter .. "-" .. math.random(1e9))
end
LUA

run() { # name url [lua]
  local out
  local threads=$(( CONNECTIONS < 2 ? 1 : 2 ))
  out=$(wrk -t"$threads" -c"$CONNECTIONS" -d"${DURATION}s" --latency -H 'Accept-Encoding: br, gzip' ${3:+-s "$3"} "$2")
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  echo "$1 $rps $p50 $p99"
}

to_ms() { # wrk latency like 1.23ms, 850.00us, 1.02s
  awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.3f", n }'
}

echo "site bench: ${DURATION}s per scenario, $CONNECTIONS connections, loopback, $(nproc) cores"
RESULTS=()
RESULTS+=("$(run static-asset "$BASE$ENTRY")")
RESULTS+=("$(run cached-page "$BASE/")")
RESULTS+=("$(run render-miss "$BASE" "$MISS_LUA")")
# One connection: latency of a single render with no queueing.
RESULTS+=("$(CONNECTIONS=1 run render-alone "$BASE" "$MISS_LUA")")
rm -f "$MISS_LUA"

read -r _ BASE_RPS BASE_P50 BASE_P99 <<<"${RESULTS[0]}"
BASE_P50=$(to_ms "$BASE_P50"); BASE_P99=$(to_ms "$BASE_P99")
printf '\n%-18s %10s %9s %9s %12s %12s %12s\n' scenario req/s p50_ms p99_ms rps/baseline p50/baseline p99/baseline
for line in "${RESULTS[@]}"; do
  read -r name rps p50 p99 <<<"$line"
  p50=$(to_ms "$p50"); p99=$(to_ms "$p99")
  awk -v n="$name" -v r="$rps" -v a="$p50" -v b="$p99" -v R="$BASE_RPS" -v A="$BASE_P50" -v B="$BASE_P99" \
    'BEGIN { printf "%-18s %10.0f %9.3f %9.3f %12.4f %12.1f %12.1f\n", n, r, a, b, r/R, a/A, b/B }'
done

RSS_KB=$(awk '/VmHWM/ {print $2}' /proc/$PID/status)
echo
echo "server peak RSS: $((RSS_KB / 1024)) MiB"

gz_size() { curl -s -H 'Accept-Encoding: gzip' "$BASE$1" | wc -c; }
raw_size() { curl -s "$BASE$1" | wc -c; }
TOTAL_GZ=0; TOTAL_RAW=0
for js in "$ENTRY" "${CHUNKS[@]}"; do
  TOTAL_GZ=$((TOTAL_GZ + $(gz_size "$js"))); TOTAL_RAW=$((TOTAL_RAW + $(raw_size "$js")))
done
HTML_GZ=$(curl -s -H 'Accept-Encoding: gzip' "$BASE/" | wc -c)
echo "home page ships: HTML ${HTML_GZ} B gzip; JS $((TOTAL_RAW / 1024)) KiB raw, $((TOTAL_GZ / 1024)) KiB gzip in $((1 + ${#CHUNKS[@]})) files"
