"""`rulesdsl explain`: every profile as a rule sheet in every language, from the phrase files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.model.contributions import model
from rulesdsl.model.kinds import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.model.rules import OPTIONS, SECTIONS, UNITS, section_options
from rulesdsl.model.units.base import COMPOSITION, Composition
from rulesdsl.model.units.trump import SUIT_WORDS
from rulesdsl.read.profile import Profile, load, load_file, shipped_names
from rulesdsl.surfaces.main import main
from rulesdsl.words import explain
from rulesdsl.words.explain import (
    PLURAL_RULES,
    PhraseError,
    Phrases,
    house_sentence,
    languages,
    phrases,
    rule_sheet,
    sentence,
)

LANGS = ("en", "pt", "uk")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

# Texts that reach every form of a parametric kind, and every plural category.
COUNTS = ("0", "1", "2", "5", "11", "21", "22", "25")
SAMPLES: dict[type, tuple[str, ...]] = {
    IntExpr: ("players", "min(players, 5)", "players + 1", *COUNTS[1:]),
    CountOrWord: COUNTS,
    PlayerRange: ("3..6", "2", "4", "5", "10"),
    DeckRanks: (
        "A K Q J 10 9 8 7",
        "A K Q J 10 9",
        "K Q J 10 9 8 7 6 5 4 3 2 A",
        "A 10 K Q J 9 8 7",
    ),
    MatchKind: tuple(
        f"{kind} {count}"
        for kind in ("target", "hands")
        for count in ("players", "players + 1", "2 * players", *COUNTS[1:])
    ),
}

ODD = """\
profile "odd" {
    players 4
    deck A K Q J 10 9 8 7
    hand_size min(players, 5)
    trump spades
    draw per_card_in_trick
    assumed exhaustion reshuffle
    match hands players
}
"""

ODD_TOO = """\
profile "odd-too" extends "equal-hands" {
    title "Odd too"
    players 3..5
    hand_size 5
    trump stock_turnup
    must_head yes
    draw 2
    exhaustion most_tricks
    all_out no_winner
    scoring cards_in_hand
    match target players + 1
    next_dealer hand_winner
}
"""


def flat(text: str) -> str:
    return " ".join(text.split())


def written(tmp_path, text: str) -> Profile:
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    profile = load_file(path)
    assert profile.ok, profile.diagnostics
    return profile


def assert_complete(profile: Profile, lang: str) -> str:
    """The sheet states every option's value in its own section, with no placeholder left;
    an option a rule the profile states replaces (`model.replaced`) by that rule's sentence
    instead, and an option such a rule qualifies (`model.qualifies`) by its qualified
    sentence, if it has one, with the rule said once, after the options it qualifies."""
    sheet = rule_sheet(profile, lang)
    assert not PLACEHOLDER.search(sheet)
    text = flat(sheet)
    words = phrases(lang)
    titles = [text.index(words.section(s)) for s in SECTIONS]
    assert titles == sorted(titles)
    found = model(profile.rules)
    qualified = {o for s in profile.house for o in found.qualifies(s.rule)}
    said_at: dict[str, int] = {}
    for number, section in enumerate(SECTIONS):
        end = titles[number + 1] if number + 1 < len(titles) else len(text)
        for opt in section_options(section):
            value = profile.settings[opt.name].value
            plain = flat(sentence(opt.name, value, lang))
            if opt.name in found.replaced:
                (rule,) = [s.rule for s in profile.house if s.name == found.replaced[opt.name]]
                said = flat(house_sentence(rule, words, profile.rules.deck))
                assert plain not in text, (opt.name, lang)
            else:
                said = flat(words.sentence(opt.name, value, opt.name in qualified))
            assert titles[number] < text.index(said) < end, (opt.name, lang)
            said_at[opt.name] = text.index(said)
    for setting in profile.house:
        said = flat(house_sentence(setting.rule, words, profile.rules.deck))
        assert text.count(said) == 1, (setting.name, lang)
        options = found.qualifies(setting.rule)
        if options:
            last = max(said_at[o] for o in options)
            assert text.index(said) > last
            assert not [o for o, at in said_at.items() if last < at < text.index(said)]
    return sheet


def test_the_three_languages_are_shipped():
    assert set(LANGS) <= set(languages())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_profile_renders_every_option(name, lang):
    profile = load(name)
    sheet = assert_complete(profile, lang)
    assert sheet.startswith(profile.title or profile.name)
    assert profile.source in flat(sheet)


@pytest.mark.parametrize("lang", LANGS)
def test_odd_values_render(tmp_path, lang):
    sheet = assert_complete(written(tmp_path, ODD), lang)
    words = phrases(lang)
    assert words.get("suits", "spades") in sheet
    assert "A K Q J 10 9 8 7" in sheet
    assert f"min({words.label('players_name')}, 5)" in sheet
    assert words.label("no_source") in sheet
    assert words.label("profile", name="odd") in sheet
    assert flat(sentence("exhaustion", "reshuffle", lang) + " " + words.label("assumed")) in flat(
        sheet
    )


@pytest.mark.parametrize("lang", LANGS)
def test_more_odd_values_render_through_the_command(tmp_path, capsys, lang):
    written(tmp_path, ODD_TOO)
    assert main(["explain", str(tmp_path / "house.rules"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out == rule_sheet(load_file(tmp_path / "house.rules"), lang)
    assert_complete(load_file(tmp_path / "house.rules"), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_phrase_files_cover_every_option_and_word(lang):
    words = phrases(lang)
    assert set(words.get("options")) == set(OPTIONS)
    assert set(words.get("sections")) == set(SECTIONS)
    assert words.get("plural") in PLURAL_RULES
    for name, opt in OPTIONS.items():
        for word in opt.kind.words():
            if word in SUIT_WORDS:
                assert words.get("suits", word)
                word = "suit"
            assert word in words.get("options", name), (lang, name, word)


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_and_form_of_every_option_makes_a_sentence(lang):
    for name, opt in OPTIONS.items():
        kind = opt.kind
        texts = kind.words() if isinstance(kind, Choice) else SAMPLES[type(kind)]
        if isinstance(kind, (CountOrWord, DeckRanks)):
            texts = (*kind.words(), *texts)
        for text in texts:
            said = sentence(name, opt.parse(text), lang)
            assert said.strip() and not PLACEHOLDER.search(said), (lang, name, text)


def test_numbers_take_their_plural_forms():
    draw, match, hand_size = (OPTIONS[n] for n in ("draw", "match", "hand_size"))
    assert "1 card;" in sentence("hand_size", hand_size.parse("1"))
    assert "5 cards;" in sentence("hand_size", hand_size.parse("5"))
    assert "2 карти" in sentence("draw", draw.parse("2"), "uk")
    assert "5 карт " in sentence("draw", draw.parse("5"), "uk")
    assert "21 очко." in sentence("match", match.parse("target 21"), "uk")
    assert "1 ponto." in sentence("match", match.parse("target 1"), "pt")
    assert "Nobody draws" in sentence("draw", 0)


@pytest.mark.parametrize("lang", LANGS)
def test_assumed_values_are_marked_with_their_notes(lang):
    profile = load("bicycle")
    sheet = flat(rule_sheet(profile, lang))
    words = phrases(lang)
    assert flat(words.label("legend")) in sheet
    marked = [s for s in profile.settings.values() if s.note]
    assert any(s.assumed for s in marked) and not all(s.assumed for s in marked)
    for setting in marked:
        said = flat(sentence(setting.name, setting.value, lang))
        label = "assumed_note" if setting.assumed else "note"
        assert f"{said} {flat(words.label(label, note=setting.note))}" in sheet


def test_stated_values_carry_no_assumed_mark():
    sheet = rule_sheet(load("equal-hands"))
    assert "assumed" not in sheet
    assert "(note: the sheet gives no rule for every hand emptying" in flat(sheet)


def test_a_missing_or_broken_phrase_is_named():
    with pytest.raises(PhraseError, match=r"phrases/xx.yaml has no entry options.draw.count"):
        Phrases("xx", {"options": {"draw": {}}}).sentence("draw", 1)
    broken = Phrases("xx", {"options": {"draw": {"count": "draws {cards}"}}, "plural": "one_other"})
    with pytest.raises(PhraseError, match=r"options.draw.count has a bad placeholder"):
        broken.sentence("draw", 2)
    with pytest.raises(PhraseError, match="no phrases in 'fr'"):
        phrases("fr")


def test_an_unknown_language_is_a_usage_error(capsys):
    assert main(["explain", "bicycle", "--lang", "fr"]) == 2
    assert "--lang" in capsys.readouterr().err


def test_an_unknown_profile_is_a_usage_error(capsys):
    assert main(["explain", "no-such-profile"]) == 2
    assert "no profile named" in capsys.readouterr().err


# -- the rules a profile states, said where they act --------------------------------------

HOUSE = Path(__file__).parents[2] / "rulesdsl" / "read" / "profiles" / "house"
RULE_BLOCK = re.compile(r"^    rule .*?^    \}\n", re.M | re.S)


def stated_blocks() -> dict[str, str]:
    """Each shipped rule of a profile's own, as the block of lines that states it."""
    return {
        path.stem: RULE_BLOCK.search(path.read_text(encoding="utf-8")).group()
        for path in sorted(HOUSE.glob("*.rules"))
    }


def with_rules(tmp_path, base: str, *blocks: str) -> Profile:
    text = f'profile "mine" extends "{base}" {{\n' + "".join(blocks) + "}\n"
    return written(tmp_path, text)


BASES = [n for n in shipped_names() if not (HOUSE / f"{n}.rules").exists()]


@pytest.fixture
def unanalysed(monkeypatch):
    """Sheets without the count model's marks of rules that never act (tested with the
    analysis): its walk of every state is what takes time here."""
    for name in ("dead_rules", "dead_stated_rules"):
        monkeypatch.setattr(explain, name, lambda rules: {})


@pytest.mark.parametrize("base", BASES)
def test_every_shipped_rule_is_said_where_it_acts_on_every_shipped_profile(
    tmp_path, base, unanalysed
):
    """All six at once: two lead filters after the same option, in the order written."""
    profile = with_rules(tmp_path, base, *stated_blocks().values())
    assert len(profile.house) == len(stated_blocks())
    for lang in LANGS:
        assert_complete(profile, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("name", "option"), [("trump-wins-draw-two", "draw"), ("points-for-tricks", "scoring")]
)
def test_a_rule_that_replaces_an_option_is_said_once_in_its_place(name, option, lang):
    profile = load(name)
    assert model(profile.rules).replaced == {option: name}
    words = phrases(lang)
    sheet = flat(rule_sheet(profile, lang))
    assert flat(sentence(option, profile.settings[option].value, lang)) not in sheet
    rule = flat(house_sentence(profile.house[0].rule, words, profile.rules.deck))
    marked = f"{rule} {words.house(('own_instead',), option=option)}"
    assert sheet.count(rule) == 1 and marked in sheet
    section = words.section(OPTIONS[option].section)
    later = [words.section(s) for s in SECTIONS[SECTIONS.index(OPTIONS[option].section) + 1 :]]
    assert (
        sheet.index(section) < sheet.index(rule) < min(map(sheet.index, later), default=len(sheet))
    )
    assert words.house_title() not in sheet


def test_explain_says_the_draw_of_trump_wins_draw_two_once(capsys):
    assert main(["explain", "trump-wins-draw-two"]) == 0
    out = flat(capsys.readouterr().out)
    assert "The trick winner draws 1 card" not in out
    assert out.count("draws 2 cards when the trick was won by a trump") == 1


@pytest.mark.parametrize("lang", LANGS)
def test_a_filter_sits_right_after_the_options_it_qualifies(lang):
    profile = load("must-overtrump")
    words = phrases(lang)
    sheet = flat(rule_sheet(profile, lang))
    rule = flat(house_sentence(profile.house[0].rule, words, profile.rules.deck))
    no = OPTIONS["must_head"].parse("no")
    qualified = flat(words.sentence("must_head", no, True))
    assert flat(sentence("must_head", no, lang)) not in sheet
    following = flat(sentence("next_lead", profile.settings["next_lead"].value, lang))
    assert f"{qualified} - {rule} {words.house(('own',))} - {following}" in sheet


# What an option's sentence may not say next to a rule the profile states at its step: a
# card it lets you play, or an end it promises, may be the rule's to refuse or to change.
DENIALS = ("any card", "Nobody has to", "until only one player holds cards")


def qualifiable() -> list[tuple[str, str]]:
    """Every value word of every option acting at a step where a rule the profile states
    acts too (a play filter, an end check)."""
    ordered = {s for s, how in COMPOSITION.items() if how is Composition.ORDERED}
    return [
        (unit.name, word)
        for unit in UNITS
        if unit.steps & ordered
        for word in OPTIONS[unit.name].kind.words()
    ]


def test_no_option_sentence_next_to_a_stated_rule_denies_what_it_adds():
    assert {name for name, _ in qualifiable()} >= {"follow", "must_head", "exhaustion"}
    for name, word in qualifiable():
        said = sentence(name, OPTIONS[name].parse(word))
        qualified = phrases().sentence(name, OPTIONS[name].parse(word), True)
        denied = [d for d in DENIALS if d in qualified]
        assert not denied, (name, word, qualified)
        if said != qualified:
            assert phrases().has("qualified", name, word)


def test_every_language_qualifies_the_same_sentences():
    def paths(lang: str) -> set[tuple[str, str]]:
        return {(o, w) for o, words in phrases(lang).get("qualified").items() for w in words}

    english = paths("en")
    assert english and all(w in OPTIONS[o].kind.words() for o, w in english)
    for lang in LANGS:
        assert paths(lang) == english, lang
        for option, word in english:
            assert phrases(lang).sentence(option, OPTIONS[option].parse(word), True)
