/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Self-test of the measuring core on the target ("rtlat selftest"). */
#ifndef RTLAT_SELFTEST_H
#define RTLAT_SELFTEST_H

#include <stdbool.h>
#include <stdint.h>

/* Run every check; prints failures (all checks with @verbose) and a summary
 * line on stdout. Returns the number of failed checks. */
int selftest_run(bool verbose);

/*
 * Account a fixed synthetic run (deterministic pseudo-random latencies,
 * periodic 250 us stalls) through the engine and write its result to @path
 * with the real result writer; @with_host adds the host identity. The file
 * is byte-identical on every architecture without the host. Optionally
 * returns samples, overruns and histogram total. Returns 0 or -1.
 */
int selftest_result(const char *path, bool with_host, uint64_t *samples,
		    uint64_t *overruns, uint64_t *hist);

#endif
