"""Every sentence the code asks the phrase files for is there, in every language: the keys
are read off the code (its calls of the phrase tables, the refusals' paths) and the
registry (each rule's refusing values, each end reason, each trump rule that shows a card),
not listed by hand. Then diverge and a refused card, told in Portuguese and Ukrainian."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from support import deck_order, deck_text

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, Card, Suit
from rulesdsl.model.result import EndReason
from rulesdsl.model.rules import UNITS, Rules
from rulesdsl.model.units import Trump
from rulesdsl.model.units.registry import values
from rulesdsl.play.engine.hand import Hand
from rulesdsl.read.profile import load, load_file
from rulesdsl.surfaces.main import main
from rulesdsl.words import explain, refusals
from rulesdsl.words.diverge import first_divergence
from rulesdsl.words.explain import PLURAL_RULES, Phrases, languages, phrases

SOURCE = Path(__file__).parents[2] / "rulesdsl"
LANGS = languages()

# The methods of Phrases that take a key, and the section of the phrase files it is under.
SECTIONS = {"diverge": "diverge", "label": "labels", "section": "sections"}
# Where a refusal's path starts (`Refusal.phrase`).
REFUSAL_ROOTS = ("refused", "refusals")


def _constants(node: ast.AST) -> list[str]:
    """The strings a key expression can be: a constant, or either branch of an `if`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def _method(call: ast.Call, aliases: Mapping[str, str]) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in SECTIONS:
        return func.attr
    return aliases.get(func.id) if isinstance(func, ast.Name) else None


def asked(tree: ast.AST) -> Iterator[tuple[tuple[str, ...], bool, ast.AST]]:
    """(path, counted, node) for every phrase the code asks for with a constant key:
    `words.diverge("key", ...)` (or through `say = words.diverge`) and refusal paths
    `("refused", "key")`; `counted` when it passes `count`: a sentence with forms needs all.
    A dynamic part of a key ends the path there: its values are checked from the registry."""
    aliases = {
        target.id: node.value.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr in SECTIONS
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (method := _method(node, aliases)) and node.args:
            counted = any(k.arg == "count" for k in node.keywords)
            rest = [a.value for a in node.args[1:] if isinstance(a, ast.Constant)]
            for key in _constants(node.args[0]):
                yield (SECTIONS[method], key, *rest), counted, node
            if not _constants(node.args[0]):
                yield (SECTIONS[method], "<dynamic>"), False, node
        elif isinstance(node, ast.Tuple) and node.elts and _constants(node.elts[0]):
            head = _constants(node.elts[0])[0]
            if head in REFUSAL_ROOTS:
                keys = [_constants(e) for e in node.elts]
                yield (
                    tuple(
                        k[0]
                        for k in keys[: next((i for i, k in enumerate(keys) if not k), len(keys))]
                    ),
                    False,
                    node,
                )


def code_keys() -> list[tuple[tuple[str, ...], bool, str]]:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        for key, counted, node in asked(ast.parse(path.read_text(encoding="utf-8"))):
            found.append((key, counted, f"{path.relative_to(SOURCE)}:{node.lineno}"))
    return found


def registry_keys() -> list[tuple[str, ...]]:
    """The keys whose last part the code takes from a value: a refusing rule's value word,
    an end reason, a suit, a trump rule that shows a card."""
    refusing = [
        ("refusals", unit.name, unit.text(value))
        for unit in UNITS
        for value in values(unit)
        if unit.refuses(value)
    ]
    ends = [("ends", str(reason)) for reason in EndReason]
    suits = [("suit_card", suit.word) for suit in Suit]
    shown = [("diverge", "shown", str(t)) for t in Trump if t.suit is None and t is not Trump.NONE]
    return refusing + ends + suits + shown


def test_the_code_asks_for_phrases_with_keys_a_reader_can_see():
    keys = code_keys()
    assert {k[0] for k, _, _ in keys} >= {"diverge", "labels", "refused"}, "the scan finds calls"
    assert len([k for k, _, _ in keys if k[0] == "diverge"]) > 30
    dynamic = [where for key, _, where in keys if "<dynamic>" in key and key[0] == "diverge"]
    assert dynamic == [], "a diverge sentence's key is written out where it is asked for"


@pytest.mark.parametrize("lang", LANGS)
def test_every_phrase_the_code_asks_for_is_in_every_language(lang):
    words = phrases(lang)
    categories = {PLURAL_RULES[words.get("plural")](n) for n in range(1, 200)}
    for key, counted, where in code_keys():
        if "<dynamic>" in key:
            continue
        node = words.get(*key)  # raises PhraseError, naming the file and key
        if counted:
            forms = set(node) if isinstance(node, Mapping) else categories
            assert categories <= forms, (lang, key, where)
    for key in registry_keys():
        assert isinstance(words.get(*key), str), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_is_said_with_its_placeholders_filled(lang):
    for unit in UNITS:
        for value in values(unit):
            if unit.refuses(value):
                path = ("refusals", unit.name, unit.text(value))
                said = phrases(lang).refusal(path, led=Suit.CLUBS, trump=Suit.HEARTS, best="KC")
                assert said and "{" not in said, (lang, path)


def test_the_key_scan_sees_a_missing_key():
    tree = ast.parse('def f(w):\n    say = w.diverge\n    say("no_such_key" if x else "nothing")')
    assert [k for k, _, _ in asked(tree)] == [("diverge", "no_such_key"), ("diverge", "nothing")]
    with pytest.raises(LookupError, match=r"diverge\.no_such_key"):
        phrases("pt").get("diverge", "no_such_key")


# -- diverge and a refused card, in each language -------------------------------------

# Three players, seat 2 deals and shows 7H (as in test_diverge.py): seat 0's last card wins
# trick 3; after_draw, it draws 9D and stays in; immediate, it is out at once.
LAST_CARD = deck_order(["2C 3D AS", "KC KD 4S", "5C 5D 7H"], "2D 2S 9D", dealer=2)
TOLD = {
    "en": (
        "trick 3: seat 0's last card won; under A, seat 0 draws 9D and stays in; "
        "under B, seat 0 is out at once (elimination: after_draw vs immediate)"
    ),
    "pt": (
        "vaza 3: a última carta do jogador 0 ganhou; em A, o jogador 0 compra 9D e "
        "continua em jogo; em B, o jogador 0 é eliminado de imediato "
        "(elimination: after_draw contra immediate)"
    ),
    "uk": (
        "взятка 3: остання карта гравця 0 виграла; за A: гравець 0 добирає 9D і "  # noqa: RUF001
        "лишається в грі; за B: гравець 0 вибуває одразу "  # noqa: RUF001
        "(elimination: after_draw проти immediate)"
    ),
}


@pytest.mark.parametrize("lang", LANGS)
def test_diverge_tells_where_two_profiles_part_in_each_language(lang, capsys):
    a, b = load("equal-hands").rules, load("instant-elimination").rules
    found = first_divergence(a, b, 3, dealer=2, order=LAST_CARD, bots=("lowest",), lang=lang)
    assert found is not None and found.sentence == TOLD[lang]
    args = ["--deck", deck_text(LAST_CARD), "--dealer", "2", "-n", "3", "--bots", "lowest"]
    code = main(["diverge", "equal-hands", "instant-elimination", *args, "--lang", lang])
    out = capsys.readouterr().out
    assert code == 0
    assert " ".join(out.split()).startswith(TOLD[lang])
    outcome = {"en": "after 4 tricks", "pt": "depois de 4 vazas", "uk": "після 4 взяток"}
    assert outcome[lang] in " ".join(out.split())


def test_diverge_refuses_a_language_it_has_no_phrases_for(capsys):
    assert main(["diverge", "equal-hands", "bicycle", "--seed", "1", "--lang", "fr"]) == 2
    assert "'fr' is not one of" in capsys.readouterr().err


REFUSED = {
    "en": "you hold a club: follow suit",
    "pt": "tens uma carta de paus: assiste ao naipe",
    "uk": "у вас є трефова карта: давайте масть",  # noqa: RUF001
}
REFUSED_TRUMP = {
    "en": "you hold no clubs: play a trump (hearts)",
    "pt": "não tens paus: joga um trunfo (copas)",
    "uk": "у вас немає масті виходу (трефи): козиряйте (черви)",  # noqa: RUF001
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_card_says_why_in_each_language(lang):
    cards = [[Card.parse(c) for c in h.split()] for h in ("2C", "3C JD", "4H 5D")]
    hand = Hand.from_position(
        Rules().with_options({"when_void": "trump_if_able"}), cards, trump=Suit.HEARTS
    )
    hand.play(Card.parse("2C"))
    refusal = hand.check(Card.parse("JD"))
    assert refusal is not None and refusal.rule == "follow"
    assert refusals.said(refusal, lang) == REFUSED[lang]
    hand.play(Card.parse("3C"))
    refusal = hand.check(Card.parse("5D"))
    assert refusal is not None and refusal.rule == "when_void"
    assert refusals.said(refusal, lang) == REFUSED_TRUMP[lang]
    assert refusals.said(refusal) == REFUSED_TRUMP["en"]  # English, unless asked otherwise


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_refused_by_a_rule_the_profile_states_says_its_own_sentence(lang):
    rules = load("trumps-broken").rules
    hand = Hand.from_position(
        rules, [[Card.parse("2H"), Card.parse("3C")], [Card.parse("4C")]], trump=Suit.HEARTS
    )
    refusal = hand.check(Card.parse("2H"))
    assert refusal is not None and refusal.rule == "trumps-broken"
    own = rules.house_rules[0].sentence(lang)
    assert own is not None and refusals.said(refusal, lang) == own.removesuffix(".")
    assert refusals.said(refusal) == refusals.said(refusal, "en") != refusals.said(refusal, "pt")


MADE = {
    "en": "when leading, a card is refused if the card is the queen of spades",
    "pt": "ao sair, uma carta é recusada se a carta é a dama de espadas",
    "uk": "коли заходять, карту відхиляють, якщо карта — дама пік",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_rule_without_a_sentence_in_the_language_says_one_made_from_its_clauses(tmp_path, lang):
    path = tmp_path / "queen.rules"
    path.write_text(
        'profile "queen" extends "equal-hands" {\n    rule no-queen-lead {\n'
        "        refuse lead if card.strength == 10 and card.suit == spades\n"
        '        say pt "Não se sai com a dama de espadas."\n    }\n}\n',
        encoding="utf-8",
    )
    hand = Hand.from_position(
        load_file(path).rules, [[Card.parse("QS"), Card.parse("3C")], [Card.parse("4C")]]
    )
    refusal = hand.check(Card.parse("QS"))
    assert refusal is not None and refusal.rule == "no-queen-lead"
    expected = "Não se sai com a dama de espadas" if lang == "pt" else MADE[lang]
    assert refusals.said(refusal, lang) == expected


def test_a_language_that_cannot_make_the_sentence_falls_back_to_english_then_the_name(
    monkeypatch,
):
    bare = Phrases("xx", {"refused": {"house": "refused by {name}"}})
    monkeypatch.setattr(explain, "phrases", lambda lang: bare)
    rule = load("trumps-broken").house[0].rule
    english = rule.sentence("en")
    assert english is not None
    assert explain.stated_reason(rule, "xx", RANKS_HIGH_TO_LOW) == english.removesuffix(".")
    unsaid = replace(rule, sentences=())
    assert explain.stated_reason(unsaid, "xx", RANKS_HIGH_TO_LOW) == "refused by trumps-broken"
