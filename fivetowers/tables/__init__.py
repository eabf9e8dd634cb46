"""fivetowers.tables."""
