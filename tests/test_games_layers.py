"""The shape of games/: pure rules in a one-way graph (issue 12).

Checked on the source text (ast), so a new import anywhere in games/ - at the top, under
TYPE_CHECKING or inside a function - is seen: no cycle between games modules, nothing from the
other rooms or from hardware, screen and storage libraries, no function longer than 80 lines,
and a function-local import only with a comment saying what start-up time it buys.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
FORBIDDEN = ("display", "vision", "device", "cv2", "pygame", "gpiozero", "sqlite3")
MAX_FUNCTION_LINES = 80


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, tuple[Path, ast.Module]]:
    found = {}
    for path in sorted(GAMES.rglob("*.py")):
        found[_module_name(path)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return found


SOURCES = _sources()


def _imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement names (``from pkg import sub`` names pkg.sub when that
    is a module, else pkg)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:  # relative import
        package = module.split(".")[: -node.level or None]
        base = ".".join([*package, base] if base else package)
    names = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        names.append(candidate if candidate in SOURCES else base)
    return names


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, (_, tree) in SOURCES.items():
        edges = graph.setdefault(module, set())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges.update(name for name in _imported(module, node) if name in SOURCES)
        edges.discard(module)
    return graph


def test_no_import_cycle_inside_games() -> None:
    graph = _graph()
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                cycle = path[path.index(other) :] + [other]
                pytest.fail("import cycle in games: " + " -> ".join(cycle))
            if other not in state:
                visit(other)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_games_imports_no_other_room_and_no_hardware_screen_or_storage_library() -> None:
    for module, (path, tree) in SOURCES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for name in _imported(module, node):
                    top = name.split(".")[0]
                    assert top not in FORBIDDEN, f"{path.name}:{node.lineno} imports {name}"


def test_no_function_in_games_is_longer_than_80_lines() -> None:
    long = []
    for path, tree in SOURCES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines})")
    assert not long, long


def test_function_local_imports_in_games_say_what_they_buy() -> None:
    """Only to keep start-up fast, and then with a one-line reason next to it."""
    bare = []
    for path, tree in SOURCES.values():
        text = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    around = " ".join(text[max(0, node.lineno - 2) : node.lineno])
                    if "start-up" not in around:
                        bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bare, bare


def test_each_game_package_has_a_face() -> None:
    """games.comix, games.mixtape and games.remix re-export their API (``__all__``), and every
    name in it resolves."""
    import importlib

    for name in ("games.comix", "games.mixtape", "games.remix"):
        package = importlib.import_module(name)
        exported = getattr(package, "__all__", [])
        assert len(exported) >= 10, name
        for item in exported:
            assert hasattr(package, item), f"{name}.{item}"


def test_the_names_module_is_a_leaf_and_the_rule_registry_matches_it() -> None:
    from games.remix import names, rules

    assert not _graph()["games.remix.names"]
    assert tuple(rules.EFFECT_RULES) == names.EFFECT_RULE_NAMES
    assert tuple(rules.CONDITION_RULES) == names.CONDITION_RULE_NAMES
