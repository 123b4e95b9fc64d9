// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the --metrics-port HTTP server (metrics/http) over a real
 * loopback socket. A request is answered as soon as its bytes are in: a
 * bounded number of http_poll() calls, never the idle close.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics/http.h"

static int body(void *ctx, char **buf, size_t *len)
{
	(void)ctx;
	*buf = strdup("doc\n");
	*len = 4;
	return *buf ? 0 : -1;
}

/* Send @n bytes of @req to a fresh server and poll it until an answer
 * (or the close) comes back: the answer's first bytes in @ans. Returns the
 * number of http_poll() calls it took after the request was sent, -1 when
 * none came in @max_polls (each poll 10 ms apart at most: far below the
 * 10 s idle close). */
static int ask(const char *req, size_t n, char *ans, size_t alen,
	       int max_polls)
{
	struct http_server s;
	struct sockaddr_in a = { .sin_family = AF_INET };
	char err[256];
	size_t got = 0;
	int fd, i;

	assert_int_equal(http_listen(&s, "127.0.0.1", 0, "/metrics",
				     "text/plain", body, NULL, err,
				     sizeof(err)), 0);
	a.sin_port = htons((uint16_t)s.port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(send(fd, req, n, 0), (ssize_t)n);
	ans[0] = '\0';
	for (i = 1; i <= max_polls; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t k;

		http_poll(&s);
		if (poll(&p, 1, 10) <= 0)
			continue;
		k = recv(fd, ans + got, alen - 1 - got, MSG_DONTWAIT);
		if (k > 0) {
			got += (size_t)k;
			ans[got] = '\0';
			break;
		}
		if (k == 0)
			break;
	}
	close(fd);
	http_close(&s);
	return got ? i : -1;
}

/* @req (a string literal, NULs and all) gets the answer @status. */
#define EXPECT(req, status) expect_answer(req, sizeof(req) - 1, status)

static void expect_answer(const char *req, size_t n, const char *status)
{
	char ans[256];

	assert_true(ask(req, n, ans, sizeof(ans), 50) > 0);
	assert_memory_equal(ans, status, strlen(status));
}

/* A request with a NUL byte (or other binary garbage) gets a 400 at once:
 * the end of the request is searched in the bytes, not up to a NUL. */
static void test_nul_byte(void **state)
{
	(void)state;
	EXPECT("\0\xff\r\n\r\n", "HTTP/1.1 400 ");
	EXPECT("GET /metrics\0 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 ");
}

/* Garbage without an end of request: still answered at once. */
static void test_garbage_without_end(void **state)
{
	(void)state;
	EXPECT("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03", "HTTP/1.1 400 ");
	EXPECT("\xff\xfe\xfd", "HTTP/1.1 400 ");
}

/* A good request still works; high bytes in a header value are
 * obs-text, not garbage. */
static void test_good_request(void **state)
{
	(void)state;
	EXPECT("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 200 ");
	EXPECT("GET / HTTP/1.0\n\n", "HTTP/1.1 200 ");
	EXPECT("GET /metrics HTTP/1.1\r\nX: \xe9t\xe9\r\n\r\n",
	       "HTTP/1.1 200 ");
}

/* A request whose end has not come yet is not answered (nor refused). */
static void test_partial_waits(void **state)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
	char ans[256];

	(void)state;
	assert_int_equal(ask(req, sizeof(req) - 1, ans, sizeof(ans), 20), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_garbage_without_end),
		cmocka_unit_test(test_good_request),
		cmocka_unit_test(test_partial_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
