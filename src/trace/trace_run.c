// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "engine/run_view.h"
#include "util/log.h"
#include "trace/trace_source.h"

int tsrc_open_samplers(struct tsrc **out, const struct run *r,
		       struct tsrc_cfg *cfg, char *err, size_t len)
{
	int *tids = calloc((size_t)r->nsamplers, sizeof(int));
	int *cpus = calloc((size_t)r->nsamplers, sizeof(int));
	int i, ret = -1;

	if (!tids || !cpus) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	for (i = 0; i < r->nsamplers; i++) {
		tids[i] = r->s[i].tid;
		cpus[i] = r->s[i].cpu;
	}
	cfg->n = r->nsamplers;
	cfg->tids = tids;
	cfg->cpus = cpus;
	log_note("--trace: setting up the kernel trace (a tracefs instance, %ld KiB of buffer per traced CPU, the event formats)...",
		 cfg->buffer_kb);
	ret = tsrc_open(out, cfg, err, len);
out:
	cfg->tids = cfg->cpus = NULL;	/* tsrc_open() keeps no pointer */
	free(tids);
	free(cpus);
	return ret;
}
