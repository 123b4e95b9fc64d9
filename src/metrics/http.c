// SPDX-License-Identifier: GPL-2.0-or-later
/* The small HTTP server of --metrics-port; see http.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "metrics/http.h"

bool http_addr_valid(const char *addr)
{
	struct in6_addr a6;
	struct in_addr a4;

	return inet_pton(AF_INET, addr, &a4) == 1 ||
	       inet_pton(AF_INET6, addr, &a6) == 1;
}

void http_init(struct http_server *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	for (i = 0; i < HTTP_MAX_CONN; i++)
		s->conn[i].fd = -1;
}

int http_listen(struct http_server *s, const char *addr, int port,
		const char *path, const char *type, http_body_fn body,
		void *ctx, char *err, size_t len)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl;
	int one = 1, fd;
	bool v6;

	http_init(s);
	s->path = path;
	s->type = type;
	s->body = body;
	s->ctx = ctx;
	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
		sl = sizeof(*in4);
		v6 = false;
	} else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*in6);
		v6 = true;
	} else {
		snprintf(err, len, "'%s' is not an IPv4 or IPv6 address", addr);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, len, "socket: %s", strerror(errno));
		return -1;
	}
	/* a restart may bind while the last run's connections linger */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (v6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    listen(fd, HTTP_MAX_CONN) < 0) {
		int e = errno;

		snprintf(err, len, "cannot listen on %s%s%s port %d: %s%s",
			 v6 ? "[" : "", addr, v6 ? "]" : "", port, strerror(e),
			 e == EADDRINUSE ? " (another program has it: choose another --metrics-port)" :
			 e == EADDRNOTAVAIL ? " (not an address of this machine)" :
			 e == EACCES ? " (ports below 1024 need root or CAP_NET_BIND_SERVICE)" : "");
		close(fd);
		return -1;
	}
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		port = ntohs(v6 ? in6->sin6_port : in4->sin_port);
	s->fd = fd;
	s->port = port;
	snprintf(s->url, sizeof(s->url), "http://%s%s%s:%d%s", v6 ? "[" : "",
		 addr, v6 ? "]" : "", port, path);
	return 0;
}

static void conn_close(struct http_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->out);
	c->out = NULL;
	c->fd = -1;
	c->state = HTTP_FREE;
	c->nreq = c->nout = c->sent = 0;
}

/* The answer @code with @body of @blen bytes (NULL: the reason phrase);
 * @head: headers only. */
static void conn_answer(struct http_server *s, struct http_conn *c, int code,
			const char *type, const char *body, size_t blen,
			bool head, const char *extra)
{
	const char *reason = code == 200 ? "OK" : code == 400 ? "Bad Request" :
		code == 404 ? "Not Found" : code == 405 ? "Method Not Allowed" :
		code == 431 ? "Request Header Fields Too Large" :
		"Internal Server Error";
	char hdr[512], msg[64];
	int n;

	if (!body) {
		snprintf(msg, sizeof(msg), "%d %s\n", code, reason);
		body = msg;
		blen = strlen(msg);
		type = "text/plain; charset=utf-8";
	}
	n = snprintf(hdr, sizeof(hdr),
		     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
		     code, reason, type, blen, extra ? extra : "");
	c->out = malloc((size_t)n + (head ? 0 : blen));
	if (!c->out) {
		conn_close(c);
		return;
	}
	memcpy(c->out, hdr, (size_t)n);
	if (!head)
		memcpy(c->out + n, body, blen);
	c->nout = (size_t)n + (head ? 0 : blen);
	c->sent = 0;
	c->state = HTTP_WRITING;
	if (code == 200)
		s->served++;
}

/* A whole request is in c->req: answer it. */
static void conn_request(struct http_server *s, struct http_conn *c)
{
	char *sp1, *sp2, *q;
	size_t plen;
	bool head;

	c->req[c->nreq] = '\0';
	sp1 = strchr(c->req, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
		conn_answer(s, c, 400, NULL, NULL, 0, false, NULL);
		return;
	}
	*sp1 = *sp2 = '\0';
	head = !strcmp(c->req, "HEAD");
	if (!head && strcmp(c->req, "GET") != 0) {
		conn_answer(s, c, 405, NULL, NULL, 0, false,
			    "Allow: GET, HEAD\r\n");
		return;
	}
	q = strchr(sp1 + 1, '?');	/* a query string is ignored */
	plen = q ? (size_t)(q - sp1 - 1) : strlen(sp1 + 1);
	if (!((plen == 1 && sp1[1] == '/') ||
	      (plen == strlen(s->path) && !strncmp(sp1 + 1, s->path, plen)))) {
		conn_answer(s, c, 404, NULL, NULL, 0, head, NULL);
		return;
	}
	{
		char *buf = NULL;
		size_t len = 0;

		if (s->body(s->ctx, &buf, &len) < 0)
			conn_answer(s, c, 500, NULL, NULL, 0, head, NULL);
		else
			conn_answer(s, c, 200, s->type, buf, len, head, NULL);
		free(buf);
	}
}

/* The outcome of a recv() or send() of @n on @c: 1 bytes moved, 0 nothing
 * now (try at the next poll), -1 the connection is gone (closed). */
static int io_done(struct http_conn *c, ssize_t n)
{
	if (n > 0)
		return 1;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
		      errno == EINTR))
		return 0;
	conn_close(c);		/* the peer left, or an error */
	return -1;
}

/* A byte no request line or header has (RFC 9110 5.5, 9112 3): a
 * control character other than tab, CR and LF. */
static bool http_ctl(unsigned char ch)
{
	return (ch < 0x20 && ch != '\t' && ch != '\r' && ch != '\n') ||
	       ch == 0x7f;
}

/* A byte of a token (the method): RFC 9110 5.6.2 tchar. */
static bool http_tchar(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* Bytes @from.. of c->req, just received: is the request already not
 * HTTP (a control byte anywhere, the method not a token)? */
static bool req_garbage(const struct http_conn *c, size_t from)
{
	const unsigned char *p = (const unsigned char *)c->req;
	const void *sp = memchr(p, ' ', c->nreq);
	size_t i, mlen = sp ? (size_t)((const unsigned char *)sp - p) : c->nreq;

	for (i = from; i < c->nreq; i++)
		if (http_ctl(p[i]) ||
		    (i < mlen && !http_tchar(p[i]) &&
		     !(p[i] == '\r' || p[i] == '\n')))
			return true;
	return false;
}

/* Does c->req hold the end of the request head (an empty line), looking
 * from byte @from on (and the 3 before it, where the end may start)? */
static bool req_complete(const struct http_conn *c, size_t from)
{
	size_t at = from > 3 ? from - 3 : 0;

	return memmem(c->req + at, c->nreq - at, "\r\n\r\n", 4) ||
	       memmem(c->req + at, c->nreq - at, "\n\n", 2);
}

static void conn_read(struct http_server *s, struct http_conn *c)
{
	for (;;) {
		size_t from = c->nreq;
		ssize_t n;

		if (c->nreq >= sizeof(c->req) - 1) {
			conn_answer(s, c, 431, NULL, NULL, 0, false, NULL);
			return;
		}
		n = recv(c->fd, c->req + c->nreq, sizeof(c->req) - 1 - c->nreq,
			 MSG_DONTWAIT);
		if (io_done(c, n) <= 0)
			return;
		c->nreq += (size_t)n;
		/* lengths, never C strings: a NUL byte is data (and garbage,
		 * answered at once rather than at the idle close) */
		if (req_garbage(c, from)) {
			conn_answer(s, c, 400, NULL, NULL, 0, false, NULL);
			return;
		}
		if (req_complete(c, from)) {
			conn_request(s, c);
			return;
		}
	}
}

static void conn_write(struct http_conn *c)
{
	while (c->sent < c->nout) {
		ssize_t n = send(c->fd, c->out + c->sent, c->nout - c->sent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (io_done(c, n) <= 0)
			return;
		c->sent += (size_t)n;
	}
	/* all sent: shut our side, read what the client still sends until
	 * it closes (closing at once could reset the connection and lose
	 * the end of the answer) */
	shutdown(c->fd, SHUT_WR);
	free(c->out);
	c->out = NULL;
	c->state = HTTP_DRAINING;
}

static void conn_drain(struct http_conn *c)
{
	char buf[512];

	while (io_done(c, recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		;
}

void http_poll(struct http_server *s)
{
	int64_t now = clock_now_ns(CLOCK_MONOTONIC);
	int i, k;

	if (s->fd < 0)
		return;
	/* bounded: at most one accept per connection slot */
	for (k = 0; k < HTTP_MAX_CONN; k++) {
		int fd = accept4(s->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			break;
		for (i = 0; i < HTTP_MAX_CONN && s->conn[i].fd >= 0; i++)
			;
		if (i == HTTP_MAX_CONN) {
			/* full: the oldest goes, so that a scraper always
			 * gets in, whatever idle connections hold on */
			int old = 0, j;

			for (j = 1; j < HTTP_MAX_CONN; j++)
				if (s->conn[j].since_ns < s->conn[old].since_ns)
					old = j;
			conn_close(&s->conn[old]);
			i = old;
		}
		s->conn[i].fd = fd;
		s->conn[i].state = HTTP_READING;
		s->conn[i].since_ns = now;
		s->conn[i].nreq = 0;
	}
	for (i = 0; i < HTTP_MAX_CONN; i++) {
		struct http_conn *c = &s->conn[i];

		if (c->fd < 0)
			continue;
		if (now - c->since_ns > HTTP_IDLE_NS) {
			conn_close(c);
			continue;
		}
		if (c->state == HTTP_READING)
			conn_read(s, c);
		if (c->state == HTTP_WRITING)
			conn_write(c);
		if (c->state == HTTP_DRAINING)
			conn_drain(c);
	}
}

bool http_busy(const struct http_server *s)
{
	int i;

	for (i = 0; i < HTTP_MAX_CONN; i++)
		if (s->conn[i].fd >= 0)
			return true;
	return false;
}

void http_close(struct http_server *s)
{
	int i;

	for (i = 0; i < HTTP_MAX_CONN; i++)
		if (s->conn[i].fd >= 0 || s->conn[i].out)
			conn_close(&s->conn[i]);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
