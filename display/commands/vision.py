"""`tablekeeper vision ...`: enrol cards, identify a photo (``bench vision`` is in bench.py).

- ``vision enroll --gallery DIR --from-files FOLDER``: one card per image; the name is the file
  name up to ``__`` (or the whole stem).
- ``vision enroll --gallery DIR --from-photo PHOTO --names "A;B;C"``: the cards of one photo,
  named in reading order (rows top to bottom, each left to right).
- ``vision identify PHOTO [PHOTO ...] --gallery DIR [--json] [--annotate OUT.png]``: the
  gallery and OpenCV load once for all the photos; ``--json`` prints one object per line, one
  line per photo in the order given (with several photos each object also names its ``photo``).

OpenCV and the vision package are imported inside the functions so that other commands start
fast (every command module is imported to build the parser).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from display.cli import CliError, one_line
from display.widgets.words import count

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def register(commands: Any, benches: Any) -> None:
    vision = commands.add_parser("vision", help="card recognition: enrol cards, identify a photo")
    actions = vision.add_subparsers(dest="vision_command", metavar="ACTION")
    actions.required = True

    enroll = actions.add_parser(
        "enroll",
        help="add reference cards to a gallery (from single-card images, or one photo)",
    )
    enroll.add_argument("--gallery", type=Path, required=True, metavar="DIR")
    source = enroll.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--from-files",
        type=Path,
        metavar="FOLDER",
        help="one card per image; name = file name up to '__' (or the whole stem)",
    )
    source.add_argument(
        "--from-photo",
        type=Path,
        metavar="PHOTO",
        help="a photo of several cards, named by --names in reading order",
    )
    enroll.add_argument("--names", metavar='"A;B;C"', help="card names for --from-photo")
    enroll.set_defaults(func=run_enroll)

    identify = actions.add_parser(
        "identify", help="find and name the cards in one or more photos (one start-up)"
    )
    identify.add_argument("photos", type=Path, nargs="+", metavar="PHOTO")
    identify.add_argument("--gallery", type=Path, required=True, metavar="DIR")
    identify.add_argument("--json", action="store_true", help="print the result as JSON")
    identify.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT.png",
        help="write a copy of the photo with every card outlined (with several photos: "
        "OUT-1.png, OUT-2.png, ... in the order given)",
    )
    identify.set_defaults(func=run_identify)


def _check_photo_path(path: Path) -> None:
    if path.is_dir():  # a shell glob that matched a folder, or the gallery given twice
        raise CliError(f"{path} is a folder, not a photo: name the photo files")
    if not path.is_file():
        raise CliError(f"{path}: no such file")


# What --annotate can write: OpenCV picks the format by the name's ending and has no writer
# for any other (a name with no ending raised its own error after the photo was identified).
_ANNOTATION_ENDINGS = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


def _check_annotation_path(path: Path) -> None:
    if path.is_dir():
        raise CliError(f"{path} is a folder: --annotate needs a file name, such as OUT.png")
    if path.suffix.lower() not in _ANNOTATION_ENDINGS:
        raise CliError(
            f"{path}: --annotate needs a picture file name ending in "
            + ", ".join(_ANNOTATION_ENDINGS)
        )
    if not path.parent.is_dir():
        raise CliError(f"{path}: no such folder {path.parent} to write the annotated copy in")


def _read_image(path: Path) -> Any:
    from device.camera import CameraError, check_image_size
    from vision import VisionError, read_photo  # start-up time: OpenCV and the recogniser

    _check_photo_path(path)
    try:
        check_image_size(path.read_bytes(), str(path))  # a JPEG's header may sit far in
    except CameraError as error:  # too many pixels to decode safely
        raise CliError(str(error)) from None
    try:
        return read_photo(path)  # refuses a file cut short (cv2.imread would half-grey it)
    except VisionError as error:
        raise CliError(f"{path}: {error}") from None


def run_enroll(args: argparse.Namespace) -> int:
    # start-up time: OpenCV and the recogniser load only for these commands
    from vision.detect import cards_in_reading_order
    from vision.gallery import Gallery, GalleryError, name_from_filename

    try:
        gallery = Gallery.open(args.gallery)
    except GalleryError as error:
        raise CliError(str(error)) from error
    before = len(gallery)
    if args.from_files is not None:
        if args.names:
            raise CliError("--names goes with --from-photo (file names name the cards)")
        folder: Path = args.from_files
        if not folder.is_dir():
            raise CliError(f"{folder}: not a folder")
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise CliError(f"{folder}: no images (.jpg, .png, ...) in it")
        for path in files:
            if not name_from_filename(path):
                raise CliError(f"{path}: cannot take a card name from this file name")
        try:
            gallery.enroll_files(files)
        except (GalleryError, ValueError) as error:
            raise CliError(str(error)) from error
    else:
        if not args.names:
            raise CliError('--from-photo needs --names "A;B;C" (the cards in reading order)')
        names = [n.strip() for n in args.names.split(";") if n.strip()]
        image = _read_image(args.from_photo)
        cards = cards_in_reading_order(image)
        if len(cards) != len(names):
            raise CliError(
                f"{args.from_photo}: found {count(len(cards), 'card')} but "
                f"{count(len(names), 'name')} were given; "
                "lay the cards apart on a plain surface and try again"
            )
        for name, card in zip(names, cards, strict=True):
            gallery.enroll(name, card, f"{args.from_photo.name}#{name}")
    gallery.save(args.gallery)
    added = len(gallery) - before
    print(
        f"enrolled {count(added, 'image')}; gallery {args.gallery} now holds "
        f"{count(len(gallery), 'reference')} of {count(len(gallery.names), 'card')}"
    )
    return 0


def _annotation_path(template: Path, number: int, count: int) -> Path:
    """Where photo ``number`` (1-based) of ``count`` gets its annotated copy."""
    if count == 1:
        return template
    return template.with_name(f"{template.stem}-{number}{template.suffix}")


def run_identify(args: argparse.Namespace) -> int:
    import cv2  # start-up time: OpenCV and the recogniser load only for these commands

    from vision import VisionError, annotate, identify
    from vision.gallery import Gallery, GalleryError

    photos: list[Path] = args.photos
    # Every photo is checked before any is identified: a typo in the tenth name should not
    # cost nine identifications first.
    for path in photos:
        _check_photo_path(path)
    if args.annotate is not None:
        _check_annotation_path(args.annotate)
    try:
        gallery = Gallery.load(args.gallery)
    except GalleryError as error:
        raise CliError(str(error)) from error
    if len(gallery) == 0:
        raise CliError(f"{args.gallery}: the gallery is empty; enrol cards first")
    several = len(photos) > 1
    refused = 0
    for number, path in enumerate(photos, start=1):
        try:
            image = _read_image(path)
            try:
                result = identify(image, gallery)
            except VisionError as error:
                raise CliError(f"{path}: {error}") from error
        except CliError as error:
            if not several:
                raise
            # One bad photo in a batch loses nothing else: its line goes to stderr, the rest
            # are read, and the exit code (2) still says something was refused.
            print(f"tablekeeper: {one_line(str(error))}", file=sys.stderr, flush=True)
            refused += 1
            continue
        if args.annotate is not None:
            out = _annotation_path(args.annotate, number, len(photos))
            try:
                written = cv2.imwrite(str(out), annotate(image, result))
            except cv2.error:  # OpenCV raises for some unwritable paths, returns False for others
                written = False
            if not written:
                raise CliError(f"{out}: cannot write the annotated image")
        if args.json:
            record = result.to_json()
            if several:
                record = {"photo": str(path), **record}
            print(json.dumps(record, ensure_ascii=False), flush=True)
            continue
        if several:
            print(f"{path}:")
        _print_result(result)
    return 2 if refused else 0


def _print_result(result: Any) -> None:
    for card in result.cards:
        x, y = card.center
        print(
            f"{card.name}  confidence {card.confidence:.2f}  at ({x:.0f}, {y:.0f})  "
            f"turned {card.orientation:.0f} deg"
        )
    for unk in result.unknown:
        x, y = unk.center
        hint = f"; closest: {unk.candidates[0].name}" if unk.candidates else ""
        print(f"unknown card at ({x:.0f}, {y:.0f}): {unk.reason}{hint}")
    if not result.cards and not result.unknown:
        print("no cards found")
    print(
        f"{count(len(result.cards), 'card')} named, {len(result.unknown)} unknown, "
        f"{result.seconds:.2f} s"
    )
