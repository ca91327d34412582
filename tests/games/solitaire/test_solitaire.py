"""The Supply Line solitaires: puzzles, replayed solutions, proved minima, both kernels, bounds and the CLI."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.boards.board import parse_board
from ytourney.cli import main
from ytourney.errors import IllegalMoveError
from ytourney.games.solitaire.geometry import class_pagoda, distance_pagoda, geometry, is_pagoda, mask
from ytourney.games.solitaire.kernel import INFINITE, PyKernel
from ytourney.games.solitaire.puzzle import make_puzzle, parse_move, play, replay
from ytourney.games.solitaire.solver import solve, tables

KADON = parse_board("kadon")

try:
    from ytourney.games.solitaire import _solvecore  # noqa: F401

    HAVE_C = True
except ImportError:
    HAVE_C = False
FAST = "c" if HAVE_C else "python"
"""The kernel for the searches that only need an answer: the pure-Python one is held to the same answers by
test_c_and_python_kernels_agree and the bound tests, so the pure-Python CI pass need not redo every proof slowly."""


def moves(text: str) -> list:
    return [parse_move(KADON, token) for token in text.split()]


def test_book_solution_shape_replays() -> None:
    puzzle = make_puzzle("supply-line", goal="side-middles")
    line = "F5-D6 E7-C5 H5-F5-D5-B5 G7-E7 E8-G8-F7-D6 I5-G7-G5-E7-C5-A5"
    assert replay(KADON, puzzle.start, moves(line)) == {KADON.index_of("A5")}


def test_bad_jumps_are_refused() -> None:
    start = make_puzzle("supply-line").start
    with pytest.raises(IllegalMoveError, match="not a jump"):
        play(KADON, start, parse_move(KADON, "F5-F6"))
    with pytest.raises(IllegalMoveError, match="no stone"):
        play(KADON, start, parse_move(KADON, "A1-C1"))


def test_pagodas_are_pagodas() -> None:
    geo = geometry(KADON)
    assert len(geo.classes) == 2 and sorted(c.bit_count() for c in geo.classes) == [27, 66]
    assert all(is_pagoda(geo, class_pagoda(geo, c)) for c in geo.classes)
    assert all(is_pagoda(geo, distance_pagoda(geo, c)) for c in range(93))
    assert [KADON.names[c] for c in range(93) if geo.unjumpable >> c & 1] == ["A1", "I1", "A9"]


@pytest.mark.parametrize("node", ["E1", "A5", "M5", "B2", "I2", "B9"])
def test_supply_line_minimum_is_six_for_every_goal_node(node: str) -> None:
    puzzle = make_puzzle("supply-line", goal=node)
    result = solve(puzzle, puzzle.goals[0], kernel=FAST)
    assert result.minimum == 6
    assert 5 in result.exhausted and set(result.exhausted) == set(range(min(result.exhausted), 6))
    assert replay(KADON, puzzle.start, result.solution) == {KADON.index_of(node)}


@pytest.mark.skipif(not HAVE_C, reason="the C kernel is not built")
def test_c_and_python_kernels_agree() -> None:
    puzzle = make_puzzle("supply-line", goal="B2")
    results = [solve(puzzle, puzzle.goals[0], max_moves=5, kernel=k) for k in ("c", "python")]
    assert results[0].exhausted == results[1].exhausted
    assert results[0].lower_bound == results[1].lower_bound == 6
    custom = make_puzzle("custom", goal="A5", start="B5 I5 F6 G6 H6 E7 E8 F8 E9")
    pair = [solve(custom, custom.goals[0], kernel=k) for k in ("c", "python")]
    assert pair[0].minimum == pair[1].minimum == 2
    assert [m.path for m in pair[0].solution] == [m.path for m in pair[1].solution]


@pytest.mark.skipif(not HAVE_C, reason="the C kernel is not built")
def test_c_and_python_bounds_agree_on_grand_positions() -> None:
    from ytourney.games.solitaire.ckernel import CKernel

    rng = random.Random(7)
    for goal in ("corners", "one-corner"):
        puzzle = make_puzzle("grand-supply-line", goal=goal)
        t = tables(puzzle, puzzle.goals[0])
        py, c = PyKernel(t), CKernel(t)
        pos, last = mask(puzzle.start), -1
        while True:
            assert c.bound(pos) == py.bound(pos)
            assert c.moves(pos, last) == py.moves(pos, last)
            options = py.moves(pos, last)
            if not options:
                break
            pos, last, _ = rng.choice(options)


def _graph(kernel: PyKernel, start: int) -> dict[int, list[int]]:
    """Every position reachable from `start`, with the positions one move on (breadth-first, no bounds)."""
    succ: dict[int, list[int]] = {}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        if pos not in succ:
            succ[pos] = [after for after, _, _ in kernel.moves(pos, -1)]
            queue.extend(a for a in succ[pos] if a not in succ)
    return succ


def _distances(succ: dict[int, list[int]], end: int) -> dict[int, int]:
    """The exact fewest moves from each position of the graph to `end`, where it can be reached."""
    dist = {end: 0}
    for pos in sorted(succ, key=int.bit_count):  # every move removes a stone: successors come first
        ds = [dist[a] for a in succ[pos] if a in dist]
        if pos != end and ds:
            dist[pos] = 1 + min(ds)
    return dist


@pytest.mark.parametrize("seed", range(4))
def test_bounds_are_admissible_and_the_bounded_search_finds_the_plain_minimum(seed: int) -> None:
    """On small puzzles, every reachable position's bound is at most its exact distance (breadth-first), and the
    bounded iterative deepening proves the same minimum; corners take part, for the unjumpable-node rule."""
    rng = random.Random(seed)
    checked = 0
    while checked < 6:
        centre = rng.choice([0, 8, 88, rng.randrange(93)])
        area = sorted({m for x in (centre, *KADON.neighbors[centre]) for y in (x, *KADON.neighbors[x])
                       for m in (y, *KADON.neighbors[y])})
        start = rng.sample(area, min(len(area), rng.randrange(5, 9)))
        start_names = " ".join(KADON.names[c] for c in start)
        free = KADON.names[next(c for c in range(93) if c not in start)]
        probe = make_puzzle("custom", start=start_names, goal=free)
        succ = _graph(PyKernel(tables(probe, probe.goals[0])), mask(start))
        ends = [p for p in succ if p.bit_count() <= 3 and not p & mask(start)]
        if not ends:
            continue
        end = rng.choice(sorted(ends))
        goal = " ".join(KADON.names[c] for c in range(93) if end >> c & 1)
        puzzle = make_puzzle("custom", start=start_names, goal=goal)
        kernel = PyKernel(tables(puzzle, puzzle.goals[0]))
        dist = _distances(succ, end)
        assert all(kernel.bound(pos) <= d for pos, d in dist.items())
        for name in ("python", "c") if HAVE_C else ("python",):
            assert solve(puzzle, puzzle.goals[0], kernel=name).minimum == dist[mask(start)]
        checked += 1


def test_jump_classes_and_who_jumps_them() -> None:
    geo = geometry(KADON)
    small = geo.classes.index(next(c for c in geo.classes if c.bit_count() == 27))
    assert geo.jumpers[small] == 1 << (1 - small)  # the corners' class is jumped only by the other class
    assert geo.jumpers[1 - small] == 0b11
    assert all(b in KADON.neighbors[a] and c in KADON.neighbors[b] for a, js in enumerate(geo.jumps) for b, c in js)


def test_impossible_goal_is_refused_quickly_with_a_reason() -> None:
    puzzle = make_puzzle("custom", start="F6 G6", goal="A1")
    result = solve(puzzle, puzzle.goals[0])
    assert result.minimum is None and result.impossible
    assert "A1" in result.impossible


@pytest.mark.parametrize("kernel", ["python", "auto"])
def test_a_goal_out_of_reach_of_the_stones_moves_is_impossible_not_a_bound(kernel: str) -> None:
    puzzle = make_puzzle("custom", start="E5 F5 E6", goal="G5")  # 3 stones: at most 2 moves before 1 is left
    result = solve(puzzle, puzzle.goals[0], max_moves=30, kernel=kernel)
    assert result.minimum is None and not result.solution
    assert result.impossible == ("a move removes at least one stone, so 3 stones allow at most 2 moves to leave 1, "
                                 "and no sequence of 2 or fewer reaches the goal")
    assert sorted(result.exhausted) == [1, 2]  # not the 30 depths --max-moves allows


def test_bounds_are_admissible_along_a_solution() -> None:
    puzzle = make_puzzle("supply-line", goal="A5")
    t = tables(puzzle, puzzle.goals[0])
    kernel = PyKernel(t)
    line = moves("F5-D6 E7-C5 H5-F5-D5-B5 G7-E7 E8-G8-F7-D6 I5-G7-G5-E7-C5-A5")
    stones = puzzle.start
    for left in range(len(line), 0, -1):
        assert kernel.bound(mask(stones)) <= left < INFINITE
        stones = play(KADON, stones, line[len(line) - left])
    assert kernel.bound(mask(stones)) == 0


@pytest.mark.parametrize("args, message", [
    (["supply-line", "--goal", "Z9"], "unknown node 'Z9' on 'kadon'; expected a kadon node like E5"),
    (["supply-line", "--goal", "F6"], "overlaps the goal"),
    (["supply-line", "--max-moves", "0"], "must be at least 1"),
    (["tic-tac-toe"], "unknown puzzle 'tic-tac-toe'"),
    (["custom", "--goal", "A1"], "needs both --start and --goal"),
])
def test_bad_input_gets_one_clear_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["solve", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_json_and_svg(tmp_path) -> None:
    svg = tmp_path / "s.svg"
    result = CliRunner().invoke(main, ["solve", "custom", "--start", "B5 I5 F6 G6 H6 E7 E8 F8 E9", "--goal", "A5", "--json",
                                       "--svg", str(svg)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    goal = data["goals"][0]
    assert goal["minimum"] is not None and len(goal["solution"]) == goal["minimum"]
    assert goal["proved"] is True and goal["proof"].startswith(f"minimum {goal['minimum']}")
    assert svg.read_text().startswith("<svg")
    unproved = CliRunner().invoke(main, ["solve", "custom", "--start", "B5 I5 F6 G6 H6 E7 E8 F8 E9", "--goal", "A5",
                                         "--json", "--max-moves", "1"])
    goal = json.loads(unproved.output)["goals"][0]
    assert goal["proved"] is False and goal["proof"]  # the sentence stays beside the boolean


def _replay_paths(start: frozenset[int], paths: list[tuple[int, ...]]) -> frozenset[int]:
    return replay(KADON, start, [parse_move(KADON, "-".join(KADON.names[c] for c in p)) for p in paths])


@pytest.mark.skipif(not HAVE_C, reason="the C kernel is not built")
def test_symmetric_search_solves_grand_supply_line_corners() -> None:
    from ytourney.games.solitaire import finder
    from ytourney.games.solitaire.ckernel import CKernel

    puzzle = make_puzzle("grand-supply-line", goal="corners")
    engine = CKernel(tables(puzzle, puzzle.goals[0]))
    start = mask(puzzle.start)
    perm = finder.symmetry_of(engine, start)
    assert perm is not None and perm[perm[perm[0]]] == 0 and perm[0] != 0  # the rotation of order 3
    found = finder.symmetric(engine, start, perm, 30, 200_000)
    assert found is not None and len(found) == 15  # no symmetric solution of 12 moves (bounds are admissible)
    assert _replay_paths(puzzle.start, found) == {KADON.index_of(n) for n in ("A1", "I1", "A9")}


def test_improve_shortens_a_beam_solution_to_the_minimum() -> None:
    from ytourney.games.solitaire import finder
    from ytourney.games.solitaire.solver import make_kernel

    puzzle = make_puzzle("supply-line", goal="next-to-corners")
    engine = make_kernel(tables(puzzle, puzzle.goals[0]), FAST, None)[0]
    start = mask(puzzle.start)
    long = finder.beam(engine, start, 20, 30)
    assert long is not None and len(long) > 6
    short = finder.improve(engine, start, long, lambda nodes: None)
    assert len(short) == 6
    assert _replay_paths(puzzle.start, short) in puzzle.goals[0].targets


def test_no_symmetry_for_a_lopsided_start() -> None:
    from ytourney.games.solitaire import finder

    puzzle = make_puzzle("custom", start="F6 G6 H6 F7", goal="E6")
    assert finder.symmetry_of(PyKernel(tables(puzzle, puzzle.goals[0])), mask(puzzle.start)) is None


def test_pure_python_environment_picks_the_python_kernel_with_the_same_answer(monkeypatch) -> None:
    puzzle = make_puzzle("custom", goal="A5", start="B5 I5 F6 G6 H6 E7 E8 F8 E9")
    monkeypatch.setenv("YTOURNEY_PURE_PYTHON", "1")
    pure = solve(puzzle, puzzle.goals[0])
    monkeypatch.delenv("YTOURNEY_PURE_PYTHON")
    default = solve(puzzle, puzzle.goals[0])
    assert pure.kernel == "python" and default.kernel == ("c" if HAVE_C else "python")
    assert pure.minimum == default.minimum == 2 and pure.exhausted == default.exhausted


@pytest.mark.parametrize("target", ["missing/x.svg", "link.svg", "/dev/null"])
def test_a_bad_svg_target_is_refused_before_the_search(tmp_path: Path, target: str) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("keep\n")
    (tmp_path / "link.svg").symlink_to(notes)
    path = target if target.startswith("/") else str(tmp_path / target)
    result = CliRunner().invoke(main, ["solve", "custom", "--start", "E5 F5", "--goal", "G5", "--svg", path])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Invalid value for '--svg'" in result.output and "solution" not in result.output
    assert any(words in result.output for words in ("does not exist; expected an existing folder",
                                                    "is a symbolic link; expected a regular file or a new name",
                                                    "is a character device; expected a regular file or a new name"))
    assert notes.read_text() == "keep\n"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")
def test_an_svg_folder_that_takes_no_new_file_is_refused_before_the_search(tmp_path: Path) -> None:
    """/proc takes no new file (even from root): the search ran, then the SVG failed."""
    result = CliRunner().invoke(main, ["solve", "custom", "--start", "E5 F5", "--goal", "G5", "--svg",
                                       "/proc/ytourney-solve.svg"])
    assert result.exit_code == 1 and "solution" not in result.output
    assert "Invalid value for '--svg': cannot create '/proc/ytourney-solve.svg'" in result.output
    new = tmp_path / "new.svg"
    ok = CliRunner().invoke(main, ["solve", "custom", "--start", "E5 F5", "--goal", "G5", "--svg", str(new)])
    assert ok.exit_code == 0 and new.read_text().startswith("<svg")  # the check leaves no file behind it


def test_svg_replaces_only_a_file_solve_wrote_unless_forced(tmp_path) -> None:
    notes = tmp_path / "notes.svg"
    notes.write_text("my notes\n")
    args = ["solve", "custom", "--start", "B5 I5 F6 G6 H6 E7 E8 F8 E9", "--goal", "A5", "--svg", str(notes)]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 1 and "is not an SVG `ytourney solve` wrote" in refused.output
    assert notes.read_text() == "my notes\n"  # refused before the search, the file untouched
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0
    assert notes.read_text().startswith("<svg")
    assert CliRunner().invoke(main, args).exit_code == 0  # solve's own SVG is replaced without --force


ONE_CORNER_SOLUTION = ("G5-G3 E5-G5-E3 H5-H3-F3-D3 G7-I7 F8-H8 E8-G8-I8 H6-J4-H4-J5-H7-J7-B9 "
                       "E7-C5-E5-C3-E3-E5-E7-G5-G7-E7-C7-E9-C9-A9")
"""docs/games/solitaire.md's 8-move Grand Supply Line solution; its last chain lands twice on E5 and on E7."""


@pytest.mark.parametrize("kernel", ["python", "c"])
def test_a_chain_lands_again_where_it_has_been_as_design_1b_allows(kernel: str) -> None:
    """DESIGN §1b: every jump captures, so a chain may revisit a node; both kernels list such a chain, the rules
    checker plays it, and the documented solution reaches its corner."""
    if kernel == "c" and not HAVE_C:
        pytest.skip("the C kernel is not built")
    puzzle = make_puzzle("grand-supply-line", goal="one-corner")
    solution = moves(ONE_CORNER_SOLUTION)
    last = solution[-1]
    assert len(set(last.path)) < len(last.path)
    before = replay(KADON, puzzle.start, solution[:-1])
    assert replay(KADON, puzzle.start, solution) == frozenset({KADON.index_of("A9")})
    t = tables(puzzle, puzzle.goals[0])
    if kernel == "c":
        from ytourney.games.solitaire.ckernel import CKernel

        engine: PyKernel = CKernel(t)
    else:
        engine = PyKernel(t)
    listed = engine.moves(mask(before), solution[-2].path[-1])
    assert any(path == last.path for _, _, path in listed) or any(
        end == last.path[-1] and after == mask(play(KADON, before, last)) for after, end, _ in listed)
