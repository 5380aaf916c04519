"""Issue 36, round two of "nothing lost", in the page: the paths that lost or corrupted the player's data,
several on one page (the suite is over its time budget). What is checked in Node over the same modules
(tests/test_web_storage.py: every path, with the clock and two tabs racing; tests/test_web_storage_model.py)
is not repeated here; this is what the player meets: what stays stored, what the page says."""

from __future__ import annotations

import json
import time

import gin
import gin.ai
from gin.rules import Rules

from test_data_safety import aside, import_file, notices, open_at
from test_history import least_deadwood, open_from_menu, play, stored
from test_table import button, settle
from test_table_more import put_in_storage

MATCH_KEY = "gin.match.v1"
RECORDS_KEY = "gin.records.v2"
TOTALS_KEY = "gin.totals.v1"
KEPT = "PATH-0009"


def after_first_deal(seed: str) -> dict:
    """The save of a match whose first deal has ended (the second just dealt)."""
    match = gin.Match.new(seed=seed, rules=Rules.profile("standard"))
    match.meta["level"] = "easy"
    while match.view(0)["deal_number"] < 2:
        view = match.view(match.to_act)
        action = least_deadwood(view) if match.to_act == 0 else gin.ai.choose(view, "easy")
        match.apply({**action, "seat": match.to_act})
    return match.to_save()


def stats_shown(dialog) -> str:
    return dialog.locator(".stats-list, .stats-empty").first.inner_text()


def test_paths_4_9_and_5_a_newer_builds_data_borrar_and_a_file_dated_ahead(page, open_app, tmp_path):
    # Path 4: a newer build wrote a line of a rule profile this build does not know, and summed
    # totals of a newer format. Neither is ours to drop or rewrite.
    foreign = {"id": "deal1:FUTR-0001:40:00ff00ff00ff00ff", "seed": "FUTR-0001", "at": 1_700_000_000_000, "kind": "deal",
               "deal": 1, "actions": 40, "level": "easy", "profile": "future-rules", "matches": 0, "won": 0, "lost": 0,
               "drawn": 0, "deals": 1, "deals_won": 0, "gins": 0, "big_gins": 0, "knocks": 0, "undercuts_made": 0,
               "undercuts_suffered": 0, "knock_count": 0, "knock_deadwood": 0, "new_field": [1, 2]}
    newer_totals = {"version": 3, "summed": "in a way this build does not know", "ids": ["aa"]}
    put_in_storage(page, {MATCH_KEY: after_first_deal(KEPT), RECORDS_KEY: [foreign], TOTALS_KEY: newer_totals})
    open_at(page, open_app)  # the stored match: its first deal, ended, is counted on opening
    page.evaluate("window.ginApp.idle()")
    lines = stored(page, RECORDS_KEY)
    assert foreign in lines and [r["seed"] for r in lines if r != foreign] == [KEPT], "path 4: a newer build's line dropped"
    assert page.evaluate("(k) => localStorage.getItem(k)", TOTALS_KEY) == json.dumps(newer_totals), "path 4: newer totals rewritten"
    assert not [s for s in aside(page) if s["key"] in (RECORDS_KEY, TOTALS_KEY)] and "data.aside" not in notices(page), "path 4"

    # Path 9: a link leaves PATH-0009 unfinished (its first deal counted); "Borrar"; then
    # Partidas → Seguir la partida PATH-0009: its deal must not be counted again.
    page.evaluate("location.hash = '#seed=PATH-0002'")
    page.get_by_role("button", name="Abrir la del enlace").click()
    page.wait_for_function("() => window.ginApp.view.seed === 'PATH-0002'")
    settle(page)
    dialog = open_from_menu(page, "Estadísticas")
    dialog.get_by_role("button", name="Borrar", exact=True).click()
    dialog.get_by_role("button", name="Sí, borrar").click()
    assert dialog.get_by_role("status").inner_text() == "Borradas las estadísticas y las partidas terminadas."
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    games = open_from_menu(page, "Partidas")
    games.get_by_role("button", name=f"Seguir la partida {KEPT}").click()
    page.wait_for_function("(s) => window.ginApp.view.seed === s", arg=KEPT)
    settle(page)
    page.evaluate("window.ginApp.idle()")
    assert [r["seed"] for r in stored(page, RECORDS_KEY) or []] == [], "path 9: Borrar undone by resuming a kept match"
    dialog = open_from_menu(page, "Estadísticas")
    assert stats_shown(dialog) == "Aún no has jugado ninguna mano con estas opciones."

    # Path 5: a file from a device whose clock was ahead: that match is refused alone, the other comes in.
    now = int(time.time() * 1000)
    good = play("PATH-0005", "standard", "easy", least_deadwood)
    ahead = play("PATH-0006", "standard", "easy", least_deadwood)
    data = {"format": "gin-local-data", "version": 2, "records": [],
            "matches": [{"at": now + 400 * 86_400_000, "save": ahead}, {"at": now - 60_000, "save": good}]}
    text = import_file(page, tmp_path, data, "ahead.json")
    assert text.startswith("Importado: 1 partidas nuevas"), f"path 5: {text}"
    assert text.endswith("1 elementos del archivo no se han importado. El primero: La partida 1 del archivo tiene una fecha futura."), text
    assert [m["save"]["seed"] for m in stored(page, "gin.finished.v1")] == ["PATH-0005"]


# The worker dies (a crash: terminated, an error event) whenever it is asked to load a save of
# KILL-0001, in every worker the page starts: a save that kills the engine.
KILL_LOADS = """
  window.__ginKills = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const sent = post.call(this, message, ...rest);
    if (message && message.method === "load" && message.params && message.params.save && message.params.save.seed === "KILL-0001") {
      window.__ginKills++;
      this.terminate();
      this.dispatchEvent(new ErrorEvent("error", { message: "killed by the test" }));
    }
    return sent;
  };
"""


def test_a_save_that_kills_the_engine_is_set_aside_not_loaded_again(page, open_app):
    # Item 3 of issue 36's review: the engine dies loading the stored match; the replacement
    # must not load it again (and die again, ending on the error screen): the save is kept
    # aside, the player told, and a new match is played.
    save = after_first_deal("KILL-0001")
    put_in_storage(page, {MATCH_KEY: save})
    raw = json.dumps(save)
    page.add_init_script(KILL_LOADS)
    open_at(page, open_app)
    view = settle(page)
    assert view["seed"] != "KILL-0001" and view["legal"], view
    assert page.evaluate("window.__ginKills") == 1, "the save was loaded again after it killed the engine"
    kept = [s for s in aside(page) if s["key"] == MATCH_KEY]
    assert [json.loads(s["raw"]) for s in kept] == [json.loads(raw)], "the save that killed the engine was not kept aside"
    assert "storage.broken" in notices(page), notices(page)
    assert (stored(page, MATCH_KEY) or {}).get("seed") == view["seed"]
