"""The `tablekeeper` command: one entry point, one sub-command module per area.

Each module in ``COMMAND_MODULES`` (under ``display/commands/``) exposes
``register(commands, benches)``: it adds its own sub-commands to ``commands`` and its
benchmarks to ``benches`` (``tablekeeper bench NAME``), setting ``func`` on each parser.
A ``func`` returns an exit code. Bad input is reported by raising :class:`CliError`,
which becomes one clear line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import unicodedata
from collections.abc import MutableMapping, Sequence
from pathlib import Path

from display.memory import keep_freed_memory
from display.version import version

COMMAND_MODULES = [
    "display.commands.app",
    "display.commands.comix",
    "display.commands.remix",
    "display.commands.mixtape",
    "display.commands.vision",
    "display.commands.bench",
    "display.commands.check",
    "display.commands.doctor",
]

EXIT_BAD_INPUT = 2


class CliError(Exception):
    """A problem with what the user gave us: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="Tablekeeper: a table companion for Co-Mix, I Made You a Mixtape and "
        "Marvel: Remix.",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bench = commands.add_parser("bench", help="measure speed and accuracy (prints figures)")
    benches = bench.add_subparsers(dest="bench", metavar="BENCH")
    benches.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands, benches)
    return parser


def ensure_lgpio_workdir(environ: MutableMapping[str, str] | None = None) -> str:
    """Point ``LG_WD`` at a folder this user can write in, unless it is set; returns it.

    lgpio (gpiozero's pin library on a Pi 5 and on Bookworm) creates its notification pipes in
    ``$LG_WD``, else in the current directory, and fails when it cannot: `sudo -u tablekeeper
    .../tablekeeper doctor` run from someone's home directory then reported "no GPIO". The unit
    sets ``LG_WD`` itself; by hand it is the runtime directory, else a private folder under the
    temporary directory. lgpio reads it when it loads, so this runs before any command does.
    """
    environ = os.environ if environ is None else environ
    chosen = environ.get("LG_WD", "")
    if chosen:
        return chosen
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isdir(runtime) and os.access(runtime, os.W_OK | os.X_OK):
        chosen = runtime
    else:
        private = Path(tempfile.gettempdir()) / f"tablekeeper-{os.getuid()}"
        try:
            private.mkdir(mode=0o700, exist_ok=True)
            info = private.lstat()
            # Someone else's folder (or a link) under a shared /tmp is not ours to write in.
            usable = info.st_uid == os.getuid() and private.is_dir() and not private.is_symlink()
        except OSError:
            usable = False
        chosen = str(private) if usable else os.getcwd()
    environ["LG_WD"] = chosen
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    ensure_lgpio_workdir()
    keep_freed_memory()  # the next photo reuses this one's memory (display.memory)
    try:
        try:
            return _dispatch(argv)
        finally:
            # The output still in the buffer goes now, inside this handler: when stdout is a
            # pipe it is block-buffered, and a reader that left (`tablekeeper ... | head`)
            # would otherwise be noticed only by the interpreter's last flush, at exit.
            if sys.stdout is not None:
                sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away: not an error of ours. Point stdout at /dev/null so the
        # interpreter's last flush of what is left does not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _dispatch(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
    except CliError as error:
        print(f"tablekeeper: {one_line(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


# Control characters, line and paragraph separators: what may break a line (str.splitlines
# splits on \r, \x0b, \x1c, \x85 and \u2028 as well as \n).
_LINE_BREAKERS = frozenset({"Cc", "Zl", "Zp"})


def one_line(message: str) -> str:
    """``message`` with every control character written as its escape (``\\r``, ``\\n``,
    ``\\x85``): bad input is reported in one line that scripts can read, even when the input
    quoted in it (a player's name in a ballot file, say) holds a line break."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in _LINE_BREAKERS
        else ch
        for ch in message
    )


if __name__ == "__main__":
    sys.exit(main())
