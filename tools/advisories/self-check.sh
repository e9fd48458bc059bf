#!/usr/bin/env bash
# The advisory check must fail on a vulnerable crate (`make audit` runs this
# after the check itself): a copy of Cargo.lock with smallvec set to 1.6.0,
# which RUSTSEC-2021-0003 (a heap overflow in `insert_many`, patched in
# 1.6.1) names, has to exit 1 and name that advisory.
# Usage: self-check.sh <advisories binary> <advisory database folder>
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1 db=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk 'found && /^version = / { print "version = \"1.6.0\""; found = 0; next }
     { print } /^name = "smallvec"$/ { found = 1 }' Cargo.lock >"$work/Cargo.lock"
grep -qx 'version = "1.6.0"' "$work/Cargo.lock" || { echo "self-check: Cargo.lock has no smallvec to set"; exit 1; }

status=0
"$bin" --db "$db" --lockfile "$work/Cargo.lock" >"$work/out" 2>&1 || status=$?
if [ "$status" != 1 ] || ! grep -q '^error: RUSTSEC-2021-0003 vulnerability: smallvec 1.6.0' "$work/out"; then
	echo "self-check: the advisory check did not fail on smallvec 1.6.0 (exit $status):"
	cat "$work/out"
	exit 1
fi
echo "audit self-check: a Cargo.lock with smallvec 1.6.0 fails as it should (RUSTSEC-2021-0003)"
