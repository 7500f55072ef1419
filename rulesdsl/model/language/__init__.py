"""The language of the rules a profile states: its vocabulary, its checked trees, their bounds,
and the rule as the engines see it.
"""
