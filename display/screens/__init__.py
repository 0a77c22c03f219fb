"""The appliance's screens: the home screen, settings and the hardware test, and one subpackage
per game (``comix``, ``mixtape``, ``remix``) and for enrolment (``enrol``). Every module here is
imported at start-up (which registers its screens); see ``display/screen.py``."""
