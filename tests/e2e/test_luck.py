"""Difícil with your cards (issue 32, the page side), read on the screen.

A match whose deal 1 has just ended (played in CPython, its result not closed
yet) opens on the deal result; Difícil plays the same deal again on an extra
engine worker (never on the page's engine) and the panel shows both lines,
with exactly the points and endings of the engine's `duplicate` computed here
in CPython from the same save, at 390×844 and 1280×800, in both languages.
That is a returning visitor's page (`page`: tests/e2e/conftest.py), whose
snapshot is cached; a first visit, with none cached yet, starts no extra engine
and the result is there as always (the one test here on a fresh context).
"""

from __future__ import annotations

import json
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from conftest import SETTINGS_KEY, assert_readable
from test_table import button, settle, shoot
from test_history import FINISHED_KEY, least_deadwood, play
from test_table_more import ACK_KEY, MATCH_KEY, put_in_storage

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import gin  # noqa: E402
from gin import bridge  # noqa: E402
from gin import fairness  # noqa: E402

SEED = "LUCK-0002"
# The finished match of Comprobar and Estadísticas: 4 deals and 38 decisions of the computer's
# (least_deadwood against Normal), more than the 20 asked and than the first part checked (8), so
# the bar moves before the end; its interval has no half to round.
DONE = "LUCK-DONE-131"
PHONE = (390, 844)
DESKTOP = (1280, 800)
ENDS = {
    "es": {"won_knock": "cierre", "won_gin": "gin", "won_big_gin": "gin grande", "won_undercut": "undercut",
           "lost_knock": "mano perdida", "lost_gin": "gin del rival", "lost_big_gin": "gin grande del rival",
           "lost_undercut": "undercut en contra", "void": "mano nula"},
    "en": {"won_knock": "knock", "won_gin": "gin", "won_big_gin": "big gin", "won_undercut": "undercut",
           "lost_knock": "deal lost", "lost_gin": "computer's gin", "lost_big_gin": "computer's big gin",
           "lost_undercut": "undercut against you", "void": "void deal"},
}


def call(fn, **params):
    result = json.loads(fn(json.dumps(params)))
    assert result["ok"], result
    return result


def deal_one_ended() -> dict:
    """A save of SEED (least_deadwood against Normal) just after deal 1 ended."""
    view = call(bridge.new_match, seed=SEED, level="normal")["view"]
    while not view["history"]:
        if view["to_act"] == 0:
            view = call(bridge.act, action=least_deadwood(view))["view"]
        else:
            view = call(bridge.computer_step)["view"]
    return call(bridge.save)["save"]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def ending(result: dict) -> str:
    if result["kind"] == "void" or result["winner"] is None:
        return "void"
    return f"{'won' if result['winner'] == 0 else 'lost'}_{result['kind']}"


def expected_line(lang: str, dup: dict) -> str:
    you = f"{signed(dup['points']['player'])} ({ENDS[lang][ending(dup['played'])]})"
    hard = f"{signed(dup['points']['hard'])} ({ENDS[lang][ending(dup['replayed'])]})"
    if lang == "es":
        return f"Tú: {you} · Difícil con tus cartas: {hard}"
    return f"You: {you} · Hard with your cards: {hard}"


TO_ENGLISH = "(k) => { const s = JSON.parse(localStorage.getItem(k)); s.lang = 'en'; localStorage.setItem(k, JSON.stringify(s)); }"

# Records, while Comprobar runs, what its section said and whether its bar moved.
WATCH_CHECK = """() => {
    window.__checkSeen = {texts: [], bar: 0};
    new MutationObserver(() => {
        const s = document.querySelector('.verify-status');
        const bar = document.querySelector('.verify-progress');
        if (s && !window.__checkSeen.texts.includes(s.textContent)) window.__checkSeen.texts.push(s.textContent);
        if (bar) window.__checkSeen.bar = Math.max(window.__checkSeen.bar, Number(bar.value));
    }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


DUPLICATE_KEY = "gin.duplicate.v1"


def kept(record: dict) -> dict:
    """A record as the page keeps it (data/duplicates.js)."""
    return {"id": f"{record['seed']}:{record['deal']}:{record['actions']}", "seed": record["seed"], "deal": record["deal"],
            "actions": record["actions"], "match": record["match"], "level": record["level"],
            "profile": record["profile"], "player": record["player"], "hard": record["hard"]}


def es_signed(x: float) -> str:
    """A mean as the Spanish page writes it: one decimal at most, a comma, a true minus."""
    text = str(Decimal(str(abs(x))).quantize(Decimal("0.1"), ROUND_HALF_UP)).removesuffix(".0").replace(".", ",")
    return f"+{text}" if x > 0 else f"\u2212{text}" if x < 0 else text


def deal_result_stored(page, save: dict, more: dict | None = None) -> None:
    """The page opens on deal 1's result of `save`, not closed yet, at 390×844 (`more`: other keys to store)."""
    put_in_storage(page, {MATCH_KEY: save, ACK_KEY: {"seed": SEED, "deal": 0}, **(more or {})})
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")


@pytest.mark.first_visit
def test_on_a_first_visit_the_deal_result_opens_and_closes_as_always_with_no_snapshot_cached(page, open_app):
    deal_result_stored(page, deal_one_ended())
    open_app(page, hash=f"#seed={SEED}", settings={"speed": "instant", "level": "normal"})
    settle(page)
    # A first visit: no snapshot cached yet, so no extra engine can start: no line, no error
    # (an error fails the test: tests/e2e/conftest.py), and the result is there to close as always.
    assert page.evaluate("window.ginApp.ui.panel") == "deal"
    button(page, "Siguiente").click()
    view = settle(page)
    assert view["deal_number"] == 2 and page.evaluate("window.ginApp.ui.panel") is None


def test_hard_with_your_cards_comprobar_and_your_play_without_the_luck(page, open_app):
    save = deal_one_ended()
    dup = call(bridge.duplicate, save=save, deal=1)
    done = play(DONE, "traditional", "normal", least_deadwood, computer="normal")
    verdict = fairness.verify(done)
    assert verdict["same"] == verdict["decisions"] > 20
    # Difícil with your cards on every deal of the finished match, as an earlier page kept them.
    deals = len(gin.Match.from_save(done).results)
    earlier = [kept(call(bridge.duplicate, save=done, deal=n)["record"]) for n in range(1, deals + 1)]
    deal_result_stored(page, save, {FINISHED_KEY: [{"at": 1_700_000_000_000, "save": done}],
                                    DUPLICATE_KEY: {"version": 1, "records": earlier, "totals": None}})
    # A returning visitor's page: the extra engine boots from the cached snapshot.
    open_app(page, hash=f"#seed={SEED}", settings={"speed": "instant", "level": "normal"})
    settle(page)
    panel = page.get_by_role("dialog", name="Mano 1", exact=False)
    panel.wait_for()
    page.wait_for_selector(".panel.deal .duplicate:not(.pending)", timeout=30_000)
    line = panel.locator(".duplicate")
    assert line.inner_text() == expected_line("es", dup)
    assert [int(line.get_attribute(f"data-{k}")) for k in ("player", "hard", "difference")] == [
        dup["points"]["player"], dup["points"]["hard"], dup["points"]["difference"]]
    # Played on a worker of its own beside the page's engine, which stays free for the player.
    assert len(page.workers) == 2
    # Kept for Estadísticas: the engine's record.
    page.wait_for_function("(k) => JSON.parse(localStorage.getItem(k)).records.length > %d" % len(earlier), arg=DUPLICATE_KEY)
    stored = json.loads(page.evaluate("(k) => localStorage.getItem(k)", DUPLICATE_KEY))
    assert stored["records"] == earlier + [kept(dup["record"])]
    for lang, size in (("es", PHONE), ("es", DESKTOP), ("en", DESKTOP), ("en", PHONE)):
        if lang == "en" and page.evaluate("document.documentElement.lang") != "en":
            # The menu waits behind the result: English by the settings, and the page reloaded on
            # the same result, which Difícil plays again.
            page.evaluate(TO_ENGLISH, SETTINGS_KEY)
            open_app(page, reload=True)
            page.wait_for_selector(".panel.deal .duplicate:not(.pending)", timeout=30_000)
            line = page.get_by_role("dialog", name="Deal 1", exact=False).locator(".duplicate")
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert line.inner_text() == expected_line(lang, dup)
        assert line.is_visible()
        assert_readable(page, f"duplicate line {lang} {size}")
        shoot(page, f"luck-deal-{lang}", size)
    # Once, though the reload into English asked for it again.
    assert json.loads(page.evaluate("(k) => localStorage.getItem(k)", DUPLICATE_KEY)) == stored
    # Closing the result plays on as always.
    button(page, "Next").click()
    view = settle(page)
    assert view["deal_number"] == 2 and page.evaluate("window.ginApp.ui.panel") is None

    # Comprobar, in the replay of a finished match (in Spanish again): a bar that moves, then N de N.
    button(page, "Menu").click()
    page.select_option("#menu-lang", "es")
    button(page, "Partidas").click()
    games = page.get_by_role("dialog", name="Partidas")
    games.get_by_role("listitem").nth(0).get_by_role("button").click()
    viewer = page.get_by_role("dialog", name=f"Repetición · Semilla {DONE}")
    viewer.wait_for()
    section = viewer.locator(".verify")
    page.evaluate(WATCH_CHECK)
    section.get_by_role("button", name="Comprobar").click()
    page.wait_for_selector(".verify[data-same]", timeout=60_000)
    n, total = verdict["same"], verdict["decisions"]
    assert section.locator(".verify-verdict").inner_text() == (
        f"{n} de {total} decisiones iguales: el ordenador solo vio sus cartas y las públicas.")
    assert section.get_attribute("data-worlds") == str(verdict["worlds"])
    seen = page.evaluate("window.__checkSeen")
    assert 0 < seen["bar"] < total, seen  # the bar moved before the end
    assert any(f" de {total}" in text for text in seen["texts"]), seen
    section.scroll_into_view_if_needed()
    assert_readable(page, "Comprobar")
    shoot(page, "luck-verify-es", PHONE)

    # Estadísticas: the engine's mean difference per deal and 95 % interval over what is kept,
    # and a bar per match.
    viewer.get_by_role("button", name="Salir de la repetición").click()
    page.keyboard.press("Escape")
    button(page, "Estadísticas").click()
    luck = page.locator(".luck-stats")
    luck.get_by_role("heading", name="Tu juego sin la suerte").wait_for()
    page.wait_for_selector(".luck-stats[data-deals]")
    figures = call(bridge.duplicate_stats, records=stored["records"], matches=10)
    everything = figures["all"]
    assert everything["deals"] == len(stored["records"]) and everything["interval"]
    low, high = everything["interval"]
    assert luck.locator(".luck-figure").inner_text() == (
        f"{es_signed(everything['difference'])} puntos por mano frente a Difícil con tus cartas, en {everything['deals']} manos. "
        f"Intervalo del 95 %: de {es_signed(low)} a {es_signed(high)}.")
    bars = luck.locator("svg g")
    assert bars.evaluate_all("gs => gs.map(g => [g.dataset.match, Number(g.dataset.deals)])") == [
        [m["match"], m["deals"]] for m in figures["matches"]] == [[DONE, len(earlier)], [SEED, 1]]
    assert_readable(page, "luck in Estadísticas")
    luck.scroll_into_view_if_needed()
    shoot(page, "luck-stats-es", PHONE)
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    shoot(page, "luck-stats-es", DESKTOP)
    # Borrar takes it with the rest.
    button(page, "Borrar").click()
    button(page, "Sí, borrar").click()
    page.wait_for_selector(".luck-stats[data-deals='0']")
    assert page.evaluate("(k) => localStorage.getItem(k)", DUPLICATE_KEY) is None

    # The rules page says what the computer can and cannot see, and how to check it.
    button(page, "Volver al menú").click()
    button(page, "Cómo se juega").click()
    fair = page.locator(".help-section").filter(has=page.get_by_role("heading", name="¿Hace trampas el ordenador?"))
    text = fair.inner_text()
    assert "nunca con tus otras cartas, el orden del mazo ni la semilla" in text and "Comprobar vuelve a preguntarle" in text
    fair.scroll_into_view_if_needed()
    shoot(page, "luck-rules-es", DESKTOP)
