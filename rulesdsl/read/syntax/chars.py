"""Characters a profile may not hold, in either syntax: control characters and the
bidirectional controls that make text show in another order than it reads."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from rulesdsl.model.text import Pos

# Control characters, the line separators other than \n and \r\n (which the two syntaxes
# would read differently) and lone surrogates (which no file can hold; YAML escapes can).
CONTROL_CHARS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"
CONTROL = re.compile(f"[{CONTROL_CHARS}]|\r(?!\n)")
# Bidirectional controls: embeddings, overrides, isolates and marks ("Trojan source").
BIDI_CHARS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
BIDI = re.compile(f"[{BIDI_CHARS}]")
# What one line of text (a title, a source, a note, a value) may not hold: either of
# those, or a line break.
NOT_IN_A_LINE = f"[\n\r{CONTROL_CHARS}{BIDI_CHARS}]"


@dataclass(frozen=True)
class CharRefusal:
    """Why a character is refused: the diagnostic's code, message and hint."""

    code: str
    message: str
    hint: str


def bidi_refusal(char: str) -> CharRefusal:
    name = unicodedata.name(char, "a bidirectional control")
    return CharRefusal(
        "bidi-control",
        f"the character U+{ord(char):04X} ({name}) is a bidirectional control: "
        "it makes the text show in another order than it reads",
        "delete it; write the text in the order it is read",
    )


def control_refusal(char: str) -> CharRefusal:
    return CharRefusal(
        "control-character",
        f"the character U+{ord(char):04X} is not allowed in a profile",
        "delete it; a profile is plain text (tabs and line ends only)",
    )


def refusal(char: str) -> CharRefusal | None:
    """Why `char` may not appear in a profile, or None when it may."""
    if BIDI.fullmatch(char):
        return bidi_refusal(char)
    if CONTROL.fullmatch(char):
        return control_refusal(char)
    return None


def bidi_controls(text: str) -> Iterator[tuple[Pos, CharRefusal]]:
    """The first bidirectional control on each line of `text`, with its position."""
    for number, line in enumerate(text.split("\n"), 1):
        found = BIDI.search(line)
        if found is not None:
            yield Pos(number, found.start() + 1), bidi_refusal(found.group())
