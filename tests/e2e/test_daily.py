"""Issue 31 in the browser: the day's match from the local date (a fixed clock, time zones set on the
page), the calendar, the days' record apart from free play, a challenge by link opened in a second
browser (nothing of the first one's stored: same deal, the sender's result hidden until the end, then
both side by side),
Compartir through the Web Share sheet and through the clipboard, and a finished match copied as text
from the viewer and pasted back. Matches are played here with the engine (gin) where a test needs a
whole one; everything is read from the screen, the clipboard or the page's storage."""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import SharedTable, assert_accessible, assert_readable, screen_words, watch_errors
from test_history import least_deadwood, look_at_every_size, play, stored
from test_table import DESKTOP, button, settle, settled, shoot
from test_table_more import put_in_storage, put_strings_in_storage
from test_tutorial import covered

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import gin  # noqa: E402
import gin.ai  # noqa: E402
from gin.rules import Rules  # noqa: E402

PHONE = (390, 844)
OFFER = "¿Jugar la partida de hoy?"  # the start's offer of the day's match: a dialog
MATCH_KEY = "gin.match.v1"
DAILY_KEY = "gin.daily.v1"
CHALLENGES_KEY = "gin.challenges.v2"  # {version: 2, challenges}
CHALLENGES_V1 = "gin.challenges.v1"  # the bare list of the builds before it: still read
ASIDE_KEY = "gin.aside.v1"
SETTINGS = {"speed": "instant", "level": "easy", "profile": "oklahoma"}


def utc(text):
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.fixture
def visitor(returning):
    """The worker's returning visitor (tests/e2e/conftest.py): a context that has made its first
    visit, whose pages boot as a player's second visit does, with nothing stored at the start of
    each page (wiped after each). Its clock is left as it is: each page here fixes its own
    (fix_clock), as it sets its own time zone."""
    return returning


# The page's clock fixed at a moment (ms since the epoch) for `new Date()`, `Date()` and
# `Date.now()`; a Date of a given time is as ever. It is the page's own (an init script of the
# page, or evaluated in it), not Playwright's page.clock: that one is the context's, and once set
# it stays, for every later test of the worker's returning visitor. Run again, it moves the clock.
FIXED_CLOCK = """(at) => {
  if (globalThis.__fixedNow === undefined) {
    const Real = Date;
    function FixedDate(...args) {
      if (!new.target) return new Real(globalThis.__fixedNow).toString();
      return args.length ? new Real(...args) : new Real(globalThis.__fixedNow);
    }
    Object.setPrototypeOf(FixedDate, Real);  // Date.UTC, Date.parse
    FixedDate.prototype = Real.prototype;  // instanceof Date, either way
    FixedDate.now = () => globalThis.__fixedNow;
    globalThis.Date = FixedDate;
  }
  globalThis.__fixedNow = at;
}"""


def fix_clock(page, when):
    """The page's clock at `when` (UTC) from its next load on (and now, when it is loaded)."""
    at = round(when.timestamp() * 1000)
    page.add_init_script(f"({FIXED_CLOCK})({at})")
    if page.url.startswith("http"):
        page.evaluate(FIXED_CLOCK, at)


def new_page(visitor, tz, when=None, permissions=(), size=DESKTOP):
    """A page of a browser with nothing stored, in time zone `tz` (set on the page as Playwright sets
    a context's), its clock fixed at `when` (UTC; now when None), with reduced motion: nothing here
    is about motion (test_table_motion is), every screen is read at rest."""
    page = watch_errors(visitor.start())
    context = page.context
    context.new_cdp_session(page).send("Emulation.setTimezoneOverride", {"timezoneId": tz})
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(reduced_motion="reduce")
    if permissions:
        context.grant_permissions(list(permissions))
    fix_clock(page, when if when is not None else datetime.now(timezone.utc))
    return context, page


def close(visitor, page):
    """The page's errors; then its pages closed and everything they stored wiped (visitor.end)."""
    errors = list(page.errors)
    try:
        visitor.context.clear_permissions()
    finally:
        visitor.end()
    assert not errors, "\n".join(errors)


@pytest.fixture(scope="module")
def one_page(returning):
    """A page of the worker's returning visitor kept for the cases of one parametrized test
    (SharedTable, tests/e2e/conftest.py): the first case boots it, the next ones find it as the
    last one left it; a case that fails or logs an error closes it."""
    shared = SharedTable(returning)
    yield shared
    shared.close()


def open_daily_sheet(page):
    button(page, "Menú").click()
    button(page, "Partida del día").click()
    dialog = page.get_by_role("dialog", name="Partida del día")
    dialog.wait_for()
    return dialog


def first_hand(seed, profile="traditional"):
    return sorted(gin.Match.new(seed=seed, rules=Rules.profile(profile)).view(0)["hand"])


def play_today(page):
    """From the calendar's sheet: today's match, opened over the match on the table (which is kept)."""
    dialog = open_daily_sheet(page)
    day = dialog.locator(".daily-today").get_attribute("data-day")
    button(page, "Jugar la de hoy").click()
    question = page.get_by_role("dialog", name="Otra partida")
    question.wait_for()
    assert f"¿Abrir la partida del día (DIA-{day})?" in question.text_content()
    button(page, "Abrir la del día").click()
    page.wait_for_function("(seed) => window.ginApp.view && window.ginApp.view.seed === seed", arg=f"DIA-{day}")
    return day, settle(page)


# --- the day's seed ---------------------------------------------------------------------------------


def test_the_days_match_is_the_same_for_two_fresh_browsers_and_changes_with_the_local_date(visitor, open_app):
    hands = {}
    seen = []

    def todays_match(page, name):
        """Today's match opened from the calendar over the match on the table: the day's cards,
        the default rules and Difícil, and the match left for it kept."""
        left = page.evaluate("window.ginApp.view.seed")
        kept = [m["seed"] for m in stored(page, "gin.open.v1") or []]
        day, view = play_today(page)
        # The default rules and Difícil, whatever the player's settings.
        assert view["rules"]["profile"] == "traditional" and not view["rules"].get("hollywood")
        assert view["level"] == "hard"
        hands[name] = (day, sorted(view["hand"]))
        assert hands[name][1] == first_hand(f"DIA-{day}")
        # The match left for it is kept, not lost.
        assert [m["seed"] for m in stored(page, "gin.open.v1")] == [*kept, left]
        # The menu says the level is the same for everyone.
        button(page, "Menú").click()
        assert page.locator(".menu .level-fixed").text_content() == (
            "Esta partida se juega en Difícil, la misma dificultad para todos; la tuya vale para tus otras partidas."
        )
        page.select_option("#menu-level", "easy")
        assert page.evaluate("window.ginApp.view.next_level") is None
        button(page, "Volver a la mesa").click()
        seen.append(page.evaluate("window.ginApp.settings.level"))

    for name, when, settings in (
        ("first", "2026-12-03T09:00:00", SETTINGS),
        ("second", "2026-12-03T22:30:00", {"speed": "instant", "level": "normal", "profile": "standard"}),
    ):
        context, page = new_page(visitor, "Europe/Madrid", utc(when))
        try:
            open_app(page, settings=settings)
            todays_match(page, name)
            if name == "second":
                # The same page left open to the next morning: the calendar opened then offers
                # that day's match (it reads the date as it opens; the midnight test below).
                fix_clock(page, utc("2026-12-04T09:00:00"))
                todays_match(page, "next day")
        finally:
            close(visitor, page)
    assert hands["first"] == hands["second"] and hands["first"][0] == "2026-12-03"
    assert hands["next day"][0] == "2026-12-04" and hands["next day"][1] != hands["first"][1]
    assert seen == ["easy", "easy", "easy"]  # the setting itself is kept for the other matches


@pytest.mark.parametrize(
    "tz,when,day",
    [
        # Kiritimati is UTC+14: 09:59:30 UTC is 23:59:30 there on the 3rd, 10:00:30 UTC is past midnight.
        ("Pacific/Kiritimati", "2026-12-03T09:59:30", "2026-12-03"),
        ("Pacific/Kiritimati", "2026-12-03T10:00:30", "2026-12-04"),
        # Los Angeles is UTC-8: 07:59:30 UTC on the 4th is still the 3rd there.
        ("America/Los_Angeles", "2026-12-04T07:59:30", "2026-12-03"),
        ("America/Los_Angeles", "2026-12-04T08:00:30", "2026-12-04"),
    ],
)
def test_the_day_turns_at_local_midnight(one_page, open_app, tz, when, day):
    # The four cases on one page, booted once: each sets its time zone and clock on it and opens
    # the calendar again, which reads the date as it opens (as on a page left open past midnight).
    def boot(page):
        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        page.emulate_media(reduced_motion="reduce")  # as new_page's
        page.zone = page.context.new_cdp_session(page)  # one session: a second may not override the zone
        page.zone.send("Emulation.setTimezoneOverride", {"timezoneId": tz})
        fix_clock(page, utc(when))
        open_app(page, settings=SETTINGS)

    page = one_page.get("midnight", boot)
    page.zone.send("Emulation.setTimezoneOverride", {"timezoneId": tz})
    fix_clock(page, utc(when))
    whole = False
    try:
        dialog = open_daily_sheet(page)
        assert dialog.locator(".daily-today").get_attribute("data-day") == day
        days = dialog.locator(".days .day").evaluate_all("els => els.map(e => e.dataset.day)")
        assert len(days) == 30 and days[-1] == day
        assert dialog.locator('.day[aria-current="date"]').get_attribute("data-day") == day
        page.keyboard.press("Escape")  # the sheet, then the menu it came back to
        page.keyboard.press("Escape")
        page.get_by_role("dialog", name="Menú").wait_for(state="detached")
        whole = True
    finally:
        errors = list(page.errors)
        if errors or not whole:
            one_page.close()  # the next case boots a page of its own
    assert not errors, "\n".join(errors)


# --- a challenge by link ----------------------------------------------------------------------------

CHALLENGE_SEED = "RETO-0032"
SHARE_STUB = """
Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value: async function (data) { window.__shared = data; } });
Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: function () { return true; } });
"""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def hints(view):
    return gin.ai.hint(view)["action"]


def summary(save):
    """What a player shares of a finished match (web/model/challenge.js summaryOf)."""
    view = gin.Match.from_save(save).view(0)
    history = view["history"]
    return {
        "totals": list(view["final"]["totals"]),
        "deals": len(history),
        "gins": sum(1 for r in history if r["knocker"] == 0 and r["kind"] in ("gin", "big_gin")),
        "undercuts": sum(1 for r in history if r["kind"] == "undercut" and r["winner"] == 0),
    }


def said(s, who):
    """A result as the page tells it: the sender ("gané"), the player ("Ganaste"), someone else ("Ganó")."""
    a, b = s["totals"]
    kind = "won" if a > b else "lost" if a < b else "drawn"
    return {
        "sender": {"won": f"gané {a} a {b}", "lost": f"perdí {a} a {b}", "drawn": f"empaté a {a}"},
        "you": {"won": f"Ganaste {a} a {b}", "lost": f"Perdiste {a} a {b}", "drawn": f"Empate a {a}"},
        "them": {"won": f"Ganó {a} a {b}", "lost": f"Perdió {a} a {b}", "drawn": f"Empate a {a}"},
    }[who][kind]


def counted(n, one, other):
    return one if n == 1 else other.format(n=n)


def share_line(s, name):
    return (
        f"Gin Rummy · {name}: {said(s, 'sender')} en {counted(s['deals'], '1 mano', '{n} manos')}, "
        f"con {counted(s['gins'], '1 gin', '{n} gin')} y {counted(s['undercuts'], '1 undercut', '{n} undercuts')}. "
        "¿Puedes superarlo con las mismas cartas?"
    )


def last_turns_start(save, turns=1):
    """The index of the first action of the player's last `turns` turns (each begins at the draw):
    the end of the match is played by hand from there, the rest is put in storage."""
    match = gin.Match.from_save(cut(save, 0))
    starts = []
    for i, action in enumerate(save["actions"]):
        if match.to_act == 0 and match.view(0)["phase"] == "draw":
            starts.append(i)
        match.apply({**action, "seat": match.to_act})
    return starts[-turns]


def cut(save, n):
    return {**save, "actions": save["actions"][:n]}


def play_out(page, policy=least_deadwood, max_moves=400):
    """Plays through the table, as `policy` would, until the match result shows."""
    for _ in range(max_moves):
        view, now = settled(page)
        panel = now["panel"]
        if panel == "match":
            return view
        if panel == "deal":
            button(page, "Siguiente").click()
            continue
        action = policy(view)
        if action["type"] == "pass":
            button(page, "Pasar").click()
        elif action["type"] == "draw":
            button(page, "Mazo").click()
        elif action["type"] == "knock":
            page.locator(f'.hand [data-card="{action["card"]}"]').click(position={"x": 8, "y": 20})
            kind = "gin" if view["discard_deadwood"][action["card"]] == 0 else "knock"
            page.locator(f'.actions [data-intent="knock"][data-kind="{kind}"]').click()
            button(page, "Confirmar").click()
        else:
            for _ in range(2):
                page.locator(f'.hand [data-card="{action["card"]}"]').click(position={"x": 8, "y": 20})
    raise AssertionError("the match did not end")


@pytest.fixture(scope="module")
def challenge():
    def finished(human):
        match = gin.Match.new(seed=CHALLENGE_SEED, rules=Rules.profile("traditional"))
        match.meta["level"] = "normal"
        while not match.over:
            view = match.view(match.to_act)
            action = human(view) if match.to_act == 0 else gin.ai.choose(view, "normal")
            match.apply({**action, "seat": match.to_act})
        return match.to_save()

    sender, receiver = finished(hints), finished(least_deadwood)
    assert summary(sender) != summary(receiver)
    return {"sender": sender, "receiver": receiver}


def shown_result(page, who):
    return page.locator(f'.compare-table td[data-who="{who}"]').all_inner_texts()


def test_a_challenge_link_opens_the_same_match_in_another_browser_and_shows_both_results_at_the_end(visitor, open_app, challenge):
    sent = summary(challenge["sender"])
    # The sender's browser: the match just finished, shared through the Web Share sheet.
    context, page = new_page(visitor, "Europe/Madrid")
    try:
        page.add_init_script(SHARE_STUB)
        put_in_storage(page, {MATCH_KEY: challenge["sender"]})
        open_app(page, settings=SETTINGS)
        page.locator(".panel.match").wait_for()
        button(page, "Compartir").click()
        page.wait_for_function("() => window.__shared !== undefined")
        shared = page.evaluate("window.__shared")
        assert page.locator(".share-status").get_by_role("status").text_content() == "Enviado."
        assert shared["title"] == "Gin Rummy: un reto"
        assert shared["text"] == share_line(sent, f"Partida {CHALLENGE_SEED} · Tradicional · Normal")
        link = urlsplit(shared["url"])
        params = dict(part.split("=", 1) for part in link.fragment.split("&"))
        assert params["seed"] == CHALLENGE_SEED and params["rules"] == "traditional" and params["level"] == "normal"
        # Nothing of the result is readable in the address itself.
        assert str(sent["totals"][0]) not in params["reto"]
        assert_accessible(page, "match result, shared")
    finally:
        close(visitor, page)

    # A friend's browser, with settings of its own: the same cards, the sender's result hidden.
    context, page = new_page(visitor, "America/Mexico_City")
    theirs = [said(sent, "them"), f"{sent['totals'][0]} a {sent['totals'][1]}"]
    try:
        open_app(page, url=shared["url"], settings={"speed": "instant", "level": "easy", "profile": "standard"})
        view = settle(page)
        assert view["seed"] == CHALLENGE_SEED and view["rules"]["profile"] == "traditional" and view["level"] == "normal"
        assert sorted(view["hand"]) == first_hand(CHALLENGE_SEED)
        assert "Reto recibido: las mismas cartas que quien te lo envió." in page.locator(".notices").text_content()
        assert "reto=" not in page.url  # the address no longer carries it
        assert page.locator(".topbar .profile").text_content() == "Reto · Tradicional"
        for text in theirs:
            assert text not in screen_words(page)
        dialog = open_daily_sheet(page)
        item = dialog.locator(".challenge-item")
        assert item.count() == 1 and "Su resultado se verá cuando la termines." in item.text_content()
        for text in theirs:
            assert text not in screen_words(page)
        shoot(page, "daily-challenge-received", DESKTOP)
        page.keyboard.press("Escape")
        page.keyboard.press("Escape")
        # Most of the match played as the friend plays it (put in storage), its last turn by hand.
        start = last_turns_start(challenge["receiver"])
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [MATCH_KEY, json.dumps(cut(challenge["receiver"], start))])
        open_app(page, reload=True)
        settle(page)
        for text in theirs:
            assert text not in screen_words(page)
        play_out(page)
        mine = summary(challenge["receiver"])
        assert page.evaluate("window.ginApp.view.final.totals") == mine["totals"]
        # Both results, side by side.
        table = page.locator(".panel.match .compare-table")
        assert table.locator("thead th").all_inner_texts() == ["Tú", "Reto"]
        assert shown_result(page, "you") == [said(mine, "you"), str(mine["deals"]), str(mine["gins"]), str(mine["undercuts"])]
        assert shown_result(page, "them") == [said(sent, "them"), str(sent["deals"]), str(sent["gins"]), str(sent["undercuts"])]
        verdict = "Mejoras su resultado." if mine["totals"][0] - mine["totals"][1] > sent["totals"][0] - sent["totals"][1] else "Su resultado es mejor que el tuyo."
        assert page.locator(".challenge-verdict").text_content() == verdict
        kept = stored(page, CHALLENGES_KEY)["challenges"]
        assert len(kept) == 1 and kept[0]["from"] == sent and kept[0]["mine"] == mine
        assert_accessible(page, "challenge result")
        look_at_every_size(page, "challenge result", "daily-challenge-result")
        # The calendar's sheet keeps both, now.
        button(page, "Ver la mesa").click()
        dialog = open_daily_sheet(page)
        assert dialog.locator(".challenge-item").text_content().count(said(sent, "them")) == 1
    finally:
        close(visitor, page)


def test_without_a_share_sheet_compartir_copies_to_the_clipboard_or_shows_the_text(visitor, open_app, challenge):
    sent = summary(challenge["sender"])
    context, page = new_page(visitor, "Europe/Madrid", permissions=("clipboard-read", "clipboard-write"))
    try:
        page.add_init_script(NO_SHARE)
        put_in_storage(page, {MATCH_KEY: challenge["sender"]})
        open_app(page, settings=SETTINGS)
        page.locator(".panel.match").wait_for()
        assert page.evaluate("typeof navigator.share") == "undefined"
        button(page, "Compartir").click()
        status = page.locator(".share-status").get_by_role("status")
        status.wait_for()
        assert status.text_content() == "Copiado: pégalo en un mensaje a quien quieras retar."
        text, url = page.evaluate("navigator.clipboard.readText()").split("\n")
        assert text == share_line(sent, f"Partida {CHALLENGE_SEED} · Tradicional · Normal")
        assert urlsplit(url).fragment.startswith(f"seed={CHALLENGE_SEED}&rules=traditional&level=normal&reto=")
        # Where the page may not write the clipboard either, the text is there to copy by hand.
        page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new DOMException('no', 'NotAllowedError')); }")
        button(page, "Compartir").click()
        box = page.get_by_role("textbox", name="Texto para compartir")
        box.wait_for()
        assert box.input_value() == f"{text}\n{url}"
        assert page.locator(".share-status").get_by_role("status").text_content() == (
            "Este navegador no deja copiar desde la página: copia tú este texto y envíalo."
        )
        assert page.evaluate("document.activeElement.dataset.key") == "share-text"
        assert_readable(page, "share by hand")
        assert_accessible(page, "share by hand")
    finally:
        close(visitor, page)


# --- the match as text in the viewer -----------------------------------------------------------------


def gin_keys(page):
    return page.evaluate("() => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('gin.')).sort().map(k => [k, localStorage.getItem(k)]))")


def paste(page, text, by_keys=False):
    button(page, "Pegar una partida").click()
    dialog = page.get_by_role("dialog", name="Pegar una partida")
    dialog.wait_for()
    box = dialog.get_by_role("textbox", name="Texto de la partida")
    assert page.evaluate("document.activeElement.id") == "paste-text"
    if by_keys:
        page.keyboard.press("Control+V")
    else:
        box.fill(text)
    assert box.input_value() == text
    button(page, "Abrir en la repetición").click()
    return dialog


def test_a_finished_match_copied_from_the_viewer_and_pasted_back_opens_in_the_viewer(visitor, open_app, challenge):
    save = challenge["sender"]
    context, page = new_page(visitor, "Europe/Madrid", permissions=("clipboard-read", "clipboard-write"))
    try:
        put_in_storage(page, {MATCH_KEY: save})
        open_app(page, settings=SETTINGS)
        page.locator(".panel.match").wait_for()
        # The match as the page keeps it (loading it wrote down each deal's level).
        text = gin.Match.from_save(page.evaluate("window.ginApp.save")).to_text()
        assert "level normal" in text
        button(page, "Ver repetición").click()
        viewer = page.get_by_role("dialog", name=re.compile("^Repetición"))
        viewer.wait_for()
        copy = button(page, "Copiar la partida")
        page.wait_for_function("() => { const b = [...document.querySelectorAll('.viewer button')].find(b => b.textContent === 'Copiar la partida'); return b && !b.disabled; }")
        steps = page.locator(".viewer .viewer-step").text_content()
        copy.click()
        viewer.get_by_role("status").filter(has_text="Copiada").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == text
        assert_accessible(page, "viewer, copied")

        # A bad paste says which line and why, and changes nothing.
        before = gin_keys(page)
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if line.strip().startswith("2. s"))
        move = lines[at].split()[1]  # "s<card>": a card from the stock
        wrong = "sAS" if move.upper() != "SAS" else "sKD"
        lines[at] = lines[at].replace(move, wrong, 1)
        dialog = paste(page, "\n".join(lines))
        alert = dialog.get_by_role("alert")
        alert.wait_for()
        assert alert.text_content() == (
            f"No se puede abrir. Línea {at + 1} («{lines[at].strip()}»): no es lo que reparte o puntúa el juego con esa semilla."
        )
        assert page.evaluate("document.activeElement.id") == "paste-text"
        assert gin_keys(page) == before
        assert_readable(page, "bad paste")
        assert_accessible(page, "bad paste")
        shoot(page, "daily-paste-refused", DESKTOP)
        # A match not over yet is not one the viewer shows.
        half = gin.Match.from_save(cut(save, 40)).to_text()
        dialog.get_by_role("textbox", name="Texto de la partida").fill(half)
        button(page, "Abrir en la repetición").click()
        dialog.get_by_role("alert").filter(has_text="no ha terminado").wait_for()
        page.keyboard.press("Escape")
        assert page.get_by_role("dialog", name="Pegar una partida").count() == 0

        # The text copied, pasted back with the keyboard: the same match in the viewer.
        paste(page, text, by_keys=True)
        page.get_by_role("dialog", name="Pegar una partida").wait_for(state="detached")
        viewer = page.get_by_role("dialog", name=re.compile("^Repetición"))
        viewer.locator(".viewer-step").wait_for()
        assert page.locator(".sheet-overlay").count() == 1
        assert viewer.locator("h2").text_content() == f"Repetición · Semilla {CHALLENGE_SEED}"
        assert viewer.locator(".viewer-step").text_content() == steps
        page.keyboard.press("End")
        final = gin.Match.from_save(save).view(0)["final"]["totals"]
        assert viewer.locator(".viewer-final").text_content().endswith(f"Resultado final: Tú {final[0]} · Rival {final[1]}.")
        assert gin_keys(page) == before
        page.keyboard.press("Escape")
        assert page.locator(".sheet-overlay").count() == 0
    finally:
        close(visitor, page)


# --- the calendar, the day's record ------------------------------------------------------------------


@pytest.fixture(scope="module")
def todays():
    """The day's match of 3 December 2026 played to its end (Difícil at seat 1), and its save cut
    before the player's last turn."""
    match = gin.Match.new(seed="DIA-2026-12-03", rules=Rules.profile("traditional"))
    match.meta["level"] = "hard"
    while not match.over:
        view = match.view(match.to_act)
        action = least_deadwood(view) if match.to_act == 0 else gin.ai.choose(view, "hard")
        match.apply({**action, "seat": match.to_act})
    save = match.to_save()
    return {"save": save, "cut": cut(save, last_turns_start(save)), "summary": summary(save)}


def day_entry(day, totals, deals=5, gins=1, undercuts=0):
    return {"day": day, "at": 1_764_000_000_000, "totals": totals, "deals": deals, "gins": gins, "undercuts": undercuts}


def test_the_calendar_marks_each_day_and_the_days_record_is_kept_apart_from_free_play(visitor, open_app, todays):
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"), size=PHONE)
    free = play("FREE-0001", "traditional", "hard", least_deadwood, computer="easy")
    yesterday = play("DIA-2026-12-02", "traditional", "hard", least_deadwood, computer="easy")
    try:
        put_in_storage(page, {
            MATCH_KEY: todays["cut"],
            DAILY_KEY: {"days": [day_entry("2026-12-01", [130, 45]), day_entry("2026-11-30", [88, 121], gins=0, undercuts=1)], "older": None, "declined": None},
            "gin.open.v1": [{"seed": "DIA-2026-11-29", "at": 1_764_000_000_000, "save": cut(yesterday, 12) | {"seed": "DIA-2026-11-29"}}],
            "gin.finished.v1": [{"at": 1_764_000_000_000, "save": free}],
        })
        open_app(page, settings=SETTINGS)
        view = settle(page)
        assert view["seed"] == "DIA-2026-12-03" and view["level"] == "hard"
        assert page.locator(".topbar .profile").text_content() == "Partida del día"
        shoot(page, "daily-table", PHONE)
        play_out(page)
        done = todays["summary"]
        panel = page.locator(".panel.match")
        assert panel.locator(".daily-title").text_content() == "Partida del día · 3 de diciembre de 2026"
        assert button(page, "Compartir").count() == 1
        assert panel.get_by_role("button", name="Partida del día").count() == 0  # today's is this one, finished
        shoot(page, "daily-result", PHONE)
        kept = stored(page, DAILY_KEY)["days"]
        assert [d["day"] for d in kept] == ["2026-11-30", "2026-12-01", "2026-12-03"]
        assert {k: kept[-1][k] for k in done} == done
        button(page, "Ver la mesa").click()

        dialog = open_daily_sheet(page)
        today = dialog.locator(".daily-today")
        assert today.locator("h3").text_content() == "Hoy, jueves, 3 de diciembre de 2026"
        assert today.locator(".daily-status").text_content() == said(done, "you")
        assert button(page, "Jugar la de hoy otra vez").count() == 1
        labels = dict(dialog.locator(".days .day").evaluate_all("els => els.map(e => [e.dataset.day, e.getAttribute('aria-label')])"))
        marks = dict(dialog.locator(".days .day").evaluate_all("els => els.map(e => [e.dataset.day, e.querySelector('.day-mark').textContent])"))
        a, b = done["totals"]
        won = a > b
        assert labels["2026-12-03"] == (f"3 de diciembre de 2026: ganada, {a} a {b}" if won else f"3 de diciembre de 2026: perdida, {a} a {b}")
        assert labels["2026-12-01"] == "1 de diciembre de 2026: ganada, 130 a 45" and marks["2026-12-01"] == "✓"
        assert labels["2026-11-30"] == "30 de noviembre de 2026: perdida, 88 a 121" and marks["2026-11-30"] == "✗"
        assert labels["2026-11-29"] == "29 de noviembre de 2026: a medias" and marks["2026-11-29"] == "…"
        assert labels["2026-12-02"] == "2 de diciembre de 2026: sin jugar" and marks["2026-12-02"] == ""
        assert len(labels) == 30 and min(labels) == "2026-11-04"
        # The grid names no month: its heading (the list's name) says which days it spans.
        assert dialog.get_by_role("list", name="Últimos 30 días: del 4 de noviembre al 3 de diciembre").count() == 1
        assert_accessible(page, "calendar")
        look_at_every_size(page, "calendar", "daily-calendar")
        # The calendar is one Tab stop; the arrows go by day and by week, Home and End to its ends.
        assert dialog.locator('.day[tabindex="0"]').get_attribute("data-day") == "2026-12-03"
        dialog.locator('.day[tabindex="0"]').focus()
        focused = lambda: page.evaluate("document.activeElement.dataset.day")  # noqa: E731
        for key, day in (("ArrowLeft", "2026-12-02"), ("ArrowUp", "2026-11-25"), ("ArrowRight", "2026-11-26"), ("ArrowDown", "2026-12-03"), ("Home", "2026-11-04"), ("End", "2026-12-03"), ("ArrowUp", "2026-11-26"), ("ArrowLeft", "2026-11-25")):
            page.keyboard.press(key)
            assert focused() == day, key
            assert dialog.locator('.day[tabindex="0"]').get_attribute("data-day") == day
        page.keyboard.press("Enter")
        # A day not played: the match on the table is over, so it opens at once.
        page.wait_for_function("() => window.ginApp.view && window.ginApp.view.seed === 'DIA-2026-11-25'")
        view = settle(page)
        assert sorted(view["hand"]) == first_hand("DIA-2026-11-25") and view["level"] == "hard"

        # Estadísticas: the free match above, the days below.
        button(page, "Menú").click()
        button(page, "Estadísticas").click()
        stats = page.get_by_role("dialog", name="Estadísticas")
        stats.wait_for()
        main = stats.locator(".stats-list").first
        assert main.locator('[data-stat="matches"] dd').text_content() == "1"  # FREE-0001 only
        days = stats.locator(".daily-stats")
        shown = dict(days.locator(".stat").evaluate_all("els => els.map(e => [e.dataset.stat, e.querySelector('dd').textContent])"))
        assert shown["days"] == "3" and shown["won"] == str(1 + won) and shown["lost"] == str(2 - won)
        assert shown["gins"] == str(1 + 0 + done["gins"]) and shown["undercuts"] == str(0 + 1 + done["undercuts"])
        assert_readable(page, "statistics with the days")
        assert_accessible(page, "statistics with the days")
    finally:
        close(visitor, page)


def test_the_start_offers_the_days_match_once_a_day_and_never_over_a_match_begun(visitor, open_app, challenge):
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"), size=PHONE)
    try:
        # A finished match on the table: today's match is offered over it.
        put_in_storage(page, {MATCH_KEY: challenge["sender"]})
        open_app(page, settings=SETTINGS)
        # (Under the match result panel the table, the offer with it, is hidden from screen readers.)
        button(page, "Ver la mesa").click()
        bar = page.get_by_role("dialog", name=OFFER)
        bar.wait_for()
        assert bar.locator("p").text_content() == "Partida del día: hoy, las mismas cartas para todos, contra Difícil."
        shoot(page, "daily-offer", PHONE)
        assert_accessible(page, "the day's offer")
        # Its answer looks like the page's other primary buttons, not like "Ahora no".
        backgrounds = dict(bar.locator(".btn").evaluate_all("els => els.map(e => [e.textContent, getComputedStyle(e).backgroundColor])"))
        assert backgrounds["Jugarla"] != backgrounds["Ahora no"], backgrounds
        # "Ahora no": not again today, not even after a reload.
        button(page, "Ahora no").click()
        assert bar.count() == 0
        assert stored(page, DAILY_KEY)["declined"] == "2026-12-03"
        open_app(page, reload=True)
        settle(page)
        assert page.get_by_role("dialog", name=OFFER).count() == 0
        # The next day it is offered again, and "Jugarla" opens it (the match over needs no question).
        fix_clock(page, utc("2026-12-04T09:00:00"))
        open_app(page, reload=True)
        button(page, "Ver la mesa").click()
        page.get_by_role("dialog", name=OFFER).wait_for()
        button(page, "Jugarla").click()
        page.wait_for_function("() => window.ginApp.view && window.ginApp.view.seed === 'DIA-2026-12-04'")
        assert page.get_by_role("dialog", name=OFFER).count() == 0
    finally:
        close(visitor, page)


def test_the_days_offer_is_a_dialog_that_takes_the_focus_covers_no_control_and_goes_with_escape(visitor, open_app):
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"), size=PHONE)
    try:
        open_app(page, settings=SETTINGS)  # a new match, not begun: the offer comes over it
        offer = page.get_by_role("dialog", name=OFFER)
        offer.wait_for()
        settle(page)
        assert offer.get_attribute("aria-modal") is None  # the table stays playable beside it
        assert page.evaluate("document.activeElement.closest('[role=dialog]')?.dataset.key") == "daily-offer"
        assert page.evaluate("document.activeElement.textContent") == "Jugarla"
        for size in (PHONE, (844, 390), DESKTOP):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            shoot(page, "daily-offer-dialog", size)
            tall = page.evaluate("document.documentElement.scrollHeight")
            assert tall <= size[1], f"{size}: the page is {tall} px tall"
            hits = covered(page, "daily-offer")
            assert not hits, f"{size}: the offer covers {hits}"
        page.keyboard.press("Escape")  # "Ahora no"
        assert offer.count() == 0
        assert stored(page, DAILY_KEY)["declined"] == "2026-12-03"
        page.wait_for_function("() => document.activeElement && document.activeElement.dataset.key === 'menu'")
    finally:
        close(visitor, page)


def test_the_days_offer_goes_once_the_player_begins_the_match_on_the_table(visitor, open_app):
    # The offer is to play today's match instead of this one: once the player has made a move in
    # this one, it is moot and gives the felt back (it is not a "no": nothing is stored).
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"), size=PHONE)
    try:
        open_app(page, settings=SETTINGS)  # a new match, not begun: the offer comes over it
        offer = page.get_by_role("dialog", name=OFFER)
        offer.wait_for()
        view, _ = settled(page)
        assert view["to_act"] == 0, view["phase"]
        button(page, "Pasar" if view["phase"].startswith("upcard") else "Mazo").click()
        page.wait_for_function("() => (window.ginApp.view.events || []).some((e) => e.seat === 0)")
        settle(page)
        assert offer.count() == 0
        assert (stored(page, DAILY_KEY) or {}).get("declined") is None
    finally:
        close(visitor, page)


def test_the_days_offer_waits_for_another_visit_when_the_start_has_a_notice(visitor, open_app):
    # A setting that was not valid is reset and told: that notice needs the felt's room, the offer does not come.
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-05T10:00:00"), size=PHONE)
    try:
        put_in_storage(page, {"gin.settings.v1": {**SETTINGS, "speed": "ligero"}})
        open_app(page, settings=None)
        settle(page)
        assert page.evaluate("window.ginApp.notices") == ["settings.reset_one"]
        assert page.get_by_role("dialog", name=OFFER).count() == 0
    finally:
        close(visitor, page)


@pytest.mark.parametrize("moves", [0, 1])
def test_the_days_offer_never_comes_over_a_match_the_player_has_begun(visitor, open_app, challenge, moves):
    save = challenge["receiver"]
    match = gin.Match.from_save(cut(save, 0))
    n = 0
    while sum(1 for e in match.view(0)["events"] if e.get("seat") == 0) < moves:
        match.apply({**save["actions"][n], "seat": match.to_act})
        n += 1
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-05T10:00:00"))
    try:
        put_in_storage(page, {MATCH_KEY: cut(save, n)})
        open_app(page, settings=SETTINGS)
        settle(page)
        assert page.get_by_role("dialog", name=OFFER).count() == (0 if moves else 1)
    finally:
        close(visitor, page)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_days_link_opened_at_the_start_over_a_match_in_progress_asks_as_the_days(visitor, open_app, challenge, lang):
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-05T10:00:00"), size=PHONE)
    try:
        put_in_storage(page, {MATCH_KEY: cut(challenge["receiver"], 0)})
        current = challenge["receiver"]["seed"]
        open_app(page, hash="#seed=DIA-2026-12-03", settings={**SETTINGS, "lang": lang})
        question = page.get_by_role("dialog", name="Otra partida" if lang == "es" else "Another match")
        question.wait_for()
        text = question.text_content()
        if lang == "es":
            assert f"¿Abrir la partida del día (DIA-2026-12-03)?" in text and current in text, text
            assert "enlace" not in text, text
            button(page, "Abrir la del día").click()
        else:
            assert "Open the daily match (DIA-2026-12-03)?" in text and current in text, text
            assert "linked" not in text, text
            button(page, "Open the daily one").click()
        page.wait_for_function("() => window.ginApp.view && window.ginApp.view.seed === 'DIA-2026-12-03'")
    finally:
        close(visitor, page)


HOSTILE = ['{"days": ', "42", "null", '{"days": [{"day": "2026-02-30", "at": 1}], "older": 7}', "[" * 3000 + "]" * 3000,
           '[{"seed": "x y", "rules": "nope", "level": "hard", "at": 1}]']


def test_unreadable_days_or_challenges_are_kept_aside_and_never_stop_the_table(visitor, open_app):
    # Each value under both keys at once (one reload for the two; what is kept aside says under
    # which key it was, so each key answers for its own value). The first value is there before
    # the page's first load; each next one is written over the last, then the page reloaded.
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"))
    try:
        put_strings_in_storage(page, {DAILY_KEY: HOSTILE[0], CHALLENGES_KEY: HOSTILE[0]})
        for n, value in enumerate(HOSTILE):
            if n == 0:
                open_app(page, settings=SETTINGS)
            else:
                page.evaluate("([keys, v]) => { for (const k of keys) localStorage.setItem(k, v); localStorage.removeItem('gin.aside.v1'); }",
                              [[DAILY_KEY, CHALLENGES_KEY], value])
                open_app(page, reload=True)
            settle(page)
            dialog = open_daily_sheet(page)
            assert dialog.locator(".days .day").count() == 30, value[:40]
            page.keyboard.press("Escape")
            page.keyboard.press("Escape")
            aside = stored(page, ASIDE_KEY) or []
            for key in (DAILY_KEY, CHALLENGES_KEY):
                here = page.evaluate("(k) => localStorage.getItem(k)", key)
                kept = [s["raw"] for s in aside if s["key"] == key]
                assert here == value or value in kept, (key, value[:40])
    finally:
        close(visitor, page)


def test_the_days_and_the_challenges_travel_in_the_export_file(visitor, open_app, challenge, tmp_path):
    days = {"days": [day_entry("2026-12-01", [130, 45]), day_entry("2026-12-02", [60, 101], gins=0)], "older": None, "declined": None}
    received = [{"at": 1_764_000_000_000, "seed": CHALLENGE_SEED, "rules": "traditional", "level": "normal", "from": summary(challenge["sender"]), "mine": None}]
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"))
    try:
        put_in_storage(page, {DAILY_KEY: days, CHALLENGES_V1: received})  # as the builds before v2 kept them
        open_app(page, settings=SETTINGS)
        button(page, "Menú").click()
        button(page, "Estadísticas").click()
        with page.expect_download() as got:
            button(page, "Exportar").click()
        path = tmp_path / "export.json"
        got.value.save_as(path)
        data = json.loads(path.read_text())
        assert data["daily"]["days"] == days["days"] and data["challenges"] == received
    finally:
        close(visitor, page)
    # Another browser with a day of its own: the file's days and challenge are added, its own day stays.
    context, page = new_page(visitor, "Europe/Madrid", utc("2026-12-03T18:00:00"))
    try:
        own = day_entry("2026-12-02", [101, 20], gins=3)
        put_in_storage(page, {DAILY_KEY: {"days": [own], "older": None, "declined": None}})
        open_app(page, settings=SETTINGS)
        button(page, "Menú").click()
        button(page, "Estadísticas").click()
        page.locator(".panel.stats .file-input").set_input_files(str(path))
        status = page.locator(".data-status")
        status.filter(has_text="Importado").wait_for()
        assert "1 días de la partida del día y 1 retos nuevos." in status.text_content()
        kept = stored(page, DAILY_KEY)["days"]
        assert [d["day"] for d in kept] == ["2026-12-01", "2026-12-02"] and kept[1] == own
        assert stored(page, CHALLENGES_KEY) == {"version": 2, "challenges": received}
        # A file whose days are not what they should be is refused whole.
        bad = dict(data, daily={"days": [{"day": "2026-13-01"}]})
        path.write_text(json.dumps(bad))
        page.locator(".panel.stats .file-input").set_input_files(str(path))
        status.filter(has_text="No se ha importado nada.").wait_for()
        assert status.text_content() == "No se ha importado nada. Los resultados de la partida del día o los retos del archivo no son válidos."
    finally:
        close(visitor, page)


def test_in_english(visitor, open_app, challenge):
    sent = summary(challenge["sender"])
    context, page = new_page(visitor, "Europe/London", utc("2026-12-03T18:00:00"), size=PHONE)
    try:
        page.add_init_script(SHARE_STUB)
        put_in_storage(page, {MATCH_KEY: challenge["sender"], CHALLENGES_KEY: {"version": 2, "challenges": [
            {"at": 1_764_000_000_000, "seed": "DIA-2026-12-01", "rules": "traditional", "level": "hard", "from": sent, "mine": None}]}})
        open_app(page, settings={**SETTINGS, "lang": "en"})
        page.locator(".panel.match").wait_for()
        page.get_by_role("button", name="Share", exact=True).click()
        page.wait_for_function("() => window.__shared !== undefined")
        a, b = sent["totals"]
        assert page.evaluate("window.__shared.text") == (
            f"Gin Rummy · Match {CHALLENGE_SEED} · Traditional · Normal: I won {a} to {b} in {sent['deals']} deals, "
            f"with {sent['gins']} gin{'s' if sent['gins'] != 1 else ''} and {sent['undercuts']} undercut{'s' if sent['undercuts'] != 1 else ''}. "
            "Can you beat it with the same cards?"
        )
        assert_readable(page, "match result in English")
        page.get_by_role("button", name="See the table").click()
        page.get_by_role("button", name="Menu", exact=True).click()
        page.get_by_role("button", name="Daily match").click()
        dialog = page.get_by_role("dialog", name="Daily match")
        dialog.wait_for()
        assert dialog.locator(".daily-today h3").text_content() == "Today, Thursday, 3 December 2026"
        assert dialog.locator(".challenge-item .game-outcome").text_content() == "Daily match of 1 December 2026 · Play"
        assert dialog.locator('.day[data-day="2026-12-02"]').get_attribute("aria-label") == "2 December 2026: not played"
        assert dialog.locator("#daily-calendar-title").text_content() == "Last 30 days: 4 November to 3 December"
        assert_readable(page, "calendar in English")
        button(page, "Back to the menu").click()
        page.get_by_role("button", name="Matches").click()
        page.get_by_role("button", name="Paste a match").click()
        page.get_by_role("dialog", name="Paste a match").get_by_role("textbox", name="The match's text").fill("[Format \"gin-text\"]")
        page.get_by_role("button", name="Open in the replay").click()
        alert = page.get_by_role("dialog", name="Paste a match").get_by_role("alert")
        alert.wait_for()
        assert alert.text_content().startswith("It cannot be opened")
        assert_readable(page, "paste in English")
    finally:
        close(visitor, page)
