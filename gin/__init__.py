"""gin: Gin Rummy rules engine and computer opponent, in pure Python.

>>> import gin
>>> gin.best_arrangement(gin.parse_cards("7H 7S 7D 8H 9H")).points
14
>>> m = gin.Match.new(seed="k7q2-m9xd", rules=gin.Rules.profile("standard"))
>>> m.seed, m.legal_actions()
('K7Q2-M9XD', [{'type': 'take'}, {'type': 'pass'}])
"""

from .cards import Card, parse_cards
from .deal import Deal, Outcome
from .errors import (
    CardParseError, GinError, IllegalMove, IllegalPlay, InvalidNotation, NotationError, RulesError, SaveError, SeatError,
)
from .match import DealResult, FinalResult, Match, final_result, final_totals
from .melds import Arrangement, Layoff, all_melds, best_arrangement, deadwood, is_meld
from .rules import Rules

__version__ = "0.1.0"

__all__ = [
    "Arrangement",
    "Card",
    "CardParseError",
    "Deal",
    "DealResult",
    "FinalResult",
    "GinError",
    "IllegalMove",
    "IllegalPlay",
    "InvalidNotation",
    "Layoff",
    "Match",
    "NotationError",
    "Outcome",
    "Rules",
    "RulesError",
    "SaveError",
    "SeatError",
    "all_melds",
    "best_arrangement",
    "deadwood",
    "final_result",
    "final_totals",
    "is_meld",
    "parse_cards",
]
