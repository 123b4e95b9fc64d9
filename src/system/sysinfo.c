// SPDX-License-Identifier: GPL-2.0-or-later
/* Description of the system under test; see sysinfo.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "system/cpulist.h"
#include "util/jsonw.h"
#include "system/kinfo.h"
#include "system/sysinfo.h"

void sys_path(char *out, size_t len, const char *root, const char *path)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/") || !root[0])
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%.*s%s", (int)(root[n - 1] == '/' ? n - 1 : n),
			 root, path);
}

bool sys_below(const char *root, const char *real)
{
	char r[PATH_MAX];
	size_t n;

	if (!root || !root[0] || !strcmp(root, "/"))
		return true;
	if (!realpath(root, r))
		return true;	/* no tree to be out of: the open fails */
	n = strlen(r);
	if (n == 1)	/* the root given is a link to / */
		return true;
	return !strncmp(real, r, n) && (real[n] == '/' || !real[n]);
}

bool sys_fd_below(const char *root, int fd)
{
	char link[32], real[PATH_MAX];
	ssize_t n;

	if (!root || !root[0] || !strcmp(root, "/"))
		return true;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0)
		return true;
	real[n] = '\0';
	return sys_below(root, real);
}

int sys_open_path(const char *root, const char *path, bool device)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (!sys_fd_below(root, fd)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	if (fstat(fd, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || (device && S_ISCHR(st.st_mode)))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

const char *sys_file_kind(mode_t m)
{
	return S_ISREG(m) ? "a regular file" :
	       S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : "not a plain file";
}

const char *sys_read_why(const char *root, const char *path, int e,
			 char *buf, size_t len)
{
	char p[PATH_MAX];
	struct stat st;

	sys_path(p, sizeof(p), root, path);
	if (e == EXDEV)
		snprintf(buf, len, "it leads out of the --root tree (a link or \"..\")");
	else if (stat(p, &st) < 0)
		snprintf(buf, len, "%s%s", strerror(errno),
			 (errno == EACCES || errno == EPERM) && geteuid() ?
			 " (not root)" : "");
	else if (!S_ISREG(st.st_mode) && e == EINVAL)
		snprintf(buf, len, "not a regular file (%s)",
			 sys_file_kind(st.st_mode));
	else if (e == EFBIG)
		sys_too_large(buf, len, false);
	else
		snprintf(buf, len, "%s%s", strerror(e),
			 (e == EACCES || e == EPERM) && geteuid() ?
			 " (not root)" : "");
	return buf;
}

char *sys_read_fd(int fd, size_t max, size_t *n, bool *more)
{
	size_t len = 0, size = 0;
	char *buf = NULL, *nb;
	ssize_t k;
	int e;

	*more = false;
	/* up to one byte more than the bound (whether there is more), in a
	 * buffer that grows with what is read: an allocation of the whole
	 * bound would be faulted in and locked under mlockall(MCL_FUTURE) */
	for (;;) {
		if (len + 1 >= size) {	/* below max + 1: see the break */
			size = size ? 2 * size : 16384;
			if (size > max + 2)
				size = max + 2;		/* max + 1 and the NUL */
			nb = realloc(buf, size);
			if (!nb)
				goto fail;
			buf = nb;
		}
		k = read(fd, buf + len, size - 1 - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			goto fail;
		if (!k)
			break;
		len += (size_t)k;
		if (len > max)
			break;
	}
	if (len > max) {
		len = max;
		*more = true;
	}
	buf[len] = '\0';
	*n = len;
	return buf;
fail:
	e = errno;
	free(buf);
	errno = e;
	return NULL;
}

char *sys_too_large(char *buf, size_t len, bool read_part)
{
	if (read_part)
		snprintf(buf, len, "larger than %u bytes, read the first %u",
			 SYS_READ_MAX, SYS_READ_MAX);
	else
		snprintf(buf, len, "larger than %u bytes, not read",
			 SYS_READ_MAX);
	return buf;
}

FILE *sys_fopen(const char *root, const char *path, bool *cut)
{
	char p[PATH_MAX], *buf;
	size_t n = 0;
	bool more;
	FILE *f = NULL;
	int fd, e;

	if (cut)
		*cut = false;
	sys_path(p, sizeof(p), root, path);
	fd = sys_open_path(root, p, false);
	if (fd < 0)
		return NULL;
	buf = sys_read_fd(fd, SYS_READ_MAX, &n, &more);
	if (!buf)
		goto out;
	if (cut)
		*cut = more;
	/* a stream of its own buffer (freed by fclose()) over what was read;
	 * one byte more for the NUL that a flush writes after what was
	 * written (it took the place of the file's last byte) */
	f = fmemopen(NULL, n + 1, "w+");
	if (f && n && fwrite(buf, 1, n, f) != n) {
		fclose(f);
		f = NULL;
	}
	if (f)
		rewind(f);
out:
	e = errno;
	free(buf);
	close(fd);
	errno = e;
	return f;
}

/* Remove trailing white space and NULs of a @n byte string. */
static size_t rtrim(char *s, size_t n)
{
	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '\0'))
		n--;
	s[n] = '\0';
	return n;
}

int sys_read_file(const char *root, const char *path, char *buf, size_t len)
{
	return sys_read_file_nul(root, path, buf, len, NULL);
}

int sys_read_file_nul(const char *root, const char *path, char *buf,
		      size_t len, long *nul)
{
	char p[PATH_MAX];
	size_t n = 0, m;
	ssize_t k;
	int fd;

	if (nul)
		*nul = -1;
	buf[0] = '\0';
	sys_path(p, sizeof(p), root, path);
	fd = sys_open_path(root, p, false);
	if (fd < 0)
		return -1;
	while (n + 1 < len) {
		k = read(fd, buf + n, len - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	/* device-tree strings may hold NULs between entries: keep the first */
	buf[n] = '\0';
	m = strnlen(buf, n);
	if (nul && m < n)
		*nul = (long)m;
	return (int)rtrim(buf, m);
}

static bool sys_exists(const char *root, const char *path)
{
	char p[PATH_MAX];
	struct stat st;

	sys_path(p, sizeof(p), root, path);
	return stat(p, &st) == 0;
}

/* Copy at most @len - 1 bytes of @src with white space runs collapsed. */
static void copy_clean(char *dst, size_t len, const char *src)
{
	size_t n = 0;
	bool space = false;

	while (isspace((unsigned char)*src))
		src++;
	for (; *src && n + 1 < len; src++) {
		if (isspace((unsigned char)*src)) {
			space = true;
			continue;
		}
		if (space && n + 2 < len)
			dst[n++] = ' ';
		space = false;
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

int64_t sys_scale(long long v, int shift)
{
	if (v <= 0)
		return 0;
	if (v > INT64_MAX >> shift)
		return INT64_MAX;
	return (int64_t)v << shift;
}

/* "32K", "2048K", "16M", "512" -> bytes; 0 if not a size. */
static int64_t parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0)
		return 0;
	switch (toupper((unsigned char)*end)) {
	case 'K': return sys_scale(v, 10);
	case 'M': return sys_scale(v, 20);
	case 'G': return sys_scale(v, 30);
	default: return v;
	}
}

static const struct {
	unsigned int part;
	const char *name;
} arm_parts[] = {
	{ 0xc05, "Cortex-A5" }, { 0xc07, "Cortex-A7" }, { 0xc08, "Cortex-A8" },
	{ 0xc09, "Cortex-A9" }, { 0xc0d, "Cortex-A12" }, { 0xc0e, "Cortex-A17" },
	{ 0xc0f, "Cortex-A15" }, { 0xc14, "Cortex-R4" }, { 0xc15, "Cortex-R5" },
	{ 0xd01, "Cortex-A32" }, { 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
	{ 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" }, { 0xd08, "Cortex-A72" },
	{ 0xd09, "Cortex-A73" }, { 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
	{ 0xd0c, "Neoverse-N1" }, { 0xd0d, "Cortex-A77" }, { 0xd40, "Neoverse-V1" },
	{ 0xd41, "Cortex-A78" }, { 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" },
	{ 0xd47, "Cortex-A710" }, { 0xd48, "Cortex-X2" }, { 0xd49, "Neoverse-N2" },
	{ 0xd4b, "Cortex-A78C" }, { 0xd80, "Cortex-A520" }, { 0xd81, "Cortex-A720" },
};

static const char *arm_core(unsigned int implementer, unsigned int part)
{
	size_t i;

	if (implementer != 0x41)	/* ARM Ltd. */
		return NULL;
	for (i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
		if (arm_parts[i].part == part)
			return arm_parts[i].name;
	return NULL;
}

/* "533.333332MHz", "2300.000" (MHz) -> kHz */
static int64_t mhz_to_khz(const char *s)
{
	double v = strtod(s, NULL);

	return v > 0 ? (int64_t)(v * 1000.0 + 0.5) : 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The first occurrence of each key of interest in /proc/cpuinfo. */
static void read_cpuinfo(struct sysdesc *d, const char *root)
{
	char line[1024], model_name[SYS_STR] = "", proc[SYS_STR] = "";
	char cpu[SYS_STR] = "", machine[SYS_STR] = "", model[SYS_STR] = "";
	char hw[SYS_STR] = "";
	unsigned int impl = 0, part = 0;
	bool have_impl = false, have_part = false;
	int64_t mhz = 0, clock = 0;
	int nproc = 0;
	FILE *f;

	f = sys_fopen(root, "/proc/cpuinfo", NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *key = line, *val;

		if (!colon)
			continue;
		*colon = '\0';
		val = colon + 1;
		rtrim(key, strlen(key));
		rtrim(val, strlen(val));
		while (isspace((unsigned char)*val))
			val++;
#define FIRST(k, dst) \
		if (!strcmp(key, k)) { \
			if (!(dst)[0]) \
				copy_clean(dst, sizeof(dst), val); \
			continue; \
		}
		if (!strcmp(key, "processor")) {
			nproc++;
			/* old ARM: "Processor : ARMv7 Processor rev 10 (v7l)" */
			continue;
		}
		FIRST("model name", model_name)
		FIRST("Processor", proc)
		FIRST("cpu", cpu)
		FIRST("machine", machine)
		FIRST("Hardware", hw)
		FIRST("model", model)
#undef FIRST
		if (!strcmp(key, "cpu MHz") && !mhz)
			mhz = mhz_to_khz(val);
		else if (!strcmp(key, "clock") && !clock)
			clock = mhz_to_khz(val);
		else if (!strcmp(key, "CPU implementer") && !have_impl) {
			impl = (unsigned int)strtoul(val, NULL, 0);
			have_impl = true;
		} else if (!strcmp(key, "CPU part") && !have_part) {
			part = (unsigned int)strtoul(val, NULL, 0);
			have_part = true;
		}
	}
	fclose(f);

	if (model_name[0])
		snprintf(d->processor, sizeof(d->processor), "%s", model_name);
	else if (proc[0])
		snprintf(d->processor, sizeof(d->processor), "%s", proc);
	else if (cpu[0])
		snprintf(d->processor, sizeof(d->processor), "%s", cpu);
	if (have_impl && have_part) {
		const char *c = arm_core(impl, part);

		if (c)
			snprintf(d->core, sizeof(d->core), "%s", c);
		else
			snprintf(d->core, sizeof(d->core), "implementer 0x%02x part 0x%03x",
				 impl, part);
		if (!d->processor[0])
			snprintf(d->processor, sizeof(d->processor), "%s", d->core);
	}
	snprintf(d->soc, sizeof(d->soc), "%s", hw);
	if (!d->cpu_khz) {
		d->cpu_khz = mhz ? mhz : clock;
		if (d->cpu_khz)
			snprintf(d->cpu_clock_source, sizeof(d->cpu_clock_source),
				 "cpuinfo");
	}
	if (!d->board[0]) {
		const char *b = machine[0] ? machine :
				(model[0] && !all_digits(model)) ? model : hw;

		if (b[0]) {
			snprintf(d->board, sizeof(d->board), "%s", b);
			snprintf(d->board_source, sizeof(d->board_source), "cpuinfo");
		}
	}
	if (!d->ncpus && nproc)
		d->ncpus = nproc;
}

static bool dmi_junk(const char *s)
{
	static const char *const junk[] = {
		"To Be Filled By O.E.M.", "To be filled by O.E.M.",
		"System Product Name", "Default string", "Not Applicable",
		"System manufacturer", "",
	};
	size_t i;

	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		if (!strcmp(s, junk[i]))
			return true;
	return false;
}

static void read_board(struct sysdesc *d, const char *root)
{
	char vendor[128], product[128], bvendor[128], bname[128];

	if (sys_read_file(root, "/proc/device-tree/model", d->board,
			  sizeof(d->board)) > 0 ||
	    sys_read_file(root, "/sys/firmware/devicetree/base/model", d->board,
			  sizeof(d->board)) > 0) {
		snprintf(d->board_source, sizeof(d->board_source), "device-tree");
		return;
	}
	sys_read_file(root, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	sys_read_file(root, "/sys/class/dmi/id/product_name", product,
		      sizeof(product));
	sys_read_file(root, "/sys/class/dmi/id/board_vendor", bvendor,
		      sizeof(bvendor));
	sys_read_file(root, "/sys/class/dmi/id/board_name", bname, sizeof(bname));
	if (dmi_junk(product)) {
		snprintf(vendor, sizeof(vendor), "%s", dmi_junk(bvendor) ? "" : bvendor);
		snprintf(product, sizeof(product), "%s", dmi_junk(bname) ? "" : bname);
	}
	if (dmi_junk(vendor))
		vendor[0] = '\0';
	if (!product[0] && !vendor[0])
		return;
	snprintf(d->board, sizeof(d->board), "%s%s%s", vendor,
		 vendor[0] && product[0] ? " " : "", product);
	snprintf(d->board_source, sizeof(d->board_source), "dmi");
}

static void read_caches(struct sysdesc *d, const char *root)
{
	char p[128], level[16], type[32], size[32], line[16];
	int i;

	for (i = 0; i < 16; i++) {
		int64_t sz;

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (sys_read_file(root, p, level, sizeof(level)) <= 0)
			continue;
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		sys_read_file(root, p, type, sizeof(type));
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		sys_read_file(root, p, size, sizeof(size));
		sz = parse_size(size);
		switch (strtol(level, NULL, 10)) {
		case 1:
			if (!strcmp(type, "Instruction")) {
				d->l1i = sz;
			} else {
				d->l1d = sz;
				snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
				if (sys_read_file(root, p, line, sizeof(line)) > 0)
					d->cache_line = (int)strtol(line, NULL, 10);
			}
			break;
		case 2:
			d->l2 = sz;
			break;
		case 3:
			d->l3 = sz;
			break;
		}
	}
}

/* PREEMPT_RT / PREEMPT_DYNAMIC / PREEMPT from the "#1 SMP PREEMPT_RT ..."
 * version string (the kernel's UTS_VERSION flags). */
static void preempt_from_version(struct sysdesc *d, const char *v)
{
	char buf[SYS_STR], *tok, *save = NULL, *prev = NULL;

	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, " ", &save); tok;
	     prev = tok, tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "PREEMPT_RT") ||
		    (!strcmp(tok, "RT") && prev && !strcmp(prev, "PREEMPT"))) {
			snprintf(d->preempt, sizeof(d->preempt), "PREEMPT_RT");
			d->realtime = true;
			return;
		}
		if (!d->preempt[0] && (!strcmp(tok, "PREEMPT_DYNAMIC") ||
				       !strcmp(tok, "PREEMPT_LAZY") ||
				       !strcmp(tok, "PREEMPT")))
			snprintf(d->preempt, sizeof(d->preempt), "%s", tok);
	}
}

static void read_kernel(struct sysdesc *d, const char *root)
{
	bool self = !strcmp(root, "/") || !root[0];
	char buf[SYS_STR], *open_p, *close_p;
	struct utsname u;

	sys_read_file(root, "/proc/sys/kernel/osrelease", d->release,
		      sizeof(d->release));
	sys_read_file(root, "/proc/sys/kernel/version", d->version,
		      sizeof(d->version));
	sys_read_file(root, "/proc/version", d->proc_version,
		      sizeof(d->proc_version));
	sys_read_file(root, "/proc/sys/kernel/hostname", d->hostname,
		      sizeof(d->hostname));
	sys_read_file(root, "/proc/sys/kernel/arch", d->machine,
		      sizeof(d->machine));
	if (self && uname(&u) == 0) {
		if (!d->release[0])
			snprintf(d->release, sizeof(d->release), "%s", u.release);
		if (!d->version[0])
			snprintf(d->version, sizeof(d->version), "%s", u.version);
		if (!d->machine[0])
			snprintf(d->machine, sizeof(d->machine), "%s", u.machine);
		if (!d->hostname[0])
			snprintf(d->hostname, sizeof(d->hostname), "%s", u.nodename);
	}
	if (!d->version[0] && d->proc_version[0]) {
		/* "Linux version R (builder) (compiler) #1 SMP ...": the
		 * version is what follows the last ") " before '#' */
		open_p = strchr(d->proc_version, '#');
		if (open_p)
			snprintf(d->version, sizeof(d->version), "%s", open_p);
	}
	if (!d->release[0] && d->proc_version[0] &&
	    sscanf(d->proc_version, "Linux version %127s", d->release) != 1)
		d->release[0] = '\0';

	if (sys_read_file(root, "/sys/kernel/realtime", buf, sizeof(buf)) > 0 &&
	    strtol(buf, NULL, 10) == 1) {
		d->realtime = true;
		snprintf(d->preempt, sizeof(d->preempt), "PREEMPT_RT");
	}
	if (!d->realtime)
		preempt_from_version(d, d->version[0] ? d->version :
				     d->proc_version);
	/* PREEMPT_DYNAMIC: "none voluntary (full) lazy" */
	if (sys_read_file(root, "/sys/kernel/debug/sched/preempt", buf,
			  sizeof(buf)) > 0) {
		open_p = strchr(buf, '(');
		close_p = open_p ? strchr(open_p, ')') : NULL;
		if (open_p && close_p) {
			*close_p = '\0';
			snprintf(d->preempt_mode, sizeof(d->preempt_mode), "%s",
				 open_p + 1);
			if (!d->preempt[0])
				snprintf(d->preempt, sizeof(d->preempt),
					 "PREEMPT_DYNAMIC");
		}
	}
}

/*
 * PREEMPT_DYNAMIC without debugfs: the mode the kernel booted in, from its
 * "Dynamic Preempt: none" boot message, else the preempt= parameter, else
 * the configured default (CONFIG_PREEMPT_NONE, _VOLUNTARY, _PREEMPT,
 * _LAZY).
 */
static void preempt_mode_at_boot(struct sysdesc *d, const char *root)
{
	static const char *const cfg[][2] = {
		{ "CONFIG_PREEMPT_NONE", "none" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_LAZY", "lazy" },
	};
	char mode[32], from[64], why[256], *text, *p;
	size_t i;
	int found;

	found = kmsg_find(root, "Dynamic Preempt: ", mode, sizeof(mode), why,
			  sizeof(why));
	if (found > 0 && mode[0]) {
		snprintf(d->preempt_mode, sizeof(d->preempt_mode), "%s", mode);
		snprintf(d->preempt_mode_source, sizeof(d->preempt_mode_source),
			 "boot log");
		return;
	}
	if (found < 0)
		snprintf(d->preempt_log_why, sizeof(d->preempt_log_why),
			 "/dev/kmsg cannot be read: %s", why);
	else
		snprintf(d->preempt_log_why, sizeof(d->preempt_log_why),
			 "/dev/kmsg: no \"Dynamic Preempt:\" message%s",
			 found ? " with a mode" : "");
	for (p = d->cmdline; (p = strstr(p, "preempt=")); p++) {
		if (p != d->cmdline && p[-1] != ' ')
			continue;
		snprintf(d->preempt_mode, sizeof(d->preempt_mode), "%.*s",
			 (int)strcspn(p + 8, " "), p + 8);
		snprintf(d->preempt_mode_source, sizeof(d->preempt_mode_source),
			 "cmdline");
		return;
	}
	text = kconfig_read(root, d->release, from, sizeof(from), why,
			    sizeof(why));
	for (i = 0; text && i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		if (!kconfig_value(text, cfg[i][0], mode, sizeof(mode)) ||
		    strcmp(mode, "y") != 0)
			continue;
		snprintf(d->preempt_mode, sizeof(d->preempt_mode), "%s",
			 cfg[i][1]);
		snprintf(d->preempt_mode_source, sizeof(d->preempt_mode_source),
			 "config");
		break;
	}
	free(text);
}

static void read_cokernels(struct sysdesc *d, const char *root)
{
	char buf[64];

	sys_read_file(root, "/proc/xenomai/version", d->xenomai,
		      sizeof(d->xenomai));
	sys_read_file(root, "/proc/ipipe/version", d->ipipe, sizeof(d->ipipe));
	if (sys_read_file(root, "/sys/devices/virtual/evl/control/abi", buf,
			  sizeof(buf)) > 0)
		snprintf(d->evl, sizeof(d->evl), "ABI %s", buf);
	else if (sys_exists(root, "/sys/devices/virtual/evl") ||
		 sys_exists(root, "/proc/evl"))
		snprintf(d->evl, sizeof(d->evl), "yes");
	d->dovetail = strstr(d->release, "dovetail") != NULL ||
		      d->evl[0] != '\0';
	d->rtai = sys_exists(root, "/proc/rtai");
}

void sysdesc_read(struct sysdesc *d, const char *root)
{
	char buf[4096], err[64];
	struct cpuset set;
	long long kb;
	char *p;

	memset(d, 0, sizeof(*d));
	if (!root || !root[0])
		root = "/";
	read_kernel(d, root);
	read_board(d, root);
	if (sys_read_file(root, "/sys/devices/system/cpu/online", buf,
			  sizeof(buf)) > 0 &&
	    cpulist_parse(buf, &set, err, sizeof(err)) == 0) {
		d->ncpus = cpuset_count(&set);
		snprintf(d->cpus_online, sizeof(d->cpus_online), "%s", buf);
	}
	if (sys_read_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
			  buf, sizeof(buf)) > 0 && strtoll(buf, NULL, 10) > 0) {
		d->cpu_khz = strtoll(buf, NULL, 10);
		snprintf(d->cpu_clock_source, sizeof(d->cpu_clock_source),
			 "cpufreq max");
	}
	read_cpuinfo(d, root);
	read_caches(d, root);
	if (sys_read_file(root, "/proc/meminfo", buf, sizeof(buf)) > 0) {
		p = strstr(buf, "MemTotal:");
		if (p) {
			char *end;

			kb = strtoll(p + strlen("MemTotal:"), &end, 10);
			if (end != p + strlen("MemTotal:") &&
			    !strncmp(end, " kB", 3))
				d->mem_bytes = sys_scale(kb, 10);
		}
	}
	read_cokernels(d, root);
	sys_read_file(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      d->clocksource, sizeof(d->clocksource));
	sys_read_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		      d->governor, sizeof(d->governor));
	sys_read_file(root, "/sys/devices/system/cpu/isolated", d->isolated,
		      sizeof(d->isolated));
	sys_read_file(root, "/sys/devices/system/cpu/nohz_full", d->nohz_full,
		      sizeof(d->nohz_full));
	if (!strcmp(d->nohz_full, "(null)"))
		d->nohz_full[0] = '\0';
	sys_read_file(root, "/proc/cmdline", d->cmdline, sizeof(d->cmdline));
	if (!strcmp(d->preempt, "PREEMPT_DYNAMIC") && !d->preempt_mode[0])
		preempt_mode_at_boot(d, root);
	else if (d->preempt_mode[0])
		snprintf(d->preempt_mode_source, sizeof(d->preempt_mode_source),
			 "debugfs");
}

char *sysdesc_flavour(const struct sysdesc *d, char *buf, size_t len)
{
	char kern[64];
	int n = 0;

	if (d->realtime)
		snprintf(kern, sizeof(kern), "PREEMPT_RT");
	else if (d->preempt[0] && d->preempt_mode[0])
		snprintf(kern, sizeof(kern), "%s (%s)", d->preempt, d->preempt_mode);
	else if (d->preempt[0])
		snprintf(kern, sizeof(kern), "%s", d->preempt);
	else if (!d->version[0] && !d->proc_version[0])
		snprintf(kern, sizeof(kern), "unknown");	/* unread */
	else
		snprintf(kern, sizeof(kern), "no PREEMPT (voluntary or none)");

	buf[0] = '\0';
	if (d->xenomai[0]) {
		n = snprintf(buf, len, "Xenomai %s", d->xenomai);
		if (d->ipipe[0])
			n += snprintf(buf + n, len - (size_t)n, " on I-pipe %s",
				      d->ipipe);
		else if (d->dovetail)
			n += snprintf(buf + n, len - (size_t)n, " on Dovetail");
	} else if (d->evl[0]) {
		n = snprintf(buf, len, "EVL%s%s on Dovetail",
			     strcmp(d->evl, "yes") ? " " : "",
			     strcmp(d->evl, "yes") ? d->evl : "");
	} else if (d->ipipe[0]) {
		n = snprintf(buf, len, "I-pipe %s", d->ipipe);
	} else if (d->rtai) {
		n = snprintf(buf, len, "RTAI");
	} else if (d->dovetail) {
		n = snprintf(buf, len, "Dovetail");
	}
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", kernel %s", kern);
	else if (d->realtime)
		snprintf(buf, len, "PREEMPT_RT");
	else if (!strcmp(kern, "unknown"))
		snprintf(buf, len, "unknown");	/* never assert mainline */
	else
		snprintf(buf, len, "mainline %s", kern);
	return buf;
}

char *fmt_bytes(char *buf, int64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	int64_t whole = b;

	if (b <= 0) {
		snprintf(buf, 32, "n/a");
		return buf;
	}
	while (u < 4 && whole >= 1024 && whole % 1024 == 0) {
		whole /= 1024;
		u++;
	}
	if (u < 4 && whole >= 1024) {
		double v = (double)b;

		for (u = 0; u < 4 && v >= 1024; u++)
			v /= 1024;
		snprintf(buf, 32, "%.1f %s", v, unit[u]);
		return buf;
	}
	snprintf(buf, 32, "%" PRId64 " %s", whole, unit[u]);
	return buf;
}

static void str_or_null(struct jw *w, const char *key, const char *s)
{
	if (s[0])
		jw_str(w, key, s);
	else
		jw_null(w, key);
}

static void int_or_null(struct jw *w, const char *key, int64_t v)
{
	if (v > 0)
		jw_int(w, key, v);
	else
		jw_null(w, key);
}

void sysdesc_json(const struct sysdesc *d, struct jw *w)
{
	char buf[SYS_STR];

	str_or_null(w, "hostname", d->hostname);
	str_or_null(w, "board", d->board);
	str_or_null(w, "board_source", d->board_source);
	str_or_null(w, "processor", d->processor);
	str_or_null(w, "core", d->core);
	str_or_null(w, "soc", d->soc);
	int_or_null(w, "cpus", d->ncpus);
	str_or_null(w, "cpus_online", d->cpus_online);
	int_or_null(w, "cpu_clock_khz", d->cpu_khz);
	str_or_null(w, "cpu_clock_source", d->cpu_clock_source);
	jw_obj_begin(w, "caches_bytes");
	int_or_null(w, "l1i", d->l1i);
	int_or_null(w, "l1d", d->l1d);
	int_or_null(w, "l2", d->l2);
	int_or_null(w, "l3", d->l3);
	int_or_null(w, "line", d->cache_line);
	jw_obj_end(w);
	int_or_null(w, "memory_bytes", d->mem_bytes);
	str_or_null(w, "machine", d->machine);
	str_or_null(w, "kernel_release", d->release);
	str_or_null(w, "kernel_version", d->version);
	str_or_null(w, "proc_version", d->proc_version);
	str_or_null(w, "preempt", d->preempt);
	str_or_null(w, "preempt_dynamic_mode", d->preempt_mode);
	str_or_null(w, "preempt_dynamic_mode_source", d->preempt_mode_source);
	jw_bool(w, "preempt_rt", d->realtime);
	str_or_null(w, "xenomai", d->xenomai);
	str_or_null(w, "ipipe", d->ipipe);
	str_or_null(w, "evl", d->evl);
	jw_bool(w, "dovetail", d->dovetail);
	jw_bool(w, "rtai", d->rtai);
	jw_str(w, "rt_flavour", sysdesc_flavour(d, buf, sizeof(buf)));
	str_or_null(w, "clocksource", d->clocksource);
	str_or_null(w, "cpufreq_governor", d->governor);
	jw_str(w, "isolated_cpus", d->isolated);
	jw_str(w, "nohz_full", d->nohz_full);
	str_or_null(w, "cmdline", d->cmdline);
}

static const char *or_na(const char *s)
{
	return s[0] ? s : "n/a";
}

void sysdesc_print(const struct sysdesc *d, FILE *f, const char *pf)
{
	char a[32], b[32], c[32], e[32], fl[SYS_STR];

	fprintf(f, "%sBoard      : %s\n", pf, or_na(d->board));
	fprintf(f, "%sProcessor  : %s", pf, or_na(d->processor));
	if (d->core[0] && strcmp(d->core, d->processor) != 0)
		fprintf(f, " [%s]", d->core);
	if (d->soc[0] && strcmp(d->soc, d->board) != 0)
		fprintf(f, ", %s", d->soc);
	if (d->ncpus)
		fprintf(f, ", %d CPU%s", d->ncpus, d->ncpus == 1 ? "" : "s");
	fprintf(f, "\n");
	if (d->cpu_khz)
		fprintf(f, "%sCPU-Clk    : %" PRId64 " MHz\n", pf,
			(d->cpu_khz + 500) / 1000);
	else
		fprintf(f, "%sCPU-Clk    : n/a\n", pf);
	fprintf(f, "%sCaches     : I %s, D %s, L2 %s, L3 %s\n", pf,
		fmt_bytes(a, d->l1i), fmt_bytes(b, d->l1d), fmt_bytes(c, d->l2),
		fmt_bytes(e, d->l3));
	fprintf(f, "%sMemory     : %s\n", pf, fmt_bytes(a, d->mem_bytes));
	fprintf(f, "%sLinux      : %s %s%s%s\n", pf, or_na(d->release),
		d->version, d->machine[0] ? " " : "", d->machine);
	fprintf(f, "%sRT         : %s\n", pf, sysdesc_flavour(d, fl, sizeof(fl)));
	fprintf(f, "%sClock      : clocksource %s, cpufreq governor %s\n", pf,
		or_na(d->clocksource), or_na(d->governor));
	fprintf(f, "%sIsolated   : %s%s%s\n", pf,
		d->isolated[0] ? d->isolated : "none",
		d->nohz_full[0] ? ", nohz_full " : "", d->nohz_full);
	fprintf(f, "%sCmdline    : %s\n", pf, or_na(d->cmdline));
}
