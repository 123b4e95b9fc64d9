/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A very small HTTP/1.x server for --metrics-port: it answers GET and HEAD
 * of one document, and nothing else. It never blocks: every socket is
 * non-blocking and http_poll() does a bounded amount of work each call, so
 * it can be polled from the display thread.
 *
 * Limits: HTTP_MAX_CONN connections at once (one more closes the oldest,
 * so that idle connections never lock a scraper out), a request (line and headers) of at most
 * HTTP_MAX_REQUEST bytes (a longer one gets 431), HTTP_IDLE_NS for a
 * connection to send its request and take its answer (then it is closed).
 * A request is bytes, never a C string: one with a byte no HTTP request
 * has (a NUL or another control byte, a method that is not a token) gets
 * 400 as soon as that byte is read.
 * Every answer closes its connection ("Connection: close").
 */
#ifndef RTLAT_HTTP_H
#define RTLAT_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HTTP_MAX_CONN		16
#define HTTP_MAX_REQUEST	4096
#define HTTP_IDLE_NS		(INT64_C(10) * 1000000000)

enum http_conn_state {
	HTTP_FREE,
	HTTP_READING,		/* the request */
	HTTP_WRITING,		/* the answer */
	HTTP_DRAINING,		/* answer sent, written side shut: until EOF */
};

struct http_conn {
	int fd;
	enum http_conn_state state;
	int64_t since_ns;	/* accepted (CLOCK_MONOTONIC) */
	char req[HTTP_MAX_REQUEST];
	size_t nreq;
	char *out;		/* the answer, malloc'd */
	size_t nout, sent;
};

/* The document: fill *@buf (malloc'd, the caller frees it) and *@len;
 * returns 0 or -1 (the client gets 500). */
typedef int (*http_body_fn)(void *ctx, char **buf, size_t *len);

struct http_server {
	int fd;			/* listening socket, -1 when closed */
	char url[96];		/* "http://127.0.0.1:9100/metrics" */
	int port;		/* bound (after port 0: the one chosen) */
	const char *path;	/* "/metrics" (also answered at "/") */
	const char *type;	/* Content-Type of the document */
	http_body_fn body;
	void *ctx;
	uint64_t served;	/* 200 answers sent whole */
	struct http_conn conn[HTTP_MAX_CONN];
};

/* Is @addr an IPv4 or IPv6 address literal? */
bool http_addr_valid(const char *addr);

/* No socket yet: every descriptor -1 (before http_listen() or
 * http_close()). */
void http_init(struct http_server *s);

/*
 * Listen on @addr (an IPv4 or IPv6 literal), TCP @port (0: any free one,
 * see s->port) for @path. Returns 0, or -1 with a message in @err naming
 * the address and the cause (address in use, permission, ...).
 */
int http_listen(struct http_server *s, const char *addr, int port,
		const char *path, const char *type, http_body_fn body,
		void *ctx, char *err, size_t len);

/* Accept, read, answer and close what is ready now; never waits. */
void http_poll(struct http_server *s);

/* A connection is open (being read or answered). */
bool http_busy(const struct http_server *s);

/* Close the listening socket and every connection (idempotent; also for a
 * server that never listened, after http_init()). */
void http_close(struct http_server *s);

#endif
