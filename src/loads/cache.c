// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cache load: a calibrator-style memory walker. Each worker owns a buffer of
 * four times the last-level cache (from sysfs; at least 4 MiB, at most
 * 256 MiB and an eighth of the memory over all workers) and walks it one
 * cache line at a time with a large odd stride, so that the prefetcher
 * cannot follow: every access is a read and a write of another line. It
 * evicts the caches and keeps the memory bus busy. Counted in MB/s of
 * lines touched (1 MB = 10^6 bytes).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "system/sysinfo.h"
#include "loads/load.h"

#define MIN_BYTES	((size_t)4 << 20)
#define MAX_BYTES	((size_t)256 << 20)
#define FLOOR_BYTES	((size_t)1 << 20)

static int cache_prepare(struct load_env *env, char *err, size_t errlen)
{
	struct sysdesc d;
	size_t want, cap, pow2;

	sysdesc_read(&d, "/");
	env->cache_llc = d.l3 ? d.l3 : d.l2 ? d.l2 : d.l1d;
	env->cache_line = d.cache_line >= 16 && d.cache_line <= 1024 ?
			  d.cache_line : 64;
	want = env->cache_llc > 0 ? (size_t)env->cache_llc * 4 : MIN_BYTES;
	if (want < MIN_BYTES)
		want = MIN_BYTES;
	if (want > MAX_BYTES)
		want = MAX_BYTES;
	if (d.mem_bytes > 0) {
		cap = (size_t)(d.mem_bytes / 8 / env->workers);
		if (want > cap)
			want = cap;
	}
	if (want < FLOOR_BYTES) {
		snprintf(err, errlen, "not enough memory for a %d-worker cache walk (%zu bytes each)",
			 env->workers, want);
		return -1;
	}
	for (pow2 = FLOOR_BYTES; pow2 * 2 <= want; pow2 *= 2)
		;
	env->cache_bytes = pow2;
	return 0;
}

static void cache_run(struct load_worker *w)
{
	const struct load_env *e = w->env;
	size_t line = (size_t)e->cache_line, nlines = e->cache_bytes / line;
	/* odd stride of about 4099 lines: coprime with the power-of-two count */
	size_t stride = (4099 % nlines) | 1, i = 0, n;
	volatile unsigned char *buf;
	char llc[32], sz[32];

	/* populated by the kernel: quicker than faulting it in page by page */
	buf = mmap(NULL, e->cache_bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		load_fail(w, "cannot allocate %zu bytes: %s", e->cache_bytes,
			  strerror(errno));
		return;
	}
	load_running(w, "walks %s per worker (LLC %s), %zu B lines, stride %zu lines, read+write",
		     fmt_bytes(sz, (int64_t)e->cache_bytes),
		     fmt_bytes(llc, e->cache_llc), line, stride);
	while (!load_stopping()) {
		for (n = 0; n < 65536; n++) {
			buf[i * line] += 1;
			i += stride;
			if (i >= nlines)
				i -= nlines;
		}
		w->slot->count += 65536 * line;
	}
	munmap((void *)buf, e->cache_bytes);
}

const struct load_gen load_cache = {
	.name = "cache",
	.help = "memory walker over 4x the last-level cache (calibrator)",
	.unit = "MB/s",
	.per_count = 1e-6,
	.prepare = cache_prepare,
	.run = cache_run,
};
