"""The language of the rules a profile states: checked with positions, resolved through
`extends`, and honoured by validate, show, diff, explain, schema, fmt and convert."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.language.vocab import ATTRIBUTES, CALLS, FUNCTIONS, NAMES, Aggregate
from rulesdsl.read.language.checker import COMPARISONS, canonical, parser
from rulesdsl.read.profile import clear_cache, load_file, read_document
from rulesdsl.read.schema import profile_schema
from rulesdsl.read.syntax.chars import refusal
from rulesdsl.read.syntax.writer import write
from rulesdsl.surfaces.main import main
from rulesdsl.words.explain import phrases


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def profile(tmp_path: Path, body: str, name: str = "h.rules", parent: str = "equal-hands") -> Path:
    path = tmp_path / name
    path.write_text(f'profile "{Path(name).stem}" extends "{parent}" {{\n{body}}}\n')
    clear_cache()
    return path


def problems(path: Path) -> list:
    return [d for d in load_file(path).diagnostics if d.is_error]


RULE = "    rule r {{\n        {clause}\n    }}\n"


def one_problem(tmp_path: Path, clause: str):
    (found,) = problems(profile(tmp_path, RULE.format(clause=clause)))
    return found


# checked, with positions


@pytest.mark.parametrize(
    ("clause", "code", "column", "said"),
    [
        ("refuse lead if card.trumpp", "rule-name", 29, "did you mean 'trump'?"),
        ("refuse lead if trik.number == 1", "rule-name", 24, "did you mean 'trick.number'?"),
        ("refuse leed if card.trump", "rule-clause", 16, "did you mean 'lead'?"),
        ("refuse lead if trick.winner == me", "rule-context", 24, "a draw, the end of a trick"),
        ("refuse lead if led == hearts", "rule-context", 24, ""),
        ("draw card.strength", "rule-context", 14, ""),
        ("draw 2 if trick.size else 1", "rule-type", 19, ""),
        ("refuse card if trump == 2", "rule-type", 24, ""),
        ("score hand.winner.trcks", "rule-name", 27, "did you mean 'tricks'?"),
        ("drow 2", "rule-clause", 9, "did you mean 'draw'?"),
        ("draw 2 +", "rule-syntax", 17, ""),
        ("draw most(p in active: p.cards)", "rule-type", 14, ""),
        ("score maxx(p in active: p.cards)", "rule-name", 15, "did you mean 'max'?"),
        # `most` gives a seat, not the number a score is: it is not offered.
        ("score mostt(p in active: p.cards)", "rule-name", 15, "aggregates: any"),
        ("draw count(c in active: c.trump)", "rule-name", 35, ""),
        # A filter is a condition on the letter, checked where it is written.
        ("draw count(c in trick.winner.won where c.rank: c.trump)", "rule-type", 48, ""),
        ("score sum(p in active where q.tricks > 1: p.cards)", "rule-name", 37, ""),
        ("draw count(c in trick.winner.won where c.trumpp: c.trump)", "rule-name", 50, "'trump'"),
        ("draw count(c in held where: c.trump)", "rule-syntax", 35, ""),
        ("draw count(c in held where c.trump)", "rule-syntax", 43, ""),
        (
            "draw count(c in trick.winner.won whre c.strength > 5: c.trump)",
            "rule-syntax",
            42,
            "did you mean 'where'?",
        ),
        ("refuse lead if any(p in active where p == trick.winner: true)", "rule-context", 51, ""),
    ],
)
def test_a_bad_clause_is_one_error_at_its_column(tmp_path, clause, code, column, said):
    found = one_problem(tmp_path, clause)
    assert (found.line, found.column, found.code) == (3, column, code), found.text()
    assert said in found.hint


def shipped_clauses() -> list[str]:
    from rulesdsl.model.language.rule import RuleKind
    from rulesdsl.read.profile import shipped_files

    kinds = tuple(f"{kind} " for kind in RuleKind)
    lines = (line.strip() for f in shipped_files() for line in f.read_text().splitlines())
    return sorted({line for line in lines if line.startswith(kinds)})


def test_a_clause_cut_short_names_what_may_come_next_as_it_is_written(tmp_path):
    """Every shipped clause, cut after each of its words: a syntax error says the clause
    ends too soon and lists what may come as it is written (`(`, `where`, a name), never
    by the grammar's names for them (`lpar`, `WHERE`)."""
    grammar_names = {t.name.lower() for t in parser().terminals}
    cuts = {clause[: m.start()] for clause in shipped_clauses() for m in re.finditer(r" ", clause)}
    assert len(cuts) > 50
    for cut in sorted(cuts):
        for found in problems(profile(tmp_path, RULE.format(clause=cut))):
            if found.code != "rule-syntax":
                continue
            message = found.message
            assert message.startswith("unexpected end of the clause; expected "), message
            listed = message.split("; expected ", 1)[1].rstrip(".").split(", ")
            assert not grammar_names & {word.lower() for word in listed}, message


def test_a_filter_is_a_condition_on_the_letter_between_the_set_and_the_body():
    from rulesdsl.model.language import tree as ir
    from rulesdsl.model.language.vocab import Type, Where
    from rulesdsl.model.text import Pos
    from rulesdsl.read.language.compile import check_expression

    text = "most(p in active: count(c in p.won where c.trump and p.cards > 1: c.strength > 2))"
    outer = check_expression(text, Pos(1, 1), Where.END, Type.MAYBE_SEAT)
    assert isinstance(outer, ir.Over) and outer.where is None
    inner = outer.body
    assert isinstance(inner, ir.Over) and inner.where is not None
    assert ir.parts(inner) == (inner.base, inner.where, inner.body)
    assert [n.pos.column for n in ir.walk(inner)][:4] == [19, 30, 42, 42]  # p, where, c
    # The filter reads `c` (bound by the aggregate) and `p` (bound around it).
    assert inner.where.free == {outer.var, inner.var}
    assert inner.free == {outer.var} and outer.free == frozenset()
    assert (inner.where.pos.column, inner.where.pos.length) == (42, 23)
    assert (inner.body.pos.column, inner.body.pos.length) == (67, 14)


@pytest.mark.parametrize(
    "clause",
    [
        "draw count(where in seats: where.active)",
        "draw count(where in seats where where.cards > 1: where.active)",
        "score sum(p in seats where p.active and count(where in p.won: where.trump) > 0: 1)",
    ],
)
def test_where_is_a_letter_where_a_letter_stands(tmp_path, clause):
    """The word `where` is a keyword only after an aggregate's set: a rule that binds it
    as a letter reads as it did."""
    assert problems(profile(tmp_path, RULE.format(clause=clause))) == []


def test_a_type_error_names_both_types(tmp_path):
    found = one_problem(tmp_path, "refuse card if card.suit == 3")
    assert "a suit cannot be compared with a number" in found.message


def test_a_rule_of_no_kind_and_a_rule_of_two_kinds_are_refused(tmp_path):
    (found,) = problems(profile(tmp_path, '    rule r {\n        say en "x"\n    }\n'))
    assert found.code == "rule-shape"
    body = "    rule r {\n        draw 1\n        score 1\n    }\n"
    (found,) = problems(profile(tmp_path, body))
    assert (found.line, found.code) == (4, "rule-shape")


def test_an_end_rule_needs_a_winner_and_only_an_end_rule_takes_one(tmp_path):
    (found,) = problems(profile(tmp_path, "    rule r {\n        end after trick 3\n    }\n"))
    assert "needs a `winner`" in found.message
    body = "    rule r {\n        draw 1\n        winner trick.winner\n    }\n"
    (found,) = problems(profile(tmp_path, body))
    assert (found.line, found.message) == (4, "`winner` belongs to an end rule")


def test_say_takes_a_known_language(tmp_path):
    body = '    rule r {\n        draw 1\n        say fr "un"\n    }\n'
    (found,) = problems(profile(tmp_path, body))
    assert (found.line, found.column, found.code) == (4, 13, "rule-language")


def test_yaml_clauses_are_checked_with_positions_too(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(
        'profile: h\nextends: equal-hands\nrules:\n  r:\n    refuse: "lead if card.trumpp"\n'
    )
    clear_cache()
    (found,) = problems(path)
    assert (found.line, found.column, found.code) == (5, 27, "rule-name")


# inheritance by name


def test_a_child_adds_replaces_in_place_and_removes_rules_by_name(tmp_path):
    parent = "    rule a {\n        draw 2\n    }\n    rule b {\n        score 2\n    }\n"
    profile(tmp_path, parent, "p.rules")
    child = (
        "    rule a {\n        draw 3\n    }\n"
        "    rule b { removed }\n"
        "    rule c {\n        refuse lead if card.trump\n    }\n"
    )
    resolved = load_file(profile(tmp_path, child, "c.rules", parent="p.rules"))
    assert resolved.ok, [d.text() for d in resolved.diagnostics]
    assert [(s.name, s.origin, s.rule.clause("draw")) for s in resolved.house] == [
        ("a", "set", "3"),
        ("c", "set", None),
    ]


def test_an_inherited_rule_keeps_its_place_and_origin(tmp_path):
    profile(tmp_path, "    rule a {\n        draw 2\n    }\n", "p.rules")
    resolved = load_file(profile(tmp_path, "", "c.rules", parent="p.rules"))
    (setting,) = resolved.house
    assert (setting.origin, setting.profile, setting.line) == ("inherited", "p", 2)


def test_removing_a_rule_no_parent_states_is_an_error_with_a_hint(tmp_path):
    profile(tmp_path, "    rule overtrump {\n        draw 2\n    }\n", "p.rules")
    (found,) = problems(
        profile(tmp_path, "    rule overtrumps { removed }\n", "c.rules", "p.rules")
    )
    assert found.code == "unknown-rule" and "did you mean 'overtrump'?" in found.hint


def test_a_rule_stated_twice_in_one_file_is_an_error(tmp_path):
    body = "    rule a {\n        draw 2\n    }\n    rule a {\n        draw 3\n    }\n"
    (found,) = problems(profile(tmp_path, body))
    assert (found.line, found.code) == (5, "duplicate-rule")


# the tool honours them


@pytest.mark.parametrize(
    "command",
    [
        ("play", "--profile", "must-overtrump", "--bots", "lowest", "--seed", "1", "--json"),
        ("simulate", "time-limit", "--hands", "10", "--workers", "1"),
        ("compare", "equal-hands", "trumps-broken", "--hands", "10", "--workers", "1"),
        ("diverge", "equal-hands", "points-for-tricks", "--seed", "1"),
    ],
)
def test_commands_that_play_play_a_profile_with_rules(capsys, command):
    code, out, err = run(capsys, *command)
    assert code in (0, 1) and out and not err


def test_show_lists_the_rules_with_where_they_were_stated(capsys, tmp_path):
    path = profile(tmp_path, "    rule a {\n        draw 2\n    }\n", parent="time-limit")
    code, out, _ = run(capsys, "show", path)
    assert code == 0
    assert "rule time-limit  inherited from time-limit" in out
    assert "rule a  set in" in out and "draw 2" in out
    code, out, _ = run(capsys, "show", path, "--json")
    rules = json.loads(out)["rules"]
    assert [(r["name"], r["origin"], r["line"]) for r in rules] == [
        ("time-limit", "inherited", 6),
        ("a", "set", 2),
    ]


FILTERED = "least(p in active where p != trick.winner and p.played.suit == led: p.played.strength)"


def test_a_filter_is_written_canonically_shown_and_diffed(capsys, tmp_path):
    spaced = "least( p in active  where p!=trick.winner and p.played.suit==led :p.played.strength )"
    assert canonical(spaced) == FILTERED
    end = "        end after trick 8\n        winner {}\n"
    a = profile(tmp_path, "    rule a {\n" + end.format(spaced) + "    }\n")
    code, out, _ = run(capsys, "show", a)
    assert code == 0 and f"winner {FILTERED}" in out
    unfiltered = FILTERED.replace(" where p != trick.winner and p.played.suit == led", "")
    b = profile(tmp_path, "    rule a {\n" + end.format(unfiltered) + "    }\n", "k.rules")
    code, out, _ = run(capsys, "diff", a, b, "--format", "json")
    assert code == 1
    assert [(d["rule"], d["change"]) for d in json.loads(out)] == [("a", "changed")]
    as_yaml = tmp_path / "h.yaml"
    assert run(capsys, "convert", a, "--to", "yaml", "-o", as_yaml)[0] == 0
    clear_cache()
    assert [s.rule for s in load_file(as_yaml).house] == [s.rule for s in load_file(a).house]
    assert dict(load_file(as_yaml).house[0].rule.clauses)["winner"] == FILTERED


def test_diff_names_rules_added_removed_and_changed(capsys, tmp_path):
    a = profile(
        tmp_path, "    rule a {\n        draw 2\n    }\n    rule b {\n        score 3\n    }\n"
    )
    b = profile(
        tmp_path,
        "    rule a {\n        draw 4\n    }\n"
        "    rule c {\n        refuse lead if card.trump\n    }\n",
        "k.rules",
    )
    code, out, _ = run(capsys, "diff", a, b, "--format", "json")
    assert code == 1
    changes = [(d["rule"], d["change"]) for d in json.loads(out)]
    assert changes == [("a", "changed"), ("b", "removed"), ("c", "added")]
    code, out, _ = run(capsys, "diff", a, a)
    assert code == 0


@pytest.mark.parametrize("lang", ["en", "pt", "uk"])
def test_explain_gives_the_stated_sentence_else_one_made_from_the_rule(capsys, tmp_path, lang):
    path = profile(
        tmp_path,
        "    rule a {\n        draw 2 if trick.won_by_trump else 1\n    }\n",
        parent="time-limit",
    )
    code, out, _ = run(capsys, "explain", path, "--lang", lang, "--width", "200")
    assert code == 0
    stated = dict(load_file(path).house[0].rule.sentences)[lang]
    assert stated in out
    # The rule `a` gives no sentence: one is made from it, in the words of the language.
    trumped = phrases(lang).get("house", "words", "names", "trick.won_by_trump", "nom")
    assert "- a: " in out and trumped in out and "trick.won_by_trump" not in out


@pytest.mark.parametrize("lang", ["en", "pt", "uk"])
def test_every_part_of_the_rule_language_has_words_in_every_language(lang):
    words = phrases(lang).get("house", "words")
    assert set(words["names"]) == set(NAMES)
    assert set(words["attributes"]) == {attribute for _, attribute in ATTRIBUTES}
    assert set(words["aggregates"]) == set(Aggregate)
    assert set(words["sets"]) == {"where"}  # an aggregate's set with a filter (`where`)
    ops = {"not", "and", "or", "if", *COMPARISONS, "+", "-", "*", *CALLS, *FUNCTIONS}
    assert set(words["ops"]) == ops | {"is_none", "is_not_none"}  # a comparison with none


def test_the_schema_takes_the_yaml_form_of_rules_and_refuses_unknown_clauses():
    good = {"profile": "x", "rules": {"a": {"draw": "2", "say": {"en": "two"}}, "b": "removed"}}
    jsonschema.validate(good, profile_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"profile": "x", "rules": {"a": {"drow": "2"}}}, profile_schema())


# fmt and convert: the canonical layout, lossless both ways


def test_fmt_lays_rules_out_keeping_comments(capsys, tmp_path):
    path = tmp_path / "h.rules"
    path.write_text(
        'profile "h" {\n    rule a { # on a\n        say en "two"  # said\n'
        "        # why\n        draw 2\n    }\n    draw 1\n}\n"
    )
    assert run(capsys, "fmt", path)[0] == 0
    assert path.read_text() == (
        'profile "h" {\n    draw 1\n\n    rule a {  # on a\n        # why\n        draw 2\n'
        '        say en "two"  # said\n    }\n}\n'
    )


def test_comments_on_a_rules_closing_brace_are_kept_in_yaml_where_yaml_reads_them(tmp_path):
    text = (
        'profile "c" {\n    rule r {\n        draw 1\n        # before close\n    }  # closed\n'
        "    rule s {\n        score 2\n        # last\n    }  # done\n}\n"
    )
    as_yaml = write(read_document(Path("c.rules"), text), "yaml")
    assert as_yaml == (
        "profile: c\nrules:\n  r:\n    draw: 1\n  # before close\n  # closed\n  s:\n"
        "    score: 2\n# last\n# done\n"
    )
    # What YAML reads back is what the writer lays out: fmt leaves it as it is.
    assert write(read_document(Path("c.yaml"), as_yaml), "yaml") == as_yaml


# Names, among them words a YAML reader takes for a boolean or for nothing.
RULE_NAMES = st.one_of(
    st.from_regex(r"[a-z][a-z0-9\-]{0,8}", fullmatch=True),
    st.sampled_from(["null", "Null", "true", "False", "yes", "no", "on", "off", "y", "n"]),
)
CLAUSES = st.sampled_from(
    [
        ("refuse", "follow if card.trump and trick.has_trump and not card.beats_best"),
        ("refuse", "lead if card.trump and not hand.trump_played"),
        ("refuse", "card if card.suit == led or count(c in held: c.trump) > 2"),
        ("draw", "2 if trick.won_by_trump else 1"),
        ("score", "hand.winner.tricks"),
        ("end", "after trick 8"),
        ("end", "when stock.size == 0 and trick.number > 3"),
        ("draw", "count(c in trick.winner.won where c.trump: c.rank > jack)"),
        ("refuse", "follow if any(p in active where p != me: p.played.rank > card.rank)"),
    ]
)
# Any text a profile may hold: no control, bidirectional control or line separator.
SENTENCES = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")).filter(lambda c: not refusal(c)),
    max_size=20,
)


@st.composite
def rule_documents(draw) -> str:
    lines = ['profile "g" extends "equal-hands" {']
    for index, name in enumerate(draw(st.lists(RULE_NAMES, unique=True, max_size=4))):
        if draw(st.booleans()):
            lines.append(f"    # comment {index}")
        kind, text = draw(CLAUSES)
        lines += [f"    rule {name} {{", f"        {kind} {text}"]
        if kind == "end":
            lines.append("        winner most(p in active: p.cards)")
        for lang in draw(st.lists(st.sampled_from(["en", "pt", "uk"]), unique=True)):
            said = draw(SENTENCES).replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'        say {lang} "{said}"')
        lines.append("    }")
    return "\n".join([*lines, "}"]) + "\n"


@settings(max_examples=examples(60), deadline=None)
@given(rule_documents())
def test_convert_is_lossless_both_ways_for_rules(text):
    dsl = read_document(Path("g.rules"), text)
    assert dsl.ok, [d.text() for d in dsl.diagnostics]
    as_yaml = write(dsl, "yaml")
    back_yaml = read_document(Path("g.yaml"), as_yaml)
    assert back_yaml.ok, as_yaml
    assert isinstance(yaml.safe_load(as_yaml), dict)
    again = write(back_yaml, "dsl")
    assert again == write(dsl, "dsl")
    assert write(read_document(Path("g.rules"), again), "yaml") == as_yaml
    assert [(r.name, sorted((e.key, e.value, e.note) for e in r.entries)) for r in dsl.rules] == [
        (r.name, sorted((e.key, e.value, e.note) for e in r.entries)) for r in back_yaml.rules
    ]


def test_of_two_draw_counts_the_first_written_decides_and_the_later_is_a_warning(tmp_path):
    body = "    rule a {\n        draw 3\n    }\n"
    path = profile(tmp_path, body, parent="trump-wins-draw-two")
    assert not problems(path)
    (found,) = [d for d in load_file(path).diagnostics if d.code == "rule-conflict"]
    assert (found.line, found.column, found.code) == (2, 10, "rule-conflict")
    assert found.severity == "warning" and "never acts" in found.message
    from rulesdsl.model.contributions import model
    from rulesdsl.model.units.base import Step
    from rulesdsl.play.engine.plan import plan_for

    rules = load_file(path).rules
    assert plan_for(rules).draw_count.rule == "trump-wins-draw-two"
    assert [c.rule for c in model(rules).at(Step.DRAW_COUNT)] == ["trump-wins-draw-two"]


@pytest.mark.parametrize(
    ("count", "warned"),
    [
        ("1", False),
        ("2 if trick.won_by_trump else 1", True),
        ("min(trick.size, 1)", False),
        ("stock.size", True),
    ],
)
def test_a_draw_rule_that_can_draw_a_trick_back_with_reshuffle_is_flagged(tmp_path, count, warned):
    body = f"    exhaustion reshuffle\n    rule a {{\n        draw {count}\n    }}\n"
    found = load_file(profile(tmp_path, body)).diagnostics
    assert [d.code for d in found if d.code == "endless-hand"] == (
        ["endless-hand"] if warned else []
    )


HOUSE_RULES = (Path(__file__).parents[2] / "docs" / "house-rules.md").read_text(encoding="utf-8")


def docs_block(start: str) -> str:
    """The indented block of docs/house-rules.md that starts with `start` (blank lines
    included)."""
    begin = HOUSE_RULES.index(start)
    end = re.compile(r"\n\n(?! {4})").search(HOUSE_RULES, begin).start()
    block = HOUSE_RULES[begin:end]
    return "\n".join(line.removeprefix("    ") for line in block.split("\n")) + "\n"


def test_the_docs_examples_of_rules_read_the_same_in_both_syntaxes(tmp_path):
    dsl = tmp_path / "kitchen.rules"
    dsl.write_text(docs_block('    profile "kitchen"'))
    yml = tmp_path / "kitchen.yaml"
    yml.write_text("profile: kitchen\nextends: equal-hands\n" + docs_block("    rules:\n"))
    clear_cache()
    a, b = load_file(dsl), load_file(yml)
    assert a.ok and b.ok, [d.text() for d in (*a.diagnostics, *b.diagnostics)]
    assert [s.rule for s in a.house] == [s.rule for s in b.house]


def test_the_docs_examples_of_a_filter_check(tmp_path):
    lines = docs_block("    also_draws least(").strip().split("\n")
    assert len(lines) == 3 and all(" where " in line for line in lines)
    body = "".join(f"    rule r{k} {{\n        {r}\n    }}\n" for k, r in enumerate(lines))
    resolved = load_file(profile(tmp_path, body))
    assert resolved.ok, [d.text() for d in resolved.diagnostics]
    said = phrases("en").get("house", "words", "sets", "where").split("{")[1].split("}")[1]
    assert said.strip() in HOUSE_RULES  # "such that", as `explain` says it


def test_the_docs_name_every_name_and_attribute_of_the_rule_language():
    text = HOUSE_RULES
    for name in [*NAMES, *(attribute for _, attribute in ATTRIBUTES), *Aggregate]:
        assert f"`{name}`" in text or f".{name}`" in text or f"`{name} " in text, name


@pytest.mark.parametrize(
    "clause",
    ["refuse card if " + "not " * 60 + "true", "draw 1" + " + 1" * 300, "draw " + "1" * 1200],
)
def test_a_clause_too_deep_or_too_long_is_one_error_not_a_crash(tmp_path, clause):
    assert one_problem(tmp_path, clause).code == "rule-size"


@settings(max_examples=examples(150), deadline=None)
@given(
    st.sampled_from(["refuse", "draw", "score", "end", "winner", "say", "removed", "x"]),
    st.lists(
        st.sampled_from([*"abc ()+-*=<>!:.,1 ", "if ", "in ", "card", "trick.", "any("]),
        max_size=30,
    ).map("".join),
)
def test_any_clause_text_is_read_or_refused_with_a_position(kind, text):
    from rulesdsl.model.text import Pos
    from rulesdsl.read.diagnostics import Located
    from rulesdsl.read.language.compile import compile_rule
    from rulesdsl.read.syntax.document import Entry, RuleBlock

    entries = [Entry(kind, text, Pos(2, 9), Pos(2, 10 + len(kind)))]
    if kind == "end":
        entries.append(Entry("winner", text, Pos(3, 9), Pos(3, 16)))
    rule, found = compile_rule(RuleBlock("r", Pos(1, 6), tuple(entries), 4), Located("x", ""))
    assert (rule is None) == any(d.is_error for d in found)
    assert all(d.line >= 1 and d.column >= 1 for d in found)


@pytest.mark.parametrize(
    ("rules", "line", "code"),
    [
        ("  r:\n    draw: 1\n    say: two\n", 6, "yaml-shape"),
        ("  r:\n    removed: true\n", 5, "rule-clause"),
        ("  r: [draw]\n", 4, "yaml-shape"),
        ("  2r:\n    draw: 1\n", 4, "rule-name"),
        # A part left out is the rule's one problem: the rule is not compiled without it.
        ('  r:\n    refuse "lead if card.trump"\n', 5, "yaml-shape"),
        ("  r:\n    draw: 1\n    draw: 2\n", 6, "duplicate-key"),
        ("  r:\n    draw: 1\n    say: {en: a, en: b}\n", 6, "duplicate-key"),
        ("  r:\n    end: after trick 2\n    winner: true\n", 6, "yaml-type"),
        # A rule's name at the left margin: one mistake, not an empty `rules` and an option.
        ("r:\n    draw: 1\n", 4, "yaml-shape"),
    ],
)
def test_the_yaml_form_of_a_rule_is_refused_when_misshapen(tmp_path, rules, line, code):
    path = tmp_path / "h.yaml"
    path.write_text("profile: h\nextends: equal-hands\nrules:\n" + rules)
    clear_cache()
    (found,) = problems(path)
    assert (found.line, found.code) == (line, code), found.text()


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ('"draw 1 # one"', "rule-syntax"),
        ("'draw {1}'", "rule-syntax"),
        ('"a \\"b\\""', "rule-syntax"),
        ('"a\\nb"', "multi-line"),
        ('"a\\u202eb"', "bidi-control"),
        ("true", "yaml-type"),
        ("[a, b]", "yaml-shape"),
    ],
)
def test_a_yaml_clause_holding_what_no_clause_can_is_refused(tmp_path, value, code):
    path = tmp_path / "h.yaml"
    path.write_text(f"profile: h\nrules:\n  r:\n    draw: {value}\n")
    doc = read_document(path, path.read_text())
    assert [d.code for d in doc.diagnostics] == [code]


# The canonical spacing of a clause reads as the clause does


SPACED = [
    ["card", "==", "10H", "and", "card", "!=", "2C"],
    ["card_of", "(", "me", ",", "previous", ")", ".", "suit", "==", "hearts"],
    ["card", ".", "rank", ">=", "jack", "or", "card", "==", "QS"],
    ["count", "(", "c", "in", "hand", ".", "played", ":", "c", "==", "10D", ")", ">", "1"],
    ["trick", ".", "number", "==", "10", "and", "card", "!=", "TS"],
]


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(SPACED), st.lists(st.sampled_from(["", " ", "   "]), min_size=20))
def test_the_canonical_spacing_of_a_clause_reads_as_the_clause(tokens, gaps):
    """Any spacing that keeps the words apart reads as the clause, and so does its
    canonical spacing: a card named (`10H`) is one word, never a number and a letter."""
    text = tokens[0]
    for token, gap in zip(tokens[1:], gaps, strict=False):
        words = text[-1].isalnum() and token[0].isalnum()
        text += (gap or " " if words else gap) + token
    written = " ".join(tokens)
    assert canonical(text) == canonical(written)
    assert parser().parse(canonical(text), start="expr") == parser().parse(written, start="expr")
