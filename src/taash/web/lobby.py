"""The lobby across servers (``taash serve --redis-url``): what this server tells the others it holds (its
:class:`~taash.web.shared.Snapshot`), and the public tables every server lists, its own from memory and the
others' from their snapshots. A lone server lists its own tables, as it always did."""

from __future__ import annotations

from taash.web.friend_store import ONLINE_SECONDS, Friends, waiting_people
from taash.web.hub import Hub
from taash.web.shared import Seated, Snapshot, Snapshots
from taash.web.table_models import TableOut, table_out


def own_tables(hub: Hub) -> list[TableOut]:
    """The public tables this server owns that are waiting or playing, as the lobby lists them."""
    return [table_out(hub.live[t["id"]], True) for t in hub.public_tables()]


def snapshot(server: str, hub: Hub, friends: Friends) -> Snapshot:
    """What this server holds now: its public tables, the people connected here or whose lobby asked for their
    friends lately, the unfinished table of each person seated at a table it owns, and each person's table still
    waiting for players that he made or sits at (his "my table" on the other servers)."""
    now = hub.clock.monotonic()
    online = {g for g, n in hub.admissions.by_guest.items() if n > 0}
    online |= {g for g, at in friends.seen.items() if now - at < ONLINE_SECONDS}
    seated: dict[str, Seated] = {}
    waiting: dict[str, str] = {}
    for live in hub.live.values():
        table = live.table
        waiting.update(dict.fromkeys(waiting_people(live), table.id))  # the newest last, as the registry keeps them
        if live.gone or table.status == "finished":
            continue
        for seat in table.seats:
            if seat.guest is not None and (seat.guest not in seated or table.settings.public):
                seated[seat.guest] = Seated(table.id, table.settings.public, table.settings.game)
    tables = [t.model_dump(mode="json") for t in own_tables(hub)]
    return Snapshot(server, tables, online, seated, waiting)


def cluster_tables(hub: Hub, others: dict[str, Snapshot]) -> list[TableOut]:
    """Every server's public tables: this one's from memory, the others' from their snapshots (a table listed
    twice, while it moves from one server to another, once)."""
    listed = own_tables(hub)
    seen = {t.id for t in listed}
    for server in sorted(others):
        for t in others[server].tables:
            if t["id"] not in seen:
                seen.add(t["id"])
                listed.append(TableOut.model_validate(t))
    return listed


async def public_tables(hub: Hub, snapshots: Snapshots | None) -> list[TableOut]:
    """The lobby's list: every server's public tables (read from Redis now), or this server's alone."""
    if snapshots is None:
        return own_tables(hub)
    try:
        others = await snapshots.read()
    except Exception:  # Redis gone a moment: the last round's
        others = snapshots.others
    return cluster_tables(hub, others)
