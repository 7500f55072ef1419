"""The engine: the skeleton of a trick over the int state, the reference engine that plays it
one card at a time, matches, events, the drivers, and the fast path (a profile's hand
specialised by partial evaluation)."""
