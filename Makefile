# The two set-up commands are `make run` and `make test`; both install what
# they need on a fresh Debian machine (apt packages, npm packages).

SHELL := /bin/bash
# What building the binary needs (the QuickJS engine builds offline), then what the tests and benches need too.
BUILD_PACKAGES := cmake libsimde-dev
APT_PACKAGES := $(BUILD_PACKAGES) chromium wrk redis-server postgresql nginx varnish netsurf-gtk xvfb xdotool imagemagick lynx w3m tmux plasma-workspace-wallpapers netpbm
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SITE_BIN ?= target/debug/site

.PHONY: deps build-deps run build release bench-tool test test-rust audit test-app test-e2e test-lint lint-deps bench bench-scale bench-search bench-memory bench-newsroom soak clean

# Installs the apt packages named that are missing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

## Install system and npm packages if missing: all of them (tests, benches)...
deps: app/node_modules/.package-lock.json
	$(call apt_install,$(APT_PACKAGES))

## ...or what building the binary needs (make run).
build-deps: app/node_modules/.package-lock.json
	$(call apt_install,$(BUILD_PACKAGES))

app/node_modules/.package-lock.json: app/package.json app/package-lock.json
	cd app && npm ci --no-audit --no-fund
	@touch $@

## Build and serve the whole site with embedded content and the sandbox API.
## The `serve` profile (Cargo.toml): release optimisation without link-time
## optimisation, so a fresh clone serves sooner; benches use `release`.
run: build-deps
	cargo run --profile serve --bin site

build: deps
	cargo build

release: deps
	cargo build --release --bin site

## `site-bench` (bench/site-bench/): render timings and the account pages'
## baseline, which the `site` binary does not carry.
bench-tool: deps
	cargo build --release --example site-bench

## Every test: Rust unit and integration tests, app tests, browser tests.
## The Redis tests skip themselves where redis-server is missing, unless
## REQUIRE_REDIS=1 (as .ci/run sets it): then they fail. So do the forms'
## PostgreSQL tests where PostgreSQL is missing, with REQUIRE_POSTGRES=1.
test: deps test-rust test-app test-e2e

# The Rust tests' one build, which is their lint too: clippy's driver
# compiles the workspace's own crates with its lints and rustc's warnings
# as errors, what `cargo clippy --workspace --all-targets -- -D warnings`
# checks. The dependencies are compiled once, where `cargo clippy` before
# the tests checked each of them a second time (docs/testing.md "Build
# time"). The driver lints what it compiles: a crate compiled since its last
# edit by a plain `cargo build` or `cargo test` is not compiled again here,
# so not linted either (`cargo clippy` lints it); CI's fresh clone lints all.
CARGO_LINTED := RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-Dwarnings cargo
CARGO_TEST := $(CARGO_LINTED) test --workspace --all-targets
# The API tests mostly wait (a server starting, the sandbox's delays, a
# cache's lifetime), so four at a time on two cores: 228 ran in 276 s, where
# two at a time (libtest's default there) took 431 s, measured on a quiet
# machine before the tests that only read the default site shared one
# (docs/testing.md "Build time").
RUST_TEST_THREADS ?= 4

## Rust: formatting (rustfmt.toml), the build with clippy's lints as
## errors, the advisories (`make audit`), then the tests.
test-rust:
	cargo fmt --all --check
	$(MAKE) audit
	RUST_TEST_THREADS=$(RUST_TEST_THREADS) $(CARGO_TEST)

## Cargo.lock against the RustSec advisory database at ADVISORY_DB, never the
## network (tools/advisories/): fails on a vulnerability that
## tools/advisories/accepted.toml does not accept, and prints unmaintained
## and unsound crates; then the same check must fail on a copy of Cargo.lock
## holding a vulnerable crate. Where the folder is missing it says so and
## skips, unless REQUIRE_ADVISORY_DB=1 (which .ci/run does not set: CI's
## clean clone may not have ../shared beside it).
ADVISORY_DB ?= ../shared/advisory-db
audit:
	$(CARGO_TEST) --no-run
	$(CARGO_LINTED) build -p advisories --bin advisories
	@if [ -d "$(ADVISORY_DB)" ]; then \
		target/debug/advisories --db "$(ADVISORY_DB)" && tools/advisories/self-check.sh target/debug/advisories "$(ADVISORY_DB)"; \
	elif [ "$(REQUIRE_ADVISORY_DB)" = 1 ]; then \
		echo "audit: no advisory database at $(ADVISORY_DB) (REQUIRE_ADVISORY_DB=1)"; exit 1; \
	else \
		echo "audit: skipped: no advisory database at $(ADVISORY_DB) (ADVISORY_DB=… names one; REQUIRE_ADVISORY_DB=1 fails instead)"; \
	fi

## The app: types, lint (import boundaries included), formatting, unit tests.
test-app:
	cd app && npx tsc --noEmit && npm run lint && npm run format:check && npm test

# The binary the Rust tests built (same features), so nothing is compiled twice.
# Two test files at a time, each with its own site and browser: they wait on
# the throttled links and the site's answers more than they compute (all 119
# in 320 s, against 464 s one file at a time, on a quiet machine before the
# cuts of docs/testing.md "Build time").
E2E_CONCURRENCY ?= 2
test-e2e:
	$(CARGO_TEST) --no-run
	cd app && SITE_BIN=$(abspath $(SITE_BIN)) node --test --test-concurrency=$(E2E_CONCURRENCY) e2e/

## REDbot (lint for HTTP) and the Nu Html Checker over the site on loopback
## (tests/lint/): fails on any error they report, prints their warnings.
## REDbot from PyPI (pinned in tools/lint/requirements.txt, into
## tools/lint/.venv), the checker from npm (tools/lint/package-lock.json)
## with Java from apt. Uses the binary the Rust tests build, like test-e2e.
LINT_APT_PACKAGES := default-jre-headless python3-venv
test-lint: deps lint-deps
	$(CARGO_TEST) --no-run
	SITE_BIN=$(abspath $(SITE_BIN)) ./tests/lint/run.sh

lint-deps: tools/lint/.venv/bin/redbot tools/lint/node_modules/.package-lock.json
	@missing=""; for p in $(LINT_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

tools/lint/.venv/bin/redbot: tools/lint/requirements.txt
	python3 -m venv tools/lint/.venv
	tools/lint/.venv/bin/pip install -q -r tools/lint/requirements.txt
	@touch $@

# --ignore-scripts: vnu-jar's install script would download a Java; apt's is used.
tools/lint/node_modules/.package-lock.json: tools/lint/package.json tools/lint/package-lock.json
	cd tools/lint && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

## Load benchmark on loopback (release build); prints ratios against baselines.
bench: deps release bench-tool
	./bench/run.sh
	./bench/account.sh
	./bench/locator.sh
	node bench/operator-hang.mjs
	SITE_BIN=$(abspath target/release/site) node bench/images.mjs
	SITE_BIN=$(abspath target/release/site) node bench/publishing.mjs
	$(MAKE) bench-search
	target/release/examples/site-bench search

## The search's evaluation set against the index of the embedded site: recall
## at 5 and MRR per language and category (a test of tests/api/, debug build:
## what it measures is which pages are found, not how fast).
bench-search: deps
	cargo test --test api search_eval:: -- --nocapture

## Three instances behind nginx on Redis against one (release build).
bench-scale: deps release
	./bench/scale.sh

## Three instances behind nginx on Redis under load for SOAK_MINUTES (10)
## while a schedule of faults runs (CMS, operator API, Redis, an instance
## killed, one drained); prints figures per minute and a verdict. Not part of
## `make test`.
## The server's RSS after slow clients, random addresses and a wapiti scan (apt: slowhttptest, wapiti).
bench-memory: deps release
	SITE_BIN=$(abspath target/release/site) ./bench/memory.sh

soak: deps release
	SITE_BIN=$(abspath target/release/site) ./bench/soak.sh

## A ten-year newsroom crawled as a search engine would: the Strapi fixture
## with STORIES (10,000) stories per language, the `serve` build (what
## `make run` serves) crawled twice from 8 addresses, after a restart, and
## fresh from one address; the table of bench/README.md. Long: not part of
## `make bench`.
STORIES ?= 10000
bench-newsroom: build-deps
	cargo build --profile serve --bin site
	STORIES=$(STORIES) SITE_BIN=$(abspath target/serve/site) ./bench/newsroom.sh

clean:
	cargo clean
	rm -rf app/node_modules app/dist

## The Strapi 5 CMS (cms/): installs it, generates its schema from the site's
## content model (`site content-model`), imports content/ into an empty
## database and serves it on 127.0.0.1:1337 in the foreground.
.PHONY: cms cms-deps test-cms test-scale test-caches test-small-browsers
cms: build cms-deps
	SITE_BIN=$(abspath $(SITE_BIN)) ./cms/run.sh

cms-deps: cms/node_modules/.package-lock.json

cms/node_modules/.package-lock.json: cms/package.json cms/package-lock.json
	cd cms && npm ci --no-audit --no-fund
	@touch $@

## The site against a real Strapi: every route equal to the embedded content,
## webhook invalidation, `site check-cms` (cms/test/run.mjs). Uses the binary
## the Rust tests build, like test-e2e.
test-cms: deps cms-deps
	$(CARGO_TEST) --no-run
	SITE_BIN=$(abspath $(SITE_BIN)) node --test cms/test/*.test.mjs
	SITE_BIN=$(abspath $(SITE_BIN)) node cms/test/run.mjs

## Three instances sharing Redis behind nginx on loopback (tests/scale/):
## sign-in across instances, the shared code budget, logout everywhere, a
## webhook refreshing all three within 1 s, an instance killed mid-run
## losing no accepted purchase or form, Redis stopped and started; then
## three with their own DATA_DIR sharing Redis and PostgreSQL: one killed
## and its DATA_DIR deleted, PostgreSQL restarted, no form lost or doubled.
## Uses the binary the Rust tests build, like test-e2e.
test-scale: deps
	$(CARGO_TEST) --no-run
	SITE_BIN=$(abspath $(SITE_BIN)) ./tests/in-own-group.sh tests/scale/

## deploy/'s nginx cache and Varnish VCL in front of one instance on loopback
## (tests/caches/): pages for everyone served from each cache, and whatever
## depends on the visitor (session, flash notice, language on `/`, the
## account area, the API) theirs alone. Uses the binary the Rust tests build.
test-caches: deps
	$(CARGO_TEST) --no-run
	SITE_BIN=$(abspath $(SITE_BIN)) ./tests/in-own-group.sh tests/caches/

## The small engines of cheap phones and proxy browsers against one instance
## (tests/small-browsers/): NetSurf at 240×320 under Xvfb (heading on the
## first screen, no sideways scroll, a legible header, a menu that opens),
## NetSurf and Lynx signing in and buying a bundle for a friend without
## JavaScript, and where the heading falls in w3m's and Lynx's text at 40
## columns. Uses the binary the Rust tests build.
test-small-browsers: deps
	$(CARGO_TEST) --no-run
	SITE_BIN=$(abspath $(SITE_BIN)) ./tests/in-own-group.sh tests/small-browsers/
