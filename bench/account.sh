#!/usr/bin/env bash
# The account page at the cost of its data: signed-in subscribers
# viewing /account, against /api/account (the same data as JSON) as the
# baseline, in one run. An operator API that answers at once (nginx with
# the sandbox's answers for one subscriber, recorded at the start), no
# account cache (ACCOUNT_CACHE_SECS=0: every view asks the operator), 64
# sessions in turn over 64 connections. The same release binary serves
# twice: as it is (the page for the subscriber's kind from the cache, their
# part rendered alone) and as `site-bench serve-whole` (the whole page
# rendered for each view, as before). Prints views/s, p99 and answers that
# were not 2xx for each, /account as a ratio of /api/account (goal >= 0.25,
# none shed), and the engine ms of a view, whole against the part alone
# (`site-bench render --part`). Then the CPM page the same way: 64 CPM
# sessions viewing /customer-permission-management against
# /api/cpm/permissions, as it is and rendered whole.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

CONNECTIONS=${ACCOUNT_CONNECTIONS:-64}
SESSIONS=64
WORK=$(mktemp -d)
cleanup() {
  stop_started
  [ -n "${KEEP_WORK:-}" ] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
answers() { wait_for "$1" 200 || { echo "account: $1 did not answer" >&2; exit 1; }; }

# The sandbox's answers for Amina (0754000001), recorded through its API.
PRERENDER=false start_site sandbox "$BIN"
SANDBOX_PORT=$SITE_PORT
answers "$BASE/healthz"
API="http://127.0.0.1:$SANDBOX_PORT/sandbox/digital"
mkdir -p "$WORK/answers"
# nginx's workers (another user) read the answers.
chmod 755 "$WORK" "$WORK/answers"
record() { # name curl-arguments…
  local name=$1
  shift
  curl -s -o "$WORK/answers/$name.json" -w '%{http_code}' "$@" >"$WORK/answers/$name.status"
}
record request-otp -H 'content-type: application/json' -d '{"msisdn":"255754000001"}' "$API/api/v1/auth/request-otp"
CODE=$(curl -sf "http://127.0.0.1:$SANDBOX_PORT/sandbox/inbox?msisdn=255754000001" | python3 -c 'import json, sys; print(json.load(sys.stdin)["code"])')
record validate-otp -H 'content-type: application/json' -d "{\"msisdn\":\"255754000001\",\"code\":\"$CODE\"}" "$API/api/v1/auth/validate-otp"
TOKEN=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["data"])' "$WORK/answers/validate-otp.json")
for name in gsm-config/customer-details gsm-config/airtime-balance gsm-config/bundle-balance mpesa/balance gsm-static-bundles; do
  record "${name//\//-}" -H "Authorization: Bearer $TOKEN" "$API/api/v1/$name"
done
record cpm-request-otp -H 'content-type: application/json' -d '{"msisdn":"255754000001"}' "$API/cpm/request-otp"
CODE=$(curl -sf "http://127.0.0.1:$SANDBOX_PORT/sandbox/inbox?msisdn=255754000001" | python3 -c 'import json, sys; print(json.load(sys.stdin)["code"])')
record cpm-validate-otp -H 'content-type: application/json' -d "{\"msisdn\":\"255754000001\",\"code\":\"$CODE\"}" "$API/cpm/validate-otp"
CPM_TOKEN=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["data"])' "$WORK/answers/cpm-validate-otp.json")
record cpm-permissions -H "Authorization: cpm-bearer $CPM_TOKEN" "$API/cpm/permissions"

# nginx answering every call with them.
NGINX_PORT=$(free_port)
python3 - "$WORK" "$NGINX_PORT" <<'PY'
import os, sys
work, port = sys.argv[1], sys.argv[2]
answers = os.path.join(work, "answers")
locations = []
for path, name in [
    ("auth/request-otp", "request-otp"), ("auth/validate-otp", "validate-otp"),
    ("gsm-config/customer-details", "gsm-config-customer-details"), ("gsm-config/airtime-balance", "gsm-config-airtime-balance"),
    ("gsm-config/bundle-balance", "gsm-config-bundle-balance"), ("mpesa/balance", "mpesa-balance"),
    ("gsm-static-bundles", "gsm-static-bundles"),
    ("cpm/request-otp", "cpm-request-otp"), ("cpm/validate-otp", "cpm-validate-otp"), ("cpm/permissions", "cpm-permissions"),
]:
    status = open(os.path.join(answers, name + ".status")).read().strip()
    file = os.path.join(answers, name + ".json")
    prefix = "" if path.startswith("cpm/") else "api/v1/"
    if name.endswith("-otp"):
        # Posted to: answered inline (they are short).
        body = open(file).read().replace("\\", "\\\\").replace("'", "\\'")
        locations.append(f"    location = /{prefix}{path} {{ default_type application/json; return {status} '{body}'; }}")
    else:
        assert status == "200", (name, status)
        locations.append(f"    location = /{prefix}{path} {{ default_type application/json; alias {file}; }}")
locations = "\n".join(locations)
open(os.path.join(work, "nginx.conf"), "w").write(f"""
daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fastcgi;
  uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  keepalive_requests 100000;
  server {{
    listen 127.0.0.1:{port};
{locations}
  }}
}}
""")
PY
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
"$NGINX_BIN" -c "$WORK/nginx.conf" -p "$WORK" 2>>"$WORK/nginx-error.log" &
PIDS+=($!)
wait_for "http://127.0.0.1:$NGINX_PORT/api/v1/gsm-static-bundles" || true

# The site twice on that operator: as it is, and rendering the page whole.
on_the_operator() { # name command…; sets SITE_PORT
  PRERENDER=false DIGITAL_API_URL="http://127.0.0.1:$NGINX_PORT/" ACCOUNT_CACHE_SECS=0 OTP_RESEND_SECS=0 TRUSTED_PROXIES=127.0.0.1 \
    start_site "$@"
  answers "$BASE/healthz"
}
sign_in_all() { # port file [api: auth or cpm]: a session cookie per line
  local base="http://127.0.0.1:$1" number api=${3:-auth}
  : >"$2"
  for i in $(seq "$SESSIONS"); do
    # Each from its own address (behind the trusted proxy), as subscribers are: one address may ask for 10 codes.
    number=$(printf '0754%06d' "$i")
    curl -s -o "$WORK/answer" -H "X-Forwarded-For: 10.0.$i.1" -H 'sec-fetch-site: same-origin' -H 'content-type: application/json' \
      -d "{\"msisdn\":\"$number\"}" "$base/api/$api/request-otp"
    curl -s -o "$WORK/answer" -D "$WORK/headers" -H "X-Forwarded-For: 10.0.$i.1" -H 'sec-fetch-site: same-origin' -H 'content-type: application/json' \
      -d "{\"msisdn\":\"$number\",\"code\":\"123456\"}" "$base/api/$api/validate-otp"
    { grep -i '^set-cookie: [^=]*session=' "$WORK/headers" || true; } | sed -E 's/^[Ss]et-[Cc]ookie: ([^;]*).*/\1/' >>"$2"
  done
  [ "$(wc -l <"$2")" -eq "$SESSIONS" ] || { echo "account: only $(wc -l <"$2") of $SESSIONS sessions signed in at $base ($(cat "$WORK/answer"))" >&2; exit 1; }
}
on_the_operator spliced "$BIN"
SPLICED=$SITE_PORT
on_the_operator whole "$BENCH_BIN" serve-whole
WHOLE=$SITE_PORT
sign_in_all "$SPLICED" "$WORK/spliced.cookies"
sign_in_all "$WHOLE" "$WORK/whole.cookies"

# A view really shows the balances.
curl -sf -H "Cookie: $(head -1 "$WORK/spliced.cookies")" "http://127.0.0.1:$SPLICED/account" | grep -q 'class="airtime-balance"' ||
  { echo "account: /account shows no balances" >&2; exit 1; }

cat >"$WORK/views.lua" <<'LUA'
local cookies = {}
for line in io.lines(os.getenv("COOKIES")) do cookies[#cookies + 1] = line end
local path = os.getenv("VIEW_PATH")
local turn = 0
request = function()
  turn = turn + 1
  return wrk.format("GET", path, { ["Cookie"] = cookies[turn % #cookies + 1], ["Accept-Encoding"] = "gzip" })
end
LUA
views() { # port cookies path
  local out
  out=$(COOKIES=$2 VIEW_PATH=$3 wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/views.lua" "http://127.0.0.1:$1")
  echo "$(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '$1=="99%" {print $2}' <<<"$out") $(awk '/Non-2xx or 3xx responses/ {print $5}' <<<"$out")"
}
# One comparison: the JSON API's views ($1) against the page's ($2), with
# its part rendered and whole, each server's sessions in cookie jars named
# by $4; $3 names the page in the report, $5 says the goal if any.
compare() {
  local api=$1 path=$2 label=$3 jars=$4 goal=${5:-}
  # Warm: the page for the sessions' kind, the engines, the connections.
  views "$SPLICED" "$WORK/spliced$jars.cookies" "$path" >/dev/null
  views "$WHOLE" "$WORK/whole$jars.cookies" "$path" >/dev/null
  local api_rps api_p99 api_failed page_rps page_p99 page_failed whole_rps whole_p99 whole_failed
  read -r api_rps api_p99 api_failed <<<"$(views "$SPLICED" "$WORK/spliced$jars.cookies" "$api")"
  read -r page_rps page_p99 page_failed <<<"$(views "$SPLICED" "$WORK/spliced$jars.cookies" "$path")"
  read -r whole_rps whole_p99 whole_failed <<<"$(views "$WHOLE" "$WORK/whole$jars.cookies" "$path")"
  awk -v api="$api" -v label="$label" -v goal="$goal" -v ar="$api_rps" -v ap="$api_p99" -v af="${api_failed:-0}" \
    -v pr="$page_rps" -v pp="$page_p99" -v pf="${page_failed:-0}" -v wr="$whole_rps" -v wp="$whole_p99" -v wf="${whole_failed:-0}" 'BEGIN {
    printf "  %-31s %8.0f views/s  p99 %-9s not 2xx %s\n", api, ar, ap, af
    printf "  %-31s %8.0f views/s  p99 %-9s not 2xx %s  %.3fx of %s%s\n", label " (part rendered)", pr, pp, pf, pr/ar, api, goal
    printf "  %-31s %8.0f views/s  p99 %-9s not 2xx %s  %.3fx of %s\n", label " (whole, before)", wr, wp, wf, wr/ar, api
    printf "  part rendered against whole: %.1fx the views/s\n", pr/wr
  }'
}

echo "signed-in views, $SESSIONS sessions in turn, $CONNECTIONS connections, ${DURATION}s each, ACCOUNT_CACHE_SECS=0, operator: nginx with canned answers"
compare /api/account /account /account "" " (goal >= 0.25, none shed)"
sign_in_all "$SPLICED" "$WORK/spliced-cpm.cookies" cpm
sign_in_all "$WHOLE" "$WORK/whole-cpm.cookies" cpm
CPM=/customer-permission-management
# A view really shows the session's permissions: a toggle button (aria-pressed) per permission.
# Right after the account run the operator's calls may still be refused
# (DIGITAL_API_MAX_REQUESTS, the breaker): the page then comes without
# them, so it is asked again for up to 10 s.
shown=""
for _ in $(seq 10); do
  if curl -sf -H "Cookie: $(head -1 "$WORK/spliced-cpm.cookies")" "http://127.0.0.1:$SPLICED$CPM" |
    grep -q 'id="permission-[^"]*-state" aria-pressed='; then
    shown=1
    break
  fi
  sleep 1
done
[ -n "$shown" ] || { echo "account: $CPM shows no permissions" >&2; exit 1; }
echo "CPM sessions' views, the same way:"
compare /api/cpm/permissions $CPM "CPM page" -cpm
echo "engine time of one view (site-bench render --part, p50):"
"$BENCH_BIN" render bench/requests/kinds.json --part --runs 200 | sed 's/^/  /'
