"""Issue 25's arena runs: every level against the baseline under every variant.

    python3 bench/tune/variants.py WORKERS [MATCHES] [LEVEL_MATCHES] [OUT] [FIRST] [ONLY]

For each variant (Oklahoma; Straight Gin; traditional with Hollywood
scoring), Difícil plays MATCHES (default 300) matches against the EAAI
baseline and Normal and Fácil LEVEL_MATCHES each (default 80: enough to
order the levels, whose gaps are wide), on the arena's own
match function and seeds (match n: seed "25-n", A at seat n % 2), so a
pairing's figures are those of ``python3 -m gin.arena --seed 25`` over the
same match numbers.  The baseline needs no adapting: it knocks as soon as
the deal's legal actions allow, so it follows the deal's knock limit and
plays only for gin where knocking is impossible.  Matches are interleaved
(every pairing at each match number) so that a run cut short still reports
every pairing; OUT (default /tmp/variants_report.txt) is rewritten each
minute.  FIRST (default 0) starts at that match number and ONLY (a variant's
name) keeps one variant, so a run can be continued or split: each match is
a pure function of its number, so the pieces add up to one run.
"""
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gin import arena  # noqa: E402
from gin.rules import Rules  # noqa: E402

SEED = "25"
VARIANTS = [
    ("oklahoma", Rules.profile("oklahoma")),
    ("straight", Rules.profile("straight")),
    ("traditional, hollywood", Rules.profile("traditional", hollywood=True)),
]
LEVELS = ("hard", "normal", "easy")
PAIRS = [(name, level, rules.to_dict()) for name, rules in VARIANTS for level in LEVELS]


def job(arg):
    k, n = arg
    _, level, rules = PAIRS[k]
    return k, n, arena._one((level, "baseline", SEED, n, rules, 200))


def table(results, done_matches):
    lines = [f"{'variant':28} {'level':7} {'matches':>7}  win rate (95% CI)"]
    for k, (name, level, _) in enumerate(PAIRS):
        rs = results[k]
        n = len(rs)
        if not n:
            continue
        score = sum(1 if r.winner == 0 else 0.5 if r.winner is None else 0 for r in rs)
        lo, hi = arena.wilson(score, n)
        lines.append(f"{name:28} {level:7} {n:7d}  {score / n:6.1%} ({lo:.1%} – {hi:.1%})")
    return "\n".join(lines)


def main() -> None:
    if len(sys.argv) < 2 or not sys.argv[1].isdigit():
        sys.exit("usage: python3 bench/tune/variants.py WORKERS [MATCHES] [LEVEL_MATCHES] [OUT] [FIRST] [ONLY]")
    workers = int(sys.argv[1])
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    level_matches = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    out = Path(sys.argv[4] if len(sys.argv) > 4 else "/tmp/variants_report.txt")
    first = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    only = sys.argv[6] if len(sys.argv) > 6 else None
    count = [matches if level == "hard" else level_matches for _, level, _ in PAIRS]
    jobs = [
        (k, n)
        for n in range(first, matches)
        for k in range(len(PAIRS))
        if n < count[k] and (only is None or PAIRS[k][0] == only)
    ]
    results = [[] for _ in PAIRS]
    t0 = last = time.time()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for k, n, st in pool.imap_unordered(job, jobs, chunksize=1):
            results[k].append(st)
            if time.time() - last > 60:
                last = time.time()
                out.write_text(f"{time.time() - t0:.0f} s\n" + table(results, n) + "\n")
    text = f"{time.time() - t0:.0f} s, finished\n" + table(results, matches)
    out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
