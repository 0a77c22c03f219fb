"""Generated table photos for the simulated camera, the tests, the demos and the flow bench.

The faces come from ``vision.synth.render_card_face`` (a distinct synthetic face per name), so a
"deck" here is a list of names: the Remix names from the catalogue, or Mixtape card ids. A
different ``printing`` of a card (another seed) has the same title and other art: the recogniser
names it by its title, as it should a real second printing. A card the recogniser cannot know is
one left out of the gallery (enrol all but it with :func:`enrol_directly`): that is how the tests
make an unknown card the player corrects from the pick list.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from display.cards.enrolment import Enrolment, export_all
from display.cards.mixtape_deck import write_deck_file
from games.mixtape import example_deck_path, load_example_deck
from vision.synth import compose_scene, make_table, render_card_face

SCENE_SIZE = (1280, 960)
TABLE = "felt"


def scene(
    names: Sequence[str],
    seed: int,
    *,
    layout: str = "rows",
    printings: Mapping[str, int] | None = None,
    size: tuple[int, int] = SCENE_SIZE,
    table: str = TABLE,
) -> np.ndarray:
    """A photo of ``names`` laid out in ``layout`` ("rows" or "columns": first half Trk A)."""

    printings = printings or {}
    faces = [render_card_face(name, seed=printings.get(name, 0)) for name in names]
    rng = np.random.default_rng(seed)
    return compose_scene(faces, rng, difficulty="easy", size=size, table=table, layout=layout).image


def columns_scene(
    a: Sequence[str], b: Sequence[str], seed: int, size: tuple[int, int] = (1640, 1232)
) -> np.ndarray:
    """A mixtape: column Trk A (left) and Trk B (right), each top to bottom. Each card is
    photographed in its own tile of a two-column grid, so the columns may differ in length."""

    rng = np.random.default_rng(seed)
    if len(a) == len(b):
        faces = [render_card_face(n) for n in (*a, *b)]
        return compose_scene(
            faces, rng, difficulty="easy", size=size, table=TABLE, layout="columns"
        ).image
    rows = max(len(a), len(b), 1)
    tile = (size[0] // 2, size[1] // rows)
    columns = []
    for names in (a, b):
        tiles = []
        for row in range(rows):
            if row < len(names):
                face = render_card_face(names[row])
                shot = compose_scene(
                    [face], rng, difficulty="easy", size=tile, table=TABLE, layout="rows"
                )
                tiles.append(shot.image)
            else:
                tiles.append(make_table(tile[0], tile[1], TABLE, rng))
        columns.append(np.vstack(tiles))
    return np.hstack(columns)


def write(path: Path, image: np.ndarray) -> Path:

    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def enrol_directly(state_dir: Path, game: str, names_by_key: Mapping[str, str]) -> None:
    """Enrol cards from their generated faces without photographs (bench and test set-up)."""

    done = Enrolment(state_dir, game)
    gallery = done.gallery()

    for key, name in names_by_key.items():
        face = render_card_face(name)
        ok, data = cv2.imencode(".jpg", face, [cv2.IMWRITE_JPEG_QUALITY, 95])
        assert ok
        done.cards_dir.mkdir(parents=True, exist_ok=True)
        (done.cards_dir / f"{key}.jpg").write_bytes(data.tobytes())
        done.cards[key] = {"name": name, "images": [f"{key}.jpg"], "source": "generated"}
        gallery.enroll(name, face, "generated")
    gallery.save(done.gallery_dir)
    done._save()


def example_mixtape_enrolment(state_dir: Path) -> Path:
    """Enrol the packaged example Mixtape deck (faces generated from the card ids, attributes
    from the example deck file) into ``state_dir`` and export it; returns the export file.
    Tests and the bench import it through the Enrol screen like a table would."""

    deck = load_example_deck()
    enrol_directly(state_dir, "mixtape", {card.id: card.id for card in deck.cards})
    done = Enrolment(state_dir, "mixtape")
    done.set_extra(
        "cards",
        {card.id: {k: v for k, v in card.to_json().items() if k != "id"} for card in deck.cards},
    )
    done.set_extra("equalizer", {"squares": list(deck.squares), "start": deck.start})
    shutil.copyfile(example_deck_path(), done.deck_path)
    return export_all(state_dir)[0]


def enrol_solo_deck(folder: Path, keep: Sequence[str]) -> None:
    """Enrol the example deck's cards ``keep`` (generated faces, their printed attributes and
    the example Equalizer) in ``folder`` and write the deck file. A short solo game against
    Otto needs only a few cards."""

    example = load_example_deck()
    enrol_directly(folder, "mixtape", {card_id: card_id for card_id in keep})
    done = Enrolment(folder, "mixtape")
    attributes = {}
    for card_id in keep:
        data = example.card(card_id).to_json()
        del data["id"]
        attributes[card_id] = data
    done.set_extra("cards", attributes)
    done.set_extra("equalizer", {"squares": list(example.squares), "start": example.start})
    problem = write_deck_file(done)
    if problem:
        raise ValueError(f"the solo deck is not complete: {problem}")


def solo_deck_enrolment(folder: Path, keep: Sequence[str]) -> Path:
    """:func:`enrol_solo_deck` in ``folder``, then export it; returns the export file."""

    enrol_solo_deck(folder, keep)
    return export_all(folder)[0]


# What a demo script may ask for before it starts (a line "# prepare: NAME"): an appliance
# that already holds what the tour needs, so the tour shows the screens, not the set-up.
SOLO_DEMO_CARDS = [f"EX{n:02d}" for n in range(1, 13)] + [f"EX{n}" for n in range(37, 43)]


def prepare_demo(name: str, state_dir: Path) -> None:
    """Set ``state_dir`` up as the demo preparation ``name`` says; ValueError if unknown."""
    if name == "mixtape-solo":  # the example deck's first twelve cards and Otto's six
        enrol_solo_deck(state_dir, SOLO_DEMO_CARDS)
    else:
        raise ValueError(f"unknown demo preparation {name!r} (known: mixtape-solo)")
