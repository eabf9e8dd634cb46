"""fivetowers.server."""
