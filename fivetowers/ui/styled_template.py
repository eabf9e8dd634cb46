"""A translated template whose fields carry their own styles."""

from __future__ import annotations

import re

from rich.text import Text

_FIELD = re.compile(r"(\{\w+\})")


def styled_template(template: str, **fields: tuple[str, str]) -> Text:
    """``template`` (already translated) with each ``{field}`` replaced by its
    ``(text, style)``: a translation may move the styled parts, which
    ``Text.assemble`` of fixed pieces would not let it do. An unknown field
    stays as written."""
    text = Text()
    for piece in _FIELD.split(template):
        name = piece[1:-1] if piece.startswith("{") and piece.endswith("}") else None
        if name is not None and name in fields:
            text.append(*fields[name])
        elif piece:
            text.append(piece)
    return text
