"""A state.db saved by the code before the display reshape (commit 3e86414) still restores:
the same screens come back, with the same snapshots and the same game data, and the games go
on from there. The states are in tests/fixtures/state-3e86414/ (how they were made: its
README)."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from display.app import App
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.script import ScriptRunner, parse_script

FIXTURES = Path(__file__).parent / "fixtures" / "state-3e86414"
CASES = [
    "comix-timer",
    "comix-ballot",
    "comix-keyboard",
    "settings-text",
    "remix-pick",
    "remix-name",
    "mixtape-solo",
    "enrol-equalizer",
]
#: the three text entries became one keyboard; everything else keeps its kind
NEW_KIND = {"comix.keyboard": "keyboard", "flow.keyboard": "keyboard", "text_entry": "keyboard"}


def saved(state: Path) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, dict[str, Any]]]:
    """What the old code wrote, read with sqlite3 directly: (stack, data)."""
    db = sqlite3.connect(state / "state.db")
    try:
        stack = [
            (kind, json.loads(snapshot))
            for kind, snapshot in db.execute("SELECT kind, snapshot FROM screens ORDER BY position")
        ]
        data: dict[str, dict[str, Any]] = {}
        for namespace, key, value in db.execute("SELECT namespace, key, value FROM data"):
            data.setdefault(namespace, {})[key] = json.loads(value)
    finally:
        db.close()
    return stack, data


@pytest.fixture
def restored(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[App, Any]]:
    case = request.param
    with zipfile.ZipFile(FIXTURES / "states.zip") as archive:
        archive.extractall(tmp_path)
    state = tmp_path / case
    before = saved(state)
    clock = FakeClock(50_000.0)  # after a restart: an unrelated app clock
    options = RunOptions(simulated=True, state_dir=state, config=FIXTURES / "nocam.toml")
    app = build_app(options, clock, strict=True)
    try:
        yield app, (before, clock, state)
    finally:
        app.close()


def play(app: App, clock: FakeClock, lines: str) -> None:
    ScriptRunner(app, clock, None, None).run(parse_script(lines))


def by_kind(app: App, kind: str) -> Any:
    found = app.find(kind)
    assert found is not None, kind
    return found


@pytest.mark.parametrize("restored", CASES, indirect=True)
def test_an_old_state_restores_on_the_same_screens(restored: tuple[App, Any]) -> None:
    app, ((stack, data), _, _) = restored
    assert not app.store.notices  # nothing moved aside
    assert [s.kind for s in app.screens] == [NEW_KIND.get(kind, kind) for kind, _ in stack]
    assert app.store.dump()["data"] == data  # the games as they were saved
    now = app.stack_snapshot()
    for (kind, old), new in zip(stack, now, strict=True):
        if kind in NEW_KIND:
            text = old.get("text", old.get("value"))
            assert new["snapshot"]["text"] == text and new["snapshot"]["prompt"] == old["prompt"]
            assert new["snapshot"].get("purpose", "") == old.get("tag", "")
        elif kind == "comix.scripting":  # the wall-clock length of the cut is taken off
            assert new["snapshot"]["selected"] == old["selected"]
            assert new["snapshot"]["timer"]["duration"] == old["timer"]["duration"]
        elif kind == "flow.pick":  # the letter row and the card's crop came later: added keys
            assert {key: new["snapshot"][key] for key in old} == old, kind
            assert not new["snapshot"]["on_letters"]  # the cursor stays on the saved name
        else:
            assert new["snapshot"] == old, kind
    app.render()  # the restored top screen draws


def _comix_timer(app: App, clock: FakeClock, state: Path) -> None:
    # Saved with the sand running, restored long after: the cut outlasted the sand.
    play(app, clock, "advance 0.2")
    game = by_kind(app, "comix.scripting").game
    assert game.round.scripting.timed_out
    assert game.round.scripting.done_order == ["Cat", "Ann"]


def _comix_ballot(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press ok")  # "I am Cat": the third ballot
    ballot = app.top
    assert ballot.kind == "comix.ballot" and ballot.reviewer == "Cat"  # type: ignore[attr-defined]
    assert sorted(ballot.game.round.ballots) == ["Ann", "Ben"]  # type: ignore[attr-defined]


def _comix_keyboard(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press ok\npress shutter")  # the key under the cursor (N), then Done
    assert app.top.kind == "comix.names"
    assert app.top.names[0] == "Ann"  # type: ignore[attr-defined]


def _settings_text(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press shutter")  # Done: the letter wheel's text names the table
    assert app.top.kind == "settings"
    assert app.store.get("settings", "values")["table_name"] == "Friday"


def _remix_pick(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press ok")  # the card the typed name jumped to
    assert app.top.kind == "remix.hand"
    names = [card.name for card in app.top.cards]  # type: ignore[attr-defined]
    assert names == ["Storm", "Hulk Operations"]


def _remix_name(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press shutter")  # Done: the name goes to the hand below
    assert app.top.kind == "remix.hand" and app.top.who == "Acc"  # type: ignore[attr-defined]


def _mixtape_solo(app: App, clock: FakeClock, state: Path) -> None:
    play(app, clock, "press ok")  # the second drawn card, from the pick list
    cards = app.top
    assert cards.kind == "mixtape.cards" and cards.purpose == "draw"
    assert [c.name for c in cards.cards] == ["EX05", "EX06"]  # type: ignore[attr-defined]
    solo = by_kind(app, "mixtape.solo").game()
    assert solo is not None and solo.phase == "draw"


def _enrol_equalizer(app: App, clock: FakeClock, state: Path) -> None:
    squares = list(app.top.squares)  # type: ignore[attr-defined]
    play(app, clock, "press seat1")  # save
    assert app.top.kind == "enrol.mixtape"
    manifest = json.loads((state / "enrolment/mixtape/manifest.json").read_text())
    assert manifest["extra"]["equalizer"]["squares"] == squares


GOES_ON: dict[str, Callable[[App, FakeClock, Path], None]] = {
    "comix-timer": _comix_timer,
    "comix-ballot": _comix_ballot,
    "comix-keyboard": _comix_keyboard,
    "settings-text": _settings_text,
    "remix-pick": _remix_pick,
    "remix-name": _remix_name,
    "mixtape-solo": _mixtape_solo,
    "enrol-equalizer": _enrol_equalizer,
}


@pytest.mark.parametrize("restored", CASES, indirect=True)
def test_the_game_goes_on_from_an_old_state(
    restored: tuple[App, Any], request: pytest.FixtureRequest
) -> None:
    app, (_, clock, state) = restored
    case = request.node.callspec.params["restored"]
    GOES_ON[case](app, clock, state)
