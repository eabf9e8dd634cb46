"""GoTown's screens."""
