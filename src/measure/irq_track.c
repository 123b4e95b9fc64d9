// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: event matching and accounting by sequence number (irq.h).
 * served + lost == events sent in the measurement, whatever arrives: a
 * gap is lost at once, so an event that comes after its successors is
 * late (already lost) and never served twice; one already served comes
 * again as a duplicate, however far back (up to IRQ_TRACK_BACK, and
 * beyond it before the first loss or after the last). Net answers
 * (irq_track_exact()) are matched to an event outstanding instead, and
 * an event is lost only when it timed out.
 */
#include <string.h>

#include "measure/irq.h"

void irq_track_init(struct irq_track *t, uint64_t first)
{
	*t = (struct irq_track){ .first = first, .next = first };
}

/* bit @seq of a ring of @n bits (t->back, t->ahead) */
static bool ring_test(const uint64_t *w, uint64_t n, uint64_t seq)
{
	uint64_t b = seq % n;

	return (w[b / 64] >> (b % 64)) & 1;
}

static void ring_set(uint64_t *w, uint64_t n, uint64_t seq, bool on)
{
	uint64_t b = seq % n, m = (uint64_t)1 << (b % 64);

	if (on)
		w[b / 64] |= m;
	else
		w[b / 64] &= ~m;
}

#define back_test(t, seq)	ring_test((t)->back, IRQ_TRACK_BACK, seq)
#define back_set(t, seq, on)	ring_set((t)->back, IRQ_TRACK_BACK, seq, on)
#define ahead_test(t, seq)	ring_test((t)->ahead, IRQ_TRACK_AHEAD, seq)
#define ahead_set(t, seq, on)	ring_set((t)->ahead, IRQ_TRACK_AHEAD, seq, on)

/* next passes event @seq (== next), served or not */
static void back_pass(struct irq_track *t, bool served)
{
	back_set(t, t->next, served);
	t->next++;
}

/* the @n events from next on lost at once, next moved past them */
static void back_lose(struct irq_track *t, uint64_t n)
{
	if (!n)
		return;
	if (!t->lost_seen)
		t->lost_lo = t->next;
	t->lost_seen = true;
	t->lost_hi = t->next + n - 1;
	if (n >= IRQ_TRACK_BACK) {
		memset(t->back, 0, sizeof(t->back));
		t->next += n;
		return;
	}
	while (n--)
		back_pass(t, false);
}

/* an event before next: a duplicate when it was served (or came late
 * before), late when it was counted lost, stray when that is too old to
 * tell */
static enum irq_ev back_event(struct irq_track *t, uint64_t seq)
{
	bool served;

	if (t->next - seq <= IRQ_TRACK_BACK)
		served = back_test(t, seq);
	else if (!t->lost_seen || seq < t->lost_lo || seq > t->lost_hi)
		served = true;	/* no event around it was lost */
	else
		return IRQ_EV_STRAY;
	if (served) {
		t->duplicate++;
		return IRQ_EV_DUPLICATE;
	}
	/* it came, late: it comes again as a duplicate (late <= lost) */
	if (t->next - seq <= IRQ_TRACK_BACK)
		back_set(t, seq, true);
	t->late++;
	return IRQ_EV_LATE;
}

enum irq_ev irq_track_event(struct irq_track *t, uint64_t seq,
			    uint64_t *lost)
{
	uint64_t gap;

	*lost = 0;
	if (seq < t->first)
		return IRQ_EV_BEFORE;
	if (seq < t->next)
		return back_event(t, seq);
	/* the events skipped: lost, not served */
	gap = seq - t->next;
	back_lose(t, gap);
	back_pass(t, true);
	t->lost += gap;
	t->served++;
	*lost = gap;
	return IRQ_EV_SERVED;
}

/* next moved: the events after it already served are passed */
static void ahead_pass(struct irq_track *t)
{
	while (ahead_test(t, t->next)) {
		ahead_set(t, t->next, false);
		back_pass(t, true);
	}
}

enum irq_ev irq_track_exact(struct irq_track *t, uint64_t seq, bool genuine)
{
	uint64_t lost;
	enum irq_ev ev;

	if (!genuine)
		return IRQ_EV_STRAY;
	if (seq < t->first)
		return IRQ_EV_BEFORE;
	if (seq < t->next)
		return irq_track_event(t, seq, &lost);
	if (seq - t->next >= IRQ_TRACK_AHEAD)
		return IRQ_EV_STRAY;
	if (seq > t->next) {
		if (ahead_test(t, seq)) {
			t->duplicate++;
			return IRQ_EV_DUPLICATE;
		}
		ahead_set(t, seq, true);
		t->served++;
		return IRQ_EV_SERVED;
	}
	ev = irq_track_event(t, seq, &lost);
	ahead_pass(t);
	return ev;
}

bool irq_track_old(struct irq_track *t, uint64_t seq)
{
	uint64_t lost;

	if (seq < t->first || seq >= t->next)
		return false;
	return irq_track_event(t, seq, &lost) != IRQ_EV_STRAY;
}

uint64_t irq_track_end(struct irq_track *t, uint64_t last)
{
	uint64_t n = 0, start = t->next;

	if (last < t->next)
		return 0;
	/* one at a time where some may have been served ahead (the
	 * time-outs come one by one; at the end, up to IRQ_TRACK_AHEAD) */
	while (t->next <= last && t->next - start < IRQ_TRACK_AHEAD) {
		if (ahead_test(t, t->next)) {
			ahead_set(t, t->next, false);
			back_pass(t, true);
		} else {
			back_lose(t, 1);
			n++;
		}
	}
	if (t->next <= last) {
		/* beyond any served ahead: all lost */
		n += last + 1 - t->next;
		back_lose(t, last + 1 - t->next);
		memset(t->ahead, 0, sizeof(t->ahead));
	}
	t->lost += n;
	ahead_pass(t);
	return n;
}
