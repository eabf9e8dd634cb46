"""fivetowers.tui.screens."""
