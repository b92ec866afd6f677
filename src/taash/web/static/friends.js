// Friends in the lobby (accounts only): add by name, answer requests, see who is online and where, invite a friend
// to your waiting table, join a table you were invited to in one click, block and unblock. The server decides
// everything (docs/web-protocol.md, "Friends"); this panel asks it every few seconds and shows what it says.

import { api, h, nameEl } from "/static/common.js";
import { TEXT } from "/static/texts.js";

const EVERY_MS = 4000;

let timer = null;

/** Draw the friends panel into `box` for `guest` (one with an account; a guest is told why not) and keep it fresh. */
export function friendsPanel(box, guest, gameTitle = (g) => g) {
  clearInterval(timer);
  box.hidden = false;
  if (!guest.account) {
    box.replaceChildren(h("h2", {}, TEXT.friends), h("p", { class: "muted", testid: "friends-guest" },
      TEXT.friendsGuest));
    return;
  }
  const note = h("p", { class: "status", testid: "friends-note", role: "status" });
  const lists = h("div", { testid: "friends-lists" });
  const form = h("form", { class: "row", testid: "friend-form" },
    h("input", { name: "name", type: "text", maxlength: "24", autocomplete: "off", "aria-label": TEXT.friendName,
      placeholder: TEXT.friendName, testid: "friend-name" }),
    h("button", { type: "submit", testid: "friend-add" }, TEXT.addFriend));
  box.replaceChildren(h("h2", {}, TEXT.friends), form, note, lists);

  const say = (text, error = false) => {
    note.replaceChildren(text);
    note.classList.toggle("error", error);
  };
  const act = async (method, path, body, done) => {
    try {
      const answer = await api(method, path, body);
      if (done) say(done);
      if (answer && answer.friends) draw(answer);
      else refresh();
      return answer;
    } catch (e) {
      say(e.message, true);
      return null;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = form.name.value.trim();
    if (!name) return;
    act("POST", "/api/friends", { name }, TEXT.addedFriend(name)).then((ok) => { if (ok) form.name.value = ""; });
  });

  function person(p, ...buttons) {
    return h("li", { testid: "friend-person", dataset: { person: p.id } }, nameEl(p.name), " ", ...buttons);
  }
  function button(label, testid, onclick, primary = false) {
    return h("button", { type: "button", class: primary ? "small primary" : "small", testid, onclick }, label);
  }

  function draw(data) {
    const parts = [];
    if (data.invites.length) {
      parts.push(h("h3", {}, TEXT.invitations), h("ul", { class: "friend-list" }, ...data.invites.map((inv) =>
        h("li", { testid: "invite", dataset: { table: inv.table } }, TEXT.invitedBy(inv.by.name, gameTitle(inv.game)),
          " ", button(TEXT.joinNow, "invite-join", async () => {
            const table = await act("POST", `/api/invites/${encodeURIComponent(inv.table)}/accept`);
            if (table) location.assign(`/t/${encodeURIComponent(table.id)}`
              + (inv.code ? `?code=${encodeURIComponent(inv.code)}` : ""));
          }, true), " ",
          button(TEXT.dismiss, "invite-dismiss", () => act("POST", `/api/invites/${encodeURIComponent(inv.table)}/dismiss`))))));
    }
    if (data.asked_me.length) {
      parts.push(h("h3", {}, TEXT.askedYou), h("ul", { class: "friend-list" }, ...data.asked_me.map((p) =>
        person(p, button(TEXT.accept, "friend-accept", () => act("POST", "/api/friends/answer",
          { id: p.id, accept: true }), true), " ",
        button(TEXT.refuse, "friend-refuse", () => act("POST", "/api/friends/answer", { id: p.id, accept: false })),
        " ", button(TEXT.block, "friend-block", () => act("POST", "/api/blocks", { id: p.id },
          TEXT.blockedSomeone(p.name)))))));
    }
    const friends = data.friends.map((f) => person(f,
      h("span", { class: f.online ? "online" : "muted", testid: "friend-online" }, f.online ? TEXT.online : TEXT.offline),
      f.table ? [" · ", h("a", { href: `/t/${encodeURIComponent(f.table)}`, testid: "friend-table" },
        TEXT.atTable(gameTitle(f.game)))] : f.playing ? ` · ${TEXT.playingPrivately}` : "",
      " ", data.my_table ? button(TEXT.invite, "friend-invite", () => act("POST", "/api/friends/invite",
        { id: f.id, table: data.my_table }, TEXT.invited(f.name)), true) : "",
      " ", button(TEXT.remove, "friend-remove", () => act("POST", "/api/friends/remove", { id: f.id })),
      " ", button(TEXT.block, "friend-block", () => act("POST", "/api/blocks", { id: f.id },
        TEXT.blockedSomeone(f.name)))));
    parts.push(h("ul", { class: "friend-list", testid: "friend-list" },
      ...(friends.length ? friends : [h("li", { class: "muted" }, TEXT.noFriends)])));
    if (data.i_asked.length) {
      parts.push(h("h3", {}, TEXT.youAsked), h("ul", { class: "friend-list" }, ...data.i_asked.map((p) =>
        person(p, button(TEXT.remove, "friend-remove", () => act("POST", "/api/friends/remove", { id: p.id }))))));
    }
    if (data.blocked.length) {
      parts.push(h("h3", {}, TEXT.blockedPeople), h("ul", { class: "friend-list" }, ...data.blocked.map((p) =>
        person(p, button(TEXT.unblock, "friend-unblock", () => act("POST", "/api/blocks/remove", { id: p.id }))))));
    }
    lists.replaceChildren(...parts);
  }

  async function refresh() {
    try {
      draw(await api("GET", "/api/friends"));
    } catch (e) {
      say(e.message, true);
    }
  }
  refresh();
  timer = setInterval(refresh, EVERY_MS);
}

/** A person's page: add him as a friend, or block him (for a visitor with an account, on another's page). */
export function personButtons(box, me, person) {
  if (!me || !me.account || me.id === person.id || !person.account) return;
  const note = h("span", { class: "status", testid: "person-note", role: "status" });
  const ask = async (path, done) => {
    try {
      await api("POST", path, { id: person.id });
      note.textContent = done;
    } catch (e) {
      note.textContent = e.message;
    }
  };
  box.replaceChildren(
    h("button", { type: "button", class: "small primary", testid: "person-add-friend",
      onclick: () => ask("/api/friends", TEXT.addedFriend(person.name)) }, TEXT.addFriend), " ",
    h("button", { type: "button", class: "small", testid: "person-block",
      onclick: () => ask("/api/blocks", TEXT.blockedSomeone(person.name)) }, TEXT.block), " ", note);
  box.hidden = false;
}
