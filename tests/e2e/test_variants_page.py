"""The variants in the browser: a whole Oklahoma deal with its knock limit on the table, a
Hollywood match result, and the menu and links keeping a match's variant."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from test_table import DESKTOP, PORTRAIT, button, check_deal_panel, settle, settled, setup, shoot, ui
from test_table_more import ACK_KEY, MATCH_KEY, SPANISH, put_in_storage

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gin import Match, ai  # noqa: E402
from gin.rules import Rules  # noqa: E402

#: Its first upcard is the 6♣ (the computer passes it): this deal is knocked with 6 or less.
#: A short deal: 9 actions of yours at the test's play, 3 of them discards with 9 points left
#: (the usual limit of 10 would offer a knock there, this deal's must not), then your knock
#: with exactly 6.
OKLA_SEED = "OKLA-2976"
LIMIT = 6


def limit_shown(page) -> str:
    return page.locator(".topbar .deal-limit").inner_text()


def test_a_whole_oklahoma_deal_with_the_knock_limit_shown(page, open_app):
    page.set_viewport_size({"width": PORTRAIT[0], "height": PORTRAIT[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={OKLA_SEED}&rules=oklahoma", settings={"speed": "instant", "level": "easy"})
    view = settle(page)
    assert view["rules"]["profile"] == "oklahoma" and view["knock_limit"] == LIMIT
    # From the deal's first moment, before anyone has moved.
    assert view["history"] == [] and view["discard"] == ["6C"]
    assert limit_shown(page) == f"Cierras con {LIMIT} o menos"
    assert "Oklahoma" in page.locator(".topbar").inner_text()
    shoot(page, "oklahoma-table", PORTRAIT)
    knocked = False
    for _ in range(200):
        view, now = settled(page)
        if now["panel"] == "deal":
            break
        assert limit_shown(page) == f"Cierras con {LIMIT} o menos"
        if view["phase"].startswith("upcard"):
            button(page, "Pasar").click()
        elif view["phase"] == "draw":
            button(page, "Mazo").click()
        else:
            dd = view["discard_deadwood"]
            best = min(dd[c] for c in dd if c != view["taken"])
            offered = button(page, "Cerrar").count() + button(page, "Gin").count()
            # The buttons follow the deal's limit, not the usual 10.
            assert bool(offered) == (best <= LIMIT), (best, offered)
            if offered:
                button(page, "Gin" if best == 0 else "Cerrar").click()
                page.locator(".panel.knock").wait_for()
                panel = page.locator(".panel.knock").inner_text()
                assert "Cerrar" in panel or "Gin" in panel
                shoot(page, "oklahoma-knock", PORTRAIT)
                button(page, "Confirmar").click()
                knocked = True
            else:
                card = min((a["card"] for a in view["legal"] if a["type"] == "discard"), key=lambda c: (dd[c], c))
                page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
                page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    result = check_deal_panel(page)
    shoot(page, "oklahoma-deal-result", PORTRAIT)
    if result["kind"] in ("knock", "undercut") and result["knocker"] == 0:
        assert knocked and result["hands"][0]["points"] <= LIMIT
    # The next deal has its own upcard and its own limit, shown as soon as it starts.
    button(page, SPANISH["next"]).click()
    nxt = settle(page)
    first = nxt["events"][0]["card"] if nxt["events"] and nxt["events"][0]["type"] == "take" else nxt["discard"][0]
    want = 0 if first[0] == "A" else min(10, "A23456789TJQK".index(first[0]) + 1)
    assert nxt["knock_limit"] == want
    assert limit_shown(page) == ("Solo Gin" if want == 0 else f"Cierras con {want} o menos")


def _finished_hollywood_save() -> tuple[dict, Match]:
    m = Match.new(seed="HOLLY-WEB1", rules=Rules.profile("traditional", hollywood=True))
    m.meta["level"] = "easy"
    rng = random.Random(1)
    while not m.over:
        m.apply(ai.choose(m.view(m.to_act), rng.choice(("easy", "baseline"))))
    return m.to_save(), m


def test_a_hollywood_match_result(page, open_app):
    save, m = _finished_hollywood_save()
    put_in_storage(page, {MATCH_KEY: save, ACK_KEY: {"seed": save["seed"], "deal": len(m.results)}})
    view = setup(page, open_app, DESKTOP, seed=save["seed"])
    assert view["over"] and ui(page)["panel"] == "match"
    panel = page.locator(".panel.match")
    games = panel.locator(".hw-game")
    assert games.count() == 3
    for i, game in enumerate(m.final.games):
        section = games.nth(i)
        assert section.locator(".hw-title").inner_text() == f"Partida {i + 1}"
        for seat in (0, 1):
            line = section.locator(f".final-line.seat-{seat}")
            op = line.locator(".operation").inner_text()
            left, right = op.split("=")
            parts = [int(p) for p in left.split("+")]
            assert parts == [game.base[seat]] + [b["points"] for b in game.bonuses if b["seat"] == seat]
            assert sum(parts) == int(right) == game.totals[seat]
    you, them = m.final.totals
    assert panel.locator(".hw-total").inner_text() == f"Total de las tres partidas: tú {you}, rival {them}."
    assert "P1" in page.locator(".topbar .hw-games").inner_text()
    shoot(page, "hollywood-result", DESKTOP)
    page.set_viewport_size({"width": PORTRAIT[0], "height": PORTRAIT[1]})
    shoot(page, "hollywood-result", PORTRAIT)


def test_the_menu_and_links_keep_the_variant(page, open_app):
    setup(page, open_app, PORTRAIT, seed="VARI-0001")
    button(page, "Menú").click()
    page.get_by_label("Reglas (para la próxima partida)").select_option("straight")
    assert page.locator(".menu .profile-line").inner_text() == "No se puede cerrar: solo el Gin termina la mano."
    page.get_by_label("Hollywood (tres partidas a la vez)").select_option("yes")
    shoot(page, "variants-menu", PORTRAIT)
    button(page, "Nueva partida").click()
    button(page, "Empezar").click()
    view = settle(page)
    assert view["rules"]["profile"] == "straight" and view["rules"]["hollywood"] is True
    assert view["knock_limit"] == 0 and limit_shown(page) == "Solo Gin"
    assert [g["scores"] for g in view["games"]] == [[0, 0]] * 3
    # The link names the variant: opened elsewhere it plays the same rules.
    link = page.evaluate("location.hash")
    assert "rules=straight" in link and "hollywood:1" in link
    other = page.context.new_page()
    open_app(other, hash=link, settings={"speed": "instant", "level": "easy"})
    assert settle(other)["rules"] == view["rules"]
    other.close()
