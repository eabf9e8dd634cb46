"""fivetowers.solver."""
