"""Screens any game reuses. A widget that asks something answers with ``dismiss(result)``, which
reaches ``on_result(purpose, result)`` of the screen that pushed it (see ``display/screen.py``):

- :mod:`~display.widgets.keyboard` - the one on-screen keyboard;
- :mod:`~display.widgets.pick` - a pick list, closest matches first;
- :mod:`~display.widgets.menu` - a list of rows (the home screen and every game menu);
- :mod:`~display.widgets.message` - a framed message;
- :mod:`~display.widgets.slow` - slow work off the UI thread, with a busy state;
- :mod:`~display.widgets.photo_view`, :mod:`~display.widgets.photo_review` - a photo with the
  cards read on it, to settle every card before scoring;
- :mod:`~display.widgets.words` - counts in words ("1 card", "3 cards");
- :mod:`~display.widgets.hourglass` - the sand timer's hourglass, its sand drawn by area;
- :mod:`~display.widgets.table`, :mod:`~display.widgets.ranking` - players scored from photos,
  and everyone ranked.
"""
