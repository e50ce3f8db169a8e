"""The egress guard of the Python process: every host but 127.0.0.1 is refused at the socket, before DNS.

A name is refused in getaddrinfo (so nothing is sent, not even a DNS query) and an address at connect, and each
refusal is recorded: a test during which a client reached for any other host fails, even when the client swallowed
the error (google-auth's metadata-server probe does). Google's clients here use requests, httplib2 and urllib3, which
all connect through the socket module.
"""

import socket

import pytest

ALLOWED = "127.0.0.1"
REFUSED: list[str] = []


class EgressRefused(ConnectionRefusedError):
    """A connection to a host other than 127.0.0.1."""


def _refuse(host: object, port: object) -> None:
    where = f"{host!s}:{port!s}"
    REFUSED.append(where)
    raise EgressRefused(f"egress refused: {where} (these tests reach 127.0.0.1 only)")


_getaddrinfo = socket.getaddrinfo
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _guarded_getaddrinfo(host, port, *args, **kwargs):
    name = host.decode() if isinstance(host, bytes) else host
    if name is not None and name != ALLOWED:
        _refuse(name, port)
    return _getaddrinfo(host, port, *args, **kwargs)


def _check_address(sock: socket.socket, address) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and address[0] != ALLOWED:
        _refuse(address[0], address[1])


def _guarded_connect(self, address):
    _check_address(self, address)
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    _check_address(self, address)
    return _connect_ex(self, address)


socket.getaddrinfo = _guarded_getaddrinfo
socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex


@pytest.fixture(autouse=True)
def no_egress():
    """Fails the test during which anything but 127.0.0.1 was asked for."""
    REFUSED.clear()
    yield
    refused = list(REFUSED)
    REFUSED.clear()
    assert refused == [], f"a client reached outside the sandbox: {refused}"
