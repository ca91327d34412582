"""One search for every game, written once against the kernel protocol (games/kernel.py): UCT with priors, RAVE,
proven wins and losses (MCTS-Solver), time management, tree reuse and a node budget; each game's knowledge comes in
through `games.knowledge.Knowledge`."""
