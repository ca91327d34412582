"""The game of Y: boards and notation, the game state with its rules, and the record of a finished game."""
