"""fivetowers.tui.widgets."""
