# leitner — build, test, install. `make check` is the one test command (README, "Testing").
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
PYTHON ?= python3

.PHONY: all build build-clean release check unit e2e fuzz sync-soak bench clean install uninstall try

all: build

build:
	$(SWIFT) build

build-clean:
	@log=$$(mktemp) && { $(SWIFT) build > "$$log" 2>&1; status=$$?; cat "$$log"; \
	  warned=$$(grep -c ': warning: ' "$$log"); rm -f "$$log"; \
	  [ $$status -eq 0 ] || exit $$status; \
	  if [ "$$warned" -gt 0 ]; then echo "make check: the build printed $$warned warning lines; it must print none" >&2; exit 1; fi; }

# The programs as `make install` builds and installs them, in the same scratch path: what
# `bench/daemon.py` measures by default.
release:
	$(SWIFT) build -c release $(STATIC_FLAGS) --scratch-path $(RELEASE_SCRATCH)

# Unit tests, then the end-to-end tests against the built programs. The tests that change the
# process's TZ run alone, in a process of their own.
# The unit tests are built with the TestHooks trait (simulated crashes), in a build directory of
# their own, so that the programs the end-to-end tests run are built as they ship, without it.
UNIT = $(SWIFT) test --traits TestHooks --scratch-path .build/test-hooks $(if $(UNIT_FILTER),--filter '$(UNIT_FILTER)')

# Last, the fuzzer (docs/protocol.md, "Fuzzing"): leitner-fuzz sends the built leitnerd every
# method's parameters at the edges of their types, then random valid calls for FUZZ_CHECK_BUDGET
# seconds, checking the invariants after each; once with seed 1, once with a fresh seed it prints.
# Then its HTTP mode (docs/web.md, "Fuzzing") does the same to leitner-web's requests.
FUZZ_CHECK_BUDGET ?= 8
FUZZ = $$($(SWIFT) build --show-bin-path)/leitner-fuzz

# `make check` builds as `make try` does and fails when the compiler warned: a newcomer's first
# build shows no warnings (#25). Only the files compiled in this run can warn, so a clean clone
# (CI) checks them all.
check: build-clean
	$(UNIT)
	LEITNER_SYSTEM_TZ_TESTS=1 $(UNIT) --filter DayClockSystemZoneTests
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd
	$(FUZZ) --seed 1 --budget $(FUZZ_CHECK_BUDGET)
	$(FUZZ) --budget $(FUZZ_CHECK_BUDGET)
	$(FUZZ) --http --seed 1 --budget $(FUZZ_CHECK_BUDGET)
	$(FUZZ) --http --budget $(FUZZ_CHECK_BUDGET)

unit:
	$(UNIT)

e2e: build
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd

# The fuzzer alone, as long as asked: `make fuzz FUZZ_BUDGET=3600`; `FUZZ_SEED=N` replays a run.
FUZZ_BUDGET ?= 300
FUZZ_SEED ?=
fuzz: build
	$(FUZZ) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) --budget $(FUZZ_BUDGET)
	$(FUZZ) --http $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) --budget $(FUZZ_BUDGET)

# Two daemons kept in step by two real Syncthing instances on loopback (docs/sync.md): every
# scripted scenario, online and paused, then SOAK_ROUNDS randomised rounds (LEITNER_SYNC_SEED=N
# replays a run). `make check` runs a short round of it.
SOAK_ROUNDS ?= 20
sync-soak: build
	LEITNER_SYNC_SOAK=1 LEITNER_SYNC_ROUNDS=$(SOAK_ROUNDS) LEITNER_BIN=$$($(SWIFT) build --show-bin-path) \
		$(PYTHON) -m pytest -q -s Tests/EndToEnd/test_sync_syncthing.py

bench:
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/leitner-bench
	$(PYTHON) bench/anki-import.py $$($(SWIFT) build -c release --show-bin-path)

clean:
	rm -rf .build

# --- install / uninstall -------------------------------------------------------------------
# `make install` builds static release binaries (no Swift runtime needed where they run) in
# their own scratch path, so the debug and benchmark builds are left alone, then installs the
# programs, the systemd units (their /usr/local/bin paths rewritten to BINDIR), the `leitner`
# group for systemd-sysusers, the man pages, the completion for bash, zsh and fish (printed by the
# built leitnerctl from its command table, where each shell looks) and /etc/leitner/leitner.conf
# (never over an existing one). `make uninstall` removes exactly the files listed here.
RELEASE_SCRATCH ?= .build-release
# The Swift runtime linked in, and no `$ORIGIN` run path: a static build needs no library beside
# it, and with one the dynamic loader looked for libc, libm, libstdc++ and libgcc_s in ten
# directories under the program's own (24 failed system calls) before every start
# (docs/performance.md, "leitnerctl as a process").
STATIC_FLAGS = --static-swift-stdlib --disable-local-rpath
BINDIR = $(PREFIX)/bin
SYSTEMUNITDIR = $(PREFIX)/lib/systemd/system
USERUNITDIR = $(PREFIX)/lib/systemd/user
SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
MANDIR = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
DOCDIR = $(PREFIX)/share/doc/leitner
CONFDIR = /etc/leitner

PROGRAMS = leitnerd leitnerctl leitner-web
UNITS = leitnerd.service leitnerd.socket leitner-prepare.service leitner-prepare.timer \
	leitnerd@.service leitnerd@.socket leitner-prepare@.service leitner-prepare@.timer \
	leitner-web.service leitner-web.socket
MAN1 = man/leitnerctl.1 man/leitner-web.1
MAN5 = $(wildcard man/leitner.conf.5)
MAN8 = man/leitnerd.8

INSTALLED = $(addprefix $(BINDIR)/,$(PROGRAMS)) \
	$(addprefix $(SYSTEMUNITDIR)/,$(UNITS)) \
	$(addprefix $(USERUNITDIR)/,$(UNITS)) \
	$(SYSUSERSDIR)/leitner.conf \
	$(addprefix $(MANDIR)/man1/,$(notdir $(MAN1))) \
	$(addprefix $(MANDIR)/man5/,$(notdir $(MAN5))) \
	$(addprefix $(MANDIR)/man8/,$(notdir $(MAN8))) \
	$(BASHCOMPDIR)/leitnerctl $(ZSHCOMPDIR)/_leitnerctl $(FISHCOMPDIR)/leitnerctl.fish \
	$(DOCDIR)/rules.md

install:
	$(SWIFT) build -c release $(STATIC_FLAGS) --scratch-path $(RELEASE_SCRATCH)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMUNITDIR) $(DESTDIR)$(USERUNITDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CONFDIR)
	bin=$$($(SWIFT) build -c release $(STATIC_FLAGS) --scratch-path $(RELEASE_SCRATCH) --show-bin-path) && \
	for p in $(PROGRAMS); do install -m 0755 "$$bin/$$p" $(DESTDIR)$(BINDIR)/$$p || exit 1; done
	for u in $(UNITS); do \
		sed 's|/usr/local/bin/|$(BINDIR)/|g' systemd/$$u > $(DESTDIR)$(SYSTEMUNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(SYSTEMUNITDIR)/$$u && \
		sed 's|/usr/local/bin/|$(BINDIR)/|g' systemd/user/$$u > $(DESTDIR)$(USERUNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(USERUNITDIR)/$$u || exit 1; \
	done
	install -m 0644 systemd/leitner.sysusers $(DESTDIR)$(SYSUSERSDIR)/leitner.conf
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),install -d $(DESTDIR)$(MANDIR)/man5 && install -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	install -m 0644 $(MAN8) $(DESTDIR)$(MANDIR)/man8/
	bin=$$($(SWIFT) build -c release $(STATIC_FLAGS) --scratch-path $(RELEASE_SCRATCH) --show-bin-path) && \
	"$$bin/leitnerctl" completion bash > $(DESTDIR)$(BASHCOMPDIR)/leitnerctl && \
	"$$bin/leitnerctl" completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_leitnerctl && \
	"$$bin/leitnerctl" completion fish > $(DESTDIR)$(FISHCOMPDIR)/leitnerctl.fish && \
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/leitnerctl $(DESTDIR)$(ZSHCOMPDIR)/_leitnerctl $(DESTDIR)$(FISHCOMPDIR)/leitnerctl.fish
	install -m 0644 docs/rules.md $(DESTDIR)$(DOCDIR)/rules.md
	@if [ -e $(DESTDIR)$(CONFDIR)/leitner.conf ]; then \
		echo "keeping the existing $(DESTDIR)$(CONFDIR)/leitner.conf"; \
	else \
		install -m 0644 systemd/leitner.conf $(DESTDIR)$(CONFDIR)/leitner.conf; \
	fi

# The configuration is removed only while it is still the file install put there: an edited
# one belongs to the administrator.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	@if cmp -s systemd/leitner.conf $(DESTDIR)$(CONFDIR)/leitner.conf; then \
		rm -f $(DESTDIR)$(CONFDIR)/leitner.conf; \
	elif [ -e $(DESTDIR)$(CONFDIR)/leitner.conf ]; then \
		echo "keeping the changed $(DESTDIR)$(CONFDIR)/leitner.conf"; \
	fi
# One command from a fresh clone to reviewing the sample deck, on a throwaway box in .build/try
# (docs/leitnerctl.md, "Try it"). It writes a configuration for that box and two wrappers,
# .build/try/leitnerctl and .build/try/leitnerd, that run the built programs on it
# (config/try-wrapper.in); it says how to review the box in a browser, and the last line it
# prints is the command to go on with. The leitnerd that leitnerctl starts for it exits after
# TRY_IDLE without a client.
TRY_DIR ?= $(CURDIR)/.build/try
# One socket per checkout (a checksum of its path): two checkouts' trials are two boxes.
TRY_SOCKET ?= $${XDG_RUNTIME_DIR:-/tmp}/leitner-try-$$(id -u)-$$(printf %s '$(TRY_DIR)' | cksum | cut -d' ' -f1).sock
TRY_IDLE ?= 10min
try: build
	@mkdir -p $(TRY_DIR)
	@printf '# Written by make try: a throwaway box.\n[Store]\nPath=%s/leitner\n[Daemon]\nSocket=%s\nExitIdleAfter=%s\n' \
	  "$(TRY_DIR)" "$(TRY_SOCKET)" "$(TRY_IDLE)" > $(TRY_DIR)/leitner.conf
	@bin=$$($(SWIFT) build --show-bin-path) && for program in leitnerctl leitnerd; do \
	  sed -e 's|@TRY_DIR@|$(TRY_DIR)|g' -e "s|@BIN@|$$bin|g" -e "s|@PROGRAM@|$$program|g" config/try-wrapper.in \
	    > $(TRY_DIR)/$$program && chmod 0755 $(TRY_DIR)/$$program || exit 1; done
	@$(TRY_DIR)/leitnerctl import samples/kana.tsv
	@$(TRY_DIR)/leitnerctl review; status=$$?; \
	  echo; \
	  echo "This was a throwaway box; its daemon stops by itself after $(TRY_IDLE) without a client."; \
	  echo "To review it in a web browser (a phone: docs/web.md), run '$(TRY_DIR)/leitnerctl web'"; \
	  echo "and open the pairing link it prints first (http://127.0.0.1:8470/pair/…) in the browser; Ctrl-C stops it."; \
	  echo "To drill the kana by typing their romaji, run '$(TRY_DIR)/leitnerctl review --type'."; \
	  echo "Go on with it (also status, list, log, web, stop, help):"; \
	  echo "  $(TRY_DIR)/leitnerctl review"; \
	  exit $$status
