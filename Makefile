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
#   make check-fresh          README's two set-up commands in a fresh
#                             mmdebstrap Debian root (root)
#   make check-build-matrix   every combination of the optional libraries
#   make check-pg             the history tests on a real PostgreSQL server
#   make check-cobalt         the Xenomai Cobalt build (XENO_CONFIG=) against
#                             a stand-in libcobalt: link audit and tests
#   make check-quality        all quality gates CI runs after make check, one
#                             after the other, each one's wall time printed
#   make quality-builds       the quality gates' builds alone (CI: .ci/run)
#
# Honours CC, CROSS_COMPILE, CFLAGS, CPPFLAGS, LDFLAGS, LDLIBS, DESTDIR, PREFIX.
# JOBS=N: the parallel jobs of the builds of make check and the quality
# gates (default: the number of CPUs). TEST_JOBS=N: the processes the
# command-line tests run in (default: CPUs + 1; TEST_JOBS=1 one at a time).
# O=DIR selects the build directory (default: build).
# WITH_CJSON=0, WITH_SQLITE=0, WITH_LIBPQ=0, WITH_TRACEFS=0 leave one optional
# library out.
# HOST_FEATURES=0 leaves out the host-side parts (report importers using cJSON,
# SQLite history); it is the default for cross and static builds.
#
# A measuring rtlat maps no host-side library (issue 15): those parts are
# separate programs of the same sources, O/rtlat-host (report, compare, db:
# cJSON, SQLite) and O/rtlat-trace (--trace: libtracefs), which rtlat runs
# in its own place (src/engine/helper.h). make install puts them into
# $(LIBEXECDIR)/rtlat.

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
# parallel jobs of the builds make check and the quality gates do (their
# tests run one at a time: they measure)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBEXECDIR ?= $(PREFIX)/libexec
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

# The static on-target binary is optimised for size (boards have little
# memory; the sampler's few instructions do not care).
ifeq ($(STATIC),1)
CFLAGS ?= -Os -g
else
# the default flags: the code off the samplers' path optimised for size too
# (COLD_SRCS below)
ifeq ($(origin CFLAGS),undefined)
COLD_CFLAGS := -Os
endif
CFLAGS ?= -O2 -g
endif
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter
# message buffers may truncate by design (gcc only)
ifeq ($(shell $(CC) --version 2>/dev/null | grep -q clang || echo gcc),gcc)
WARNINGS += -Wno-format-truncation
endif
RTLAT_CPPFLAGS := -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-D_TIME_BITS=64 -DRTLAT_VERSION='"$(VERSION)"' -Isrc
RTLAT_LDLIBS := -lpthread -lm
# No errno from math functions (rtlat never reads it): sqrt() is then
# inlined and the dynamic binary does not map, and mlockall() lock, libm.
RTLAT_CPPFLAGS += -fno-math-errno
# Kept apart from CFLAGS/LDFLAGS so that a CFLAGS given on the command line
# cannot drop them.
EXTRA_CFLAGS :=
EXTRA_LDFLAGS :=
ifneq ($(SANITIZE),)
EXTRA_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
EXTRA_LDFLAGS += -fsanitize=$(SANITIZE)
endif
ifeq ($(STATIC),1)
# size: every function and object in its own section, the unused dropped
EXTRA_CFLAGS += -ffunction-sections -fdata-sections \
	-fno-asynchronous-unwind-tables -fno-unwind-tables
EXTRA_LDFLAGS += -static -Wl,--gc-sections
else
# The dynamic build too (issue 15: mlockall() locks every page of the binary
# a measurement maps, run or not): the unused dropped, no unwind tables
# (nothing unwinds C frames; -g keeps debuggers' frames in .debug_frame;
# sanitizer builds keep them for their reports), and the relative
# relocations of the position-independent binary packed (DT_RELR) where
# the linker and libc can.
EXTRA_CFLAGS += -ffunction-sections -fdata-sections
EXTRA_LDFLAGS += -Wl,--gc-sections
ifeq ($(SANITIZE),)
EXTRA_CFLAGS += -fno-asynchronous-unwind-tables -fno-unwind-tables
endif
ifneq ($(MAKECMDGOALS),clean)
LD_RELR := $(shell printf 'int main(void){return 0;}\n' | $(CC) -x c - -o /dev/null -Wl,-z,pack-relative-relocs -Wl,--fatal-warnings 2>/dev/null && echo y)
endif
ifeq ($(LD_RELR),y)
EXTRA_LDFLAGS += -Wl,-z,pack-relative-relocs
endif
endif

# Host-side libraries, compiled in when present (found with pkg-config).
# WITH_CJSON=0, WITH_SQLITE=0, WITH_LIBPQ=0, WITH_TRACEFS=0 leave one out even when it is
# there; a feature that is left out says at run time which package brings it.
WITH_CJSON ?= 1
WITH_SQLITE ?= 1
WITH_TRACEFS ?= 1
WITH_LIBPQ ?= 1
comma := ,
space := $(subst ,, )
have_pkg = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo y)
# The host side's flags and libraries (HOST_*) go to rtlat-host, the
# trace's (TRACE_*) to rtlat-trace, both to the library the unit tests and
# fuzzers link; rtlat itself links neither.
FEATURES :=
FEATURES_MISSING :=
HOST_CPPFLAGS :=
HOST_LDLIBS :=
TRACE_CPPFLAGS :=
TRACE_LDLIBS :=
HELPERS :=
ifeq ($(HOST_FEATURES),1)
ifeq ($(WITH_CJSON)$(call have_pkg,libcjson),1y)
HOST_CPPFLAGS += -DHAVE_CJSON $(shell $(PKG_CONFIG) --cflags libcjson)
HOST_LDLIBS += $(shell $(PKG_CONFIG) --libs libcjson)
FEATURES += cJSON
else
FEATURES_MISSING += cJSON
endif
ifeq ($(WITH_SQLITE)$(call have_pkg,sqlite3),1y)
HOST_CPPFLAGS += -DHAVE_SQLITE $(shell $(PKG_CONFIG) --cflags sqlite3)
HOST_LDLIBS += $(shell $(PKG_CONFIG) --libs sqlite3)
FEATURES += SQLite
else
FEATURES_MISSING += SQLite
endif
ifeq ($(WITH_LIBPQ)$(call have_pkg,libpq),1y)
HOST_CPPFLAGS += -DHAVE_LIBPQ $(shell $(PKG_CONFIG) --cflags libpq)
HOST_LDLIBS += $(shell $(PKG_CONFIG) --libs libpq)
FEATURES += PostgreSQL
else
FEATURES_MISSING += PostgreSQL
endif
# rtlat report/compare/db (src/report/); text formats need libc only.
HOST_CPPFLAGS += -DHAVE_REPORT
REPORT_SRCS := $(wildcard src/report/*.c src/report/*/*.c)
RTLAT_CPPFLAGS += -DRTLAT_HOST_HELPER
HELPERS += $(O)/rtlat-host
ifeq ($(WITH_TRACEFS)$(call have_pkg,libtracefs libtraceevent),1y)
TRACE_CPPFLAGS += -DHAVE_TRACEFS $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent)
TRACE_LDLIBS += $(shell $(PKG_CONFIG) --libs libtracefs libtraceevent)
RTLAT_CPPFLAGS += -DRTLAT_TRACE_HELPER
HELPERS += $(O)/rtlat-trace
FEATURES += tracefs
else
FEATURES_MISSING += tracefs
endif
endif
RTLAT_CPPFLAGS += -DRTLAT_LIBEXECDIR='"$(LIBEXECDIR)/rtlat"'
FULL_CPPFLAGS = $(RTLAT_CPPFLAGS) $(HOST_CPPFLAGS) $(TRACE_CPPFLAGS)
FULL_LDLIBS = $(RTLAT_LDLIBS) $(HOST_LDLIBS) $(TRACE_LDLIBS)

# Xenomai 3 Cobalt (docs/xenomai.md): XENO_CONFIG=/usr/xenomai/bin/xeno-config
# builds against libcobalt with the POSIX skin's flags. The samplers, the
# partner tasks and the cruncher then are Cobalt threads; main, display,
# loads, trace and report stay on Linux: their objects' references to the
# calls Cobalt wraps are renamed to __real_NAME (Xenomai's __STD()) after
# compiling, so that only the measuring code goes through libcobalt.
# The measuring objects: wrapped calls kept (scripts/cobalt-audit.txt).
COBALT_RT := src/engine/wait src/measure/lib/ipc
# Measuring and other code in one object: the Linux side's I/O, signal
# waits and sleeps renamed, threads, clocks and synchronisation kept
# (engine.c creates and joins its Linux threads with RTLAT_STD()).
# irq's sources are Linux devices (no RTDM): its files are Linux-side
# (docs/xenomai.md); so is noise_hwlat.c, which runs the kernel's hwlat
# tracer (tracefs) as the reference before the measurement.
COBALT_MIXED := src/engine/engine src/system/rtsetup src/system/clockcheck src/util/timeutil \
	$(filter-out src/measure/irq% src/measure/noise_hwlat,$(patsubst %.c,%,$(wildcard src/measure/*.c))) \
	src/measure/lib/timer_test src/measure/lib/crunch src/measure/lib/ipc_test
COBALT_KEPT := pthread_% sem_% mq_% clock_% sched_% timer_% timerfd_%
XENO_CONFIG ?=
ifneq ($(XENO_CONFIG),)
COBALT_CFLAGS := $(shell $(XENO_CONFIG) --posix --cflags)
COBALT_LDFLAGS := $(shell $(XENO_CONFIG) --posix --ldflags)
COBALT_VERSION := $(shell $(XENO_CONFIG) --version)
ifeq ($(strip $(COBALT_LDFLAGS)),)
$(error $(XENO_CONFIG) --posix --ldflags gave nothing: is XENO_CONFIG Xenomai 3's xeno-config?)
endif
RTLAT_CPPFLAGS += $(COBALT_CFLAGS) -DRTLAT_COBALT \
	-DRTLAT_COBALT_VERSION='"$(COBALT_VERSION)"'
EXTRA_LDFLAGS += $(COBALT_LDFLAGS)
COBALT_WRAPS := $(filter-out main,$(shell scripts/cobalt-wraps.sh $(COBALT_LDFLAGS)))
ifeq ($(strip $(COBALT_WRAPS)),)
$(error $(XENO_CONFIG) --posix --ldflags wraps no call (no --wrap options): is XENO_CONFIG Xenomai 3's xeno-config?)
endif
ifeq ($(filter -lcobalt,$(COBALT_LDFLAGS)),)
$(error $(XENO_CONFIG) --posix --ldflags does not link libcobalt (-lcobalt): is XENO_CONFIG Xenomai 3's xeno-config?)
endif
OBJCOPY ?= $(CROSS_COMPILE)objcopy
cobalt_renames = $(if $(filter $(1),$(COBALT_RT)),,\
	$(foreach n,$(if $(filter $(1),$(COBALT_MIXED)),$(filter-out $(COBALT_KEPT),$(COBALT_WRAPS)),$(COBALT_WRAPS)),\
	--redefine-sym $(n)=__real_$(n)))
endif

ALL_CFLAGS = $(FULL_CPPFLAGS) $(CPPFLAGS) $(WARNINGS) $(CFLAGS) $(EXTRA_CFLAGS)
# the files that differ in rtlat itself: built without the HAVE_* of the
# host side and the trace (cmd/host.c runs rtlat-host, trace.c rtlat-trace)
LEAN_CFLAGS = $(RTLAT_CPPFLAGS) $(CPPFLAGS) $(WARNINGS) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(EXTRA_LDFLAGS)

# Objects depend on the flags they were built with: a stamp rewritten only
# when the flags change (e.g. SANITIZE=, CFLAGS=) forces a rebuild.
FLAGS_STAMP := $(O)/.flags
FLAGS_NOW := $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(FULL_LDLIBS) $(COLD_CFLAGS) \
	$(if $(XENO_CONFIG),$(COBALT_RT) $(COBALT_MIXED) $(COBALT_KEPT))
ifneq ($(MAKECMDGOALS),clean)
$(shell mkdir -p $(O))
ifneq ($(strip $(file <$(FLAGS_STAMP))),$(strip $(FLAGS_NOW)))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
endif

# V=1 shows the full commands.
ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-7s %s\n'
endif

# Sources, one folder per layer (docs/ARCHITECTURE.md): the on-target
# core (engine, system, util), the measuring tests, their companions
# (loads, trace, metrics), the output formats, the commands and the host
# side (report).
LAYERS := util system engine measure measure/lib loads trace metrics output cmd
LIB_SRCS := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)) $(REPORT_SRCS)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
# What runs before or after a measurement, or beside it at a human's pace
# (commands, output formats, metrics, set-up and checks): with the default
# flags of the dynamic build optimised for size, since a measurement maps,
# and mlockall() locks, all of it (issue 15). The samplers' path (engine,
# accounting, waits, the tests), the loads (their work rates are figures)
# and the host side (report speed) keep CFLAGS.
COLD_SRCS := $(wildcard src/cmd/*.c src/output/*.c src/metrics/*.c) \
	$(filter-out $(addprefix src/engine/,engine.c accum.c histogram.c ring.c \
	wait.c cobalt.c) src/util/stats.c src/util/timeutil.c,\
	$(wildcard src/engine/*.c src/system/*.c src/util/*.c))
ifneq ($(COLD_CFLAGS),)
$(COLD_SRCS:%.c=$(O)/%.o) $(COLD_SRCS:%.c=$(O)/lean/%.o): EXTRA_CFLAGS += $(COLD_CFLAGS)
endif
MAIN_OBJ := $(O)/src/main.o
LIB := $(O)/librtlat.a
BIN := $(O)/rtlat
# rtlat = main + LEAN_OBJS + CORE_LIB; rtlat-host and rtlat-trace take the
# full object of their files instead of the lean one (the archive's
# objects only what these reference).
HOST_LEAN := src/cmd/report.c src/cmd/db.c src/cmd/suite_gate.c
TRACE_LEAN := src/trace/trace_tracefs.c src/trace/trace.c
LEAN_SRCS := $(HOST_LEAN) $(TRACE_LEAN)
LEAN_OBJS := $(LEAN_SRCS:%.c=$(O)/lean/%.o)
CORE_LIB := $(O)/librtlat-core.a
CORE_OBJS := $(filter-out $(REPORT_SRCS:%.c=$(O)/%.o) $(LEAN_SRCS:%.c=$(O)/%.o),$(LIB_OBJS))
REPORT_LIB := $(O)/librtlat-report.a
HOST_OBJS := $(HOST_LEAN:%.c=$(O)/%.o) $(TRACE_LEAN:%.c=$(O)/lean/%.o)
TRACE_OBJS := $(HOST_LEAN:%.c=$(O)/lean/%.o) $(TRACE_LEAN:%.c=$(O)/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/%)
MANPAGES := $(wildcard man/*.1)

.PHONY: all static check check-unit check-cli install install-links uninstall \
	deps clean unit-tests lint check-cross check-musl check-sanitize \
	check-tsan check-valgrind check-rtvm check-quality asan fuzz fuzz-run \
	check-build-matrix check-fresh cobalt-standin check-cobalt check-pg \
	print-cobalt-objs quality-builds

all: $(BIN) $(HELPERS)

$(BIN): $(MAIN_OBJ) $(LEAN_OBJS) $(CORE_LIB) $(FLAGS_STAMP)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(LEAN_OBJS) $(CORE_LIB) $(RTLAT_LDLIBS) $(LDLIBS)
ifneq ($(strip $(FEATURES_MISSING)),)
	@echo "  note    $@ is built without $(subst $(space),$(comma) ,$(strip $(FEATURES_MISSING))) (make deps, or apt-get install pkg-config libcjson-dev libsqlite3-dev libpq-dev libtracefs-dev libtraceevent-dev, then make clean all)"
endif

$(O)/rtlat-host: $(MAIN_OBJ) $(HOST_OBJS) $(REPORT_LIB) $(CORE_LIB) $(FLAGS_STAMP)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(HOST_OBJS) $(REPORT_LIB) $(CORE_LIB) $(RTLAT_LDLIBS) $(HOST_LDLIBS) $(LDLIBS)

$(O)/rtlat-trace: $(MAIN_OBJ) $(TRACE_OBJS) $(CORE_LIB) $(FLAGS_STAMP)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(TRACE_OBJS) $(CORE_LIB) $(RTLAT_LDLIBS) $(TRACE_LDLIBS) $(LDLIBS)

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(quiet) AR $@
	$(Q)$(AR) rcs $@ $^

$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	$(quiet) AR $@
	$(Q)$(AR) rcs $@ $^

$(REPORT_LIB): $(REPORT_SRCS:%.c=$(O)/%.o)
	@rm -f $@
	$(quiet) AR $@
	$(Q)$(AR) rcs $@ $^

$(O)/lean/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(quiet) CC $@
	$(Q)$(CC) $(LEAN_CFLAGS) -MMD -MP -c -o $@ $<
ifneq ($(XENO_CONFIG),)
	$(Q)$(if $(strip $(call cobalt_renames,$*)),$(OBJCOPY) $(call cobalt_renames,$*) $@)
endif

$(O)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
ifneq ($(XENO_CONFIG),)
	$(Q)$(if $(strip $(call cobalt_renames,$*)),$(OBJCOPY) $(call cobalt_renames,$*) $@)
endif

static:
	$(MAKE) O=$(O)/static STATIC=1 all

# The stand-in libcobalt of the Cobalt build's tests (tests/cobalt/, not
# shipped): it must define __wrap_NAME for every NAME cobalt.wrappers wraps.
COBALT_STANDIN := $(O)/cobalt-standin/libcobalt.a
$(COBALT_STANDIN): tests/cobalt/standin.c tests/cobalt/cobalt.wrappers
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) -O2 -g -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -c -o $(@:.a=.o) $<
	$(Q)missing=$$(awk '{print $$2}' tests/cobalt/cobalt.wrappers | while read n; do \
		nm $(@:.a=.o) | grep -q " T __wrap_$$n$$" || echo $$n; done); \
		test -z "$$missing" || { echo "standin.c lacks __wrap_ for:" $$missing; exit 1; }
	@rm -f $@
	$(Q)$(AR) rcs $@ $(@:.a=.o)

cobalt-standin: $(COBALT_STANDIN)

# the lists of the link audit, for its test (tests/cli/test_cobalt.py)
print-cobalt-objs:
	@echo $(COBALT_RT); echo $(COBALT_MIXED); echo $(COBALT_KEPT)

# The Cobalt build against the stand-in, its link audit and its tests.
# (COBALT_STANDIN_LIB in the environment too: make 4.3 does not give
# $(shell) a command line's variables, and xeno-config's default is
# build/cobalt-standin, wrong when O= is another directory.)
COBALT_MAKE = COBALT_STANDIN_LIB=$(abspath $(O)/cobalt-standin) \
	$(MAKE) O=$(O)/cobalt XENO_CONFIG=$(abspath tests/cobalt/xeno-config) \
	COBALT_STANDIN_LIB=$(abspath $(O)/cobalt-standin)
check-cobalt: $(COBALT_STANDIN)
	@rm -f $(O)/cobalt/rtlat $(O)/cobalt/static/rtlat	# relinked with this stand-in
	$(COBALT_MAKE) all
	$(PYTHON) scripts/check-cobalt.py $(O)/cobalt tests/cobalt/xeno-config \
		--kept $(COBALT_KEPT) --rt $(COBALT_RT) \
		--mixed $(COBALT_MIXED)
	RTLAT=$(abspath $(O)/cobalt/rtlat) $(PYTHON) -m pytest -q tests/cli/test_cobalt.py
	$(COBALT_MAKE) static
	RTLAT=$(abspath $(O)/cobalt/static/rtlat) $(PYTHON) -m pytest -q \
		tests/cli/test_cobalt.py -k "waits or mode_switch"

# Unit tests link the library with cmocka.
$(O)/tests/unit/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(quiet) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit $(ALL_LDFLAGS) -MMD -MP -o $@ $< $(LIB) \
		-lcmocka $(FULL_LDLIBS) $(LDLIBS)

unit-tests: $(UNIT_BINS)

check-unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

# The report importers also run under AddressSanitizer and UBSan over every
# fixture and malformed variants of them (tests/cli/test_report_robust.py):
# that build lives in $(O)/asan.
# (In a build that is itself sanitized, that is the binary under test.)
ifneq ($(SANITIZE),)
ASAN_BIN := $(BIN)
asan: $(BIN)
else
ASAN_BIN := $(O)/asan/rtlat
asan:
	$(MAKE) O=$(O)/asan SANITIZE=address,undefined all
endif

# The command-line tests run in TEST_JOBS processes when pytest-xdist is
# installed (make deps installs it); what a test may run beside is its mark
# (tests/cli/conftest.py: host tests beside anything, a measuring test
# beside no other unless it is marked "measures"). CLI_ARGS: more pytest
# arguments (a -m selection, -k, a file).
TEST_JOBS ?= $(shell echo $$(($$(nproc 2>/dev/null || echo 2) + 1)))
XDIST := $(shell $(PYTHON) -c 'import xdist' >/dev/null 2>&1 && echo yes)
PYTEST_CLI = $(PYTHON) -m pytest -q -rfEs -p no:cacheprovider \
	$(if $(XDIST),-n $(TEST_JOBS))
CLI_ARGS ?=
check-cli: $(BIN) $(HELPERS) asan
	RTLAT=$(abspath $(BIN)) RTLAT_ASAN=$(abspath $(ASAN_BIN)) \
		RTLAT_SANITIZED=$(SANITIZE) $(PYTEST_CLI) $(CLI_ARGS) tests/cli

# The builds in parallel (JOBS), then the unit tests and the command-line
# tests.
check:
	$(MAKE) -j$(JOBS) --no-print-directory $(BIN) $(HELPERS) asan unit-tests
	$(MAKE) -j1 --no-print-directory check-unit check-cli

# The history tests again on PostgreSQL: a real server started and stopped
# by the tests (tests/cli/pgserver.py; root, Debian's postgresql package).
PG_TESTS := test_db_list.py test_report.py test_compare_loads.py \
	test_report_labels.py test_report_percentiles.py test_gate.py \
	test_report_inputs.py test_db_store.py test_report_noise.py \
	test_report_summary.py
check-pg: $(BIN) $(HELPERS) asan
	RTLAT=$(abspath $(BIN)) RTLAT_ASAN=$(abspath $(ASAN_BIN)) RTLAT_TEST_DB=pg \
		$(PYTEST_CLI) $(addprefix tests/cli/,$(PG_TESTS))

# libFuzzer targets, one per importer, from tests/fuzz/fuzz_import.c (clang).
# make fuzz-run runs each for FUZZ_TIME seconds from the fixtures as seeds.
FUZZ_CC ?= clang
FUZZ_TIME ?= 10
FUZZ_FORMATS := rtlat cyclictest xenomai rtai jitterdebugger oslat rt-tests rtla \
	stress-ng table \
	detect
FUZZ_SAN := fuzzer-no-link,address,undefined
FUZZ_DIR := $(O)/fuzz
FUZZ_BINS := $(FUZZ_FORMATS:%=$(FUZZ_DIR)/fuzz_%)
FIXTURES ?= $(abspath tests/fixtures/shared)

$(FUZZ_DIR)/librtlat.a: FORCE
	$(MAKE) O=$(FUZZ_DIR) CC=$(FUZZ_CC) SANITIZE=$(FUZZ_SAN) \
		CFLAGS="-O1 -g -Wno-unknown-warning-option -Wno-format-nonliteral" $(FUZZ_DIR)/librtlat.a

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_import.c $(FUZZ_DIR)/librtlat.a
	$(FUZZ_CC) $(FULL_CPPFLAGS) -DFUZZ_FORMAT='"$*"' -O1 -g \
		-fsanitize=fuzzer,address,undefined -o $@ $< \
		$(FUZZ_DIR)/librtlat.a $(FULL_LDLIBS)

fuzz: $(FUZZ_BINS)

# JOBS of them at a time (each one is one process: FUZZ_TIME seconds of a
# CPU each, as when they ran one after the other); every failure shown.
fuzz-run: fuzz
	@printf '%s\n' $(FUZZ_FORMATS) | xargs -P$(JOBS) -I{} sh -c '\
		f={}; mkdir -p $(FUZZ_DIR)/corpus-$$f; \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		$(FUZZ_DIR)/fuzz_$$f -max_total_time=$(FUZZ_TIME) -timeout=10 \
			-max_len=65536 -rss_limit_mb=2048 -print_final_stats=0 \
			-artifact_prefix=$(FUZZ_DIR)/crash-$$f- \
			$(FUZZ_DIR)/corpus-$$f $(FIXTURES) tests/fixtures/report \
			tests/fixtures/real \
			2>$(FUZZ_DIR)/fuzz_$$f.log || \
			{ echo "== fuzz_$$f for $(FUZZ_TIME) s: FAILED"; \
			tail -40 $(FUZZ_DIR)/fuzz_$$f.log; exit 1; }; \
		echo "== fuzz_$$f for $(FUZZ_TIME) s: $$(tail -1 $(FUZZ_DIR)/fuzz_$$f.log)"'

FORCE:


# --- quality gates (issue 7): run by CI after "make check" -----------------

# Static analysis with the checked-in configurations, the layering of src/
# (includes and, with nm, the symbols each layer's objects use), no
# function over 120 lines (scripts/function-length-waived.txt: the ones
# still to split), and the
# man pages' OPTIONS against the option tables (scripts/check-man.py
# --update BIN rewrites their generated COMMON OPTIONS).
lint: $(BIN) $(HELPERS)
	$(PYTHON) scripts/check-layers.py --self-test
	$(PYTHON) scripts/check-layers.py $(O)
	$(PYTHON) scripts/check-function-length.py
	$(PYTHON) scripts/check-man.py $(BIN)
	cppcheck -q -j$(JOBS) --enable=warning,performance,portability --std=c11 \
		--error-exitcode=1 --inline-suppr -Isrc -D_GNU_SOURCE \
		-DRTLAT_VERSION='"lint"' src tests/unit
	printf '%s\n' $(LIB_SRCS) src/main.c | xargs -P$(JOBS) -I{} \
		clang-tidy -quiet {} -- $(FULL_CPPFLAGS)

# 32-bit big-endian PowerPC and 32-bit ARM: static cross builds whose
# selftest runs under qemu-user, and whose synthetic result file must be
# byte-identical to the native one.
check-cross: $(BIN)
	+scripts/check-cross.sh $(abspath $(BIN)) $(O)

# Every combination of the optional host libraries builds, runs, and says
# which package brings a feature it was built without.
check-build-matrix:
	+scripts/check-build-matrix.sh $(O)

# README's two set-up commands, as written, in a minimal Debian root made by
# mmdebstrap, the clone under /root (root; FRESH_STEPS=1: the first only).
check-fresh:
	scripts/check-fresh.sh $(O)

# Static musl build: selftest, a short measurement, the size budget.
TEST_LOCK := scripts/with-test-lock.sh
check-musl:
	+$(TEST_LOCK) scripts/check-musl.sh $(O)

# Unit and command-line tests with AddressSanitizer + UBSan: the C paths,
# not every assertion again: the tests marked slow (2 s or more of
# measuring, the same paths as shorter ones; tests/cli/slow.txt) are left
# out.
SANITIZE_MAKE = $(MAKE) O=$(O)/sanitize SANITIZE=address,undefined \
	CFLAGS="-O1 -g -fno-sanitize-recover=all"
check-sanitize:
	PYTEST_ADDOPTS='-m "not slow"' $(SANITIZE_MAKE) check

# The threaded engine under ThreadSanitizer.
TSAN_MAKE = $(MAKE) O=$(O)/tsan SANITIZE=thread CFLAGS="-O1 -g"
check-tsan:
	$(TSAN_MAKE) all
	$(TEST_LOCK) scripts/check-tsan.sh $(O)/tsan/rtlat

# valgrind memcheck on a short measurement: no errors, no leaks.
check-valgrind: $(BIN) $(HELPERS)
	$(TEST_LOCK) valgrind -q --error-exitcode=3 --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all $(BIN) latency -T 1 --warmup 0.2s \
		-p 1000 -q -h -s --json $(O)/valgrind.json >/dev/null

# rtlat on Debian's PREEMPT_RT kernel under qemu (../shared/tools/rtvm), in one
# guest boot: check, sysinfo and a short suite, --trace, --trace=timerlat,
# noise --mode hwlat beside the kernel's hwlat tracer (and killed in it: the
# knobs put back), irq over serial and the comparison with rtla timerlat
# (RTVM_TIMEOUT); qemu runs one TCG thread (scripts/check-rtvm.sh says why).
check-rtvm: $(BIN) $(HELPERS)
	scripts/check-rtvm.sh $(BIN) $(O)

# The quality gates' builds alone, nothing run: CI does them in the
# background (nice) while make check's tests run (make check must pass with
# both CPUs busy); each gate then finds its build done.
quality-builds: $(BIN) $(HELPERS) asan unit-tests $(COBALT_STANDIN)
	+scripts/check-build-matrix.sh --build-only $(O)
	+scripts/check-cross.sh --build-only $(abspath $(BIN)) $(O)
	+scripts/check-musl.sh --build-only $(O)
	$(TSAN_MAKE) all
	$(SANITIZE_MAKE) all unit-tests
	$(COBALT_MAKE) all
	$(COBALT_MAKE) static
	$(MAKE) fuzz

# One gate after the other (each one's builds with JOBS parallel jobs),
# each one's wall time printed ("== stage NAME: N s"). The host gates
# measure nothing; check-rtvm runs last, on a quiet machine (its emulated
# CPU stalls for as long as the host is busy: a 0.5 s stall outdid the
# 50 ms one its serial step injects and must find); the measuring gates' tests take the CPUs as
# tests/cli/conftest.py's locks say (pytest) or hold them alone
# (scripts/with-test-lock.sh), so that the two lists, and another run's
# tests, may run beside each other (CI: .ci/run).
QUALITY_HOST := lint check-build-matrix check-cross fuzz-run
QUALITY_MEASURING := check-sanitize check-cobalt check-musl check-tsan \
	check-valgrind check-pg
QUALITY_GATES := $(QUALITY_HOST) $(QUALITY_MEASURING) check-rtvm
check-quality check-quality-host check-quality-measuring:
	@set -e; for g in $(or $(if $(findstring host,$@),$(QUALITY_HOST)), \
		$(if $(findstring measuring,$@),$(QUALITY_MEASURING)), \
		$(QUALITY_GATES)); do \
		scripts/ci-stage.sh $$g $(MAKE) -j$(JOBS) --no-print-directory $$g; \
	done

install: $(BIN) $(HELPERS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/rtlat
ifneq ($(HELPERS),)
	install -d $(DESTDIR)$(LIBEXECDIR)/rtlat
	install -m 0755 $(HELPERS) $(DESTDIR)$(LIBEXECDIR)/rtlat/
endif
	install -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/

# Xenomai-style short name: 'latency' takes Xenomai 3's latency command
# line (rtlat latency --xenomai).
install-links: install
	ln -sf rtlat $(DESTDIR)$(BINDIR)/latency

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rtlat $(DESTDIR)$(BINDIR)/latency
	rm -f $(addprefix $(DESTDIR)$(LIBEXECDIR)/rtlat/,rtlat-host rtlat-trace)
	rm -f $(DESTDIR)$(LIBEXECDIR)/rtlat/rtlat-full	# of an older install
	-rmdir $(DESTDIR)$(LIBEXECDIR)/rtlat 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES)))

deps:
	scripts/install-deps.sh

clean:
	rm -rf $(O)

# (not into check-fresh's Debian root, which has /proc and /sys mounted
# while it runs)
-include $(shell find $(O) -path $(O)/fresh -prune -o -name '*.d' -print 2>/dev/null)
