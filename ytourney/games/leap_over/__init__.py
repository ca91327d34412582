"""Leap Over, the Kadon book's leaping race: every move a jump chain, fill the other side's start triangle."""
