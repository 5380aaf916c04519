"""Issue 14's arena runs, interleaved, with a cumulative report every minute.

    python3 bench/final_runs.py WORKERS [OUT]

Every pairing of the targets (hard vs the baseline under standard,
traditional and custom gin 25 / big gin 31; hard vs each other pool style
under standard and traditional; the level ordering) uses the arena's own
match function and seeds (match n: seed "14-n", A at seat n % 2), so each
pairing's figures are those of ``python3 -m gin.arena --seed 14`` over the
same match numbers.  The matches are interleaved (the baseline pairings every
match number, the pool styles and hard vs normal every third) so that a run
cut short still reports every pairing; OUT (default /tmp/final_report.txt) is
rewritten each minute.
"""
import os
import sys, time, multiprocessing
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gin import arena
from gin.rules import Rules

SEED = "14"
N = 1000
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/final_report.txt"
STD = Rules.profile("standard").to_dict()
TRAD = Rules.profile("traditional").to_dict()
CUSTOM = Rules.profile("custom", gin_bonus=25, big_gin_bonus=31).to_dict()
PAIRS = [
    ("standard", "hard", "baseline", STD, 200), ("traditional", "hard", "baseline", TRAD, 200),
    ("custom gin 25 big gin 31", "hard", "baseline", CUSTOM, 200),
    ("standard", "hard", "greedy", STD, 200), ("standard", "hard", "pairs", STD, 200), ("standard", "hard", "ginwait", STD, 200),
    ("traditional", "hard", "greedy", TRAD, 200), ("traditional", "hard", "pairs", TRAD, 200), ("traditional", "hard", "ginwait", TRAD, 200),
    ("traditional", "hard", "normal", TRAD, 200), ("traditional", "normal", "easy", TRAD, 200), ("traditional", "easy", "random", TRAD, 60),
]

def job(arg):
    k, n = arg
    name, a, b, rules, md = PAIRS[k]
    return k, arena._one((a, b, SEED, n, rules, md))

def main():
    # the baseline targets (0-2) every match number, the pool styles and
    # hard vs normal every third, the cheap level pairings every one
    jobs = []
    for n in range(N):
        ks = [0, 1, 2, 10, 11] + ([3, 4, 5, 6, 7, 8, 9] if n % 3 == 0 else [])
        jobs += [(k, n) for k in ks]
    res = {k: [] for k in range(len(PAIRS))}
    t0 = time.time(); last = 0
    with multiprocessing.get_context("fork").Pool(int(sys.argv[1])) as pool:
        for i, (k, st) in enumerate(pool.imap_unordered(job, jobs, chunksize=1)):
            st.actions = []
            res[k].append(st)
            if time.time() - last > 60 or i == len(jobs) - 1:
                last = time.time()
                out = [f"# {time.strftime('%H:%M:%S')} after {time.time() - t0:.0f} s, seed {SEED}"]
                for kk, (name, a, b, rules, md) in enumerate(PAIRS):
                    if res[kk]:
                        out.append(f"## [{name}] {a} vs {b} (max deals {md})\n" + arena.report(a, b, res[kk]))
                open(OUT + ".tmp", "w").write("\n".join(out) + "\n")
                os.replace(OUT + ".tmp", OUT)

if __name__ == "__main__":
    main()
