"""The device room's shape: it imports none of the other rooms nor pygame, its modules form no
cycle, its functions stay short, and importing it starts nothing slow."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEVICE = REPO / "device"
FORBIDDEN = ("pygame", "display", "games", "vision")
MAX_FUNCTION_LINES = 80


def module_imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, at module level?) for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [(name, id(node) in top_level) for name in [node.module, *names]]
    return found


def device_modules() -> dict[str, Path]:
    return {
        "device" if path.stem == "__init__" else f"device.{path.stem}": path
        for path in DEVICE.glob("*.py")
    }


def test_device_imports_no_other_room_and_no_pygame():
    for name, path in device_modules().items():
        for imported, _ in module_imports(path):
            root = imported.split(".")[0]
            assert root not in FORBIDDEN, f"{name} imports {imported}"


def test_device_modules_form_no_cycle():
    modules = device_modules()
    graph = {
        name: {
            imported
            for imported, top in module_imports(path)
            if imported in modules and imported != name and name != "device"
        }
        for name, path in modules.items()
    }
    # The face (device/__init__) imports everything; a submodule importing the face would be
    # the cycle, so the face's own edges are left out and any edge *to* it is reported.
    for name, edges in graph.items():
        assert "device" not in edges or name == "device", f"{name} imports the package face"
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in graph.get(node, ()):
            assert state.get(target) != 1, "import cycle: " + " -> ".join([*trail, target])
            if target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [name])


def test_no_device_function_is_longer_than_80_lines():
    too_long = []
    for path in DEVICE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert not too_long


def test_function_local_imports_say_why():
    """Function-local imports only where they buy start-up time, each with its reason."""
    for path in DEVICE.glob("*.py"):
        source = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(source))
        top_level = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top_level:
                if _under_type_checking(tree, node):
                    continue
                line = source[node.lineno - 1]
                assert "# local" in line, f"{path.name}:{node.lineno} needs a reason: {line}"


def _under_type_checking(tree: ast.Module, target: ast.AST) -> bool:
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            if any(child is target for child in ast.walk(node)):
                return True
    return False


def test_importing_device_loads_nothing_slow_or_foreign():
    probe = (
        "import sys, device; "
        "print(sorted(m for m in ('cv2', 'picamera2', 'libcamera', 'pygame', 'display', "
        "'games', 'vision') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
