"""The built-in bots, graded in strength: random < heuristic < mcts."""
