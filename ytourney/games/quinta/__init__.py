"""Quinta: five in a line by sliding stones on the kadon board (Christopher Clark, in the Kadon "Game of Y" book)."""
