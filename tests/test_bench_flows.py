"""`tablekeeper bench flows` reports, per flow, where the time from SHUTTER to the score goes:
the six steps a Pi owner reports (capture, save, decode, find, name, score) and the total. Only
the report's shape is checked here, never a speed (speed figures live in the bench)."""

from __future__ import annotations

import re

from display.cards.reading import FLOW_STEPS
from display.checks.bench_flows import FlowsReport, shutter_to_score


def test_the_report_has_every_step_of_each_flow() -> None:
    assert FLOW_STEPS == ("capture", "save", "decode", "find", "name", "score")
    timing = shutter_to_score(hands=1, seed=7)
    lines = FlowsReport(None, timing).lines()
    for label, key in (("Remix hand", "remix"), ("Mixtape tape", "mixtape")):
        line = next(x for x in lines if x.startswith(f"per step, {label} (median ms): "))
        figures = dict(re.findall(r"(\w+) (-?\d+)", line.split(": ", 1)[1]))
        assert list(figures) == [*FLOW_STEPS, "total"]
        assert all(int(value) >= 0 for value in figures.values())
        steps = {name: timing[f"{key}_step_{name}_median_s"] for name in (*FLOW_STEPS, "total")}
        assert all(seconds >= 0 for seconds in steps.values())
        # the recogniser did run, inside the total (the sum of the steps is not compared: the
        # steps are timed apart from the total, so on a busy machine they may add up past it)
        assert steps["find"] > 0 and steps["name"] > 0 and steps["save"] > 0
        assert steps["find"] <= steps["total"] and steps["name"] <= steps["total"]
