# hrvmon: build and install.
#
#     make                      # release build, Swift runtime linked statically
#     sudo make install         # into PREFIX=/usr/local (install-strip: without symbols)
#     sudo make uninstall
#     make install DESTDIR=debian/hrvmon PREFIX=/usr   # for a package
#     make install BINARY=path  # install a binary built elsewhere
#
# Installs the binary, the udev rule, the systemd user unit, bash/zsh/fish completions and the
# manual pages (every man/*.1: hrvmon(1) and a page per command, written in mdoc). Nothing runs
# as root but `install` and `uninstall`, and those build nothing.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# udev reads /usr/lib/udev/rules.d and /usr/local/lib/udev/rules.d (and /etc, /run); systemd
# user managers read /usr/lib/systemd/user and /usr/local/lib/systemd/user. So both follow PREFIX.
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d

SWIFT ?= swift
INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 0755
# The static build: only the runtime pages hrvmon touches are resident (16 MB RSS monitoring,
# against 23 MB linked dynamically; see docs/development/benchmarks.md).
BINARY ?= .build/release/hrvmon
MANPAGES = $(wildcard man/*.1)
# The user units run by a timer: the reminders (`hrvmon remind`) and `hrvmon study sync`; off
# until the user enables a timer.
TIMED = hrvmon-checkin-reminder hrvmon-dass21-reminder hrvmon-study-sync
TIMEDUNITS = $(addsuffix .service,$(TIMED)) $(addsuffix .timer,$(TIMED))

INSTALLED = \
	$(DESTDIR)$(BINDIR)/hrvmon \
	$(DESTDIR)$(UDEVRULESDIR)/90-hrvmon.rules \
	$(DESTDIR)$(USERUNITDIR)/hrvmon.service \
	$(addprefix $(DESTDIR)$(USERUNITDIR)/,$(TIMEDUNITS)) \
	$(DESTDIR)$(BASHCOMPLETIONDIR)/hrvmon \
	$(DESTDIR)$(ZSHCOMPLETIONDIR)/_hrvmon \
	$(DESTDIR)$(FISHCOMPLETIONDIR)/hrvmon.fish \
	$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES)))

.PHONY: all install install-strip uninstall

all:
	$(SWIFT) build -c release --static-swift-stdlib --product hrvmon

install:
	@test -x "$(BINARY)" || { echo "make install: no $(BINARY): run make first, or name a binary with BINARY=" >&2; exit 1; }
	$(INSTALL) -d $(sort $(dir $(INSTALLED)))
	$(INSTALL_PROGRAM) $(BINARY) $(DESTDIR)$(BINDIR)/hrvmon
	$(INSTALL) -m 0644 udev/90-hrvmon.rules $(DESTDIR)$(UDEVRULESDIR)/90-hrvmon.rules
	sed 's|@bindir@|$(BINDIR)|g' systemd/hrvmon.service.in > $(DESTDIR)$(USERUNITDIR)/hrvmon.service
	for unit in $(TIMED); do \
		sed 's|@bindir@|$(BINDIR)|g' systemd/$$unit.service.in > $(DESTDIR)$(USERUNITDIR)/$$unit.service && \
		chmod 0644 $(DESTDIR)$(USERUNITDIR)/$$unit.service && \
		$(INSTALL) -m 0644 systemd/$$unit.timer $(DESTDIR)$(USERUNITDIR)/$$unit.timer || exit 1; \
	done
	$(BINARY) --generate-completion-script bash > $(DESTDIR)$(BASHCOMPLETIONDIR)/hrvmon
	$(BINARY) --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPLETIONDIR)/_hrvmon
	$(BINARY) --generate-completion-script fish > $(DESTDIR)$(FISHCOMPLETIONDIR)/hrvmon.fish
	$(INSTALL) -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/hrvmon.service $(DESTDIR)$(BASHCOMPLETIONDIR)/hrvmon \
		$(DESTDIR)$(ZSHCOMPLETIONDIR)/_hrvmon $(DESTDIR)$(FISHCOMPLETIONDIR)/hrvmon.fish
ifeq ($(DESTDIR),)
	@echo "Installed. To use the udev rule and the user unit now: sudo udevadm control --reload,"
	@echo "and as each user: systemctl --user daemon-reload (docs/guide/install.md: Start automatically)."
endif

# The same with the symbols stripped (78 MB → 60 MB); packaging tools strip by themselves.
install-strip:
	$(MAKE) install INSTALL_PROGRAM='$(INSTALL) -s -m 0755'

uninstall:
	rm -f $(INSTALLED)
