#!/usr/bin/env bash
# `tests/in-own-group.sh DIR`: DIR's node tests (`make test-scale`,
# `test-caches`, `test-small-browsers`) in their own process group, so that
# whatever they started (the site, redis-server, nginx, varnishd, Xvfb,
# NetSurf…) is stopped however they end.
set -euo pipefail
cd "$(dirname "$0")/.."
set -m
node --test --test-concurrency=1 "$1" &
runner=$!
trap 'kill -TERM -- -$runner 2>/dev/null || true' EXIT INT TERM
wait $runner
