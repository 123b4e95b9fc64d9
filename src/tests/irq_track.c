// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: event matching and accounting by sequence number (irq.h).
 * served + lost == events sent in the measurement, whatever arrives: a
 * gap is lost at once, so an event that comes after its successors is
 * late (already lost) and never served twice.
 */
#include "tests/irq.h"

void irq_track_init(struct irq_track *t, uint64_t first)
{
	*t = (struct irq_track){ .first = first, .next = first };
}

enum irq_ev irq_track_event(struct irq_track *t, uint64_t seq,
			    uint64_t *lost)
{
	uint64_t gap, back;

	*lost = 0;
	if (seq < t->first)
		return IRQ_EV_BEFORE;
	if (seq < t->next) {
		back = t->next - 1 - seq;
		if (back < 64 && (t->window >> back) & 1) {
			t->duplicate++;
			return IRQ_EV_DUPLICATE;
		}
		t->late++;
		return IRQ_EV_LATE;
	}
	gap = seq - t->next;
	/* the events skipped: lost, not served (0 bits in the window) */
	if (gap >= 63)
		t->window = 0;
	else
		t->window <<= gap + 1;
	t->window |= 1;
	t->lost += gap;
	t->served++;
	t->next = seq + 1;
	*lost = gap;
	return IRQ_EV_SERVED;
}

bool irq_track_old(struct irq_track *t, uint64_t seq)
{
	uint64_t lost;

	if (seq < t->first || seq >= t->next)
		return false;
	irq_track_event(t, seq, &lost);
	return true;
}

uint64_t irq_track_end(struct irq_track *t, uint64_t last)
{
	uint64_t n;

	if (last < t->next)
		return 0;
	n = last + 1 - t->next;
	t->lost += n;
	t->window = 0;
	t->next = last + 1;
	return n;
}
