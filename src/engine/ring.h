/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Single-producer/single-consumer ring of fixed-size records, without locks:
 * the sampler pushes, the display thread pops. Indices are native words
 * (lock-free atomics on every target, also 32-bit). A push into a full ring
 * fails and is counted in @dropped; it never blocks.
 */
#ifndef RTLAT_RING_H
#define RTLAT_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct ring {
	size_t rec_size;
	unsigned long mask;		/* capacity - 1 (capacity a power of 2) */
	char *buf;
	_Atomic unsigned long head;	/* written by the producer */
	_Atomic unsigned long tail;	/* written by the consumer */
	_Atomic unsigned long dropped;	/* pushes refused because full */
};

/* Allocate (and touch) a ring of at least @capacity records of @rec_size
 * bytes. Returns 0 or -ENOMEM / -EINVAL. */
int ring_init(struct ring *r, size_t rec_size, unsigned long capacity);
void ring_free(struct ring *r);

/* Producer: copy @rec in. Returns false (and counts a drop) when full. */
static inline bool ring_push(struct ring *r, const void *rec)
{
	unsigned long h = atomic_load_explicit(&r->head, memory_order_relaxed);
	unsigned long t = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (h - t > r->mask) {
		atomic_store_explicit(&r->dropped,
			atomic_load_explicit(&r->dropped, memory_order_relaxed) + 1,
			memory_order_relaxed);
		return false;
	}
	memcpy(r->buf + (h & r->mask) * r->rec_size, rec, r->rec_size);
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
	return true;
}

/* Producer: free records (what ring_push() can take now, at least). */
static inline unsigned long ring_room(struct ring *r)
{
	unsigned long h = atomic_load_explicit(&r->head, memory_order_relaxed);
	unsigned long t = atomic_load_explicit(&r->tail, memory_order_acquire);

	return r->mask + 1 - (h - t);
}

/* Consumer: pointer to the oldest record, or NULL when empty. Valid until
 * ring_pop(). */
static inline const void *ring_peek(struct ring *r)
{
	unsigned long t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	unsigned long h = atomic_load_explicit(&r->head, memory_order_acquire);

	if (t == h)
		return NULL;
	return r->buf + (t & r->mask) * r->rec_size;
}

/* Consumer: release the oldest record. */
static inline void ring_pop(struct ring *r)
{
	unsigned long t = atomic_load_explicit(&r->tail, memory_order_relaxed);

	atomic_store_explicit(&r->tail, t + 1, memory_order_release);
}

#endif
