"""The package's layers hold: a lower layer never imports an upper one, and no modules import each other.

Every import in every module counts, at the top or inside a function (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ytourney"

LAYERS = {
    "ytourney": 0,  # the package root (its version) and the one exception tree
    "ytourney.safe_files": 0,
    "ytourney.errors": 0,
    "ytourney.choices": 0,
    "ytourney.boards": 1,
    "ytourney.games": 2,
    "ytourney.search": 2.5,  # one search over every game's kernel, below the players that use it
    "ytourney.players": 3,
    "ytourney.stats": 3,
    "ytourney.tournament": 4,
    "ytourney.publish": 5,
    "ytourney.cli": 6,
    "ytourney.__main__": 7,
}
SIDE_BY_SIDE = {("ytourney.players", "ytourney.stats"), ("ytourney.stats", "ytourney.players")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every ytourney module `path` imports, anywhere in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "ytourney" or name.startswith("ytourney.")}


def modules() -> dict[str, set[str]]:
    graph = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}
    # `from ytourney.x import name` names a module only when one is called that
    return {module: {dep for dep in deps if dep in graph} for module, deps in graph.items()}


def layer_of(module: str) -> tuple[str, int]:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return prefix, LAYERS[prefix]
    raise AssertionError(f"module {module} belongs to no layer; add its package to LAYERS")


def test_every_module_belongs_to_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_module_imports_an_upper_layer_or_a_side_by_side_one() -> None:
    wrong = []
    for module, deps in sorted(modules().items()):
        home, rank = layer_of(module)
        for dep in sorted(deps):
            other, other_rank = layer_of(dep)
            if other_rank > rank or (home, other) in SIDE_BY_SIDE:
                wrong.append(f"{module} imports {dep}")
    assert not wrong, "layer violations:\n" + "\n".join(wrong)


def test_no_import_cycles() -> None:
    graph = {module: {dep for dep in deps if dep != module and not module.startswith(dep + ".")}
             for module, deps in modules().items()}
    # a package's __init__ re-exporting its modules is not a cycle with them
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for dep in sorted(graph[module]):
            if state.get(dep) == 1:
                cycles.append(" -> ".join([*stack[stack.index(dep):], dep]))
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_only_the_cli_imports_click() -> None:
    users = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "click" or name.startswith("click.") for name in names):
                users.append(module_name(path))
    assert users and all(user == "ytourney.cli" or user.startswith("ytourney.cli.") for user in users), users


def test_no_module_is_much_over_600_lines() -> None:
    long = {module_name(p): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > 650}
    assert not long, f"modules over 650 lines: {long}"


def concrete_game(module: str) -> str | None:
    """The game package a module belongs to (`ytourney.games.<name>...`), None outside one."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["ytourney", "games"] and (PACKAGE / "games" / parts[2]).is_dir():
        return parts[2]
    return None


def test_nothing_above_games_imports_a_concrete_game() -> None:
    wrong = []
    for module, deps in sorted(modules().items()):
        if layer_of(module)[1] <= LAYERS["ytourney.games"]:
            continue
        wrong += [f"{module} imports {dep}" for dep in sorted(deps) if concrete_game(dep)]
    assert not wrong, "above games/, code reaches games only through games.api and games.registry:\n" + "\n".join(
        wrong)


def test_no_game_imports_another_game_and_no_lower_layer_names_one() -> None:
    wrong = []
    for module, deps in sorted(modules().items()):
        home = concrete_game(module)
        for dep in sorted(deps):
            other = concrete_game(dep)
            if other is not None and other != home:
                wrong.append(f"{module} imports {dep}")
    assert not wrong, "\n".join(wrong)


def test_the_layer_rules_catch_a_concrete_import(tmp_path: Path) -> None:
    # the checks above would pass vacuously if concrete_game never matched: it must recognise Y's modules
    assert concrete_game("ytourney.games.y.state") == "y"
    assert concrete_game("ytourney.games.api") is None
    assert concrete_game("ytourney.games.registry") is None
