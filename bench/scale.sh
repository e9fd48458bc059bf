#!/usr/bin/env bash
# Three instances behind nginx against one, in the same run, on loopback:
# redis-server and nginx (apt) and three release `site` instances sharing
# REDIS_URL, SESSION_KEY and DATA_DIR (as `make test-scale` runs them), then
# wrk at 64 connections for a cached page (`/`), and at four connections
# shared by four signed-in subscribers for their `/account`, through nginx
# round-robin and straight to one instance.
# Everything started is stopped on exit. `make bench-scale`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

WORK=$(mktemp -d)
REDIS_PORT=$(free_port); NGINX_PORT=$(free_port)
PORTS=("$(free_port)" "$(free_port)" "$(free_port)")
cleanup() {
  stop_started
  rm -rf "$WORK"
}
trap cleanup EXIT

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK" >"$WORK/redis.log" 2>&1 &
PIDS+=($!)
SESSION_KEY=$(head -c 64 /dev/urandom | base64 -w0)
mkdir -p "$WORK/data"
start_instance() { # n
  PORT=${PORTS[$1]} HOST=127.0.0.1 SITE_URL="http://127.0.0.1:$NGINX_PORT" REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0" \
    SESSION_KEY=$SESSION_KEY DATA_DIR="$WORK/data" TRUSTED_PROXIES=127.0.0.1 METRICS_ADDR="127.0.0.1:$(free_port)" \
    RENDERS_PER_ADDRESS=64 RUST_LOG=warn "$BIN" >"$WORK/site-$1.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:${PORTS[$1]}/readyz" 200 && return
  echo "instance $1 did not become ready: $(tail -3 "$WORK/site-$1.log")" >&2; exit 1
}
# The first creates the shared sandbox database; then the others.
start_instance 0; start_instance 1; start_instance 2

cat >"$WORK/nginx.conf" <<NGINX
daemon off;
worker_processes auto;
user $(id -un) $(id -gn);
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx-body;
  proxy_temp_path $WORK/nginx-proxy;
  upstream site {
    server 127.0.0.1:${PORTS[0]};
    server 127.0.0.1:${PORTS[1]};
    server 127.0.0.1:${PORTS[2]};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://site;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    }
  }
}
NGINX
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
"$NGINX_BIN" -c "$WORK/nginx.conf" -p "$WORK" -e "$WORK/nginx-error.log" &
PIDS+=($!)
NGINX="http://127.0.0.1:$NGINX_PORT"
ONE="http://127.0.0.1:${PORTS[0]}"
wait_for "$NGINX/healthz" 50 || true

# Every pre-render pass done (each instance warms its own page cache).
for port in "${PORTS[@]}"; do wait_prerendered "http://127.0.0.1:$port"; done

# Four signed-in subscribers, through nginx (the sessions live in Redis).
# Renders for one session are one at a time (the rest wait, then are shed:
# issue 16), so the signed-in scenario runs as many connections as sessions.
json() { curl -s -X POST -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'Sec-Fetch-Site: same-origin' "$@"; }
: >"$WORK/cookies"
for number in 0754000001 0754000002 0754000003 0754000004; do
  json "$NGINX/api/auth/request-otp" -d "{\"msisdn\":\"$number\"}" >/dev/null
  CODE=$(curl -s "$NGINX/sandbox/inbox?msisdn=255${number#0}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  json -D - -o /dev/null "$NGINX/api/auth/validate-otp" -d "{\"msisdn\":\"$number\",\"code\":\"$CODE\"}" \
    | awk -F'[:;] *' 'tolower($1)=="set-cookie" && $2 ~ /session=/ {print $2; exit}' >>"$WORK/cookies"
done
curl -s -H "Cookie: $(head -1 "$WORK/cookies")" "$ONE/account" | grep -q 'Amina' || { echo "signing in failed: no subscriber on /account" >&2; exit 1; }
SESSIONS=$(wc -l <"$WORK/cookies")
# Each of wrk's two threads takes its two subscribers in turn, so the four
# connections ask for four sessions, now and then two at once for one.
cat >"$WORK/sessions.lua" <<LUA
local cookies = {}
for line in io.lines("$WORK/cookies") do cookies[#cookies + 1] = line end
local thread_index = 0
setup = function(thread) thread:set("first", thread_index); thread_index = thread_index + 1 end
local turn = 0
request = function()
  turn = turn + 1
  local cookie = cookies[((first + turn * 2) % #cookies) + 1]
  return wrk.format("GET", nil, { ["Cookie"] = cookie })
end
LUA
run() { # name url [lua]
  local out
  local connections=64
  [ -z "${3:-}" ] || connections=$SESSIONS
  out=$(wrk -t2 -c"$connections" -d"${DURATION}s" --latency -H 'Accept-Encoding: br, gzip' ${3:+-s "$3"} "$2")
  local failed; failed=$(awk '/Non-2xx or 3xx responses/ {print $5}' <<<"$out")
  [ -z "$failed" ] || echo "$1: $failed answers were not 2xx or 3xx" >&2
  echo "$1 $(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '$1=="99%" {print $2}' <<<"$out")"
}
echo "scale bench: ${DURATION}s per scenario, 64 connections ($SESSIONS for /account, over $SESSIONS subscribers), loopback, $(nproc) cores, 3 instances + nginx + redis + wrk on the same cores"
RESULTS=()
RESULTS+=("$(run cached-one "$ONE/")")
RESULTS+=("$(run cached-three "$NGINX/")")
RESULTS+=("$(run account-one "$ONE/account" "$WORK/sessions.lua")")
RESULTS+=("$(run account-three "$NGINX/account" "$WORK/sessions.lua")")
printf '\n%-16s %10s %10s\n' scenario req/s p99
for line in "${RESULTS[@]}"; do read -r name rps p99 <<<"$line"; printf '%-16s %10.0f %10s\n' "$name" "$rps" "$p99"; done
rps() { for line in "${RESULTS[@]}"; do read -r name r _ <<<"$line"; [ "$name" = "$1" ] && echo "$r"; done; }
awk -v a="$(rps cached-three)" -v b="$(rps cached-one)" -v c="$(rps account-three)" -v d="$(rps account-one)" \
  'BEGIN { printf "\nthree instances behind nginx against one: cached / %.2fx, signed-in /account %.2fx\n", a/b, c/d }'
