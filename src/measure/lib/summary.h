/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one-line summaries ("rtlat --help") of the tests a dynamic build
 * keeps in rtlat-full (engine/helper.h): their descriptors and rtlat's
 * registry, which lists these tests without linking them, both take them
 * from here.
 */
#ifndef RTLAT_TESTS_LIB_SUMMARY_H
#define RTLAT_TESTS_LIB_SUMMARY_H

#define TEST_SUMMARY_switch \
	"wake-up latency of a task woken by another (Xenomai switch)"
#define TEST_SUMMARY_handshake \
	"ping-pong latency of two tasks over an IPC mechanism (ptsematest, pmqtest)"
#define TEST_SUMMARY_cruncher \
	"execution-time jitter of a calibrated FP computation (Xenomai cruncher)"
#define TEST_SUMMARY_noise \
	"OS noise and hardware latency seen by a busy task (oslat, osnoise)"
#define TEST_SUMMARY_irq \
	"interrupt latency, from a device's stimulus to the RT task"

#endif
