"""Plain data about cards and photos, for the screens and the commands (no pygame):

- :mod:`~display.cards.reading` - one photo as the recogniser read it, correctable card by card;
- :mod:`~display.cards.capture` - take a photo and read it (on the background worker);
- :mod:`~display.cards.photos` - photos kept in the state directory;
- :mod:`~display.cards.enrolment` - a game's enrolled cards, export and import;
- :mod:`~display.cards.mixtape_deck` - the Mixtape deck as the table enrols it, as a deck file.
"""
