"""The workarounds every App of fivetowers draws with, installed together.

A served session's App and a local game's App install the same ones, so
every widget is drawn by one code path: the snapshot tests, which run local
Apps, see what a player over SSH sees. (Installed by the server's Apps only,
the snapshots saw it only when an earlier test in the same process had
started one.) Each install is idempotent and process-wide."""

from __future__ import annotations

from fivetowers.compat.callbacks import count_parameters_once
from fivetowers.compat.component_styles import component_styles_kept
from fivetowers.compat.dirty_lines import render_dirty_lines_only
from fivetowers.compat.dispatch import share_dispatch_plans
from fivetowers.compat.event_log import event_loggers_made_once
from fivetowers.compat.freed_screens import arrange_without_cycles, freed_when_removed
from fivetowers.compat.reactive import fast_reactive_reads
from fivetowers.compat.styled_lines import style_content_lines_once
from fivetowers.compat.styles import fresh_styles_at_once
from fivetowers.compat.textual import (
    divide_without_cycles, lazy_strip_caches, share_parsed_css, share_style_matches,
    style_caches_not_kept,
)


def install_drawing_workarounds() -> None:
    """Every workaround an App draws with (see :mod:`fivetowers.compat`)."""
    share_parsed_css()  # the sessions' CSS parsed once for all of them
    share_style_matches()  # and which rules match each kind of widget, matched once
    divide_without_cycles()  # drawn lines freed without the cyclic collector
    arrange_without_cycles()  # and each layout's arrangement
    freed_when_removed()  # and a screen left, or any removed widget
    lazy_strip_caches()  # and each holds no empty caches it never uses
    style_caches_not_kept()  # nor do a gone widget's lines stay in a style cache
    render_dirty_lines_only()  # a move's redraw renders the lines it changed, no more
    style_content_lines_once()  # and styles a widget's rows with its styles read once
    share_dispatch_plans()  # each kind of message finds its handlers once per kind of node
    fast_reactive_reads()  # a reactive that has its value returns it without more questions
    count_parameters_once()  # a fresh closure's parameters counted once per code
    fresh_styles_at_once()  # a new node's matched rules stored in one step
    event_loggers_made_once()  # and a message handled makes no loggers
    component_styles_kept()  # and a restyle leaves no virtual nodes to the collector
