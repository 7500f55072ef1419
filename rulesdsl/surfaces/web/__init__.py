"""The web app of `rulesdsl serve`: the page, and a JSON API over the same library the
commands use (checking, rule sheets, diffs, play and compare)."""
