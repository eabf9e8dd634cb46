"""GoTown (RULES.md Part C): the second game of the platform."""
