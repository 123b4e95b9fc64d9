// SPDX-License-Identifier: GPL-2.0-or-later
/* gzip / deflate decoder; see gunzip.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/gunzip.h"

#define OUT_MAX (64u << 20)
#define MAXBITS 15

struct inflate {
	const unsigned char *in;
	size_t inlen, inpos;
	uint32_t bitbuf;
	int bitcnt;
	unsigned char *out;
	size_t outlen, outcap;
	const char *err;
};

struct huffman {
	short count[MAXBITS + 1];	/* codes of each length */
	short symbol[288];		/* symbols ordered by code */
};

/* @need (<= 16) bits, LSB first; -1 at the end of the input. */
static int bits(struct inflate *s, int need)
{
	uint32_t v;

	while (s->bitcnt < need) {
		if (s->inpos == s->inlen) {
			s->err = "truncated deflate data";
			return -1;
		}
		s->bitbuf |= (uint32_t)s->in[s->inpos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	v = s->bitbuf & ((1u << need) - 1);
	s->bitbuf >>= need;
	s->bitcnt -= need;
	return (int)v;
}

static int put(struct inflate *s, unsigned char c)
{
	if (s->outlen + 1 >= s->outcap) {
		size_t cap = s->outcap ? s->outcap * 2 : 65536;
		unsigned char *p;

		if (cap > OUT_MAX) {
			s->err = "larger than 64 MiB";
			return -1;
		}
		p = realloc(s->out, cap);
		if (!p) {
			s->err = "out of memory";
			return -1;
		}
		s->out = p;
		s->outcap = cap;
	}
	s->out[s->outlen++] = c;
	return 0;
}

static int decode(struct inflate *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0, len, b;

	for (len = 1; len <= MAXBITS; len++) {
		b = bits(s, 1);
		if (b < 0)
			return -1;
		code |= b;
		if (code - h->count[len] < first)
			return h->symbol[index + (code - first)];
		index += h->count[len];
		first += h->count[len];
		first <<= 1;
		code <<= 1;
	}
	s->err = "corrupt deflate data (bad code)";
	return -1;
}

/* Canonical code from the code lengths; -1 when over-subscribed. */
static int construct(struct huffman *h, const short *length, int n)
{
	short offs[MAXBITS + 1];
	int sym, len, left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (sym = 0; sym < n; sym++)
		h->count[length[sym]]++;
	if (h->count[0] == n)
		return 0;
	for (len = 1; len <= MAXBITS; len++) {
		left <<= 1;
		left -= h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (len = 1; len < MAXBITS; len++)
		offs[len + 1] = (short)(offs[len] + h->count[len]);
	for (sym = 0; sym < n; sym++)
		if (length[sym])
			h->symbol[offs[length[sym]]++] = (short)sym;
	return 0;
}

static int codes(struct inflate *s, const struct huffman *lencode,
		 const struct huffman *distcode)
{
	static const short lbase[29] = {
		3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
		35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
	static const short lext[29] = {
		0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
		3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
	static const short dbase[30] = {
		1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
		257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
		8193, 12289, 16385, 24577 };
	static const short dext[30] = {
		0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
		7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };
	int sym, len, e;
	size_t dist;

	for (;;) {
		sym = decode(s, lencode);
		if (sym < 0)
			return -1;
		if (sym < 256) {
			if (put(s, (unsigned char)sym) < 0)
				return -1;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29)
			goto bad;
		e = bits(s, lext[sym]);
		if (e < 0)
			return -1;
		len = lbase[sym] + e;
		sym = decode(s, distcode);
		if (sym < 0)
			return -1;
		if (sym >= 30)
			goto bad;
		e = bits(s, dext[sym]);
		if (e < 0)
			return -1;
		dist = (size_t)dbase[sym] + (size_t)e;
		if (dist > s->outlen)
			goto bad;
		while (len--)
			if (put(s, s->out[s->outlen - dist]) < 0)
				return -1;
	}
bad:
	s->err = "corrupt deflate data (bad length or distance)";
	return -1;
}

static int stored(struct inflate *s)
{
	size_t len;

	s->bitbuf = 0;
	s->bitcnt = 0;
	if (s->inpos + 4 > s->inlen)
		goto bad;
	len = s->in[s->inpos] | (size_t)s->in[s->inpos + 1] << 8;
	if ((size_t)(s->in[s->inpos + 2] | s->in[s->inpos + 3] << 8) != (~len & 0xffff))
		goto bad;
	s->inpos += 4;
	if (s->inpos + len > s->inlen)
		goto bad;
	while (len--)
		if (put(s, s->in[s->inpos++]) < 0)
			return -1;
	return 0;
bad:
	s->err = "corrupt deflate data (stored block)";
	return -1;
}

static int fixed(struct inflate *s)
{
	struct huffman lencode, distcode;
	short lengths[288];
	int sym;

	for (sym = 0; sym < 288; sym++)
		lengths[sym] = sym < 144 ? 8 : sym < 256 ? 9 : sym < 280 ? 7 : 8;
	construct(&lencode, lengths, 288);
	for (sym = 0; sym < 30; sym++)
		lengths[sym] = 5;
	construct(&distcode, lengths, 30);
	return codes(s, &lencode, &distcode);
}

static int dynamic(struct inflate *s)
{
	static const short order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct huffman lencode, distcode;
	short lengths[320];
	int nlen, ndist, ncode, index, sym, len, rep;

	nlen = bits(s, 5) + 257;
	ndist = bits(s, 5) + 1;
	ncode = bits(s, 4) + 4;
	if (s->err)
		return -1;
	if (nlen > 286 || ndist > 30)
		goto bad;
	memset(lengths, 0, sizeof(lengths));
	for (index = 0; index < ncode; index++) {
		len = bits(s, 3);
		if (len < 0)
			return -1;
		lengths[order[index]] = (short)len;
	}
	if (construct(&lencode, lengths, 19) < 0)
		goto bad;
	for (index = 0; index < nlen + ndist;) {
		sym = decode(s, &lencode);
		if (sym < 0)
			return -1;
		if (sym < 16) {
			lengths[index++] = (short)sym;
			continue;
		}
		len = 0;
		if (sym == 16) {
			if (!index)
				goto bad;
			len = lengths[index - 1];
			rep = 3 + bits(s, 2);
		} else if (sym == 17) {
			rep = 3 + bits(s, 3);
		} else {
			rep = 11 + bits(s, 7);
		}
		if (s->err)
			return -1;
		if (index + rep > nlen + ndist)
			goto bad;
		while (rep--)
			lengths[index++] = (short)len;
	}
	if (!lengths[256] || construct(&lencode, lengths, nlen) < 0 ||
	    construct(&distcode, lengths + nlen, ndist) < 0)
		goto bad;
	return codes(s, &lencode, &distcode);
bad:
	s->err = "corrupt deflate data (bad code lengths)";
	return -1;
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	uint32_t table[256], c;
	size_t i;
	int k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	c = 0xffffffffu;
	for (i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

char *gunzip(const unsigned char *in, size_t inlen, size_t *outlen,
	     char *why, size_t whylen)
{
	struct inflate s = { .in = in, .inlen = inlen };
	size_t pos = 10;
	int last, type, r;
	unsigned flg;

	if (inlen < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8) {
		snprintf(why, whylen, "not gzip data");
		return NULL;
	}
	flg = in[3];
	if (flg & 4)		/* FEXTRA */
		pos += 2 + (in[10] | (size_t)in[11] << 8);
	if (flg & 8)		/* FNAME */
		while (pos < inlen && in[pos++])
			;
	if (flg & 16)		/* FCOMMENT */
		while (pos < inlen && in[pos++])
			;
	if (flg & 2)		/* FHCRC */
		pos += 2;
	if (pos + 8 > inlen) {
		snprintf(why, whylen, "truncated gzip header");
		return NULL;
	}
	s.inpos = pos;
	s.inlen = inlen - 8;	/* the CRC-32 and ISIZE trailer */
	do {
		last = bits(&s, 1);
		type = bits(&s, 2);
		if (s.err)
			break;
		r = type == 0 ? stored(&s) : type == 1 ? fixed(&s) :
		    type == 2 ? dynamic(&s) : -1;
		if (r < 0 && !s.err)
			s.err = "corrupt deflate data (block type 3)";
	} while (!s.err && !last);
	if (!s.err && put(&s, 0) == 0) {
		s.outlen--;
		if (crc32_of(s.out, s.outlen) != le32(in + inlen - 8))
			s.err = "CRC mismatch";
		else if ((uint32_t)s.outlen != le32(in + inlen - 4))
			s.err = "length mismatch";
	}
	if (s.err) {
		snprintf(why, whylen, "%s", s.err);
		free(s.out);
		return NULL;
	}
	*outlen = s.outlen;
	return (char *)s.out;
}
