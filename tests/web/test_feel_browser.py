"""How the table moves and sounds (issue 29, "See and hear"), in Chromium through Playwright: a played card flies
while the page still takes clicks and the server still answers, nothing moves when the system asks for reduced
motion, the sound switch and the deck's options are remembered, a background tab is told of your turn, the last
play stays marked, a sweep, a baazi and a declaration get their moment, the piles and the whole log open at any
time.

The animations are slowed by the browser's own control (the DevTools protocol's ``Animation.setPlaybackRate``),
so that a test sees them running without racing them. The same needs as tests/web/test_browser.py (Debian's
chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import copy
import time
from typing import Any

from tests.web.test_browser import browser, pytestmark, tid, watch_errors  # noqa: F401 - the fixtures
from tests.web.test_page_browser import DESKTOP, FakeTable, open_as, server, snapshot, table  # noqa: F401
from tests.web.test_rummy_browser import after, new_rummy_table, version, wait_my_turn

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

ANIMATIONS = "() => Number(document.body.dataset.animations || 0)"
RUNNING = "() => document.getAnimations().filter(a => a.playState === 'running').length"


def slow_motion(page: Page, rate: float) -> None:
    """Every animation of the page at ``rate`` times its speed (the browser's own control)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})


def new_seep_table(page: Page, server: str, name: str) -> None:
    """From the lobby: a name, then Seep against the computer (two players, one deal)."""
    page.goto(f"{server}/")
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    _expect(tid(page, "quick-play")).to_be_visible()
    tid(page, "players").select_option("2")
    tid(page, "baazis").fill("0")
    tid(page, "quick-play").click()
    page.wait_for_url("**/t/*")
    _expect(tid(page, "hand")).to_be_visible()


SEEP_TURN = ("() => document.body.dataset.pending !== '1' && document.body.dataset.status === 'playing' &&"
             " document.querySelector(\"[data-testid='turn-banner']\").textContent === 'Your turn'")


def seep_play_turn(page: Page) -> None:
    """Wait for a turn of one's own, bid if it is the bid, and wait for the play's turn."""
    page.wait_for_function(SEEP_TURN, timeout=30000)
    if page.locator("[data-testid^='bid-']").count():
        v = version(page)
        page.locator("[data-testid^='bid-']").first.click()
        after(page, v)
        page.wait_for_function(SEEP_TURN, timeout=30000)


def seep_play(page: Page) -> str:
    """Play the first playable card's first play, by clicks; returns the card."""
    card = page.locator("[data-testid='hand'] .card.playable").first
    name = str(card.get_attribute("data-card"))
    card.click(position={"x": 6, "y": 12})
    tid(page, "play-option").first.click()
    return name


def test_a_played_card_flies_to_the_floor_and_the_animation_finishes(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    watch_errors(page, errors, "seep")
    new_seep_table(page, server, "Asha")
    seep_play_turn(page)
    slow_motion(page, 0.05)  # 320 ms become 6.4 s
    started = page.evaluate(ANIMATIONS)
    v = version(page)
    card = seep_play(page)
    after(page, v)  # the server answered while the card is still on its way
    page.wait_for_function(f"n => ({ANIMATIONS})() > n", arg=started)
    assert page.evaluate(RUNNING) > 0
    # The card is already where the state puts it (no longer in the hand); its copy flies in a layer that takes
    # no clicks and is hidden from screen readers.
    assert tid(page, f"card-{card}").count() == 0
    layer = page.locator("#motion-layer")
    assert layer.get_attribute("aria-hidden") == "true"
    assert page.evaluate("() => getComputedStyle(document.getElementById('motion-layer')).pointerEvents") == "none"
    assert page.locator("#motion-layer .motion-ghost").count() > 0
    assert layer.locator("[data-testid], [tabindex], button").count() == 0
    slow_motion(page, 1)
    page.wait_for_function(f"() => ({RUNNING})() === 0 && !document.querySelector('#motion-layer .motion-ghost')")
    # The last play stays marked (the seat that played, and the log's last line under the turn banner).
    _expect(tid(page, "last-play")).to_contain_text("Last play:")
    _expect(tid(page, "last-play")).not_to_contain_text("[object")  # its player's name shown, not an array's
    assert page.evaluate("() => [...document.querySelectorAll(\"[data-testid^='seat-box-']\")]"
                         ".filter(e => getComputedStyle(e).boxShadow.includes('54, 197, 240')).length") == 1
    assert not errors, errors


def test_input_and_the_server_are_not_held_up_by_a_card_in_flight(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    watch_errors(page, errors, "rummy")
    new_rummy_table(page, server, "Ravi")
    wait_my_turn(page)
    slow_motion(page, 0.01)  # 320 ms become 32 s
    started = page.evaluate(ANIMATIONS)
    v = version(page)
    tid(page, "take-stock").click()
    after(page, v)
    page.wait_for_function(f"n => ({ANIMATIONS})() > n", arg=started)
    flying_since = time.monotonic()
    assert page.evaluate(RUNNING) > 0
    # A click where a card of the hand lies picks it up at once, though the new card is still flying in.
    box = page.locator("[data-testid='hand'] .group-cards .card").first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(1)
    # And the discard goes to the server and is answered before the card could have landed: a page that held input
    # or the server back until it landed would take 32 s. (Not "still flying" at a given moment: any new state,
    # the bot's next move or another update, lands every card in flight at once, by design.)
    v = version(page)
    tid(page, "discard").click()
    after(page, v)
    assert time.monotonic() - flying_since < 32
    assert not errors, errors


def test_reduced_motion_draws_each_state_at_once(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    page.emulate_media(reduced_motion="reduce")
    new_seep_table(page, server, "Asha")
    seep_play_turn(page)
    v = version(page)
    card = seep_play(page)
    after(page, v)
    assert tid(page, f"card-{card}").count() == 0
    seep_play_turn(page)  # the bots' plays came in too
    assert page.evaluate(ANIMATIONS) == 0
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.locator("#motion-layer .motion-ghost").count() == 0


def test_the_sound_switch_is_remembered_and_a_turn_sounds_only_unmuted(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    new_seep_table(page, server, "Asha")
    mute = tid(page, "mute")
    _expect(mute).to_have_attribute("aria-pressed", "true")
    seep_play_turn(page)
    v = version(page)
    seep_play(page)  # a click: the page may make sound from now on
    after(page, v)
    seep_play_turn(page)
    page.wait_for_function("() => Number(document.body.dataset.sounds || 0) > 0")
    assert page.evaluate("() => document.body.dataset.sound") in {"turn", "capture", "sweep", "declare"}
    mute.click()
    _expect(mute).to_have_attribute("aria-pressed", "false")
    page.reload()
    _expect(tid(page, "mute")).to_have_attribute("aria-pressed", "false")
    assert '"muted":true' in page.evaluate("() => localStorage.getItem('taash-options')")
    seep_play_turn(page)
    v = version(page)
    seep_play(page)
    after(page, v)
    seep_play_turn(page)
    assert page.evaluate("() => document.body.dataset.sounds") is None  # muted: no sound since the reload
    tid(page, "mute").click()
    _expect(tid(page, "mute")).to_have_attribute("aria-pressed", "true")


HIDE = """hidden => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => hidden ? 'hidden' : 'visible' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}"""

#: A Notification the page may create, recorded (permission granted when asked).
NOTIFICATIONS = """
window.shown = [];
window.Notification = class { constructor(title, options) { window.shown.push({ title, ...options }); }
  close() {}
  static requestPermission() { window.Notification.permission = 'granted'; return Promise.resolve('granted'); } };
window.Notification.permission = 'default';
"""


def test_a_background_tab_is_told_of_your_turn(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    page.add_init_script(NOTIFICATIONS)
    new_seep_table(page, server, "Asha")
    # Notifications are asked for by a click on the option (the browser asks the person then).
    tid(page, "options").click()
    tid(page, "opt-notify").check()
    tid(page, "dialog-close").click()
    assert '"notify":true' in page.evaluate("() => localStorage.getItem('taash-options')")
    seep_play_turn(page)
    code = page.evaluate("() => document.title").split(" · ")[-1]
    assert not page.evaluate("() => document.title").startswith("●")  # looked at: no mark
    page.evaluate(HIDE, True)
    v = version(page)
    seep_play(page)
    after(page, v)
    page.wait_for_function("() => document.title.startsWith('● Your turn')", timeout=30000)
    assert page.evaluate("() => window.shown.length") >= 1
    assert page.evaluate("() => window.shown[0].body") == f"It is your turn at table {code}."
    page.evaluate(HIDE, False)
    _expect(page).to_have_title(f"taash · {code}")


def test_the_four_colour_deck_and_large_cards_apply_and_are_remembered(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    new_seep_table(page, server, "Asha")
    seep_play_turn(page)
    width = page.locator("[data-testid='floor'] .loose .card").first.bounding_box()["width"]
    ink = "s => getComputedStyle(document.querySelector(s)).fill"
    tid(page, "options").click()
    _expect(tid(page, "options-dialog")).to_be_visible()
    tid(page, "opt-four-colour").check()
    tid(page, "opt-large-cards").check()
    page.keyboard.press("Escape")
    _expect(tid(page, "options-dialog")).to_have_count(0)
    page.reload()
    _expect(tid(page, "floor")).to_be_visible()
    page.wait_for_function("() => document.querySelector(\"[data-testid='floor'] .loose .card\")")
    assert page.evaluate("() => document.documentElement.className").split() == ["four-colour", "large-cards"]
    bigger = page.locator("[data-testid='floor'] .loose .card").first.bounding_box()["width"]
    assert bigger > width * 1.2, (width, bigger)
    # Diamonds blue and clubs green; hearts stay red and spades black.
    page.evaluate("() => { const g = document.createElement('div'); g.id = 'suits'; document.body.appendChild(g); }")
    for suit, colour in {"d": "rgb(21, 83, 184)", "c": "rgb(23, 105, 42)", "h": "rgb(198, 40, 40)",
                         "s": "rgb(26, 26, 26)"}.items():
        page.evaluate("""s => import('/static/cards.js').then(m => document.getElementById('suits')
            .replaceChildren(m.cardElement('Q' + s)))""", suit)
        assert page.evaluate(ink, "#suits .ink") == colour, suit
    tid(page, "options").click()
    _expect(tid(page, "opt-four-colour")).to_be_checked()
    _expect(tid(page, "opt-large-cards")).to_be_checked()
    tid(page, "opt-four-colour").uncheck()
    tid(page, "dialog-close").click()
    page.evaluate("""() => import('/static/cards.js').then(m => document.getElementById('suits')
        .replaceChildren(m.cardElement('Qd')))""")
    assert page.evaluate(ink, "#suits .ink") == "rgb(198, 40, 40)"  # the two-colour deck again


def test_the_captured_piles_and_the_whole_log_open_at_any_time(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15000)
    new_seep_table(page, server, "Asha")
    for _ in range(3):
        seep_play_turn(page)
        if page.evaluate("() => document.body.dataset.status") != "playing":
            break
        v = version(page)
        seep_play(page)
        after(page, v)
    opener = tid(page, "open-piles")
    opener.click()
    dialog = tid(page, "piles-dialog")
    _expect(dialog).to_be_visible()
    # Each team's pile: as many cards shown as the score counts.
    for t in (0, 1):
        counted = int(tid(page, f"team-{t}").locator("td").first.inner_text())
        _expect(tid(page, f"pile-{t}").locator(".card[data-card]")).to_have_count(counted)
    _expect(tid(page, "piles-log")).to_contain_text("Deal 1")
    lines = tid(page, "piles-log").locator("li").count()
    assert lines >= 4
    # Keys stay in the dialog (a digit plays nothing), and Escape gives the focus back.
    page.keyboard.press("1")
    page.keyboard.press("Escape")
    _expect(dialog).to_have_count(0)
    assert page.evaluate("() => document.activeElement.dataset.testid") == "open-piles"


def test_a_sweep_and_a_baazi_each_get_a_moment_that_does_not_stay(server: str, browser: Browser) -> None:
    table_id, (me,) = table(server, "seep", ("Asha",))
    state = snapshot(me, table_id)
    page = open_as(browser, me, DESKTOP)
    page.clock.install()
    fake = FakeTable(page, state)
    page.goto(f"{server}/t/{table_id}")
    _expect(tid(page, "floor")).to_be_visible()
    # The page's clock stands still while the test looks, then moves 1.5 s: "under 1.5 s" by the page's own clock
    # (the test's clock measured a loaded machine's page and Playwright's polling too).
    page.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    swept = copy.deepcopy(state)
    d = swept["deal"]
    d["phase"] = "play"
    d["hand_sizes"][1] -= 1
    d["captured"][1] = {**d["captured"][1], "cards": d["captured"][1]["cards"] + 2, "sweeps": 1, "sweep_points": 50}
    fake.update(swept)
    moment = tid(page, "moment")
    _expect(moment).to_be_visible()
    _expect(moment).to_have_text(f"Seep! {state['seats'][1]['name']} sweeps the floor")
    page.clock.run_for(1500)
    assert moment.is_hidden()
    page.clock.resume()
    assert page.evaluate("() => document.body.dataset.status") == "playing"
    won = copy.deepcopy(swept)
    won["score"]["deals"].append({"dealer": 0, "card_points": [80, 20], "sweep_points": [0, 0], "score": [80, 20],
                                  "difference": 0, "baazi": 0, "minimum_rule": False})
    fake.update(won)
    _expect(moment).to_have_text(f"Baazi! {state['seats'][0]['name']} wins a baazi")


def test_a_declaration_gets_its_moment(server: str, browser: Browser) -> None:
    table_id, (me,) = table(server, "rummy", ("Ravi",))
    state = snapshot(me, table_id)
    page = open_as(browser, me, DESKTOP)
    fake = FakeTable(page, state)
    page.goto(f"{server}/t/{table_id}")
    _expect(tid(page, "hand")).to_be_visible()
    wrong: dict[str, Any] = copy.deepcopy(state)
    wrong["deal"]["status"][1] = "wrong"
    fake.update(wrong)
    moment = tid(page, "moment")
    _expect(moment).to_have_text(f"{state['seats'][1]['name']}: a wrong declaration")
    _expect(moment).to_be_hidden(timeout=3000)
    won: dict[str, Any] = copy.deepcopy(wrong)
    won["score"]["deals"].append({"dealer": 1, "seats": [0, 1], "winner": 0, "declared": True, "points": [0, 80],
                                  "totals": [0, 80], "dropped": [], "wrong": [1], "eliminated": [],
                                  "said": f"{state['seats'][0]['name']} wins the deal with a valid declaration"})
    fake.update(won)
    _expect(moment).to_have_text(f"{state['seats'][0]['name']} declares!")
