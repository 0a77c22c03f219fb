"""Marvel: Remix on the simulated appliance, end to end through the script runner (the runner of
`tablekeeper run --sim --script FILE --dump-state FILE`), the camera fed with generated scenes
(`camera PATH`): enrolment in batches with a stop and a resume across a restart, the verify pass
catching a card it would misname and re-enrolling it, then three hands scored at one table - one
with a card the recogniser cannot read that the player corrects, one with Loki's draw - and the
ranking.

Enrolment covers 24 of the 79 cards (two batches) to keep the test near ten seconds; every
batch runs the same code, and `tablekeeper bench flows` drives all seven batches of the
full checklist. Scoring tests enrol the deck directly from the generated faces.

Set FLOW_SHOTS=/some/dir to keep the screenshots (they are looked at during development).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flowkit import run, shots_dir, top

from display.cards.enrolment import Enrolment
from display.checks.scenes import enrol_directly, scene
from games.remix import default_catalogue, score_hand

CHECKLIST = [(card.id, card.name) for card in default_catalogue()]
NAMES = {card_id: name for card_id, name in CHECKLIST}
ENROL_SIZE = (1640, 1232)


def test_enrol_in_batches_resume_verify_and_reenrol(tmp_path: Path) -> None:
    state = tmp_path / "state"
    shots = shots_dir(tmp_path, "enrol-remix")
    first = [name for _, name in CHECKLIST[:12]]
    second = [name for _, name in CHECKLIST[12:24]]
    twelve_13 = CHECKLIST[12][1]
    images = {
        "batch1.jpg": scene(first, 100, size=ENROL_SIZE),
        "batch2.jpg": scene(second, 101, size=ENROL_SIZE),
        # one card (the 13th, in another printing): the wrong count for batch 2, and later the
        # photo that re-enrols it after the verify pass
        "one-card.jpg": scene([twelve_13], 23, size=ENROL_SIZE, printings={twelve_13: 5}),
    }
    dump = run(
        tmp_path,
        state,
        """
        press right
        press right
        press right
        press ok
        shot 01-enrol-menu
        press ok
        shot 02-remix-checklist
        press ok
        shot 03-batch1-lay-out
        camera batch1.jpg
        press shutter
        shot 04-batch1-names-on-photo
        press ok
        shot 05-batch2-lay-out
        camera one-card.jpg
        press shutter
        shot 06-batch2-wrong-count
        camera batch2.jpg
        press shutter
        shot 07-batch2-names-on-photo
        press ok
        press back
        shot 08-stopped-progress
        """,
        images,
        shots,
    )
    assert top(dump)["kind"] == "enrol.remix"
    done = Enrolment(state, "remix")
    assert len(done) == 24
    assert [done.name_of(card_id) for card_id, _ in CHECKLIST[:24]] == first + second
    assert len(done.gallery().names) == 24

    # The 13th card's place in the second verify photo holds a card the gallery does not know
    # (one not enrolled): the verify pass cannot name it, so it reports the 13th as misnamed.
    stranger = CHECKLIST[40][1]
    verify_second = [stranger, *second[1:]]
    verify_images = {"verify2.jpg": scene(verify_second, 22, size=ENROL_SIZE)}
    # A restart (new process, same state dir) resumes on the checklist with batch 3 next.
    dump = run(
        tmp_path,
        state,
        """
        shot 09-resumed-after-restart
        press ok
        shot 10-batch3-lay-out
        press back
        press right
        press right
        press ok
        camera batch1.jpg
        press shutter
        shot 11-verify-photo1
        press ok
        camera verify2.jpg
        press shutter
        shot 12-verify-photo2-misnamed
        press ok
        shot 13-verify-report
        """,
        verify_images,
        shots,
    )
    report = top(dump)
    assert report["kind"] == "enrol.verify"
    misnamed = report["snapshot"]["misnamed"]
    assert [m["key"] for m in misnamed] == [CHECKLIST[12][0]]
    assert misnamed[0]["name"] == twelve_13
    assert misnamed[0]["read_as"] != twelve_13
    enrolled_from = Enrolment(state, "remix").cards[CHECKLIST[12][0]]["source"]

    # Another restart, on the report: OK re-enrols the misnamed card from a new photo.
    dump = run(
        tmp_path,
        state,
        """
        shot 13b-verify-report-after-restart
        press ok
        shot 14-reenrol-lay-out
        camera one-card.jpg
        press shutter
        press ok
        shot 15-reenrolled
        """,
        {},
        shots,
    )
    verify = [s for s in dump["screens"] if s["kind"] == "enrol.verify"]
    assert not verify  # the report was turned into a re-enrolment, which is done
    done = Enrolment(state, "remix")
    assert len(done) == 24
    assert done.cards[CHECKLIST[12][0]]["source"].startswith("enrol-")
    assert done.cards[CHECKLIST[12][0]]["source"] != enrolled_from  # the new photo
    # The re-enrolled card (in its new printing) is read right among the others.
    from display.cards.reading import read_photo

    photo = scene(second, 22, size=ENROL_SIZE, printings={twelve_13: 5})
    reading = read_photo(photo, done.gallery())  # type: ignore[arg-type]
    assert [c.name for c in reading.cards] == second
    assert all(c.status == "ok" for c in reading.cards)


# The card the recogniser cannot know: it is in the Remix catalogue (so the player can pick it
# from the list) but not enrolled in the gallery.
NOT_ENROLLED = "MR44"


@pytest.fixture(scope="module")
def remix_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("remix-state")
    enrol_directly(state, "remix", {k: n for k, n in NAMES.items() if k != NOT_ENROLLED})
    return state


HAND_ANN = ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"]
HAND_BOB = ["MR01", "MR09", "MR22", "MR35", "MR44", "MR66", "MR72"]  # MR44 not enrolled
HAND_CAT = ["MR05", "MR10", "MR20", "MR62", "MR70", "MR75", "MR31"]  # Loki (MR70)


def names(ids: list[str]) -> list[str]:
    return [NAMES[i] for i in ids]


def test_score_three_hands_with_a_correction_and_loki(tmp_path: Path, remix_state: Path) -> None:
    import shutil

    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    shots = shots_dir(tmp_path, "remix-table")
    misread = NAMES[NOT_ENROLLED]
    images = {
        "ann.jpg": scene(names(HAND_ANN), 31),
        "bob.jpg": scene(names(HAND_BOB), 32),
        "cat.jpg": scene(names(HAND_CAT), 33),
        "loki-draw.jpg": scene([NAMES["MR26"]], 34),
    }
    dump = run(
        tmp_path,
        state,
        f"""
        press right
        press right
        press ok
        shot 01-remix-menu
        press ok
        shot 02-table-empty
        press ok
        shot 03-name-keyboard
        type Ann
        press ok
        shot 04-ready-for-photo
        camera ann.jpg
        press shutter
        shot 05-ann-photo-names-and-score
        press ok
        shot 06-ann-breakdown
        press ok
        shot 07-table-after-ann
        press ok
        type Bob
        press ok
        camera bob.jpg
        press shutter
        shot 08-bob-photo-unknown-card
        press ok
        shot 09-bob-pick-list
        type {misread}
        press ok
        shot 10-bob-corrected
        press ok
        shot 11-bob-breakdown
        press back
        shot 12-bob-undo-back-to-photo
        press ok
        press ok
        press ok
        type Cat
        press ok
        camera cat.jpg
        press shutter
        press ok
        shot 13-cat-loki-owed
        camera loki-draw.jpg
        press shutter
        shot 14-cat-loki-drawn
        press ok
        shot 15-table-three-players
        press right
        press ok
        shot 16-ranking
        """,
        images,
        shots,
    )
    players = dump["store"]["remix"]["table"]["players"]
    assert [p["name"] for p in players] == ["Ann", "Bob", "Cat"]
    assert [sorted(p["cards"]) for p in players] == [
        sorted(HAND_ANN),
        sorted(HAND_BOB),
        sorted(HAND_CAT),
    ]
    assert players[0]["total"] == score_hand(HAND_ANN).total
    assert players[1]["total"] == score_hand(HAND_BOB).total
    assert players[2]["loki_draw"] == "MR26"
    assert players[2]["total"] == score_hand(HAND_CAT, "MR26").total
    assert score_hand(HAND_CAT).loki_owed
    # Bob's card came back unknown and was settled by the player, which the reading records.
    bob_cards = players[1]["reading"]["cards"]
    fixed = [c for c in bob_cards if c["settled"]]
    assert [c["name"] for c in fixed] == [misread]
    assert fixed[0]["read_as"] is None
    assert top(dump)["kind"] == "remix.ranking"


def test_review_survives_a_restart_mid_correction(tmp_path: Path, remix_state: Path) -> None:
    import shutil

    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    misread = NAMES[NOT_ENROLLED]
    images = {"bob.jpg": scene(names(HAND_BOB), 32)}
    shots = shots_dir(tmp_path, "remix-restart")
    run(
        tmp_path,
        state,
        """
        press right
        press right
        press ok
        press ok
        press ok
        type Bob
        press ok
        camera bob.jpg
        press shutter
        """,
        images,
        shots,
    )
    # Power cut here. On restart the same photo and reading are on screen; the fix still works.
    dump = run(
        tmp_path,
        state,
        f"""
        shot 01-restored-review
        press ok
        type {misread}
        press ok
        press ok
        press ok
        """,
        {},
        shots,
    )
    players = dump["store"]["remix"]["table"]["players"]
    assert [p["name"] for p in players] == ["Bob"]
    assert players[0]["total"] == score_hand(HAND_BOB).total


def test_scoring_without_enrolment_offers_to_enrol_first(tmp_path: Path) -> None:
    """Said before a name is asked (it used to be after the name and the photo)."""
    lines = """
        press right
        press right
        press ok
        press ok
        """
    dump = run(tmp_path, tmp_path / "state", lines, {}, shots_dir(tmp_path, "remix-no-gallery"))
    offer = top(dump)
    assert offer["kind"] == "offer" and "enrol" in offer["snapshot"]["body"].lower()
    dump = run(tmp_path, tmp_path / "state", "press ok", {}, shots_dir(tmp_path, "x"))
    assert top(dump)["kind"] == "enrol.remix"
