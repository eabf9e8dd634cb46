"""The lobby: hosted tables, their screens, chat and history (above the SSH transport)."""
