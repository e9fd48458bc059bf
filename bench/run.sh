#!/usr/bin/env bash
# Load benchmark on loopback, bounded in time. Starts the release server, runs
# wrk against each scenario and prints requests/s, p50 and p99, each as a
# ratio against the static-asset baseline measured in the same run, then the
# p99 of the cached home page under hostile load against its unloaded p99,
# plus the server's peak RSS and the client JS a page ships (gzip, over HTTP).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${SITE_BIN:-target/release/site}
DURATION=${BENCH_SECONDS:-5}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
DATA=$(mktemp -d)
LOG=$(mktemp)

# Every request comes from one address: it may have as many renders under way
# as it has connections, or the render scenarios would measure refusals (429).
PORT=$PORT HOST=127.0.0.1 SITE_URL=$BASE DATA_DIR=$DATA RUST_LOG=warn RENDERS_PER_ADDRESS=$CONNECTIONS "$BIN" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA" "$LOG"' EXIT
for _ in $(seq 100); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.1; done

HOME_HTML=$(curl -sf "$BASE/")
ENTRY=$(grep -o '<script type="module" src="[^"]*"' <<<"$HOME_HTML" | sed 's/.*src="//;s/"$//')
mapfile -t CHUNKS < <(grep -o 'rel="modulepreload" href="[^"]*"' <<<"$HOME_HTML" | sed 's/.*href="//;s/"$//')

# Every request of the "miss" scenario is the sign-in's code step for a new
# number (?msisdn=, a query parameter that page reads), so no cache in front
# of the renderer can answer it. (A query string the page does not read gets
# the cached page.)
MISS_LUA=$(mktemp --suffix=.lua)
cat >"$MISS_LUA" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/account?step=code&msisdn=" .. counter .. "-" .. math.random(1e9))
end
LUA

# Hostile load: every request a kind that once cost a render or a session
# look-up (junk session and flash cookies, random query strings, random
# unknown addresses), in turn.
HOSTILE_LUA=$(mktemp --suffix=.lua)
cat >"$HOSTILE_LUA" <<'LUA'
counter = 0
pages = { "/", "/voice-sms", "/sw/internet-overview", "/news-events" }
request = function()
  counter = counter + 1
  local junk = counter .. "-" .. math.random(1e9)
  local page = pages[counter % #pages + 1]
  local kind = counter % 3
  if kind == 0 then
    return wrk.format("GET", page, { ["Cookie"] = "session=" .. junk .. "; flash=" .. junk .. "; lang=" .. junk })
  elseif kind == 1 then
    return wrk.format("GET", page .. "?utm_source=" .. junk .. "&" .. junk .. "=1")
  else
    return wrk.format("GET", "/no-such-page/" .. junk)
  end
end
LUA

# Slow clients: each sends a request's headers a byte every 100 ms and opens
# a new connection when the server closes one (HEADER_READ_TIMEOUT_SECS).
slow_clients() { # count seconds
  python3 - "$PORT" "$1" "$2" <<'PY'
import socket, sys, time
port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
end = time.monotonic() + seconds
def connect():
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return s
clients = [connect() for _ in range(count)]
while time.monotonic() < end:
    for i, s in enumerate(clients):
        try:
            s.send(b"a")
        except OSError:
            s.close()
            clients[i] = connect()
    time.sleep(0.1)
for s in clients:
    s.close()
PY
}

run() { # name url [lua]
  local out
  local threads=$(( CONNECTIONS < 2 ? 1 : 2 ))
  out=$(wrk -t"$threads" -c"$CONNECTIONS" -d"${DURATION}s" --latency -H 'Accept-Encoding: br, gzip' ${3:+-s "$3"} "$2")
  local rps p50 p99 failed
  failed=$(awk '/Non-2xx or 3xx responses/ {print $5}' <<<"$out")
  [ -z "$failed" ] || echo "$1: $failed answers were not 2xx or 3xx" >&2
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
# The cached home page again, at once, while hostile requests and slow
# clients (as many as the measuring connections each) run from a second
# before to a second after; all stop by themselves.
HOSTILE_SECONDS=$((DURATION + 2))
wrk -t2 -c"$CONNECTIONS" -d"${HOSTILE_SECONDS}s" -H 'Accept-Encoding: br, gzip' -s "$HOSTILE_LUA" "$BASE" >/dev/null &
HOSTILE_PID=$!
slow_clients "$CONNECTIONS" "$HOSTILE_SECONDS" &
SLOW_PID=$!
sleep 1
RESULTS+=("$(run cached-hostile "$BASE/")")
wait "$HOSTILE_PID" "$SLOW_PID"
RESULTS+=("$(run render-miss "$BASE" "$MISS_LUA")")
# One connection: latency of a single render with no queueing.
RESULTS+=("$(CONNECTIONS=1 run render-alone "$BASE" "$MISS_LUA")")
rm -f "$MISS_LUA" "$HOSTILE_LUA"

read -r _ BASE_RPS BASE_P50 BASE_P99 <<<"${RESULTS[0]}"
BASE_P50=$(to_ms "$BASE_P50"); BASE_P99=$(to_ms "$BASE_P99")
printf '\n%-18s %10s %9s %9s %12s %12s %12s\n' scenario req/s p50_ms p99_ms rps/baseline p50/baseline p99/baseline
for line in "${RESULTS[@]}"; do
  read -r name rps p50 p99 <<<"$line"
  p50=$(to_ms "$p50"); p99=$(to_ms "$p99")
  awk -v n="$name" -v r="$rps" -v a="$p50" -v b="$p99" -v R="$BASE_RPS" -v A="$BASE_P50" -v B="$BASE_P99" \
    'BEGIN { printf "%-18s %10.0f %9.3f %9.3f %12.4f %12.1f %12.1f\n", n, r, a, b, r/R, a/A, b/B }'
done

p99_of() { # scenario
  local line name p99
  for line in "${RESULTS[@]}"; do
    read -r name _ _ p99 <<<"$line"
    if [ "$name" = "$1" ]; then to_ms "$p99"; fi
  done
}
UNLOADED_P99=$(p99_of cached-page); HOSTILE_P99=$(p99_of cached-hostile)
echo
awk -v u="$UNLOADED_P99" -v h="$HOSTILE_P99" -v c="$CONNECTIONS" \
  'BEGIN { printf "cached / under hostile load (%d junk-cookie, random-query and unknown-address connections, %d slow clients): p99 %.3f ms against %.3f ms unloaded, %.1fx (goal <= 3x)\n", c, c, h, u, h/u }'

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
