"""Friends over HTTP (accounts only): ask a person by name to be friends, accept or refuse, remove; see which
friends are online and at which public table; invite a friend to your table (he is told in the lobby, and joins
with one click); block a person (no friend request and no invitation from him; chat asks
:meth:`Friends.is_blocked`).

A friend is online while he has a websocket open (a table's or Play now's) or his lobby asked for its friends
in the last :data:`ONLINE_SECONDS`. Where he plays is told only for a public table: a private table is "playing",
never its id nor its code. Invitations are kept in memory for :data:`INVITE_SECONDS` (a restart forgets them: the
table is still there to join with its code).
"""

from __future__ import annotations

from collections.abc import Awaitable

from fastapi import APIRouter
from pydantic import BaseModel, Field, field_validator, model_validator

from taash.i18n import N_, _, said_of
from taash.tables.adapter import TableError
from taash.web.account_store import Accounts
from taash.web.friend_store import FriendError, Friends, Invite
from taash.web.http import ERRORS, ApiError, StrictIn, display_name
from taash.web.hub import is_member
from taash.web.names import name_keys
from taash.web.state import AppState, Guest, State
from taash.web.table_models import TableOut, sit_action, table_out

NEEDS_ACCOUNT = N_("friends are for accounts: claim your name (Account) first")


# -- what the routes take and give -------------------------------------------------------------------------------


class PersonIn(StrictIn):
    """A person, by his account's name (any case or look-alike) or his id (exactly one of the two)."""

    name: str | None = Field(None, min_length=1, max_length=24, description="The account's name")
    id: str | None = Field(None, min_length=1, max_length=32, description="The person's id (as his page has it)")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else display_name(v)

    @model_validator(mode="after")
    def _one(self) -> PersonIn:
        if (self.name is None) == (self.id is None):
            raise ValueError(_("give the person's name or his id (one of the two)"))
        return self


class AnswerIn(PersonIn):
    accept: bool = Field(description="true: become friends; false: refuse the request")


class InviteIn(PersonIn):
    table: str = Field(pattern=r"^[0-9a-f]{16}$", description="The id of the table he is invited to (yours)")


class PersonOut(BaseModel):
    id: str
    name: str


class FriendOut(PersonOut):
    online: bool = Field(description="Whether he is on the server now")
    table: str | None = Field(None, description="The public table he is seated at (null: none, or a private one)")
    game: str | None = Field(None, description="That table's game")
    playing: bool = Field(False, description="Whether he is seated at an unfinished table (public or private)")


class InviteOut(BaseModel):
    table: str = Field(description="The table's id")
    by: PersonOut
    game: str
    code: str | None = Field(None, description="A private table's invite code (it lets him sit)")


class FriendsOut(BaseModel):
    friends: list[FriendOut]
    asked_me: list[PersonOut] = Field(description="Requests to you, waiting for your answer")
    i_asked: list[PersonOut] = Field(description="Your requests, waiting for theirs")
    blocked: list[PersonOut]
    invites: list[InviteOut] = Field(description="Invitations to tables still waiting for players, newest last")
    my_table: str | None = Field(None, description="Your newest table still waiting for players (the lobby "
                                                   "invites friends to it)")


# -- the routes ------------------------------------------------------------------------------------------------

router = APIRouter()


def account_needed(state: AppState, guest: str) -> None:
    """Refuse (403 ``account_needed``) a guest with no account."""
    if Accounts(state.store).of_guest(guest) is None:
        error = ApiError("account_needed", NEEDS_ACCOUNT)
        error.status_code = 403
        raise error


def person(state: AppState, guest: str, body: PersonIn) -> PersonOut:
    """The account ``body`` names (404 ``not_found`` for none; 400 ``bad`` for yourself)."""
    accounts = Accounts(state.store)
    found = accounts.by_name(name_keys(body.name)) if body.name is not None else accounts.of_guest(body.id or "")
    if found is None:
        raise ApiError("not_found", N_("no account has that name"))
    if found.guest_id == guest:
        raise ApiError("bad", N_("that is you"))
    return PersonOut(id=found.guest_id, name=found.name)


def people(state: AppState, ids: list[str]) -> list[PersonOut]:
    names = state.store.guest_names(ids)
    return [PersonOut(id=i, name=names.get(i, "?")) for i in ids]


def friend_out(friends: Friends, who: PersonOut) -> FriendOut:
    online = friends.online(who.id)
    seated = friends.seated_at(who.id) if online else None
    public = seated is not None and seated.public
    return FriendOut(id=who.id, name=who.name, online=online, playing=seated is not None,
                     table=seated.table if public and seated else None,
                     game=seated.game if public and seated else None)


def listing(state: AppState, guest: str) -> FriendsOut:
    friends = state.friends
    circle = friends.store.circle(guest)
    invites = friends.invites_of(guest)
    waiting = friends.waiting_table_of(guest)
    names = state.store.guest_names([i.by for i in invites])
    return FriendsOut(friends=[friend_out(friends, p) for p in people(state, circle.friends)],
                      asked_me=people(state, circle.asked_me), i_asked=people(state, circle.i_asked),
                      blocked=people(state, circle.blocked),
                      invites=[InviteOut(table=i.table_id, by=PersonOut(id=i.by, name=names.get(i.by, i.by_name)),
                                         game=i.game, code=i.code) for i in invites],
                      my_table=friends.waiting_elsewhere(guest) if waiting is None else waiting.table.id)


async def changed(state: AppState, guest: str, change: Awaitable[object]) -> FriendsOut:
    """Await a change of friends (its refusal as the API's error), then the listing as it is now."""
    try:
        await change
    except FriendError as e:
        raise ApiError(e.code, said_of(e)) from None
    return listing(state, guest)


@router.get("/api/friends", response_model=FriendsOut, responses=ERRORS)
async def my_friends(guest: Guest, state: State) -> FriendsOut:
    """Your friends (online or not, and at which public table), the requests waiting, whom you blocked, and your
    invitations to tables. Asking counts you as online for a while (the lobby asks every few seconds)."""
    account_needed(state, guest)
    state.friends.seen[guest] = state.hub.clock.monotonic()
    return listing(state, guest)


@router.post("/api/friends", response_model=FriendsOut, responses=ERRORS)
async def ask(body: PersonIn, guest: Guest, state: State) -> FriendsOut:
    """Ask a person (an account) to be friends; if he had asked you, you are friends now. 409 ``already`` when
    you are friends or have asked, 409 ``blocked`` when either blocked the other."""
    account_needed(state, guest)
    other = person(state, guest, body)
    return await changed(state, guest, state.friends.store.ask(guest, other.id))


@router.post("/api/friends/answer", response_model=FriendsOut, responses=ERRORS)
async def answer(body: AnswerIn, guest: Guest, state: State) -> FriendsOut:
    """Accept or refuse a request sent to you (404 ``not_found`` when there is none)."""
    account_needed(state, guest)
    other = person(state, guest, body)
    return await changed(state, guest, state.friends.store.answer(guest, other.id, body.accept))


@router.post("/api/friends/remove", response_model=FriendsOut, responses=ERRORS)
async def remove(body: PersonIn, guest: Guest, state: State) -> FriendsOut:
    """End a friendship, or take back your request (404 ``not_found`` when there is neither)."""
    account_needed(state, guest)
    other = person(state, guest, body)
    return await changed(state, guest, state.friends.store.remove(guest, other.id))


@router.post("/api/blocks", response_model=FriendsOut, responses=ERRORS)
async def block(body: PersonIn, guest: Guest, state: State) -> FriendsOut:
    """Block a person: a friendship or request between you ends, and he can neither ask you again nor invite you
    (nor reach you in chat). Blocking again changes nothing."""
    account_needed(state, guest)
    other = person(state, guest, body)
    friends = state.friends
    return await changed(state, guest, friends.store.block(guest, other.id))


@router.post("/api/blocks/remove", response_model=FriendsOut, responses=ERRORS)
async def unblock(body: PersonIn, guest: Guest, state: State) -> FriendsOut:
    """Unblock a person (404 ``not_found`` when you had not blocked him)."""
    account_needed(state, guest)
    other = person(state, guest, body)
    return await changed(state, guest, state.friends.store.unblock(guest, other.id))


@router.post("/api/friends/invite", status_code=204, responses=ERRORS)
async def invite(body: InviteIn, guest: Guest, state: State) -> None:
    """Invite a friend to a table of yours (you made it or sit at it) still waiting for players: his lobby shows
    the invitation, and one click seats him. 403 ``not_friend`` for someone not your friend (or who blocked
    you), 409 ``started`` for a table no longer waiting."""
    account_needed(state, guest)
    other = person(state, guest, body)
    live = await state.live_table(body.table)
    if not is_member(live, guest):
        raise ApiError("forbidden", N_("you may invite people only to a table you made or sit at"))
    friends = state.friends
    if friends.is_blocked(other.id, guest) or not friends.store.are_friends(guest, other.id):
        error = ApiError("not_friend", N_("{name} is not your friend: ask him to be friends first"), name=other.name)
        error.status_code = 403
        raise error
    if live.table.status != "waiting":
        raise ApiError("started", N_("the match at that table has started: invite him to a table still waiting"))
    await friends.invite(live, guest, await state.guest_name(guest), other.id)


def invitation(state: AppState, guest: str, table_id: str) -> Invite:
    found = {i.table_id: i for i in state.friends.invites_of(guest)}.get(table_id)
    if found is None:
        raise ApiError("not_found", N_("no invitation to that table (it may have started, or be too old)"))
    return found


@router.post("/api/invites/{table_id}/accept", response_model=TableOut, responses=ERRORS)
async def accept_invite(table_id: str, guest: Guest, state: State) -> TableOut:
    """Take the first free seat at the table you were invited to, under your name (409 ``taken`` when none is
    free); the invitation is then used up."""
    inv = invitation(state, guest, table_id)
    live = await state.live_table(table_id)
    free = [i for i, s in enumerate(live.table.seats) if s.empty]
    if live.table.seat_of(guest) is None:
        if not free:
            raise ApiError("taken", N_("every seat at that table is taken"))
        try:
            await state.hub.act(live, sit_action(free[0], await state.guest_name(guest), None), guest)
        except TableError as e:
            raise ApiError(e.code, said_of(e)) from None
    await state.friends.forget(guest, inv.table_id)
    return table_out(live, True)


@router.post("/api/invites/{table_id}/dismiss", status_code=204, responses=ERRORS)
async def dismiss_invite(table_id: str, guest: Guest, state: State) -> None:
    """Forget an invitation (404 ``not_found`` when there is none)."""
    invitation(state, guest, table_id)
    await state.friends.forget(guest, table_id)
