"""GoTown's table widgets, one per module."""
