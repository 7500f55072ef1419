"""rulesdsl: a rules-variant DSL and interpreter for the card game Linger Longer.

The folders follow the data: `model` (the rules as values), `read` (profiles read and
checked), `play` (the engines and players), `reason` (analysis and simulation), `words`
(what the tool says), `service` (what a surface asks for) and `surfaces` (the command
line, the language server, the web page). The API for playing is `rulesdsl.play`.
"""
