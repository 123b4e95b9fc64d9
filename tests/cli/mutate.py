# SPDX-License-Identifier: GPL-2.0-or-later
"""Malformed variants of importer inputs, for the robustness tests.

mutants(data) yields (name, bytes) pairs: truncations, empty and blank
files, numbers made huge, negative, NaN or infinite, JSON values of the
wrong type, binary bytes, and a few seeded random byte flips. Each variant
must either import or fail with an error naming the file - never crash.
"""
import random
import re

NUM = re.compile(rb"(?<![A-Za-z_])-?\d+(?:\.\d+)?")

HUGE = [b"99999999999999999999999999", b"1e308", b"-9223372036854775808",
        b"18446744073709551616", b"9007199254740993", b"1e-320"]
NAN = [b"nan", b"-nan", b"NaN", b"inf", b"-Infinity"]


def _replace_numbers(data, repl, every=3):
    count = [0]

    def sub(m):
        count[0] += 1
        return repl if (count[0] - 1) % every == 0 else m.group(0)

    return NUM.sub(sub, data)


def mutants(data, seed=1):
    yield "empty", b""
    yield "blank", b" \n\t\n"
    for frac in (0.1, 0.5, 0.9, 0.999):
        yield "truncated-%g" % frac, data[:int(len(data) * frac)]
    yield "one-line", data.split(b"\n", 1)[0]
    for i, h in enumerate(HUGE):
        yield "huge-%d" % i, _replace_numbers(data, h)
        yield "huge-all-%d" % i, _replace_numbers(data, h, every=1)
    for i, n in enumerate(NAN):
        yield "nan-%d" % i, _replace_numbers(data, n)
    yield "negative", NUM.sub(lambda m: b"-" + m.group(0).lstrip(b"-"), data)
    yield "zero", _replace_numbers(data, b"0", every=1)
    if data.lstrip().startswith(b"{"):
        yield "wrong-type-string", _replace_numbers(data, b'"12"')
        yield "wrong-type-object", _replace_numbers(data, b"{}", every=5)
        yield "wrong-type-array", _replace_numbers(data, b"[1,[2]]", every=4)
        yield "wrong-type-null", _replace_numbers(data, b"null", every=2)
        yield "wrong-type-bool", _replace_numbers(data, b"true", every=2)
        yield "objects-as-arrays", data.replace(b"{", b"[").replace(b"}", b"]")
        yield "deep", b"[" * 5000 + b"]" * 5000
        yield "dup-keys", data.replace(b"{", b'{"a": 1, "a": 2, ', 3)
    yield "nul-byte", data[:len(data) // 2] + b"\0" + data[len(data) // 2:]
    yield "binary", bytes(range(256)) * 4
    yield "long-line", b"RTD|" + b"9" * 100000 + b"\n"
    yield "many-columns", b"RTH|" + b"|".join([b"lat min"] * 300) + b"\nRTD|" + \
        b"|".join([b"1"] * 300) + b"\n"
    yield "crlf", data.replace(b"\n", b"\r\n")
    rnd = random.Random(seed)
    for i in range(4):
        b = bytearray(data)
        for _ in range(max(1, len(b) // 50)):
            if b:
                b[rnd.randrange(len(b))] = rnd.randrange(256)
        yield "flip-%d" % i, bytes(b)
    for i in range(2):
        b = bytearray(data)
        if len(b) > 10:
            a = rnd.randrange(len(b) - 5)
            del b[a:a + rnd.randrange(1, 40)]
        yield "cut-%d" % i, bytes(b)
