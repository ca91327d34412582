"""Y's own bots: the one-ply heuristic and the tuned RAVE mcts."""
