"""Seep's part of ``taash play`` (a match against bots in the terminal) and ``taash replay`` (its records)."""

from __future__ import annotations

import json
from pathlib import Path

from taash.cli.common import fail, out, user_errors
from taash.cli.play_options import PlayOptions, Screens
from taash.cli.seep import check_players, get_rules
from taash.cli.terminal import need_terminal, unicode_ok
from taash.games.registry import levels
from taash.i18n import _, said_of

DEFAULT_SAVE = Path("taash-seep-match.json")
#: What a saved match keeps of its own: options that cannot go with ``--resume`` (parameter name, option).
KEPT_BY_THE_SAVE = (("players", "--players"), ("rules", "--rules"), ("level", "--level"), ("baazis", "--baazis"),
                    ("seed", "--seed"), ("name", "--name"))


def play_seep(options: PlayOptions) -> None:
    """Check the options, start or resume the match, and run the screen."""
    from taash.tables.adapter import TableError
    from taash.tui.seep.app import SeepApp, match_summary  # the interface loads only when it is used
    from taash.tui.seep.persons_match import PersonsMatch

    o = options
    if o.fmt is not None:
        fail(_("--format is Rummy's (taash play --game rummy); a Seep match's length is its --baazis"))
    ignored = [option for param, option in KEPT_BY_THE_SAVE if param in o.given] if o.resume is not None else []
    if ignored:
        fail(_("--resume goes on with the saved match's own settings; leave out {options}", options=", ".join(ignored)))
    ascii_only = o.ascii_only or not unicode_ok()
    if o.level not in levels("seep"):
        fail(_("--level must be one of {levels}, not {value}", levels=", ".join(levels("seep")),
               value=repr(o.level[:40])))
    if o.baazis < 0:
        fail(_("--baazis must be 0 (a single deal) or more, not {value}", value=o.baazis))
    if not 0 <= o.delay <= 10:
        fail(_("--delay must be from 0 to 10 seconds, not {value}", value=o.delay))
    if not o.name.strip() or len(o.name) > 40:
        fail(_("--name must be 1 to 40 characters"))
    if o.resume is not None:
        with user_errors(str(o.resume)):
            try:
                session = PersonsMatch.load(o.resume, ascii_only)
            except TableError as e:  # a save of the tables refused (a save of Rummy, changed by hand, ...)
                fail(_("{path}: {why}", path=o.resume, why=said_of(e)))
    else:
        check_players(o.players)
        session = PersonsMatch(get_rules(o.rules), o.players, o.level, o.baazis, o.seed, o.name.strip(), 0, ascii_only)
    if session.over:  # a finished match: its summary, nothing to play
        out.print(match_summary(session, ascii_only))
        out.print(_("This match is over; taash replay {path} steps through it.", path=o.resume))
        return
    path = o.save or o.resume or DEFAULT_SAVE
    if not path.parent.is_dir():
        fail(_("--save: there is no folder {folder} to save the match in", folder=path.parent))
    if path.is_dir():
        fail(_("--save: {path} is a folder; name a file to save the match in", path=path))
    need_terminal()
    message = SeepApp(session, path, o.delay).run()
    if session.over:  # the summary stays on the terminal after the full screen goes
        out.print(match_summary(session, ascii_only))
    if message:
        print(message)


def replay_seep(file: Path, data: object, ascii_only: bool) -> None:
    """``taash replay`` of a Seep game record (``seep-protocol.md``), or of the record inside a save file (the
    save, read again, tells why packs were dealt again)."""
    from taash.seep.record import record_from_json, replay
    from taash.tui.seep.replay import ReplayApp, Timeline, redeals_of

    with user_errors(str(file)):
        record = record_from_json(data)
        replay(record)
        timeline = Timeline(record, ascii_only, redeals_of(json.loads(file.read_text(encoding="utf-8-sig"))))
    if not timeline.deals:
        fail(_("{path}: the record has no deal with a bid to show", path=file))
    need_terminal()
    ReplayApp(timeline, str(file), ascii_only).run()


SCREENS = Screens(play=play_seep, replay=replay_seep)
