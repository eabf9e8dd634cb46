"""Every place fivetowers reaches into a library's internals, and only here.

Running a Textual App per SSH session, many on one event loop in one
process, is not what Textual was made for, and a few of its (and Rich's,
asyncssh's and the standard library's) private names had to be used to make it work and stay
small. Each use is a named function or class in this package, with the
library version it was checked against, a paragraph on the upstream
behaviour it works around and what would retire it, and tests in
``tests/compat`` that fail loudly if the library changes under it (a
different major.minor version included). Outside this package fivetowers
touches no private name of a library (``tests/compat/test_no_private_access.py``).
The ones that draw are installed together by every App, local play's too
(:func:`fivetowers.compat.installed.install_drawing_workarounds`); the
App-level ones (``LeanScreensApp``) are the server's.

Textual 8.2.8 (:mod:`fivetowers.compat.textual`):

- ``UncachedXTermParser``: the xterm parser without the class-wide
  ``lru_cache`` of ``_parse_extended_key`` that kept finished sessions' Apps.
- ``keep_process_output``: the App's stdout/stderr capture
  (``_capture_stdout``) made a no-op; its redirects swapped ``sys.stdout``
  for the whole process.
- ``share_parsed_css``: one parse of each stylesheet for every session
  (wraps ``Stylesheet._parse_rules``).
- ``share_style_matches``: which rules match a node, worked out once for
  every session (wraps ``Stylesheet.apply``).
- ``release_strip_caches``: empties the ``Strip`` caches of dropped shared
  renders, which are reference cycles otherwise.
- ``look_pseudo_classes``: a widget's pseudo-classes less the structural
  ones (``odd``, ``first-child``...) no rule matching it tests (Textual's
  ``_has_order_style``, ``_has_odd_or_even``), for the keys of shared renders.
- ``divide_without_cycles``: ``Strip.divide`` no longer caches a Strip in
  itself, so every drawn line is freed without the cyclic collector.
- ``lazy_strip_caches``: a ``Strip`` makes each of its seven caches when
  first used (``Strip.__init__``, ``FIFOCache._maxsize``), not seven empty
  ones for every line drawn.
- ``style_caches_not_kept``: ``StylesCache.get_inner_outer`` (an
  ``lru_cache`` on a method) caches on its colours alone, not on the style
  cache, which kept 1,024 gone widgets' drawn lines.
- ``drop_closed_watchers`` (and ``is_closing``): the footer's watchers
  (``__watchers``) of key widgets long gone.
- ``is_being_removed``: whether Textual is pruning a node (``_pruning``):
  the lobby's list is not restyled when focus is taken off it as its
  session ends.
- ``LeanScreensApp``: screens without tooltips, and toast racks only once
  there is a notification (``_disable_tooltips``, ``_disable_notifications``),
  and a pop-up taken off before its timeout (``_unnotify``).
- ``OwnDriver``: the Driver state Textual's drivers share privately
  (``_app``, ``_loop``, ``_mouse``, ``_size``).
- ``data_table_draw_state``: a DataTable's pending layout and hover cursor.
- ``RowsMeasuredOnce``: a DataTable's rows measured once for all Apps
  showing the same rows (``_update_dimensions``, ``_label_column``), and
  before the first frame (``_require_update_dimensions``, ``_new_rows``).
- ``LinesAfterMeasuring`` (:mod:`fivetowers.compat.measured_lines`): a
  DataTable's lines drawn before its new rows were measured are drawn
  anew once they are (``DataTable._update_count``, ``_update_dimensions``).
- ``translate_footer_keys``: the Footer's keys (``textual.widgets._footer``)
  with their descriptions in the session's language.
- ``CoveredScreen``: a screen not laid out while an opaque one covers it
  (``Screen._refresh_layout``; Textual lays out the screen under the top one).
- ``SettledScreen``: a screen not laid out and drawn again for a Resize to
  the size it is laid out at (``Screen._screen_resized``), whose first layout
  waits until the App can draw it and is drawn once (``Screen._refresh_layout``,
  ``App._batch_count``, ``Screen._dirty_widgets``, ``Widget._repaint_required``,
  ``Widget._layout_required``).
- ``QuietScreenRemoval`` (:mod:`fivetowers.compat.screen_removal`): a
  screen's removal does not lay out and repaint the current screen in full
  (``App._prune`` refreshed the App, its parent, with a layout).
- ``freed_when_removed`` (:mod:`fivetowers.compat.freed_screens`,
  Textual 8.2.8): a removed widget's or screen's reference cycles cut (``Styles.node``, a cleared
  ``LRUCache``'s ring, a child list's displayed copy, a screen's compositor
  and update timer), so it is freed by reference counting, not left frozen
  for a reclaim; and a finished worker's, as its manager forgets it
  (``WorkerManager._remove_worker``): its done task (``Worker._task``, whose
  context holds it and its widget) and its error's traceback (``Worker._error``).
- ``arrange_without_cycles``: a layout's arrangement freed by reference
  counting (``Compositor._arrange_root`` recursed through a closure that
  held every widget of the screen).
- ``write_to_terminal``: the window title, through the App's driver
  (``_driver``), as Textual writes its bell.
- ``InOrderInput``: an Input that applies keys arriving in one read in
  order (its bindings ran after the printable keys behind them;
  ``Input._on_key``, ``App._check_bindings``).
- ``SizedOnceScreen`` (:mod:`fivetowers.compat.sized_once`): a layout
  that resizes widgets does not ask for a second one through their new
  virtual sizes (``Widget._size_updated``, ``Widget._layout_required``),
  unless a scrollbar came or went.
- ``render_dirty_lines_only`` (:mod:`fivetowers.compat.dirty_lines`): a
  screen's partial update renders each widget only on the rows that
  changed (``Compositor.render_partial_update`` rendered every widget in
  the changed regions' bounding box, in full).
- ``style_content_lines_once`` (:mod:`fivetowers.compat.styled_lines`): a
  widget's render works out its styles (border, gutter, effects) once and
  draws its content rows itself (``StylesCache.render``, ``_cache``,
  ``_dirty_lines``, ``_width``; ``StylesCache.render_line`` read the styles
  and made the side borders again for every row), where no outline, hatch,
  tint or opacity applies.
- ``share_dispatch_plans`` (:mod:`fivetowers.compat.dispatch`): a
  message finds its handlers from a list made once per kind of node and
  kind of message (``MessagePump._get_dispatch_methods`` walked every class's
  ``__dict__`` on the MRO for each message).
- ``fast_reactive_reads`` (:mod:`fivetowers.compat.reactive`): a reactive
  attribute that has its value is read from the node's dict
  (``Reactive.__get__`` asked for ``id`` and a compute method every time).
- ``fresh_styles_at_once`` (:mod:`fivetowers.compat.styles`): a new node's
  matched rules stored in one step, copied from what upstream's style
  properties made of the same rules map for the first such node
  (``Stylesheet.replace_rules``, ``Styles._rules``, ``Styles._updates``).
- ``let_go_of_app`` (:mod:`fivetowers.compat.ended_app`): an ended session's
  App freed by reference counting: its helpers' pointers back at it cut
  (``App._driver``, ``WorkerManager._app``, ``Driver._app``, ``Logger._log``...).
- ``forget_stopped_timers`` (same module): the event loop's cancelled timer
  handles made in an ended App's context let go of that context
  (``BaseEventLoop._scheduled``, ``TimerHandle._context``).
- ``component_styles_kept`` (:mod:`fivetowers.compat.component_styles`): a
  restyle keeps a widget's component styles that did not change and lets
  go of the virtual nodes it drops, so none waits for the cyclic collector
  (``Stylesheet._process_component_classes``, ``DOMNode._component_styles``).
- ``event_loggers_made_once`` (:mod:`fivetowers.compat.event_log`): the
  message pump's ``log`` (``textual.message_pump.log``) gives the event
  loggers each handled message asks for made once, not two new ones a handler.
- ``add_rows_at_once`` (:mod:`fivetowers.compat.data_table`): rows put
  into an empty DataTable in one step, the cursor set and the idle handler
  prompted once (``DataTable._row_locations``, ``_data``, ``_new_rows``;
  ``add_row`` did both for every row).
- ``count_parameters_once`` (:mod:`fivetowers.compat.callbacks`): a
  callback's parameter count kept per code object
  (``textual._callback._count_parameters`` ran ``inspect.signature`` for
  every fresh closure).
- ``until_restyled`` (:mod:`fivetowers.compat.restyle_memo`): a value
  worked out from a widget's classes and pseudo-classes (the look key of
  shared renders) kept in its ``_visual_style_cache`` until Textual
  restyles it (``notify_style_update`` empties it); not for widgets whose
  rules test structural pseudo-classes (``_has_order_style``, ``_has_odd_or_even``).

Rich 15.0.0 (:mod:`fivetowers.compat.rich`):

- ``console_with_environ``: a Console that reads the player's environment
  (``_environ``), not the server's.

asyncssh 2.24.1 (:mod:`fivetowers.compat.asyncssh`):

- ``server_process``: the positional ``SSHServerProcess`` constructor, for
  a session class that refuses subsystems.
- ``one_keystream_per_packet`` (:mod:`fivetowers.compat.chacha`): a
  chacha20-poly1305 packet's Poly1305 key and payload from one ChaCha20
  run (``ChachaCipher``'s ``_key``; asyncssh ran it twice), same bytes,
  each key's ChaCha20 context made once per connection and reset to each
  packet's nonce (``_adkey``, ``decrypt_header``; asyncssh made a new one a run).
- ``no_ignore_packets_with_aead`` (:mod:`fivetowers.compat.ignore_packets`):
  no SSH_MSG_IGNORE sent before each packet under chacha20-poly1305 or
  AES-GCM (``SSHConnection.send_packet`` wrapped, ``_send_encryption``
  read): one packet a screen update, not two; CBC and CTR left as they are.
- ``ascii_names_prepared_at_once`` (:mod:`fivetowers.compat.saslprep`):
  SASLprep of printable ASCII (a login's user name) returned at once, as
  the profile leaves it (``asyncssh.connection.saslprep``, ``asyncssh.auth.saslprep``).

Python 3.11.7, the standard library (:mod:`fivetowers.compat.futures`):

- ``pool_processes``: a ProcessPoolExecutor's worker processes
  (``_processes``), to stop them at once.
"""

from __future__ import annotations

from fivetowers.compat.checked import Workaround


def workarounds() -> tuple[Workaround, ...]:
    """Every workaround, with the library version it was checked against."""
    from fivetowers.compat import (asyncssh, callbacks, chacha, component_styles, data_table,
                                   ended_app, dirty_lines,
                                   dispatch, event_log, freed_screens, futures, ignore_packets,
                                   measured_lines, reactive,
                                   restyle_memo, rich, saslprep, screen_removal, sized_once,
                                   styled_lines, styles, textual)

    return (*textual.WORKAROUNDS, *measured_lines.WORKAROUNDS, *screen_removal.WORKAROUNDS,
            *dirty_lines.WORKAROUNDS, *styled_lines.WORKAROUNDS, *sized_once.WORKAROUNDS,
            *dispatch.WORKAROUNDS, *reactive.WORKAROUNDS, *callbacks.WORKAROUNDS,
            *styles.WORKAROUNDS, *event_log.WORKAROUNDS, *data_table.WORKAROUNDS,
            *restyle_memo.WORKAROUNDS, *freed_screens.WORKAROUNDS,
            *rich.WORKAROUNDS, *asyncssh.WORKAROUNDS,
            *chacha.WORKAROUNDS, *ignore_packets.WORKAROUNDS, *saslprep.WORKAROUNDS,
            *futures.WORKAROUNDS, *component_styles.WORKAROUNDS,
            *ended_app.WORKAROUNDS)
