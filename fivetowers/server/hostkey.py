"""The server's data directory and its SSH host key.

The host key is generated once (ed25519) and kept, so players' ``ssh`` keeps
recognising the server across restarts.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from fivetowers.tables.store import default_data_dir

__all__ = ["HOST_KEY_FILE", "HostKeyError", "default_data_dir", "load_or_create_host_key"]

HOST_KEY_FILE = "ssh_host_ed25519_key"


class HostKeyError(ValueError):
    """The data directory or host key cannot be used (one-line reason)."""


def load_or_create_host_key(data_dir: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key in ``data_dir``, generating it on first use.

    Returns the key and whether it was created just now. The directory is
    created private (0700) and the key file is written 0600.
    """
    path = data_dir / HOST_KEY_FILE
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise HostKeyError(f"cannot create data directory {data_dir}: "
                           f"{exc.strerror or exc}") from None
    if path.exists():
        try:
            return asyncssh.read_private_key(path), False
        except (OSError, asyncssh.KeyImportError) as exc:
            raise HostKeyError(f"cannot read host key {path}: {exc}") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        # Create with 0600 from the start so the key is never world-readable.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
    except OSError as exc:
        raise HostKeyError(f"cannot write host key {path}: {exc.strerror or exc}") from None
    return key, True
