# leitner — build, test, install. `make check` is the one test command (README, "Testing").
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
PYTHON ?= python3

.PHONY: all build release check unit e2e bench clean try

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --static-swift-stdlib

# Unit tests, then the end-to-end tests against the built programs.
check: build
	$(SWIFT) test
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd

unit:
	$(SWIFT) test

e2e: build
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd

bench:
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/leitner-bench

clean:
	rm -rf .build

# One command from a fresh clone to reviewing the sample deck, on a throwaway box in .build/try
# (docs/leitnerctl.md, "Try it"). The leitnerd that leitnerctl starts for it exits after 10 idle
# minutes; run `make try` again to go on with the same box.
TRY_DIR = $(CURDIR)/.build/try
try: build
	@mkdir -p $(TRY_DIR)
	@printf '# Written by make try: a throwaway box.\n[Store]\nPath=%s/store\n[Daemon]\nSocket=%s\nExitIdleAfter=10min\n' \
	  "$(TRY_DIR)" "$${XDG_RUNTIME_DIR:-/tmp}/leitner-try-$$(id -u).sock" > $(TRY_DIR)/leitner.conf
	@bin=$$($(SWIFT) build --show-bin-path) && \
	  env -u LEITNER_SOCKET $$bin/leitnerctl --config $(TRY_DIR)/leitner.conf import samples/kana.tsv && \
	  env -u LEITNER_SOCKET $$bin/leitnerctl --config $(TRY_DIR)/leitner.conf review
