"""Co-Mix on the appliance: see ``common.py`` for the flow and what the screens share."""
