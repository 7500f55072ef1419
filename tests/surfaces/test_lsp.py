"""The language server, driven over stdio by pygls' own client: one server for the module."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from rulesdsl.model.language.vocab import ATTRIBUTES, NAMES, Aggregate, Type, Where
from rulesdsl.read.profile import SHIPPED, load_file, read_document, short_path
from rulesdsl.service import checked_file, rewrite
from rulesdsl.words.explain import house_sentence, phrases

WAIT = 20.0


class Session:
    """A client talking to one `rulesdsl lsp`; every published diagnostic is kept."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulesdsl-tests", "1")
        self.published: list[lsp.PublishDiagnosticsParams] = []
        self.versions: dict[str, int] = {}
        published = self.published

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: lsp.PublishDiagnosticsParams) -> None:
            published.append(params)

    def run(self, work):
        return self.loop.run_until_complete(asyncio.wait_for(work, WAIT))

    def start(self, capabilities: lsp.ClientCapabilities | None = None) -> None:
        self.run(self.client.start_io(sys.executable, "-m", "rulesdsl.surfaces", "lsp"))
        capabilities = capabilities or lsp.ClientCapabilities()
        self.run(self.client.initialize_async(lsp.InitializeParams(capabilities=capabilities)))
        self.client.initialized(lsp.InitializedParams())

    def stop(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()

    def wait_for(self, found: Callable[[], object]):
        async def poll():
            while not (result := found()):
                await asyncio.sleep(0.005)
            return result

        return self.run(poll())

    def diagnostics(self, uri: str, version: int | None = None) -> list[lsp.Diagnostic]:
        """The diagnostics published for the document (at `version`, when given)."""

        def latest():
            for params in reversed(self.published):
                if params.uri == uri and (version is None or params.version == version):
                    return params

        return list(self.wait_for(latest).diagnostics)

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        text = path.read_text() if text is None else text
        self.versions[uri] = 1
        language = "rules" if path.suffix == ".rules" else "yaml"
        item = lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole unsaved text; the new version."""
        self.versions[uri] += 1
        version = self.versions[uri]
        document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
        change = lsp.TextDocumentContentChangeWholeDocument(text=text)
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
        )
        return version

    def close(self, uri: str) -> None:
        document = lsp.TextDocumentIdentifier(uri=uri)
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=document))


@pytest.fixture(scope="module")
def session():
    started = Session()
    started.start()
    yield started
    started.stop()


@pytest.fixture
def folder(tmp_path):
    return tmp_path


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


def at(line: int, character: int) -> lsp.Position:
    return lsp.Position(line=line, character=character)


def spans(diagnostics: list[lsp.Diagnostic]) -> list[tuple]:
    return [
        (
            d.code,
            d.severity,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
        )
        for d in diagnostics
    ]


def expected(path: Path) -> list[tuple]:
    """What `validate` says of the saved file, as protocol ranges (0-based, end excluded)."""
    severity = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
    return [
        (
            d.code,
            severity[d.severity],
            d.line - 1,
            d.column - 1,
            d.line - 1,
            d.column - 1 + d.length,
        )
        for d in checked_file(path).diagnostics
    ]


def apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """The text with the edits made (ASCII text: columns are code points)."""
    lines = text.splitlines(keepends=True)

    def offset(position: lsp.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


BROKEN = """\
profile "broken" extends "equal-hands" {
    trump none
    opening_lead trump_if_able
    hand_size plyers + 1
    elimination immediat
    colour red
}
"""


def test_diagnostics_have_the_codes_and_ranges_validate_gives(session, folder):
    path = folder / "broken.rules"
    path.write_text(BROKEN)
    uri = session.open(path)
    got = session.diagnostics(uri, 1)
    assert spans(got) == expected(path)
    assert {d.code for d in got} == {"bad-value", "unknown-option", "never-applies"}
    fixed = BROKEN.replace("plyers", "players").replace("immediat", "immediate")
    fixed = fixed.replace("    colour red\n", "")
    version = session.change(uri, fixed)
    path.write_text(fixed)
    # A warning comes through with its range, as validate reports it.
    again = session.diagnostics(uri, version)
    assert spans(again) == expected(path)
    assert [(d.code, d.severity) for d in again] == [
        ("never-applies", lsp.DiagnosticSeverity.Warning)
    ]
    session.close(uri)


def test_the_unsaved_text_is_checked_not_the_file(session, folder):
    path = folder / "draft.rules"
    path.write_text(BROKEN)
    uri = session.open(path, 'profile "draft" extends "bicycle" {\n    draw 2\n}\n')
    assert session.diagnostics(uri, 1) == []
    version = session.change(uri, 'profile "draft" extends "bicycle" {\n    draw two\n}\n')
    (problem,) = session.diagnostics(uri, version)
    assert (problem.code, problem.range.start, problem.range.end) == (
        "bad-value",
        at(1, 9),
        at(1, 12),
    )
    assert path.read_text() == BROKEN
    session.close(uri)


def test_an_incremental_change_is_applied_to_the_text_checked(session, folder):
    uri = session.open(folder / "step.rules", 'profile "step" {\n    draw 2\n}\n')
    assert session.diagnostics(uri, 1) == []
    session.versions[uri] = 2
    document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=2)
    change = lsp.TextDocumentContentChangePartial(
        range=lsp.Range(start=at(1, 9), end=at(1, 10)), text="two"
    )
    session.client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
    )
    (problem,) = session.diagnostics(uri, 2)
    assert (problem.code, problem.range.start, problem.range.end) == (
        "bad-value",
        at(1, 9),
        at(1, 12),
    )
    session.close(uri)


def test_a_buffer_that_is_no_profile_gets_its_diagnostic_and_no_features(session):
    uri = "untitled:Untitled-1"
    item = lsp.TextDocumentItem(uri=uri, language_id="rules", version=1, text="profile \0 {\n")
    session.client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
    (problem,) = session.diagnostics(uri, 1)
    assert problem.code == "binary"
    symbols = lsp.DocumentSymbolParams(text_document=doc(uri))
    assert session.run(session.client.text_document_document_symbol_async(symbols)) == []
    hover = lsp.HoverParams(text_document=doc(uri), position=at(0, 2))
    assert session.run(session.client.text_document_hover_async(hover)) is None
    assert actions(session, uri, 0, 1) == {}
    session.close(uri)


def test_a_change_to_an_open_parent_checks_its_open_children_again(session, folder):
    parent = folder / "parent.rules"
    child = folder / "child.yaml"
    parent.write_text('profile "parent" {\n    draw 2\n}\n')
    child.write_text("profile: child\nextends: parent.rules\nelimination: immediate\n")
    parent_uri = session.open(parent)
    child_uri = session.open(child)
    assert session.diagnostics(child_uri, 1) == []
    count = len(session.published)
    session.change(parent_uri, 'profile "parent" {\n    draw lots\n}\n')
    session.wait_for(lambda: any(p.uri == child_uri for p in session.published[count:]))
    (problem,) = session.diagnostics(child_uri)
    assert problem.code == "bad-parent"
    assert (problem.range.start, problem.range.end) == (at(1, 9), at(1, 21))
    # Closed, the parent is read from disk again, where it has no error.
    count = len(session.published)
    session.close(parent_uri)
    session.wait_for(lambda: any(p.uri == child_uri for p in session.published[count:]))
    assert session.diagnostics(child_uri) == []
    session.close(child_uri)


def test_a_parent_changed_on_disk_checks_its_open_children_again(session, folder):
    parent = folder / "disk.rules"
    parent.write_text('profile "disk" {\n    draw 2\n}\n')
    child_uri = session.open(folder / "on-disk.rules", 'profile "c" extends "disk.rules" {\n}\n')
    assert session.diagnostics(child_uri, 1) == []
    parent.write_text('profile "disk" {\n    draw lots\n}\n')
    count = len(session.published)
    change = lsp.FileEvent(uri=from_fs_path(str(parent)), type=lsp.FileChangeType.Changed)
    session.client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[change])
    )
    session.wait_for(lambda: any(p.uri == child_uri for p in session.published[count:]))
    assert [d.code for d in session.diagnostics(child_uri)] == ["bad-parent"]
    session.close(child_uri)


def test_a_client_that_watches_files_is_asked_to_watch_the_profiles():
    watching = Session()
    asked: list[lsp.RegistrationParams] = []

    @watching.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        asked.append(params)

    files = lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    workspace = lsp.WorkspaceClientCapabilities(did_change_watched_files=files)
    watching.start(lsp.ClientCapabilities(workspace=workspace))
    try:
        watching.wait_for(lambda: asked)
    finally:
        watching.stop()
    (registration,) = asked[0].registrations
    assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
    # The options arrive as plain JSON: their type depends on the method.
    globs = [w["globPattern"] for w in registration.register_options["watchers"]]
    assert globs == ["**/*.rules", "**/*.yaml", "**/*.yml"]


def test_yaml_profiles_get_diagnostics_with_their_ranges(session, folder):
    path = folder / "yes.yaml"
    path.write_text("profile: yes-profile\nextends: equal-hands\nmust_head: yes\ntrump: hart\n")
    uri = session.open(path)
    got = session.diagnostics(uri, 1)
    assert spans(got) == expected(path)
    assert [d.code for d in got] == ["yaml-boolean", "bad-value"]
    session.close(uri)


def test_columns_are_counted_in_the_clients_units(session, folder):
    # A flow mapping puts the bad value after a character outside the BMP: two UTF-16 units.
    text = 'profile: wide\nall_out: {note: "\U0001d11e", value: last_trik_winner}\n'
    path = folder / "wide.yaml"
    uri = session.open(path, text)
    (problem,) = session.diagnostics(uri, 1)
    start = text.splitlines()[1].index("last_trik")
    assert problem.range.start == at(1, start + 1)
    assert problem.range.end == at(1, start + 1 + len("last_trik_winner"))
    session.close(uri)


def labels(session, uri: str, position: lsp.Position) -> list[str]:
    params = lsp.CompletionParams(text_document=doc(uri), position=position)
    return [
        item.label
        for item in session.run(session.client.text_document_completion_async(params)).items
    ]


def test_completion_offers_names_values_and_shipped_profiles(session, folder):
    text = 'profile "c" extends "bi\n    \n    trump \n    assumed \n}\n'
    uri = session.open(folder / "complete.rules", text)
    assert "bicycle" in labels(session, uri, at(0, 23))
    names = labels(session, uri, at(1, 4))
    assert {"hand_size", "trump", "title", "assumed"} <= set(names)
    assert labels(session, uri, at(2, 10)) == [
        "dealer_last_card",
        "stock_turnup",
        "stock_bottom",
        "none",
        "clubs",
        "diamonds",
        "hearts",
        "spades",
    ]
    assert "assumed" not in labels(session, uri, at(3, 12))
    session.close(uri)
    yaml_text = "profile: c\nextends: \nexhaustion: \nmatch:\n  value: \n  \n"
    yaml_uri = session.open(folder / "complete.yaml", yaml_text)
    assert "equal-hands" in labels(session, yaml_uri, at(1, 9))
    assert labels(session, yaml_uri, at(2, 12)) == [
        "last_draw_wins",
        "play_out",
        "reshuffle",
        "most_tricks",
    ]
    assert labels(session, yaml_uri, at(4, 9)) == ["target", "hands"]
    assert labels(session, yaml_uri, at(5, 2)) == ["value", "assumed", "note"]
    assert "hand_size" in labels(session, yaml_uri, at(3, 0))
    session.close(yaml_uri)


CHILD = """\
profile "child" extends "bicycle" {
    draw 2
    exhaustion play_out
}
"""


def test_hover_tells_the_option_and_where_its_value_comes_from(session, folder):
    uri = session.open(folder / "hover.rules", CHILD)
    params = lsp.HoverParams(text_document=doc(uri), position=at(2, 6))
    text = session.run(session.client.text_document_hover_async(params)).contents.value
    bicycle = (SHIPPED / "bicycle.rules").read_text().splitlines()
    line = next(i for i, t in enumerate(bicycle, 1) if "exhaustion" in t)
    assert "**exhaustion**: what happens as the stock runs out" in text
    assert "default: `last_draw_wins`" in text
    assert "`play_out`, stated, in child" in text
    assert "`play_out`, assumed, in bicycle (" in text and f"bicycle.rules:{line}):" in text
    assert "silent; play on without drawing" in text
    params = lsp.HoverParams(text_document=doc(uri), position=at(0, 27))
    parent = session.run(session.client.text_document_hover_async(params)).contents.value
    assert "chain: equal-hands -> bicycle" in parent
    session.close(uri)


def test_hover_reads_the_chain_from_open_buffers_and_files(session, folder):
    top, middle = folder / "top.rules", folder / "middle.yaml"
    top.write_text('profile "top" {\n    draw 3\n}\n')
    middle.write_text("profile: middle\nextends: top.rules\nelimination: immediate\n")
    top_uri = session.open(top, 'profile "top" {\n    assumed draw 4 "unsaved"\n}\n')
    uri = session.open(
        folder / "bottom.rules", 'profile "b" extends "middle.yaml" {\n    draw 2\n}\n'
    )
    params = lsp.HoverParams(text_document=doc(uri), position=at(1, 5))
    text = session.run(session.client.text_document_hover_async(params)).contents.value
    places = [line for line in text.splitlines() if line.startswith("- ")]
    assert places == [
        f"- `2`, stated, in b ({folder / 'bottom.rules'}:2)",
        f"- `4`, assumed, in top ({top}:2): unsaved",
    ]
    session.close(uri)
    session.close(top_uri)


def test_definition_goes_to_the_parent_and_to_where_the_value_was_set(session, folder):
    uri = session.open(folder / "definition.rules", CHILD)
    params = lsp.DefinitionParams(text_document=doc(uri), position=at(0, 27))
    place = session.run(session.client.text_document_definition_async(params))
    assert place.uri == from_fs_path(str((SHIPPED / "bicycle.rules").resolve()))
    params = lsp.DefinitionParams(text_document=doc(uri), position=at(1, 5))
    place = session.run(session.client.text_document_definition_async(params))
    bicycle = (SHIPPED / "bicycle.rules").read_text().splitlines()
    assert bicycle[place.range.start.line].strip() == "draw 1"
    session.close(uri)


def test_formatting_gives_what_fmt_writes(session, folder):
    text = '# top\nprofile "f" extends "bicycle" {\n  draw 2  # two\n      trump hearts\n}\n'
    path = folder / "format.rules"
    uri = session.open(path, text)
    params = lsp.DocumentFormattingParams(
        text_document=doc(uri), options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)
    )
    edits = session.run(session.client.text_document_formatting_async(params))
    wanted = rewrite(read_document(path, text), "dsl", path)
    assert apply(text, edits) == wanted != text
    session.close(uri)


def actions(session, uri: str, first: int, last: int) -> dict[str, list[lsp.TextEdit]]:
    params = lsp.CodeActionParams(
        text_document=doc(uri),
        range=lsp.Range(start=at(first, 0), end=at(last, 0)),
        context=lsp.CodeActionContext(diagnostics=[]),
    )
    found = session.run(session.client.text_document_code_action_async(params))
    return {a.title: a.edit.changes[uri] for a in found}


def test_code_actions_apply_every_did_you_mean(session, folder):
    path = folder / "fixes.rules"
    uri = session.open(path, BROKEN.replace("equal-hands", "bicycel"))
    session.diagnostics(uri, 1)
    found = actions(session, uri, 0, 6)
    fixes = {t: e for t, e in found.items() if t.startswith("Replace")}
    assert set(fixes) == {
        "Replace with 'bicycle'",
        "Replace with 'players'",
        "Replace with 'immediate'",
    }
    text = apply(BROKEN.replace("equal-hands", "bicycel"), [e for es in fixes.values() for e in es])
    fixed = BROKEN.replace("equal-hands", "bicycle").replace("plyers", "players")
    assert text == fixed.replace("immediat", "immediate")
    session.close(uri)


def test_code_actions_mark_a_value_assumed_in_either_syntax(session, folder):
    rules = folder / "assume.rules"
    uri = session.open(rules, CHILD)
    found = actions(session, uri, 1, 1)
    text = apply(CHILD, found["Mark draw as assumed"])
    assert "    assumed draw 2\n" in text and "exhaustion" not in found
    session.close(uri)
    yaml_text = "profile: y\nextends: bicycle\ndraw: 2\nmatch:\n  value: target 5\n  note: ours\n"
    path = folder / "assume.yaml"
    uri = session.open(path, yaml_text)
    found = actions(session, uri, 2, 5)
    text = apply(yaml_text, found["Mark draw as assumed"] + found["Mark match as assumed"])
    path.write_text(text)
    settings = load_file(path).settings
    assert settings["draw"].assumed and settings["match"].assumed
    assert settings["match"].note == "ours" and settings["draw"].text == "2"
    session.close(uri)


def test_document_symbols_list_the_profile_and_its_statements(session, folder):
    uri = session.open(folder / "symbols.rules", CHILD)
    params = lsp.DocumentSymbolParams(text_document=doc(uri))
    (root,) = session.run(session.client.text_document_document_symbol_async(params))
    assert (root.name, root.detail) == ("child", "extends bicycle")
    assert [(s.name, s.detail) for s in root.children] == [
        ("draw", "2"),
        ("exhaustion", "play_out"),
    ]
    assert root.children[0].selection_range == lsp.Range(start=at(1, 4), end=at(1, 8))
    session.close(uri)


def test_a_message_that_is_not_json_is_one_line_on_stderr():
    result = subprocess.run(
        [sys.executable, "-m", "rulesdsl.surfaces", "lsp"],
        input=b"Content-Length: 5\r\n\r\n{bad}",
        capture_output=True,
        timeout=WAIT,
    )
    assert result.returncode == 0
    (line,) = result.stderr.decode().splitlines()
    assert line.startswith("rulesdsl lsp: error: ") and "Expecting property name" in line
    assert b"window/showMessage" in result.stdout


def framed(*messages: dict) -> bytes:
    """JSON-RPC messages as the protocol frames them on stdio."""
    out = b""
    for message in messages:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


def unframed(data: bytes) -> list[dict]:
    """The JSON-RPC messages of a framed stream."""
    found = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
        found.append(json.loads(rest[:length]))
        data = rest[length:]
    return found


OPENED = {
    "method": "textDocument/didOpen",
    "params": {
        "textDocument": {
            "uri": "file:///nonexistent/p.rules",
            "languageId": "rules",
            "version": 1,
            "text": 'profile "p" {\n    draw 2\n}\n',
        }
    },
}


@pytest.mark.parametrize(("shutdown", "status"), [(True, 0), (False, 1)])
def test_the_server_exits_on_exit_with_the_protocols_status(shutdown, status):
    """`exit` after `shutdown` ends the process with 0 (without it, 1), and no traceback."""
    messages = [
        {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"method": "initialized", "params": {}},
        OPENED,
        {
            "id": 2,
            "method": "textDocument/hover",
            "params": {
                "textDocument": {"uri": OPENED["params"]["textDocument"]["uri"]},
                "position": {"line": 1, "character": 5},
            },
        },
        *([{"id": 3, "method": "shutdown"}] if shutdown else []),
        {"method": "exit"},
    ]
    result = subprocess.run(
        [sys.executable, "-m", "rulesdsl.surfaces", "lsp"],
        input=framed(*messages),
        capture_output=True,
        timeout=WAIT,
    )
    assert (result.returncode, result.stderr) == (status, b"")
    answers = {m["id"]: m for m in unframed(result.stdout) if "id" in m}
    assert "draw" in answers[2]["result"]["contents"]["value"]
    if shutdown:
        assert answers[3] == {"jsonrpc": "2.0", "id": 3, "result": None}


def test_lsp_without_pygls_says_how_to_install_it():
    code = (
        "import sys; sys.modules['pygls'] = None; from rulesdsl.surfaces.main import main; "
        "sys.exit(main(['lsp']))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr == (
        "rulesdsl: error: the language server needs pygls: pip install 'rulesdsl[lsp]'\n"
    )


HOUSE = """\
profile "house" extends "equal-hands" {
    draw 1
    rule first-lead {
        refuse lead if card.trumpp and trick.number == 1
        say en "No trump may lead the first trick."
    }
}
"""


DEAD = """\
profile "dead" extends "equal-hands" {
    exhaustion play_out
}
"""


def test_a_profile_stating_a_rule_gets_its_diagnostics_and_lists_the_rule(session, folder):
    path = folder / "house.rules"
    path.write_text(HOUSE)
    uri = session.open(path)
    got = session.diagnostics(uri, 1)
    assert spans(got) == expected(path)
    assert [(d.code, d.range.start.line) for d in got] == [("rule-name", 3)]
    params = lsp.DocumentSymbolParams(text_document=doc(uri))
    (root,) = session.run(session.client.text_document_document_symbol_async(params))
    assert [s.name for s in root.children] == ["draw", "first-lead"]
    rule = root.children[1]
    assert rule.selection_range == lsp.Range(start=at(2, 9), end=at(2, 19))
    assert (rule.range.start.line, rule.range.end.line) == (2, 5)
    assert [(c.name, c.detail) for c in rule.children] == [
        ("refuse", "lead if card.trumpp and trick.number == 1"),
        ("say", "en"),
    ]
    session.close(uri)


def test_completion_in_a_rule_offers_its_clauses_and_the_rule_language(session, folder):
    text = 'profile "c" {\n    rule r {\n        \n        refuse \n        draw 2 if \n    }\n'
    text += "    \n}\n"
    uri = session.open(folder / "rule.rules", text)
    assert labels(session, uri, at(2, 8)) == [
        "refuse",
        "draw",
        "score",
        "end",
        "lead",
        "out",
        "also_draws",
        "winner",
        "removed",
        "say",
    ]
    assert labels(session, uri, at(3, 15)) == ["lead", "follow", "card"]
    # A condition at a draw: what has a value there, and no play, card or hand's winner.
    names = labels(session, uri, at(4, 18))
    assert {"trick.won_by_trump", "drawer", "most", "any", "trick.number"} <= set(names)
    assert not {"lead", "card", "me", "allowed", "beats_best", "hand.winner"} & set(names)
    # Past the rule's closing brace, the options again.
    assert "hand_size" in labels(session, uri, at(6, 4))
    session.close(uri)
    yaml_text = "profile: c\nrules:\n  r:\n    \n    end: when \n    say:\n      \ntrump: \n"
    yaml_uri = session.open(folder / "rule.yaml", yaml_text)
    assert labels(session, yaml_uri, at(3, 4)) == [
        "refuse",
        "draw",
        "score",
        "end",
        "lead",
        "out",
        "also_draws",
        "winner",
        "say",
    ]
    assert "trick.number" in labels(session, yaml_uri, at(4, 14))
    assert labels(session, yaml_uri, at(6, 6)) == []
    assert "clubs" in labels(session, yaml_uri, at(7, 7))
    session.close(yaml_uri)


def test_completion_in_a_clause_offers_only_what_has_a_value_at_its_place(session, folder):
    text = 'profile "c" {\n    rule s {\n        score \n    }\n    rule d {\n        draw \n'
    text += "    }\n}\n"
    uri = session.open(folder / "places.rules", text)
    score = set(labels(session, uri, at(2, 14)))
    assert {"hand.winner", "players", "count", "sum"} <= score
    assert not {"card", "me", "allowed", "held", "drawer", "trick.number", "any"} & score
    draw = set(labels(session, uri, at(5, 13)))
    assert {"drawer", "trick.winner", "trick.size"} <= draw
    assert not {"me", "card", "hand.winner"} & draw
    session.close(uri)
    yaml_text = "profile: c\nrules:\n  s:\n    score: \n"
    yaml_uri = session.open(folder / "places.yaml", yaml_text)
    assert set(labels(session, yaml_uri, at(3, 11))) == score
    session.close(yaml_uri)


def test_a_did_you_mean_that_would_not_check_is_neither_said_nor_offered(session, folder):
    """`drawer` is close to `dealer`, but has no value at a lead: no hint, no code action.
    At a draw it checks, and is offered."""
    text = 'profile "p" {\n    rule r {\n        refuse lead if me == dealer\n    }\n}\n'
    uri = session.open(folder / "dealer.rules", text)
    (problem,) = session.diagnostics(uri, 1)
    assert problem.code == "rule-name" and "did you mean" not in problem.message
    assert problem.data is None
    assert actions(session, uri, 2, 3) == {}
    drawn = text.replace("refuse lead if me == dealer", "draw 2 if drawer == dealer else 1")
    version = session.change(uri, drawn)
    (problem,) = session.diagnostics(uri, version)
    assert problem.data == {"replacement": "drawer"}
    (fix,) = actions(session, uri, 2, 3).values()
    assert apply(drawn, fix) == drawn.replace("== dealer", "== drawer")
    session.close(uri)


def test_a_rule_that_never_acts_is_warned_about_and_hover_gives_the_proof(session, folder):
    path = folder / "dead.rules"
    path.write_text(DEAD)
    uri = session.open(path)
    got = session.diagnostics(uri, 1)
    assert spans(got) == expected(path)
    assert [(d.code, d.severity) for d in got] == [("dead-rule", lsp.DiagnosticSeverity.Warning)]
    params = lsp.HoverParams(text_document=doc(uri), position=at(1, 6))
    text = session.run(session.client.text_document_hover_async(params)).contents.value
    assert "reach: never comes into play with 3\u20136 players: the stock always keeps" in text
    session.close(uri)
    live = session.open(
        folder / "live.rules", 'profile "live" extends "equal-hands" {\n    draw 2\n}\n'
    )
    params = lsp.HoverParams(text_document=doc(live), position=at(1, 5))
    text = session.run(session.client.text_document_hover_async(params)).contents.value
    assert "reach: the count model does not rule it out" in text
    session.close(live)


def hover_text(session, uri: str, position: lsp.Position) -> str | None:
    params = lsp.HoverParams(text_document=doc(uri), position=position)
    found = session.run(session.client.text_document_hover_async(params))
    return found.contents.value if found is not None else None


def definition_of(session, uri: str, position: lsp.Position) -> lsp.Location | None:
    params = lsp.DefinitionParams(text_document=doc(uri), position=position)
    return session.run(session.client.text_document_definition_async(params))


def generated(path: Path, name: str) -> str:
    """The sentence `explain` says of the file's rule."""
    profile = load_file(path)
    (rule,) = [s.rule for s in profile.house if s.name == name]
    return house_sentence(rule, phrases("en"), profile.rules.deck)


STATED = """\
profile "stated" extends "equal-hands" {
    trump hearts
    rule first-lead {
        refuse lead if card.trump and trick.number == 1
        say en "No trump may lead the first trick."
    }
    rule two-for-trumps {
        draw 2 if trick.won_by_trump else 1
    }
}
"""


def test_hover_on_a_stated_rule_gives_its_sentence_step_and_reach(session, folder):
    path = folder / "stated.rules"
    path.write_text(STATED)
    uri = session.open(path)
    assert session.diagnostics(uri, 1) == []
    on_name = hover_text(session, uri, at(2, 12))
    assert on_name.splitlines()[0] == "**rule** first-lead: No trump may lead the first trick."
    assert "acts at: step 1, the cards the leader may lead (`lead_filter`)" in on_name
    assert "reach: the count model does not rule it out" in on_name
    # On a clause, the same; on a name of the rule language, what it means first.
    on_clause = hover_text(session, uri, at(3, 8))
    assert on_clause == on_name
    on_word = hover_text(session, uri, at(3, 31)).splitlines()
    assert on_word[0] == "`card.trump`: it is a trump (a condition)"
    assert on_word[2:] == on_name.splitlines()
    assert hover_text(session, uri, at(3, 27)).startswith("`card`: the card the rule decides on")
    # A rule with no English sentence of its own is said from its clauses.
    drawn = hover_text(session, uri, at(6, 10))
    assert drawn.splitlines()[0] == "**rule** " + generated(path, "two-for-trumps")
    assert "2 if the trick was won by a trump, else 1" in drawn
    assert "step 4, how many cards a drawer takes (`draw_count`)" in drawn
    session.close(uri)


def test_hover_on_a_stated_rule_that_never_acts_gives_the_proof(session, folder):
    # Four players are dealt the whole deck: there is never a card to draw.
    text = (
        'profile "no-stock" extends "equal-hands" {\n    players 4\n    hand_size 13\n'
        "    exhaustion play_out\n    rule two {\n        draw 2\n    }\n}\n"
    )
    uri = session.open(folder / "no-stock.rules", text)
    (warned,) = session.diagnostics(uri, 1)  # validate's warning, at the rule's name
    assert (warned.code, warned.range.start.line) == ("dead-rule", 4)
    said = hover_text(session, uri, at(4, 10))
    assert "reach: never comes into play with 4 players: no player ever has a card to draw" in said
    session.close(uri)


def test_hover_says_nothing_of_reach_while_the_profile_has_errors(session, folder):
    text = 'profile "bad" extends "equal-hands" {\n    exhaustion play_out\n    draw lots\n'
    text += "    rule r {\n        draw 2\n    }\n}\n"
    uri = session.open(folder / "errors.rules", text)
    session.diagnostics(uri, 1)
    for position in (at(1, 6), at(3, 9)):
        assert "reach: not analysed while the profile has errors" in hover_text(
            session, uri, position
        )
    session.close(uri)


STATED_YAML = """\
profile: stated
extends: must-overtrump
rules:
  first-lead:
    refuse: lead if card.trump and trick.number == 1
  must-overtrump: removed
"""


def test_hover_on_a_yaml_rule_and_on_one_taken_away(session, folder):
    path = folder / "stated.yaml"
    path.write_text(STATED_YAML)
    uri = session.open(path)
    assert session.diagnostics(uri, 1) == []
    said = hover_text(session, uri, at(3, 4))
    assert said.splitlines()[0] == "**rule** " + generated(path, "first-lead")
    assert "a card is refused when leading if the card is a trump" in said
    assert hover_text(session, uri, at(4, 20)).startswith("`card`: the card")
    removed = hover_text(session, uri, at(5, 4)).splitlines()
    place = short_path(str(SHIPPED / "house" / "must-overtrump.rules")) + ":6"
    assert removed == [
        "**rule must-overtrump**: removed",
        "",
        f"takes away the rule must-overtrump of must-overtrump ({place})",
    ]
    session.close(uri)


def test_definition_of_a_rule_goes_up_the_chain_to_the_rule_it_restates(session, folder):
    parent = folder / "rules-parent.rules"
    parent.write_text(STATED)
    child = 'profile "child" extends "rules-parent.rules" {\n    rule first-lead {\n'
    child += "        refuse card if card.trump and trump == hearts\n    }\n"
    child += "    rule own {\n        score 2\n    }\n}\n"
    uri = session.open(folder / "rules-child.rules", child)
    assert session.diagnostics(uri, 1) == []
    place = definition_of(session, uri, at(1, 12))
    assert place.uri == from_fs_path(str(parent.resolve()))
    assert place.range.start == at(2, 9)
    assert "in place of the rule first-lead of stated (" in hover_text(session, uri, at(1, 12))
    # A rule no parent states is defined where it stands.
    own = definition_of(session, uri, at(4, 10))
    assert (own.uri, own.range.start) == (uri, at(4, 9))
    # An option's name in a clause: where the profile's value of it is set.
    trump = definition_of(session, uri, at(2, 40))
    assert (trump.uri, trump.range.start.line) == (from_fs_path(str(parent.resolve())), 1)
    assert definition_of(session, uri, at(2, 28)) is None
    session.close(uri)
    yaml_uri = session.open(folder / "stated.yaml", STATED_YAML)
    removed = definition_of(session, yaml_uri, at(5, 4))
    shipped = (SHIPPED / "house" / "must-overtrump.rules").resolve()
    assert (removed.uri, removed.range.start) == (from_fs_path(str(shipped)), at(5, 9))
    session.close(yaml_uri)


def test_hover_on_a_restated_rule_with_a_typo_tells_the_restatement_and_its_error(session, folder):
    parent = folder / "typo-parent.rules"
    parent.write_text(STATED)
    child = 'profile "child" extends "typo-parent.rules" {\n    rule first-lead {\n'
    child += "        refuse lead if card.trumpp\n    }\n}\n"
    uri = session.open(folder / "typo-child.rules", child)
    (problem,) = session.diagnostics(uri, 1)
    said = hover_text(session, uri, at(1, 12)).splitlines()
    assert said[0] == "**rule first-lead**: does not act as written: see its problems below"
    assert said[2].startswith("restates the rule first-lead of stated (")
    assert said[4] == "> first-lead: No trump may lead the first trick."
    assert said[-1].startswith("- error `rule-name` at 3:29: a card has no attribute `trumpp`")
    assert problem.range.start == at(2, 28)
    session.close(uri)


def test_document_symbols_list_the_rules_of_a_yaml_profile(session, folder):
    uri = session.open(folder / "symbols.yaml", STATED_YAML)
    params = lsp.DocumentSymbolParams(text_document=doc(uri))
    (root,) = session.run(session.client.text_document_document_symbol_async(params))
    rules = [s for s in root.children if s.kind == lsp.SymbolKind.Function]
    assert [(s.name, s.range.start.line, s.range.end.line) for s in rules] == [
        ("first-lead", 3, 4),
        ("must-overtrump", 5, 5),
    ]
    assert [c.name for c in rules[0].children] == ["refuse"]
    session.close(uri)


def test_completion_after_a_dot_offers_what_follows_and_replaces_the_whole_name(session, folder):
    text = 'profile "c" {\n    rule r {\n        draw 2 if trick.\n    }\n    rule s {\n'
    text += "        refuse follow if card.tr\n    }\n    rule t {\n"
    text += "        score max(p in active: p.\n    }\n}\n"
    uri = session.open(folder / "dots.rules", text)

    def items(position: lsp.Position) -> dict[str, lsp.CompletionItem]:
        params = lsp.CompletionParams(text_document=doc(uri), position=position)
        found = session.run(session.client.text_document_completion_async(params))
        return {item.label: item for item in found.items}

    trick = items(at(2, 24))
    assert {"trick.number", "trick.won_by_trump", "trick.winner"} <= set(trick)
    assert all(label.startswith("trick.") for label in trick)
    edit = trick["trick.number"].text_edit
    assert (edit.range.start, edit.range.end, edit.new_text) == (
        at(2, 18),
        at(2, 24),
        "trick.number",
    )
    card = items(at(5, 32))
    assert set(card) == {f"card.{a.name}" for a in ATTRIBUTES.values() if a.owner == Type.CARD}
    assert "card.beats_best" in card
    assert card["card.trump"].text_edit.range.start == at(5, 25)
    # A letter an aggregate binds is of its set's type: a seat's numbers follow it here.
    assert set(items(at(8, 33))) == {"p.cards", "p.tricks", "p.streak"}
    session.close(uri)


def test_code_actions_apply_the_did_you_means_of_a_stated_rule(session, folder):
    text = HOUSE.replace("refuse lead", "refuse lad").replace("say en", "sya en")
    uri = session.open(folder / "rule-fixes.rules", text)
    session.diagnostics(uri, 1)
    found = actions(session, uri, 2, 5)
    assert set(found) == {"Replace with 'lead'", "Replace with 'say'"}
    fixed = apply(text, [e for edits in found.values() for e in edits])
    assert fixed == HOUSE
    version = session.change(uri, fixed)
    assert [d.code for d in session.diagnostics(uri, version)] == ["rule-name"]
    (trump,) = actions(session, uri, 3, 3).values()
    assert apply(fixed, trump) == HOUSE.replace("trumpp", "trump")
    session.close(uri)


# Completion in a clause, against the checker: at every place and in every kind of spot,
# a word is offered exactly when something written on from it checks there.

# A clause of each place, its expression's spots: the text before and after the cursor.
PLACES = {
    Where.LEAD: ("refuse", "lead if "),
    Where.FOLLOW: ("refuse", "follow if "),
    Where.PLAY: ("refuse", "card if "),
    Where.DRAW: ("draw", ""),
    Where.SCORE: ("score", ""),
    Where.END: ("end", "when "),
}
SPOTS = {
    Type.BOOL: [("", ""), ("true and ", ""), ("not ", ""), ("any(x in seats: ", ")")],
    Type.INT: [("", ""), ("1 + ", ""), ("sum(x in seats: ", ")"), ("(1 if ", " else 0)")],
    Type.MAYBE_SEAT: [("", ""), ("none if true else ", "")],
}
# What may follow a word to make it whole: nothing, an attribute, a comparison.
ENDINGS = ["", " >= 0", " == trump", " == none", ".trump", ".active", ".strength", ".cards"]
ENDINGS += [".strength >= 0", ".cards >= 0", " >= queen", ".number", ".number >= 0", ".winner"]
ENDINGS += [".won", ".rank", ".played.rank", ".best.rank"]
AGGREGATE_ENDS = [
    f"{over}{compared}"
    for over in ("(y in seats: y.active)", "(y in seats: y.cards)", "(1, 2)")
    for compared in ("", " >= 0", " == none")
]


def _spots() -> list[tuple[str, str, str]]:
    """(clause word, text before the cursor, text after it)."""
    found = []
    for word, head in PLACES.values():
        wanted = Type.INT if word in ("draw", "score") else Type.BOOL
        found += [(word, head + before, after) for before, after in SPOTS[wanted]]
    found += [("winner", before, after) for before, after in SPOTS[Type.MAYBE_SEAT]]
    # The set an aggregate ranges over (of seats only, for `most`).
    found += [
        ("refuse", "card if any(x in ", ": true)"),
        ("draw", "count(x in ", ": true)"),
        ("score", "sum(x in ", ": 1)"),
        ("winner", "most(x in ", ": 1)"),
    ]
    # A filter: a condition on the letter, between the set and the body.
    found += [
        ("refuse", "card if any(x in seats where ", ": true)"),
        ("score", "sum(x in hand.winner.won where ", ": 1)"),
        ("winner", "least(x in active where ", ": x.cards)"),
        ("draw", "count(x in trick.winner.won where x.rank > ", ": true)"),
    ]
    # What is in order with a rank, a number, and a card's rank.
    found += [
        ("refuse", "card if card.rank >= ", ""),
        ("draw", "1 if queen < ", " else 2"),
        ("score", "count(x in hand.winner.won: x.rank > ", ")"),
        ("end", "when trick.winner.streak >= ", ""),
    ]
    # After a card named: `10H` is one word, not a number and a letter.
    found += [
        ("refuse", "card if card == 10H and ", ""),
        ("draw", "1 if trick.best != 10D else ", ""),
    ]
    return found


def _checks(word: str, text: str) -> bool:
    from rulesdsl.model.text import Pos
    from rulesdsl.read.diagnostics import Located
    from rulesdsl.read.language.compile import compile_rule
    from rulesdsl.read.syntax.document import Entry, RuleBlock

    if word == "winner":
        entries = [Entry("end", "after trick 1", Pos(1, 1), Pos(1, 1))]
        entries.append(Entry("winner", text, Pos(2, 1), Pos(2, 1)))
    else:
        entries = [Entry(word, text, Pos(1, 1), Pos(1, 1))]
        if word == "end":
            entries.append(Entry("winner", "none", Pos(2, 1), Pos(2, 1)))
    rule, _ = compile_rule(RuleBlock("r", Pos(3, 1), tuple(entries), 4), Located("x", ""))
    return rule is not None


def _offered(word: str, before: str) -> dict[str, str]:
    """The labels offered at the end of the clause's text, with what each inserts."""
    from rulesdsl.surfaces.lsp.complete import candidates

    line = f"        {word} {before}"
    lines = ['profile "c" {', "    rule r {", line, "    }", "}"]
    return {c.label: c.insert for c in candidates("dsl", lines, 2, len(line))}


@pytest.mark.parametrize(("word", "before", "after"), _spots())
def test_completion_in_a_clause_offers_exactly_what_can_stand_there(word, before, after):
    offered = {label for label, insert in _offered(word, before).items() if label != "not"}
    words = [*NAMES, *Aggregate, "x"]
    can = set()
    for name in words:
        endings = AGGREGATE_ENDS if name in set(Aggregate) else ENDINGS
        if any(_checks(word, f"{before}{name}{end}{after}") for end in endings):
            can.add(name)
    assert offered == can, (word, before, offered ^ can)


@pytest.mark.parametrize(
    ("word", "before"),
    [
        ("refuse", "lead if "),
        ("refuse", "follow if "),
        ("draw", ""),
        ("score", ""),
        ("end", "when "),
        ("refuse", "card if any(x in held: "),
        ("score", "sum(x in seats: "),
        ("winner", ""),
        ("score", "sum(x in hand.tricks: "),
        ("refuse", "lead if any(x in previous.cards: "),
        ("draw", "count(x in trick.winner.won: "),
    ],
)
def test_completion_after_a_dot_offers_exactly_what_can_follow(word, before):
    # Every head that has something after a dot (a dotted name's, or a value's with
    # attributes), a bound letter, and two values with no attributes.
    owners = {owner for owner, _ in ATTRIBUTES}
    heads = {n.rpartition(".")[0] for n in NAMES if "." in n} | {"x", "clubs", "players"}
    heads |= {n for n, name in NAMES.items() if name.type in owners}
    for head in sorted(heads):
        offered = set(_offered(word, f"{before}{head}."))
        can = set()
        for path in {f"{head}.{a}" for _, a in ATTRIBUTES} | {n for n in NAMES if "." in n}:
            if path.startswith(head + ".") and any(
                _checks(word, f"{before}{path}{end}{')' if '(' in before else ''}")
                for end in ENDINGS
            ):
                can.add(path)
        assert offered == can, (word, before, head, offered ^ can)


@pytest.mark.parametrize(
    ("word", "aggregate"),
    [
        ("refuse", "card if any(x in held"),
        ("draw", "count(x in trick.winner.won"),
        ("score", "all(x in seats"),
        ("end", "when any(t in hand.tricks"),
    ],
)
def test_completion_in_a_filter_offers_what_it_offers_in_a_condition_of_the_body(word, aggregate):
    """After an aggregate's set, `where` or `:`; after `where`, as after the `:` of an
    aggregate whose body is a condition: the letter bound, and its attributes after a dot."""
    assert set(_offered(word, f"{aggregate} ")) == {"where", ":"}
    assert _offered(word, f"{aggregate} ")["where"] == "where "
    letter = aggregate.split("(")[1].split()[0]
    for typed in ("", f"{letter}.", "trick.", "hand."):
        filtered = _offered(word, f"{aggregate} where {typed}")
        assert filtered == _offered(word, f"{aggregate}: {typed}"), typed
    assert letter in _offered(word, f"{aggregate} where ")
    # A letter named `where`, in the body, is a value: what may follow it is an operator.
    named = aggregate.replace(f"({letter} ", "(where ")
    assert "and" in _offered(word, f"{named}: where == where and where ")
    assert _offered(word, f"{aggregate} where {letter}.trump and ") == _offered(
        word, f"{aggregate}: {letter}.trump and "
    )


def _restatements() -> list[tuple[str, str, str, int]]:
    """Each shipped house rule restated in a child, with one word of its clauses misspelt
    (a letter doubled): (parent, rule, child text, the misspelt line)."""
    from rulesdsl.read.profile import shipped_files

    found = []
    for path in shipped_files():
        if path.parent.name != "house":
            continue
        block = read_document(path, path.read_text(encoding="utf-8")).rules[0]
        clauses = [f"{e.key} {e.value}" for e in block.entries if e.key != "say"]
        for index, clause in enumerate(clauses):
            for word in re.finditer(r"[A-Za-z_]\w*", clause):
                if word.start() == 0:
                    continue  # the clause word: the block would not say what it restates
                wrong = clause[: word.end()] + clause[word.end() - 1] + clause[word.end() :]
                lines = [*clauses[:index], wrong, *clauses[index + 1 :]]
                body = "".join(f"        {line}\n" for line in lines)
                text = f'profile "c" extends "{path.stem}" {{\n    rule {block.name} {{\n'
                found.append((path.stem, block.name, text + body + "    }\n}\n", index + 3))
    return found


RESTATED = _restatements()


@pytest.mark.parametrize(
    ("parent", "name", "text", "line"),
    RESTATED,
    ids=[f"{r[1]}-{i}" for i, r in enumerate(RESTATED)],
)
def test_hover_tells_a_restated_rule_with_a_typo_as_a_restatement(parent, name, text, line):
    from rulesdsl.read.profile import load_open, load_text
    from rulesdsl.surfaces.lsp import describe

    path = Path("/nonexistent/c.rules")
    profile = load_text(path, text)
    errors = [d for d in profile.diagnostics if d.is_error]
    assert [d.line for d in errors] == [line], [d.text() for d in errors]
    chain = [profile, *(load_open(p, {}) for p in reversed(profile.files[:-1]))]
    for column in (10, 8):  # on the rule's name; on the misspelt clause's line
        target = describe.target_at(profile.document, 1 if column == 10 else line - 1, column)
        said = describe.hover(target, chain)
        assert said.splitlines()[0].startswith(f"**rule {name}**: does not act as written")
        assert f"\nrestates the rule {name} of {parent} (" in said
        assert "takes away" not in said and "removed" not in said
        (error,) = errors
        assert f"- error `{error.code}` at {line}:{error.column}: " in said


def test_completion_offers_the_ranks_in_order_with_a_rank_and_the_hands_memory_after_a_dot():
    ranks = {n for n, name in NAMES.items() if name.type == Type.RANK}
    offered = set(_offered("refuse", "follow if card.rank >= "))
    assert ranks <= offered and {"card", "trick.best", "previous"} <= offered
    assert "players" not in offered  # a number is not in order with a rank
    assert not ranks & set(_offered("draw", "1 + "))
    trick = {f"t.{a.name}" for (owner, _), a in ATTRIBUTES.items() if owner == Type.TRICK}
    assert set(_offered("refuse", "lead if any(t in hand.tricks: t.")) == trick - {"t.cards"}
    assert set(_offered("refuse", "lead if any(t in hand.tricks: t.best.")) == {
        "t.best.suit",
        "t.best.trump",
        "t.best.strength",
        "t.best.rank",
    }
    assert "hand.tricks" in _offered("score", "count(t in ")
    assert "hand.tricks" not in _offered("winner", "most(p in ")
    assert "p.won" not in _offered("refuse", "card if any(p in seats: p.")  # a set: no value


def _hover_on(tmp_path, clause: str, word: str) -> str:
    from rulesdsl.surfaces.lsp.describe import hover, target_at

    path = tmp_path / "h.rules"
    lines = [
        'profile "h" extends "equal-hands" {',
        "    rule r {",
        f"        {clause}",
        "    }",
        "}",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    profile = load_file(path)
    assert profile.ok, profile.diagnostics
    target = target_at(profile.document, 2, lines[2].index(word) + 1)
    said = hover(target, [profile])
    assert said is not None
    return said.splitlines()[0]


@pytest.mark.parametrize(
    ("clause", "word", "said"),
    [
        ("refuse card if card == QS", "QS", "`QS`: the queen of spades (a card)"),
        ("refuse card if card == 10H", "10H", "`10H`: the 10 of hearts (a card)"),
        (
            "refuse card if card.rank >= jack",
            "jack",
            "`jack`: the rank jack, placed by the deck's order (a rank)",
        ),
        (
            "refuse lead if card.suit == previous.led",
            "previous",
            f"`previous`: {NAMES['previous'].description} (a trick)",
        ),
        (
            "refuse lead if card.suit == previous.led",
            "led",
            "`previous.led`: the suit led to it (a suit)",
        ),
        (
            "end when trick.winner.streak >= 3",
            "streak",
            f"`trick.winner.streak`: {ATTRIBUTES[Type.SEAT, 'streak'].description} (a number)",
        ),
        (
            "score 2 if hand.last_trick.best.trump else 1",
            "best",
            "`hand.last_trick.best`: the card that won it (a card or none)",
        ),
        # `cards` of a seat and of a trick: a letter's is told by the set it ranges over.
        (
            "score count(t in hand.tricks: count(c in t.cards: c.trump) > 1)",
            "cards",
            "`t.cards`: the cards played to it (a set of cards)",
        ),
        (
            "score sum(p in seats: p.cards)",
            "cards",
            "`p.cards`: how many cards they hold (a number)",
        ),
        (
            "score max(1, count(c in hand.winner.won: c.rank == ace))",
            "rank",
            "`c.rank`: its rank (a rank)",
        ),
        # In a filter, the letter is bound as in the body.
        (
            "score count(t in hand.tricks where count(c in t.cards: c.trump) > 1: true)",
            "cards",
            "`t.cards`: the cards played to it (a set of cards)",
        ),
        (
            "score sum(p in seats where p.cards > 2: p.tricks)",
            "cards",
            "`p.cards`: how many cards they hold (a number)",
        ),
    ],
)
def test_hover_names_a_card_a_rank_and_the_hands_memory(tmp_path, clause, word, said):
    if clause.startswith("end "):
        clause += "\n        winner trick.winner"
    assert _hover_on(tmp_path, clause, word) == said


def test_hover_in_a_yaml_clause_tells_a_letters_attribute_by_its_set(tmp_path):
    from rulesdsl.surfaces.lsp.describe import hover, target_at

    path = tmp_path / "h.yaml"
    clause = '    score: "count(t in hand.tricks: count(c in t.cards: c.trump) > 1)"'
    path.write_text(f"profile: h\nextends: equal-hands\nrules:\n  r:\n{clause}\n")
    profile = load_file(path)
    assert profile.ok, profile.diagnostics
    target = target_at(profile.document, 4, clause.index("t.cards") + 3)
    said = hover(target, [profile])
    assert said is not None and said.startswith("`t.cards`: the cards played to it")
