"""Playing hands: the skeleton of a trick and the reference engine, the fast and native paths,
and every player.
"""
