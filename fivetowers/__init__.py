"""fivetowers: the card game 5 Towers (Kasper Lapp), played over SSH."""

__version__ = "0.1.0"
