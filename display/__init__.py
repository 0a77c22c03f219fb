"""The pygame app: screens, the loop, persistence and the `tablekeeper` command."""

import os

# pygame prints a banner on import unless told not to; the CLI's output must stay clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
