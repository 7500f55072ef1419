"""rulesdsl: a rules-variant DSL and interpreter for the card game Linger Longer."""
