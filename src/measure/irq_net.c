// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: the net source (irq.h).
 *
 * Local ("net"): two network namespaces, created with unshare() and held
 * by file descriptors only (never named in /run/netns), so that they and
 * the veth pair between them vanish with rtlat however it ends, SIGKILL
 * included. The pair (rtlat-a in the first, rtlat-b in the second) gets
 * the link-local addresses 169.254.47.1 and .2/30; the sender's socket is
 * bound in the first namespace, the receiver's in the second: nothing
 * else is reachable from either, so no packet can go anywhere else.
 *
 * net:HOST sends to a responder the user names (rtlat irq --respond there)
 * and reads its answers on the same socket; --respond answers each
 * stimulus to the address it came from.
 *
 * Receive stamps: SO_TIMESTAMPING software receive stamps (taken by the
 * kernel when the packet enters the receive path), CLOCK_REALTIME,
 * converted to CLOCK_MONOTONIC with the offset read at the wake-up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/net_tstamp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <linux/veth.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "measure/irq.h"

#define IF_A "rtlat-a"
#define IF_B "rtlat-b"
#define ADDR_A "169.254.47.1"
#define ADDR_B "169.254.47.2"
#define NETMASK "255.255.255.252"

void irq_net_init(struct irq_net *n)
{
	memset(n, 0, sizeof(*n));
	n->port = IRQ_NET_PORT;
	n->tx = n->rx = -1;
	n->ns_fd[0] = n->ns_fd[1] = -1;
}

/* ---- netlink: the veth pair ------------------------------------------- */

struct nlbuf {
	char b[1024];
	size_t len;
};

static struct rtattr *nl_attr(struct nlbuf *m, unsigned short type,
			      const void *data, size_t dlen)
{
	struct rtattr *a = (struct rtattr *)(m->b + NLMSG_ALIGN(m->len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(dlen);
	if (dlen)
		memcpy(RTA_DATA(a), data, dlen);
	m->len = NLMSG_ALIGN(m->len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nl_end(struct nlbuf *m, struct rtattr *a)
{
	a->rta_len = (unsigned short)(m->b + m->len - (char *)a);
}

/* In the calling thread's namespace: veth IF_A, its peer IF_B in the
 * namespace of @peer_ns. 0 or -errno. */
static int veth_create(int peer_ns)
{
	struct nlbuf m = { 0 };
	struct nlmsghdr *h = (struct nlmsghdr *)m.b;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct rtattr *info, *data, *peer;
	char ack[512];
	ssize_t got;
	int fd, e = 0;

	h->nlmsg_type = RTM_NEWLINK;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL |
			 NLM_F_ACK;
	h->nlmsg_seq = 1;
	m.len = NLMSG_LENGTH(sizeof(ifi));
	memcpy(NLMSG_DATA(h), &ifi, sizeof(ifi));
	nl_attr(&m, IFLA_IFNAME, IF_A, sizeof(IF_A));
	info = nl_attr(&m, IFLA_LINKINFO, NULL, 0);
	nl_attr(&m, IFLA_INFO_KIND, "veth", sizeof("veth"));
	data = nl_attr(&m, IFLA_INFO_DATA, NULL, 0);
	peer = nl_attr(&m, VETH_INFO_PEER, NULL, 0);
	/* the peer: an ifinfomsg, then its attributes */
	memcpy(m.b + m.len, &ifi, sizeof(ifi));
	m.len += NLMSG_ALIGN(sizeof(ifi));
	nl_attr(&m, IFLA_IFNAME, IF_B, sizeof(IF_B));
	nl_attr(&m, IFLA_NET_NS_FD, &peer_ns, sizeof(peer_ns));
	nl_end(&m, peer);
	nl_end(&m, data);
	nl_end(&m, info);
	h->nlmsg_len = (unsigned int)m.len;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, m.b, m.len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		e = -errno;
		goto out;
	}
	got = recv(fd, ack, sizeof(ack), 0);
	if (got < 0) {
		e = -errno;
		goto out;
	}
	h = (struct nlmsghdr *)ack;
	if (got >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
	    h->nlmsg_type == NLMSG_ERROR)
		e = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	else
		e = -EPROTO;
out:
	close(fd);
	return e;
}

/* In the calling thread's namespace: @ifname up with @addr/30. */
static int link_up(const char *ifname, const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd, e = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
		e = -errno;
	inet_pton(AF_INET, NETMASK, &sin->sin_addr);
	if (!e && ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		e = -errno;
	if (!e && ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		e = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!e && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		e = -errno;
	close(fd);
	return e;
}

/* Can @ifname stamp received packets in hardware? (ethtool's ts info) */
static bool hw_rx_stamps(int fd, const char *ifname)
{
	struct ethtool_ts_info ti = { .cmd = ETHTOOL_GET_TS_INFO };
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ti;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		return false;
	return (ti.so_timestamping & SOF_TIMESTAMPING_RX_HARDWARE) != 0;
}

static int stamps_on(int fd)
{
	int flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;

	return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags,
			  sizeof(flags)) < 0 ? -errno : 0;
}

static int udp_socket(int family, const char *bind_addr, int port,
		      char *err, size_t len, const char *what)
{
	struct sockaddr_storage ss;
	struct addrinfo hints = { .ai_family = family,
				  .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST };
	struct addrinfo *ai = NULL;
	char ports[16];
	int fd, e;

	snprintf(ports, sizeof(ports), "%d", port);
	e = getaddrinfo(bind_addr && bind_addr[0] ? bind_addr : NULL,
			port ? ports : "0", &hints, &ai);
	if (e) {
		snprintf(err, len, "%s: address '%s': %s", what,
			 bind_addr ? bind_addr : "", gai_strerror(e));
		return -1;
	}
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && ai->ai_family == AF_INET6 &&
	    !(bind_addr && bind_addr[0])) {
		int off = 0;

		/* any address: IPv6 and IPv4 (as ::ffff:a.b.c.d) */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	}
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) < 0) {
		e = errno;
		snprintf(err, len, "%s: cannot bind UDP %s port %d: %s%s", what,
			 bind_addr && bind_addr[0] ? bind_addr : "*", port,
			 strerror(e),
			 e == EADDRINUSE ? " (busy: another rtlat irq --respond or a program on that port? try --port)" :
			 e == EACCES ? " (needs root for a port below 1024)" : "");
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static int connect_to(int fd, const char *host, int port, char *err,
		      size_t len, const char *what)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	struct addrinfo *ai = NULL;
	char ports[16];
	int e;

	snprintf(ports, sizeof(ports), "%d", port);
	e = getaddrinfo(host, ports, &hints, &ai);
	if (e) {
		snprintf(err, len, "%s: host '%s': %s", what, host,
			 gai_strerror(e));
		return -1;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		e = errno;
		snprintf(err, len, "%s: cannot reach %s port %d: %s", what,
			 host, port, strerror(e));
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	return 0;
}

/* The interface that holds the local address of connected @fd. */
static void local_ifname(int fd, char *name, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa, *i;

	name[0] = '\0';
	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    getifaddrs(&ifa) < 0)
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss.ss_family)
			continue;
		if ((ss.ss_family == AF_INET &&
		     ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
		     ((struct sockaddr_in *)&ss)->sin_addr.s_addr) ||
		    (ss.ss_family == AF_INET6 &&
		     !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			     &((struct sockaddr_in6 *)&ss)->sin6_addr, 16))) {
			snprintf(name, len, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
}

static void describe_source(struct irq_net *n, int fd);

/* What the stamps are, with the conversion's error bound at set-up. */
static void describe_stamps(struct irq_net *n, int fd)
{
	size_t o;

	describe_source(n, fd);
	n->offset_bound_ns = irq_net_offset_bound();
	o = strlen(n->stamps);
	snprintf(n->stamps + o, sizeof(n->stamps) - o,
		 "; CLOCK_REALTIME, converted to CLOCK_MONOTONIC at each wake-up within +-%lld ns (half the two monotonic reads around the realtime one, median at set-up; the run's largest in the result)",
		 (long long)n->offset_bound_ns);
}

static void describe_source(struct irq_net *n, int fd)
{
	if (!n->ifname[0]) {
		snprintf(n->stamps, sizeof(n->stamps),
			 n->respond && !n->bind[0] ?
			 "software receive stamps (SO_TIMESTAMPING), any interface" :
			 "software receive stamps (SO_TIMESTAMPING); receiving interface unknown");
		return;
	}
	n->hw_stamps = hw_rx_stamps(fd, n->ifname);
	snprintf(n->stamps, sizeof(n->stamps),
		 n->hw_stamps ?
		 "software receive stamps (SO_TIMESTAMPING); %s has hardware receive stamps, on the NIC's own clock: not used" :
		 "software receive stamps (SO_TIMESTAMPING); %s has no hardware receive stamps",
		 n->ifname);
}

static int open_local(struct irq_net *n, char *err, size_t len)
{
	int self, e, i;
	char msg[160];

	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		snprintf(err, len, "net: cannot open /proc/thread-self/ns/net: %s",
			 strerror(errno));
		return -1;
	}
	for (i = 0; i < 2; i++) {
		if (unshare(CLONE_NEWNET) < 0) {
			e = errno;
			snprintf(err, len, "net: cannot create a network namespace: %s%s",
				 strerror(e), e == EPERM ?
				 " (needs root: CAP_SYS_ADMIN and CAP_NET_ADMIN)" : "");
			goto fail;
		}
		n->ns_fd[i] = open("/proc/thread-self/ns/net",
				   O_RDONLY | O_CLOEXEC);
		if (n->ns_fd[i] < 0 || setns(self, CLONE_NEWNET) < 0) {
			snprintf(err, len, "net: cannot hold the namespace: %s",
				 strerror(errno));
			goto fail;
		}
	}
	/* in the first namespace: the pair, rtlat-a's address, the sender */
	if (setns(n->ns_fd[0], CLONE_NEWNET) < 0) {
		snprintf(err, len, "net: cannot enter the namespace: %s",
			 strerror(errno));
		goto fail;
	}
	e = veth_create(n->ns_fd[1]);
	if (e) {
		snprintf(err, len, "net: cannot create the veth pair %s/%s: %s%s",
			 IF_A, IF_B, strerror(-e), e == -EOPNOTSUPP ||
			 e == -ENODEV ? " (no veth in this kernel: CONFIG_VETH, modprobe veth)" : "");
		goto back;
	}
	e = link_up(IF_A, ADDR_A);
	if (e) {
		snprintf(err, len, "net: cannot bring %s up as %s: %s", IF_A,
			 ADDR_A, strerror(-e));
		goto back;
	}
	n->tx = udp_socket(AF_INET, ADDR_A, 0, msg, sizeof(msg), "net");
	if (n->tx < 0 || connect_to(n->tx, ADDR_B, n->port, msg, sizeof(msg),
				    "net") < 0) {
		snprintf(err, len, "%s", msg);
		goto back;
	}
	/* in the second: rtlat-b's address, the receiver */
	if (setns(n->ns_fd[1], CLONE_NEWNET) < 0) {
		snprintf(err, len, "net: cannot enter the namespace: %s",
			 strerror(errno));
		goto back;
	}
	e = link_up(IF_B, ADDR_B);
	if (e) {
		snprintf(err, len, "net: cannot bring %s up as %s: %s", IF_B,
			 ADDR_B, strerror(-e));
		goto back;
	}
	n->rx = udp_socket(AF_INET, ADDR_B, n->port, msg, sizeof(msg), "net");
	if (n->rx < 0) {
		snprintf(err, len, "%s", msg);
		goto back;
	}
	e = stamps_on(n->rx);
	if (e) {
		snprintf(err, len, "net: SO_TIMESTAMPING: %s", strerror(-e));
		goto back;
	}
	snprintf(n->ifname, sizeof(n->ifname), "%s", IF_B);
	describe_stamps(n, n->rx);
	setns(self, CLONE_NEWNET);
	close(self);
	return 0;
back:
	setns(self, CLONE_NEWNET);
fail:
	close(self);
	irq_net_close(n);
	return -1;
}

int irq_net_open(struct irq_net *n, char *err, size_t len)
{
	char what[160];
	int e;

	if (!n->respond && !n->host[0])
		return open_local(n, err, len);
	if (n->respond) {
		snprintf(what, sizeof(what), "--respond");
		/* any address: an IPv6 socket that takes IPv4 too, else
		 * (a kernel without IPv6) an IPv4 one */
		n->rx = udp_socket(!n->bind[0] || strchr(n->bind, ':') ?
				   AF_INET6 : AF_INET,
				   n->bind[0] ? n->bind : NULL, n->port, err,
				   len, what);
		if (n->rx < 0 && !n->bind[0])
			n->rx = udp_socket(AF_INET, NULL, n->port, err, len,
					   what);
		if (n->rx < 0)
			return -1;
		n->tx = n->rx;
		/* an interface when the address names one */
		if (n->bind[0]) {
			int c = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

			local_ifname(n->rx, n->ifname, sizeof(n->ifname));
			if (c >= 0) {
				describe_stamps(n, c);
				close(c);
			}
		} else {
			describe_stamps(n, -1);
		}
	} else {
		struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
		struct addrinfo *ai = NULL;

		snprintf(what, sizeof(what), "net:%s", n->host);
		e = getaddrinfo(n->host, NULL, &hints, &ai);
		if (e) {
			snprintf(err, len, "%s: host '%s': %s", what, n->host,
				 gai_strerror(e));
			return -1;
		}
		n->rx = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		freeaddrinfo(ai);
		if (n->rx < 0) {
			snprintf(err, len, "%s: socket: %s", what,
				 strerror(errno));
			return -1;
		}
		if (connect_to(n->rx, n->host, n->port, err, len, what) < 0) {
			irq_net_close(n);
			return -1;
		}
		n->tx = n->rx;
		local_ifname(n->rx, n->ifname, sizeof(n->ifname));
		describe_stamps(n, n->rx);
	}
	e = stamps_on(n->rx);
	if (e) {
		snprintf(err, len, "%s: SO_TIMESTAMPING: %s", what,
			 strerror(-e));
		irq_net_close(n);
		return -1;
	}
	return 0;
}

void irq_net_close(struct irq_net *n)
{
	int i;

	if (n->tx >= 0 && n->tx != n->rx)
		close(n->tx);
	if (n->rx >= 0)
		close(n->rx);
	n->tx = n->rx = -1;
	for (i = 0; i < 2; i++) {
		if (n->ns_fd[i] >= 0)
			close(n->ns_fd[i]);
		n->ns_fd[i] = -1;
	}
}

int irq_net_send(struct irq_net *n, int fd, const struct irq_pkt *p,
		 const void *to, size_t tolen)
{
	ssize_t s;

	(void)n;
	if (to)
		s = sendto(fd, p, sizeof(*p), 0, (const struct sockaddr *)to,
			   (socklen_t)tolen);
	else
		s = send(fd, p, sizeof(*p), 0);
	if (s < 0)
		return -errno;
	return s == (ssize_t)sizeof(*p) ? 0 : -EIO;
}

int irq_net_timeout(int fd, int64_t ns)
{
	struct timeval tv = { .tv_sec = (time_t)(ns / 1000000000),
			      .tv_usec = (suseconds_t)(ns % 1000000000 / 1000) };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ?
	       -errno : 0;
}

/* The software stamp of a SCM_TIMESTAMPING message, ns on CLOCK_REALTIME,
 * or INT64_MIN: 3 timespecs of two 64-bit fields, or of two longs. */
static int64_t cmsg_stamp(struct cmsghdr *c)
{
	size_t dlen = c->cmsg_len - CMSG_LEN(0);
	const unsigned char *d = CMSG_DATA(c);

	if (dlen == 6 * sizeof(int64_t)) {
		int64_t v[2];

		memcpy(v, d, sizeof(v));
		return v[0] || v[1] ? v[0] * NSEC_PER_SEC + v[1] : INT64_MIN;
	}
	if (dlen == 6 * sizeof(long)) {
		long v[2];

		memcpy(v, d, sizeof(v));
		return v[0] || v[1] ? (int64_t)v[0] * NSEC_PER_SEC + v[1] :
				      INT64_MIN;
	}
	return INT64_MIN;
}

/* realtime - monotonic now: a realtime read between two monotonic ones,
 * taken as their middle; *@bound the error bound, half their distance */
static int64_t real_offset(int64_t *bound)
{
	int64_t mono1, real, mono2;

	mono1 = clock_now_ns(CLOCK_MONOTONIC);
	real = clock_now_ns(CLOCK_REALTIME);
	mono2 = clock_now_ns(CLOCK_MONOTONIC);
	*bound = (mono2 - mono1 + 1) / 2;
	return real - (mono1 + (mono2 - mono1) / 2);
}

int64_t irq_net_offset_bound(void)
{
	int64_t b[257], v;
	int i, j;

	/* the median of 257 (insertion sort: set-up, not measuring) */
	for (i = 0; i < 257; i++)
		real_offset(&b[i]);
	for (i = 1; i < 257; i++) {
		v = b[i];
		for (j = i; j > 0 && b[j - 1] > v; j--)
			b[j] = b[j - 1];
		b[j] = v;
	}
	return b[128];
}

int irq_net_recv(int fd, struct irq_pkt *p, int64_t *t1, int64_t *t2,
		 int64_t *bound, void *from, size_t *fromlen)
{
	union {
		char b[CMSG_SPACE(6 * sizeof(int64_t)) + 64];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = p, .iov_len = sizeof(*p) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.b, .msg_controllen = sizeof(ctl.b),
		.msg_name = from, .msg_namelen = from ? (socklen_t)*fromlen : 0,
	};
	struct cmsghdr *c;
	int64_t rx = INT64_MIN;
	ssize_t got;

	got = recvmsg(fd, &mh, 0);
	*t2 = clock_now_ns(CLOCK_MONOTONIC);
	*bound = -1;
	if (got < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (from)
		*fromlen = mh.msg_namelen;
	if (got != (ssize_t)sizeof(*p)) {
		p->magic = 0;	/* not ours */
		*t1 = INT64_MIN;
		return 0;
	}
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SO_TIMESTAMPING)
			rx = cmsg_stamp(c);
	*t1 = INT64_MIN;
	*bound = -1;
	if (rx != INT64_MIN)
		*t1 = rx - real_offset(bound);
	return 0;
}

void irq_net_intr(const struct irq_net *n, struct irq_intr *in)
{
	char dev[160], link[256];
	ssize_t l;

	in->irq = -1;
	if (!n->host[0] && !n->respond) {
		snprintf(in->why, sizeof(in->why),
			 "veth has no hardware interrupt: a packet is received in software, by the NET_RX softirq (in the sending task's context or ksoftirqd; on PREEMPT_RT in the task that raised it)");
		return;
	}
	if (!n->ifname[0]) {
		snprintf(in->why, sizeof(in->why),
			 "receiving interface unknown (give --irq N)");
		return;
	}
	snprintf(dev, sizeof(dev), "/sys/class/net/%s/device", n->ifname);
	l = readlink(dev, link, sizeof(link) - 1);
	if (l < 0) {
		snprintf(in->why, sizeof(in->why),
			 "%s is a virtual interface without a device: received by the NET_RX softirq, no hardware interrupt",
			 n->ifname);
		return;
	}
	link[l] = '\0';
	/* the NIC's queue interrupts are named after the interface or its
	 * device ("eth0-rx-0", "virtio0-input.0"; not "virtio0-config") */
	in->irq = irq_intr_find_queue("", n->ifname);
	if (in->irq < 0) {
		const char *base = strrchr(link, '/');

		base = base ? base + 1 : link;
		in->irq = irq_intr_find_queue("", base);
	}
	if (in->irq < 0)
		snprintf(in->why, sizeof(in->why),
			 "no interrupt of %s found in /proc/interrupts (give --irq N)",
			 n->ifname);
	else
		snprintf(in->why, sizeof(in->why),
			 "the first receive queue interrupt of %s (a NIC may have one per queue: --irq N names another)",
			 n->ifname);
}
