#!/usr/bin/env bash
# A ten-year newsroom crawled as a search engine would (`make bench-newsroom`):
# the Strapi fixture in Strapi 5's shape with STORIES (10,000) generated
# stories per language (`tools/strapi_fixture.py --stories`), and the site
# against it with its defaults (but CMS_URL, its port, DATA_DIR in a
# temporary directory and a metrics listener of its own). Then:
#
#   1. every address of the sitemap (and its sub-sitemaps) read, and one story
#      never asked before fetched alone (its time and CMS requests);
#   2. a first crawl: every address once, 8 at a time from 8 client addresses;
#   3. a second crawl, the same;
#   4. the site restarted (same DATA_DIR, the CMS up) and crawled again;
#   5. a fresh site (a new DATA_DIR: every cache cold) crawled from one
#      address asking 8 at a time.
#
# Each crawl is bench/crawl.mjs (which samples RSS, /healthz and a cached
# page's p99 meanwhile); bench/newsroom-table.mjs prints the table, one column
# per crawl. With BASE_BIN, the same runs against that binary first, and each
# cell shows both and the ratio. Every request has a timeout and each crawl a
# bound (CRAWL_SECONDS, 1200) after which the rest counts as not answered, so
# a stalled server still ends the bench. Everything started is stopped on exit.
#
#   STORIES=2500 SITE_BIN=target/serve/site BASE_BIN=/tmp/site-main bench/newsroom.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

BIN=${SITE_BIN:-target/serve/site}
BASE_BIN=${BASE_BIN:-}
STORIES=${STORIES:-10000}
CRAWL_SECONDS=${CRAWL_SECONDS:-1200}
WORK=$(mktemp -d)
cleanup() {
  stop_started
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for bin in "$BIN" ${BASE_BIN:+"$BASE_BIN"}; do
  [ -x "$bin" ] || { echo "no site binary at $bin: cargo build --profile serve --bin site" >&2; exit 1; }
done

CMS_PORT=$(free_port)
python3 tools/strapi_fixture.py --port "$CMS_PORT" --shape v5 --stories "$STORIES" >"$WORK/cms.log" 2>&1 &
PIDS+=($!)
CMS="http://127.0.0.1:$CMS_PORT"
wait_for "$CMS/__requests" 600 || { echo "the CMS fixture did not start: $(tail -3 "$WORK/cms.log")" >&2; exit 1; }
EMBEDDED=$(python3 -c 'import json; print(sum(len(json.load(open(f"content/{lang}/collections/news-updates.json"))["data"]) for lang in ("en", "sw")))')

# start_newsroom_site NAME BIN PORT: the site on PORT, its data in $WORK/NAME
# (kept across a restart), its log appended to $WORK/NAME.log; sets BASE,
# SITE_PID and METRICS once it answers and its first pre-render pass ended.
start_newsroom_site() {
  local name=$1 bin=$2 port=$3 metrics_port
  metrics_port=$(free_port)
  mkdir -p "$WORK/$name"
  PORT=$port HOST=127.0.0.1 SITE_URL="http://127.0.0.1:$port" DATA_DIR="$WORK/$name" CMS_URL="$CMS" \
    METRICS_ADDR="127.0.0.1:$metrics_port" RUST_LOG=warn "$bin" >>"$WORK/$name.log" 2>&1 &
  SITE_PID=$!
  PIDS+=("$SITE_PID")
  BASE="http://127.0.0.1:$port"
  METRICS="http://127.0.0.1:$metrics_port"
  wait_for "$BASE/healthz" 1200 || { echo "the site did not start: $(tail -3 "$WORK/$name.log")" >&2; exit 1; }
  wait_prerendered "$BASE" || echo "  (its first pre-render pass did not end within 5 minutes)" >&2
}

# stop_newsroom_site: SIGTERM, and SIGKILL if it has not ended within 30 s.
stop_newsroom_site() {
  kill "$SITE_PID" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$SITE_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$SITE_PID" 2>/dev/null || true
  wait "$SITE_PID" 2>/dev/null || true
}

# crawl LABEL ADDRESSES: one crawl of $WORK/paths, its line of JSON appended to $OUT.
crawl() {
  echo "  $1..." >&2
  node bench/crawl.mjs crawl "$BASE" "$WORK/paths" --label "$1" --addresses "$2" --concurrency 8 \
    --pid "$SITE_PID" --metrics "$METRICS" --cms "$CMS" --seconds "$CRAWL_SECONDS" | sed 's/^{/{"type":"crawl",/' >>"$OUT"
}

# run NAME BIN: the whole sequence against BIN, its lines of JSON in $WORK/NAME.jsonl.
run() {
  local name=$1 bin=$2 port stories story
  OUT="$WORK/$name.jsonl"
  : >"$OUT"
  port=$(free_port)
  echo "$name ($bin), $STORIES stories per language:" >&2
  start_newsroom_site "$name" "$bin" "$port"
  node bench/crawl.mjs sitemap "$BASE" >"$WORK/paths"
  stories=$(grep -c '/news-event/' "$WORK/paths" || true)
  echo "{\"type\":\"sitemap\",\"stories\":$stories,\"expected\":$((2 * STORIES + EMBEDDED)),\"pages\":$(wc -l <"$WORK/paths")}" >>"$OUT"
  if [ "$stories" -gt 0 ]; then
    story=$(grep '/news-event/' "$WORK/paths" | sed -n "$(((stories + 1) / 2))p")
    node bench/crawl.mjs story "$BASE" "$story" --cms "$CMS" | sed 's/^{/{"type":"story",/' >>"$OUT"
  fi
  crawl "1st crawl, 8 addresses" 8
  crawl "2nd crawl, 8 addresses" 8
  stop_newsroom_site
  start_newsroom_site "$name" "$bin" "$port"
  crawl "after a restart, 8 addresses" 8
  stop_newsroom_site
  start_newsroom_site "$name-fresh" "$bin" "$port"
  crawl "fresh site, 1 address" 1
  stop_newsroom_site
}

if [ -n "$BASE_BIN" ]; then
  run baseline "$BASE_BIN"
  run this "$BIN"
  node bench/newsroom-table.mjs "$WORK/this.jsonl" "$WORK/baseline.jsonl"
else
  run this "$BIN"
  node bench/newsroom-table.mjs "$WORK/this.jsonl"
fi
