#!/usr/bin/env bash
# Signed-in visitors at the cost of anonymous ones (issue 16): a random walk
# over every page of the sitemap, both languages, with 0% and then 5% of the
# views carrying a signed-in subscriber's session, against one warm server
# (`bench/mixed.sh BASE`; `make bench` runs it against its own). Prints both
# throughputs and p99s, their ratios and the goal (5% keeps >= 0.7x the
# throughput, p99 <= 3x), and the answers that were not 2xx or 3xx.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

BASE=$1
CONNECTIONS=${MIXED_CONNECTIONS:-32}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Every page of the sitemap, as paths.
curl -sf "$BASE/sitemap.xml" | grep -o '<loc>[^<]*</loc>' | sed -E 's#<loc>https?://[^/]+##; s#</loc>##' >"$WORK/paths"

# The seeded subscribers signed in through the site, as a browser does.
: >"$WORK/cookies"
for number in 0754000001 0754000002 0754000003 0754000004; do
  sign_in "$BASE" "$number" >>"$WORK/cookies"
done
SESSIONS=$(wc -l <"$WORK/cookies")
# A signed-in view really is one: the header names the subscriber.
checked=$(curl -s -o "$WORK/check.html" -w '%{http_code}' -H "Cookie: $(head -1 "$WORK/cookies")" "$BASE/voice-sms" || true)
if ! grep -q '>Amina Mwakyusa</a>' "$WORK/check.html"; then
  echo "mixed: a session cookie did not sign the page in (HTTP $checked, $SESSIONS sessions: $(grep -o 'id="account-control"[^<]*' "$WORK/check.html" | head -1)); no mixed scenario" >&2
  exit 1
fi

cat >"$WORK/walk.lua" <<LUA
local function lines(file)
  local out = {}
  for line in io.lines(file) do if line ~= "" then out[#out + 1] = line end end
  return out
end
local paths = lines("$WORK/paths")
local cookies = lines("$WORK/cookies")
local share = tonumber(os.getenv("SIGNED_IN_SHARE"))
local thread_seed = 0
setup = function(thread) thread_seed = thread_seed + 1; thread:set("seed", thread_seed) end
init = function() math.randomseed(os.time() * 1000 + seed) end
request = function()
  local path = paths[math.random(#paths)]
  if math.random() < share then
    return wrk.format("GET", path, { ["Cookie"] = cookies[math.random(#cookies)] })
  end
  return wrk.format("GET", path)
end
LUA

walk() { # share
  local out
  out=$(SIGNED_IN_SHARE=$1 wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H 'Accept-Encoding: br, gzip' -s "$WORK/walk.lua" "$BASE")
  echo "$(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '$1=="99%" {print $2}' <<<"$out") $(awk '/Non-2xx or 3xx responses/ {print $5}' <<<"$out")"
}
to_ms() { # wrk latency like 1.23ms, 850.00us, 1.02s
  awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.3f", n }'
}

# A first pass at each share warms what the walk reaches (every page is
# pre-rendered already); then the measured runs, in the same order.
walk 0 >/dev/null
walk 0.05 >/dev/null
read -r ANON_RPS ANON_P99 ANON_FAILED <<<"$(walk 0)"
read -r ONE_RPS ONE_P99 ONE_FAILED <<<"$(walk 0.01)"
read -r MIXED_RPS MIXED_P99 MIXED_FAILED <<<"$(walk 0.05)"

echo
echo "random walk over the sitemap's $(wc -l <"$WORK/paths") pages, $CONNECTIONS connections, ${DURATION}s each, $SESSIONS subscribers signed in:"
printf '%-26s %10s %9s %12s %12s %8s\n' "views signed in" req/s p99_ms rps/0% p99/0% non-2xx
for row in "0% $ANON_RPS $ANON_P99 ${ANON_FAILED:-0}" "1% $ONE_RPS $ONE_P99 ${ONE_FAILED:-0}" "5% $MIXED_RPS $MIXED_P99 ${MIXED_FAILED:-0}"; do
  read -r share rps p99 failed <<<"$row"
  awk -v s="$share" -v r="$rps" -v p="$(to_ms "$p99")" -v R="$ANON_RPS" -v P="$(to_ms "$ANON_P99")" -v f="$failed" \
    'BEGIN { printf "%-26s %10.0f %9.3f %12.2f %12.2f %8d\n", s, r, p, r/R, p/P, f }'
done
awk -v r="$MIXED_RPS" -v R="$ANON_RPS" -v p="$(to_ms "$MIXED_P99")" -v P="$(to_ms "$ANON_P99")" \
  'BEGIN { met = (r/R >= 0.7 && p/P <= 3) ? "met" : "not met"; printf "5%% signed in: %.2fx the all-anonymous throughput (goal >= 0.7x), p99 %.2fx (goal <= 3x): %s\n", r/R, p/P, met }'
