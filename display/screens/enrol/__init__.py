"""Enrolment: teach the camera a deck (Remix, Mixtape), verify it, export and import it."""
