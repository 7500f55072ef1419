"""Why a card is refused, in the player's language: an option's sentence from the phrase
files, or a rule the profile states in its own words (its `say`, else a sentence made from
its clauses)."""

from __future__ import annotations

from rulesdsl.play.engine.hand import Refusal
from rulesdsl.words.explain import DEFAULT_LANGUAGE, phrases, stated_reason


def said(refusal: Refusal, lang: str | None = None) -> str:
    """The sentence of `refusal` in `lang` (by default, the phrase files' default language)."""
    lang = lang or DEFAULT_LANGUAGE
    if refusal.stated is not None:
        return stated_reason(refusal.stated, lang, refusal.deck)
    return phrases(lang).refusal(refusal.phrase, **dict(refusal.params))
