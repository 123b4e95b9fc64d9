/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small gzip (RFC 1952) / deflate (RFC 1951) decoder, libc only, for the
 * one compressed file the on-target core reads: /proc/config.gz. Slow and
 * simple (a canonical Huffman decode bit by bit, after zlib's contrib/puff
 * design); kernel configurations are a few hundred KiB.
 */
#ifndef RTLAT_GUNZIP_H
#define RTLAT_GUNZIP_H

#include <stddef.h>

/*
 * Decompress the gzip member @in (@inlen bytes), checking its CRC-32 and
 * length. Returns the data (malloc'd, @*outlen bytes plus a NUL the length
 * leaves out; the caller frees it), or NULL with the reason in @why
 * ("not gzip data", "corrupt deflate data", "CRC mismatch", "larger than
 * 64 MiB", "out of memory").
 */
char *gunzip(const unsigned char *in, size_t inlen, size_t *outlen,
	     char *why, size_t whylen);

#endif
