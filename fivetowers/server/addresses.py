"""Client addresses as the server's limits count them."""

from __future__ import annotations

import ipaddress


def address_group(address: str) -> str:
    """The unit an address limit counts: the address; for IPv6 its /64 (one
    host is commonly given a whole /64), an IPv4-mapped one as IPv4."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
