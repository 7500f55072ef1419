"""The language server: profiles checked as they are typed, over stdio.

Every open profile is checked from its unsaved text, with the `extends` parents that are
open read from their buffers too; a change to a parent checks its open children again.
Nothing is written to disk: edits go to the editor, which applies them.

Whatever the client sends, every request is answered and nothing blocks: the wire is read
within bounds (`wire`), each message is checked before it is handled (`guard`, `params`),
and a document that is not open is read only from a regular file under the size limit
(`documents`).
"""

from __future__ import annotations

import logging
import os
import sys
from importlib.metadata import version
from pathlib import Path
from typing import BinaryIO, cast

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from rulesdsl.model.rules import OPTIONS
from rulesdsl.model.text import Pos, safe_text
from rulesdsl.read.diagnostics import Diagnostic
from rulesdsl.read.edits import Spot, TextEdit, assumed_edit, can_mark_assumed, fix_edit, span
from rulesdsl.read.profile import SYNTAXES, Profile, load_open, real_path
from rulesdsl.read.syntax.document import RuleBlock
from rulesdsl.service import UsageProblem, checked_text, rewrite
from rulesdsl.surfaces.lsp import complete, describe, documents
from rulesdsl.surfaces.lsp.guard import GuardedProtocol, one_line, strict_converter
from rulesdsl.surfaces.lsp.wire import frames

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
# pygls' own handling of notebooks, which this server does not offer (nor check the cells'
# changes of): their messages are refused as unknown.
NOTEBOOK = (
    lsp.NOTEBOOK_DOCUMENT_DID_OPEN,
    lsp.NOTEBOOK_DOCUMENT_DID_CHANGE,
    lsp.NOTEBOOK_DOCUMENT_DID_CLOSE,
)
COMPLETION_KIND = {
    complete.CandidateKind.OPTION: lsp.CompletionItemKind.Property,
    complete.CandidateKind.METADATA: lsp.CompletionItemKind.Field,
    complete.CandidateKind.KEYWORD: lsp.CompletionItemKind.Keyword,
    complete.CandidateKind.VALUE: lsp.CompletionItemKind.EnumMember,
    complete.CandidateKind.PROFILE: lsp.CompletionItemKind.Module,
}


class ProfileServer(LanguageServer):
    """Keeps the last check of every open profile, by URI."""

    def __init__(self) -> None:
        super().__init__(
            "rulesdsl",
            version("rulesdsl"),
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=GuardedProtocol,
            converter_factory=strict_converter,
        )
        for method in NOTEBOOK:
            self.protocol.fm.builtin_features.pop(method, None)
        self.checked: dict[str, Profile] = {}
        self.shut_down = False  # the client asked for `shutdown`
        self.exited = False  # the client sent `exit`

    def exit_status(self) -> int:
        """0, unless the client sent `exit` without `shutdown` first (the protocol's 1)."""
        return 1 if self.exited and not self.shut_down else 0

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve the messages of `stdin` until it ends or the client sends `exit`."""
        protocol = cast(GuardedProtocol, self.protocol)
        protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            for frame in frames(stdin or sys.stdin.buffer):
                protocol.receive(frame)
        except BrokenPipeError:
            logging.getLogger(__name__).warning("the client closed the connection")
        except (SystemExit, KeyboardInterrupt):  # SystemExit: how pygls ends on `exit`
            pass
        finally:
            self.shutdown()

    def document(self, uri: str) -> TextDocument:
        """The open document, else the file, read safely (see `documents`)."""
        return documents.document(self.workspace, uri)

    def buffers(self) -> dict[Path, str]:
        """The open documents' texts, by real path."""
        texts = {}
        for uri, doc in self.workspace.text_documents.items():
            path = documents.path_of(uri)
            if path is not None:
                texts[real_path(path)] = doc.source
        return texts

    def check(self, uri: str) -> None:
        """Check the document and publish its diagnostics."""
        doc = self.document(uri)
        profile = checked_text(Path(doc.path), doc.source, self.buffers())
        self.checked[uri] = profile
        found = [to_diagnostic(doc, d) for d in profile.diagnostics if d.path == profile.path]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=doc.version)
        )

    def check_children(self, uri: str) -> None:
        """Check again every open profile that extends the document, directly or further up."""
        path = documents.path_of(uri)
        if path is None:
            return
        real = real_path(path)
        for other, profile in list(self.checked.items()):
            if other != uri and real in profile.files[:-1]:
                self.check(other)

    def chain(self, profile: Profile) -> list[Profile]:
        """The profile, then each ancestor (nearest first), read as `check` reads them."""
        buffers = self.buffers()
        return [profile, *(load_open(path, buffers) for path in reversed(profile.files[:-1]))]


def to_range(doc: TextDocument, start: Spot, end: Spot) -> lsp.Range:
    server = ServerTextRange(
        ServerTextPosition(start.line, start.column), ServerTextPosition(end.line, end.column)
    )
    return doc.range_to_client_units(server)


def _line(doc: TextDocument, number: int) -> str:
    """The 1-based line's text, without its line end; empty past the end."""
    lines = doc.source.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def pos_range(doc: TextDocument, pos: Pos) -> lsp.Range:
    return to_range(doc, *span(pos, _line(doc, pos.line)))


def line_end(doc: TextDocument, number: int) -> lsp.Position:
    """Where the 1-based line's text ends."""
    end = Spot(number - 1, len(_line(doc, number)))
    return to_range(doc, end, end).end


def to_diagnostic(doc: TextDocument, d: Diagnostic) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        range=pos_range(doc, Pos(d.line, d.column, d.length)),
        message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
        code=d.code,
        source="rulesdsl",
        data={"replacement": d.replacement} if d.replacement else None,
    )


def to_edit(doc: TextDocument, edit: TextEdit) -> lsp.TextEdit:
    return lsp.TextEdit(range=to_range(doc, edit.start, edit.end), new_text=edit.text)


server = ProfileServer()


@server.feature(lsp.INITIALIZED)
def initialized(ls: ProfileServer, params: lsp.InitializedParams) -> None:
    """Ask the client to say when a profile file changes on disk, where it can."""
    watched = (
        ls.client_capabilities.workspace
        and ls.client_capabilities.workspace.did_change_watched_files
    )
    if not (watched and watched.dynamic_registration):
        return
    watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/*{suffix}") for suffix in SYNTAXES]
    registration = lsp.Registration(
        id="rulesdsl-profiles",
        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    ls.client_register_capability(lsp.RegistrationParams(registrations=[registration]))


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: ProfileServer, params: None) -> None:
    ls.shut_down = True


@server.feature(lsp.EXIT)
def exit_(ls: ProfileServer, params: None) -> None:
    ls.exited = True


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def files_changed(ls: ProfileServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """A profile changed on disk: its open children read it again."""
    for change in params.changes:
        ls.check_children(change.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ProfileServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)
    ls.check_children(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ProfileServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.check(params.text_document.uri)
    ls.check_children(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ProfileServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """Clear the document's diagnostics; its open children now read it from disk."""
    uri = params.text_document.uri
    ls.checked.pop(uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    ls.check_children(uri)


@server.feature(
    lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", '"', ":"])
)
def completion(ls: ProfileServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    doc = ls.document(params.text_document.uri)
    at = doc.position_from_client_units(params.position)
    profile = ls.checked.get(doc.uri)
    syntax = profile.document.syntax if profile and profile.document else _syntax(doc)
    found = complete.candidates(syntax, doc.source.splitlines(), at.line, at.character)
    cursor = Spot(at.line, at.character)
    items = [
        lsp.CompletionItem(
            label=c.label,
            kind=COMPLETION_KIND[c.kind],
            detail=c.detail,
            insert_text=None if c.replaces else c.insert,
            text_edit=(
                to_edit(doc, TextEdit(Spot(at.line, at.character - c.replaces), cursor, c.insert))
                if c.replaces
                else None
            ),
        )
        for c in found
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


def _syntax(doc: TextDocument) -> str:
    return "dsl" if doc.uri.endswith(".rules") else "yaml"


def _target(ls: ProfileServer, uri: str, position: lsp.Position):
    """The document's last check and the statement at the position (either may be None)."""
    profile = ls.checked.get(uri)
    if profile is None or profile.document is None:
        return None, None
    doc = ls.document(uri)
    at = doc.position_from_client_units(position)
    return profile, describe.target_at(profile.document, at.line, at.character)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: ProfileServer, params: lsp.HoverParams) -> lsp.Hover | None:
    profile, target = _target(ls, params.text_document.uri, params.position)
    if target is None:
        return None
    text = describe.hover(target, ls.chain(profile))
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: ProfileServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    profile, target = _target(ls, params.text_document.uri, params.position)
    if target is None:
        return None
    place = describe.definition(target, ls.chain(profile))
    if place is None:
        return None
    uri = from_fs_path(str(real_path(Path(place.path))))
    start = lsp.Position(line=place.line - 1, character=place.column - 1)
    opened = ls.workspace.text_documents.get(uri)
    if opened is not None:
        start = opened.position_to_client_units(ServerTextPosition(start.line, start.character))
    return lsp.Location(uri=uri, range=lsp.Range(start=start, end=start))


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: ProfileServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    """The text as `rulesdsl fmt` writes it; nothing while the profile has syntax errors."""
    profile = ls.checked.get(params.text_document.uri)
    if profile is None or profile.document is None or not profile.document.ok:
        return []
    doc = ls.document(params.text_document.uri)
    try:
        text = rewrite(profile.document, profile.document.syntax, Path(doc.path))
    except UsageProblem as error:
        ls.window_show_message(
            lsp.ShowMessageParams(type=lsp.MessageType.Error, message=str(error))
        )
        return []
    if text == doc.source:
        return []
    whole = lsp.Range(
        start=lsp.Position(line=0, character=0),
        end=doc.client_position_at_offset(len(doc.source)),
    )
    return [lsp.TextEdit(range=whole, new_text=text)]


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]
    ),
)
def code_action(ls: ProfileServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """A fix for each did-you-mean on the lines asked about, and `assumed` for each value."""
    uri = params.text_document.uri
    profile = ls.checked.get(uri)
    if profile is None or profile.document is None:
        return []
    doc = ls.document(uri)
    asked = doc.range_from_client_units(params.range)
    lines = doc.source.splitlines()

    def wanted(line: int) -> bool:
        return asked.start.line <= line - 1 <= asked.end.line

    actions = []
    for d in profile.diagnostics:
        edit = fix_edit(d, lines) if d.path == profile.path and wanted(d.line) else None
        if edit is not None:
            actions.append(
                lsp.CodeAction(
                    title=f"Replace with '{d.replacement}'",
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[to_diagnostic(doc, d)],
                    is_preferred=True,
                    edit=lsp.WorkspaceEdit(changes={uri: [to_edit(doc, edit)]}),
                )
            )
    for entry in profile.document.entries:
        if can_mark_assumed(entry) and wanted(entry.key_pos.line):
            edit = assumed_edit(profile.document, entry, lines)
            actions.append(
                lsp.CodeAction(
                    title=f"Mark {entry.key} as assumed",
                    kind=lsp.CodeActionKind.RefactorRewrite,
                    edit=lsp.WorkspaceEdit(changes={uri: [to_edit(doc, edit)]}),
                )
            )
    return actions


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(
    ls: ProfileServer, params: lsp.DocumentSymbolParams
) -> list[lsp.DocumentSymbol]:
    """The profile, holding its metadata, options (each with its value) and rules."""
    profile = ls.checked.get(params.text_document.uri)
    if profile is None or profile.document is None:
        return []
    document = profile.document
    doc = ls.document(params.text_document.uri)
    children = []
    for entry in document.entries:
        key = pos_range(doc, entry.key_pos)
        line = lsp.Range(start=key.start, end=line_end(doc, entry.key_pos.line))
        kind = lsp.SymbolKind.Property if entry.key in OPTIONS else lsp.SymbolKind.Field
        detail = ("assumed " if entry.assumed else "") + (entry.value or "")
        children.append(
            lsp.DocumentSymbol(
                name=entry.key, kind=kind, range=line, selection_range=key, detail=detail
            )
        )
    children += [_rule_symbol(doc, block) for block in document.rules]
    whole = lsp.Range(
        start=lsp.Position(line=0, character=0),
        end=doc.client_position_at_offset(len(doc.source)),
    )
    name = pos_range(doc, document.name_pos) if document.name_pos else whole
    return [
        lsp.DocumentSymbol(
            name=profile.name,
            kind=lsp.SymbolKind.Module,
            range=whole,
            selection_range=name,
            detail=f"extends {document.extends}" if document.extends else None,
            children=children,
        )
    ]


def _rule_symbol(doc: TextDocument, block: RuleBlock) -> lsp.DocumentSymbol:
    """A rule the profile states: from its name's line to its last, its clauses inside."""
    name = pos_range(doc, block.name_pos)
    start = lsp.Position(line=name.start.line, character=0)
    clauses = []
    for entry in block.entries:
        key = pos_range(doc, entry.key_pos)
        line = lsp.Range(start=key.start, end=line_end(doc, entry.key_pos.line))
        clauses.append(
            lsp.DocumentSymbol(
                name=entry.key,
                kind=lsp.SymbolKind.Field,
                range=line,
                selection_range=key,
                detail=entry.value,
            )
        )
    last = max([block.end_line, *(e.key_pos.line for e in block.entries)])
    return lsp.DocumentSymbol(
        name=block.name,
        kind=lsp.SymbolKind.Function,
        range=lsp.Range(start=start, end=line_end(doc, last)),
        selection_range=name,
        detail="rule",
        children=clauses,
    )


class OneLine(logging.Formatter):
    """A log record as one line on stderr: what went wrong, never a traceback, cut short,
    with no character that would act on a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]}"
        return f"rulesdsl lsp: {record.levelname.lower()}: {safe_text(one_line(text))}"


def serve() -> int:
    """Serve over stdin and stdout until the client sends `exit` or closes stdin; the exit
    status. pygls closes the stream it writes to on `exit`: it gets a copy of stdout, so
    stdout itself stays open for the command's end."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    with os.fdopen(os.dup(sys.stdout.fileno()), "wb") as out:
        server.start_io(stdout=out)
    return server.exit_status()
