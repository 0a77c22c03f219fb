"""I Made You a Mixtape at the table: see ``common.py`` for the screens and their state."""
