/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The periodic-timer sampler body shared by timer-driven tests. */
#ifndef RTLAT_TIMER_TEST_H
#define RTLAT_TIMER_TEST_H

#include "engine/test.h"

/*
 * Sampler body: wait for each deadline of the grid t0 + i * s->period_ns
 * (the sampler's own period) with the configured backend and account
 * series 0 with sampler_timer_wake().
 * Returns 0 or -errno with s->errmsg set.
 */
int timer_test_body(struct sampler *s);

#endif
