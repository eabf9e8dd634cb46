"""fivetowers.tui."""
