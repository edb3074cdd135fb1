"""A stranger on the network: `python -m tests.stranger HOST PORT COUNT SEED` sends COUNT
datagrams of seeded bytes at a match's host from an address the host never agreed to, at most
1,000 a second, then prints `sent N, dropped by the kernel D` (Linux: `/proc/net/udp`).

Sizes run from 0 to 65,507 bytes (the most one UDP datagram over IPv4 holds): mostly up to
1,500, one in 200 larger, the first two 0 and 65,507. So that the host reads every one (the
count it prints must equal what it read), the stranger sends only while the host's receive
queue has room: a small datagram while the queue holds at most a quarter of the buffer, a large
one once the queue is empty. It waits on the queue the kernel reports, checking every
millisecond: the host's frames empty it, however fast they come.
"""

from __future__ import annotations

import random
import socket
import sys
import time
from pathlib import Path

LARGEST = 65_507
PER_SECOND = 1_000
SMALL = 1_500
PROC = Path("/proc/net/udp")
RMEM_DEFAULT = Path("/proc/sys/net/core/rmem_default")
"""The receive buffer a socket gets by default on Linux..."""
BUFFER = 212_992
"""... and what it is on most machines (the smaller of the two is counted on)."""


def sizes(count: int, seed: int) -> list[int]:
    draw = random.Random(seed)
    made = [draw.randint(SMALL + 1, LARGEST) if n % 200 == 199 else draw.randint(0, SMALL)
            for n in range(count)]  # fmt: skip
    return [0, LARGEST, *made[2:]][:count]


def queue_and_drops(port: int) -> tuple[int, int] | None:
    """The bytes queued at 127.0.0.1:`port` and the datagrams the kernel dropped there (None:
    no such socket, the host is gone)."""
    wanted = f"0100007F:{port:04X}"
    for line in PROC.read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == wanted:
            return int(fields[4].split(":")[1], 16), int(fields[-1])
    return None


def main(host: str, port: int, count: int, seed: int) -> int:
    draw = random.Random(seed + 1)
    room = min(int(RMEM_DEFAULT.read_text()), BUFFER) // 4
    start = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for n, size in enumerate(sizes(count, seed)):
            if (ahead := start + n / PER_SECOND - time.monotonic()) > 0:
                time.sleep(ahead)  # at most 1,000 a second
            while True:
                seen = queue_and_drops(port)
                if seen is None:
                    print(f"the host went after {n} datagrams", flush=True)
                    return 1
                if seen[0] <= (room if size <= SMALL else 0):
                    break
                time.sleep(0.001)
            sock.sendto(draw.randbytes(size), (host, port))
    seen = queue_and_drops(port)
    print(f"sent {count}, dropped by the kernel {-1 if seen is None else seen[1]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
