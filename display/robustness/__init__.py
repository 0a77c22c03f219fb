"""Robustness checks: power cuts, torn writes, bad input, faults, ballot secrecy and the soak.

The long versions are ``tablekeeper check ...`` commands (``display/commands/check.py``); the
test suite runs short versions of the same harnesses (tests/test_powercut*.py, test_fuzz*.py,
test_faults*.py, test_secrecy*.py, test_soak*.py).
"""
