#!/bin/bash
# How long a fresh clone's `make run` takes to serve: clones this
# repository's HEAD into a new directory, with empty Cargo and npm caches
# (every crate and npm package downloaded again, as on a new machine), runs
# `make run` there and times it to the first `200` from `/healthz`. Prints
# the minutes and cargo's own build time, then builds again and counts the
# crates the second build compiles (none: nothing the build writes is
# among what it watches).
#
#   bench/fresh-run.sh                 # HEAD, empty caches
#   WARM=1 bench/fresh-run.sh          # keep this machine's Cargo and npm caches
#   bench/quiet.sh bench/fresh-run.sh  # with every other process stopped
#
# The apt packages `make run` installs are taken as installed (they are on
# any machine that has run it once). Needs about 5 GB in /work.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
REPO=$PWD
DIR=$(mktemp -d "${FRESH_DIR:-/work}/fresh-run.XXXX")
trap 'kill -- -"$PID" 2>/dev/null || true; rm -rf "$DIR"' EXIT
git clone --quiet "$REPO" "$DIR/site"
if [ -z "${WARM:-}" ]; then
  export CARGO_HOME="$DIR/cargo" npm_config_cache="$DIR/npm"
fi
PORT=$(free_port)
echo "fresh clone of $(git rev-parse --short HEAD) in $DIR; caches: ${WARM:+warm}${WARM:-empty}; load $(cut -d' ' -f1 /proc/loadavg)"
START=$(date +%s.%N)
# Its own process group (exec setsid: the same pid), so all of it stops at the end.
(cd "$DIR/site" && PORT=$PORT CARGO_TERM_COLOR=never exec setsid make run >"$DIR/run.log" 2>&1) &
PID=$!
until curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null; do
  if ! kill -0 "$PID" 2>/dev/null; then
    tail -30 "$DIR/run.log"
    echo "make run ended before serving" >&2
    exit 1
  fi
  sleep 1
done
END=$(date +%s.%N)
python3 - "$START" "$END" "$DIR/run.log" <<'EOF'
import re, sys
start, end, log = float(sys.argv[1]), float(sys.argv[2]), open(sys.argv[3]).read()
total = end - start
built = re.search(r"Finished `serve` profile .* in ((\d+)m )?([\d.]+)s", log)
cargo = (int(built.group(2) or 0) * 60 + float(built.group(3))) if built else None
print(f"make run to the first answer: {total / 60:.1f} min ({total:.0f} s)")
if cargo is not None:
    print(f"  of which cargo's build: {cargo / 60:.1f} min; the rest (npm ci, downloads, start): {(total - cargo) / 60:.1f} min")
EOF
kill -- -"$PID" 2>/dev/null || true
AGAIN=$(cd "$DIR/site" && cargo build --profile serve --bin site 2>&1 | grep -c '^ *Compiling' || true)
echo "a second build compiles $AGAIN crates"
