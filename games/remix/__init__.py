"""Marvel: Remix: the card catalogue and the hand scorer.

Typical use::

    from games.remix import score_hand, default_catalogue
    result = score_hand(["Captain America", "MR07", ...], loki_draw=None)
    result.total, result.valid, result.to_json()
    default_catalogue().lookup("spiderman")      # forgiving lookup, UnknownCardError if unsure
    default_catalogue().closest("krakoa", 5)     # pick lists
"""

from games.remix.catalogue import (
    Card,
    Catalogue,
    RemixError,
    UnknownCardError,
    default_catalogue,
    load_catalogue,
    parse_catalogue,
)
from games.remix.engine import (
    MAX_HAND,
    NORMAL_HAND,
    Choices,
    ImpossibleHandError,
    PreparedHand,
    brute_force_best,
    brute_force_worlds,
    prepare,
)
from games.remix.names import TAGS, TYPES, signed, tag_label
from games.remix.result import CardResult, HandResult, choices_from_json, explain, score_hand

__all__ = [
    "MAX_HAND",
    "NORMAL_HAND",
    "TAGS",
    "TYPES",
    "Card",
    "CardResult",
    "Catalogue",
    "Choices",
    "HandResult",
    "ImpossibleHandError",
    "PreparedHand",
    "RemixError",
    "UnknownCardError",
    "brute_force_best",
    "brute_force_worlds",
    "choices_from_json",
    "default_catalogue",
    "explain",
    "load_catalogue",
    "parse_catalogue",
    "prepare",
    "score_hand",
    "signed",
    "tag_label",
]
