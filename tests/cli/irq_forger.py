# SPDX-License-Identifier: GPL-2.0-or-later
"""A forged rtlat irq responder (for test_irq.py): answers the stimuli of
rtlat irq --source net:HOST on ADDR PORT with altered copies, by the
stimulus' number k (k % 8):

  0  a faithful answer (the responder's t2 - t1 said to be 1 us)
  1  the right number and stamps, task_ns at the end of int64
  2  the number + 2**32 (its low 32 bits the right ones)
  3  the number 2**64 - 1
  4  garbage: 48 random bytes, then 5 bytes
  5  a faithful answer twice (a duplicate)
  6  no answer
  7  the right number, t0 = 0 and task_ns = -5 (stamps not its own)

and, for every stimulus, an answer for the number 1000 ahead (not sent
yet). Every answer carries back the sender's secret (the stimulus' last
field), as rtlat irq --respond does. Runs until killed; prints how many stimuli it got on SIGTERM.

With "reorder": faithful answers, each odd-numbered stimulus answered
only after the next one's answer (a forged answer for a number already
sent, ahead of the one outstanding).

With "stall": faithful answers, and once, at the 200th stimulus, a
pause of 400 ms before answering it (then the queued ones in order).

With "replay": faithful answers, each followed by 3 answers sent again,
picked at random among the last 3000 (replays of answers already given,
most of them more than 64 stimuli back).

With "late": faithful answers, but the stimuli numbered 50 modulo 100
answered 600 ms late (the others meanwhile on time). On SIGTERM it also
prints how many of those it still held (never answered).

With "drop": faithful answers, but the stimuli numbered 50 modulo 100
never answered.

usage: irq_forger.py ADDR PORT [reorder|stall|replay|late|drop]
"""
import collections
import os
import random
import signal
import socket
import struct
import sys
import time

PKT = struct.Struct("<IIQqqqq")
MAGIC, REPLY = 0x72746c69, 1
I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1


def main():
    addr, port = sys.argv[1], int(sys.argv[2])
    reorder = sys.argv[3:] == ["reorder"]
    stall = sys.argv[3:] == ["stall"]
    replay = sys.argv[3:] == ["replay"]
    late = sys.argv[3:] == ["late"]
    drop = sys.argv[3:] == ["drop"]
    held_late = []                  # (when, answer, peer)
    given = collections.deque(maxlen=3000)
    held = None
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind((addr, port))
    got = [0]

    def stop(*_):
        print(got[0], len(held_late), flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if late:
        s.settimeout(0.005)
    while True:
        now = time.monotonic()
        while held_late and held_late[0][0] <= now:
            s.sendto(held_late[0][1], held_late[0][2])
            held_late.pop(0)
        try:
            data, peer = s.recvfrom(256)
        except socket.timeout:
            continue
        if len(data) != PKT.size:
            continue
        magic, flags, seq, t0, dl, task, kern = PKT.unpack(data)
        if magic != MAGIC or flags & REPLY:
            continue
        got[0] += 1
        if late or drop:
            ans = PKT.pack(MAGIC, REPLY, seq, t0, dl, 1000, kern)
            if seq % 100 != 50:
                s.sendto(ans, peer)
            elif late:
                held_late.append((time.monotonic() + 0.6, ans, peer))
            continue
        if stall:
            if got[0] == 200:
                time.sleep(0.4)
            s.sendto(PKT.pack(MAGIC, REPLY, seq, t0, dl, 1000, kern),
                     peer)
            continue
        if replay:
            ans = PKT.pack(MAGIC, REPLY, seq, t0, dl, 1000, kern)
            s.sendto(ans, peer)
            given.append(ans)
            for _ in range(3):
                s.sendto(random.choice(given), peer)
            continue
        if reorder:
            # the odd one held until its successor is answered
            if seq % 2:
                held = data
                continue
            s.sendto(PKT.pack(MAGIC, REPLY, seq, t0, dl, 1000, kern),
                     peer)
            if held is not None:
                h = PKT.unpack(held)
                s.sendto(PKT.pack(MAGIC, REPLY, h[2], h[3], h[4], 1000,
                                  h[6]), peer)
                held = None
            continue
        k = seq % 8

        def answer(sq=seq, a=t0, b=dl, c=1000):
            s.sendto(PKT.pack(MAGIC, REPLY, sq % 2 ** 64, a, b, c, kern),
                     peer)
        s.sendto(PKT.pack(MAGIC, REPLY, seq + 1000, t0, dl, 1000, kern),
                 peer)
        if k == 0:
            answer()
        elif k == 1:
            answer(c=I64_MAX)
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
