#!/usr/bin/env bash
# `make test-lint`: REDbot and the Nu Html Checker over the built site on a
# loopback port (tests/lint/lint.mjs), in its own process group, so that the
# site it started is stopped however it ends. Fails on any error the
# checkers report; their warnings are printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
set -m
node tests/lint/lint.mjs &
runner=$!
trap 'kill -TERM -- -$runner 2>/dev/null || true' EXIT INT TERM
wait $runner
