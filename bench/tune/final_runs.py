"""Issue 14's arena runs, interleaved, with a cumulative report every minute.

    python3 bench/tune/final_runs.py WORKERS [OUT]

Every pairing of the targets (hard vs the baseline under standard,
traditional and custom gin 25 / big gin 31; hard vs each other pool style
under standard and traditional; the level ordering) uses the arena's own
match function and seeds (match n: seed "14-n", A at seat n % 2), so each
pairing's figures are those of ``python3 -m gin.arena --seed 14`` over the
same match numbers.  The matches are interleaved (every pairing at each
match number) so that a run cut short still reports every pairing; OUT
(default /tmp/final_report.txt) is rewritten each minute.  The ablations
(hard with the knock valued in points instead of match chances, and hard with
its old fixed knock rule) play the first 500 match numbers of the baseline
pairings, and the report compares them paired, match by match.
"""
import os
import sys, time, multiprocessing
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gin import arena
from gin.ai import policy
from gin.rules import Rules

SEED = "14"
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/final_report.txt"
STD = Rules.profile("standard").to_dict()
TRAD = Rules.profile("traditional").to_dict()
CUSTOM = Rules.profile("custom", gin_bonus=25, big_gin_bonus=31).to_dict()
# (name, A, B, rules, max deals, matches, changes to hard's parameters)
PAIRS = [
    ("standard", "hard", "baseline", STD, 200, 1000, {}),
    ("traditional", "hard", "baseline", TRAD, 200, 1000, {}),
    ("custom gin 25 big gin 31", "hard", "baseline", CUSTOM, 200, 1000, {}),
    *[(p, "hard", s, r, 200, 1000, {}) for p, r in (("standard", STD), ("traditional", TRAD))
      for s in ("greedy", "pairs", "ginwait")],
    ("traditional", "hard", "normal", TRAD, 200, 1000, {}),
    ("traditional", "normal", "easy", TRAD, 200, 1000, {}),
    ("traditional", "easy", "random", TRAD, 60, 1000, {}),
    # ablations, on the first 500 match numbers of the runs above (paired)
    ("standard, points not match chances", "hard", "baseline", STD, 200, 500, {"score_aware": 0}),
    ("traditional, points not match chances", "hard", "baseline", TRAD, 200, 500, {"score_aware": 0}),
    ("standard, old knock rule", "hard", "baseline", STD, 200, 500, {"model": 0}),
    ("traditional, old knock rule", "hard", "baseline", TRAD, 200, 500, {"model": 0}),
]


def job(arg):
    k, n = arg
    name, a, b, rules, md, _, changes = PAIRS[k]
    saved = {key: getattr(policy.HARD, key) for key in changes}
    for key, value in changes.items():
        setattr(policy.HARD, key, value)
    try:
        return k, n, arena._one((a, b, SEED, n, rules, md))
    finally:
        for key, value in saved.items():
            setattr(policy.HARD, key, value)


def label(pair):
    name, a, b, rules, md, _, changes = pair
    return f"[{name}] {a} vs {b} (max deals {md})"


def main():
    if len(sys.argv) < 2 or not sys.argv[1].isdigit():
        sys.exit("usage: python3 bench/tune/final_runs.py WORKERS [OUT]")
    # interleaved by match number, so that a run cut short reports every pairing
    n_max = max(p[5] for p in PAIRS)
    jobs = [(k, n) for n in range(n_max) for k, p in enumerate(PAIRS) if n < p[5]]
    res = {k: [] for k in range(len(PAIRS))}
    wins = {k: {} for k in range(len(PAIRS))}
    t0 = time.time(); last = 0
    with multiprocessing.get_context("fork").Pool(int(sys.argv[1])) as pool:
        for i, (k, n, st) in enumerate(pool.imap_unordered(job, jobs, chunksize=1)):
            st.actions = []
            res[k].append(st)
            wins[k][n] = 1.0 if st.winner == 0 else 0.5 if st.winner is None else 0.0
            if time.time() - last > 60 or i == len(jobs) - 1:
                last = time.time()
                out = [f"# {time.strftime('%H:%M:%S')} after {time.time() - t0:.0f} s, seed {SEED}"]
                for kk, pair in enumerate(PAIRS):
                    if res[kk]:
                        out.append(f"## {label(pair)}\n" + arena.report(pair[1], pair[2], res[kk]))
                out.append("# paired: ablation vs shipped on the same match numbers (A wins: both, ablation only, shipped only)")
                for kk, pair in enumerate(PAIRS):
                    if pair[6]:
                        base = next(j for j, p in enumerate(PAIRS) if not p[6] and p[1:4] == pair[1:4])
                        common = sorted(set(wins[kk]) & set(wins[base]))
                        if common:
                            x = sum(wins[kk][n] for n in common) / len(common)
                            y = sum(wins[base][n] for n in common) / len(common)
                            only_a = sum(1 for n in common if wins[kk][n] > wins[base][n])
                            only_b = sum(1 for n in common if wins[kk][n] < wins[base][n])
                            out.append(f"{label(pair)}: {len(common)} matches, ablation {x:.1%}, shipped {y:.1%}, "
                                       f"ablation-only wins {only_a}, shipped-only wins {only_b}")
                open(OUT + ".tmp", "w").write("\n".join(out) + "\n")
                os.replace(OUT + ".tmp", OUT)


if __name__ == "__main__":
    main()
