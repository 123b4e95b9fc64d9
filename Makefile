# SPDX-License-Identifier: GPL-2.0-or-later
#
# rtlat - real-time latency test suite.
#
#   make                      build build/rtlat (host features if libraries found)
#   make static               static on-target binary in build/static/rtlat
#   make check                unit tests (cmocka) + command-line tests (pytest)
#   make install              install into $(DESTDIR)$(PREFIX)
#   make deps                 install build and test dependencies (Debian, root)
#   make asan                 build/asan/rtlat with ASan+UBSan (make check uses it)
#   make fuzz-run             run each report importer's libFuzzer target for
#                             FUZZ_TIME seconds (default 10; needs clang)
#
# Honours CC, CROSS_COMPILE, CFLAGS, CPPFLAGS, LDFLAGS, LDLIBS, DESTDIR, PREFIX.
# O=DIR selects the build directory (default: build).
# HOST_FEATURES=0 leaves out the host-side parts (report importers using cJSON,
# SQLite history); it is the default for cross and static builds.

VERSION := 0.1.0

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
STRIP ?= $(CROSS_COMPILE)strip
PKG_CONFIG ?= pkg-config
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

O ?= build
STATIC ?= 0
SANITIZE ?=

ifneq ($(CROSS_COMPILE),)
HOST_FEATURES ?= 0
else ifeq ($(STATIC),1)
HOST_FEATURES ?= 0
else
HOST_FEATURES ?= 1
endif

CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
RTLAT_CPPFLAGS := -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-D_TIME_BITS=64 -DRTLAT_VERSION='"$(VERSION)"' -Isrc
RTLAT_LDLIBS := -lpthread -lm
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif
ifeq ($(STATIC),1)
LDFLAGS += -static
endif

# Host-side libraries, compiled in when present.
ifeq ($(HOST_FEATURES),1)
ifeq ($(shell $(PKG_CONFIG) --exists libcjson 2>/dev/null && echo y),y)
RTLAT_CPPFLAGS += -DHAVE_CJSON $(shell $(PKG_CONFIG) --cflags libcjson)
RTLAT_LDLIBS += $(shell $(PKG_CONFIG) --libs libcjson)
endif
ifeq ($(shell $(PKG_CONFIG) --exists sqlite3 2>/dev/null && echo y),y)
RTLAT_CPPFLAGS += -DHAVE_SQLITE $(shell $(PKG_CONFIG) --cflags sqlite3)
RTLAT_LDLIBS += $(shell $(PKG_CONFIG) --libs sqlite3)
endif
# rtlat report/compare/db (src/report/); text formats need libc only.
RTLAT_CPPFLAGS += -DHAVE_REPORT
REPORT_SRCS := $(wildcard src/report/*.c)
ifeq ($(shell $(PKG_CONFIG) --exists libtracefs libtraceevent 2>/dev/null && echo y),y)
RTLAT_CPPFLAGS += -DHAVE_TRACEFS $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent)
RTLAT_LDLIBS += $(shell $(PKG_CONFIG) --libs libtracefs libtraceevent)
endif
endif

ALL_CFLAGS = $(RTLAT_CPPFLAGS) $(CPPFLAGS) $(WARNINGS) $(CFLAGS)

# Sources: the on-target core, the commands, the loads and the host side.
LIB_SRCS := $(wildcard src/core/*.c) $(wildcard src/cmd/*.c) \
	$(wildcard src/load/*.c) $(REPORT_SRCS)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
MAIN_OBJ := $(O)/src/main.o
LIB := $(O)/librtlat.a
BIN := $(O)/rtlat

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/%)
MANPAGES := $(wildcard man/*.1)

.PHONY: all static check check-unit check-cli install install-links uninstall \
	deps clean unit-tests asan fuzz fuzz-run

all: $(BIN)

$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB) $(RTLAT_LDLIBS) $(LDLIBS)

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

static:
	$(MAKE) O=$(O)/static STATIC=1 all

# Unit tests link the library with cmocka.
$(O)/tests/unit/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -MMD -MP -o $@ $< $(LIB) \
		-lcmocka $(RTLAT_LDLIBS) $(LDLIBS)

unit-tests: $(UNIT_BINS)

check-unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

# The report importers also run under AddressSanitizer and UBSan over every
# fixture and malformed variants of them (tests/cli/test_report_robust.py):
# that build lives in $(O)/asan.
ASAN_BIN := $(O)/asan/rtlat

asan:
	$(MAKE) O=$(O)/asan SANITIZE=address,undefined all

check-cli: $(BIN) asan
	RTLAT=$(abspath $(BIN)) RTLAT_ASAN=$(abspath $(ASAN_BIN)) \
		$(PYTHON) -m pytest -q tests/cli

check: check-unit check-cli

# libFuzzer targets, one per importer, from tests/fuzz/fuzz_import.c (clang).
# make fuzz-run runs each for FUZZ_TIME seconds from the fixtures as seeds.
FUZZ_CC ?= clang
FUZZ_TIME ?= 10
FUZZ_FORMATS := rtlat cyclictest xenomai rtai jitterdebugger oslat table
FUZZ_SAN := fuzzer-no-link,address,undefined
FUZZ_DIR := $(O)/fuzz
FUZZ_BINS := $(FUZZ_FORMATS:%=$(FUZZ_DIR)/fuzz_%)
FIXTURES ?= $(abspath ../shared/fixtures)

$(FUZZ_DIR)/librtlat.a: FORCE
	$(MAKE) O=$(FUZZ_DIR) CC=$(FUZZ_CC) SANITIZE=$(FUZZ_SAN) \
		CFLAGS="-O1 -g -Wno-unknown-warning-option -Wno-format-nonliteral" $(FUZZ_DIR)/librtlat.a

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_import.c $(FUZZ_DIR)/librtlat.a
	$(FUZZ_CC) $(RTLAT_CPPFLAGS) -DFUZZ_FORMAT='"$*"' -O1 -g \
		-fsanitize=fuzzer,address,undefined -o $@ $< \
		$(FUZZ_DIR)/librtlat.a $(RTLAT_LDLIBS)

fuzz: $(FUZZ_BINS)

fuzz-run: fuzz
	@set -e; for f in $(FUZZ_FORMATS); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$f; \
		echo "== fuzz_$$f for $(FUZZ_TIME) s"; \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		$(FUZZ_DIR)/fuzz_$$f -max_total_time=$(FUZZ_TIME) -timeout=10 \
			-max_len=65536 -rss_limit_mb=2048 -print_final_stats=0 \
			-artifact_prefix=$(FUZZ_DIR)/crash-$$f- \
			$(FUZZ_DIR)/corpus-$$f $(FIXTURES) tests/fixtures/report \
			2>$(FUZZ_DIR)/fuzz_$$f.log || \
			{ tail -40 $(FUZZ_DIR)/fuzz_$$f.log; exit 1; }; \
		tail -1 $(FUZZ_DIR)/fuzz_$$f.log; \
	done

FORCE:

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/rtlat
	install -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/

# Xenomai-style short name: 'latency' behaves as 'rtlat latency'.
install-links: install
	ln -sf rtlat $(DESTDIR)$(BINDIR)/latency

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rtlat $(DESTDIR)$(BINDIR)/latency
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES)))

deps:
	scripts/install-deps.sh

clean:
	rm -rf $(O)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
