# leitner — build, test, install. `make check` is the one test command (README, "Testing").
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
PYTHON ?= python3

.PHONY: all build release check unit e2e bench clean

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
