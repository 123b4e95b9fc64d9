// SPDX-License-Identifier: GPL-2.0-or-later
/* SPSC ring allocation; see ring.h. */
#include <errno.h>
#include <stdlib.h>

#include "engine/ring.h"

int ring_init(struct ring *r, size_t rec_size, unsigned long capacity)
{
	unsigned long cap = 1;

	if (rec_size == 0 || capacity == 0)
		return -EINVAL;
	while (cap < capacity)
		cap <<= 1;
	r->buf = calloc(cap, rec_size);
	if (!r->buf)
		return -ENOMEM;
	memset(r->buf, 0, cap * rec_size);
	r->rec_size = rec_size;
	r->mask = cap - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return 0;
}

void ring_free(struct ring *r)
{
	free(r->buf);
	r->buf = NULL;
}
