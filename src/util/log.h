/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics on stderr, prefixed with the command ("rtlat latency: error:").
 * stdout is reserved for results. Never called from a sampler thread.
 */
#ifndef RTLAT_LOG_H
#define RTLAT_LOG_H

#include <stdbool.h>

/* Set the prefix, e.g. "rtlat latency". The string must stay valid. */
void log_set_prefix(const char *prefix);
const char *log_prefix(void);
/* Silence notes (errors and warnings are always shown). */
void log_set_quiet(bool quiet);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A note that -q does not silence: what cannot be learnt otherwise (the
 * port the kernel chose for --metrics-port 0; why a command waits for
 * seconds: another writer of the history). */
void log_note_always(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
