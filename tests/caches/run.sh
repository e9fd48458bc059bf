#!/usr/bin/env bash
# `make test-caches`: deploy/'s nginx cache and Varnish VCL in front of one
# `site` (tests/caches/caches.test.mjs), in its own process group, so that
# whatever it started (the site, nginx, varnishd) is stopped however it ends.
set -euo pipefail
cd "$(dirname "$0")/../.."
set -m
node --test --test-concurrency=1 tests/caches/ &
runner=$!
trap 'kill -TERM -- -$runner 2>/dev/null || true' EXIT INT TERM
wait $runner
