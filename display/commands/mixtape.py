"""`tablekeeper mixtape ...`: score a mixtape, ask Otto, simulate a solo game; `bench mixtape`.

    tablekeeper mixtape score --deck FILE --a ID,ID,... --b ID,... [--json]
    tablekeeper mixtape otto  --deck FILE --otto-a IDS --otto-b IDS --you-a IDS --you-b IDS \\
                              --drawn ID,ID,ID [--seed N] [--json]
    tablekeeper mixtape solo  --deck FILE --seed N [--json]
    tablekeeper mixtape solo  --deck FILE --table EVENTS [--seed N] [--json]   # a real table
    tablekeeper mixtape deck  --deck FILE [--json]          # check a deck file and summarise it

Columns are given top to bottom. `--deck example` uses the packaged example deck (invented, not
the real game's cards). Bad decks, unknown ids and impossible mixtapes exit 2 with the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from display.cli import CliError
from display.commands.photo import doubt_lines, photo_json, read
from games.mixtape import (
    GENRE_NAMES,
    Deck,
    IllegalMoveError,
    MixtapeError,
    OttoDecision,
    SoloGame,
    Tape,
    describe_score,
    load_deck,
    load_example_deck,
    next_step,
    otto_choose,
    parse_ids,
    play_solo,
    score_mixtape,
)
from games.mixtape.solo import OTTO_TURN, SoloStep

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
    solo.add_argument("--seed", type=int, help="the game is reproducible from it")
    solo.add_argument(
        "--table",
        metavar="EVENTS",
        help="play a game at a real table from a file of events, one per line ('-': standard "
        "input): setup ID ID, draw ID ID [ID], take ID|? [ID|?], turn-up ID, extra ID, "
        "place [ID ...]; the next step is printed after each",
    )
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
    if decision.extra_cards:
        kept = "one card" if decision.extra_cards == 1 else "no card"
        more = "one more" if decision.extra_cards == 1 else "two more"
        lines.append(f"Otto kept {kept}: he draws {more} from his own (3-4 player) deck.")
    lines.extend(f"  - {step}" for step in decision.steps)
    return "\n".join(lines)


# ---- solo ----------------------------------------------------------------------------------
def run_solo(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    if args.table is not None:
        return run_table(deck, args.table, args.seed or 0, args.json)
    if args.seed is None:
        raise CliError("give --seed N to simulate a game, or --table EVENTS to play one")
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
                    "state": game.to_json(),
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
    # saved before Otto could draw two extra cards: "extra" held the one card
    extras = entry.get("extras") or ([entry["extra"]] if entry.get("extra") else [])
    extra = f" + extra {', '.join(extras)}" if extras else ""
    return text + (
        f"Otto active: drew {entry['drawn']}, Otto takes {decision['otto_takes']}{extra} "
        f"({decision['decided_by']}), you get {decision['you_get']}{tail}"
    )


# ---- solo at a real table --------------------------------------------------------------------
def _table_lines(source: str) -> list[str]:
    if source == "-":
        return sys.stdin.read().splitlines()
    try:
        return Path(source).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as error:
        raise CliError(f"{source}: no such file") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{source}: cannot read it ({error})") from error


def _table_event(deck: Deck, game: SoloGame | None, words: list[str], seed: int) -> SoloGame:
    """Apply one event line to the game (a new one for ``setup``); MixtapeError if refused."""
    verb, ids = words[0].lower(), words[1:]
    if verb == "setup" and game is None and len(ids) == 2:
        return SoloGame.at_table(deck, ids[0], ids[1], seed=seed)
    if game is None:
        raise IllegalMoveError("the game starts with: setup YOUR_CARD OTTOS_CARD")
    if verb == "draw":
        game.draw(ids)
        if game.phase == OTTO_TURN:
            game.otto_turn()
    elif verb == "take":
        game.you_choose(ids)
    elif verb == "turn-up" and len(ids) == 1:
        game.turn_up(ids[0])
    elif verb == "extra" and len(ids) == 1:
        game.otto_extra(ids[0])
    elif verb == "place":
        game.you_place(ids or None)
    else:
        raise IllegalMoveError(
            f"unknown event {' '.join(words)!r} (setup, draw, take, turn-up, extra, place)"
        )
    return game


def run_table(deck: Deck, source: str, seed: int, as_json: bool) -> int:
    """A solo game at a real table: each line an event, the next step printed after each. Your
    turn gives only the two face-up cards; the face-down one is asked for once your choice sends
    it into a mixtape (rulings), so nothing can show it before."""
    game: SoloGame | None = None
    steps: list[dict[str, Any]] = []
    if not as_json:
        print(f"next: {next_step(game)}")
    for number, raw in enumerate(_table_lines(source), start=1):
        words = raw.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        entries = len(game.log) if game is not None else 0
        try:
            game = _table_event(deck, game, words, seed)
        except MixtapeError as error:
            raise CliError(f"{source} line {number}: {error}") from error
        # the entries this event added, or the one it completed (Otto's extra card, your cards)
        added = game.log[entries:]
        if not added and words[0].lower() in ("extra", "place"):
            added = game.log[-1:]
        said = [_describe_entry(entry) for entry in added]
        for entry in game.log[entries:]:
            said += [f"  - {step}" for step in entry.get("decision", {}).get("steps", [])]
        steps.append(
            {"line": number, "event": " ".join(words), "log": said, "next": next_step(game)}
        )
        if not as_json:
            print(f"line {number}: {' '.join(words)}")
            for line in said:
                print("  " + line)
            print(f"next: {next_step(game)}")
    if as_json:
        out: dict[str, Any] = {"steps": steps, "state": None if game is None else game.to_json()}
        if game is not None and game.phase == SoloStep.OVER:
            out["winner"] = game.winner()
            out["scores"] = {who: s.to_json() for who, s in game.scores().items()}
        print(json.dumps(out, indent=2))
    elif game is not None and game.phase == SoloStep.OVER:
        scores = game.scores()
        print(describe_score(deck, scores["you"], "You"))
        print(describe_score(deck, scores["otto"], "Otto"))
    return 0


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
