# SPDX-License-Identifier: GPL-2.0-or-later
"""A forged rtlat irq responder (for test_irq.py): answers the stimuli of
rtlat irq --source net:HOST on ADDR PORT with altered copies, by the
stimulus' number k (k % 8):

  0  a faithful answer (the responder's t2 - t1 said to be 1 us)
  1  the right number, t0/deadline/task_ns at the ends of int64
  2  the number + 2**32 (its low 32 bits the right ones)
  3  the number 2**64 - 1
  4  garbage: 48 random bytes, then 5 bytes
  5  a faithful answer twice (a duplicate)
  6  no answer
  7  the right number, t0 = 0 and task_ns = -5

and, for every stimulus, an answer for the number 1000 ahead (not sent
yet). Runs until killed; prints how many stimuli it got on SIGTERM.

usage: irq_forger.py ADDR PORT
"""
import os
import signal
import socket
import struct
import sys

PKT = struct.Struct("<IIQqqqq")
MAGIC, REPLY = 0x72746c69, 1
I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1


def main():
    addr, port = sys.argv[1], int(sys.argv[2])
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind((addr, port))
    got = [0]

    def stop(*_):
        print(got[0], flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        data, peer = s.recvfrom(256)
        if len(data) != PKT.size:
            continue
        magic, flags, seq, t0, dl, task, kern = PKT.unpack(data)
        if magic != MAGIC or flags & REPLY:
            continue
        got[0] += 1
        k = seq % 8

        def answer(sq=seq, a=t0, b=dl, c=1000):
            s.sendto(PKT.pack(MAGIC, REPLY, sq % 2 ** 64, a, b, c, I64_MIN),
                     peer)
        s.sendto(PKT.pack(MAGIC, REPLY, seq + 1000, t0, dl, 1000, I64_MIN),
                 peer)
        if k == 0:
            answer()
        elif k == 1:
            answer(a=I64_MIN + 1, b=I64_MAX, c=I64_MAX)
        elif k == 2:
            answer(sq=seq + 2 ** 32)
        elif k == 3:
            answer(sq=2 ** 64 - 1, a=I64_MAX, c=I64_MIN + 1)
        elif k == 4:
            s.sendto(os.urandom(PKT.size), peer)
            s.sendto(b"short", peer)
        elif k == 5:
            answer()
            answer()
        elif k == 7:
            answer(a=0, c=-5)


if __name__ == "__main__":
    main()
