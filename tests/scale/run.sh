#!/usr/bin/env bash
# `make test-scale`: the multi-instance test (tests/scale/scale.test.mjs) in
# its own process group, so that whatever it started (redis-server, nginx,
# the CMS fixture, three `site` instances) is stopped however it ends.
set -euo pipefail
cd "$(dirname "$0")/../.."
set -m
node --test --test-concurrency=1 tests/scale/ &
runner=$!
trap 'kill -TERM -- -$runner 2>/dev/null || true' EXIT INT TERM
wait $runner
