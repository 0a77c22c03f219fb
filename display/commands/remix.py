"""`tablekeeper remix score ...` (the Marvel: Remix hand scorer) and `tablekeeper bench remix`.

``tablekeeper remix score CARD... [--loki-draw CARD] [--json]`` scores one final hand; cards are
ids (MR06) or names, forgiving of case, punctuation and small typos. ``--json`` prints
``{"total", "valid", "cards": [{"id", "name", "state", "base", "points", "tags", "lines"}],
"choices", "loki_owed", ...}``.

``tablekeeper remix score --batch FILE [--json]`` scores one hand per line (comma-separated cards;
an item ``loki-draw=CARD`` gives Loki's draw; blank lines and ``#`` comments are skipped) and
prints one result per line. Unknown or duplicate cards and impossible hands exit 2 with the
reason (in a batch: every line is still answered, with ``{"line": n, "error": ...}``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from display.cli import CliError
from display.commands.photo import doubt_lines, photo_json, read
from display.widgets.words import count
from games.remix import RemixError, default_catalogue, score_hand


def register(commands: Any, benches: Any) -> None:
    remix = commands.add_parser("remix", help="Marvel: Remix tools (hand scorer)")
    actions = remix.add_subparsers(dest="remix_command", metavar="ACTION")
    actions.required = True
    score = actions.add_parser(
        "score",
        help="score a final hand: the best legal score over every choice, explained",
        description="Score a Marvel: Remix final hand. Cards by id (MR06) or name.",
    )
    score.add_argument("cards", nargs="*", metavar="CARD", help="card ids or names")
    score.add_argument("--loki-draw", metavar="CARD", help="the REMIX card drawn for Loki")
    score.add_argument("--batch", type=Path, metavar="FILE", help="one hand per line")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.add_argument("--photo", type=Path, metavar="PHOTO", help="score the hand in a photo")
    score.add_argument("--gallery", type=Path, metavar="DIR", help="enrolled cards (with --photo)")
    score.set_defaults(func=run_score)


def _score(cards: list[str], loki_draw: str | None) -> Any:
    try:
        return score_hand(cards, loki_draw)
    except RemixError as error:
        raise CliError(str(error)) from error


def _parse_line(line: str) -> tuple[list[str], str | None]:
    cards: list[str] = []
    loki: str | None = None
    for item in line.split(","):
        item = item.strip()
        if not item:
            continue
        low = item.lower()
        if low.startswith(("loki-draw=", "loki-draw:", "loki_draw=", "loki_draw:")):
            loki = item.split("=", 1)[-1] if "=" in item else item.split(":", 1)[-1]
            loki = loki.strip()
        else:
            cards.append(item)
    return cards, loki


def run_score(args: argparse.Namespace) -> int:
    if args.photo is not None or args.gallery is not None:
        if args.photo is None or args.gallery is None or args.cards or args.batch:
            raise CliError("--photo PHOTO goes with --gallery DIR, without CARD... or --batch")
        return remix_score_photo(args.photo, args.gallery, args.loki_draw, args.json)
    if args.batch is not None:
        if args.cards or args.loki_draw:
            raise CliError("give either CARD... or --batch FILE, not both")
        return _run_batch(args.batch, args.json)
    if not args.cards:
        raise CliError("no cards given: tablekeeper remix score CARD... (ids like MR06 or names)")
    result = _score(args.cards, args.loki_draw)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text())
    return 0


def remix_score_photo(photo: Path, gallery_dir: Path, loki_draw: str | None, as_json: bool) -> int:
    reading = read(photo, gallery_dir, "rows")
    catalogue = default_catalogue()
    try:
        ids = [catalogue.lookup(name).id for name in reading.names]
        result = score_hand(ids, loki_draw)
    except RemixError as error:
        raise CliError(f"{photo}: {error}") from None
    if as_json:
        print(json.dumps({**result.to_json(), "photo": photo_json(photo, reading, ids)}))
    else:
        seen = ", ".join(f"{c.name} ({c.confidence:.0%})" for c in reading.cards)
        print(f"read in {reading.seconds:.2f} s: {seen}")
        for line in doubt_lines(reading):
            print(line)
        print(result.text())
    return 0


def _run_batch(path: Path, as_json: bool) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as error:
        raise CliError(f"{path}: no such file") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{path}: cannot read: {error}") from error
    errors: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        cards, loki = _parse_line(line)
        try:
            result = score_hand(cards, loki)
        except RemixError as error:
            errors.append(f"line {number}: {error}")
            if as_json:
                print(json.dumps({"line": number, "error": str(error)}))
            else:
                print(f"line {number}: error: {error}")
            continue
        if as_json:
            print(json.dumps({"line": number, **result.to_json()}))
        else:
            owed = " (Loki's draw owed)" if result.loki_owed else ""
            validity = "valid" if result.valid else "not valid"
            print(f"line {number}: {result.total} ({validity}){owed}")
    if errors:
        raise CliError(
            f"{count(len(errors), 'hand')} in {path} could not be scored; first: {errors[0]}"
        )
    return 0
