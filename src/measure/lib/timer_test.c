// SPDX-License-Identifier: GPL-2.0-or-later
/* The periodic-timer sampler body; see timer_test.h. */
#include <stdio.h>
#include <string.h>

#include "measure/lib/timer_test.h"

int timer_test_body(struct sampler *s)
{
	struct run *r = s->run;
	const struct engine_opts *o = r->o;
	struct waiter w;
	struct wake wk;
	int e;

	e = waiter_init(&w, o->wait, o->clock, s->period_ns, r->t0, &r->stop,
			engine_stop_signal());
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "cannot set up the %s wait: %s",
			 wait_backend_name(o->wait), strerror(-e));
		waiter_destroy(&w);
		return e;
	}
	e = 0;
	while (!sampler_stopping(s)) {
		e = waiter_wait(&w, &wk);
		if (e == WAIT_INTERRUPTED) {
			e = 0;
			continue;
		}
		if (e < 0) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "%s wait failed: %s",
				 wait_backend_name(o->wait), waiter_error(&w, e));
			break;
		}
		if (sampler_timer_wake(s, 0, &wk,
				       o->wait == WAIT_REL ? 0 : s->period_ns,
				       w.next))
			break;
	}
	waiter_destroy(&w);
	return e;
}
