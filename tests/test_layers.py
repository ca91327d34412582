"""The package's layers hold: a lower layer never imports an upper one, and no modules import each other.

Every import in every module counts, at the top or inside a function (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ytourney"

LAYERS = {
    "ytourney": 0,  # the package root (its version) and the one exception tree
    "ytourney.safe_files": 0,
    "ytourney.errors": 0,
    "ytourney.choices": 0,
    "ytourney.numerals": 0,
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


# --- strings: above games/, no module names a concrete game or one game's rule -----------------------------------

ABOVE_GAMES = ("ytourney.search", "ytourney.players", "ytourney.stats", "ytourney.tournament", "ytourney.publish",
               "ytourney.cli", "ytourney.__main__")
"""The layers that talk to a game only through its value (games.api, games.registry, games.variant)."""

NAMING_ALLOWED = {
    ("ytourney.cli.options", "DEFAULT_GAME"),  # the CLI's default game, where a name enters
}
"""(module, top-level name) whose assigned value may name a game or a game's rule."""

ORDINARY_WORDS = {
    "start": {"ytourney.publish.feed_files", "ytourney.publish.live", "ytourney.publish.svg"},
}
"""A game's rule that is also an ordinary word, and the modules that use the word (SVG text-anchor, feed fields),
not the rule."""


def game_words() -> tuple[set[str], set[str]]:
    """The registered game names, and the rule options some but not all games declare."""
    from ytourney.games.registry import all_games

    games = all_games()
    counts: dict[str, int] = {}
    for game in games.values():
        for key in game.rule_options:
            counts[key] = counts.get(key, 0) + 1
    return set(games), {key for key, count in counts.items() if count < len(games)}


def named_words(source: str, module: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, literal) of every string literal in the `source` of `module` that is one of `words` (whole, any case);
    literals inside the allowed top-level assignments of NAMING_ALLOWED left out."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and (module, t.id) in NAMING_ALLOWED for t in targets):
            skipped.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            word = node.value.strip().lower()
            if word in words and module not in ORDINARY_WORDS.get(word, ()):
                found.append((node.lineno, node.value))
    return sorted(found)


def test_no_module_above_games_names_a_concrete_game_or_one_games_rule() -> None:
    games, rules = game_words()
    assert {"y", "tetra", "yvy"} <= games and {"misere", "max_plies"} <= rules and "pie" not in rules
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if not any(module == layer or module.startswith(layer + ".") for layer in ABOVE_GAMES):
            continue
        found = named_words(path.read_text(encoding="utf-8"), module, games | rules)
        wrong += [f"{module}:{line} names {text!r}" for line, text in found]
    assert not wrong, ("above games/, a game travels as a value and its rules as its options; the compatibility "
                       "with Y lives in ytourney.games.legacy:\n" + "\n".join(wrong))


def test_the_string_rule_catches_whole_literals_and_spares_words_inside_a_sentence() -> None:
    source = ('A = "y"\nB = "answer y/n"\nC = {"Misere": True}\nDEFAULT_GAME = "y"\n'
              'def f(x):\n    return x == "start"\n')
    words = {"y", "misere", "start"}
    assert named_words(source, "ytourney.cli.options", words) == [(1, "y"), (3, "Misere"), (6, "start")]
    # DEFAULT_GAME may name Y in the CLI's options only; "start" is a word, not Sexta's rule, in the SVG module
    assert named_words(source, "ytourney.publish.svg", words) == [(1, "y"), (3, "Misere"), (4, "y")]


def test_only_the_compatibility_module_names_the_legacy_game_below_the_cli() -> None:
    from ytourney.games.legacy import LEGACY_GAME

    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if concrete_game(module) or module in ("ytourney.games.legacy", "ytourney.games.registry"):
            continue  # a game names itself; the registry lists every game
        if any((module, name) in NAMING_ALLOWED for name in ("DEFAULT_GAME",)) or module.startswith("ytourney.cli"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.Constant) and n.value == LEGACY_GAME for n in ast.walk(tree)):
            users.append(module)
    assert not users, f"only ytourney.games.legacy names the game of old folders: {users}"


NAME_READERS = {
    "ytourney.tournament.config",  # the config reader
    "ytourney.tournament.store",  # the store reader
    "ytourney.tournament.store_schema",
    "ytourney.publish.sources",  # a store's (game, board, rules) sets, read without their games
}
"""Modules above games/ (besides the CLI) where a game's name enters and is looked up; the record and SGF readers
sit in games/ and publish/sgf.py reads GM[...] through the registry's list of games."""


def test_a_name_is_looked_up_only_where_it_enters() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if not any(module == layer or module.startswith(layer + ".") for layer in ABOVE_GAMES):
            continue
        if module in NAME_READERS or module.startswith("ytourney.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "get_game":
                wrong.append(f"{module}:{node.lineno}")
    assert not wrong, "above games/, a game travels as its value (Game or Variant), not as a name:\n" + "\n".join(
        wrong)


# --- engine dialects: the GTP layer names no game's engine vocabulary ----------------------------------------------

GTP_LAYER = "ytourney.players.gtp"
DIALECT_CHOICES = {("ytourney.players.gtp.settings", "TimeCommand")}
"""(module, class) whose string values may name a game's engine dialect: the config's `time_command` choices."""


def dialect_words() -> set[str]:
    """The distinctive words of every game's own engine dialect: the `time_command` values it adds to the generic
    dialect, and the words with an underscore of the commands it phrases, probes or serves (`y_param`, `max_time`);
    a command word that is also plain English (morat's `time`) is left out."""
    from ytourney.games.dialect import GENERIC_DIALECT
    from ytourney.games.registry import all_games

    words: set[str] = set()
    for game in all_games().values():
        dialect = game.engine_dialect()
        words |= set(dialect.time_commands) - set(GENERIC_DIALECT.time_commands)
        phrases = [*dialect.time_commands.values(), *dialect.fallback_time_commands, *dialect.served_time_commands]
        words |= {word for phrase in phrases for word in phrase.split() if "_" in word}
    return words


def dialect_literals(source: str, module: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, literal) of every string literal of `module` holding one of `words` as a word, the literals inside the
    classes of DIALECT_CHOICES left out."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (module, node.name) in DIALECT_CHOICES:
            skipped.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            if words & set(re.findall(r"[a-z0-9_]+", node.value.lower())):
                found.append((node.lineno, node.value))
    return sorted(found)


def test_the_gtp_layer_asks_the_games_dialect_and_names_none() -> None:
    words = dialect_words()
    assert {"y_param", "morat", "max_time"} <= words  # Y's engine families, from Y's own dialect
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if module == GTP_LAYER or module.startswith(GTP_LAYER + "."):
            found = dialect_literals(path.read_text(encoding="utf-8"), module, words)
            wrong += [f"{module}:{line} names {text!r}" for line, text in found]
    assert not wrong, ("players/gtp keeps transport, deadlines and protocol; what one game's engines call things "
                       "comes from its dialect (Game.engine_dialect(), games/dialect.py):\n" + "\n".join(wrong))


def test_the_dialect_rule_catches_a_command_and_spares_the_config_choices() -> None:
    source = ('class TimeCommand:\n    Y_PARAM = "y_param"\nA = f"y_param max_time {1}"\nB = "move time"\n')
    found = dialect_literals(source, "ytourney.players.gtp.settings", {"y_param", "max_time"})
    assert found == [(3, "y_param max_time ")]
