"""The enrolled gallery: reference images of every card the owner wants recognised.

On disk a gallery is a folder holding plain data only (no pickle):

- ``gallery.json`` — format/version, and one entry per reference image:
  ``{"name": card name, "source": where it came from, "features": count}``;
- ``gallery.npz`` — numpy arrays: ``points`` (N x 2 float32, feature positions on the upright
  336 x 468 reference), ``descriptors`` (N x 32 uint8 ORB), ``owner`` (N int32, entry of each
  feature), ``signatures`` (E x D float32 whole-card signatures), ``looks`` (E x 54 x 38 x 3
  uint8: each card at about 1/8 size, for the appearance check; galleries written before it
  existed get it from ``images/`` when loaded), and the search index ``words`` /
  ``word_order`` / ``word_starts`` / ``coarse_words`` / ``coarse_starts``;
- ``images/NNNNN.jpg`` — a small copy of each reference (for pick-lists and re-enrolment).

Several entries may share one name (printings, or several photos of one card).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import vision.tuning as tuning
from vision import frame
from vision.detect import card_from_image
from vision.features import WordIndex, card_features, global_descriptor, prepare_signatures
from vision.geometry import CARD_H, CARD_W
from vision.look import (
    CellBasis,
    card_look,
    cell_basis,
    look_cells,
    look_residuals,
    look_shape,
    look_vectors,
    typical_look,
)
from vision.photo import read_photo
from vision.result import DamagedPhotoError, VisionError

FORMAT = "tablekeeper-gallery"
VERSION = 1
_JSON = "gallery.json"
_ARRAYS = "gallery.npz"
_IMAGES = "images"
THUMB_SIZE = (168, 234)


class GalleryError(Exception):
    """A gallery folder that cannot be read (missing, corrupt, or another format)."""


@dataclass
class GalleryEntry:
    name: str
    source: str
    start: int  # first feature row
    count: int  # number of feature rows


def name_from_filename(path: str | Path) -> str:
    """A card's name from a reference file name: the stem up to ``__`` (or the whole stem)."""
    stem = Path(path).stem
    return stem.split("__", 1)[0].strip() if "__" in stem else stem.strip()


class Gallery:
    """Reference cards with their features and a fast search index.

    ``Gallery.load(folder)`` reads a saved gallery; ``Gallery(folder)`` starts an empty one.
    ``enroll(name, card_image)`` adds one upright card image (any size, it is resized to the
    canonical 336 x 468); ``save()`` writes the folder.
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.entries: list[GalleryEntry] = []
        self.points = np.zeros((0, 2), np.float32)
        self.descriptors = np.zeros((0, 32), np.uint8)
        self.owner = np.zeros(0, np.int32)
        self.signatures = np.zeros((0, 0), np.float32)
        self.looks = np.zeros((0, 0, 0, 3), np.uint8)
        self._look_vectors: np.ndarray | None = None
        self._typical_look: np.ndarray | None = None
        self._look_cells: np.ndarray | None = None
        self._cell_basis: CellBasis | None = None
        self._thumbs: dict[int, np.ndarray] = {}
        self._index: WordIndex | None = None
        self._name_ids: np.ndarray | None = None
        self._by_word: tuple[np.ndarray, np.ndarray] | None = None
        self._names: list[str] = []
        self._name_numbers: dict[str, int] = {}
        # vision.frame's verdict per feature (is it the card's own or its layout's frame), as
        # saved with these references; None when not saved or made with other tuning.
        self.frame_counted: np.ndarray | None = None

    # -- building -------------------------------------------------------------------------
    def enroll(self, name: str, card: np.ndarray, source: str = "") -> int:
        """Add one upright card image under ``name``; returns the new entry's number."""
        name = name.strip()
        if not name:
            raise ValueError("a card needs a name")
        if card is None or card.size == 0:
            raise ValueError("empty card image")
        if card.ndim == 2:
            card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
        canonical = card
        if card.shape[:2] != (CARD_H, CARD_W):
            interp = cv2.INTER_AREA if card.shape[1] > CARD_W else cv2.INTER_CUBIC
            canonical = cv2.resize(card, (CARD_W, CARD_H), interpolation=interp)
        points, descriptors = card_features(
            canonical, tuning.REFERENCE_FEATURES, tuning.REFERENCE_LEVELS
        )
        entry = GalleryEntry(name, source, len(self.descriptors), len(descriptors))
        self.entries.append(entry)
        self.points = np.vstack([self.points, points]).astype(np.float32)
        self.descriptors = np.vstack([self.descriptors, descriptors]).astype(np.uint8)
        self.owner = np.concatenate(
            [self.owner, np.full(len(descriptors), len(self.entries) - 1, np.int32)]
        )
        signature = global_descriptor(canonical)[None, :]
        self.signatures = (
            signature if len(self.signatures) == 0 else np.vstack([self.signatures, signature])
        )
        look = card_look(canonical)[None]
        self.looks = look if len(self.looks) == 0 else np.concatenate([self.looks, look])
        self._look_vectors = None
        self._typical_look = None
        self._look_cells = None
        self._cell_basis = None
        self._thumbs[len(self.entries) - 1] = cv2.resize(
            canonical, THUMB_SIZE, interpolation=cv2.INTER_AREA
        )
        self._index = None
        self._name_ids = None
        self._by_word = None
        self.frame_counted = None
        return len(self.entries) - 1

    def save(self, directory: str | Path | None = None) -> Path:
        """Write the gallery folder (``gallery.json``, ``gallery.npz``, ``images/``)."""
        target = Path(directory) if directory is not None else self.directory
        if target is None:
            raise ValueError("no folder given for the gallery")
        previous, self.directory = self.directory, target
        (target / _IMAGES).mkdir(parents=True, exist_ok=True)
        index = self.index
        meta = {
            "format": FORMAT,
            "version": VERSION,
            "card_size": [CARD_W, CARD_H],
            "entries": [
                {"name": e.name, "source": e.source, "features": e.count} for e in self.entries
            ],
        }
        np.savez(
            target / (_ARRAYS + ".tmp.npz"),
            points=self.points,
            descriptors=self.descriptors,
            owner=self.owner,
            signatures=self.signatures,
            looks=self.looks,
            words=index.words,
            word_order=index.order,
            word_starts=index.starts,
            coarse_words=index.coarse,
            coarse_starts=index.coarse_starts,
            # Made once here (a third of a second for 400 scans), not on every cold start.
            frame_counted=frame.every_reference_counted(self),
            frame_settings=frame.settings(),
        )
        (target / (_ARRAYS + ".tmp.npz")).replace(target / _ARRAYS)
        tmp_json = target / (_JSON + ".tmp")
        tmp_json.write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        tmp_json.replace(target / _JSON)
        for number in range(len(self.entries)):
            image = f"{number:05d}.jpg"
            if number in self._thumbs:
                cv2.imwrite(str(target / _IMAGES / image), self._thumbs[number])
            elif previous is not None and previous.resolve() != target.resolve():
                # Saved before to another folder: its small copies come along.
                if (previous / _IMAGES / image).is_file():
                    shutil.copyfile(previous / _IMAGES / image, target / _IMAGES / image)
        self._thumbs.clear()
        return target

    # -- reading --------------------------------------------------------------------------
    @classmethod
    def load(cls, directory: str | Path) -> Gallery:
        """Read a gallery folder written by :meth:`save`."""
        folder = Path(directory)
        meta_path, arrays_path = folder / _JSON, folder / _ARRAYS
        if not meta_path.is_file() or not arrays_path.is_file():
            raise GalleryError(f"{folder} is not a card gallery (no {_JSON} / {_ARRAYS})")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT:
                raise GalleryError(f"{meta_path} is not a {FORMAT} file")
            if int(meta.get("version", 0)) > VERSION:
                raise GalleryError(f"{meta_path} was written by a newer Tablekeeper")
            with np.load(arrays_path, allow_pickle=False) as arrays:
                data = {key: arrays[key] for key in arrays.files}
        except GalleryError:
            raise
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as error:
            raise GalleryError(f"cannot read gallery {folder}: {error}") from error
        gallery = cls(folder)
        # Whole-number arrays must hold whole numbers: casting a float array (NaN and all)
        # would turn a damaged file into plausible-looking garbage.
        for key in _WHOLE_NUMBER_ARRAYS:
            if key in data and data[key].dtype.kind not in "iub":
                raise GalleryError(
                    f"gallery {folder} is damaged ({key} are {data[key].dtype}, not whole numbers)"
                )
        try:
            start = 0
            for item in meta["entries"]:
                count = int(item["features"])
                gallery.entries.append(
                    GalleryEntry(str(item["name"]), str(item.get("source", "")), start, count)
                )
                start += count
            gallery.points = data["points"].astype(np.float32)
            gallery.descriptors = data["descriptors"].astype(np.uint8)
            gallery.owner = data["owner"].astype(np.int32)
            gallery.signatures = data["signatures"].astype(np.float32)
            if "looks" in data:
                gallery.looks = data["looks"].astype(np.uint8)
            gallery._index = WordIndex(
                data["words"].astype(np.uint8),
                data["word_order"].astype(np.int32),
                data["word_starts"].astype(np.int32),
                data["coarse_words"].astype(np.uint8),
                data["coarse_starts"].astype(np.int32),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise GalleryError(f"gallery {folder} is incomplete: {error}") from error
        if start != len(gallery.descriptors) or len(gallery.owner) != start:
            raise GalleryError(f"gallery {folder} is inconsistent (feature counts differ)")
        if len(gallery.signatures) != len(gallery.entries):
            raise GalleryError(f"gallery {folder} is inconsistent (signature count)")
        if "looks" not in data:
            gallery.looks = gallery._looks_from_images()
        if len(gallery.looks) != len(gallery.entries):
            raise GalleryError(f"gallery {folder} is inconsistent (look count)")
        problem = _array_problem(gallery)
        if problem:
            raise GalleryError(f"gallery {folder} is damaged ({problem})")
        gallery.frame_counted = _stored_frame_verdicts(data, len(gallery.descriptors))
        return gallery

    @classmethod
    def open(cls, directory: str | Path) -> Gallery:
        """Load the gallery in ``directory`` if there is one, else start an empty one there."""
        folder = Path(directory)
        if (folder / _JSON).exists():
            return cls.load(folder)
        return cls(folder)

    # -- queries --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.entries)

    @property
    def names(self) -> list[str]:
        """Distinct card names, sorted: kept with :attr:`name_ids`, not sorted again for every
        ask (the last word asks once a photo: ~0.1 ms for 372 references)."""
        self.name_ids  # noqa: B018 - makes the names
        return list(self._names)

    @property
    def index(self) -> WordIndex:
        if self._index is None:
            self._index = WordIndex.build(self.descriptors)
        return self._index

    @property
    def name_ids(self) -> np.ndarray:
        """Per entry, a number shared by all entries of the same name."""
        if self._name_ids is None:
            self._names = sorted({e.name for e in self.entries})
            self._name_numbers = {n: i for i, n in enumerate(self._names)}
            self._name_ids = np.array([self._name_numbers[e.name] for e in self.entries], np.int32)
        return self._name_ids

    def name_number(self, name: str | None) -> int | None:
        """The number :attr:`name_ids` gives the entries named ``name``; None when no entry
        has that name. A look-up, not a walk over the entries: the layering asks it ~90 times
        a fanned photo."""
        if name is None or len(self.name_ids) == 0:
            return None
        return self._name_numbers.get(name)

    @property
    def by_word(self) -> tuple[np.ndarray, np.ndarray]:
        """(descriptors, name numbers) of the gallery's features in the word index's order
        (:attr:`WordIndex.order`), computed once: finding looks both up for half a million
        candidate matches per photo. A word's candidates are then neighbours in
        memory: gathering half a million candidate descriptors from a 6 MB table in random
        order cost finding ~7 ms a photo on the Pi's numpy."""
        if self._by_word is None:
            order = self.index.order
            self._by_word = (self.descriptors[order], self.name_ids[self.owner[order]])
        return self._by_word

    def entry_features(self, entry: int) -> tuple[np.ndarray, np.ndarray]:
        e = self.entries[entry]
        return (
            self.points[e.start : e.start + e.count],
            self.descriptors[e.start : e.start + e.count],
        )

    def look_vectors(self) -> np.ndarray:
        """Every reference's look as a unit vector of how it differs from the gallery's
        typical card (:func:`vision.look.look_vectors`); E x D, computed once."""
        if self._look_vectors is None:
            if len(self.looks) == 0:
                self._look_vectors = np.zeros((0, 0), np.float32)
            else:
                residuals = look_residuals(self.looks, self.typical_look())
                self._look_vectors = look_vectors(residuals)
        return self._look_vectors

    def look_cells(self) -> np.ndarray:
        """Every reference's look, typical card taken away, as a grid of unit-vector cells
        (:func:`vision.look.look_cells`); E x 12 x D, computed once."""
        if self._look_cells is None:
            if len(self.looks) == 0:
                return np.zeros((0, 0, 0), np.float32)
            self._look_cells = look_cells(look_residuals(self.looks, self.typical_look()))
        return self._look_cells

    def prepare_looks(self) -> None:
        """Work out now the look tables identifying keeps using (the typical card, the
        references' look vectors and cells, the cells' basis), which are otherwise made on the
        first photo that needs each: the look vectors only on the first photo with a card the
        features are unsure of, so a warm appliance charged ~50 ms to a player's photo. For
        the 372 references of the families' gallery: ~0.2 s of CPU (both stacks). Enrolling a
        card drops them (they hold every reference). OpenCV's own Lab tables, which every
        photo's signatures need, are made here too (:func:`vision.features.prepare_signatures`)."""
        prepare_signatures()
        if len(self.looks) >= tuning.LOOK_MIN_GALLERY:
            self.look_vectors()
            self.look_cell_basis()

    def look_cell_basis(self) -> CellBasis:
        """The few directions that hold most of the references' look cells, and their
        coordinates along them (:func:`vision.look.cell_basis`), for bounding a card's cell
        correlations (:func:`vision.look.cell_score_bounds`); computed once."""
        if self._cell_basis is None:
            self._cell_basis = cell_basis(self.look_cells(), tuning.LOOK_BOUND_BASIS)
        return self._cell_basis

    def typical_look(self) -> np.ndarray:
        """The typical card: the mean look of the references, light taken out (float32),
        computed once."""
        if self._typical_look is None:
            self._typical_look = typical_look(self.looks)
        return self._typical_look

    def _looks_from_images(self) -> np.ndarray:
        """Looks for a gallery saved before they were stored: from its small copies."""
        looks = []
        for entry in range(len(self.entries)):
            thumb = self.thumbnail(entry)
            if thumb is None:
                raise GalleryError(f"gallery {self.directory} has no image for entry {entry}")
            looks.append(card_look(cv2.resize(thumb, (CARD_W, CARD_H))))
        return np.stack(looks) if looks else np.zeros((0, 0, 0, 3), np.uint8)

    def entries_named(self, name: str) -> list[int]:
        return [i for i, e in enumerate(self.entries) if e.name == name]

    def thumbnail(self, entry: int) -> np.ndarray | None:
        """A small picture of one reference (BGR), or None if it is not available."""
        if entry in self._thumbs:
            return self._thumbs[entry]
        if self.directory is None:
            return None
        try:  # the same checks as a photo: a planted or damaged file is no thumbnail
            image = read_photo(self.directory / _IMAGES / f"{entry:05d}.jpg")
        except (OSError, VisionError):
            return None
        return image if image.size else None

    def enroll_files(self, paths: Iterable[str | Path]) -> list[int]:
        """Enrol one card per image file, named by :func:`name_from_filename`."""
        added = []
        for path in paths:
            try:  # the identification's checks: a file cut short, too many pixels
                image = read_photo(path)
            except DamagedPhotoError as error:
                raise GalleryError(f"cannot enrol {path}: {error.advice}") from None
            except (OSError, VisionError) as error:
                raise GalleryError(f"cannot read image {path}: {error}") from None
            added.append(self.enroll(name_from_filename(path), card_from_image(image), str(path)))
        return added


_WHOLE_NUMBER_ARRAYS = (
    "descriptors",
    "owner",
    "looks",
    "words",
    "word_order",
    "word_starts",
    "coarse_words",
    "coarse_starts",
)


def _stored_frame_verdicts(data: dict[str, np.ndarray], features: int) -> np.ndarray | None:
    """The saved frame verdicts when they fit these features and today's tuning, else None
    (an older gallery, or one saved before a frame setting changed: they are made afresh)."""
    counted, made_with = data.get("frame_counted"), data.get("frame_settings")
    if counted is None or made_with is None or counted.dtype != bool:
        return None
    if counted.shape != (features,) or made_with.shape != frame.settings().shape:
        return None
    return counted if np.array_equal(made_with, frame.settings()) else None


def _array_problem(gallery: Gallery) -> str | None:
    """Why the loaded arrays cannot be used (wrong shape, offsets out of range), or None."""
    n = len(gallery.descriptors)
    index = gallery._index
    assert index is not None
    shapes: dict[str, tuple[np.ndarray, tuple[int, ...]]] = {
        "points": (gallery.points, (n, 2)),
        "descriptors": (gallery.descriptors, (n, 32)),
        "owner": (gallery.owner, (n,)),
        "words": (index.words, (len(index.words), 32)),
        "word_order": (index.order, (n,)),
        "word_starts": (index.starts, (len(index.words) + 1,)),
        "coarse_words": (index.coarse, (len(index.coarse), 32)),
        "coarse_starts": (index.coarse_starts, (len(index.coarse) + 1,)),
    }
    for name, (array, shape) in shapes.items():
        if array.shape != shape:
            return f"{name} has shape {array.shape}, expected {shape}"
    if gallery.signatures.ndim != 2 or not np.isfinite(gallery.signatures).all():
        return "signatures are not a table of numbers"
    looks_shape = (len(gallery.entries), *look_shape())
    if len(gallery.entries) and gallery.looks.shape != looks_shape:
        return f"looks have shape {gallery.looks.shape}, expected {looks_shape}"
    if not np.isfinite(gallery.points).all():
        return "points are not numbers"
    if n and (gallery.owner.min() < 0 or gallery.owner.max() >= len(gallery.entries)):
        return "owner refers to cards that are not there"
    if n and (index.order.min() < 0 or index.order.max() >= n):
        return "word_order refers to features that are not there"
    for name, starts, end in (
        ("word_starts", index.starts, n),
        ("coarse_starts", index.coarse_starts, len(index.words)),
    ):
        if starts[0] != 0 or starts[-1] != end or (np.diff(starts) < 0).any():
            return f"{name} are not offsets into the arrays"
    if n and not len(index.coarse):
        return "the word index is empty"
    return None
