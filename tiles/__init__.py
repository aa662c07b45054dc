"""Tile-set TOML files, installed as ``pathcheck.tiles`` (data only)."""
