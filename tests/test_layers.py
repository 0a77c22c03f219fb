"""The house plan, checked for every package: no import cycle between project modules, every
import points the way the plan says (docs/development.md, "The house plan"), no function longer
than its package's limit, and every function-local import says why it is local. The sources are
parsed with ``ast``, never imported, so a function-local import counts like any other; only
imports under ``if TYPE_CHECKING:`` are type-only.

Rules:

* No cycle among runtime imports. With the type-only imports added, the one allowed cycle is the
  kernel pair ``display.screen`` -> ``display.app`` (a screen is given the app; the app holds
  screens).
* ``games``, ``vision`` and ``device`` never import ``display`` or each other (type-only
  imports included); ``games`` imports no cv2, pygame, gpiozero or sqlite3; ``vision`` no pygame
  or gpiozero; ``device`` no pygame.
* Per package (``PACKAGES``): the libraries it must not import and the longest function allowed.
* A function-local import (outside ``if TYPE_CHECKING:``) carries a ``#`` comment with its
  reason, on its line or above its group of imports: it is there for start-up time or to break a
  dependency the plan forbids at module level, and a reader should know which.
* Inside ``display``: ``display.cards`` (plain data) imports no pygame and nothing of the app's
  screens; ``display.widgets`` never imports ``display.screens``; nothing the appliance runs
  imports ``display.commands`` or ``display.checks`` (development only); the kernel modules
  (``display/*.py``) import no widget, screen, command or check at run time; and the rooms of
  ``display`` (kernel, cards, widgets, screens, commands, checks) import each other without a
  cycle.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("device", "vision", "games", "display")


@dataclass(frozen=True)
class Package:
    banned: frozenset[str]  # libraries (and rooms) it never imports, type-only imports included
    max_function_lines: int


PACKAGES = {
    "games": Package(
        frozenset({"cv2", "pygame", "gpiozero", "sqlite3", "display", "vision", "device"}), 80
    ),
    "vision": Package(frozenset({"pygame", "gpiozero", "display", "games", "device"}), 80),
    "device": Package(frozenset({"pygame", "display", "games", "vision"}), 80),
    # the app's draw methods and the commands' parsers run longer; 90 keeps them on one screen
    "display": Package(frozenset(), 90),
}
#: type-only imports allowed to close a cycle: (importer, imported)
TYPE_ONLY_PAIRS = {("display.screen", "display.app")}
#: Known cycles still to be removed (none: the Remix core became a DAG in issue 12). The test
#: fails as soon as a listed cycle is gone, so a fixed cycle's entry cannot linger.
PENDING_CYCLES: list[list[str]] = []


@dataclass(frozen=True)
class Import:
    importer: str
    target: str  # a project module, or the top-level name of a third-party package
    type_only: bool
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    modules = {}
    for room in ROOMS:
        for path in (ROOT / room).rglob("*.py"):
            modules[module_name(path)] = path
    return modules


MODULES = project_modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(name: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    module = _resolve(name, is_package, node)
    out = []
    for alias in node.names:
        full = f"{module}.{alias.name}"
        out.append(full if full in MODULES else module)
    return out


TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def imports_of(name: str, path: Path) -> list[Import]:
    tree = TREES[name]
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(nodes: list[ast.stmt] | list[ast.AST], type_only: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.body, True)
                visit(node.orelse, type_only)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(name, is_package, node):
                    found.append(Import(name, target, type_only, node.lineno))
            else:
                visit(list(ast.iter_child_nodes(node)), type_only)

    visit(tree.body, False)
    return found


ALL_IMPORTS = [imp for name, path in MODULES.items() for imp in imports_of(name, path)]


def project_target(target: str) -> str | None:
    """The project module an import loads (``pkg.mod.Name`` -> ``pkg.mod``), or None."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def edges(include_type_only: bool) -> dict[str, set[str]]:
    """importer -> imported project modules (and the packages above them that are not the
    importer's own: importing ``a.b.c`` runs ``a/b/__init__.py`` too)."""
    graph: dict[str, set[str]] = {}
    for imp in ALL_IMPORTS:
        if imp.type_only and not include_type_only:
            continue
        target = project_target(imp.target)
        if target is None or target == imp.importer:
            continue
        if imp.type_only and (imp.importer, target) in TYPE_ONLY_PAIRS:
            continue
        chain = [target]
        parent = target.rpartition(".")[0]
        while parent:
            if not (imp.importer == parent or imp.importer.startswith(parent + ".")):
                chain.append(parent)
            parent = parent.rpartition(".")[0]
        graph.setdefault(imp.importer, set()).update(m for m in chain if m in MODULES)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(set(graph) | {m for targets in graph.values() for m in targets}):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def room(module: str) -> str:
    return module.split(".")[0]


def display_room(module: str) -> str:
    """kernel, cards, widgets, screens, commands or checks."""
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (ROOT / "display" / parts[1]).is_dir()):
        return parts[1]
    return "kernel"


def where(imp: Import) -> str:
    return f"{MODULES[imp.importer].relative_to(ROOT)}:{imp.line} imports {imp.target}"


# -- the checks ---------------------------------------------------------------------------------
def test_the_checker_sees_the_project() -> None:
    assert {"display.app", "display.screen", "games.remix", "vision", "device"} <= set(MODULES)
    assert any(imp.type_only for imp in ALL_IMPORTS)  # TYPE_CHECKING blocks are recognised
    assert any(imp.importer == "display.app" and imp.target == "pygame" for imp in ALL_IMPORTS)


def test_the_checker_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def _new_cycles(found: list[list[str]]) -> list[list[str]]:
    gone = [cycle for cycle in PENDING_CYCLES if cycle not in found]
    assert not gone, f"remove these from PENDING_CYCLES, they are fixed: {gone}"
    return [cycle for cycle in found if cycle not in PENDING_CYCLES]


def test_no_import_cycle_at_run_time() -> None:
    assert _new_cycles(cycles(edges(include_type_only=False))) == []


def test_no_import_cycle_with_type_only_imports_but_app_and_screen() -> None:
    assert _new_cycles(cycles(edges(include_type_only=True))) == []


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_each_package_imports_only_what_it_may(package: str) -> None:
    banned = PACKAGES[package].banned
    wrong = [
        where(imp)
        for imp in ALL_IMPORTS
        if room(imp.importer) == package and imp.target.split(".")[0] in banned
    ]
    assert wrong == []


def functions(package: str) -> Iterator[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for name, path in MODULES.items():
        if room(name) == package:
            for node in ast.walk(TREES[name]):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield path, node


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_function_is_longer_than_its_packages_limit(package: str) -> None:
    limit = PACKAGES[package].max_function_lines
    too_long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)"
        for path, node in functions(package)
        if (lines := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    ]
    assert too_long == [], f"longer than {limit} lines"


def local_imports_without_a_reason(path: Path, tree: ast.Module) -> list[str]:
    source = path.read_text(encoding="utf-8").splitlines()
    type_only = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node.test)
        for child in ast.walk(node)
    }
    bare = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in type_only:
                continue
            first = node.lineno - 1  # the group of import (and blank) lines it belongs to
            while first > 0 and (
                not source[first - 1].strip()
                or source[first - 1].lstrip().startswith(("import ", "from "))
            ):
                first -= 1
            last = node.end_lineno or node.lineno
            while last < len(source) and source[last].lstrip().startswith(("import ", "from ")):
                last += 1
            group = source[first:last]
            above = source[first - 1].strip() if first > 0 else ""
            if not above.startswith("#") and not any("#" in line for line in group):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno} {source[node.lineno - 1]}")
    return bare


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_function_local_imports_say_why(package: str) -> None:
    bare = [
        line
        for name, path in MODULES.items()
        if room(name) == package
        for line in local_imports_without_a_reason(path, TREES[name])
    ]
    assert bare == []


def test_card_readings_are_plain_data() -> None:
    def drawn_or_shown(imp: Import) -> bool:
        if imp.target.split(".")[0] == "pygame":
            return True
        return (
            room(imp.target) == "display"
            and not imp.type_only
            and display_room(imp.target) in ("widgets", "screens", "commands", "checks")
        )

    wrong = [
        where(imp)
        for imp in ALL_IMPORTS
        if imp.importer.startswith("display.cards") and drawn_or_shown(imp)
    ]
    assert wrong == []


def test_widgets_never_import_a_game_screen() -> None:
    wrong = [
        where(imp)
        for imp in ALL_IMPORTS
        if imp.importer.startswith("display.widgets") and imp.target.startswith("display.screens")
    ]
    assert wrong == []


def test_the_appliance_never_imports_the_development_checks_or_the_commands() -> None:
    appliance = ("kernel", "cards", "widgets", "screens")
    wrong = [
        where(imp)
        for imp in ALL_IMPORTS
        if room(imp.importer) == "display"
        and display_room(imp.importer) in appliance
        and room(imp.target) == "display"
        and display_room(imp.target) in ("commands", "checks")
    ]
    assert wrong == []


def test_the_kernel_imports_no_screen_at_run_time() -> None:
    wrong = [
        where(imp)
        for imp in ALL_IMPORTS
        if room(imp.importer) == "display"
        and display_room(imp.importer) == "kernel"
        and not imp.type_only
        and room(imp.target) == "display"
        and display_room(imp.target) in ("widgets", "screens", "commands", "checks")
        and imp.importer not in ("display.cli", "display.__main__")
    ]
    assert wrong == []


def test_the_rooms_of_display_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for importer, targets in edges(include_type_only=False).items():
        if room(importer) != "display":
            continue
        for target in targets:
            if room(target) == "display" and target != "display":
                a, b = display_room(importer), display_room(target)
                if a != b:
                    graph.setdefault(a, set()).add(b)
    # cli (the kernel's entry point) starts the commands; it is their caller, not a dependency
    graph.get("kernel", set()).discard("commands")
    assert cycles(graph) == []


def test_every_folder_of_code_is_a_package() -> None:
    """An install carries only packages: a folder of modules without ``__init__.py`` would work
    in the checkout and be missing on the Pi."""
    missing = sorted(
        str(folder.relative_to(ROOT))
        for room_name in ROOMS
        for folder in [ROOT / room_name, *(ROOT / room_name).rglob("*")]
        if folder.is_dir() and any(folder.glob("*.py")) and not (folder / "__init__.py").exists()
    )
    assert missing == []


# -- the packages' faces ------------------------------------------------------------------------
def test_each_game_package_has_a_face() -> None:
    """games.comix, games.mixtape and games.remix re-export their API (``__all__``), and every
    name in it resolves."""
    for name in ("games.comix", "games.mixtape", "games.remix"):
        package = importlib.import_module(name)
        exported = getattr(package, "__all__", [])
        assert len(exported) >= 10, name
        for item in exported:
            assert hasattr(package, item), f"{name}.{item}"


def test_the_remix_names_module_is_a_leaf_and_the_rule_registry_matches_it() -> None:
    from games.remix import names, rules

    assert not edges(include_type_only=True).get("games.remix.names")
    assert tuple(rules.EFFECT_RULES) == names.EFFECT_RULE_NAMES
    assert tuple(rules.CONDITION_RULES) == names.CONDITION_RULE_NAMES


def test_importing_device_loads_nothing_slow_or_foreign() -> None:
    probe = (
        "import sys, device; "
        "print(sorted(m for m in ('cv2', 'picamera2', 'libcamera', 'pygame', 'display', "
        "'games', 'vision') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
