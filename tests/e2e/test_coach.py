"""Entrenador (issue 24): the coach's note during play, read on the screen.

One phone page plays deal 1 of a seed badly (it keeps its high cards and
throws its lowest loose card, as a beginner does) with the coach on, beside a
twin of the same match in CPython (gin.bridge, the same engine): after each
decision the page shows a note exactly when the twin's coach gives one whose
advice was not given yet in the deal, naming the twin's better move in words;
never a dialog, never in the way of the next move; readable in both
languages; dismissed, and turned off, from the note itself. A move that
follows Difícil's own hint gets none. Nothing here is about a first visit: the
pages are the worker's returning visitor's (`page`, `phone`: tests/e2e/conftest.py).
"""

from __future__ import annotations

import json

from conftest import SETTINGS_KEY, assert_readable
from test_table import button, settle, shoot

from gin import bridge
from gin.cards import Card

SEED = "COACH-0000"
COACH_ON = {"speed": "instant", "level": "normal", "coach": True}
PHONE = {"width": 390, "height": 844}
RANKS_ES = {"A": "as", "J": "jota", "Q": "reina", "K": "rey", "T": "10"}
SUITS_ES = {"C": "tréboles", "D": "diamantes", "H": "corazones", "S": "picas"}
RANKS_EN = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "T": "10"}
SUITS_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def the_card_es(card: str) -> str:
    article = "la" if card[0] in "JQ" else "el"
    return f"{article} {RANKS_ES.get(card[0], card[0])} de {SUITS_ES[card[1]]}"


def the_card_en(card: str) -> str:
    return f"the {RANKS_EN.get(card[0], card[0])} of {SUITS_EN[card[1]]}"


def better_es(action: dict) -> str:
    """What the note's first sentence says Difícil would play."""
    kind = action["type"]
    if kind == "discard":
        return f"Mejor descarta {the_card_es(action['card'])}"
    if kind == "knock":
        return f"Mejor cierra descartando {the_card_es(action['card'])}"
    if kind == "draw":
        return "Mejor roba del descarte" if action["from"] == "discard" else "Mejor roba del mazo"
    return {"take": "Mejor toma la carta descubierta", "pass": "Mejor pasa"}[kind]


def beginner(view: dict) -> dict:
    """Pass the upcard, draw from the stock, throw the lowest loose card (keep the high ones)."""
    kinds = {a["type"] for a in view["legal"]}
    if "pass" in kinds:
        return {"type": "pass"}
    if view["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    melded = {c for m in view["arrangement"]["melds"] for c in m}
    cards = [a["card"] for a in view["legal"] if a["type"] == "discard"]
    loose = [c for c in cards if c not in melded] or cards
    return {"type": "discard", "card": min(loose, key=lambda c: (Card.parse(c).points, c))}


def call(fn, **params):
    result = json.loads(fn(json.dumps(params)))
    assert result["ok"], result
    return result


class Twin:
    """The same match in CPython: the player's moves, then the computer's."""

    def __init__(self, seed: str) -> None:
        self.view = call(bridge.new_match, seed=seed, level="normal")["view"]
        self._computer()

    def _computer(self) -> None:
        while not self.view["over"] and self.view["to_act"] == 1:
            self.view = call(bridge.computer_step)["view"]

    def act(self, action: dict) -> dict | None:
        result = call(bridge.act, action=action, coach=True)
        note = call(bridge.coach, index=result["coach_index"])["note"]
        self.view = result["view"]
        self._computer()
        return note


def play_on_page(page, action: dict) -> None:
    kind = action["type"]
    if kind in ("pass", "take"):
        button(page, "Pasar" if kind == "pass" else "Tomar").click()
    elif kind == "draw":
        button(page, "Mazo" if action["from"] == "stock" else "Descarte").click()
    else:
        card = page.locator(f'.hand [data-card="{action["card"]}"]')
        card.click(position={"x": 8, "y": 20})  # on its strip: the next card covers the rest
        card.click(position={"x": 8, "y": 20})


def next_deal(page) -> bool:
    """A deal ended: close its result (the twin has dealt the next one already)."""
    if page.evaluate("window.ginApp.ui.panel") != "deal":
        return False
    button(page, "Siguiente").click()
    return True


def notes(page):
    return page.get_by_role("status", name="Entrenador")


def test_the_coach_speaks_once_per_advice_names_the_better_move_and_gets_out_of_the_way(phone, open_app):
    page = phone
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=COACH_ON)
    view = settle(page)
    twin = Twin(SEED)
    given: set[str] = set()  # the advice given in the deal under way
    shown = suppressed = 0
    for _ in range(120):
        if view["over"] or shown == 3:
            break
        if next_deal(page):
            view = settle(page)
            given = set()
            continue
        assert view["hand"] == twin.view["hand"] and view["discard"] == twin.view["discard"]
        action = beginner(view)
        note = twin.act(action)
        was_showing = notes(page).count()
        play_on_page(page, action)  # with a note on the screen or not: it never blocks a move
        view = settle(page)
        if was_showing:
            assert view["hand"] == twin.view["hand"], "the move made while a note showed did not happen"
        expected = note is not None and note["advice"] not in given
        suppressed += note is not None and not expected
        if not expected:
            assert notes(page).count() == 0, (action, note)
            continue
        given.add(note["advice"])
        shown += 1
        assert notes(page).count() == 1
        box = notes(page)
        text = box.inner_text()
        assert better_es(note["better"]) in text, (text, note)
        assert "según Difícil, tu jugada te cuesta unos" in text
        assert page.locator('[role=dialog]:not([data-key="daily-offer"])').count() == 0  # a note, not a panel (the day's offer may be there)
        assert page.locator(".page[inert], .page[aria-hidden]").count() == 0
        if shown == 1:
            assert "Consejo:" in text
            assert_readable(page, "coach note (es)")
            shoot(page, "coach-note", (PHONE["width"], PHONE["height"]))
            page.set_viewport_size({"width": 844, "height": 390})
            shoot(page, "coach-note", (844, 390))
            page.set_viewport_size(PHONE)
            button(page, "Menú").click()
            page.select_option("#menu-lang", "en")
            button(page, "Back to the table").click()
            english = page.get_by_role("status", name="Coach").inner_text()
            if note["better"]["type"] == "discard":
                assert f"Better: discard {the_card_en(note['better']['card'])}." in english, english
            assert "Tip:" in english and "By Hard's estimate" in english
            assert_readable(page, "coach note (en)")
            button(page, "Menu").click()
            page.select_option("#menu-lang", "es")
            button(page, "Volver a la mesa").click()
            assert notes(page).count() == 1
        elif shown == 2:
            button(page, "Entendido").click()
            assert notes(page).count() == 0
            assert page.evaluate("document.activeElement.closest('.hand, .topbar') !== null")
        else:
            button(page, "Apagar el Entrenador").click()
            assert notes(page).count() == 0
            assert page.evaluate("window.ginApp.settings.coach") is False
            stored = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(SETTINGS_KEY)})"))
            assert stored["coach"] is False
    assert shown == 3 and suppressed >= 1, (shown, suppressed)

    # Off: a mistake with advice not given yet says nothing.
    silent = 0
    for _ in range(60):
        if view["over"] or silent:
            break
        if next_deal(page):
            view = settle(page)
            given = set()
            continue
        action = beginner(view)
        note = twin.act(action)
        play_on_page(page, action)
        view = settle(page)
        assert notes(page).count() == 0
        silent += note is not None and note["advice"] not in given
    button(page, "Menú").click()
    assert page.get_by_label("Entrenador: consejos mientras juegas").is_checked() is False
    page.get_by_label("Entrenador: consejos mientras juegas").check()
    button(page, "Volver a la mesa").click()
    assert page.evaluate("window.ginApp.settings.coach") is True

    # On again: Difícil's own move (the hint, followed) gets no note.
    for _ in range(2):
        if next_deal(page):
            view = settle(page)
        if view["over"]:
            break
        button(page, "Pista").click()
        settle(page)
        target = page.evaluate("window.ginApp.ui.hintTarget")
        if target in ("knock", "gin", "big_gin"):
            break
        clicks = {"take": "Tomar", "pass": "Pasar", "stock": "Mazo", "discard": "Descarte"}
        if target in clicks:
            button(page, clicks[target]).click()
        else:
            button(page, "Descartar").click()  # the hint selected its card
        view = settle(page)
        assert notes(page).count() == 0, target


def test_the_note_on_a_desktop_and_the_deal_summary_opening_the_replay_at_its_step(page, open_app):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=COACH_ON)
    view = settle(page)
    for _ in range(6):
        if notes(page).count():
            break
        play_on_page(page, beginner(view))
        view = settle(page)
    assert notes(page).count() == 1
    assert_readable(page, "coach note, desktop")
    shoot(page, "coach-note", (1280, 800))

    # The rest of deal 1 the same way, to its result.
    for _ in range(60):
        if page.evaluate("window.ginApp.ui.panel") == "deal":
            break
        play_on_page(page, beginner(view))
        view = settle(page)
    panel = page.get_by_role("dialog", name="Mano 1", exact=False)
    summary = panel.locator(".coach-summary")
    summary.get_by_role("heading", name="Entrenador: lo que más te costó en esta mano").wait_for()
    page.wait_for_function("() => !document.querySelector('.coach-summary [role=status]')")
    items = summary.locator("li")
    assert 1 <= items.count() <= 3
    costs = [float(c) for c in items.evaluate_all("els => els.map(e => e.dataset.cost)")]
    assert costs == sorted(costs, reverse=True) and costs[-1] >= 1
    # Difícil's review of deal 1 in CPython, from the same save: the same costliest decisions.
    save = page.evaluate("window.ginApp.save")
    review = call(bridge.review, save=save, deals=[1, 1])
    top = sorted((d for d in review["differing"] if d["cost"] is not None and d["cost"] >= 1), key=lambda d: (-d["cost"], d["step"]))[:3]
    assert [int(x) for x in items.evaluate_all("els => els.map(e => e.dataset.step)")] == [d["step"] for d in top]
    first = items.first.inner_text()
    played = top[0]["human"]
    if played["type"] == "discard":
        assert f"Descartaste {the_card_es(played['card'])}; {better_es(top[0]['hard']).replace('Mejor', 'mejor:')}" in first, first
    assert_readable(page, "deal summary")
    shoot(page, "coach-summary", (1280, 800))

    # Each opens the replay viewer at that step, mid-match; closing it comes back here.
    watch = items.first.get_by_role("button", name="Verlo en la repetición", exact=False)
    watch.click()
    viewer = page.get_by_role("dialog", name="Repetición", exact=False)
    viewer.locator(".viewer-action").wait_for()
    if played["type"] == "discard":
        assert viewer.locator(".viewer-action").inner_text() == f"Descartas {the_card_es(played['card'])}."
    assert viewer.locator(".viewer-deal").inner_text() == "Mano 1"
    assert page.evaluate("window.ginApp.view.over") is False
    shoot(page, "coach-summary-viewer", (1280, 800))
    viewer.get_by_role("button", name="Salir de la repetición").click()
    assert page.evaluate("document.activeElement.dataset.key") == f"coach-watch:{top[0]['step']}"
    button(page, "Siguiente").click()
    view = settle(page)
    assert view["deal_number"] == 2 and page.evaluate("window.ginApp.ui.panel") is None

    # Estadísticas: the coach's chart has this match, with deal 1's notes by kind.
    expected = notes_by_kind(save, deal=1)
    assert sum(expected.values()) >= 2
    button(page, "Menú").click()
    button(page, "Estadísticas").click()
    chart = page.locator(".coach-chart")
    chart.get_by_role("heading", name="Entrenador: errores por mano").wait_for()
    bar = chart.locator(f'g[data-seed="{SEED}"]')
    assert bar.get_attribute("data-deals") == "1"
    drawn = dict(bar.locator("rect").evaluate_all("els => els.map(e => [e.dataset.kind, Number(e.dataset.count)])"))
    assert drawn == {k: v for k, v in expected.items() if v}, (drawn, expected)
    label = chart.get_by_role("img").get_attribute("aria-label")
    total = sum(expected.values())
    assert label == f"Errores por mano en tu última partida con el Entrenador: partida 1, {total}.", label
    assert_readable(page, "coach chart")
    shoot(page, "coach-chart", (1280, 800))
    button(page, "Borrar").click()
    button(page, "Sí, borrar").click()
    assert chart.get_attribute("data-matches") == "0"
    assert page.evaluate("localStorage.getItem('gin.coach.v1')") is None


def notes_by_kind(save: dict, deal: int) -> dict:
    """The coach's notes on the player's decisions of one deal of a save, by kind (CPython)."""
    from gin import coach
    from gin.match import Match

    m = Match(seed=save["seed"], rules=Match.from_save(save).rules)
    counts = {"upcard": 0, "draw": 0, "discard": 0, "knock": 0}
    for action in save["actions"]:
        if m.deal_number > deal:
            break
        if m.to_act == 0 and m.deal_number == deal:
            note = coach.note(m.view(0), action)
            if note:
                counts[note["kind"]] += 1
        m.apply(action)
    return counts
