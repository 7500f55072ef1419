"""The model of the game: cards, option kinds, integer expressions, the int state the rules are
written against, the rule units and their registry, the frozen Rules, the rule model, and
the language of the rules a profile states.
"""
