# provably — the two commands a new user runs:
#   make diff   the harness against every target (the main job)
#   make test   everything CI checks
#
# Each target installs what it needs: a virtualenv with numpy (.venv), the
# npm packages (node_modules), and Debian's chromium when it is missing.
#
# Exit codes: make itself exits 2 whenever a command fails, so each
# `provably` run says its own code on its last line (the table in README.md,
# "Exit codes"); run the command shown for that code.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV      := .venv
PYTHON    := $(CURDIR)/$(VENV)/bin/python
CARGO     ?= cargo
# The build `make diff` runs: by default the one `cargo test` makes (the dev
# profile is optimized, opt-level 1 and 2 for dependencies), so `make diff`
# and `make test` compile once between them. PROFILE=release for benchmarks.
PROFILE   ?= debug
BIN       := target/$(PROFILE)/provably
# Generated cases per op for `make diff`; raise for a deeper run.
CASES     ?= 1000
SEED      ?= $(shell date +%Y%m%d)
# The kill table's generated cases use a fixed seed, so docs/adequacy.md can be reproduced.
ADEQUACY_SEED ?= 1

export PROVABLY_PYTHON := $(PYTHON)

# `provably` with its own exit code said when it is not 0 (make's is 2).
define provably
$(1) || { rc=$$?; echo "$(firstword $(1)) exited $$rc: $$(scripts/exit-code $$rc)" >&2; exit $$rc; }
endef

# Progress bars on a terminal; quiet when piped or in CI (the binary hides
# them itself when stderr is no terminal).
QUIET := $(if $(CI),--quiet)

.PHONY: help test test-cargo-lane test-binary-lane test-spark-lane test-toy-after-build test-spark spark-deps java diff diff-python diff-numpy diff-node diff-wild test-wild test-toy test-toy-stages conformance adequacy vectors web fuzz bench deps venv node chromium clean

help:
	@echo "make diff         run the harness against every target (CASES=$(CASES), SEED=$(SEED))"
	@echo "make test         fmt, clippy, rustdoc, cargo tests (with the Python parity), JS and browser tests, the wild stacks; ends in a summary"
	@echo "make diff-python  the published referenz.py and poker_referenz.py on 10,000+ cases"
	@echo "make diff-numpy   real numpy and the page's Python lines on 10,000+ seeds"
	@echo "make diff-node    our WebCrypto target under node (CASES per op)"
	@echo "make diff-wild    every stack in the wild (harness/wild/), CASES per op, against harness/expectations"
	@echo "make test-wild    the stacks in the wild as make test runs them: the vectors, then 40 cases per op"
	@echo "make test-toy     the toy game toy.coin end to end in a build of its own (target/toy/provably), as make test runs it"
	@echo "make conformance  a deep wild run and its page, docs/conformance/index.html"
	@echo "make adequacy     the mutant catalog's kill table (vectors, default diff, published vektoren) into docs/adequacy.md"
	@echo "make vectors      regenerate vectors/ and the schemas"
	@echo "make web          serve the verification page on http://127.0.0.1:8000/"
	@echo "make fuzz         the request and response parsers on 1,000,000 fuzzed lines each"
	@echo "make bench        one run into benches/runs/<date>-<machine>/: the machine, criterion benchmarks, the ratios of scripts/bench-ratios.sh"
	@echo "make bench-audit  provably audit vs serve on 10^5 shoes, peak RSS at 10^6 rounds"
	@echo "make test-spark   the audit as a Spark job (local[2]) against one provably audit (docs/scale.md)"
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

# The Spark job (harness/spark/, docs/scale.md): pyspark in the same .venv,
# and a Java 17 runtime (Debian's) when there is no java at all.
$(VENV)/.spark-installed: harness/spark/requirements.txt $(VENV)/.installed
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r harness/spark/requirements.txt
	touch $@

java:
	@command -v java >/dev/null || { \
	  echo "installing Debian's openjdk-17-jre-headless"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; fi; }

spark-deps: $(VENV)/.spark-installed java

# `--features wild` builds the wild targets' binaries (wild-ring, wild-fair)
# beside provably. The debug one is built by `cargo test --no-run`: a plain
# `cargo build` would resolve the dependencies' features without the
# dev-dependencies and compile them a second time.
$(BIN): $(shell find src -name '*.rs') Cargo.toml Cargo.lock
	$(CARGO) $(if $(filter release,$(PROFILE)),build --release,test --no-run) --locked --features wild

# ------------------------------------------------------------------- tests

# Each stage through scripts/stage: its output shown and kept in
# target/stages/NAME.log, and at the end one summary line per stage
# (passed, counts, wall and CPU seconds). `cargo test` builds
# target/debug/provably, which the later stages run (a `cargo build` or
# `cargo run` would compile the crate again without the dev-dependencies).
# The mutant catalog: each witness diverges, and the vectors alone catch
# every mutant.
STAGE := scripts/stage
TESTBIN := PROVABLY_BIN=$(CURDIR)/target/debug/provably
#
# The machine has two cores, and most stages leave one of them waiting
# (on subprocesses, on Chromium, on a JVM), so after `cargo test` three
# lanes run side by side:
#   cargo    the stages that compile (one at a time: cargo locks its
#            target directory): the plain build, the toy build, clippy,
#            rustdoc. The plain and toy builds link target/debug/provably
#            for a moment, so the other lanes run a copy, target/product/;
#   binary   the JS tests and the browser tests;
#   spark    the Spark job, mostly a JVM waiting, then the mutant catalog.
# Only the cargo lane streams its output; the others keep it in their logs
# (shown whole when a stage fails). Then the two browser files that time
# the page's main thread (its longest task while a large proof is
# checked) run alone, and last the wild stacks beside the toy's tests.
# The tests' threads: the integration tests wait on their targets about
# half the time (one run: 213 s with 2 threads, 164 s with 4, same CPU).
PRODUCT := $(CURDIR)/target/product/provably
BROWSER_ALONE := web/test/page-never-stalls.test.mjs web/test/links-and-large-proofs.test.mjs
LANES := $(MAKE) --no-print-directory -j3
test: deps spark-deps
	@$(STAGE) --reset
	@$(STAGE) fmt $(CARGO) fmt --all -- --check
	@$(STAGE) cargo-test env INSTA_UPDATE=no RUST_TEST_THREADS=4 $(CARGO) test --locked --features wild
	@mkdir -p $(dir $(PRODUCT)) && cp target/debug/provably $(PRODUCT).tmp && mv $(PRODUCT).tmp $(PRODUCT)
	@$(LANES) test-cargo-lane test-binary-lane test-spark-lane
	@$(STAGE) browser-alone env PROVABLY_BIN=$(PRODUCT) node --test $(BROWSER_ALONE)
	@$(LANES) test-wild-stages test-toy-after-build
	@$(STAGE) --summary

# The plain stage (scripts/plain-check) builds the product from the plain
# forms alone (`--features plain`: each scheme as its page states it, HMAC
# as RFC 2104 does, no fast form) on the dependencies `cargo test` built,
# runs the library's tests on it and its `provably vectors --check`: the
# checked-in vectors, derived by the fast forms, are derived again by the
# plain ones, so every vector holds the fast forms to the plain ones.
# rustdoc runs with its warnings denied, after clippy's check build (whose
# dependencies' metadata it reads): a broken intra-doc link fails.
test-cargo-lane:
	@$(STAGE) vectors target/debug/provably vectors --check
	@$(STAGE) plain env CARGO=$(CARGO) scripts/plain-check
	@$(STAGE) toy-build env CARGO=$(CARGO) scripts/toy-build $(TOYBIN)
	@$(STAGE) clippy $(CARGO) clippy --all-targets --locked --features wild -- -D warnings
	@$(STAGE) doc env RUSTDOCFLAGS='-D warnings' $(CARGO) doc --no-deps --locked --features wild

# The browser files run two at a time (a file keeps about half a core busy:
# Chromium waits on its own work).
test-binary-lane:
	@$(STAGE) --brief js env PROVABLY_BIN=$(PRODUCT) node --test --test-concurrency=2 reference/js/test/
	@$(STAGE) --brief browser env PROVABLY_BIN=$(PRODUCT) node --test --test-concurrency=2 $(filter-out $(BROWSER_ALONE),$(wildcard web/test/*.test.mjs))

test-spark-lane:
	@$(STAGE) --brief test-spark env PROVABLY_BIN=$(PRODUCT) $(SPARK_TEST)
	@$(STAGE) --brief mutants env PROVABLY_BIN=$(PRODUCT) npm run --silent test:mutants

# Every stack in the wild (harness/wild/): the vectors, then a small
# generated run, each held to harness/expectations/ (exit 3 on any change).
# The expected findings stay in the stage's log; the table and the verdict
# are shown, and the whole log when something changed.
WILD := diff --targets-dir harness/wild --expectations harness/expectations
# wild-cases is README's "the same by hand" block, word for word (its
# readme test skips it rather than run the same minute twice).
WILD_CASES := $(WILD) --cases 40 --seed 1 --report target/wild.json
test-wild-stages:
	@$(STAGE) --brief wild-vectors target/debug/provably $(WILD) --vectors-only --report target/wild-vectors.json
	@$(STAGE) --brief wild-cases target/debug/provably $(WILD_CASES)
	@$(STAGE) wild-page target/debug/provably report target/wild.json -o target/conformance

# The Spark job in local[2] on 10^5 rounds in 8+ partitions, a ground
# archive (--stats) and a bet history cut across partitions, each against
# one `provably audit` of the job's canonical file (harness/spark/test_spark.py).
SPARK_TEST := env SPARK_LOCAL_IP=127.0.0.1 $(PYTHON) harness/spark/test_spark.py

test-spark: spark-deps
	@test -x target/debug/provably || $(CARGO) test --no-run --locked --features wild
	@$(STAGE) --reset
	@$(STAGE) test-spark env $(TESTBIN) $(SPARK_TEST)
	@$(STAGE) --summary

test-wild:
	@$(STAGE) --reset
	@$(MAKE) --no-print-directory test-wild-stages
	@$(STAGE) --summary

# The toy game (src/schemes/toy/, reference/js/toy.mjs, docs/contributing.md)
# in a build of its own, so target/debug/provably, the product, never has
# it: scripts/toy-build builds it in the product's target directory on the
# dependencies `cargo test` built (about a minute), copies it to
# target/toy/provably and links the product's binary back. scripts/toy-tree
# writes the checkout as that build has it into target/toy/tree (its
# vectors and op table with toy.coin, so the JS engine there serves it);
# there the JS tests of the op table and the vectors, the page's German
# names, the toy's own tests (tests/toy/: its statistics against the
# audit's on honest and ground histories, a wrong coin, the page's
# self-test), and the harness against our node target.
TOY     := target/toy
TOYBIN  := $(CURDIR)/$(TOY)/provably
TOYTREE := $(TOY)/tree
TOYJS   := tests/toy/ reference/js/test/schema.test.mjs reference/js/test/vectors.test.mjs web/test/units.test.mjs
test-toy-stages:
	@$(STAGE) toy-build env CARGO=$(CARGO) scripts/toy-build $(TOYBIN)
	@$(MAKE) --no-print-directory test-toy-after-build

# make test runs the toy's build in its cargo lane, the rest beside the
# wild stacks (their logs kept, shown whole when one fails).
test-toy-after-build:
	@$(STAGE) --brief toy-tree scripts/toy-tree $(TOYBIN) $(TOYTREE)
	@$(STAGE) --brief toy-js env PROVABLY_BIN=$(TOYBIN) node --test $(addprefix $(TOYTREE)/,$(TOYJS))
	@$(STAGE) --brief toy-diff $(TOYBIN) diff --targets-dir $(TOYTREE)/harness/targets --target node --op toy.coin --cases 200 --seed 1 $(QUIET)

test-toy: deps
	@$(STAGE) --reset
	@$(MAKE) --no-print-directory test-toy-stages
	@$(STAGE) --summary

# ----------------------------------------------------------------- harness

# Every built-in target: the published Python programs, numpy, the page's
# Python lines, the published dice code, our node target, our own server.
diff: venv node $(BIN)
	@$(call provably,$(BIN) diff --cases $(CASES) --cases-for poker.deal=200 --seed $(SEED) $(QUIET) \
	  --report target/diff-report.json --junit target/diff-junit.xml)

# The published programs through their own command lines: 2,500 generated
# cases for each cursor op (10,000 through `pruefe`), 2,500 hands through
# `bewerte`, 400 deals through `austeilen` (one process each), plus every vector.
diff-python: venv $(BIN)
	@$(call provably,$(BIN) diff --target referenz --target poker-referenz --cases 2500 --cases-for poker.deal=400 --seed $(SEED) $(QUIET))

# Real numpy: 13,000 generated seeds per op (a fifth of them the edge seeds
# 0, 1, 2^32-1, 2^32, 2^62, 2^63-1; the rest random below 2^63).
diff-numpy: venv $(BIN)
	@$(call provably,$(BIN) diff --target numpy --target selfpoker-page --cases 13000 --seed $(SEED) $(QUIET))

diff-node: node $(BIN)
	@$(call provably,$(BIN) diff --target node --cases $(CASES) --seed $(SEED) $(QUIET))

# Every catalogued mutant (tests/mutants/) three ways: the vectors alone, a
# default diff, the published referenz.py vektoren. Prints the table and
# rewrites it in docs/adequacy.md; exit 1 while a mutant survives the
# vectors or the diff.
adequacy: venv $(BIN)
	node tests/mutants/adequacy.mjs --bin $(BIN) --cases $(CASES) --cases-for poker.deal=200 --seed $(ADEQUACY_SEED)

# The stacks in the wild deeply; CASES=1000 generated cases per op.
diff-wild: venv node $(BIN)
	@$(call provably,$(BIN) $(WILD) --cases $(CASES) --seed $(SEED) $(QUIET) --report target/wild-report.json)

# The conformance page of a deep run, docs/conformance/index.html: the
# stacks in the wild and the project's own WebCrypto target. A result that
# changed from its expectation (exit 3) still gets its page, marked new.
conformance: venv node $(BIN)
	$(BIN) $(WILD) --cases $(CASES) --seed $(SEED) $(QUIET) --report target/wild-report.json || [ $$? -eq 3 ]
	$(BIN) diff --target node --cases $(CASES) --seed $(SEED) $(QUIET) --report target/webcrypto-report.json
	$(BIN) report target/wild-report.json target/webcrypto-report.json -o docs/conformance
	node scripts/conformance-screenshot.mjs

vectors: $(BIN)
	$(BIN) vectors

web: $(BIN)
	$(BIN) web --port 8000

fuzz:
	PROPTEST_CASES=1000000 $(CARGO) test --release --locked fuzz::

# One run: the machine, criterion's benches, the ratios; each step's output
# and raw results kept under benches/runs/<date>-<machine>/ (scripts/bench-run).
bench:
	scripts/bench-run

# The four ratios in one run (BENCHMARKS.md, "Today's figures against their goals"):
# serve over the HMAC limit, diff over serve, audit over serve, the page's
# longest task over 100 ms.
bench-ratios: venv node chromium
	scripts/bench-ratios.sh

.PHONY: bench-audit bench-ratios examples test-wild-stages

# Whole proofs (BENCHMARKS.md): hyperfine of audit against serve, and peak RSS.
bench-audit:
	scripts/bench-audit.sh

examples: $(BIN)
	PROVABLY=$(BIN) scripts/proof-examples.sh

clean:
	rm -rf $(VENV) node_modules target
