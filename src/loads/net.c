// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net load: the "ping -f" of the old recipes, kept on loopback. As root
 * (CAP_NET_RAW) each worker floods ICMP echo requests to 127.0.0.1 (or
 * --load-net-dest, which must be 127.x.x.x) through a raw socket, keeping
 * up to 16 in flight as ping -f does with its replies; without the
 * privilege it floods UDP datagrams to itself on loopback. Any destination
 * outside 127.0.0.0/8 is refused when the option is parsed. Counted in
 * packets/s: echo replies (or datagrams) received.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loads/load.h"

#define WINDOW		16
#define PAYLOAD		56
#define POLL_MS		10

#ifndef ICMP_FILTER
#define ICMP_FILTER 1		/* <linux/icmp.h>, which clashes with glibc's */
struct icmp_filter {
	uint32_t data;
};
#endif

static int net_prepare(struct load_env *env, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);

	if ((ntohl(env->o->net_dest.s_addr) >> 24) != 127) {
		snprintf(err, errlen, "destination is not a loopback address (127.x.x.x)");
		return -1;
	}
	env->net_raw = fd >= 0;
	if (fd >= 0)
		close(fd);
	/* a route to the destination: connect() of a UDP socket sends
	 * nothing, it only looks the route up */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		struct sockaddr_in sa = { 0 };
		int e;

		sa.sin_family = AF_INET;
		sa.sin_addr = env->o->net_dest;
		sa.sin_port = htons(9);
		e = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
		close(fd);
		if (e == ENETUNREACH) {
			snprintf(err, errlen, "the loopback interface is down: bring it up with 'ip link set lo up' (or leave net out, e.g. --load cpu,cache,fork,io,msg)");
			return -1;
		}
	}
	return 0;
}

static uint16_t csum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;

	for (; len > 1; p += 2, len -= 2)
		sum += (uint32_t)(p[0] << 8 | p[1]);
	if (len)
		sum += (uint32_t)(p[0] << 8);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static int icmp_reply(const unsigned char *buf, ssize_t n, uint16_t id)
{
	const struct iphdr *ip = (const void *)buf;
	const struct icmphdr *ic;
	size_t hl;

	if (n < (ssize_t)sizeof(*ip))
		return 0;
	hl = (size_t)ip->ihl * 4;
	if ((size_t)n < hl + sizeof(*ic))
		return 0;
	ic = (const void *)(buf + hl);
	return ic->type == ICMP_ECHOREPLY && ic->un.echo.id == id;
}

/* Flood @fd (connected); @send_one builds and sends one packet. */
static void flood(struct load_worker *w, int fd, bool raw, uint16_t id)
{
	unsigned char pkt[sizeof(struct icmphdr) + PAYLOAD], in[1500];
	struct icmphdr *ic = (void *)pkt;
	struct pollfd pfd = { fd, POLLIN, 0 };
	uint16_t seq = 0;
	int inflight = 0;
	ssize_t n;

	memset(pkt, 0xa5, sizeof(pkt));
	while (!load_stopping()) {
		while (inflight < WINDOW) {
			if (raw) {
				ic->type = ICMP_ECHO;
				ic->code = 0;
				ic->un.echo.id = id;
				ic->un.echo.sequence = htons(seq++);
				ic->checksum = 0;
				ic->checksum = csum(pkt, sizeof(pkt));
			}
			n = send(fd, pkt, sizeof(pkt), MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EAGAIN || errno == ENOBUFS ||
				    errno == EINTR || errno == ECONNREFUSED)
					break;
				load_fail(w, "send: %s", strerror(errno));
				return;
			}
			inflight++;
		}
		if (poll(&pfd, 1, POLL_MS) == 0) {
			inflight = 0;	/* lost: start a new window */
			continue;
		}
		for (;;) {
			n = recv(fd, in, sizeof(in), MSG_DONTWAIT);
			if (n < 0)
				break;
			if (raw && !icmp_reply(in, n, id))
				continue;
			w->slot->count++;
			if (inflight > 0)
				inflight--;
		}
	}
}

static void net_run(struct load_worker *w)
{
	const struct load_env *e = w->env;
	struct sockaddr_in sa = { 0 };
	socklen_t len = sizeof(sa);
	char dst[INET_ADDRSTRLEN];
	int fd;

	inet_ntop(AF_INET, &e->o->net_dest, dst, sizeof(dst));
	sa.sin_family = AF_INET;
	sa.sin_addr = e->o->net_dest;
	if (e->net_raw) {
		struct icmp_filter filt = { ~(1u << ICMP_ECHOREPLY) };

		fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
		if (fd < 0) {
			load_fail(w, "raw ICMP socket: %s", strerror(errno));
			return;
		}
		setsockopt(fd, SOL_RAW, ICMP_FILTER, &filt, sizeof(filt));
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			load_fail(w, "connect %s: %s", dst, strerror(errno));
			close(fd);
			return;
		}
		load_running(w, "ICMP echo flood to %s (raw socket, %d in flight), echo replies counted",
			     dst, WINDOW);
		flood(w, fd, true, htons((uint16_t)getpid()));
	} else {
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    getsockname(fd, (struct sockaddr *)&sa, &len) < 0 ||
		    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			load_fail(w, "UDP socket on %s: %s", dst, strerror(errno));
			if (fd >= 0)
				close(fd);
			return;
		}
		load_running(w, "UDP flood to itself on %s port %d (no raw socket privilege), datagrams counted",
			     dst, ntohs(sa.sin_port));
		flood(w, fd, false, 0);
	}
	close(fd);
}

const struct load_gen load_net = {
	.name = "net",
	.help = "ICMP echo flood on loopback (ping -f), UDP without root",
	.unit = "packets/s",
	.per_count = 1.0,
	.prepare = net_prepare,
	.run = net_run,
};
