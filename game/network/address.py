"""`--host [ADDR:]PORT` and `--join HOST:PORT`, read strictly, and the socket a match plays on.

IPv4 only. `--host` binds 127.0.0.1 unless an address is given (a room's network needs
`--host 0.0.0.0:7000`: every interface); port 0 lets the system pick a free one, which the game
prints. `--join` takes a host name or an IPv4 address, and the port the host printed.
"""

from __future__ import annotations

import ipaddress
import socket

from game.errors import BadInput

Address = tuple[str, int]
LOOPBACK = "127.0.0.1"


def _port(text: str, flag: str, *, free: bool) -> int:
    lowest = 0 if free else 1
    if not text.isascii() or not text.isdigit() or not lowest <= int(text) <= 65535:
        raise BadInput.error(
            f"{flag}: the port must be a whole number from {lowest} to 65535 (got {text!r})"
        )
    return int(text)


def host_address(text: str) -> Address:
    """`7000` -> (127.0.0.1, 7000); `0.0.0.0:7000` -> every interface, port 7000."""
    address, _, port = text.rpartition(":")
    address = address or LOOPBACK
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        raise BadInput.error(
            f"--host: {address!r} is not an IPv4 address like 127.0.0.1 or 0.0.0.0"
        ) from None
    return address, _port(port, "--host", free=True)


def join_address(text: str) -> Address:
    """`HOST:PORT`, the host's name looked up (IPv4)."""
    host, colon, port = text.rpartition(":")
    if not colon or not host:
        raise BadInput.error(f"--join needs HOST:PORT, like 127.0.0.1:7000 (got {text!r})")
    number = _port(port, "--join", free=False)
    try:
        found = socket.getaddrinfo(host, number, socket.AF_INET, socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as problem:
        raise BadInput.error(f"--join: cannot find {host!r} ({problem})") from None
    return str(found[0][4][0]), number


def bound_socket(address: Address) -> socket.socket:
    """A UDP socket bound to `address` (port 0: one the system picks)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.bind(address)
    except OSError as problem:
        sock.close()
        raise BadInput.error(
            f"--host {address[0]}:{address[1]}: cannot listen there ({problem.strerror})"
        ) from None
    return sock
