"""A card the photo smeared, through the real Remix hand screen: the recogniser reports it
unknown because it is too blurred, and the player is told so - a banner over the photo says a
retake with nothing moving will read it, the list and the pick list say "blurred" - and a
steady retake names it. Other reasons keep the plain "pick a card"."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flowkit import TextRecorder, shots_dir, sim_app

from display.actions import Action
from display.cards.capture import PhotoRead
from display.cards.photos import save_photo
from display.cards.reading import TOO_BLURRED, UNKNOWN, ReadCard, Reading
from display.checks.scenes import enrol_directly
from games.remix import default_catalogue
from vision.result import REASON_TOO_BLURRED
from vision.synth import Scene, render_card_face
from vision.synth_hands import compose_hand, smear_card

NAMES = {card.id: card.name for card in default_catalogue()}
HAND = ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"]
SMEARED = 2  # Rogue, still sliding into place as the photo is taken


@pytest.fixture(scope="module")
def remix_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("remix-blur-state")
    enrol_directly(state, "remix", NAMES)
    return state


@pytest.fixture(scope="module")
def hand() -> Scene:
    faces = [render_card_face(NAMES[i]) for i in HAND]
    return compose_hand(faces, np.random.default_rng(1), layout="scatter", table="felt")


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> TextRecorder:
    return TextRecorder(monkeypatch)


@pytest.fixture
def app(tmp_path: Path, remix_state: Path) -> Iterator[Any]:
    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    with sim_app(state) as running:
        yield running


def test_the_reading_keeps_the_recognisers_blur_reason() -> None:
    # the screens test the reason without loading OpenCV: the two spellings must agree
    assert TOO_BLURRED == REASON_TOO_BLURRED
    card = ReadCard(None, 0.0, [[0, 0], [1, 0], [1, 1], [0, 1]], [], TOO_BLURRED)
    assert card.status == UNKNOWN and card.blurred
    assert ReadCard.from_json(card.to_json()).blurred  # a restart keeps it
    assert not ReadCard(None, 0.0, [], [], "not in gallery").blurred
    # a player's pick settles it: no longer a card to retake for
    card.settle("Rogue")
    assert not card.blurred


def test_a_smeared_card_is_said_blurred_and_a_steady_retake_reads_it(
    app: Any, hand: Scene, recorder: TextRecorder, tmp_path: Path
) -> None:
    from display.screens.remix.table import RemixHandScreen

    app.camera.queue_image(smear_card(hand, SMEARED, 16.0))
    screen = RemixHandScreen(app, "Ann")
    app.push(screen)
    app.press(Action.SHUTTER)
    app.render()  # the reading lands; the next frame draws it
    cards = screen.reading.cards
    assert sorted(c.name for c in cards if c.name) == sorted(
        NAMES[i] for i in HAND if i != HAND[SMEARED]
    )
    (blurred,) = [i for i, c in enumerate(cards) if c.status == UNKNOWN]
    assert cards[blurred].reason == TOO_BLURRED

    shown = recorder.words(app)
    shots = shots_dir(tmp_path, "blurred-review")
    shots.mkdir(parents=True, exist_ok=True)
    app.screenshot(shots / "review-one-card-blurred.png")
    assert f"Card {blurred + 1} is too blurred to read" in shown
    assert "retake with nothing moving" in shown
    assert f"> {blurred + 1} ?? blurred" in shown
    assert screen.selected == blurred  # the cursor waits on it

    app.press(Action.OK)  # its pick list says why it asks
    shown = recorder.words(app)
    app.screenshot(shots / "pick-blurred-card.png")
    assert f"Card {blurred + 1} was too blurred to read: which is it?" in shown
    app.press(Action.BACK)

    app.camera.queue_image(hand.image)  # the same hand, nothing moving
    app.press(Action.SHUTTER)
    app.render()
    assert sorted(c.name for c in screen.reading.cards) == sorted(NAMES[i] for i in HAND)
    shown = recorder.words(app)
    assert "blurred" not in shown


def landed(app: Any, cards: list[ReadCard], columns: bool = False) -> Any:
    """A hand screen as a reading of ``cards`` lands on it (the path a SHUTTER's reading takes
    back to the screen); ``columns``: one that reads a tape's two columns."""
    from display.screens.remix.table import RemixHandScreen

    class TapeReview(RemixHandScreen):
        layout = "columns"

    screen = (TapeReview if columns else RemixHandScreen)(app, "Dee")
    app.push(screen)
    image = np.full((480, 800, 3), 60, np.uint8)
    photo = save_photo(app, image, "test")
    reading = Reading(cards, 0.4, (800, 480))
    screen.use_reading(PhotoRead(reading=reading, photo=photo, preview=image, full_size=(800, 480)))
    return screen


def _card(i: int, name: str | None, reason: str = "", column: str = "") -> ReadCard:
    left = 20.0 + 110 * i
    corners = [[left, 40.0], [left + 100, 40.0], [left + 100, 180.0], [left, 180.0]]
    return ReadCard(name, 0.95 if name else 0.0, corners, [], reason, column=column)


def test_the_banner_counts_the_blurred_cards_with_the_count(
    app: Any, recorder: TextRecorder
) -> None:
    names = [NAMES[i] for i in HAND]
    two = [_card(i, n) for i, n in enumerate(names)]
    two[1] = _card(1, None, TOO_BLURRED)
    two[4] = _card(4, None, TOO_BLURRED)
    two[5] = _card(5, None, "not in gallery")
    landed(app, two)
    shown = recorder.words(app)
    assert "2 cards are too blurred to read" in shown
    assert "retake with nothing moving" in shown
    assert "2 ?? blurred" in shown and "5 ?? blurred" in shown
    assert "6 ?? pick a card" in shown  # another reason: no retake advice for it
    app.pop()

    many = [_card(i, None if i < 4 else n, TOO_BLURRED) for i, n in enumerate(names)]
    landed(app, many)
    assert "4 cards are too blurred to read" in recorder.words(app)
    app.pop()

    # a wrong count is said first: too many cards (a blur does not make cards) ...
    extra = [_card(i, n) for i, n in enumerate(names)] + [_card(7, "Rogue")]
    extra[2] = _card(2, None, TOO_BLURRED)
    landed(app, extra)
    shown = recorder.words(app)
    assert "8 cards found, a hand holds 7" in shown and "is too blurred" not in shown
    assert "3 ?? blurred" in shown
    app.pop()

    # ... and too few with none blurred
    short = [_card(i, n) for i, n in enumerate(names[:6])]
    landed(app, short)
    assert "6 of 7 cards found" in recorder.words(app)
    app.pop()

    # too few and some blurred: a shaken photo, one problem, which a steady retake mends
    short[2] = _card(2, None, TOO_BLURRED)
    landed(app, short)
    shown = recorder.words(app)
    assert "6 of 7 found, 1 too blurred" in shown and "is too blurred" not in shown
    assert "retake with nothing moving" in shown
    assert "3 ?? blurred" in shown


def test_a_tapes_blurred_card_is_named_by_its_column(app: Any, recorder: TextRecorder) -> None:
    cards = [_card(i, NAMES[c], column="A" if i < 4 else "B") for i, c in enumerate(HAND)]
    cards[5] = _card(5, None, TOO_BLURRED, column="B")
    landed(app, cards, columns=True)
    shown = recorder.words(app)
    assert "Card B6 is too blurred to read" in shown
    assert "B6 ?? blurred" in shown
