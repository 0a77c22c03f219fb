"""The enrolled cards of one game, kept in the state directory.

Layout (``<state dir>/enrolment/<game>/``)::

    manifest.json     progress: {"version": 1, "game": ..., "cards": {key: {"name": gallery
                      name, "images": [file, ...], "source": where it came from}}}
    cards/*.jpg       the upright card images cut from the enrolment photos (the truth the
                      gallery is built from: re-enrolling a card replaces its images and the
                      gallery is rebuilt from these)
    gallery/          the recogniser's gallery (``vision.gallery``), usable directly by
                      ``tablekeeper vision identify --gallery`` and ``... score --photo``
    deck.toml         (Mixtape) the deck file the Mixtape engine reads

``key`` is the card's id in its game (``MR06``, ``T01``); the gallery name is the Remix card name
or the Mixtape card id. Every change is written at once (atomic file replace), so progress is
saved after every confirmed photo.

Export / import: the whole ``enrolment`` folder (every game) as one zip file,
``<state dir>/tablekeeper-enrolment.zip`` (:data:`EXPORT_NAME`). Import replaces the current
enrolment with the file's, after moving the current one aside to ``enrolment.before-import``.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from display.app import App

ROOT = "enrolment"
EXPORT_NAME = "tablekeeper-enrolment.zip"
EXPORT_FORMAT = "tablekeeper-enrolment"


class EnrolmentError(Exception):
    """Enrolment data that cannot be read or written; the message is for the screen."""


def _write_atomic(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _safe_key(key: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in key)


class Enrolment:
    """One game's enrolled cards. ``Enrolment(state_dir, "remix")``."""

    def __init__(self, state_dir: Path | str, game: str) -> None:
        self.state_dir = Path(state_dir)
        self.game = game
        self.folder = self.state_dir / ROOT / game
        self.cards_dir = self.folder / "cards"
        self.gallery_dir = self.folder / "gallery"
        self.manifest_path = self.folder / "manifest.json"
        self.deck_path = self.folder / "deck.toml"
        self.cards: dict[str, dict[str, Any]] = {}
        self.extra: dict[str, Any] = {}
        self._gallery: Any = None
        # The gallery may be asked for by two threads at once: a photo screen has it loaded in
        # the background while the players lay their cards out (App.prepare_in_background),
        # and SHUTTER's reading asks on the worker. It is loaded once; the other waits.
        self._gallery_lock = threading.RLock()
        self._load()

    # -- manifest -----------------------------------------------------------------------------
    def _load(self) -> None:
        if not self.manifest_path.exists():
            return
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
            cards = data["cards"]
            if not isinstance(cards, dict):
                raise TypeError("cards is not a table")
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise EnrolmentError(
                f"the enrolment record {self.manifest_path} cannot be read ({error})"
            ) from None
        self.cards = {str(k): dict(v) for k, v in cards.items()}
        self.extra = dict(data.get("extra", {}))

    def _save(self) -> None:
        data = {"version": 1, "game": self.game, "cards": self.cards, "extra": self.extra}
        _write_atomic(
            self.manifest_path,
            (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"),
        )

    def set_extra(self, key: str, value: Any) -> None:
        """Game-specific enrolment data (the Mixtape attributes, the Equalizer)."""
        self.extra[key] = value
        self._save()

    # -- queries ------------------------------------------------------------------------------
    def __contains__(self, key: object) -> bool:
        return key in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def name_of(self, key: str) -> str | None:
        entry = self.cards.get(key)
        return None if entry is None else str(entry["name"])

    def gallery(self) -> Any:
        """The recogniser's gallery of every enrolled card (loaded once, kept up to date)."""
        with self._gallery_lock:
            return self._loaded_gallery()

    def _loaded_gallery(self) -> Any:
        if self._gallery is None:
            from vision.gallery import Gallery, GalleryError  # start-up time: OpenCV

            try:
                self._gallery = Gallery.open(self.gallery_dir)
            except GalleryError as error:
                raise EnrolmentError(f"the card gallery cannot be read ({error})") from None
            if len(self._gallery) == 0 and self.cards:
                self._gallery = self._rebuild()
            self._gallery.prepare_looks()  # here, not on the first photo that needs them
        return self._gallery

    # -- changes ------------------------------------------------------------------------------
    def add(self, key: str, name: str, card: np.ndarray, source: str = "") -> None:
        """Enrol (or re-enrol: replaces the earlier images) one upright card image."""
        self.add_many([(key, name, card, source)])

    def add_many(self, items: list[tuple[str, str, np.ndarray, str]]) -> None:
        """Enrol several cards (key, name, upright image, source) from one photo; the gallery
        and the manifest are written once, after every image file."""
        import cv2  # start-up time: OpenCV loads at the first photo, not with the appliance

        with self._gallery_lock:
            gallery = self.gallery()
            replacing = any(key in self.cards for key, _, _, _ in items)
            for key, name, card, source in items:
                filename = f"{_safe_key(key)}.jpg"
                ok, data = cv2.imencode(".jpg", card, [cv2.IMWRITE_JPEG_QUALITY, 95])
                if not ok:
                    raise EnrolmentError(f"could not encode the image of {name}")
                _write_atomic(self.cards_dir / filename, data.tobytes())
                self.cards[key] = {"name": name, "images": [filename], "source": source}
                if not replacing:
                    gallery.enroll(name, card, source or key)
            if replacing:
                self._gallery = self._rebuild()
            else:
                gallery.save(self.gallery_dir)
                gallery.prepare_looks()  # enrolling dropped them: made now, not on a photo
            self._save()

    def remove(self, key: str) -> None:
        with self._gallery_lock:
            if self.cards.pop(key, None) is not None:
                self._save()
                self._gallery = self._rebuild()

    def _rebuild(self) -> Any:
        """A fresh gallery from the kept card images (after a re-enrolment or an import)."""
        from vision.gallery import Gallery  # start-up time: OpenCV loads at the first enrolment

        gallery = Gallery(self.gallery_dir)
        for key, entry in sorted(self.cards.items()):
            for filename in entry.get("images", []):
                image = _read_card_image(self.cards_dir / filename)
                if image is not None:
                    gallery.enroll(str(entry["name"]), image, entry.get("source") or key)
        if self.gallery_dir.exists():
            shutil.rmtree(self.gallery_dir)
        if len(gallery):
            gallery.save(self.gallery_dir)
        gallery.prepare_looks()
        return gallery

    def card_image(self, key: str) -> np.ndarray | None:
        entry = self.cards.get(key)
        if not entry or not entry.get("images"):
            return None
        return _read_card_image(self.cards_dir / entry["images"][0])


def _read_card_image(path: Path) -> np.ndarray | None:
    """A kept card image, through a photo's checks (a file cut short, too many pixels: an
    imported archive may hold anything), or None when it cannot be used."""
    # start-up time: OpenCV loads at the first photo, not with the appliance
    from vision import VisionError, read_photo

    try:
        image = read_photo(path)
    except (OSError, VisionError):
        return None
    return image if image.size else None


def enrolled(app: App, game: str) -> Enrolment:
    """The game's enrolment in the app's state directory, loaded once per run and kept in
    ``app.cache["<game>.enrolment"]`` (screens ask for it every frame)."""
    key = f"{game}.enrolment"
    cached = app.cache.get(key)
    if not isinstance(cached, Enrolment) or cached.state_dir != Path(app.store.state_dir):
        cached = Enrolment(app.store.state_dir, game)
        app.cache[key] = cached
    return cached


def forget_enrolments(app: App) -> None:
    """Drop the cached enrolments (after an import replaced the files)."""
    for key in [key for key in app.cache if key.endswith(".enrolment")]:
        del app.cache[key]


# -- export / import (every game at once) -----------------------------------------------------
def export_path(state_dir: Path | str) -> Path:
    return Path(state_dir) / EXPORT_NAME


def export_all(state_dir: Path | str, target: Path | None = None) -> tuple[Path, int]:
    """Write every game's enrolment into one zip file; returns (path, files written)."""
    root = Path(state_dir) / ROOT
    target = target or export_path(state_dir)
    files = sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".tmp"))
    if not files:
        raise EnrolmentError("nothing is enrolled yet, so there is nothing to export")
    temporary = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("FORMAT", f"{EXPORT_FORMAT} 1\n")
        for path in files:
            archive.write(path, f"{ROOT}/{path.relative_to(root).as_posix()}")
    os.replace(temporary, target)
    return target, len(files)


def import_all(state_dir: Path | str, source: Path | None = None) -> dict[str, int]:
    """Replace the enrolment with the one in ``source`` (default: the export file).

    The current enrolment is kept in ``enrolment.before-import``. Returns cards per game."""
    state_dir = Path(state_dir)
    source = source or export_path(state_dir)
    if not source.is_file():
        raise EnrolmentError(f"no enrolment file at {source}")
    try:
        with zipfile.ZipFile(source) as archive:
            names = archive.namelist()
            if "FORMAT" not in names or not archive.read("FORMAT").decode().startswith(
                EXPORT_FORMAT
            ):
                raise EnrolmentError(f"{source.name} is not a Tablekeeper enrolment file")
            members = [n for n in names if n.startswith(f"{ROOT}/") and not n.endswith("/")]
            for name in members:
                parts = Path(name).parts
                if ".." in parts or Path(name).is_absolute():
                    raise EnrolmentError(f"{source.name} holds an unsafe path: {name}")
            staging = state_dir / f"{ROOT}.importing"
            if staging.exists():
                shutil.rmtree(staging)
            for name in members:
                target = staging / Path(name).relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(name))
    except zipfile.BadZipFile:
        raise EnrolmentError(f"{source.name} is damaged (not a readable zip file)") from None
    counts: dict[str, int] = {}
    for manifest in staging.glob("*/manifest.json"):
        try:
            counts[manifest.parent.name] = len(json.loads(manifest.read_text())["cards"])
        except (ValueError, KeyError, TypeError):
            shutil.rmtree(staging)
            raise EnrolmentError(f"{source.name}: {manifest.parent.name} is damaged") from None
    current = state_dir / ROOT
    aside = state_dir / f"{ROOT}.before-import"
    if aside.exists():
        shutil.rmtree(aside)
    if current.exists():
        current.rename(aside)
    staging.rename(current)
    return counts
