"""A rule's clauses in words (`explain` when the profile gives no sentence, the refusals,
the hover): cards named as players name them, under the profile's rank order, in every
language; never a strength number; and every phrase the words ask for is in every table."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, rank_text
from rulesdsl.model.language.tree import OPERATORS
from rulesdsl.model.language.vocab import ATTRIBUTES, NAMES, RANK_OF, SUITS, Aggregate
from rulesdsl.read.language.checker import COMPARISONS
from rulesdsl.read.profile import load_file
from rulesdsl.surfaces.lsp.describe import HoverTarget, Part, hover
from rulesdsl.words.explain import house_sentence, phrases, rule_sheet
from rulesdsl.words.rule_words import FLIPPED, in_words

LANGS = ("en", "pt", "uk")
SUBJECTS = ("card", "trick.best")
DRAWS = 400


def table(lang: str) -> Mapping:
    return phrases(lang).get("house", "words")


def nominative(entry: str | Mapping) -> str:
    return entry if isinstance(entry, str) else entry["nom"]


def template(lang: str, group: str, key: str) -> str:
    return nominative(table(lang)[group][key])


def by_strength(deck: tuple[int, ...]) -> list[int]:
    """The deck's ranks by strength: strength 0 is the last rank of the order."""
    return list(reversed(deck))


def a_deck(rng: random.Random) -> tuple[int, ...]:
    """A rank order of 2 to 13 ranks, in any order (aces low, A 10 K ..., and so on)."""
    ranks = rng.sample(RANKS_HIGH_TO_LOW, rng.randint(2, len(RANKS_HIGH_TO_LOW)))
    return tuple(ranks if rng.random() < 0.5 else sorted(ranks, reverse=True))


def read_ranks(sentence: str, lang: str, subject: str, deck: tuple[int, ...]) -> set[int]:
    """The ranks `sentence` says the subject's card has, read back with the language's own
    templates: `is` one rank, `is_not` all but one, `or_higher` and `or_lower` a rank and
    every rank above or below it in the deck's order, `never` none, `always` all."""
    ranks = by_strength(deck)
    x = nominative(table(lang)["names"][subject])
    named = {table(lang)["ranks"][rank_text(r)]["a"]: r for r in ranks}
    for key in ("is", "is_not", "or_higher", "or_lower", "never", "always"):
        pattern = re.escape(template(lang, "cards", key))
        pattern = pattern.replace(re.escape("{x}"), re.escape(x))
        pattern = pattern.replace(re.escape("{card}"), "(?P<card>.+)")
        found = re.fullmatch(pattern, sentence)
        if found is None or found.groupdict().get("card", "") not in {"", *named}:
            continue
        if key == "never":
            return set()
        if key == "always":
            return set(ranks)
        rank = named[found.group("card")]
        at = ranks.index(rank)
        return {
            "is": {rank},
            "is_not": set(ranks) - {rank},
            "or_higher": set(ranks[at:]),
            "or_lower": set(ranks[: at + 1]),
        }[key]
    raise AssertionError(f"{lang}: no template of `cards` reads {sentence!r}")


def without_card_names(sentence: str, lang: str) -> str:
    """The sentence with every rank's name taken out: what is left names no number."""
    names = [n for r in table(lang)["ranks"].values() for n in (r["a"], r["of"].split("{")[0])]
    for name in sorted(names, key=len, reverse=True):
        sentence = sentence.replace(name, "")
    return sentence


@pytest.mark.parametrize("lang", LANGS)
def test_a_strength_compared_with_a_number_is_said_by_the_ranks_it_keeps(lang):
    rng = random.Random(f"ranks {lang}")
    for _ in range(DRAWS):
        deck, op, subject = a_deck(rng), rng.choice(COMPARISONS), rng.choice(SUBJECTS)
        number = rng.randint(-2, len(deck) + 2)
        written = f"{subject}.strength {op} {number}"
        if rng.random() < 0.5:
            written = f"{number} {FLIPPED[op]} {subject}.strength"
        said = in_words(written, table(lang), deck)
        kept = {r for s, r in enumerate(by_strength(deck)) if OPERATORS[op](s, number)}
        assert read_ranks(said, lang, subject, deck) == kept, (written, deck, said)
        assert not re.search(r"\d", without_card_names(said, lang)), (written, deck, said)


@pytest.mark.parametrize("lang", LANGS)
def test_a_strength_and_a_suit_name_the_card(lang):
    rng = random.Random(f"cards {lang}")
    words = table(lang)
    for _ in range(DRAWS):
        deck, suit, subject = a_deck(rng), rng.choice(SUITS), rng.choice(SUBJECTS)
        number = rng.randint(-1, len(deck) + 1)
        conjuncts = [f"{subject}.strength == {number}", f"{subject}.suit == {suit}", "true"]
        rng.shuffle(conjuncts)
        said = in_words(" and ".join(conjuncts), words, deck)
        x = nominative(words["names"][subject])
        if 0 <= number < len(deck):
            rank = rank_text(by_strength(deck)[number])
            card = words["ranks"][rank]["of"].format(suit=words["suits_of"][suit])
            expected = template(lang, "cards", "is").format(x=x, card=card)
        else:
            expected = template(lang, "cards", "never").format(x=x)
        assert expected in said, (conjuncts, deck, said)
        assert not re.search(r"\d", without_card_names(said, lang)), (conjuncts, deck, said)


@pytest.mark.parametrize("lang", LANGS)
def test_two_strengths_and_a_suit_are_compared_in_words(lang):
    words = table(lang)
    card, best = (nominative(words["names"][n]) for n in ("card", "trick.best"))
    for op in COMPARISONS:
        said = in_words(f"card.strength {op} trick.best.strength", words)
        assert said == template(lang, "rank_ops", op).format(a=card, b=best)
    for suit in SUITS:
        one = nominative(words["suit_one"][suit])
        for op, key in (("==", "suit_is"), ("!=", "suit_is_not")):
            said = in_words(f"card.suit {op} {suit}", words)
            assert said == template(lang, "cards", key).format(x=card, suit=one)


QUEEN = {"en": "the queen of spades", "pt": "a dama de espadas", "uk": "дама пік"}
JACK = {"en": "the jack of spades", "pt": "o valete de espadas", "uk": "валет пік"}
ACE = {"en": "an ace", "pt": "um ás", "uk": "туз"}
NO_QUEEN = "refuse card if card.strength == 10 and card.suit == spades"


def stated(tmp_path, deck: str, clause: str = NO_QUEEN):
    path = tmp_path / "mine.rules"
    path.write_text(
        f'profile "mine" extends "equal-hands" {{\n    players 3..5\n    deck {deck}\n'
        f"    rule no-queen {{\n        {clause}\n    }}\n}}\n",
        encoding="utf-8",
    )
    profile = load_file(path)
    assert profile.ok, profile.diagnostics
    return profile


@pytest.mark.parametrize("lang", LANGS)
def test_the_queen_of_spades_is_named_in_the_sheet_under_each_rank_order(tmp_path, lang):
    usual = " ".join(map(rank_text, RANKS_HIGH_TO_LOW))
    sheet = " ".join(rule_sheet(stated(tmp_path, usual), lang).split())
    assert QUEEN[lang] in sheet
    aces_low = "K Q J 10 9 8 7 6 5 4 3 2 A"  # strength 10 is the jack
    assert JACK[lang] in " ".join(rule_sheet(stated(tmp_path, aces_low), lang).split())
    short = "A K Q J 10 9 8 7"  # no rank has strength 10
    never = template(lang, "cards", "never").format(x=nominative(table(lang)["names"]["card"]))
    assert never in " ".join(rule_sheet(stated(tmp_path, short), lang).split())
    # In the rank order A K Q J 10 9 8 7, strength 7 is the ace, the highest rank.
    rule = stated(tmp_path, short, "refuse card if card.strength >= 7").house[0].rule
    assert ACE[lang] in house_sentence(rule, phrases(lang), (14, 13, 12, 11, 10, 9, 8, 7))


def test_the_hover_names_the_card_as_the_sheet_does(tmp_path):
    for deck, card in (("A K Q J 10 9 8 7 6 5 4 3 2", QUEEN), ("K Q J 10 9 8 7 6 5 4 3 2 A", JACK)):
        profile = stated(tmp_path, deck)
        assert profile.document is not None
        said = hover(HoverTarget(Part.RULE, rule=profile.document.rules[0]), [profile])
        assert said is not None
        first = said.splitlines()[0]
        assert card["en"] in first and "10" not in first
        assert first.removeprefix("**rule** ") in rule_sheet(profile).replace("\n  ", " ")


# -- every shipped rule, said from its clauses -----------------------------------------

HOUSE = Path(__file__).parents[2] / "rulesdsl" / "read" / "profiles" / "house"
SAY = re.compile(r"^\s*say .*\n", re.M)
DOTTED = re.compile(r"\b[a-z_]+\.[a-z_]+\b")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", sorted(HOUSE.glob("*.rules")), ids=lambda p: p.stem)
def test_every_shipped_rule_without_its_sentences_is_said_from_its_clauses(tmp_path, path, lang):
    bare = tmp_path / path.name
    bare.write_text(SAY.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
    for setting in load_file(bare).house:
        said = house_sentence(setting.rule, phrases(lang), RANKS_HIGH_TO_LOW)
        assert said.startswith(f"{setting.name}: ")
        assert "{" not in said and not DOTTED.search(said), said
        assert not re.search(r"\b(?:if|and|not|any|most)\(", said), said


# -- the tables: every name, form and card the words ask for ---------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_name_operator_aggregate_and_card_has_words(lang):
    words = table(lang)
    assert set(NAMES) <= set(words["names"])
    assert {name for _, name in ATTRIBUTES} <= set(words["attributes"])
    assert set(COMPARISONS) | {"and", "or", "not", "+", "-", "*", "if", "min", "max"} <= set(
        words["ops"]
    )
    assert {"is_none", "is_not_none"} <= set(words["ops"])
    assert set(Aggregate) <= set(words["aggregates"])
    assert set(words["sets"]) == {"where"}  # an aggregate's set with a filter
    assert set(COMPARISONS) <= set(words["rank_ops"])
    assert {rank_text(r) for r in RANKS_HIGH_TO_LOW} == set(words["ranks"])
    assert all(set(r) == {"a", "of"} for r in words["ranks"].values())
    assert set(SUITS) == set(words["suits_of"]) == set(words["suit_one"])


def templates(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, Mapping):
        return [t for value in node.values() for t in templates(value)]
    return []


@pytest.mark.parametrize("lang", LANGS)
def test_every_form_a_template_asks_for_has_a_default(lang):
    """A part that lacks a form falls back to the language's default for it, so a
    template never loses a preposition or a negation to a missing form."""
    words = table(lang)
    asked = {m for t in templates(words) for m in re.findall(r"\{[a-z]+_([a-z]+)\}", t)}
    assert asked <= set(words["forms"]), asked - set(words["forms"])
    for entry in templates(words):
        assert "{" not in re.sub(r"\{[a-z]+(?:_[a-z]+)?\}", "", entry), entry


# -- the hand's memory, ranks and cards by name ----------------------------------------

MEMORY = {
    "card.suit == hearts and not any(c in hand.played: c.suit == hearts)": {
        "en": "the card is a heart and for no c among the cards played to the tricks of the "
        "hand so far, c is a heart",
        "pt": "a carta é de copas e para nenhum c entre as cartas jogadas nas vazas desta mão "
        "até agora, c é de copas",
        "uk": "карта червової масті і для жодного c із карт, досі зіграних у взятки цієї "  # noqa: RUF001
        "руки: c червової масті",
    },
    "trick.number == 1 and card == QS": {
        "en": "the trick's number is 1 and the card is the queen of spades",
        "pt": "o número da vaza é 1 e a carta é a dama de espadas",
        "uk": "номер взятки — 1 і карта — дама пік",  # noqa: RUF001
    },
    "card.suit == previous.led": {
        "en": "the suit of the card is the suit led to the previous trick",
        "pt": "o naipe da carta é o naipe de saída na vaza anterior",
        "uk": "масть карти — масть виходу попередньої взятки",
    },
    "2 if trick.best.rank == ace else 1": {
        "en": "2 if the best card so far is an ace, else 1",
        "pt": "2 se a melhor carta até agora é um ás, senão 1",
        "uk": "2, якщо найкраща досі карта — туз, інакше 1",
    },
    "trick.winner.streak >= 3": {
        "en": "the number of tricks in a row the trick winner won is at least 3",
        "pt": "o número de vazas seguidas ganhas por quem ganhou a vaza é pelo menos 3",
        "uk": "кількість виграних поспіль взяток у переможця взятки не менше, ніж 3",  # noqa: RUF001
    },
    "max(1, count(c in hand.winner.won: c.rank == ace))": {
        "en": "the greatest of 1, the number of c among the cards the hand winner won in "
        "tricks this hand for which c is an ace",
        "pt": "o maior destes valores: 1, o número de c entre as cartas ganhas por quem ganhou "
        "a mão nesta mão para os quais c é um ás",
        "uk": "найбільше з чисел: 1, кількість c із карт, які переможець руки виграв у "  # noqa: RUF001
        "взятках цієї руки (тих, для яких c — туз)",
    },
    "2 if hand.last_trick.best.trump else 1": {
        "en": "2 if the card that won the last trick of the hand is a trump, else 1",
        "pt": "2 se a carta que ganhou a última vaza da mão é trunfo, senão 1",
        "uk": "2, якщо карта, що виграла останню взятку руки — козир, інакше 1",
    },
    "sum(t in hand.tricks: count(c in t.cards: c.trump))": {
        "en": "the sum over t among the tricks of the hand so far of the number of c among "
        "the cards played to t for which c is a trump",
        "pt": "a soma, para cada t entre as vazas desta mão até agora, do seguinte: o número "
        "de c entre as cartas jogadas em t para os quais c é trunfo",
        "uk": "сума за всіма t із досі зіграних взяток цієї руки: кількість c із карт, "
        "зіграних у t (тих, для яких c — козир)",  # noqa: RUF001
    },
    "trick.leader.cards > 2": {
        "en": "the number of cards the player who led the trick holds is more than 2",
        "pt": "o número de cartas na mão de quem saiu nesta vaza é maior do que 2",
        "uk": "кількість карт у гравця, що зайшов у цю взятку більше, ніж 2",  # noqa: RUF001
    },
    "any(t in hand.tricks: t.number > 1 and t.leader == me)": {
        "en": "for some t among the tricks of the hand so far, the trick number of t is more "
        "than 1 and the player who led t is the player to play",
        "pt": "para algum t entre as vazas desta mão até agora, o número de ordem de t é "
        "maior do que 1 e quem saiu em t é o jogador da vez",
        "uk": "для деякого t із досі зіграних взяток цієї руки: номер t більше, ніж 1 і "  # noqa: RUF001
        "гравець, що зайшов у t — гравець на ходу",  # noqa: RUF001
    },
    "card.suit == card_of(me, previous).suit": {
        "en": "the suit of the card is the suit of the card the player to play played to the "
        "previous trick",
        "pt": "o naipe da carta é o naipe da carta jogada pelo jogador da vez na vaza anterior",
        "uk": "масть карти — масть карти, яку гравець на ходу зіграв у попередню взятку",  # noqa: RUF001
    },
    "card_of(previous.winner, previous) == QS": {
        "en": "the card the winner of the previous trick played to the previous trick is the "
        "queen of spades",
        "pt": "a carta jogada por quem ganhou a vaza anterior na vaza anterior é a dama de espadas",
        "uk": "карта, яку переможець попередньої взятки зіграв у попередню взятку — дама пік",  # noqa: RUF001
    },
    "card.rank > previous.best.rank": {
        "en": "the card ranks above the card that won the previous trick",
        "pt": "a carta vale mais do que a carta que ganhou a vaza anterior",
        "uk": "карта старша, ніж карта, що виграла попередню взятку",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("written", list(MEMORY))
def test_the_hands_memory_and_named_cards_are_said_in_words(lang, written):
    assert in_words(written, table(lang)) == MEMORY[written][lang]


FILTERED = {
    "count(c in hand.winner.won where c.suit == hearts: c.rank == ace)": {
        "en": "the number of c among the cards the hand winner won in tricks this hand such "
        "that c is a heart for which c is an ace",
        "pt": "o número de c entre as cartas ganhas por quem ganhou a mão nesta mão tais que c "
        "é de copas para os quais c é um ás",
        "uk": "кількість c із карт, які переможець руки виграв у взятках цієї руки, для яких c "  # noqa: RUF001
        "червової масті (тих, для яких c — туз)",
    },
    "any(p in active where p != me: p.cards > 2)": {
        "en": "for some p among the players still in such that p is not the player to play, "
        "the number of cards p holds is more than 2",
        "pt": "para algum p entre os jogadores ainda em jogo tais que p não é o jogador da vez, "
        "o número de cartas na mão de p é maior do que 2",
        "uk": "для деякого p із гравців, що ще в грі, для яких p — не гравець на ходу: "  # noqa: RUF001
        "кількість карт у p більше, ніж 2",  # noqa: RUF001
    },
    "least(p in active where p != trick.winner: p.tricks)": {
        "en": "the p among the players still in such that p is not the trick winner for whom "
        "the number of tricks p won in this hand is least (nobody on a tie)",
        "pt": "o p entre os jogadores ainda em jogo tais que p não é quem ganhou a vaza com o "
        "menor valor do seguinte: o número de vazas ganhas por p nesta mão (ninguém em caso "
        "de empate)",
        "uk": "той p із гравців, що ще в грі, для яких p — не переможець взятки, у кого "  # noqa: RUF001
        "найменше: кількість взяток у p за цю руку (за рівності — ніхто)",  # noqa: RUF001
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("written", list(FILTERED))
def test_an_aggregate_with_a_filter_says_its_set_and_the_filter_in_words(lang, written):
    """The filter is said with the set, in the words of `sets.where`, its letter bound."""
    said = in_words(written, table(lang))
    assert said == FILTERED[written][lang]
    condition = re.search(r" where ([^:]*):", written).group(1)
    assert in_words(condition, table(lang)) in said
    unfiltered = in_words(written.replace(f" where {condition}", ""), table(lang))
    assert in_words(condition, table(lang)) not in unfiltered


NONE = {
    "me.played == none": {
        "en": "the player to play has not played to this trick",
        "pt": "o jogador da vez ainda não jogou nesta vaza",
        "uk": "гравець на ходу ще не зіграв у цю взятку",  # noqa: RUF001
    },
    "previous.best != none": {
        "en": "a card won the previous trick",
        "pt": "uma carta ganhou a vaza anterior",
        "uk": "попередню взятку виграла якась карта",
    },
    "none == previous.winner": {
        "en": "nobody won the previous trick",
        "pt": "ninguém ganhou a vaza anterior",
        "uk": "попередню взятку ніхто не виграв",
    },
    "most(p in seats: p.cards) == none": {
        "en": "the p among every player for whom the number of cards p holds is greatest "
        "(nobody on a tie) is none",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("written", list(NONE))
def test_a_card_or_a_seat_compared_with_none_says_whether_there_is_one(lang, written):
    said = in_words(written, table(lang))
    if lang in NONE[written]:
        assert said == NONE[written][lang]
    other = written.replace("==", "!=") if "==" in written else written.replace("!=", "==")
    assert in_words(f"not ({written})", table(lang)) == in_words(other, table(lang)) != said


@pytest.mark.parametrize("lang", LANGS)
def test_a_rank_by_name_is_said_by_the_ranks_it_keeps_under_each_order(lang):
    """`card.rank OP queen` keeps the same ranks as `card.strength OP` the queen's strength,
    under any deck order; a rank the deck does not hold is said to be impossible."""
    rng = random.Random(f"named ranks {lang}")
    words = table(lang)
    for _ in range(DRAWS // 4):
        deck, op = a_deck(rng), rng.choice(COMPARISONS)
        word, rank = rng.choice(sorted((w, r) for w, r in RANK_OF.items()))
        said = in_words(f"card.rank {op} {word}", words, deck)
        if rank in deck:
            strength = by_strength(deck).index(rank)
            kept = {r for s, r in enumerate(by_strength(deck)) if OPERATORS[op](s, strength)}
            assert read_ranks(said, lang, "card", deck) == kept, (op, word, deck, said)
        else:
            never = template(lang, "cards", "never")
            assert said == never.format(x=nominative(words["names"]["card"]))
        assert said == in_words(f"{word} {FLIPPED[op]} card.rank", words, deck)


@pytest.mark.parametrize("lang", LANGS)
def test_a_rank_and_a_suit_by_name_name_the_card_as_a_named_card_does(lang):
    words = table(lang)
    for word, rank in RANK_OF.items():
        for suit in SUITS:
            card = f"{rank_text(rank)}{suit[0].upper()}"
            by_parts = in_words(f"card.rank == {word} and card.suit == {suit}", words)
            assert by_parts == in_words(f"card == {card}", words), card
            of = words["ranks"][rank_text(rank)]["of"]
            assert of.format(suit=words["suits_of"][suit]) in by_parts
    assert in_words("queen", words) == nominative(words["names"]["queen"])
