"""Every player: the simple bots, the search bots, and the one registry of their names."""
