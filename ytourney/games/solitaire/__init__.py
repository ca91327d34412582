"""The Supply Line peg solitaires on the kadon board, and a solver that proves their fewest moves."""
