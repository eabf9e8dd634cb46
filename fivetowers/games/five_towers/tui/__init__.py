"""fivetowers.games.five_towers.tui."""
