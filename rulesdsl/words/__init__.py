"""What the tool says: rule sheets and phrases, refusals, diffs, diverge, transcripts, reports,
terminal layout and editor grammars.
"""
