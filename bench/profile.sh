#!/usr/bin/env bash
# Where the cached home page's time goes: the server under wrk (64
# connections, gzip, as bench/against.sh loads it), sampled by perf
# (cpu-clock, every thread of the server alone), then the share of its
# samples by part of the path: the kernel's network work, hyper, the fast
# path's own code, the request metrics, the allocator, and so on. The
# shares are of the server's own CPU time, so a machine busy with other
# work changes them less than it changes requests/s.
#
#   bench/profile.sh [BIN]    (BIN: target/release/site; PROFILE_SECONDS, 10)
#
# Needs perf (Debian's linux-perf) and a kernel that lets this user sample
# (root, or kernel.perf_event_paranoid <= 1). The top symbols follow the
# table; the raw profile is left in PROFILE_OUT when that is set.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
BIN=${1:-target/release/site}
SECONDS_=${PROFILE_SECONDS:-10}
WORK=$(mktemp -d)
cleanup() { stop_started; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
start_site site "$BIN"
PID=$SITE_PID
wait_prerendered "$BASE"
wrk -t2 -c64 -d1s -H 'Accept-Encoding: gzip' "$BASE/" >/dev/null # the fast path's entry kept
wrk -t2 -c64 -d"$((SECONDS_ + 2))s" -H 'Accept-Encoding: gzip' "$BASE/" >"$WORK/wrk.txt" &
WRK=$!
sleep 1
perf record -q -e cpu-clock -F 4999 -p "$PID" -o "$WORK/perf.data" -- sleep "$SECONDS_" 2>/dev/null
wait "$WRK"
RPS=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
SAMPLES=$(perf script -i "$WORK/perf.data" -F tid 2>/dev/null | wc -l)
# One sample is 1/4999 s of one thread's CPU: the server's CPU time per answer.
PER_ANSWER=$(awk -v r="$RPS" -v n="$SAMPLES" -v s="$SECONDS_" 'BEGIN { printf "%.3f", n / 4999 / (r * s) * 1e6 }')
awk -v r="$RPS" -v n="$SAMPLES" -v s="$SECONDS_" 'BEGIN { printf "cached / under wrk (64 connections, gzip), %d s sampled: %.0f req/s, %.1f µs of server CPU per answer\n", s, r, n / 4999 / (r * s) * 1e6 }'
perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null |
  awk '/^ +[0-9.]+%/ { pct = $1; sub(/%/, "", pct); $1 = ""; print pct "\t" $0 }' >"$WORK/symbols.tsv"
python3 - "$WORK/symbols.tsv" "$PER_ANSWER" <<'PY'
import re, sys
per_answer = float(sys.argv[2])
# A symbol's part of the path, first match wins: (part, dso or symbol pattern).
PARTS = [
    ("kernel: network and syscalls", r"\[kernel|\[k\]"),
    ("request metrics", r"metrics|request_metrics|histogram|Histogram|AtomicBucket"),
    ("fast path (key, look-up, headers)", r"pages::fast|PageRequest|fast::key|moka|FastPath|HeaderMap|header::map"),
    ("cookies and query parsing", r"cookie|Cookie|form_urlencoded|percent_encoding"),
    ("layers (axum from_fn, tower, tower-http)", r"from_fn|middleware|tower::|tower_http|map_response|MapFuture|boxed_clone|CloneService|BoxCloneSync"),
    ("routing (axum, matchit)", r"axum::routing|matchit|Router|route"),
    ("hyper (HTTP/1 parse and write)", r"hyper|httparse|h1::"),
    ("tokio (scheduler, I/O driver)", r"tokio|mio"),
    ("allocator (jemalloc, or libc's malloc)", r"je_|jemalloc|_rjem|tikv_jemalloc|malloc|_int_free|cfree|realloc|__libc_free"),
    ("memcpy, memmove, memcmp", r"memcpy|memmove|memset|memcmp"),
]
totals, other, top, others = {}, 0.0, [], []
for line in open(sys.argv[1]):
    pct, rest = line.rstrip("\n").split("\t", 1)
    pct = float(pct)
    top.append((pct, rest.strip()))
    for part, pattern in PARTS:
        if re.search(pattern, rest):
            totals[part] = totals.get(part, 0.0) + pct
            break
    else:
        other += pct
        others.append((pct, rest.strip()))
print(f"{'part of the path':40} {'share of samples':>16} {'µs per answer':>14}")
for part, _ in PARTS:
    print(f"{part:40} {totals.get(part, 0.0):15.1f}% {totals.get(part, 0.0) * per_answer / 100:14.2f}")
print(f"{'everything else':40} {other:15.1f}% {other * per_answer / 100:14.2f}")
user = 100 - totals.get(PARTS[0][0], 0.0)
print(f"{'all but the kernel':40} {user:15.1f}% {user * per_answer / 100:14.2f}")
print("\ntop symbols of everything else:")
for pct, name in sorted(others, reverse=True)[:12]:
    print(f"{pct:6.2f}%  {name[:110]}")
print("\ntop symbols:")
for pct, name in sorted(top, reverse=True)[:25]:
    print(f"{pct:6.2f}%  {name[:110]}")
PY
if [ -n "${PROFILE_OUT:-}" ]; then cp "$WORK/perf.data" "$PROFILE_OUT"; fi
