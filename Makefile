# provably — the two commands a new user runs:
#   make diff   the harness against every target (the main job)
#   make test   everything CI checks
#
# Each target installs what it needs: a virtualenv with numpy (.venv), the
# npm packages (node_modules), and Debian's chromium when it is missing.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV      := .venv
PYTHON    := $(CURDIR)/$(VENV)/bin/python
CARGO     ?= cargo
# `make diff PROFILE=debug` reuses the test build instead of compiling a release one.
PROFILE   ?= release
BIN       := target/$(PROFILE)/provably
# Generated cases per op for `make diff`; raise for a deeper run.
CASES     ?= 1000
SEED      ?= $(shell date +%Y%m%d)
# The kill table's generated cases use a fixed seed, so docs/adequacy.md can be reproduced.
ADEQUACY_SEED ?= 1

export PROVABLY_PYTHON := $(PYTHON)

.PHONY: help test diff diff-python diff-numpy diff-node diff-wild test-wild conformance adequacy vectors web fuzz bench deps venv node chromium clean

help:
	@echo "make diff         run the harness against every target (CASES=$(CASES), SEED=$(SEED))"
	@echo "make test         fmt, clippy, cargo tests (with the Python parity), JS and browser tests"
	@echo "make diff-python  the published referenz.py and poker_referenz.py on 10,000+ cases"
	@echo "make diff-numpy   real numpy and the page's Python lines on 10,000+ seeds"
	@echo "make adequacy     the mutant catalog's kill table (vectors, default diff, published vektoren) into docs/adequacy.md"
	@echo "make vectors      regenerate vectors/ and the schemas"
	@echo "make web          serve the verification page on http://127.0.0.1:8000/"
	@echo "make fuzz         the request and response parsers on 1,000,000 fuzzed lines each"
	@echo "make bench        criterion benchmarks"
	@echo "make bench-audit  provably audit vs serve on 10^5 shoes, peak RSS at 10^6 rounds"
	@echo "make examples     rewrite examples/proofs/ with provably proof"

# ---------------------------------------------------------------- installs

$(VENV)/.installed: reference/requirements.txt reference/wild/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r reference/requirements.txt -r reference/wild/requirements.txt
	touch $@

venv: $(VENV)/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

node: node_modules/.installed

# Debian's chromium for the browser tests; installed only when missing.
chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

deps: venv node chromium

# `--features wild` builds the wild targets' binaries (wild-ring, wild-fair)
# beside provably, with the same features `cargo test` uses: one build.
$(BIN): $(shell find src -name '*.rs') Cargo.toml Cargo.lock
	$(CARGO) build --locked --features wild $(if $(filter release,$(PROFILE)),--release)

# ------------------------------------------------------------------- tests

test: deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked --features wild -- -D warnings
	INSTA_UPDATE=no $(CARGO) test --locked --features wild
	# `cargo test` built target/debug/provably; a separate `cargo build` or
	# `cargo run` would compile the dependencies again without the
	# dev-dependencies' features.
	target/debug/provably vectors --check
	npm run --silent test:js
	# The mutant catalog: each witness diverges, and the vectors alone catch every mutant.
	PROVABLY_BIN=$(CURDIR)/target/debug/provably npm run --silent test:mutants
	PROVABLY_BIN=$(CURDIR)/target/debug/provably npm run --silent test:browser
	$(MAKE) --no-print-directory test-wild

# Every stack in the wild (harness/wild/): the vectors, then a small
# generated run, each held to harness/expectations/ (exit 3 on any change).
WILD := diff --targets-dir harness/wild --expectations harness/expectations --quiet
test-wild:
	target/debug/provably $(WILD) --vectors-only --report target/wild-vectors.json
	target/debug/provably $(WILD) --cases 40 --seed 1 --report target/wild-generated.json

# ----------------------------------------------------------------- harness

# Every built-in target: the published Python programs, numpy, the page's
# Python lines, the published dice code, our node target, our own server.
diff: venv node $(BIN)
	$(BIN) diff --cases $(CASES) --cases-for poker.deal=200 --seed $(SEED) --quiet \
	  --report target/diff-report.json --junit target/diff-junit.xml

# The published programs through their own command lines: 2,500 generated
# cases for each cursor op (10,000 through `pruefe`), 2,500 hands through
# `bewerte`, 400 deals through `austeilen` (one process each), plus every vector.
diff-python: $(BIN)
	$(BIN) diff --target referenz --target poker-referenz --cases 2500 --cases-for poker.deal=400 --seed $(SEED) --quiet

# Real numpy: 13,000 generated seeds per op (a fifth of them the edge seeds
# 0, 1, 2^32-1, 2^32, 2^62, 2^63-1; the rest random below 2^63).
diff-numpy: venv $(BIN)
	$(BIN) diff --target numpy --target selfpoker-page --cases 13000 --seed $(SEED) --quiet

diff-node: node $(BIN)
	$(BIN) diff --target node --cases $(CASES) --seed $(SEED) --quiet

# Every catalogued mutant (tests/mutants/) three ways: the vectors alone, a
# default diff, the published referenz.py vektoren. Prints the table and
# rewrites it in docs/adequacy.md; exit 1 while a mutant survives the
# vectors or the diff.
adequacy: venv $(BIN)
	node tests/mutants/adequacy.mjs --bin $(BIN) --cases $(CASES) --cases-for poker.deal=200 --seed $(ADEQUACY_SEED)

# The stacks in the wild deeply; CASES=1000 generated cases per op.
diff-wild: venv node $(BIN)
	$(BIN) $(WILD) --cases $(CASES) --seed $(SEED) --report target/wild-report.json

# The conformance page of a deep run, docs/conformance/index.html: the
# stacks in the wild and the project's own WebCrypto target. A result that
# changed from its expectation (exit 3) still gets its page, marked new.
conformance: venv node $(BIN)
	$(BIN) $(WILD) --cases $(CASES) --seed $(SEED) --report target/wild-report.json || [ $$? -eq 3 ]
	$(BIN) diff --target node --cases $(CASES) --seed $(SEED) --quiet --report target/webcrypto-report.json
	$(BIN) report target/wild-report.json target/webcrypto-report.json -o docs/conformance
	node scripts/conformance-screenshot.mjs

vectors:
	$(CARGO) run --release --locked -- vectors

web: $(BIN)
	$(BIN) web --port 8000

fuzz:
	PROPTEST_CASES=1000000 $(CARGO) test --release --locked fuzz::

bench:
	$(CARGO) bench --locked --bench schemes
	$(CARGO) bench --locked --bench blackjack

.PHONY: bench-audit examples

# Whole proofs (BENCHMARKS.md): hyperfine of audit against serve, and peak RSS.
bench-audit:
	scripts/bench-audit.sh

examples: $(BIN)
	PROVABLY=$(BIN) scripts/proof-examples.sh

clean:
	rm -rf $(VENV) node_modules target
