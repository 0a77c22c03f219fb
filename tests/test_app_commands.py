"""`tablekeeper demo`, `run --sim` without a display, and `bench ui`."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from gpiozero import Device

from display.cli import main
from display.commands.app import demo_scripts


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.setattr(
        "display.cli.COMMAND_MODULES", ["display.commands.app", "display.commands.bench"]
    )
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


def test_demo_writes_a_png_for_every_shot(tmp_path: Path, capsys, monkeypatch):
    from display import ui

    dropped: set[str] = set()  # legends that lost a key for want of room (none may)
    draw_legend = ui.legend_bar

    def legend_bar(surface, items, rect, hints=None):
        targets = draw_legend(surface, items, rect, hints)
        if len(targets) < len(items):
            dropped.add(" | ".join(f"{ui.key_label(key)} {meaning}" for key, meaning in items))
        return targets

    monkeypatch.setattr(ui, "legend_bar", legend_bar)
    # Must-read text cut short: a line shortened with "..." (ui.fit, which ui.text uses for
    # max_width) or a paragraph whose last lines fall off its box. None may be, on any screen.
    cut: set[str] = set()
    real_fit, real_paragraph = ui.fit, ui.paragraph

    def fit(content, size, max_width):
        shown = real_fit(content, size, max_width)
        if shown != content:
            cut.add(f"{content!r} shown as {shown!r}")
        return shown

    def paragraph(surface, content, rect, size=ui.SMALL, color=ui.TEXT, align="left"):
        bottom = real_paragraph(surface, content, rect, size, color, align)
        lines = len(ui.wrap(content, size, rect.width))
        if (bottom - rect.top) // ui.font(size).get_linesize() < lines:
            cut.add(f"{content!r}: its last lines fall off")
        return bottom

    monkeypatch.setattr(ui, "fit", fit)
    monkeypatch.setattr(ui, "paragraph", paragraph)
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out)]) == 0
    assert dropped == set()  # every key a demo screen uses is in its legend
    assert cut == set()  # and no must-read text is cut
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == str(out)
    tour = sorted((out / "10-home").glob("*.png"))
    names = [p.stem for p in tour]
    assert (
        names[0] == "01-home"
        and "03-hardware-test" in names
        and "04-settings-sound-off" in names
        and "05-text-entry" in names
    )
    for script in demo_scripts():
        shots = [
            line.split()[1] for line in script.read_text().splitlines() if line.startswith("shot ")
        ]
        assert len(list((out / script.stem).glob("*.png"))) == len(set(shots)), script.name
    image = pygame.image.load(str(out / "10-home" / "01-home.png"))
    assert image.get_size() == (800, 480)


def test_run_sim_without_a_display_says_so_in_one_line(monkeypatch, capsys, tmp_path: Path):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    assert main(["run", "--sim", "--state-dir", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "no display" in err and "tablekeeper demo" in err


def test_bench_ui_prints_both_figures(capsys):
    assert main(["bench", "ui", "--starts", "1", "--frames", "20"]) == 0
    out = capsys.readouterr().out
    assert "start-up to first frame" in out and "median" in out
    assert "home screen frame time" in out


def test_bench_ui_times_frames_in_a_commit_storm_with_both_stores(capsys, tmp_path: Path):
    disk = tmp_path / "card"
    argv = ["bench", "ui", "--starts", "1", "--frames", "10", "--presses", "12"]
    assert main([*argv, "--fsync-ms", "5", "--disk-dir", str(disk)]) == 0
    out = capsys.readouterr().out
    assert "12 knob turns" in out and f"state on {disk}" in out and "5 ms added" in out
    synchronous = next(line for line in out.splitlines() if "synchronous" in line)
    write_behind = next(line for line in out.splitlines() if "write-behind" in line)
    assert "12 commits written for 12 turns" in synchronous
    written = int(write_behind.split(" commits written")[0].split()[-1])
    assert 1 <= written <= 12 and "frame median" in write_behind and "turn to disk" in write_behind
    assert disk.is_dir() and list(disk.iterdir()) == []  # the storm's databases are removed
    assert main(["bench", "ui", "--fsync-ms", "40"]) == 2
    assert "need --presses" in capsys.readouterr().err


def test_config_command_checks_files_and_prints_defaults(tmp_path: Path, capsys):
    assert main(["config", "--defaults"]) == 0
    defaults = capsys.readouterr().out
    assert "[pins]" in defaults and "seat_1 = 5" in defaults
    good = tmp_path / "good.toml"
    good.write_text(defaults.replace("count = 5", "count = 3"))
    assert main(["config", str(good)]) == 0
    assert "OK" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[keyboard]\n\nshutter = "kamera"\n')
    assert main(["config", str(bad)]) == 2
    assert "line 3: keyboard.shutter: unknown key name 'kamera'" in capsys.readouterr().err
    assert main(["config"]) == 0
    assert "built-in defaults apply" in capsys.readouterr().out


def test_the_solo_demo_plays_a_whole_game(tmp_path: Path) -> None:
    """The solo tour (prepared with the example deck's cards) really reaches the end of a game,
    so its screenshots show what their names say."""
    import json

    from display.checks.scenes import prepare_demo
    from display.commands.app import DEMO_DIR, demo_preparations
    from display.launch import RunOptions, run_script

    script = DEMO_DIR / "32-mixtape-solo.txt"
    assert demo_preparations(script) == ["mixtape-solo"]
    state = tmp_path / "state"
    state.mkdir()
    prepare_demo("mixtape-solo", state)
    dump = tmp_path / "dump.json"
    run_script(RunOptions(simulated=True, script=script, state_dir=state, dump_state=dump))
    solo = json.loads(dump.read_text())["store"]["mixtape"]["solo"]
    assert solo["phase"] == "over"
    with pytest.raises(ValueError, match="unknown demo preparation"):
        prepare_demo("nothing-like-this", state)
