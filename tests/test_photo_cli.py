"""`tablekeeper remix score --photo PHOTO --gallery DIR` and `tablekeeper mixtape score --deck
FILE --photo PHOTO --gallery DIR`: generated photos, galleries enrolled from generated faces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from display.cards.enrolment import Enrolment
from display.checks.scenes import columns_scene, enrol_directly, scene, write
from display.cli import main
from games.mixtape import example_deck_path, load_example_deck, score_mixtape
from games.remix import default_catalogue, score_hand

NAMES = {card.id: card.name for card in default_catalogue()}
HAND = ["MR05", "MR10", "MR20", "MR62", "MR70", "MR75", "MR31"]


@pytest.fixture(scope="module")
def remix_gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("state")
    enrol_directly(state, "remix", NAMES)
    return Enrolment(state, "remix").gallery_dir


@pytest.fixture(scope="module")
def gallery_without_mr31(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every card but MR31: on a photo of the hand, a card the recogniser cannot know."""
    state = tmp_path_factory.mktemp("state-without-mr31")
    enrol_directly(state, "remix", {k: n for k, n in NAMES.items() if k != "MR31"})
    return Enrolment(state, "remix").gallery_dir


def test_remix_photo_scores_like_the_card_list(
    tmp_path: Path, remix_gallery: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = write(tmp_path / "hand.jpg", scene([NAMES[i] for i in HAND], 71))
    args = ["remix", "score", "--photo", str(photo), "--gallery", str(remix_gallery)]
    assert main([*args, "--loki-draw", "MR26", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == score_hand(HAND, "MR26").total
    assert sorted(c["id"] for c in out["photo"]["cards"]) == sorted(HAND)
    assert out["loki_owed"] is False
    assert main(args) == 0  # text: names read, then the explanation with Loki still owed
    text = capsys.readouterr().out
    assert "read in" in text and "Loki's draw still owed" in text


def test_remix_photo_refuses_an_unknown_card(
    tmp_path: Path, gallery_without_mr31: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = write(tmp_path / "hand.jpg", scene([NAMES[i] for i in HAND], 72))
    code = main(["remix", "score", "--photo", str(photo), "--gallery", str(gallery_without_mr31)])
    assert code == 2
    err = capsys.readouterr().err
    assert "1 card not recognised" in err and "not in gallery" in err


def test_remix_photo_needs_both_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remix", "score", "--photo", "x.jpg"]) == 2
    assert "--gallery" in capsys.readouterr().err


def test_mixtape_photo_reads_both_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = load_example_deck()
    state = tmp_path / "state"
    enrol_directly(state, "mixtape", {card.id: card.id for card in deck.cards})
    a, b = ["EX01", "EX03", "EX05"], ["EX02", "EX04", "EX06"]
    photo = write(tmp_path / "tape.jpg", columns_scene(a, b, 73))
    gallery = Enrolment(state, "mixtape").gallery_dir
    code = main(
        [
            "mixtape",
            "score",
            "--deck",
            str(example_deck_path()),
            "--photo",
            str(photo),
            "--gallery",
            str(gallery),
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    expected = score_mixtape(deck, a, b).to_json()
    assert {k: out[k] for k in expected} == expected
    assert [c["column"] for c in out["photo"]["cards"]] == ["A"] * 3 + ["B"] * 3
    assert main(["mixtape", "score", "--deck", "example", "--photo", str(photo)]) == 2


def test_the_flow_bench_is_a_tablekeeper_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "flows", "--hands", "0"]) == 2
    assert "--hands must be at least 1" in capsys.readouterr().err
