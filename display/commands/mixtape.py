"""`tablekeeper mixtape ...`: score a mixtape, ask Otto, simulate a solo game; `bench mixtape`.

    tablekeeper mixtape score --deck FILE --a ID,ID,... --b ID,... [--json]
    tablekeeper mixtape otto  --deck FILE --otto-a IDS --otto-b IDS --you-a IDS --you-b IDS \\
                              --drawn ID,ID,ID [--seed N] [--json]
    tablekeeper mixtape solo  --deck FILE --seed N [--json]
    tablekeeper mixtape deck  --deck FILE [--json]          # check a deck file and summarise it

Columns are given top to bottom. `--deck example` uses the packaged example deck (invented, not
the real game's cards). Bad decks, unknown ids and impossible mixtapes exit 2 with the reason.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from display.cli import CliError
from display.commands.photo import doubt_lines, photo_json, read
from games.mixtape import (
    GENRE_NAMES,
    Deck,
    MixtapeError,
    MixtapeScore,
    OttoDecision,
    SoloGame,
    Tape,
    genre_set_points,
    load_deck,
    load_example_deck,
    otto_choose,
    parse_ids,
    play_solo,
    score_mixtape,
)

EXAMPLE = "example"


def register(commands: Any, benches: Any) -> None:
    mixtape = commands.add_parser("mixtape", help="I Made You a Mixtape: scoring and Otto")
    actions = mixtape.add_subparsers(dest="mixtape_command", metavar="ACTION")
    actions.required = True

    score = actions.add_parser("score", help="score one finished mixtape")
    deck_option(score)
    score.add_argument("--a", default="", metavar="IDS", help="column Trk A, top to bottom")
    score.add_argument("--b", default="", metavar="IDS", help="column Trk B, top to bottom")
    score.add_argument("--json", action="store_true", help="print the score as JSON")
    score.add_argument("--photo", metavar="PHOTO", help="read the columns from a photo")
    score.add_argument("--gallery", metavar="DIR", help="enrolled cards (with --photo)")
    score.set_defaults(func=run_score)

    otto = actions.add_parser("otto", help="what Otto takes from three face-up cards")
    deck_option(otto)
    for flag, what in (
        ("--otto-a", "Otto's column Trk A"),
        ("--otto-b", "Otto's column Trk B"),
        ("--you-a", "your column Trk A"),
        ("--you-b", "your column Trk B"),
    ):
        otto.add_argument(flag, default="", metavar="IDS", help=f"{what}, top to bottom")
    otto.add_argument("--drawn", required=True, metavar="ID,ID,ID", help="the three cards drawn")
    otto.add_argument("--seed", type=int, default=0, help="seed for 'at random' choices (0)")
    otto.add_argument("--json", action="store_true", help="print the decision as JSON")
    otto.set_defaults(func=run_otto)

    solo = actions.add_parser("solo", help="simulate a whole solo game: a simple human vs Otto")
    deck_option(solo)
    solo.add_argument("--seed", type=int, required=True, help="the game is reproducible from it")
    solo.add_argument("--json", action="store_true", help="print scores and the log as JSON")
    solo.set_defaults(func=run_solo)

    deck = actions.add_parser("deck", help="check a deck file and summarise it")
    deck_option(deck)
    deck.add_argument("--json", action="store_true", help="print the cards as JSON")
    deck.set_defaults(func=run_deck)


def deck_option(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument(
        "--deck",
        required=required,
        default=EXAMPLE,
        metavar="FILE",
        help="deck file (TOML); 'example' = the packaged example deck (invented cards)",
    )


def load_deck_option(path: str) -> Deck:
    try:
        return load_example_deck() if path == EXAMPLE else load_deck(path)
    except MixtapeError as error:
        raise CliError(str(error)) from error


def _tape(deck: Deck, a: str, b: str, whose: str) -> Tape:
    try:
        return Tape.from_json({"a": parse_ids(a), "b": parse_ids(b)}, deck)
    except MixtapeError as error:
        raise CliError(f"{whose} mixtape: {error}") from error


# ---- score ---------------------------------------------------------------------------------
def run_score(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    if args.photo is not None or args.gallery is not None:
        if args.photo is None or args.gallery is None or args.a or args.b:
            raise CliError("--photo PHOTO goes with --gallery DIR, without --a/--b")
        return mixtape_score_photo(deck, Path(args.photo), Path(args.gallery), args.json)
    try:
        score = score_mixtape(deck, parse_ids(args.a), parse_ids(args.b))
    except MixtapeError as error:
        raise CliError(str(error)) from error
    if args.json:
        print(json.dumps(score.to_json(), indent=2))
    else:
        print(describe_score(deck, score))
    return 0


def mixtape_score_photo(deck: Deck, photo: Path, gallery_dir: Path, as_json: bool) -> int:
    reading = read(photo, gallery_dir, "columns")
    a = [c.name for c in reading.cards if c.column == "A" and c.name]
    b = [c.name for c in reading.cards if c.column == "B" and c.name]
    try:
        score = score_mixtape(deck, a, b)
    except MixtapeError as error:
        raise CliError(f"{photo}: read Trk A {a}, Trk B {b}: {error}") from None
    if as_json:
        ids = [c.name or "" for c in reading.cards]
        print(json.dumps({**score.to_json(), "photo": photo_json(photo, reading, ids)}, indent=2))
    else:
        print(f"read in {reading.seconds:.2f} s: Trk A {', '.join(a)}; Trk B {', '.join(b)}")
        for line in doubt_lines(reading):
            print(line)
        print(describe_score(deck, score))
    return 0


def describe_score(deck: Deck, score: MixtapeScore, title: str = "Mixtape") -> str:
    position = score.balance_position
    where = (
        "on the start square"
        if position == 0
        else f"{abs(position)} square{'s' * (abs(position) != 1)} "
        f"{'left' if position < 0 else 'right'} of the start square"
    )
    lines = [f"{title} (deck: {deck.name})"]
    lines.append(f"  Balance: {score.balance_points:>3}  (cube {where})")
    for column in ("A", "B"):
        cards = [c for c in score.cards if c.column == column]
        detail = ", ".join(f"{c.id} {c.flow_points}" for c in cards) or "empty"
        lines.append(f"           Trk {column}: {detail}")
    lines.insert(2, f"  Flow:    {score.flow:>3}")
    sets = ", ".join(
        f"{GENRE_NAMES[g]} {n}→{genre_set_points(n)}" for g, n in score.genre_sets.items()
    )
    lines.append(f"  Genres:  {score.genres:>3}  ({sets or 'no genre cards'})")
    lines.append(f"  Total:   {score.total:>3}")
    return "\n".join(lines)


# ---- otto ----------------------------------------------------------------------------------
def run_otto(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    otto = _tape(deck, args.otto_a, args.otto_b, "Otto's")
    you = _tape(deck, args.you_a, args.you_b, "your")
    try:
        decision = otto_choose(deck, otto, you, parse_ids(args.drawn), seed=args.seed)
    except MixtapeError as error:
        raise CliError(str(error)) from error
    if args.json:
        print(json.dumps(decision.to_json(), indent=2))
    else:
        print(describe_decision(decision))
    return 0


def describe_decision(decision: OttoDecision) -> str:
    lines = [
        f"Otto takes: {', '.join(decision.otto_takes)}   (decided by {decision.decided_by})",
        f"You get:    {', '.join(decision.you_get)}",
    ]
    if decision.extra_card:
        lines.append("Otto kept one card: he draws one more from his own (3-4 player) deck.")
    lines.extend(f"  - {step}" for step in decision.steps)
    return "\n".join(lines)


# ---- solo ----------------------------------------------------------------------------------
def run_solo(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    try:
        game = play_solo(SoloGame.start(deck, seed=args.seed))
    except MixtapeError as error:
        raise CliError(str(error)) from error
    scores = game.scores()
    if args.json:
        print(
            json.dumps(
                {
                    "seed": args.seed,
                    "winner": game.winner(),
                    "scores": {who: s.to_json() for who, s in scores.items()},
                    "state": game.snapshot(),
                },
                indent=2,
            )
        )
        return 0
    print(f"Solo game, seed {args.seed}, deck: {deck.name}")
    for entry in game.log:
        print("  " + _describe_entry(entry))
    print(describe_score(deck, scores["you"], "You"))
    print(describe_score(deck, scores["otto"], "Otto"))
    you, otto = scores["you"].total, scores["otto"].total
    verdict = "You win. Take that, Otto!" if game.winner() == "you" else "Otto wins."
    print(f"Final: you {you}, Otto {otto}. {verdict}")
    return 0


def _describe_entry(entry: dict[str, Any]) -> str:
    if entry.get("event") == "setup":
        return (
            f"set-up: you {entry['you']['a'] + entry['you']['b']}, "
            f"Otto {entry['otto']['a'] + entry['otto']['b']}"
        )
    if entry.get("event") == "leftover":
        return f"deck end: {entry['cards']} to the box unused"
    text = f"round {entry['round']:>2} "
    discarded = entry.get("discarded") or []
    tail = f"; discarded (off the Equalizer) {discarded}" if discarded else ""
    if entry["active"] == "you":
        return text + (
            f"you active: drew {entry['drawn']} (face down {entry['face_down']}), "
            f"you take {entry['you_take']}, Otto gets {entry['otto_placed']}{tail}"
        )
    decision = entry["decision"]
    extra = f" + extra {entry['extra']}" if entry.get("extra") else ""
    return text + (
        f"Otto active: drew {entry['drawn']}, Otto takes {decision['otto_takes']}{extra} "
        f"({decision['decided_by']}), you get {decision['you_get']}{tail}"
    )


# ---- deck ----------------------------------------------------------------------------------
def run_deck(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    if args.json:
        print(
            json.dumps(
                {
                    "name": deck.name,
                    "equalizer": {"squares": list(deck.squares), "start": deck.start},
                    "cards": [card.to_json() for card in deck.cards],
                },
                indent=2,
            )
        )
        return 0
    lines = Counter(card.players for card in deck.cards)
    genres = Counter(card.genre for card in deck.cards)
    print(f"Deck {deck.name!r}: {len(deck.cards)} cards — OK")
    print(
        f"  Equalizer: {len(deck.squares)} squares, start {deck.start} "
        f"({deck.squares[deck.start]} points)"
    )
    print("  Player-count lines: " + ", ".join(f"{n}: {lines[n]}" for n in (2, 3, 4)))
    print("  Genres: " + ", ".join(f"{GENRE_NAMES[g]} {n}" for g, n in sorted(genres.items())))
    print(
        "  Sides: "
        + ", ".join(f"{side} {sum(1 for c in deck.cards if c.side == side)}" for side in ("A", "B"))
    )
    return 0
