"""Reasoning about rules: the count model, verdicts, witnesses, sameness and lint; paired
simulation and its executors.
"""
