"""Development-only checks: power cuts, torn writes, bad input, the soak, and the benchmarks.

Nothing in the appliance imports this package. Every check and bench is one module with one
function that returns a report (``.lines()`` to print, ``.ok`` for the exit code); the
``tablekeeper check ...`` and ``tablekeeper bench ...`` commands (``display/commands/check.py``,
``display/commands/bench.py``) parse the arguments, call it and print the lines. The test suite
runs short versions of the same harnesses (tests/test_powercut*.py, test_fuzz.py, test_faults.py,
test_secrecy.py, test_soak.py). They watch the appliance through its interfaces (the store's
commit observers, the script runner's observer), never by patching it.

- :mod:`~display.checks.powercut` (with :mod:`~display.checks.child` and
  :mod:`~display.checks.scenarios`) - SIGKILL scripted games, check the resumed state;
- :mod:`~display.checks.torn` - torn WAL writes read back;
- :mod:`~display.checks.fuzz` - bad input through the real command line and camera;
- :mod:`~display.checks.soak` - hours of random legal play on the injected clock;
- :mod:`~display.checks.faults` (with :mod:`~display.checks.bombs`) - a full, locked or
  read-only card, planted links, image and parser bombs, through the command line;
- ``bench_ui``, ``bench_timer``, ``bench_flows``, ``bench_remix``, ``bench_mixtape`` - figures;
- :mod:`~display.checks.scenes` - generated table photos and enrolments (tests, demos, benches).
"""


class CheckError(Exception):
    """A check or bench could not run (not a failure of what it checks); one sentence."""
