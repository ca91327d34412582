"""The game of Y: the first game on the API, with its C core, playout kernel and tuned bots."""
