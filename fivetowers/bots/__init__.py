"""fivetowers.bots."""
