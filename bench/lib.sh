# Shell helpers the bench scripts share: `source bench/lib.sh` (from the
# repository's root, where each script starts). Nothing here runs by itself.
#
#   free_port                  a free TCP port on loopback
#   wait_for URL [TRIES]       until URL answers 2xx, every 0.1 s, TRIES
#                              times (100); fails when it never does
#   wait_prerendered BASE      until the site at BASE ended its first
#                              pre-render pass (5 minutes at most)
#   start_site NAME COMMAND…   the site (COMMAND: its binary and arguments)
#                              on a free port of loopback, its data in
#                              $WORK/NAME and its log in $WORK/NAME.log,
#                              warnings only, no metrics listener; settings
#                              before the call go to it (`PRERENDER=false
#                              start_site …`). Sets BASE, SITE_PORT and
#                              SITE_PID, and adds the process to PIDS.
#   stop_started               stops every process in PIDS
#   sign_in BASE NUMBER        a seeded subscriber (0754000001…) signed in
#                              through the site at BASE as a browser does
#                              (code request, the code from the sandbox's
#                              inbox, validation): prints the session cookie
#
# And the settings every script reads the same way: BIN (SITE_BIN, the
# release build's site), BENCH_BIN (SITE_BENCH_BIN, its site-bench) and
# DURATION (BENCH_SECONDS, the length of one load run, 5 s).

BIN=${SITE_BIN:-target/release/site}
BENCH_BIN=${SITE_BENCH_BIN:-target/release/examples/site-bench}
DURATION=${BENCH_SECONDS:-5}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

sign_in() {
  local base=$1 number=$2 code
  curl -sf -o /dev/null -H 'sec-fetch-site: same-origin' -H 'content-type: application/json' \
    -d "{\"msisdn\":\"$number\"}" "$base/api/auth/request-otp"
  code=$(curl -sf "$base/sandbox/inbox?msisdn=255${number#0}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["code"])')
  curl -sf -o /dev/null -D - -H 'sec-fetch-site: same-origin' -H 'content-type: application/json' \
    -d "{\"msisdn\":\"$number\",\"code\":\"$code\"}" "$base/api/auth/validate-otp" |
    grep -i '^set-cookie: [^=]*session=' | sed -E 's/^[Ss]et-[Cc]ookie: ([^;]*).*/\1/'
}

wait_for() {
  local tries=${2:-100}
  for _ in $(seq "$tries"); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done
  return 1
}

wait_prerendered() {
  for _ in $(seq 600); do curl -s "$1/healthz?detail" | grep -q '"prerendered":{' && return 0; sleep 0.5; done
}

PIDS=()

start_site() {
  local name=$1 port
  shift
  port=$(free_port)
  mkdir -p "$WORK/$name"
  PORT=$port HOST=127.0.0.1 SITE_URL="http://127.0.0.1:$port" DATA_DIR="$WORK/$name" RUST_LOG=warn METRICS_ADDR=off \
    "$@" >"$WORK/$name.log" 2>&1 &
  SITE_PID=$!
  PIDS+=("$SITE_PID")
  SITE_PORT=$port
  BASE="http://127.0.0.1:$port"
}

stop_started() {
  [ ${#PIDS[@]} -eq 0 ] && return 0
  kill "${PIDS[@]}" 2>/dev/null || true
  wait "${PIDS[@]}" 2>/dev/null || true
}
