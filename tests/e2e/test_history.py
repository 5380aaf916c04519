"""Issue 15 in the browser: finished matches kept once, statistics (export, import, clear), the replay
viewer and Difícil's review. Matches are played here with the engine (gin) and a scripted player, put
in the page's storage before it loads, and everything is read from the screen: text, focus, dialogs."""

from __future__ import annotations

import copy
import functools
import json
import sys
import time
from pathlib import Path

import pytest

from conftest import assert_readable
from test_boot import snapshot_name, wait_controlled, wait_snapshot_cached
from test_table import DESKTOP, button, settle, shoot
from test_table_more import MATCH_KEY, put_in_storage, reload, saved

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import gin  # noqa: E402
import gin.ai  # noqa: E402
import gin.arena  # noqa: E402
from gin import replay as gin_replay  # noqa: E402
from gin import stats as gin_stats  # noqa: E402
from gin.rules import Rules  # noqa: E402

FINISHED_KEY = "gin.finished.v1"
RECORDS_KEY = "gin.records.v2"
SIZES = [(390, 844), (844, 390), (1280, 800)]
POINTS = "A23456789TJQK"
STAT_ROWS = ["matches", "won", "lost", "drawn", "deals", "deals_won", "gins", "big_gins", "knocks",
             "undercuts_made", "undercuts_suffered", "streak", "best_streak"]


def points(card):
    return min(10, POINTS.index(card[0]) + 1)


def least_deadwood(view):
    """Pass, draw from the stock, knock when allowed, throw the card that leaves the least deadwood."""
    legal = view["legal"]
    if any(a["type"] == "pass" for a in legal):
        return {"type": "pass"}
    if view["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    dd = view["discard_deadwood"]
    knocks = [a for a in legal if a["type"] == "knock"]
    if knocks:
        return min(knocks, key=lambda a: (dd[a["card"]], a["card"]))
    cards = [a["card"] for a in legal if a["type"] == "discard"]
    return {"type": "discard", "card": min(cards, key=lambda c: (dd[c], -points(c), c))}


def play(seed, profile, level, human, computer="easy"):
    """A finished match: `human` at seat 0, gin.ai at `computer` at seat 1; the save says `level`."""
    match = gin.Match.new(seed=seed, rules=Rules.profile(profile))
    match.meta["level"] = level
    while not match.over:
        view = match.view(match.to_act)
        action = human(view) if match.to_act == 0 else gin.ai.choose(view, computer)
        match.apply({**action, "seat": match.to_act})
    return match.to_save()


def with_a_bad_discard():
    """Seat 0 plays exactly as Difícil (the hint), except one discard of a melded card in deal 1."""
    state = {"bad": None, "decision": 0}

    def human(view):
        action = gin.ai.hint(view)["action"]
        melded = [c for m in view["arrangement"]["melds"] for c in m]
        if (state["bad"] is None and view["phase"] == "discard" and view["deal_number"] == 1
                and action["type"] == "discard" and melded and view["arrangement"]["deadwood"]):
            bad = max(melded, key=lambda c: (points(c), c))
            if bad != action["card"] and any(a.get("card") == bad and a["type"] == "discard" for a in view["legal"]):
                state["bad"] = {"card": bad, "hard": action["card"]}
                return {"type": "discard", "card": bad}
        return action

    return human, state


def inject(page, saves, extra=None):
    """Finished matches (and `extra` keys) in the page's storage before its scripts run."""
    items = {FINISHED_KEY: [{"at": 1_700_000_000_000 + i * 60_000, "save": s} for i, s in enumerate(saves)]}
    items.update(extra or {})
    put_in_storage(page, items)


def open_page(page, open_app, size=DESKTOP, seed="HIST-9999", settings=None, url=None):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, url=url, hash=f"#seed={seed}", settings=settings or {"speed": "instant", "level": "easy"})
    view = settle(page)
    wait_history(page)
    return view


def wait_history(page):
    page.evaluate("window.ginApp.idle()")


def stored(page, key):
    raw = page.evaluate("(k) => localStorage.getItem(k)", key)
    return None if raw is None else json.loads(raw)


def open_from_menu(page, name):
    button(page, "Menú").click()
    button(page, name).click()
    dialog = page.get_by_role("dialog", name=name)
    dialog.wait_for()
    return dialog


def shown_stats(page):
    """{stat: text} as the statistics panel shows them."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.panel.stats .stat')]
              .map(s => [s.dataset.stat, s.querySelector('dd').textContent]))"""
    )


def expected_stats(group):
    out = {k: str(group[k]) for k in STAT_ROWS}
    avg = group["knock_deadwood_avg"]
    out["knock_deadwood_avg"] = "—" if avg is None else f"{avg:.2f}".rstrip("0").rstrip(".").replace(".", ",")
    best = group["best_match"]
    out["best_match"] = "—" if best is None else f"Tú {best['totals'][0]} · Rival {best['totals'][1]}"
    return out


def no_sideways_scroll(page, where):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), where
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.sheet-overlay .panel *')].filter(e => {
              const r = e.getBoundingClientRect(); return r.width && (r.right > innerWidth + 1 || r.left < -1);
           }).map(e => e.className || e.tagName).slice(0, 5)"""
    )
    assert not clipped, f"{where}: wider than the screen: {clipped}"


# A finished match (saves/make_saves.py: easy, traditional) of 8 deals with a knock, an undercut and
# a void deal: the viewer's walk meets every kind of result the longer OVER-0001 (13 deals) has, and
# its review needs no extra engine (they join from 9 deals on: the long match's test has them).
FINISHED = "OVER-0023"


@pytest.fixture(scope="module")
def matches():
    """Three finished matches at three levels and two rule profiles (oldest first)."""
    first = saved(f"over-{FINISHED}.json")  # easy, traditional
    second = play("HIST-0002", "standard", "normal", least_deadwood)
    third = play("HIST-0003", "traditional", "hard", least_deadwood, computer="normal")
    return [first, second, third]


# --- statistics ---------------------------------------------------------------------------------



def assert_every_group(page, expected):
    """Per level and per rule profile, the panel shows what gin/stats.py counts."""
    for group in expected["groups"]:
        page.select_option("#stats-level", group["level"] or "")
        page.select_option("#stats-profile", group["profile"] or "")
        assert shown_stats(page) == expected_stats(group), group


def look_at_every_size(page, what, name):
    """The open panel reads right, never scrolls sideways, and is shot at every size."""
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert_readable(page, f"{what} {size}")
        no_sideways_scroll(page, f"{what} {size}")
        shoot(page, name, size)
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})

def test_statistics_count_export_import_and_clear(page, open_app, matches, tmp_path):
    inject(page, matches)
    open_page(page, open_app)
    expected = gin_stats.stats(matches)
    assert expected["counted"] == 3
    page.set_viewport_size({"width": 390, "height": 844})
    button(page, "Menú").click()
    menu = page.get_by_role("dialog", name="Menú")
    assert menu.get_by_role("button", name="Estadísticas").is_visible() and menu.get_by_role("button", name="Partidas").is_visible()
    shoot(page, "menu-history", (390, 844))
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    button(page, "Estadísticas").click()
    dialog = page.get_by_role("dialog", name="Estadísticas")
    assert page.evaluate("document.activeElement.dataset.key") == "closeStats"
    text = dialog.inner_text()
    assert "Se guardan solo en este navegador" in text
    assert shown_stats(page) == expected_stats(expected["all"])
    # Per level and per rule profile, as gin/stats.py counts them.
    assert_every_group(page, expected)
    page.select_option("#stats-level", "hard")
    page.select_option("#stats-profile", "standard")
    assert dialog.get_by_text("Aún no has jugado ninguna mano con estas opciones.").is_visible()
    page.select_option("#stats-level", "")
    page.select_option("#stats-profile", "")
    look_at_every_size(page, "statistics", "stats")

    # Export: one JSON file with the statistics, the matches and the settings.
    with page.expect_download() as info:
        dialog.get_by_role("button", name="Exportar", exact=True).click()
    path = tmp_path / "export.json"
    info.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["format"] == "gin-local-data" and data["settings"]["speed"] == "instant"
    assert [m["save"]["seed"] for m in data["matches"]] == [FINISHED, "HIST-0002", "HIST-0003"]
    # One line per deal and one per match.
    assert len(data["records"]) == expected["all"]["deals"] + 3 == expected["deals_counted"] + 3
    assert [r["kind"] for r in data["records"]].count("match") == 3
    assert dialog.get_by_role("status").inner_text() == "Archivo descargado, con 3 partidas terminadas."

    def import_file(content, name):
        file = tmp_path / name
        file.write_text(content)
        with page.expect_file_chooser() as chooser:
            dialog.get_by_role("button", name="Importar", exact=True).click()
        chooser.value.set_files(str(file))

    # A tampered file is refused with its reason, and nothing changes.
    before = (stored(page, FINISHED_KEY), stored(page, RECORDS_KEY))
    tampered = copy.deepcopy(data)
    at = [i for i, r in enumerate(tampered["records"]) if r["kind"] == "match"][1]
    tampered["records"][at]["won"], tampered["records"][at]["lost"] = (
        tampered["records"][at]["lost"], tampered["records"][at]["won"])
    relevelled = copy.deepcopy(data)
    moved = next(i for i, r in enumerate(relevelled["records"]) if r["kind"] == "deal")
    relevelled["records"][moved]["level"] = "hard" if relevelled["records"][moved]["level"] != "hard" else "easy"
    dealt = copy.deepcopy(data)
    won = next(i for i, r in enumerate(dealt["records"]) if r["kind"] == "deal" and not r["deals_won"])
    dealt["records"][won]["deals_won"] = 1  # a deal lost, said won: no such deal
    cases = [
        (json.dumps(tampered), f"El resultado {at + 1} del archivo no coincide con su partida."),
        (json.dumps(relevelled), f"El resultado {moved + 1} del archivo no coincide con su partida."),
        (json.dumps(dealt), f"El resultado {won + 1} del archivo está dañado."),
        ("{not json", "El archivo no es JSON."),
        (json.dumps({"format": "something else"}), "El archivo no es una exportación de este juego."),
    ]
    broken = copy.deepcopy(data)
    actions = broken["matches"][2]["save"]["actions"]
    at = next(i for i, a in enumerate(actions) if a["type"] == "discard")
    actions[at]["card"] = "ZZ"
    cases.append((json.dumps(broken), "La partida 3 del archivo no se puede reproducir: está dañada o modificada."))
    unfinished = copy.deepcopy(data)
    unfinished["matches"][0]["save"]["actions"] = unfinished["matches"][0]["save"]["actions"][:40]
    cases.append((json.dumps(unfinished), "La partida 1 del archivo no está terminada."))
    for i, (content, reason) in enumerate(cases):
        import_file(content, f"bad-{i}.json")
        alert = dialog.get_by_role("alert")
        alert.wait_for()
        assert alert.inner_text() == f"No se ha importado nada. {reason}"
        assert (stored(page, FINISHED_KEY), stored(page, RECORDS_KEY)) == before
        assert shown_stats(page) == expected_stats(expected["all"])
    assert_readable(page, "refused import")

    # Clear asks once, then export → clear → import gives the same statistics back.
    dialog.get_by_role("button", name="Borrar", exact=True).click()
    ask = dialog.get_by_role("group", name="Borrar")
    assert "No se puede deshacer" in ask.inner_text()
    assert page.evaluate("document.activeElement.textContent") == "Cancelar"
    ask.get_by_role("button", name="Cancelar").click()
    assert shown_stats(page)["matches"] == "3"
    dialog.get_by_role("button", name="Borrar", exact=True).click()
    dialog.get_by_role("button", name="Sí, borrar").click()
    assert dialog.get_by_role("status").inner_text() == "Borradas las estadísticas y las partidas terminadas."
    assert shown_stats(page) == {}
    assert stored(page, FINISHED_KEY) is None and stored(page, RECORDS_KEY) is None
    import_file(path.read_text(), "export.json")
    dialog.get_by_text(f"Importado: 3 partidas nuevas y {len(data['records'])} resultados nuevos.").wait_for()
    assert shown_stats(page) == expected_stats(expected["all"])
    # The same file again adds nothing.
    import_file(path.read_text(), "export.json")
    dialog.get_by_text("Importado: 0 partidas nuevas y 0 resultados nuevos.").wait_for()
    assert shown_stats(page)["matches"] == "3"
    # Escape closes the panel and gives the focus back to the menu's entry.
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog", name="Estadísticas").count() == 0
    assert page.evaluate("document.activeElement.textContent") == "Estadísticas"


def test_statistics_outlive_the_history_and_a_match_file_is_watched(page, open_app, matches, tmp_path):
    """The record keeps counting matches no longer kept; a match file from elsewhere can be watched."""
    old = matches[1]
    inject(page, [old, matches[2]])
    open_page(page, open_app)
    page.evaluate(
        """(keys) => {
            const list = JSON.parse(localStorage.getItem(keys[0]));
            const records = JSON.parse(localStorage.getItem(keys[1]));
            // 49 more copies of one match's line, as if 49 more matches had been finished long ago.
            const match = records.find((r) => r.kind === 'match');
            for (let i = 0; i < 49; i++) records.unshift({...match, id: 'old:' + i, at: records[0].at - 1000 * (i + 1)});
            localStorage.setItem(keys[1], JSON.stringify(records));
        }""",
        [FINISHED_KEY, RECORDS_KEY],
    )
    dialog = open_from_menu(page, "Estadísticas")
    assert shown_stats(page)["matches"] == "51"
    # A match file from another browser (a bare finished save) is imported and watched here.
    file = tmp_path / "match.json"
    file.write_text(json.dumps(matches[0]))
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Importar", exact=True).click()
    chooser.value.set_files(str(file))
    lines = 1 + len(gin.Match.from_save(matches[0]).results)
    dialog.get_by_text(f"Importado: 1 partidas nuevas y {lines} resultados nuevos.").wait_for()
    assert shown_stats(page)["matches"] == "52"
    page.keyboard.press("Escape")  # back to the menu
    button(page, "Partidas").click()
    games = page.get_by_role("dialog", name="Partidas")
    assert games.get_by_role("listitem").count() == 3
    games.get_by_role("button", name=FINISHED).click()
    viewer = page.get_by_role("dialog", name=f"Repetición · Semilla {FINISHED}")
    viewer.wait_for()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.step === '0'")
    page.keyboard.press("End")
    assert viewer.get_by_text("Resultado final:").count() == 1


def before_a_computer_knock(seed="HIST-DEALS"):
    """A match whose level went from easy (deal 1) to hard (deal 2 on), as the bridge records it, left
    just before the computer's knock that ends deal 2 (or a later deal) without ending the match."""
    m = gin.Match.new(seed=seed, rules=Rules.profile("traditional"))
    m.meta.update(level="easy", levels=["easy"])
    while True:
        seat = m.to_act
        view = m.view(seat)
        action = least_deadwood(view) if seat == 0 else gin.ai.choose(view, m.meta["level"])
        action = {**action, "seat": seat}
        if seat == 1 and action["type"] == "knock" and m.deal_number >= 2:
            after = gin.Match.from_save(m.to_save()).apply(action)
            if not after.over:
                return m.to_save()
        before = len(m.results)
        m.apply(action)
        assert not m.over
        if len(m.results) > before:
            m.meta["level"] = "hard"
            m.meta["levels"].append("hard")


def test_deals_count_as_they_end_under_their_level_and_an_abandoned_match_keeps_them(page, open_app):
    save = before_a_computer_knock()
    ended = len(gin.Match.from_save(save).results)
    assert ended >= 1 and save["meta"]["levels"][0] == "easy"
    put_in_storage(page, {MATCH_KEY: save})
    # Opening the page counts the deals that had ended (as after a reload); then the computer's
    # knock ends one more deal, counted at once, under the level it was played at.
    open_page(page, open_app, seed=save["seed"])
    page.wait_for_function("() => window.ginApp.ui.panel === 'deal'")
    wait_history(page)
    now = page.evaluate("window.ginApp.save")
    expected = gin_stats.stats([now])
    assert expected["deals_counted"] == ended + 1 and expected["counted"] == 0
    lines = stored(page, RECORDS_KEY)
    assert [(r["kind"], r["deal"], r["level"]) for r in lines] == [
        ("deal", n, save["meta"]["levels"][n - 1]) for n in range(1, ended + 2)]
    button(page, "Siguiente").click()  # the deal result, then the table
    settle(page)
    assert stored(page, RECORDS_KEY) == lines
    dialog = open_from_menu(page, "Estadísticas")
    assert "Cada mano cuenta al terminar" in dialog.inner_text()
    assert shown_stats(page) == expected_stats(expected["all"]) and shown_stats(page)["matches"] == "0"
    assert_every_group(page, expected)
    page.select_option("#stats-level", "easy")
    page.select_option("#stats-profile", "")
    assert shown_stats(page)["deals"] == "1"  # deal 1, before the level went up
    page.select_option("#stats-level", "")
    look_at_every_size(page, "statistics of deals", "stats-deals")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    # A reload counts nothing twice.
    reload(page, open_app)
    wait_history(page)
    assert stored(page, RECORDS_KEY) == lines
    # The match is abandoned for a new one: its deals stay counted, it counts as no match.
    button(page, "Menú").click()
    button(page, "Nueva partida").click()
    page.locator('[data-intent="confirmNew"]').click()
    settle(page)
    page.wait_for_function("(seed) => window.ginApp.view.seed !== seed", arg=save["seed"])
    wait_history(page)
    # The new match's seed is drawn at random: the computer may have ended its first deal already
    # (U8SA-L2FR: it knocks on its first turn), a deal counted as any other; its result closed.
    if page.evaluate("window.ginApp.ui.panel") == "deal":
        button(page, "Siguiente").click()
        settle(page)
        wait_history(page)
    fresh = len(gin.Match.from_save(page.evaluate("window.ginApp.save")).results)
    records = stored(page, RECORDS_KEY)
    assert records[:len(lines)] == lines and stored(page, FINISHED_KEY) in (None, [])
    assert [(r["kind"], r["seed"]) for r in records[len(lines):]] == [("deal", page.evaluate("window.ginApp.view.seed"))] * fresh
    open_from_menu(page, "Estadísticas")
    assert shown_stats(page)["deals"] == str(ended + 1 + fresh) and shown_stats(page)["matches"] == "0"


def test_clearing_in_the_middle_of_a_match_stays_cleared_and_an_import_restores_its_deals(page, open_app, tmp_path):
    save = before_a_computer_knock()
    put_in_storage(page, {MATCH_KEY: save})
    open_page(page, open_app, seed=save["seed"])
    page.wait_for_function("() => window.ginApp.ui.panel === 'deal'")
    wait_history(page)
    button(page, "Siguiente").click()
    settle(page)
    lines = stored(page, RECORDS_KEY)
    assert len(lines) == len(gin.Match.from_save(save).results) + 1
    dialog = open_from_menu(page, "Estadísticas")
    with page.expect_download() as info:
        dialog.get_by_role("button", name="Exportar", exact=True).click()
    path = tmp_path / "export.json"
    info.value.save_as(path)
    assert json.loads(path.read_text())["records"] == lines
    dialog.get_by_role("button", name="Borrar", exact=True).click()
    dialog.get_by_role("button", name="Sí, borrar").click()
    assert shown_stats(page) == {} and stored(page, RECORDS_KEY) is None
    # The match goes on, and a reload counts it again: its deals cleared stay cleared.
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    reload(page, open_app)
    wait_history(page)
    assert stored(page, RECORDS_KEY) in (None, [])
    dialog = open_from_menu(page, "Estadísticas")
    assert dialog.get_by_text("Aún no has jugado ninguna mano con estas opciones.").is_visible()
    # Export → clear → import gives them back, once.
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Importar", exact=True).click()
    chooser.value.set_files(str(path))
    dialog.get_by_text(f"Importado: 0 partidas nuevas y {len(lines)} resultados nuevos.").wait_for()
    assert stored(page, RECORDS_KEY) == lines
    reload(page, open_app)
    wait_history(page)
    assert stored(page, RECORDS_KEY) == lines


# --- a finished match is kept once; the viewer ------------------------------------------------


VIEWER_STATE = """() => {
    const p = document.querySelector('.panel.viewer');
    const cards = (seat) => p.querySelector(`.viewer-cards[data-seat="${seat}"]`).dataset.cards.split(' ').sort();
    return {step: Number(p.dataset.step), hands: [cards(0), cards(1)],
            top: p.querySelector('.viewer-discard').dataset.top || null,
            stock: Number(p.querySelector('.viewer-stock').dataset.count),
            scores: p.querySelector('.viewer-scores').textContent,
            where: p.querySelector('.viewer-step').textContent,
            deal: p.querySelector('.viewer-deal').textContent,
            result: p.querySelector('.viewer-result h3')?.textContent || null,
            marked: p.querySelectorAll('.review-mark').length,
            shown: p.querySelectorAll('.viewer-cards .card').length};
}"""


def viewer_state(page):
    state = page.evaluate(VIEWER_STATE)
    state.pop("marked")
    return state


def walk(page, count):
    """What the viewer shows at each of `count` steps, pressing the right arrow (a real key event on
    the focused control) between them; in one round trip, so it stays fast."""
    source = """(count) => {
        const state = READ;
        const seen = [];
        for (let i = 0; i < count; i++) {
            seen.push(state());
            (document.activeElement || document.body).dispatchEvent(
                new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true, cancelable: true}));
        }
        return seen;
    }""".replace("READ", VIEWER_STATE)
    return page.evaluate(source, count)


def expected_view(steps, i):
    step = steps[i]
    s = step["state"]
    return {
        "step": i,
        "hands": [sorted(s["hands"][0]), sorted(s["hands"][1])],
        "top": s["discard"][-1] if s["discard"] else None,
        "stock": s["stock_count"],
        "scores": f"Tú {s['scores'][0]} · Rival {s['scores'][1]}",
        "where": f"Paso {i + 1} de {len(steps)}",
        "deal": f"Mano {step['deal_number']}",
        "result": None,  # the caller names the deal result
        "shown": len(s["hands"][0]) + len(s["hands"][1]),
    }


KINDS = {"knock": "Cierre", "gin": "Gin", "big_gin": "Gin grande", "undercut": "Undercut", "void": "Mano nula"}


@pytest.mark.alone
def test_finished_match_is_kept_once_and_the_viewer_steps_through_it(page, open_app):
    save = saved(f"over-{FINISHED}.json")
    put_in_storage(page, {MATCH_KEY: save})
    open_page(page, open_app, seed=FINISHED)
    assert page.get_by_role("dialog").get_by_role("button", name="Ver repetición").is_visible()
    lines = 1 + len(gin.Match.from_save(save).results)  # each deal, and the match
    assert len(stored(page, FINISHED_KEY)) == 1 and len(stored(page, RECORDS_KEY)) == lines
    # The end screen again after a reload stores and counts nothing more.
    reload(page, open_app)
    wait_history(page)
    assert len(stored(page, FINISHED_KEY)) == 1 and len(stored(page, RECORDS_KEY)) == lines
    assert {r["seed"] for r in stored(page, RECORDS_KEY)} == {FINISHED}

    button(page, "Ver repetición").click()
    viewer = page.get_by_role("dialog", name=f"Repetición · Semilla {FINISHED}")
    viewer.wait_for()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.step === '0'")
    t_review = time.monotonic()
    assert page.evaluate("document.activeElement.textContent") == "Paso adelante"
    steps, deals = gin_replay.replay(save)["steps"], gin_replay.replay(save)["deals"]
    assert len(deals) >= 3 and {"knock", "undercut", "void"} <= {st["result"]["kind"] for st in steps if st["result"]}
    t0 = time.monotonic()
    seen = walk(page, len(steps))
    for i, shown in enumerate(seen):
        want = expected_view(steps, i)
        result = steps[i]["result"]
        want["result"] = f"Mano {result['number']} · {KINDS[result['kind']]}" if result else None
        shown.pop("marked")
        assert shown == want, f"step {i}"
    walked = time.monotonic() - t0
    page.wait_for_function("() => document.querySelector('.panel.viewer').dataset.reviewed === 'true'", timeout=60_000)
    reviewed = time.monotonic() - t_review
    print(f"{len(deals)} deals: walked {len(steps)} steps in {walked:.1f}s, reviewed in {reviewed:.1f}s")
    assert viewer.get_by_text("Resultado final:").count() == 1
    page.keyboard.press("Home")
    assert viewer_state(page)["step"] == 0
    page.keyboard.press("End")
    assert viewer_state(page)["step"] == len(steps) - 1
    page.keyboard.press("ArrowLeft")
    assert viewer_state(page)["step"] == len(steps) - 2
    # Jump to a deal: its opening step.
    page.select_option("#viewer-deal", "3")
    assert viewer_state(page)["step"] == deals[2]["start"]
    opening = "Mano 3: repartes tú." if steps[deals[2]["start"]]["state"]["dealer"] == 0 else "Mano 3: reparte el rival."
    assert viewer.locator(".viewer-action").inner_text() == opening
    # Play runs forward on its own.
    page.select_option("#viewer-speed", "fast")
    viewer.get_by_role("button", name="Reproducir").click()
    page.wait_for_function(f"() => Number(document.querySelector('.panel.viewer').dataset.step) >= {deals[2]['start'] + 3}")
    viewer.get_by_role("button", name="Pausa").click()
    assert_readable(page, "viewer")
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog", name=f"Repetición · Semilla {FINISHED}").count() == 0
    assert page.evaluate("document.activeElement.textContent") == "Ver repetición"
    assert walked < 60, walked


# --- Difícil's review -----------------------------------------------------------------------------


# The match with one bad discard: 6 deals (an undercut and a gin among them) and 79 decisions of
# the player's, all Difícil's but that one; below the 9 deals from which the review asks for extra
# engines (REVW-0001 had 15 deals: the review and the walk did the same checks over and over).
REVIEWED = "REVW-0002"


@pytest.mark.alone
def test_review_marks_the_bad_discard_and_not_difficils_own_moves(page, open_app, matches):
    human, script = with_a_bad_discard()
    save = play(REVIEWED, "traditional", "hard", human, computer="normal")
    bad = script["bad"]
    assert bad, "no bad discard was made"
    review = gin_replay.review(save)
    assert review["summary"]["differing"] == 1, review["differing"]
    entry = review["differing"][0]
    assert entry["human"] == {"type": "discard", "card": bad["card"]} and entry["hard"]["card"] == bad["hard"]
    inject(page, [matches[0], save])
    open_page(page, open_app)
    games = open_from_menu(page, "Partidas")
    items = games.get_by_role("listitem")
    assert items.count() == 2
    assert_readable(page, "matches list")
    shoot(page, "games", DESKTOP)
    first = items.nth(0).get_by_role("button")
    assert REVIEWED in first.inner_text() and "Difícil · Tradicional" in first.inner_text()
    t0 = time.monotonic()
    first.click()
    viewer = page.get_by_role("dialog", name=f"Repetición · Semilla {REVIEWED}")
    viewer.wait_for()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'", timeout=60_000)
    took = time.monotonic() - t0
    deals = len(gin_replay.replay(save)["deals"])
    section = viewer.locator(".review")
    text = section.inner_text()
    assert f"1 decisión distinta de {review['summary']['decisions']}." in text
    assert "Es la opinión de Difícil" in text and "no es un análisis perfecto" in text
    marks = section.get_by_role("listitem")
    assert marks.count() == 1
    marks.get_by_role("button").click()
    assert viewer_state(page)["step"] == entry["step"]
    mark = viewer.get_by_role("note", name="Difícil lo habría hecho distinto")
    assert mark.count() == 1
    hard_name = page.evaluate("(c) => document.querySelector(`.viewer-cards [data-face='${c}']`).getAttribute('aria-label')", bad["hard"])
    assert "Difícil habría elegido otra cosa: descarta" in mark.inner_text() and hard_name in mark.inner_text()
    assert viewer.locator(".viewer-action").inner_text().startswith("Descartas")
    assert viewer_state(page)["top"] == bad["card"]
    card_name = page.evaluate("(c) => document.querySelector(`.viewer-discard [data-face='${c}']`).getAttribute('aria-label')", bad["card"])
    assert card_name in viewer.locator(".viewer-action").inner_text()
    # No mark on any other of the human's moves (Difícil's own choices).
    page.keyboard.press("Home")
    seen = walk(page, len(gin_replay.replay(save)["steps"]))
    marked_steps = [i for i, shown in enumerate(seen) if shown["marked"]]
    assert marked_steps == [entry["step"]]
    marks.get_by_role("button").click()
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert_readable(page, f"review {size}")
        no_sideways_scroll(page, f"review {size}")
        shoot(page, "viewer-review", size)
    assert took < 30, f"{deals} deals reviewed in {took:.1f}s"
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog", name="Partidas").is_visible()
    # English, for the same match.
    page.keyboard.press("Escape")
    page.select_option("#menu-lang", "en")
    button(page, "Matches").click()
    page.get_by_role("dialog", name="Matches").get_by_role("listitem").nth(0).get_by_role("button").click()
    viewer = page.get_by_role("dialog", name=f"Replay · Seed {REVIEWED}")
    viewer.wait_for()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'")
    assert "1 decision differed out of" in viewer.locator(".review").inner_text()
    assert_readable(page, "English review")


@functools.cache
def long_match(seed, target, least):
    """A finished match of `seed` (custom profile to `target`, normal against normal) of at least
    `least` deals, and its deal count. Each deal more costs the page's engines and the CPython
    review below their time again (53 deals took a minute of CPU)."""
    rules = Rules.profile("custom", target=target)
    st = gin.arena.play_match("normal", "normal", seed, a_seat=0, rules=rules, keep_actions=True)
    m = gin.Match.new(seed=seed, rules=rules)
    m.meta["level"] = "normal"
    for action in st.actions:
        m.apply(action)
    assert m.over and len(m.results) >= least
    return m.to_save(), len(m.results)


# Extra engines join the review of a match of 9 deals or more (web/screens/review.js HELPERS_FROM):
# a match of 16 deals has them, with room for three to boot and take parts before the page's engine
# is done, and its progress in parts of at most a quarter of what is left while four engines work
# (review.js takePart); one of 10 deals is enough to show they are asked for (and not used without
# a snapshot).
def mid_match():
    return long_match("REVIEW-MID-2", target=100, least=16)


def short_mid_match():
    return long_match("REVIEW-MID-3", target=100, least=10)


# The machine's cores and memory as the page sees them: 8 cores and 8 GB, so the review may use
# three extra engines (TWO_GB: only one).
EIGHT_CORES = ("Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => 8});"
               "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 8, configurable: true});")
TWO_GB = "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 2});"

REVIEW_SHOWN = """() => {
    const p = document.querySelector('.panel.viewer');
    const r = p.querySelector('.review');
    return {engines: p.dataset.reviewEngines, summary: {...r.dataset},
            steps: [...r.querySelectorAll('.review-item')].map(b => Number(b.dataset.key.split(':')[1]))};
}"""


_REVIEWS = {}


def whole_review(save):
    """gin's review of the whole match in CPython, once per match and process (53 deals: 8 s)."""
    key = json.dumps(save, sort_keys=True)
    if key not in _REVIEWS:
        _REVIEWS[key] = gin_replay.review(save)
    return _REVIEWS[key]


def assert_review_is_the_whole_match_review(page, save):
    """What the viewer shows is what one `review` of the whole match gives (merged in step order)."""
    want = whole_review(save)
    shown = page.evaluate(REVIEW_SHOWN)
    assert shown["steps"] == [d["step"] for d in want["differing"]]
    s = want["summary"]
    assert shown["summary"] == {"differing": str(s["differing"]), "decisions": str(s["decisions"]),
                                "withCost": str(s["with_cost"]), "totalCost": shown["summary"]["totalCost"],
                                "costliest": str(s["costliest"]["step"]) if s["costliest"] else ""}
    assert float(shown["summary"]["totalCost"]) == s["total_cost"]
    return shown


def only_the_page_engine_left(page):
    """Whether the page's workers come down to its own engine (within 10 s)."""
    deadline = time.monotonic() + 10
    while len(page.workers) > 1 and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # not time.sleep: Playwright hears of a closed worker meanwhile
    return len(page.workers) == 1


# The page's engine waits for the extra ones before it reviews: from here on, its `review` calls
# are held (not yet posted to its worker) while an extra engine made since is still booting, until
# each has booted (`ready`), failed or been ended, or 12 s have passed (short of the page's 15 s
# watchdog on a silent worker, web/runtime/engine.js). Without it, whether an extra engine takes
# a part is a race: under load its boot (about 1 s) can take longer than the page's engine takes
# for a 16-deal match alone, and review.js rightly lets the page's engine finish and ends the late
# one unused. With it, an extra engine that boots takes a part, however slow its boot; one that
# cannot boot takes none.
HOLD_FOR_EXTRA_ENGINES = """() => {
    const Real = Worker, post = Real.prototype.postMessage;
    const booting = new Set(), held = [];
    const release = () => { if (!booting.size) held.splice(0).forEach((send) => send()); };
    window.Worker = class extends Real {
        constructor(url, options) {
            super(url, options);
            if (!(options && options.name === 'gin-review')) return;
            booting.add(this);
            const up = () => { booting.delete(this); release(); };
            this.addEventListener('message', (e) => { if (e.data.type === 'ready' || e.data.type === 'boot_error') up(); });
            this.addEventListener('error', up);
            setTimeout(up, 12000);
        }
        terminate() { booting.delete(this); super.terminate(); release(); }
    };
    Real.prototype.postMessage = function (message, ...rest) {
        if (!(message && message.method === 'review' && booting.size)) return post.call(this, message, ...rest);
        held.push(() => post.call(this, message, ...rest));
    };
}"""


# Every progress the page shows, as it shows it: a MutationObserver (on the page from its first
# script) notes the progress bar's value and maximum and the status line each time they change.
PROGRESS_SHOWN = """window.__progress = [];
new MutationObserver(() => {
    const p = document.querySelector('.review-progress');
    const s = document.querySelector('.review-status');
    const last = window.__progress.at(-1);
    if (p && s && !(last && last.value === p.value && last.text === s.textContent))
        window.__progress.push({value: p.value, max: p.max, text: s.textContent});
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});"""


@pytest.mark.alone
def test_a_long_match_is_reviewed_by_extra_engines_with_progress_while_the_viewer_answers(page, open_app, dist):
    """A 16-deal match: the review is shared by the page's engine and three extra engine workers
    (they boot from the cached snapshot), shows its progress in deals done, the viewer steps at
    once meanwhile, the result is exactly the one-call review, and the extra workers are gone after."""
    save, deals = mid_match()
    inject(page, [save])
    page.add_init_script(EIGHT_CORES)
    page.add_init_script(PROGRESS_SHOWN)
    open_page(page, open_app)
    wait_snapshot_cached(page, snapshot_name(dist))
    assert len(page.workers) == 1  # the page's engine
    games = open_from_menu(page, "Partidas")
    games.get_by_role("listitem").nth(0).get_by_role("button").click()
    viewer = page.get_by_role("dialog", name=f"Repetición · Semilla {save['seed']}")
    viewer.wait_for()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.step === '0'")
    t0 = time.monotonic()
    answers, workers, shot = [], [], False
    while page.evaluate("() => document.querySelector('.panel.viewer').dataset.reviewed !== 'true'"):
        workers.append(len(page.workers))
        if not shot:
            if page.evaluate("() => document.querySelector('.review-progress')?.value > 0"):
                for size in SIZES:
                    page.set_viewport_size({"width": size[0], "height": size[1]})
                    shoot(page, "viewer-progress", size)
                page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
                shot = True
        # The page answers while the workers review: a step forward shows at once.
        step = viewer_state(page)["step"]
        t = time.monotonic()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(s) => document.querySelector('.panel.viewer').dataset.step !== String(s)", arg=step)
        answers.append(time.monotonic() - t)
        assert time.monotonic() - t0 < 90, "the review never ended"
        time.sleep(0.15)
    took = time.monotonic() - t0
    shown = assert_review_is_the_whole_match_review(page, save)
    shown_progress = page.evaluate("window.__progress")
    progress = [p["value"] for p in shown_progress]
    print(f"{deals} deals reviewed in the page in {took:.1f}s by {shown['engines']} engines (workers seen {max(workers)}); "
          f"progress shown {progress}; slowest step while reviewing {max(answers) * 1000:.0f} ms")
    for p in shown_progress:
        assert p["max"] == deals and p["text"] == f"Difícil revisa tus decisiones: {p['value']} de {deals} manos", shown_progress
    assert max(workers) == 4  # the page's engine and three extra: at most three, one fewer than the cores
    assert 2 <= int(shown["engines"]) <= 4
    assert only_the_page_engine_left(page), f"{len(page.workers)} workers after the review"
    # Shown in parts, as it went: at least three counts between none and the whole, never going back.
    assert len({v for v in progress if 0 < v < deals}) >= 3 and progress == sorted(progress), progress
    assert max(answers) < 1.0
    assert took < 40
    assert "decisiones distintas de" in viewer.locator(".review").inner_text()
    # An eleven-card hand (after a draw) wraps inside the table at every size, nothing clipped.
    steps = gin_replay.replay(save)["steps"]
    eleven = next(i for i, st in enumerate(steps) if len(st["state"]["hands"][0]) == 11)
    page.keyboard.press("Home")
    walk(page, eleven)
    assert viewer_state(page)["step"] == eleven
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        outside = page.evaluate(
            """() => { const t = document.querySelector('.viewer-table').getBoundingClientRect();
                       return [...document.querySelectorAll('.viewer-table .card')].filter(c => {
                         const r = c.getBoundingClientRect();
                         return r.left < t.left - 0.5 || r.right > t.right + 0.5; }).map(c => c.dataset.face); }"""
        )
        assert not outside, f"{size}: cards outside the table: {outside}"
        no_sideways_scroll(page, f"eleven cards {size}")
        shoot(page, "viewer-eleven", size)
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    # Watched again: the finished review is kept, no engine is started for it.
    page.keyboard.press("Escape")
    games.get_by_role("listitem").nth(0).get_by_role("button").click()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'")
    assert len(page.workers) == 1
    assert_review_is_the_whole_match_review(page, save)


def test_closing_the_viewer_mid_review_ends_its_extra_engines(page, open_app, dist):
    """On 8 cores and 2 GB of memory one extra engine helps, offline too; closing the viewer ends it at once."""
    save, _ = mid_match()
    inject(page, [save])
    page.add_init_script(EIGHT_CORES + TWO_GB)
    open_page(page, open_app)
    wait_snapshot_cached(page, snapshot_name(dist))
    games = open_from_menu(page, "Partidas")
    games.get_by_role("listitem").nth(0).get_by_role("button").click()
    page.wait_for_function("() => document.querySelector('.review-progress')?.value > 0", timeout=30_000)
    assert len(page.workers) == 2  # one extra: 2 GB of memory
    page.keyboard.press("Escape")
    assert only_the_page_engine_left(page), f"{len(page.workers)} workers after closing"
    # Opened again offline, the review starts afresh (once the closed one has let go), the extra
    # engine boots from the service worker's cache all the same, and it ends.
    page.context.set_offline(True)  # the returning visitor's context: back online after
    try:
        page.evaluate(HOLD_FOR_EXTRA_ENGINES)  # the extra engine takes a part if it boots, however slowly
        games.get_by_role("listitem").nth(0).get_by_role("button").click()
        page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'", timeout=90_000)
        assert assert_review_is_the_whole_match_review(page, save)["engines"] == "2"
        assert only_the_page_engine_left(page)
    finally:
        page.context.set_offline(False)


def test_without_the_snapshot_the_page_engine_reviews_alone_and_the_extra_ones_write_nothing(page, open_app, dist):
    """An extra engine boots only from the cached snapshot (the normal boot may write shared
    storage): with none, it is not used and the page's own engine does the whole review.
    The returning visitor's page (booted from its snapshot), the snapshot then taken out of
    Cache Storage while the viewer reviews (an extra engine finds none, as with a build served
    without one), and put back as it was after (the next test's visitor keeps its cache)."""
    save, deals = short_mid_match()
    inject(page, [save])
    page.add_init_script(EIGHT_CORES)
    open_page(page, open_app)
    wait_controlled(page)
    raw = snapshot_name(dist).removesuffix(".gz")
    assert page.evaluate(TAKE_SNAPSHOT, raw), "no snapshot cached to take out"
    try:
        before = page.evaluate(STORAGE)
        assert not [u for urls in before["caches"].values() for u in urls if u.endswith((raw, raw + ".gz"))], before["caches"]
        requests = len(page.context.requests)
        games = open_from_menu(page, "Partidas")
        games.get_by_role("listitem").nth(0).get_by_role("button").click()
        page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'", timeout=90_000)
        shown = assert_review_is_the_whole_match_review(page, save)
        assert shown["engines"] == "1"
        assert only_the_page_engine_left(page)
        assert page.evaluate(STORAGE) == before
        # No extra engine went on to the normal boot (the wheels micropip installs).
        late = page.context.requests[requests:]
        assert not [u for u in late if u.endswith(".whl")], late
    finally:
        page.evaluate(PUT_SNAPSHOT_BACK)


# The build's snapshot (`raw`: its name as the service worker keeps it, decoded) and its copy as
# served (.gz), if kept, out of every cache; each kept in the page (window.__takenSnapshot) to be
# put back as it was, same URL and headers (PUT_SNAPSHOT_BACK). How many entries were taken out.
TAKE_SNAPSHOT = """async (raw) => {
    const taken = [];
    for (const key of await caches.keys()) {
        const cache = await caches.open(key);
        for (const request of await cache.keys()) {
            const name = new URL(request.url).pathname.split('/').pop();
            if (name !== raw && name !== raw + '.gz') continue;
            const response = await cache.match(request);
            taken.push([key, request.url, await response.arrayBuffer(), [...response.headers]]);
            await cache.delete(request);
        }
    }
    window.__takenSnapshot = taken;
    return taken.length;
}"""
PUT_SNAPSHOT_BACK = """async () => {
    for (const [key, url, body, headers] of window.__takenSnapshot || []) {
        await (await caches.open(key)).put(url, new Response(body, {headers}));
    }
}"""


# Cache Storage (every cache and its entries) and IndexedDB's databases with their stores' keys.
STORAGE = """async () => {
    const out = {caches: {}, idb: {}};
    for (const name of (await caches.keys()).sort()) {
        out.caches[name] = (await (await caches.open(name)).keys()).map(r => r.url).sort();
    }
    for (const {name} of await indexedDB.databases()) {
        const db = await new Promise((ok, no) => { const q = indexedDB.open(name); q.onsuccess = () => ok(q.result); q.onerror = () => no(q.error); });
        for (const store of db.objectStoreNames) {
            const keys = await new Promise((ok) => { const q = db.transaction(store).objectStore(store).getAllKeys(); q.onsuccess = () => ok(q.result.map(String)); });
            out.idb[`${name}/${store}`] = keys.sort();
        }
        db.close();
    }
    return out;
}"""
