"""Reading what the user wrote: files, diagnostics, the DSL and YAML readers and the writer,
the checking and compiling of stated rules, profiles and `extends`, the checks across options
and the JSON Schema.
"""

from pathlib import Path

GRAMMAR_DIR = Path(__file__).parent / "grammar"
"""The grammars of the profile language and of the rules a profile states."""
