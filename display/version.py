"""The installed Tablekeeper's version (pyproject.toml's, as the package metadata carries it)."""

from __future__ import annotations

from importlib import metadata


def version() -> str:
    """The version string, or "unknown" when the package is run without being installed."""
    try:
        return metadata.version("tablekeeper")
    except metadata.PackageNotFoundError:
        return "unknown"
