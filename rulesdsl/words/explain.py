"""Rule sheets: a resolved profile told in words, from the phrase tables in `phrases/`.

A phrase file (`phrases/<lang>.yaml`) holds, for every option, a sentence per value word;
numbers, expressions, rank lists and suits fill the placeholders of templates (`{count}`,
`{expr}`, `{low}`, `{high}`, `{ranks}`, `{suit}`). The sections of a sheet and their order
come from the option registry (`Unit.section`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, singledispatch
from importlib import resources
from typing import Any

import yaml

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, Suit, is_usual_order
from rulesdsl.model.contributions import model
from rulesdsl.model.expr import Expr
from rulesdsl.model.kinds import (
    Choice,
    CountOrWord,
    DeckRanks,
    IntExpr,
    MatchEnd,
    MatchKind,
    PlayerRange,
)
from rulesdsl.model.language.rule import SEAT_KINDS, Clause, HouseRule, RuleKind
from rulesdsl.model.rules import OPTIONS, SECTIONS, section_options
from rulesdsl.model.units.trump import SUIT_WORDS
from rulesdsl.read.language.settings import RuleSetting
from rulesdsl.read.profile import Profile, Setting
from rulesdsl.reason.analysis.report import DeadRule, dead_rules, dead_stated_rules
from rulesdsl.words.layout import wrap

PHRASE_DIR = resources.files("rulesdsl.words") / "phrases"
DEFAULT_LANGUAGE = "en"
WIDTH = 80

Param = int | str | Expr | Suit


class PhraseError(LookupError):
    """A phrase table lacks a sentence, a form or a placeholder that a value needs."""


@dataclass(frozen=True)
class Phrase:
    """Where a value's sentence lies under its option in a phrase table, and what fills it.

    `path` starts with the value's word, or with a form for parametric values: `count`,
    `players`, `expr`, `range`, `exact`, `ranks`, `full_order`, `ranks_order`, `suit`.
    `count` picks the plural form.
    """

    path: tuple[str, ...]
    params: Mapping[str, Param] = field(default_factory=dict)
    count: int | None = None


@singledispatch
def phrase_of(kind: Any, value: Any) -> Phrase:
    """The phrase for one value of an option of this kind."""
    raise TypeError(f"no phrase rule for the option kind {type(kind).__name__}")


@phrase_of.register
def _choice(kind: Choice, value: Any) -> Phrase:
    word = kind.text(value)
    if word in SUIT_WORDS:
        return Phrase(("suit",), {"suit": Suit.from_word(word)})
    return Phrase((word,))


@phrase_of.register
def _count_or_word(kind: CountOrWord, value: int | str) -> Phrase:
    return Phrase((value,)) if isinstance(value, str) else _count(value)


@phrase_of.register
def _int_expr(kind: IntExpr, value: Expr) -> Phrase:
    return _expr(value)


@phrase_of.register
def _player_range(kind: PlayerRange, value: tuple[int, int]) -> Phrase:
    low, high = value
    if low == high:
        return Phrase(("exact",), {"count": low}, low)
    return Phrase(("range",), {"low": low, "high": high})


@phrase_of.register
def _deck(kind: DeckRanks, value: tuple[int, ...]) -> Phrase:
    """`standard`; `ranks` in the usual order; else the order is stated: `full_order` for
    all 13 ranks, `ranks_order` for fewer."""
    text = kind.text(value)
    if text in kind.words():
        return Phrase((text,))
    cards = len(value) * len(Suit)
    if is_usual_order(value):
        form = "ranks"
    else:
        form = "full_order" if len(value) == len(RANKS_HIGH_TO_LOW) else "ranks_order"
    return Phrase((form,), {"ranks": text, "count": cards}, cards)


@phrase_of.register
def _match(kind: MatchKind, value: MatchEnd) -> Phrase:
    inner = _expr(value.count)
    return Phrase((value.kind, *inner.path), inner.params, inner.count)


def _count(number: int) -> Phrase:
    return Phrase(("count",), {"count": number}, number)


def _expr(expr: Expr) -> Phrase:
    if expr.op == "players":
        return Phrase(("players",))
    if expr.op == "number":
        return _count(expr.eval(0))
    return Phrase(("expr",), {"expr": expr})


def _east_slavic(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"


PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "one_other": lambda n: "one" if n == 1 else "other",
    "east_slavic": _east_slavic,
}
"""Plural categories by rule name; a phrase file names its rule under `plural`."""


@dataclass(frozen=True)
class Phrases:
    """One language's phrase table."""

    lang: str
    table: Mapping[str, Any]

    def get(self, *path: str) -> Any:
        node: Any = self.table
        for key in path:
            if not isinstance(node, Mapping) or key not in node:
                raise PhraseError(f"phrases/{self.lang}.yaml has no entry {'.'.join(path)}")
            node = node[key]
        return node

    def label(self, key: str, /, **params: Param) -> str:
        return self._format(("labels", key), None, params)

    def section(self, name: str) -> str:
        return self._format(("sections", name), None, {})

    def house(self, path: tuple[str, ...], /, **params: Param) -> str:
        """A sentence about a rule the profile states itself."""
        return self._format(("house", *path), None, params)

    def house_title(self) -> str:
        return self._format(("house", "title"), None, {})

    def house_inherited(self, profile: str) -> str:
        return self._format(("house", "inherited"), None, {"profile": profile})

    def diverge(self, *path: str, count: int | None = None, **params: Param) -> str:
        """A sentence of `diverge`; `count` fills {count} and picks the plural form."""
        counted = params if count is None else {"count": count, **params}
        return self._format(("diverge", *path), count, counted)

    def refusal(self, path: tuple[str, ...], /, **params: Param) -> str:
        """Why a card is refused: the sentence at `path` (`refusals` RULE WORD, or
        `refused` KEY); a Suit `led` also fills {led_one}, a card of that suit."""
        led = params.get("led")
        if isinstance(led, Suit):
            params["led_one"] = self._format(("suit_card", led.word), None, {})
        return self._format(path, None, params)

    def end(self, reason: str) -> str:
        """Why a hand's winner won, as it ended for `reason` (an EndReason)."""
        return self._format(("ends", reason), None, {})

    def sentence(self, option: str, value: Any, qualified: bool = False) -> str:
        """The sentence that states `value` of `option`; `qualified`, the one that says so
        when a rule the profile states acts at its step too (`qualified` in the phrase
        file), where the plain one would deny what that rule adds."""
        phrase = phrase_of(OPTIONS[option].kind, value)
        path = ("options", option, *phrase.path)
        if qualified and self.has("qualified", option, *phrase.path):
            path = ("qualified", option, *phrase.path)
        return self._format(path, phrase.count, phrase.params)

    def has(self, *path: str) -> bool:
        """Whether the table holds an entry at `path`."""
        try:
            self.get(*path)
        except PhraseError:
            return False
        return True

    def _format(self, path: tuple[str, ...], count: int | None, params: Mapping[str, Param]) -> str:
        """The template at `path` (in the plural form for `count`) with `params` filled in."""
        template = self._template(path, count)
        try:
            return template.format_map({k: self._localize(v) for k, v in params.items()})
        except (KeyError, IndexError, ValueError) as error:
            raise PhraseError(
                f"phrases/{self.lang}.yaml: {'.'.join(path)} has a bad placeholder: {error}"
            ) from None

    def _template(self, path: tuple[str, ...], count: int | None) -> str:
        node = self.get(*path)
        if isinstance(node, Mapping) and count is not None:
            node = self.get(*path, self._form(node, count))
        if not isinstance(node, str):
            raise PhraseError(f"phrases/{self.lang}.yaml: {'.'.join(path)} is not a sentence")
        return node

    def _form(self, forms: Mapping[str, str], count: int) -> str:
        """An exact number's own form ("0", "1"), else the plural category of `count`."""
        return str(count) if str(count) in forms else PLURAL_RULES[self.get("plural")](count)

    def _localize(self, value: Param) -> str:
        if isinstance(value, Suit):
            return self._format(("suits", value.word), None, {})
        if isinstance(value, Expr):
            return re.sub(r"\bplayers\b", self.label("players_name"), str(value))
        return str(value)


def languages() -> tuple[str, ...]:
    """The languages that have a phrase file."""
    names = (p.name for p in PHRASE_DIR.iterdir())
    return tuple(sorted(n.removesuffix(".yaml") for n in names if n.endswith(".yaml")))


@cache
def phrases(lang: str = DEFAULT_LANGUAGE) -> Phrases:
    """The phrase table of `lang`, read once."""
    if lang not in languages():
        raise PhraseError(f"no phrases in '{lang}'; languages: {', '.join(languages())}")
    text = (PHRASE_DIR / f"{lang}.yaml").read_text(encoding="utf-8")
    # Every scalar stays a string: the value word `no` must not become a boolean.
    table = yaml.load(text, Loader=yaml.BaseLoader)
    table["options"].update(units_phrases(lang, "phrases"))
    table["refusals"].update(units_phrases(lang, "refusals"))
    return Phrases(lang, table)


def units_phrases(lang: str, kind: str) -> dict[str, Any]:
    """The sentences the units bring themselves (other packages' units), in `lang` or else
    in English: their rule sheet's (`phrases`) or their refusals' (`refusals`)."""
    brought = ((opt.name, getattr(opt, kind)) for opt in OPTIONS.values())
    return {name: said.get(lang, said["en"]) for name, said in brought if said}


def sentence(option: str, value: Any, lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence that states one option's value, e.g. for `diff`."""
    return phrases(lang).sentence(option, value)


def rule_sheet(profile: Profile, lang: str = DEFAULT_LANGUAGE, width: int = WIDTH) -> str:
    """The profile as a rule sheet: a header, then one section after another. A rule the
    profile states is said where it acts: in place of the option it replaces, or after the
    options it qualifies (which then say that a rule below adds to them)."""
    words = phrases(lang)
    lines = _header(profile, words, width)
    rules = profile.rules
    dead, dead_stated = dead_rules(rules), dead_stated_rules(rules)
    placed = Placement.of(profile)

    def stated(setting: RuleSetting, replaces: str | None = None) -> list[str]:
        text = house_sentence(setting.rule, words, rules.deck)
        marks = [own_mark(words, replaces)]
        if setting.origin == "inherited":
            marks.append(words.house_inherited(setting.profile))
        marks.append(dead_mark(words, dead_stated.get(setting.name)))
        return wrap(" ".join([text, *filter(None, marks)]), width, "- ", "  ")

    for section in SECTIONS:
        title = words.section(section)
        lines += ["", title, "-" * len(title)]
        for opt in section_options(section):
            if opt.name in placed.instead:
                lines += stated(placed.instead[opt.name], opt.name)
                continue
            item = _item(profile.settings[opt.name], words, opt.name in placed.qualified)
            mark = dead_mark(words, dead.get(opt.name))
            lines += wrap(f"{item} {mark}" if mark else item, width, "- ", "  ")
            for setting in placed.after.get(opt.name, ()):
                lines += stated(setting)
    if placed.elsewhere:
        title = words.house_title()
        lines += ["", title, "-" * len(title)]
        for setting in placed.elsewhere:
            lines += stated(setting)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Placement:
    """Where a rule sheet says each rule the profile states: `instead` of the option it
    replaces (`model.replaced`), or `after` the last option, in the sheet's order, that it
    qualifies (`model.qualifies`: the options acting at its ordered steps), which are the
    `qualified` ones; `elsewhere`, in a section of their own, the rules that do neither."""

    instead: Mapping[str, RuleSetting]
    after: Mapping[str, tuple[RuleSetting, ...]]
    qualified: frozenset[str]
    elsewhere: tuple[RuleSetting, ...]

    @classmethod
    def of(cls, profile: Profile) -> Placement:
        found = model(profile.rules)
        order = [opt.name for section in SECTIONS for opt in section_options(section)]
        by_name = {s.name: s for s in profile.house}
        instead = {o: by_name[r] for o, r in found.replaced.items() if o in order}
        after: dict[str, tuple[RuleSetting, ...]] = {}
        qualified: set[str] = set()
        elsewhere: list[RuleSetting] = []
        for setting in profile.house:
            if setting.name in found.replaced.values():
                continue
            options = [o for o in found.qualifies(setting.rule) if o in order]
            if not options:
                elsewhere.append(setting)
                continue
            qualified |= set(options)
            anchor = max(options, key=order.index)
            after[anchor] = (*after.get(anchor, ()), setting)
        return cls(instead, after, frozenset(qualified), tuple(elsewhere))


def own_mark(words: Phrases, replaces: str | None = None) -> str:
    """The mark of a rule the profile states, and of the option it stands in for."""
    if replaces is None:
        return words.house(("own",))
    return words.house(("own_instead",), option=replaces)


def rule_text(rule: HouseRule, words: Phrases, deck: Sequence[int]) -> str:
    """What a rule says, in this language: its own sentence, else one made from its clauses,
    its cards named under `deck` (the ranks, highest first)."""
    given = rule.sentence(words.lang)
    if given is not None:
        return given

    def said(text: str | None) -> str:
        return clause_words(text or "", words, deck)

    if rule.kind == RuleKind.REFUSE:
        target, condition = refused_when(rule)
        return words.house((RuleKind.REFUSE, target), condition=said(condition))
    if rule.kind == RuleKind.END:
        ends = rule.clause(RuleKind.END) or ""
        winner = said(rule.clause(Clause.WINNER))
        if ends.startswith(AFTER):
            number = ends.removeprefix(AFTER)
            return words.house((RuleKind.END, "after"), number=number, winner=winner)
        condition = said(ends.removeprefix("when "))
        return words.house((RuleKind.END, "when"), condition=condition, winner=winner)
    if rule.kind in SEAT_KINDS:
        return words.house((rule.kind,), seat=said(rule.clause(rule.kind)))
    if rule.kind == RuleKind.OUT:
        condition = said((rule.clause(RuleKind.OUT) or "").removeprefix("if "))
        return words.house((RuleKind.OUT,), condition=condition)
    return words.house((rule.kind,), count=said(rule.clause(rule.kind)))


def clause_words(text: str, words: Phrases, deck: Sequence[int]) -> str:
    """An expression of a rule's clause in this language's words (`house.words`)."""
    from rulesdsl.words.rule_words import in_words  # the rule parser, only for such a rule

    return in_words(text, words.get("house", "words"), deck)


def refused_when(rule: HouseRule) -> tuple[str, str]:
    """A play filter's target (`lead`, `follow`, `card`) and the condition that refuses."""
    target, _, condition = (rule.clause(RuleKind.REFUSE) or "").partition(" if ")
    return target, condition


def house_sentence(rule: HouseRule, words: Phrases, deck: Sequence[int]) -> str:
    """The rule's name and what it says in this language (`rule_text`)."""
    return words.house(("said",), name=rule.name, sentence=rule_text(rule, words, deck))


@cache
def stated_reason(rule: HouseRule, lang: str, deck: Sequence[int]) -> str:
    """Why a rule the profile states refused a card, in `lang`: the rule's own sentence in
    that language, else one made from its clauses there, else its English sentence, else
    its name. Without the sentence's final full stop: it is said inside others."""
    words = phrases(lang)
    given = rule.sentence(lang) or _made_reason(rule, words, deck)
    given = given or rule.sentence(DEFAULT_LANGUAGE)
    if given is None:
        return words.refusal(("refused", "house"), name=rule.name)
    return given.removesuffix(".")


def _made_reason(rule: HouseRule, words: Phrases, deck: tuple[int, ...]) -> str | None:
    """Why a play filter refused a card, made from its clauses; None where this language's
    phrases cannot say it."""
    if rule.kind != RuleKind.REFUSE:
        return None
    target, condition = refused_when(rule)
    try:
        said = clause_words(condition, words, deck)
        return words.refusal(("refused", "stated", target), condition=said)
    except PhraseError:
        return None


AFTER = "after trick "


def _header(profile: Profile, words: Phrases, width: int) -> list[str]:
    title = profile.title or profile.name
    source = (
        words.label("source", source=profile.source) if profile.source else words.label("no_source")
    )
    who = (
        words.label("profile_extends", name=profile.name, parent=profile.extends)
        if profile.extends
        else words.label("profile", name=profile.name)
    )
    heading = wrap(title, width)
    lines = [*heading, "=" * max(map(len, heading)), *wrap(source, width), *wrap(who, width)]
    if any(s.assumed for s in profile.settings.values()):
        lines += wrap(words.label("legend"), width)
    return lines


def _item(setting: Setting, words: Phrases, qualified: bool = False) -> str:
    """The option's sentence (as a rule the profile states qualifies it, if it does), then
    its mark: assumed, and the note if there is one."""
    text = words.sentence(setting.name, setting.value, qualified)
    mark = note_mark(words, setting.note, setting.note_from, setting.assumed)
    return f"{text} {mark}" if mark else text


def dead_mark(words: Phrases, dead: DeadRule | None) -> str:
    """A rule that can never act, as every command marks it (empty for a live rule)."""
    if dead is None:
        return ""
    return words.label("dead_rule", players=dead.players, proof=dead.proof)


def note_mark(
    words: Phrases, note: str | None, note_from: str | None, assumed: bool = False
) -> str:
    """A value's note as every command shows it, e.g. `(note: ...)`; a note inherited with
    its value names the profile it comes from, `(note from equal-hands: ...)`. With
    `assumed`, the mark says the value is assumed too. Empty when there is nothing to say.
    """
    if note is None:
        return words.label("assumed") if assumed else ""
    key = "assumed_note" if assumed else "note"
    if note_from is None:
        return words.label(key, note=note)
    return words.label(f"{key}_from", note=note, profile=note_from)
