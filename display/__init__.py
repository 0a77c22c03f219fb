"""The pygame app: screens, the loop, persistence and the `tablekeeper` command.

The rooms (README, "Layout"): the kernel is the modules directly in this package (``app``,
``screen``, ``script``, ``store``, ``launch``, ``ui``...); ``cards/`` is plain data about cards
and photos; ``widgets/`` are screens any game reuses; ``screens/`` the appliance's screens, one
subpackage per game; ``commands/`` the ``tablekeeper`` command; ``checks/`` the development-only
robustness checks and benches.
"""

import os

# pygame prints a banner on import unless told not to; the CLI's output must stay clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
