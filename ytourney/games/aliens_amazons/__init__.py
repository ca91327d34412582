"""Aliens and Amazons (Richard May): three Aliens jump and capture, thirty Amazons try to immobilize them."""
