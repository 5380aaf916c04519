"""The table, continued: result panels that survive a reload, void deals, big gin, English texts,
desktop screenshots.

Positions that are hard to reach by playing come from saves in tests/e2e/saves/ (written by
saves/make_saves.py with the engine and the computer's policy): the engine replays a save's actions,
so they stay valid whatever the computer would choose today.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from conftest import assert_readable, i18n_dictionaries
from test_table import DESKTOP, PORTRAIT, button, check_deal_panel, check_match_panel, settle, settled, setup, shoot, ui

ROOT = Path(__file__).resolve().parents[2]
SAVES = Path(__file__).resolve().parent / "saves"
sys.path.insert(0, str(ROOT))

import gin  # noqa: E402
import gin.ai  # noqa: E402
MATCH_KEY = "gin.match.v1"
ACK_KEY = "gin.acknowledged.v1"
SPANISH = {"pass": "Pasar", "stock": "Mazo", "knock": "Cerrar", "gin": "Gin", "confirm": "Confirmar", "next": "Siguiente"}
ENGLISH = {"pass": "Pass", "stock": "Stock", "knock": "Knock", "gin": "Gin", "confirm": "Confirm", "next": "Next"}


def saved(name):
    return json.loads((SAVES / name).read_text())


def put_in_storage(where, items):
    """Before any page script runs, put `items` in localStorage (once: a reload keeps what the page
    wrote). `where` is the page (it may then be the returning visitor's: tests/e2e/conftest.py) or
    a whole context (every page of it, popups included)."""
    put_strings_in_storage(where, {k: json.dumps(v) for k, v in items.items()})


def put_strings_in_storage(where, strings):
    """put_in_storage of values already as stored (strings read from a page's localStorage)."""
    where.add_init_script(
        "try { if (!sessionStorage.getItem('test.seeded')) { sessionStorage.setItem('test.seeded', '1'); "
        "for (const [k, v] of Object.entries(%s)) localStorage.setItem(k, v); } } catch (e) {}" % json.dumps(strings)
    )


def reload(page, open_app):
    open_app(page, reload=True)
    return settle(page)


def panel_text(page, which="deal"):
    return page.locator(f".panel.{which}").inner_text()


def play_to_deal_panel(page, names, shots=None):
    """Pass, draw from the stock, knock or go gin when offered, else throw the card that leaves the
    least deadwood (clicked twice); stop on the deal result panel."""
    for _ in range(200):
        view, now = settled(page)
        if now["panel"] == "deal":
            return view
        assert not now["panel"], now["panel"]
        if view["phase"].startswith("upcard"):
            button(page, names["pass"]).click()
        elif view["phase"] == "draw":
            button(page, names["stock"]).click()
        else:
            if shots:
                shots()
                shots = None
            dd = view["discard_deadwood"]
            knocks = [a for a in view["legal"] if a["type"] == "knock"]
            if knocks:
                best = min(knocks, key=lambda a: dd[a["card"]])
                button(page, names["gin"] if dd[best["card"]] == 0 else names["knock"]).click()
                page.locator(".panel.knock").wait_for()
                button(page, names["confirm"]).click()
            else:
                card = min((a["card"] for a in view["legal"] if a["type"] == "discard"), key=lambda c: (dd[c], c))
                page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
                page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    raise AssertionError("the deal did not end")


def near_the_deal_end(seed="TEST-0001", turns=2):
    """`seed`'s first deal (traditional rules, the computer at Fácil) played as play_to_deal_panel
    plays it, saved at the start of the player's last `turns` turns: the table gets there without
    the page playing (and the computer thinking) the turns before, the end is played by hand."""
    match = gin.Match.new(seed=seed)
    match.meta["level"] = "easy"
    starts = []
    while not match.results:
        view = match.view(match.to_act)
        if match.to_act == 1:
            action = gin.ai.choose(view, "easy")
        elif view["phase"].startswith("upcard"):
            action = {"type": "pass"}
        elif view["phase"] == "draw":
            starts.append(len(match.to_save()["actions"]))
            action = {"type": "draw", "from": "stock"}
        else:
            dd = view["discard_deadwood"]
            knocks = [a for a in view["legal"] if a["type"] == "knock"]
            cards = [a["card"] for a in view["legal"] if a["type"] == "discard"]
            action = min(knocks, key=lambda a: dd[a["card"]]) if knocks else {"type": "discard", "card": min(cards, key=lambda c: (dd[c], c))}
        match.apply({**action, "seat": match.to_act})
    save = match.to_save()
    return {**save, "actions": save["actions"][:starts[-turns]]}


# --- 1. result panels survive a reload ------------------------------------------------------


def test_deal_result_survives_reload(page, open_app):
    """Desktop size: also writes the table and deal result screenshots at 1280×800."""
    # As the page keeps a match it began: no deal result closed yet.
    put_in_storage(page, {MATCH_KEY: near_the_deal_end(), ACK_KEY: {"seed": "TEST-0001", "deal": 0}})
    setup(page, open_app, DESKTOP)
    play_to_deal_panel(page, SPANISH, shots=lambda: shoot(page, "table-desktop", DESKTOP))
    result = check_deal_panel(page)
    shoot(page, "deal-result-desktop", DESKTOP)
    shown, view = panel_text(page), page.evaluate("window.ginApp.view")

    # Reloaded before "Siguiente": the same panel, the computer still waiting.
    again = reload(page, open_app)
    assert ui(page)["panel"] == "deal" and ui(page)["result"] == result
    # The saved table is drawn before the engine answers: "Difícil con tus cartas" may still be
    # on its way ("Difícil está jugando tus cartas…"); the same text once it has come.
    try:
        page.wait_for_function("(s) => document.querySelector('.panel.deal')?.innerText === s", arg=shown, timeout=20_000)
    except Exception:
        pass  # the assertion below shows the difference
    assert panel_text(page) == shown
    assert again == view
    assert page.evaluate("document.activeElement.dataset.key") == "next"

    button(page, "Siguiente").click()
    after = settle(page)
    assert ui(page)["panel"] is None
    # Reloaded after "Siguiente": play goes on, no panel.
    assert reload(page, open_app)["history"] == after["history"]
    assert ui(page)["panel"] is None and page.locator(".panel.deal").count() == 0


def test_match_result_survives_reload(page, open_app):
    """The last deal of a match not yet closed: its panel, then the match's; both after reloads."""
    save = saved("over-OVER-0001.json")
    last = 13  # the deals in that save
    put_in_storage(page, {MATCH_KEY: save, ACK_KEY: {"seed": save["seed"], "deal": last - 1}})
    view = setup(page, open_app, PORTRAIT, seed=save["seed"])
    assert view["over"] and len(view["history"]) == last
    assert ui(page)["panel"] == "deal" and ui(page)["result"]["number"] == last
    check_deal_panel(page)
    button(page, "Siguiente").click()
    assert ui(page)["panel"] == "match"
    check_match_panel(page)
    shown = panel_text(page, "match")
    reload(page, open_app)
    assert ui(page)["panel"] == "match" and page.locator(".panel.deal").count() == 0
    assert panel_text(page, "match") == shown
    # "Repetir": the same seed from its start, nothing pending after a reload.
    button(page, "Repetir").click()
    fresh = settle(page)
    assert fresh["history"] == [] and not fresh["over"]
    reload(page, open_app)
    assert ui(page)["panel"] is None


# --- 2. void deals and big gin ----------------------------------------------------------------


def test_void_deal_panel(page, open_app):
    """A deal where nobody knocks (VOID-0019: pass, draw from the stock, throw the highest loose
    card, never knock; the computer at Fácil) ends void on the player's discard at two stock cards;
    "Siguiente" announces the next deal, naming its dealer in person (test_table_newcomer's wording)."""
    save = saved("void-VOID-0019.json")
    put_in_storage(page, {MATCH_KEY: save})
    view = setup(page, open_app, PORTRAIT, seed=save["seed"])
    assert view["phase"] == "discard" and view["stock_count"] == 2 and view["history"] == []
    # Traditional rules: no big gin button, ever.
    assert button(page, "Gin grande").count() == 0
    page.locator('.hand [data-card="QC"]').click(position={"x": 8, "y": 20})
    page.locator('.hand [data-card="QC"]').click(position={"x": 8, "y": 20})
    settle(page)
    assert ui(page)["panel"] == "deal"
    result = check_deal_panel(page)
    assert result["kind"] == "void" and result["winner"] is None and result["points"] == 0
    panel = page.locator(".panel.deal")
    assert panel.locator("h2").text_content() == "Mano 1 · Mano nula"
    assert panel.locator(".headline").text_content() == "Quedan dos cartas en el mazo: nadie puntúa y reparte el mismo."
    assert panel.locator(".operation").count() == 0 and panel.locator(".role").count() == 0
    assert panel.locator(".totals").text_content() == "Marcador: Tú 0 · Rival 0 (meta 100)"
    shoot(page, "deal-void", PORTRAIT)
    button(page, "Siguiente").click()
    after = settle(page)
    assert after["deal_number"] == 2 and after["dealer"] == result["dealer"] and after["scores"] == [0, 0]
    lines = page.locator("#announcer p").all_inner_texts()
    expected = "Mano 2: repartes tú." if after["dealer"] == 0 else "Mano 2: reparte el rival."
    assert expected in lines, lines


def test_big_gin_through_the_menu_and_a_save(page, open_app):
    """Big gin on in the custom profile (menu, next match); a save of that match (BIGG-0009) where
    the player's eleven cards all meld: "Gin grande", its confirmation, its score."""
    save = saved("big-gin-BIGG-0009.json")
    setup(page, open_app, PORTRAIT, seed=save["seed"])
    assert button(page, "Gin grande").count() == 0
    button(page, "Menú").click()
    page.select_option("#menu-profile", "custom")
    page.select_option("#menu-customOption-big_gin_bonus", "31")
    button(page, "Repetir").click()
    # In the middle of a match "Repetir" asks first.
    button(page, "Empezar").click()
    view = settle(page)
    assert view["seed"] == save["seed"] and view["rules"] == save["rules"]

    # The same match further on (the engine replays the save's actions).
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [MATCH_KEY, json.dumps(save)])
    view = reload(page, open_app)
    assert view["phase"] == "discard" and len(view["hand"]) == 11
    big = button(page, "Gin grande")
    assert big.count() == 1 and any(a["type"] == "big_gin" for a in view["legal"])
    big.click()
    knock = page.locator(".panel.knock")
    assert knock.locator("h2").text_content() == "Gin grande"
    assert knock.locator(".knock-card.in-deadwood").count() == 0
    assert knock.locator(".knock-card.in-meld").count() == 11
    button(page, "Confirmar").click()
    settle(page)
    result = check_deal_panel(page)
    defender = result["hands"][1]["points"]
    assert result["kind"] == "big_gin" and result["winner"] == 0 and result["points"] == 31 + defender
    panel = page.locator(".panel.deal")
    assert panel.locator("h2").text_content() == "Mano 1 · Gin grande"
    assert panel.locator(".operation").text_content() == f"31 + {defender} = {31 + defender} (Gin grande)"
    assert panel.locator(".headline").text_content() == f"Ganas la mano: {31 + defender} puntos."
    shoot(page, "deal-big-gin", PORTRAIT)


# --- 3. English ---------------------------------------------------------------------------------


def dictionaries():
    return i18n_dictionaries()


def no_spanish(page, dicts):
    assert page.evaluate("document.documentElement.lang") == "en"
    assert_readable(page, "English page")


def test_english_deal(page, open_app):
    dicts = dictionaries()
    assert set(dicts["en"]) == set(dicts["es"]), set(dicts["en"]) ^ set(dicts["es"])
    view = setup(page, open_app, PORTRAIT, seed="TEST-0001", settings={"speed": "instant", "level": "easy", "lang": "en"})
    assert page.evaluate("document.documentElement.lang") == "en"
    for name in ("Menu", "Hint", "Stock", "Discard pile", "Speed up"):
        assert button(page, name).count() == 1, name
    if view["phase"].startswith("upcard"):
        assert page.locator(".actions .btn").evaluate_all("els => els.map(e => e.textContent)") == ["Take", "Pass"]
    no_spanish(page, dicts)
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    ranks = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
    for card, name in page.locator(".hand .hand-card").evaluate_all("els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])"):
        assert name.startswith(f"{ranks.get(card[0], card[0])} of {suits[card[1]]}, ")

    def at_discard():
        assert button(page, "Discard").count() == 1
        no_spanish(page, dicts)

    play_to_deal_panel(page, ENGLISH, shots=at_discard)
    view = page.evaluate("window.ginApp.view")
    result = view["history"][-1]
    panel = page.locator(".panel.deal")
    kind = {"knock": "Knock", "gin": "Gin", "big_gin": "Big gin", "undercut": "Undercut", "void": "Void deal"}[result["kind"]]
    assert panel.locator("h2").text_content() == f"Deal 1 · {kind}"
    headline = panel.locator(".headline").text_content()
    if result["kind"] == "void":
        assert headline == "Two cards left in the stock: nobody scores and the same dealer deals again."
    else:
        who = "You win" if result["winner"] == 0 else "The computer wins"
        assert headline == f"{who} the deal: {result['points']} points."
        k = result["hands"][result["knocker"]]["points"]
        d = result["hands"][1 - result["knocker"]]["points"]
        rules, points = view["rules"], result["points"]
        assert panel.locator(".operation").text_content() == {
            "knock": f"{d} − {k} = {points}",
            "undercut": f"{k} − {d} + {rules['undercut_bonus']} = {points} (undercut)",
            "gin": f"{rules['gin_bonus']} + {d} = {points} (gin)",
        }[result["kind"]]
        for seat, who in ((0, "You"), (1, "Computer")):
            role = "knocks" if result["knocker"] == seat else "defends"
            assert panel.locator(f".hand-summary.seat-{seat} h3").text_content() == f"{who} · {role}"
    a, b = result["scores"]
    assert panel.locator(".totals").text_content() == f"Score: You {a} · Computer {b} (target 100)"
    assert button(page, "Next").count() == 1 and button(page, "Siguiente").count() == 0
    no_spanish(page, dicts)
    shoot(page, "deal-result-en", PORTRAIT)
    button(page, "Next").click()
    settle(page)
    assert page.locator(".panel.deal").count() == 0
    no_spanish(page, dicts)


# --- 4. clean-ups -------------------------------------------------------------------------------

# Keys the code builds from a value (`error.${code}`, `kind.${result.kind}`...).
DYNAMIC_KEYS = re.compile(
    r"^(error|boot|kind|profile|level|speed|sort|luck\.end|reason|bonus|rank|suit|article|lang)\.\w+$"
    r"|^help\.\w+_title$|^help\.key_\w$|^knock\.title_\w+$|^menu\.(gin_bonus|undercut_bonus|big_gin_bonus|target)$"
    r"|^(ranks|card\.the|turn\.selected)[._]\w+$|^(points|loose)\.(one|other)$"
)


def test_every_text_key_is_used_and_no_inline_code():
    dicts = dictionaries()
    web = ROOT / "web"
    code = "\n".join(p.read_text() for p in web.rglob("*.js") if p.name != "i18n.js" and "node_modules" not in p.relative_to(web).parts)
    unused = [k for k in dicts["es"] if k != "title" and f'"{k}"' not in code and not DYNAMIC_KEYS.match(k)]
    assert not unused, f"texts no code uses: {unused}"
    # CSP is 'self' only: no inline scripts or styles in the page.
    html = (ROOT / "web" / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "<style" not in html and " style=" not in html
    assert "innerHTML" not in code and "insertAdjacentHTML" not in code
