"""Singularity, the Kadon book's reduction game: slide 1-3 nodes, fuse in the central triangle, end alone in the middle."""
