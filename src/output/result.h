/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result files of a run: the self-describing JSON result (schema
 * "rtlat-result", documented in docs/result-schema.md) and the gnuplot-ready
 * histogram. Both are written by atomic_open()/atomic_commit() (outfile.h):
 * a regular file atomically (a temporary file in the same directory, fsync,
 * rename; a failed write leaves the previous file intact), a FIFO, a
 * device or rtlat's own stdout in place.
 */
#ifndef RTLAT_RESULT_H
#define RTLAT_RESULT_H

#include <stddef.h>
#include <stdio.h>

#include "engine/accum_json.h"
#include "engine/run_view.h"
#include "util/jsonw.h"
#include "util/outfile.h"

#define RTLAT_RESULT_SCHEMA "rtlat-result"
#define RTLAT_RESULT_SCHEMA_VERSION 1

/* Write the result of @r to @path with @status ("running", "complete",
 * "interrupted", "break", "error"). Returns 0 or -1 with a message. */
int result_write(struct run *r, const char *path, const char *status,
		 char *err, size_t errlen);

/* Write a JSON document to @path atomically: @body(w, @ctx) writes it with
 * the JSON writer. Returns 0 or -1 with a message (the previous file is
 * kept). */
int result_write_json(const char *path,
		      void (*body)(struct jw *w, void *ctx), void *ctx,
		      char *err, size_t errlen);

/* Write the linear histograms of @r for gnuplot. Returns 0 or -1. */
int gnuplot_write(struct run *r, const char *path, char *err, size_t errlen);

/*
 * Write the headline figures of @r to @fd as "key value" lines (format in
 * docs/suite.md): status, exit status, duration, per series samples,
 * misses, min/avg/max and p99.9, the scheduling in force, the test's
 * figures (fig_headline()), warnings, error, and what each load achieved. rtlat suite reads them through a pipe to
 * fill its tables without a JSON parser on the target.
 */
void result_headline(struct run *r, int fd, const char *status);

/* Members "warnings", "error" and "break" (the sample that exceeded
 * --break, or null) of a run. Shared by every result writer. */
void result_outcome_json(struct jw *w, const struct run *r);
/* "check": rtlat check's findings at the start of the run, compact
 * (system/syscheck.h), or null when they could not be read. */
void result_check_json(struct jw *w, const struct run *r);


/* The result files of a run for engine_env.result: result_write(),
 * gnuplot_write(), result_headline(). */
extern const struct result_ops result_files;

/* Cobalt build (docs/xenomai.md): "cokernel", "msw" (null when not known),
 * "msw_partners", "max_msw" of @r into the open object of @w; nothing in
 * other builds. */
void result_cobalt_json(struct jw *w, const struct run *r);

#endif
