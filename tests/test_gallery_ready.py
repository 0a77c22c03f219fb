"""A photo screen has the card gallery loaded while the players lay their cards out, so the first
photo of a run reads as fast as the others; whoever asks for the gallery meanwhile waits for that
one load, and a gallery that cannot be read is still reported when SHUTTER reads a photo."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flowkit import sim_app

from display.cards.enrolment import Enrolment, enrolled
from display.checks.scenes import enrol_directly
from games.remix import default_catalogue

NAMES = {card.id: card.name for card in list(default_catalogue())[:12]}


@pytest.fixture(scope="module")
def remix_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("remix-gallery-ready")
    enrol_directly(state, "remix", NAMES)
    return state


def test_two_asks_at_once_load_the_gallery_once(
    remix_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.gallery import Gallery

    opened: list[int] = []
    real_open = Gallery.open

    def slow_open(folder: Any) -> Gallery:
        opened.append(1)
        time.sleep(0.2)  # long enough for the second ask to arrive while the first loads
        return real_open(folder)

    monkeypatch.setattr(Gallery, "open", staticmethod(slow_open))
    enrolment = Enrolment(remix_state, "remix")
    got: list[Any] = []
    askers = [threading.Thread(target=lambda: got.append(enrolment.gallery())) for _ in range(2)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(timeout=30)
    assert len(opened) == 1
    assert len(got) == 2 and got[0] is got[1]
    assert len(got[0]) == len(NAMES)


def test_the_hand_screen_readies_the_gallery_before_shutter(remix_state: Path) -> None:
    from display.screens.remix.table import RemixHandScreen

    with sim_app(remix_state) as app:
        enrolment = enrolled(app, "remix")
        assert enrolment._gallery is None  # nothing loaded at start-up (OpenCV waits too)
        app.push(RemixHandScreen(app, "Ann"))
        app.update()  # the screen's first frame
        gallery = enrolment._gallery
        assert gallery is not None and gallery._look_vectors is not None


def test_off_the_worker_the_gallery_is_readied_on_a_thread_of_its_own(remix_state: Path) -> None:
    from display.screens.remix.table import RemixHandScreen

    with sim_app(remix_state) as app:
        app.jobs_inline = False  # as on the appliance
        enrolment = enrolled(app, "remix")
        app.push(RemixHandScreen(app, "Ann"))
        app.update()
        deadline = time.monotonic() + 30
        while enrolment._gallery is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert enrolment._gallery is not None
        assert app._executor is None  # the worker was not used: SHUTTER's job is not queued


def test_a_gallery_that_cannot_be_read_is_still_reported_at_shutter(
    remix_state: Path, tmp_path: Path
) -> None:
    import shutil

    from display.actions import Action
    from display.screens.remix.table import RemixHandScreen

    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    for npz in state.rglob("gallery.npz"):
        npz.write_bytes(b"not a gallery")
    with sim_app(state) as app:
        screen = RemixHandScreen(app, "Ann")
        app.push(screen)
        app.update()  # readying it fails quietly: nothing is shown yet
        assert app.top is screen and not screen.error
        app.press(Action.SHUTTER)
        assert "gallery cannot be read" in screen.error


def test_preparing_the_gallery_makes_opencvs_lab_tables_before_any_photo(
    remix_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # OpenCV builds its Lab tables on a run's first conversion to Lab (34 ms on 5.1, 89 ms on
    # 4.11 here), and every photo's card signatures convert to Lab: readied with the gallery,
    # the first photo no longer pays for it.
    import cv2

    conversions: list[int] = []
    real_convert = cv2.cvtColor

    def spying(image: Any, code: int, *args: Any, **kwargs: Any) -> Any:
        conversions.append(code)
        return real_convert(image, code, *args, **kwargs)

    enrolment = Enrolment(remix_state, "remix")
    monkeypatch.setattr(cv2, "cvtColor", spying)
    enrolment.gallery()  # loaded from disk and prepared: no card image is converted
    assert cv2.COLOR_BGR2LAB in conversions
