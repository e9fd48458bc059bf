#!/usr/bin/env bash
# The app's render cost against React's floor, and the scripts it ships.
#
#   bench/render-floor.sh [site-bench-binary]   (default: $SITE_BENCH_BIN, else target/release/examples/site-bench)
#
# Builds the app's bundles (app/scripts/build.mjs, which prints what each
# script weighs: the content page's enhancement script, each island) and,
# per page kind (bench/requests/kinds.json: one page of each kind, signed-in
# ones too), times the app's server bundle against React's own floor for the
# same markup. bench/floor.mjs renders the app's server bundle in node,
# builds from its markup an element tree React renders to the same bytes
# (checked), and times both; `site-bench render` times the app's bundle and
# that floor bundle in the site's own engine (QuickJS). The bundles are
# given to the binary, so any build of `site-bench` measures the working tree.
#
# node times the app and the floor in turn, render by render. The binary
# times one bundle at a time, so QuickJS runs the app's and the floor's in
# turn RENDER_ROUNDS times (default 3) and keeps each page's lowest p50 of
# each: what another process takes from the cores in one pass then falls on
# neither ratio. The worst ratio of each engine is printed beside the last
# recorded one (the README's performance table, bench/recorded.py), with
# SLOWER when it is more than 10% worse.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_BIN=${1:-${SITE_BENCH_BIN:-target/release/examples/site-bench}}
RUNS=${RENDER_RUNS:-100}
ROUNDS=${RENDER_ROUNDS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

node app/scripts/build.mjs "$WORK/bundle"
echo
node bench/floor.mjs "$WORK/bundle" bench/requests/kinds.json --runs $((RUNS * 3)) --out "$WORK/floor" >"$WORK/node.txt" || {
  cat "$WORK/node.txt"; echo "floor.mjs: the floor's markup differs from the app's (above)" >&2; exit 1; }
for round in $(seq "$ROUNDS"); do
  "$BENCH_BIN" render bench/requests/kinds.json --runs "$RUNS" --bundle "$WORK/bundle/server.js" >"$WORK/qjs-app.$round.txt"
  "$BENCH_BIN" render bench/requests/kinds.json --runs "$RUNS" --bundle "$WORK/floor/server.js" >"$WORK/qjs-floor.$round.txt"
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import re, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def rows(name, columns):
    out = []
    for line in open(f"{work}/{name}"):
        m = re.match(r"(\S+(?: \(signed in\))?)\s+(\S+)\s+" + r"\s+".join([r"([\d.]+)"] * columns) + r"\s*$", line)
        if m:
            out.append((m.group(1), m.group(2), [float(x) for x in m.groups()[2:]]))
    return out
def lowest(bundle):
    """Each page's lowest p50 of the rounds."""
    passes = [rows(f"qjs-{bundle}.{r}.txt", 2) for r in range(1, rounds + 1)]
    return [min(page[2][0] for page in pages) for pages in zip(*passes)]
node = rows("node.txt", 3)
app = lowest("app")
floor = lowest("floor")
print(f"{'render, p50 ms':<24} {'url':<40} {'V8 app':>8} {'floor':>7} {'ratio':>6} {'QJS app':>8} {'floor':>7} {'ratio':>6}")
worst = [(0, ""), (0, "")]
for (kind, url, (na, nf, nr)), qa, qf in zip(node, app, floor):
    qr = qa / qf
    print(f"{kind:<24} {url[:40]:<40} {na:8.3f} {nf:7.3f} {nr:6.2f} {qa:8.3f} {qf:7.3f} {qr:6.2f}")
    worst = [max(worst[0], (nr, f"{kind} {url}")), max(worst[1], (qr, f"{kind} {url}"))]
print(f"worst app/floor ratio (goal <= 2): V8 {worst[0][0]:.2f} ({worst[0][1]}), QuickJS {worst[1][0]:.2f} ({worst[1][1]})")
open(f"{work}/worst", "w").write(f"render-v8 {worst[0][0]:.2f} render-quickjs {worst[1][0]:.2f}")
PY
python3 bench/recorded.py $(cat "$WORK/worst")
