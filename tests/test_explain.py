"""`rulesdsl explain`: every profile as a rule sheet in every language, from the phrase files."""

from __future__ import annotations

import re

import pytest

from rulesdsl.cli import main
from rulesdsl.explain import (
    PLURAL_RULES,
    PhraseError,
    Phrases,
    languages,
    phrases,
    rule_sheet,
    sentence,
)
from rulesdsl.options import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.profile import Profile, load, load_file, shipped_names
from rulesdsl.rules import OPTIONS, SECTIONS, SUIT_WORDS, section_options

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
    """The sheet states every option's value in its own section, with no placeholder left."""
    sheet = rule_sheet(profile, lang)
    assert not PLACEHOLDER.search(sheet)
    text = flat(sheet)
    titles = [text.index(phrases(lang).section(s)) for s in SECTIONS]
    assert titles == sorted(titles)
    for number, section in enumerate(SECTIONS):
        end = titles[number + 1] if number + 1 < len(titles) else len(text)
        for opt in section_options(section):
            said = flat(sentence(opt.name, profile.settings[opt.name].value, lang))
            assert titles[number] < text.index(said) < end, (opt.name, lang)
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
