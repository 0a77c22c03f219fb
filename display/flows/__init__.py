"""Photograph-to-score flows: what the table screens (enrolment, Remix, Mixtape) share.

- :mod:`display.flows.photos`    - captured photos kept in the state directory (so a screen
  showing a photo survives a restart);
- :mod:`display.flows.reading`   - one photo read by the recogniser, as plain JSON-able data the
  screens can correct card by card;
- :mod:`display.flows.enrolment` - the enrolled cards of one game (reference images, gallery,
  progress manifest; export/import as one file);
- :mod:`display.flows.drawing`   - the photo with boxes, names and confidences drawn over it;
- :mod:`display.flows.widgets`   - screens every flow uses (pick list, photo review base).
"""
