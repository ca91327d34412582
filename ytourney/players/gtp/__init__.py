"""External programs speaking GTP: the client that seats an engine as a player, and the server that exposes ours."""
