"""hard's belief about the opponent's hidden cards is informative and honest.

Measured against the truth in real play (hard against two styles of the
arena's pool: the baseline and the pair keeper, whose pick-ups and throws
follow different rules): the
chance that a card is in the opponent's hand, and the chance that a discard
would complete one of its melds (what ``hard`` avoids feeding), must agree
with how often it happens, and the danger must tell dangerous cards from safe
ones far better than chance.  A belief that ignored what the opponent picked
up, threw or refused (or read the events wrongly) fails here while every
legality and fairness test still passes.
"""

from __future__ import annotations

import bisect

import pytest

from gin.ai.knowledge import Knowledge, bits
from gin.arena import positions
from gin.melds import _meld_masks


def _would_meld(hand: int, card: int) -> bool:
    """Is there a meld of ``hand`` plus ``card`` that uses ``card``?  What the
    danger estimates, and what the baseline picks up."""
    return any((m >> card) & 1 for m, _ in _meld_masks(hand | (1 << card)))


STYLES = ("baseline", "pairs")


def _collect(style: str):
    """(predicted danger, melds?) per card hard could discard, and
    (predicted P(held), held?) per unseen card, over real positions."""
    danger, held = [], []
    for m, seat, view in positions("hard", style, f"BELIEF-{style}", 16, rules="traditional", max_deals=3):
        if view["phase"] == "discard":
            k = Knowledge(view)
            opp = m.deal.hand_masks[1 - seat]
            for c in bits(k.hand):
                if c != k.taken:
                    danger.append((k.danger(c), _would_meld(opp, c)))
            prob = k.opp_prob()
            for c in bits(k.unseen):
                held.append((prob[c], bool((opp >> c) & 1)))
    return danger, held


@pytest.fixture(scope="module", params=STYLES)
def samples(request):
    return _collect(request.param)


def _auc(pairs) -> float:
    neg = sorted(p for p, y in pairs if not y)
    pos = [p for p, y in pairs if y]
    wins = 0.0
    for p in pos:
        lo, hi = bisect.bisect_left(neg, p), bisect.bisect_right(neg, p)
        wins += lo + 0.5 * (hi - lo)
    return wins / (len(pos) * len(neg))


def _calibration_gaps(pairs, edges):
    """|mean predicted - observed rate| in each bucket with enough samples."""
    gaps = []
    for lo, hi in zip(edges, edges[1:]):
        bucket = [(p, y) for p, y in pairs if lo <= p < hi]
        if len(bucket) >= 150:
            predicted = sum(p for p, _ in bucket) / len(bucket)
            observed = sum(y for _, y in bucket) / len(bucket)
            gaps.append((lo, hi, round(predicted, 3), round(observed, 3), len(bucket)))
    return gaps


def test_danger_tells_feeding_discards_from_safe_ones(samples):
    danger, _ = samples
    assert len(danger) > 2000
    # measured 0.80 (baseline), 0.77 (pairs); 0.5 is a coin.  (A belief blind to the history still
    # scores 0.78 here, from the cards seen dead alone: the calibration and
    # the held-card tests are the ones that catch it.)
    assert _auc(danger) > 0.72


def test_danger_is_calibrated(samples):
    danger, _ = samples
    gaps = _calibration_gaps(danger, [0.0, 0.1, 0.2, 0.3, 0.45, 1.01])
    assert len(gaps) >= 3, gaps
    for lo, hi, predicted, observed, n in gaps:
        # measured worst buckets: 0.087 against the baseline (0.36 predicted,
        # 0.45 seen), 0.066 against the pair keeper; the greedy point dumper,
        # not tested here, is off by 0.15 at the top (0.65 predicted, 0.50 seen)
        assert abs(predicted - observed) < 0.1, gaps


def test_held_card_chances_rise_with_the_truth(samples):
    _, held = samples
    gaps = _calibration_gaps(held, [0.0, 0.15, 0.25, 0.35, 0.5, 1.01])
    assert len(gaps) >= 4, gaps
    observed = [o for _, _, _, o, _ in gaps]
    assert observed == sorted(observed), gaps
    # a little timid at both ends (0.10 predicted is 0.06 held, 0.60 is 0.69)
    for lo, hi, predicted, o, n in gaps:
        assert abs(predicted - o) < 0.12, gaps
    assert _auc(held) > 0.65  # measured 0.69; blind to the history 0.55
