"""The tablekeeper process keeps freed memory for the next photo (display.memory)."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import display.cli as cli

# Allocates, fills and frees a 40 MB array twice (as a photo's largest arrays come and go) and
# prints the memory the process holds (MB over its start) once the first is freed and while the
# second is alive. 40 MB is above what glibc adapts its own threshold to (32 MB).
_ROUNDS = textwrap.dedent(
    """
    import sys
    import numpy as np
    from display.memory import keep_freed_memory
    if sys.argv[1] == "keep":
        assert keep_freed_memory()
    def held():
        return int(open("/proc/self/statm").read().split()[1]) * 4096 / (1 << 20)
    start = held()
    block = np.ones((40 << 20) // 8)
    del block
    after_free = held() - start
    block = np.ones((40 << 20) // 8)
    print(after_free, held() - start)
    """
)


def _held(mode: str) -> tuple[float, float]:
    run = subprocess.run(
        [sys.executable, "-c", _ROUNDS, mode],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],  # the repository: where `display` is
    )
    after_free, second = run.stdout.split()
    return float(after_free), float(second)


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="the allocator's settings are glibc's"
)
def test_freed_blocks_are_kept_and_reused() -> None:
    kept_after_free, kept_second = _held("keep")
    given_after_free, given_second = _held("default")
    # Kept: the freed block stays with the process, and the next one is made from it.
    assert kept_after_free > 35 and kept_second < 45
    # By default glibc gives it back to the kernel (the next one is faulted in afresh).
    assert given_after_free < 5 and given_second > 35


def test_the_tablekeeper_command_keeps_freed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []

    def keep() -> bool:
        calls.append(True)
        return True

    monkeypatch.setattr(cli, "keep_freed_memory", keep)
    assert cli.main(["config", "--defaults"]) == 0
    assert calls == [True]
