"""site_builder: a static site generator for card-game rules, verified by a rules engine."""

__version__ = "0.1.0"
