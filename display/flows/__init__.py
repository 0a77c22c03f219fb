"""Photograph-to-score flows: what the table screens (enrolment, Remix, Mixtape) share.

- :mod:`display.flows.photos`    - captured photos kept in the state directory (so a screen
  showing a photo survives a restart);
- :mod:`display.flows.reading`   - one photo read by the recogniser, as plain JSON-able data the
  screens can correct card by card;
- :mod:`display.flows.enrolment` - the enrolled cards of one game (reference images, gallery,
  progress manifest; export/import as one file);
- :mod:`display.flows.drawing`   - the photo with boxes, names and confidences drawn over it;
- :mod:`display.flows.widgets`   - what every flow's screens use: slow work off the UI thread
  with a busy state (``SlowWork``), menus, the pick list, the photo review base;
- :mod:`display.flows.table`     - a table of players scored from photos (Remix, Mixtape): the
  table, one player's photo, their score, the ranking;
- :mod:`display.flows.scenes`    - generated table photos (tests, demos, the flow bench);
- :mod:`display.flows.bench`     - what ``tablekeeper bench flows`` measures.
"""
