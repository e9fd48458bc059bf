#!/usr/bin/env bash
# `make soak`: bench/soak.mjs in its own process group, so that whatever it
# started (redis-server, nginx, the CMS fixture, four `site` processes) is
# stopped however it ends. SOAK_MINUTES (default 10), SITE_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
set -m
node bench/soak.mjs &
runner=$!
trap 'kill -TERM -- -$runner 2>/dev/null || true' EXIT INT TERM
wait $runner
