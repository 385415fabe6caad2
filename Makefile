# leitner — build, test, install. `make check` is the one test command (README, "Testing").
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
PYTHON ?= python3

.PHONY: all build release check unit e2e bench clean install uninstall try

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --static-swift-stdlib

# Unit tests, then the end-to-end tests against the built programs. The tests that change the
# process's TZ run alone, in a process of their own.
# The unit tests are built with the TestHooks trait (simulated crashes), in a build directory of
# their own, so that the programs the end-to-end tests run are built as they ship, without it.
UNIT = $(SWIFT) test --traits TestHooks --scratch-path .build/test-hooks $(if $(UNIT_FILTER),--filter '$(UNIT_FILTER)')

check: build
	$(UNIT)
	LEITNER_SYSTEM_TZ_TESTS=1 $(UNIT) --filter DayClockSystemZoneTests
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd

unit:
	$(UNIT)

e2e: build
	LEITNER_BIN=$$($(SWIFT) build --show-bin-path) $(PYTHON) -m pytest -q Tests/EndToEnd

bench:
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/leitner-bench

clean:
	rm -rf .build

# --- install / uninstall -------------------------------------------------------------------
# `make install` builds static release binaries (no Swift runtime needed where they run) in
# their own scratch path, so the debug and benchmark builds are left alone, then installs the
# programs, the systemd units (their /usr/local/bin paths rewritten to BINDIR), the `leitner`
# group for systemd-sysusers, the man pages, the bash completion and /etc/leitner/leitner.conf
# (never over an existing one). `make uninstall` removes exactly the files listed here.
RELEASE_SCRATCH ?= .build-release
BINDIR = $(PREFIX)/bin
SYSTEMUNITDIR = $(PREFIX)/lib/systemd/system
USERUNITDIR = $(PREFIX)/lib/systemd/user
SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
MANDIR = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
CONFDIR = /etc/leitner

PROGRAMS = leitnerd leitnerctl
UNITS = leitnerd.service leitnerd.socket leitner-prepare.service leitner-prepare.timer
MAN1 = man/leitnerctl.1
MAN5 = $(wildcard man/leitner.conf.5)
MAN8 = man/leitnerd.8

INSTALLED = $(addprefix $(BINDIR)/,$(PROGRAMS)) \
	$(addprefix $(SYSTEMUNITDIR)/,$(UNITS)) \
	$(addprefix $(USERUNITDIR)/,$(UNITS)) \
	$(SYSUSERSDIR)/leitner.conf \
	$(addprefix $(MANDIR)/man1/,$(notdir $(MAN1))) \
	$(addprefix $(MANDIR)/man5/,$(notdir $(MAN5))) \
	$(addprefix $(MANDIR)/man8/,$(notdir $(MAN8))) \
	$(BASHCOMPDIR)/leitnerctl

install:
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMUNITDIR) $(DESTDIR)$(USERUNITDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(CONFDIR)
	bin=$$($(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH) --show-bin-path) && \
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
	install -m 0644 completion/leitnerctl.bash $(DESTDIR)$(BASHCOMPDIR)/leitnerctl
	@if [ -e $(DESTDIR)$(CONFDIR)/leitner.conf ]; then \
		echo "keeping the existing $(DESTDIR)$(CONFDIR)/leitner.conf"; \
	else \
		install -m 0644 systemd/leitner.conf $(DESTDIR)$(CONFDIR)/leitner.conf; \
	fi

# The configuration is removed only while it is still the file install put there: an edited
# one belongs to the administrator.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@if cmp -s systemd/leitner.conf $(DESTDIR)$(CONFDIR)/leitner.conf; then \
		rm -f $(DESTDIR)$(CONFDIR)/leitner.conf; \
	elif [ -e $(DESTDIR)$(CONFDIR)/leitner.conf ]; then \
		echo "keeping the changed $(DESTDIR)$(CONFDIR)/leitner.conf"; \
	fi
# One command from a fresh clone to reviewing the sample deck, on a throwaway box in .build/try
# (docs/leitnerctl.md, "Try it"). The leitnerd that leitnerctl starts for it exits after 10 idle
# minutes; run `make try` again to go on with the same box. XDG_DATA_HOME points the daemon's
# default store at the same place as Path=, so the trial never touches the real box.
TRY_DIR = $(CURDIR)/.build/try
try: build
	@mkdir -p $(TRY_DIR)
	@printf '# Written by make try: a throwaway box.\n[Store]\nPath=%s/leitner\n[Daemon]\nSocket=%s\nExitIdleAfter=10min\n' \
	  "$(TRY_DIR)" "$${XDG_RUNTIME_DIR:-/tmp}/leitner-try-$$(id -u).sock" > $(TRY_DIR)/leitner.conf
	@bin=$$($(SWIFT) build --show-bin-path) && \
	  env -u LEITNER_SOCKET XDG_DATA_HOME=$(TRY_DIR) $$bin/leitnerctl --config $(TRY_DIR)/leitner.conf import samples/kana.tsv && \
	  env -u LEITNER_SOCKET XDG_DATA_HOME=$(TRY_DIR) $$bin/leitnerctl --config $(TRY_DIR)/leitner.conf review
