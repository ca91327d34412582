"""Sexta: a line of six by sliding stones on the kadon board (in the Kadon "Game of Y" book)."""
