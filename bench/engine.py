"""Engine speed: exact deadwood, the minimum-deadwood discard, and whole greedy deals (CPython).

Medians over fresh random hands (the solver's cache is cleared before every
timed call, so no figure profits from an earlier identical hand) and over
seeded deals played by two greedy players.  Targets from issue 2 are printed
beside each figure; nothing is asserted.  Run with `python3 build.py bench`
or directly: `python3 bench/engine.py [hands] [deals]`.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gin  # noqa: E402
from gin import melds  # noqa: E402
from gin.cards import ALL_CARDS  # noqa: E402
from gin.deal import Deal  # noqa: E402
from gin.melds import discard_deadwood_masks, solve  # noqa: E402
from gin.shuffle import deal_cards  # noqa: E402

HANDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
DEALS = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
clock = time.perf_counter_ns


def random_hands(size: int, count: int, seed: int) -> list[tuple[gin.Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(ALL_CARDS, size)) for _ in range(count)]


def dense_hands(size: int, count: int, seed: int) -> list[tuple[gin.Card, ...]]:
    """Meld-dense hands: drawn from 4 neighbouring ranks in all four suits."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        low = rng.randrange(0, 10)
        pool = [c for c in ALL_CARDS if low < c.rank <= low + 4]
        out.append(tuple(rng.sample(pool, size)))
    return out


def time_each(fn, items) -> list[float]:
    """Microseconds per call, the cache cleared (untimed) before each."""
    out = []
    cache = melds._CACHE
    for item in items:
        cache.clear()
        melds._PACKED.clear()
        melds._WITHOUT.clear()
        t = clock()
        fn(item)
        out.append((clock() - t) / 1000)
    return out


def best_discard(cards) -> gin.Card:
    after = gin.melds.discard_deadwoods(cards)
    return min(after, key=after.__getitem__)


def greedy(deal: Deal) -> dict:
    """Take/draw the pile card only if it lowers the best deadwood; knock when
    possible; else discard the card that leaves the least deadwood."""
    seat = deal.to_act
    hand = deal.hand_masks[seat]
    phase = deal.phase
    if phase in ("upcard_nondealer", "upcard_dealer", "draw"):
        top = deal.pile[-1] if deal.pile and not deal.both_passed else None
        if top is not None:
            with_top = discard_deadwood_masks(hand | 1 << top)
            del with_top[top]
            if min(with_top.values()) < solve(hand)[0]:
                return {"type": "take"} if phase != "draw" else {"type": "draw", "from": "discard"}
        return {"type": "pass"} if phase != "draw" else {"type": "draw", "from": "stock"}
    after = discard_deadwood_masks(hand)
    after.pop(deal.taken, None)
    card = min(after, key=lambda i: (after[i], -ALL_CARDS[i].points, i))
    kind = "knock" if after[card] <= deal.rules.knock_limit else "discard"
    return {"type": kind, "card": str(ALL_CARDS[card])}


def play_deal(number: int, rules) -> tuple[float, str, int]:
    nondealer, dealer, upcard, stock = deal_cards("BENCH", number)
    melds._CACHE.clear()
    melds._PACKED.clear()
    melds._WITHOUT.clear()
    t = clock()
    deal = Deal.from_indices(
        rules=rules, dealer=number % 2, nondealer_cards=nondealer, dealer_cards=dealer, upcard=upcard, stock=stock
    )
    actions = 0
    while deal.outcome is None:
        deal.apply(greedy(deal))
        actions += 1
    return (clock() - t) / 1e6, deal.outcome.kind, actions


def line(name: str, value: float, unit: str, target: float) -> None:
    mark = "ok" if value <= target else "OVER"
    print(f"  {name:<48} {value:9.1f} {unit:<3} (target <= {target:g} {unit})  {mark}")


def main() -> int:
    print(f"gin engine bench — CPython {platform.python_version()} on {platform.machine()}, "
          f"{HANDS} hands per figure, {DEALS} deals")
    h10 = random_hands(10, HANDS, 10)
    h11 = random_hands(11, HANDS, 11)
    # A short untimed warm-up (imports, tables), then the figures.
    time_each(gin.deadwood, h10[:500])
    d10 = statistics.median(time_each(gin.deadwood, h10))
    all11 = time_each(gin.deadwood, h11)
    d11 = statistics.median(all11)
    disc = statistics.median(time_each(best_discard, h11))
    rules = gin.Rules.profile("traditional")
    results = [play_deal(n, rules) for n in range(1, DEALS + 1)]
    per_deal = statistics.median(r[0] for r in results)
    dense = time_each(gin.deadwood, dense_hands(11, HANDS // 4, 12))
    dense_disc = time_each(best_discard, dense_hands(11, HANDS // 4, 13))
    line("exact deadwood, random 10-card hand (median)", d10, "µs", 25)
    line("exact deadwood, random 11-card hand (median)", d11, "µs", 40)
    line("minimum-deadwood discard, 11 cards (median)", disc, "µs", 60)
    line(f"full deal, two greedy players (median of {DEALS})", per_deal, "ms", 15)
    print("  for information (no target):")
    print(f"    random 11-card deadwood p99 {statistics.quantiles(all11, n=100)[-1]:.1f} µs, "
          f"max {max(all11):.1f} µs")
    print(f"    meld-dense 11-card deadwood median {statistics.median(dense):.1f} µs, "
          f"p99 {statistics.quantiles(dense, n=100)[-1]:.1f} µs")
    print(f"    meld-dense 11-card discard choice median {statistics.median(dense_disc):.1f} µs, "
          f"p99 {statistics.quantiles(dense_disc, n=100)[-1]:.1f} µs")
    big = time_each(gin.deadwood, random_hands(40, 20, 40) + [tuple(ALL_CARDS)] * 5)
    print(f"    big card sets (40 cards and the whole deck) deadwood max {max(big) / 1000:.1f} ms")
    kinds: dict[str, int] = {}
    for _, kind, _ in results:
        kinds[kind] = kinds.get(kind, 0) + 1
    mean_actions = statistics.mean(r[2] for r in results)
    print(f"  deals: {', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}; "
          f"{mean_actions:.0f} actions per deal on average; "
          f"p90 deal {statistics.quantiles([r[0] for r in results], n=10)[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
