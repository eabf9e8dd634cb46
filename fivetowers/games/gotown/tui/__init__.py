"""GoTown at the table: its Textual screens, widgets and local-play app."""
