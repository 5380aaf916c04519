"""What a new player trips over (issue 12): the rules page, a gin lost by one tap, restarts that
ask, a reload that keeps the screen, wording in both languages, keyboard, screen reader, the mark
on the card just drawn. Each test reads what the player sees: text, focus, dialogs."""

from __future__ import annotations

import json
import time

from conftest import assert_readable, boot_then_failure
from test_table import PORTRAIT, SEED, button, settle, setup, shoot, ui
from test_table_more import ACK_KEY, MATCH_KEY, put_in_storage, reload, saved
from test_luck import bridge, call, least_deadwood

NORMAL = {"speed": "instant", "level": "normal"}


def to_discard(page, view):
    """Pass the upcard and draw from the stock until it is the player's discard."""
    for _ in range(6):
        if view["phase"] == "discard" and view["to_act"] == 0:
            return view
        if view["phase"].startswith("upcard"):
            button(page, "Pasar").click()
        else:
            button(page, "Mazo").click()
        view = settle(page)
    raise AssertionError(view["phase"])


# --- 1. the rules page ------------------------------------------------------------------------


def test_rules_page_is_a_guide_with_this_matchs_numbers(page, open_app):
    view = setup(page, open_app, PORTRAIT, settings={"speed": "instant", "profile": "standard"})
    assert view["rules"]["profile"] == "standard"
    button(page, "Menú").click()
    button(page, "Cómo se juega").click()
    panel = page.get_by_role("dialog", name="Cómo se juega")
    text = panel.inner_text()
    assert "[object" not in text
    for heading in ("Reparto", "Tu turno", "Combinaciones", "Cerrar y Gin", "Añadir", "Undercut", "Puntos (Estándar)", "Teclado"):
        assert panel.get_by_role("heading", name=heading, exact=True).count() == 1, heading
    # Standard rules: gin 25, undercut 25, 25 a deal won, shutout doubles.
    assert "Gin: 25 más las sueltas del rival. Undercut: la diferencia más 25." in text
    assert "bono de partida de 100 y 25 por cada mano ganada" in text
    assert "se doblan los puntos de mano del ganador" in text
    for key in ("M: robar del mazo", "D: robar del descarte", "T: tomar la carta descubierta", "P: pasar",
                "C: cerrar", "G: Gin", "H: pista", "N: siguiente mano"):
        assert key in text, key
    assert_readable(page, "rules page")
    shoot(page, "rules-es", PORTRAIT)
    button(page, "Volver al menú").click()
    page.select_option("#menu-lang", "en")
    button(page, "How to play").click()
    text = page.get_by_role("dialog", name="How to play").inner_text()
    assert "Gin: 25 plus the computer's deadwood. Undercut: the difference plus 25." in text
    assert "S: draw from the stock" in text and "Scoring (Standard)" in text
    for key in ("P: draw from the discard pile", "T: take the upcard", "X: pass", "K: knock", "H: hint", "N: next deal"):
        assert key in text, key
    assert_readable(page, "English rules page")


# --- 2. a gin is not lost by one tap ----------------------------------------------------------


def open_gin_panel(page, open_app):
    """BIGG-0009 at its discard: 2C-5C, 3H-6H, 9D 9H 9S (custom rules, gin bonus 20)."""
    put_in_storage(page, {MATCH_KEY: saved("big-gin-BIGG-0009.json")})
    view = setup(page, open_app, PORTRAIT, seed="BIGG-0009")
    assert view["phase"] == "discard" and view["rules"]["gin_bonus"] == 20
    button(page, "Gin").click()
    panel = page.get_by_role("dialog")
    assert panel.get_by_role("heading", level=2).inner_text() == "Gin"
    assert panel.get_by_role("alert").count() == 0
    assert button(page, "Volver a la propuesta").count() == 0  # nothing to go back to yet
    return panel


def test_knock_panel_says_what_an_edit_loses_and_a_reload_keeps_it(page, open_app):
    """The edit that loses the gin is said, and undone by "Volver a la propuesta"; made again, the
    panel and its edit survive a reload (section 4), a draft no longer legal does not."""
    panel = open_gin_panel(page, open_app)
    panel.get_by_role("button", name="2 de tréboles").click()
    assert panel.get_by_role("heading", level=2).inner_text() == "Cerrar"
    assert panel.get_by_role("alert").inner_text() == (
        "Así ya no es Gin: pierdes el bono de Gin (20 puntos) y te quedas con 2 puntos sueltos."
    )
    assert_readable(page, "knock panel, gin lost")
    shoot(page, "knock-gin-lost", PORTRAIT)
    button(page, "Volver a la propuesta").click()
    assert panel.get_by_role("heading", level=2).inner_text() == "Gin"
    assert panel.get_by_role("alert").count() == 0
    reload_keeps_the_knock_panel_and_its_edits(page, open_app, panel)


# --- 3. "Repetir" asks in the middle of a match ------------------------------------------------


def test_replay_asks_mid_match(page, open_app):
    view = to_discard(page, setup(page, open_app, PORTRAIT, settings=NORMAL))
    card = view["hand"][0]
    page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
    before = settle(page)
    assert before["events"]
    button(page, "Menú").click()
    button(page, "Repetir").click()
    dialog = page.get_by_role("dialog", name="Repetir")
    assert f"¿Volver a empezar esta partida desde la primera mano (semilla {SEED})? Lo jugado se perderá." in dialog.inner_text()
    assert_readable(page, "replay confirmation")
    button(page, "Cancelar").click()
    assert settle(page) == before
    button(page, "Menú").click()
    button(page, "Repetir").click()
    button(page, "Empezar").click()
    fresh = settle(page)
    assert fresh["seed"] == SEED and fresh["history"] == [] and fresh["deal_number"] == 1
    assert len(fresh["events"]) < len(before["events"])


# --- 4. a reload keeps the screen --------------------------------------------------------------


def test_reload_keeps_the_selection(page, open_app):
    view = to_discard(page, setup(page, open_app, PORTRAIT, settings=NORMAL))
    card = view["hand"][-1]
    page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    prompt = page.locator(".messages").inner_text()
    shown = page.locator(".hand-info").inner_text()
    reload(page, open_app)
    assert page.locator(f'.hand [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    assert page.locator(".messages").inner_text() == prompt
    assert page.locator(".hand-info").inner_text() == shown
    assert page.evaluate("document.activeElement.dataset.card") == card


def reload_keeps_the_knock_panel_and_its_edits(page, open_app, panel):
    """On the gin panel of open_gin_panel (test_knock_panel_says_what_an_edit_loses_and_a_reload_keeps_it)."""
    panel.get_by_role("button", name="2 de tréboles").click()
    shown = panel.inner_text()
    reload(page, open_app)
    panel = page.get_by_role("dialog")
    assert panel.inner_text() == shown
    assert page.evaluate("document.activeElement.textContent") == "Confirmar"
    # A kept draft that is no longer legal for the position is dropped, never half-loaded.
    page.evaluate(
        "([k]) => { const v = JSON.parse(localStorage.getItem(k)); v.knock.melds = [['2C','3C','9S']]; localStorage.setItem(k, JSON.stringify(v)); }",
        ["gin.ui.v1"],
    )
    reload(page, open_app)
    assert page.get_by_role("dialog").count() == 0 and ui(page)["knock"] is None


# --- 5. wording ----------------------------------------------------------------------------------


def computer_move_follows_the_language(page):
    """After the computer's turn (test_quick_computer_moves_are_each_announced_and_follow_the_language)."""
    spanish = page.locator(".opp-last").inner_text()
    assert spanish.startswith("El rival "), spanish
    button(page, "Menú").click()
    page.select_option("#menu-lang", "en")
    button(page, "Back to the table").click()
    english = page.locator(".opp-last").inner_text()
    assert english.startswith("The computer "), english
    assert_readable(page, "English table after a switch")


# The new deal names its dealer in person ("Mano 2: repartes tú."): checked on VOID-0019's next
# deal by test_table_more.py::test_void_deal_panel, which opens that very table.


# --- 6. keyboard ---------------------------------------------------------------------------------


def test_hand_is_one_tab_stop_and_keys_play(page, open_app):
    view = setup(page, open_app, PORTRAIT, settings=NORMAL)
    shortcuts = {b: page.get_by_role("button", name=b, exact=True).get_attribute("aria-keyshortcuts") for b in ("Mazo", "Descarte", "Pista")}
    assert shortcuts == {"Mazo": "M", "Descarte": "D", "Pista": "H"}
    if view["phase"].startswith("upcard"):
        assert button(page, "Tomar").get_attribute("aria-keyshortcuts") == "T"
        assert button(page, "Pasar").get_attribute("aria-keyshortcuts") == "P"
        page.keyboard.press("p")
        view = settle(page)
    if view["phase"] == "draw":
        page.keyboard.press("m")
        view = settle(page)
    assert view["phase"] == "discard" and len(view["hand"]) == 11
    # Focus is in the hand; the arrows move in it; Tab leaves it at once.
    active = lambda: page.evaluate("document.activeElement.dataset.card || document.activeElement.textContent")  # noqa: E731
    first = active()
    assert first in view["hand"]
    page.keyboard.press("ArrowRight")
    second = active()
    assert second in view["hand"] and second != first
    page.keyboard.press("Tab")
    assert active() not in view["hand"]
    page.keyboard.press("Shift+Tab")
    assert active() == second
    # Enter picks, Space discards the picked card.
    page.keyboard.press("Enter")
    assert ui(page)["selected"] == second
    page.keyboard.press(" ")
    after = settle(page)
    assert second not in after["hand"] and second in after["discard"] or after["history"]


def spoken(card: str) -> str:
    """A card's name as a Spanish screen reader hears it: "3 de tréboles", "as de picas"."""
    rank = {"A": "as", "T": "10", "J": "jota", "Q": "reina", "K": "rey"}.get(card[0], card[0])
    return f"{rank} de " + {"C": "tréboles", "D": "diamantes", "H": "corazones", "S": "picas"}[card[1]]


def test_siguiente_by_keys_leaves_the_focus_in_the_hand_when_the_computer_moves_first(page, open_app):
    """Enter on "Siguiente" when the next deal's first move is the computer's (no Tomar or Mazo of
    the player's to give the focus to yet): the focus goes to the hand's Tab stop, not to the
    page's body, from which the next Tab would start again at the top bar."""
    seed = "PROBE-1"
    view = call(bridge.new_match, seed=seed, level="normal")["view"]
    while not view["history"]:
        view = call(bridge.act, action=least_deadwood(view))["view"] if view["to_act"] == 0 else call(bridge.computer_step)["view"]
    assert view["deal_number"] == 2 and view["to_act"] == 1 and view["phase"].startswith("upcard") and not view["over"]
    put_in_storage(page, {MATCH_KEY: call(bridge.save)["save"], ACK_KEY: {"seed": seed, "deal": 0}})
    setup(page, open_app, PORTRAIT, seed=seed, settings=NORMAL)
    active = "() => { const a = document.activeElement; return [a.dataset.card || null, a.getAttribute('aria-label') || a.textContent]; }"
    assert page.evaluate(active)[1] == "Siguiente"
    page.keyboard.press("Enter")
    card, label = page.evaluate(active)
    assert card in view["hand"] and label.startswith(spoken(card)), (card, label)
    after = settle(page)  # the computer's first move made: the focus is still in the hand
    assert after["deal_number"] == 2 and after["to_act"] == 0
    assert page.evaluate(active)[0] == card
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active)[0] in view["hand"] and page.evaluate(active)[0] != card


# --- 7. screen reader ----------------------------------------------------------------------------


def test_quick_computer_moves_are_each_announced_and_follow_the_language(page, open_app):
    """The computer's draw and discard after the player's first discard: each told to a screen
    reader; its move line on the table switches language with the page (section 5)."""
    view = to_discard(page, setup(page, open_app, PORTRAIT, settings=NORMAL))
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
    after = settle(page)
    moves = [e for e in after["events"][len(view["events"]) + 1 :] if e.get("seat") == 1]
    if not after["history"] and moves:  # else the deal ended on this discard: nothing for the computer to say
        lines = page.locator("#announcer p").all_inner_texts()
        said = lines[-len(moves):]
        assert len(said) == len(moves) >= 2, (lines, moves)
        assert said[0] == "El rival roba del mazo" or said[0].startswith("El rival roba ")
        assert said[-1].startswith("El rival descarta ")
    computer_move_follows_the_language(page)


# --- 8. the card just drawn stays marked ---------------------------------------------------------


def test_drawn_card_stays_marked_until_the_discard(page, open_app):
    view = setup(page, open_app, PORTRAIT, settings=NORMAL)
    if view["phase"].startswith("upcard"):
        button(page, "Pasar").click()
        view = settle(page)
    assert view["phase"] == "draw"
    button(page, "Mazo").click()
    view = settle(page)
    drawn = view["drawn"]
    assert drawn
    card = page.locator(f'.hand [data-card="{drawn}"]')
    time.sleep(1.6)
    assert "nueva" in card.inner_text().split()
    described = card.get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == "Recién robada"
    # Still marked after a re-render (selecting another card) and a reload.
    other = next(c for c in view["hand"] if c != drawn)
    page.locator(f'.hand [data-card="{other}"]').click(position={"x": 8, "y": 20})
    assert "nueva" in card.inner_text().split()
    reload(page, open_app)
    assert "nueva" in page.locator(f'.hand [data-card="{drawn}"]').inner_text().split()
    assert ui(page)["selected"] == other  # the reload kept the selection too: one tap discards it
    page.locator(f'.hand [data-card="{other}"]').click(position={"x": 8, "y": 20})
    settle(page)
    if page.locator(f'.hand [data-card="{drawn}"]').count():
        assert "nueva" not in page.locator(f'.hand [data-card="{drawn}"]').inner_text().split()


# --- boot and error screens read as finished text -----------------------------------------------


def test_boot_and_error_screens_read_well(context, page, server):
    page.expect_errors = True

    def on_boot():
        assert page.locator(".boot").is_visible()
        assert_readable(page, "boot screen")

    boot_then_failure(context, page, server, on_boot)
    text = assert_readable(page, "error screen")
    assert "No se pudo cargar el juego." in text and "Detalles técnicos" in text
