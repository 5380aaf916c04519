"""Difícil's danger model (issue 34): collect positions, fit, measure.

    python3 bench/tune/tune_danger.py collect --matches 120 --seed DTRAIN --out runs/train.jsonl --workers 2
    python3 bench/tune/tune_danger.py collect --matches 40 --seed DTEST --out runs/test.jsonl --workers 2
    python3 bench/tune/tune_danger.py train runs/train.jsonl runs/test.jsonl [--write]

``collect`` plays ``hard0`` against every style of the arena's pool and
against itself (match n: seed ``"<seed>-<style>-n"``, hard0 at seat n % 2)
and keeps, at each of hard0's discards, the public part of its view and the
opponent's hand (the truth, for the labels only; a JSON line each).

``train`` computes the public features of ``gin.ai.danger`` for every card
hard0 could discard (the card's, its seven slots' and its six pairs'), fits a
logistic regression (numpy, L2, deterministic) on the matches n % N != 0 of
the files and reports on the held-out rest, per opponent style: the AUC and
the log-loss of "this card completes a meld of the opponent now" for today's
danger (``Knowledge.danger``) and the new one.  ``--write`` writes the
weights to ``gin/ai/danger_data.py``.
numpy is needed here only (``pip install numpy``; the game never imports it).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import ai  # noqa: E402
from gin.ai import danger as danger_mod  # noqa: E402
from gin.ai.knowledge import Knowledge, bits  # noqa: E402
from gin.match import Match  # noqa: E402
from gin.rules import Rules  # noqa: E402

STYLES = ai.POOL + ("hard0",)
# what Knowledge reads (the rest of a view does not go into the danger)
KEEP = ("seat", "hand", "phase", "taken", "discard", "opponent", "stock_count", "rules", "knock_limit", "events",
        "scores", "deal_number")


def _match(job: tuple[str, str, int, str, str, int]) -> list[dict]:
    players, style, n, seed, profile, every = job
    names = players.split(",")
    player = names[n % len(names)]
    m = Match.new(seed=f"{seed}-{style}-{n}", rules=Rules.profile(profile))
    me = n % 2
    out = []
    seen = 0
    while not m.over and len(m.results) < 200:
        seat = m.to_act
        view = m.view(seat)
        if seat == me and view["phase"] == "discard":
            if seen % every == n % every:
                out.append({"style": style, "player": player, "match": n, "view": {k: view.get(k) for k in KEEP},
                            "opp": m.deal.hand_masks[1 - seat]})
            seen += 1
        m.apply(ai.choose(view, player if seat == me else style))
    return out


def collect(args) -> None:
    jobs = [(args.player, s, n, args.seed, args.profile, args.every)
            for n in range(args.matches) for s in args.styles.split(",")]
    with open(args.out, "w") as f, multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for i, rows in enumerate(pool.imap_unordered(_match, jobs, chunksize=1), 1):
            for r in rows:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
            if i % 20 == 0:
                print(f"  {i}/{len(jobs)} matches", file=sys.stderr, flush=True)


def would_meld(opp: int, c: int) -> bool:
    return any((opp >> a) & 1 and (opp >> b) & 1 for a, b, _ in danger_mod.PAIRS[c])


def featurize(path: str):
    """Per card the player could discard: the model's inputs, today's danger, the label,
    the style, the match and the player, in a fixed order (numpy arrays; cached beside
    the file)."""
    import numpy as np

    cache = Path(path + ".npz")
    if cache.exists() and cache.stat().st_mtime > Path(path).stat().st_mtime:
        z = np.load(cache)
        if z["x"].shape[1] == len(danger_mod.FEATURES):
            return z["x"], z["old"], z["y"], z["style"], z["match"], z["player"]
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    # the order the workers finished in does not matter: by style and match, each
    # match's positions in the order played
    records.sort(key=lambda r: (r["style"], r["match"]))
    x, old, y, style, match, player = [], [], [], [], [], []
    for r in records:
        k = Knowledge(r["view"])
        d = danger_mod.Danger(k)
        for c in bits(k.hand):
            if c == k.taken:
                continue
            x.append(d.features(c))
            old.append(k.danger(c))
            y.append(would_meld(r["opp"], c))
            style.append(r["style"])
            match.append(r["match"])
            player.append(r.get("player", "hard0"))
    out = (np.array(x, dtype=float), np.array(old), np.array(y, dtype=float), np.array(style), np.array(match),
           np.array(player))
    np.savez(cache, x=out[0], old=out[1], y=out[2], style=out[3], match=out[4], player=out[5])
    return out


def fit_logistic(x, y, *, l2: float, iters: int = 30):
    """Logistic regression by Newton's method on the mean log-loss, inputs scaled to
    unit variance, an L2 penalty on every weight but the bias; the scaling is then
    folded into the weights."""
    import numpy as np

    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-6] = 1.0
    xs = np.hstack([np.ones((len(x), 1)), (x - mean) / std])
    w = np.zeros(xs.shape[1])
    reg = np.full(xs.shape[1], l2)
    reg[0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(xs @ w)))
        g = xs.T @ (p - y) / len(y) + 2 * reg * w
        h = (xs * (p * (1 - p))[:, None]).T @ xs / len(y) + np.diag(2 * reg + 1e-9)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    weights = w[1:] / std
    return weights, float(w[0] - mean @ weights)


def predict(model, x):
    import numpy as np

    w, b = model
    return 1.0 / (1.0 + np.exp(-(x @ w + b)))


def auc(p, y) -> float:
    import numpy as np

    order = np.argsort(p, kind="mergesort")
    p, y = p[order], y[order]
    ranks = np.empty(len(p))
    i = 0
    while i < len(p):
        j = i
        while j + 1 < len(p) and p[j + 1] == p[i]:
            j += 1
        ranks[i : j + 1] = (i + j) / 2 + 1
        i = j + 1
    pos = y.sum()
    neg = len(y) - pos
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def logloss(p, y) -> float:
    import numpy as np

    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(args) -> None:
    import numpy as np

    parts = [featurize(path) for path in args.files]
    x, old, y, style, match, player = (np.concatenate([p[i] for p in parts]) for i in range(6))
    test = match % args.test_every == 0
    model = fit_logistic(x[~test], y[~test], l2=args.l2)
    print(f"logistic regression on {(~test).sum()} cards ({y[~test].mean():.3f} complete a meld), L2 {args.l2}; "
          f"test: the matches n % {args.test_every} == 0, {test.sum()} cards")
    new = predict(model, x)
    report("train", old[~test], new[~test], y[~test], style[~test])
    for who in sorted(set(player[test])):
        m = test & (player == who)
        report(f"test, {who} to discard", old[m], new[m], y[m], style[m])
    if args.write:
        write(model, args)


def report(label: str, old, new, y, style) -> None:
    import numpy as np

    print(f"\n{label}:\n| opponent | cards | completes a meld | AUC today | AUC new | log-loss today | log-loss new |")
    print("|---|---|---|---|---|---|---|")
    names = [s for s in STYLES if s in set(style)] + ["all"]
    for s in names:
        m = style == s if s != "all" else np.ones(len(y), dtype=bool)
        print(f"| {s} | {m.sum()} | {y[m].mean():.3f} | {auc(old[m], y[m]):.3f} | {auc(new[m], y[m]):.3f} | "
              f"{logloss(old[m], y[m]):.4f} | {logloss(new[m], y[m]):.4f} |")


def write(model, args) -> None:
    w, b = model
    path = ROOT / "gin" / "ai" / "danger_data.py"
    r = lambda v: float(f"{float(v):.6g}")  # noqa: E731
    rows = "\n".join(f"    {r(v)!r},  # {name}" for v, name in zip(w, danger_mod.FEATURES))
    text = (
        '"""Written by bench/tune/tune_danger.py (do not edit): the weights of Difícil\'s danger\n'
        "model (gin.ai.danger), a logistic regression fitted on positions against every\n"
        "style of the arena's pool.\n\n"
        "W[j]: the weight of input j (gin.ai.danger.FEATURES[j], named beside it, its scaling\n"
        "folded in); B: the bias.\n"
        f"Source: python3 bench/tune/tune_danger.py train {' '.join(Path(f).name for f in args.files)} "
        f"--l2 {args.l2} --test-every {args.test_every} (bench/README.md, issue 34)\n"
        '"""\n\n'
        f"W = [\n{rows}\n]\n"
        f"B = {r(b)!r}\n"
    )
    path.write_text(text)
    print(f"wrote {path}")


def _replay_as_baseline(hand, clues, now, rng, knock_limit=10, eps=0.02):
    """A ceiling, for the baseline opponent only: the sampler's replay with the
    baseline's own rules as the likelihood (it takes exactly the cards that join a
    meld, throws a card of least deadwood after it, knocks as soon as it may); each
    rule broken weighs ``eps``.  Research only: the game cannot know its opponent's
    rules."""
    from gin.ai import sampler
    from gin.melds import discard_deadwood_masks

    w = 1.0
    draws = now
    public = 0
    for kind, card, before in clues:
        if kind == "picked":
            public |= 1 << card
    for kind, card, before in clues:
        while draws > before:
            free = bits(hand & ~public)
            if free:
                hand &= ~(1 << free[rng.randrange(len(free))])
            draws -= 1
        bit = 1 << card
        if kind == "discarded":
            hand |= bit
            after = discard_deadwood_masks(hand)
            least = min(after.values())
            if after.get(card, 999) > least or least <= knock_limit:
                w *= eps
        elif kind == "picked":
            hand &= ~bit
            public &= ~bit
            if not sampler._melds(hand, card):
                w *= eps
        elif sampler._melds(hand, card):
            w *= eps
    return w


def _sampler_rows(job):
    """Per card the player could discard in the positions of ``lines``: style, label,
    today's danger, the shipped logistic model's, the sampler's; and the sampler's time."""
    import time

    from gin.ai import sampler

    lines, settings = job
    for name, value in settings.items():
        if name == "EXACT_BASELINE":
            sampler._replay = _replay_as_baseline
        else:
            setattr(sampler, name, value)
    rows, times, ess = [], [], []
    for line in lines:
        r = json.loads(line)
        k = Knowledge(r["view"])
        logistic = danger_mod.Danger(k)
        t = time.process_time()
        s = sampler.Sampled(k)
        cards = [c for c in bits(k.hand) if c != k.taken]
        new = [s.danger(c) for c in cards]
        times.append(time.process_time() - t)
        ess.append(s.ess)
        for c, p in zip(cards, new):
            rows.append((r["style"], would_meld(r["opp"], c), k.danger(c), logistic.danger(c), p, len(times)))
    return rows, times, ess


def sampler_eval(args) -> None:
    """AUC and log-loss of today's danger, the logistic model and the sampler on a test file."""
    import numpy as np

    settings = {}
    for pair in args.set:
        key, _, value = pair.partition("=")
        settings[key] = int(value) if key == "N" else float(value)
    with open(args.file) as f:
        lines = [line for i, line in enumerate(f) if line.strip() and i % args.every == 0
                 and (not args.style or f'"style":"{args.style}"' in line)]
    chunks = [lines[i :: args.workers * 4] for i in range(args.workers * 4)]
    rows, times, ess = [], [], []
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for r, t, e in pool.imap(_sampler_rows, [(c, settings) for c in chunks]):
            rows += r
            times += t
            ess += e
    style = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    cols = {name: np.array([r[i] for r in rows]) for i, name in ((2, "today"), (3, "logistic"), (4, "sampler"))}
    # does the sampler add to the logistic model?  Both logits stacked by a
    # two-input logistic regression, fitted on the even positions, reported on the odd
    # (and the other way round): no fitted value sees its own position's label
    logit = lambda p: np.log(np.clip(p, 1e-4, 1 - 1e-4) / (1 - np.clip(p, 1e-4, 1 - 1e-4)))  # noqa: E731
    pair = np.column_stack([logit(cols["logistic"]), logit(cols["sampler"])])
    half = np.array([r[5] % 2 for r in rows]) == 0
    stacked = np.empty(len(y))
    for fit_on in (half, ~half):
        stacked[~fit_on] = predict(fit_logistic(pair[fit_on], y[fit_on], l2=0.0), pair[~fit_on])
    cols["stacked"] = stacked
    print(f"{args.file}, one position in {args.every}: {len(lines)} positions, {len(rows)} cards; settings {settings}; "
          f"sampler CPU per decision median {1000 * float(np.median(times)):.1f} ms, "
          f"p90 {1000 * float(np.quantile(times, 0.9)):.1f} ms; effective samples median "
          f"{float(np.median(ess)):.0f}, p10 {float(np.quantile(ess, 0.1)):.0f}")
    print("| opponent | cards | completes | AUC today | logistic | sampler | logistic + sampler | log-loss today | "
          "logistic | sampler | logistic + sampler |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for s in [s for s in STYLES if s in set(style)] + ["all"]:
        m = style == s if s != "all" else np.ones(len(y), dtype=bool)
        a = " | ".join(f"{auc(cols[n][m], y[m]):.3f}" for n in cols)
        b = " | ".join(f"{logloss(cols[n][m], y[m]):.4f}" for n in cols)
        print(f"| {s} | {m.sum()} | {y[m].mean():.3f} | {a} | {b} |", flush=True)


def main() -> int:
    if len(sys.argv) == 1:  # `python3 build.py bench` runs every script bare: a research script, not a benchmark
        print(__doc__.split("\n\n")[0] + " Research only: run it with arguments (bench/README.md).")
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--matches", type=int, default=40)
    c.add_argument("--seed", default="DTRAIN")
    c.add_argument("--profile", default="traditional")
    c.add_argument("--styles", default=",".join(STYLES))
    c.add_argument("--player", default="hard0", help="the seat measured (a comma list: match n plays the n-th)")
    c.add_argument("--every", type=int, default=1, help="keep one discard position in this many")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", required=True)
    t = sub.add_parser("train")
    t.add_argument("files", nargs="+", help="positions written by collect")
    t.add_argument("--test-every", type=int, default=5, help="hold out the matches n %% N == 0 to report on")
    t.add_argument("--l2", type=float, default=1e-3)
    t.add_argument("--write", action="store_true")
    e = sub.add_parser("sampler", help="today's danger, the logistic model and the sampler on a test file")
    e.add_argument("file")
    e.add_argument("--every", type=int, default=1, help="one position in this many")
    e.add_argument("--workers", type=int, default=2)
    e.add_argument("--style", help="only the positions against this opponent style")
    e.add_argument("--set", action="append", default=[], help="a setting of gin.ai.sampler, as NAME=value")
    args = p.parse_args()
    {"collect": collect, "train": train, "sampler": sampler_eval}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
