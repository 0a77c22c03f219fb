"""Marvel: Remix at the table: see ``common.py`` for the flow and its state."""
