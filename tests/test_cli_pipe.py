"""`tablekeeper ... | head` ends quietly, whatever the buffering of stdout.

A pipe makes stdout block-buffered: a short output (or the tail of a long one) is still in the
buffer when the command returns, and a reader that has gone away used to be noticed only by the
interpreter's last flush at exit - "Exception ignored ... BrokenPipeError" and exit code 120.
Each case runs the real entry point in a child process whose stdout is a pipe closed by the
reader before (or while) the command writes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

COMMANDS = {
    "small output": ["remix", "score", "Loki", "Angel", "Beast", "--json"],
    "large output": ["mixtape", "solo", "--deck", "example", "--seed", "12", "--json"],
    "help": ["--help"],
}


def run_with_a_closed_pipe(argv: list[str], unbuffered: bool, read_first: int) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "display", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    if read_first:
        assert process.stdout.read(read_first)  # like `head -c`: a little, then it leaves
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.stderr.close()
    return process.wait(timeout=120), errors


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_reader_that_leaves_is_no_error(name: str, unbuffered: bool) -> None:
    for read_first in (0, 10):
        code, errors = run_with_a_closed_pipe(COMMANDS[name], unbuffered, read_first)
        assert code == 0, errors
        assert "BrokenPipeError" not in errors and "Exception ignored" not in errors
        assert errors == ""


def test_the_whole_output_still_arrives_when_the_reader_stays() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "display", *COMMANDS["large output"]],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    )
    assert result.returncode == 0 and result.stdout.rstrip().endswith("}")
