"""Shared hypothesis strategies and settings for the engine's tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# Deterministic runs (the same examples every time, no example database), no
# per-example deadline: the suite's total time is what is budgeted.
settings.register_profile(
    "gin",
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("gin")

RANKS = "A23456789TJQK"
SUITS = "CDHS"
#: Every card as notation text, in the engine's index order (suit, then rank).
ALL_TEXT = tuple(r + s for s in SUITS for r in RANKS)

#: Human seeds like the UI's ``K7Q2-M9XD``.
seeds = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789-", min_size=1, max_size=12)


_INDEX: dict[tuple[int, int], st.SearchStrategy[int]] = {}


def _index(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``, made once."""
    found = _INDEX.get((low, high))
    if found is None:
        found = _INDEX[low, high] = st.integers(low, high)
    return found


def first_of_shuffle(draw, values, k: int) -> list:
    """The first ``k`` of ``values`` in a random order, drawn with ``draw``:
    ``draw(st.permutations(values))[:k]`` (its Fisher-Yates swaps, each with itself or
    a later one) stopped once those ``k`` are fixed, instead of drawing the order of all
    the rest too."""
    out = list(values)
    for i in range(min(k, len(out) - 1)):
        j = draw(_index(i, len(out) - 1))
        out[i], out[j] = out[j], out[i]
    return out[:k]


@st.composite
def hands(draw, size: int) -> list[str]:
    """Uniform random hands of ``size`` distinct cards (as text)."""
    return sorted(first_of_shuffle(draw, ALL_TEXT, size))


@st.composite
def dense_hands(draw, size: int) -> list[str]:
    """Meld-dense hands: drawn from a few neighbouring ranks in a few suits.

    A window of 3..5 consecutive ranks times 2..4 suits holds many sets and
    runs that overlap, which is where a wrong search shows.  A few random
    cards from outside the window are sometimes mixed in.
    """
    width = draw(st.integers(3, 5))
    low = draw(st.integers(0, 13 - width))
    n_suits = draw(st.integers(2, 4))
    while width * n_suits < size - 3:
        n_suits += 1
        if n_suits > 4:
            width += 1
            n_suits = 4
            low = min(low, 13 - width)
    suits = first_of_shuffle(draw, SUITS, n_suits)
    pool = [RANKS[r] + s for r in range(low, low + width) for s in suits]
    core = draw(_index(min(size - 3, len(pool)), min(size, len(pool))))
    chosen = first_of_shuffle(draw, pool, core)
    others = [c for c in ALL_TEXT if c not in chosen]
    chosen += first_of_shuffle(draw, others, size - core)
    return sorted(chosen)


def hands_of(size: int) -> st.SearchStrategy[list[str]]:
    """Half uniform, half meld-dense hands."""
    return st.one_of(hands(size), dense_hands(size))
