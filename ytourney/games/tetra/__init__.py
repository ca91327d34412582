"""Tetra: stretched formations of four on the kadon board (Richard May, in the Kadon "Game of Y" book)."""
