"""The profiles a play table or a comparison names: a shipped profile, a workspace file, or
a text sent with the request (checked as `/api/check` checks it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesdsl.model.hints import did_you_mean
from rulesdsl.model.kinds import OptionError
from rulesdsl.play.players.registry import is_search_bot, make_bot, search_size
from rulesdsl.read.profile import Profile, load, load_file, load_text, shipped_names
from rulesdsl.surfaces.web.bodies import profile_text
from rulesdsl.surfaces.web.checking import UNTITLED, diagnostic
from rulesdsl.surfaces.web.errors import ApiError, bad, not_found
from rulesdsl.surfaces.web.limits import Limits
from rulesdsl.surfaces.web.workspace import NAME, SYNTAXES, Workspace

HUMAN = "human"


@dataclass(frozen=True)
class Named:
    """A profile, and the reference it goes by in a report (as a command line names it)."""

    ref: str
    profile: Profile


def resolve(ref: Any, workspace: Workspace, limits: Limits) -> Named:
    """The profile `ref` names (a name, or `{text, syntax, name?}`); 422 with its
    diagnostics when it has errors."""
    if isinstance(ref, str):
        named = Named(ref, _by_name(ref, workspace))
    elif isinstance(ref, dict):
        named = _by_text(ref, workspace, limits)
    else:
        raise bad("a profile is a name or {text, syntax}")
    errors = [d for d in named.profile.diagnostics if d.is_error]
    if errors:
        lines = named.profile.document.source.splitlines() if named.profile.document else []
        raise ApiError(
            422,
            f"{named.ref} has {len(errors)} error(s): {errors[0].message}",
            diagnostics=[diagnostic(d, lines) for d in errors],
        )
    return named


def _by_name(name: str, workspace: Workspace) -> Profile:
    names = shipped_names()
    if name in names:
        return load(name)
    if _suffix(name) not in SYNTAXES:
        raise not_found(f"no shipped profile is named {name[:80]}{did_you_mean(name, names)}")
    path = workspace.path(name)
    if not path.is_file():
        raise not_found(f"no shipped profile or workspace file is named {name}")
    return load_file(path, workspace.root)


def _by_text(ref: dict[str, Any], workspace: Workspace, limits: Limits) -> Named:
    text, syntax, name = ref.get("text"), ref.get("syntax", "dsl"), ref.get("name")
    if not isinstance(text, str) or syntax not in UNTITLED:
        raise bad("a profile given as text is {text: string, syntax: dsl or yaml, name?}")
    profile_text(text, limits.profile_bytes)
    if name is not None and not (isinstance(name, str) and NAME.fullmatch(name)):
        raise bad("a profile's `name` is 1 to 64 letters, digits, dots, dashes or underscores")
    file = name if name and SYNTAXES.get(_suffix(name)) == syntax else UNTITLED[syntax]
    profile = load_text(workspace.root / file, text)
    return Named(name or profile.name, profile)


def _suffix(name: str) -> str:
    return name[name.rfind(".") :] if "." in name else ""


def check_bot(name: Any, limits: Limits, human: bool = False) -> str:
    """A bot's name, known and within the search limit (`human` where a person may sit)."""
    if not isinstance(name, str):
        raise bad("a bot is a name, e.g. heuristic or pimc:20")
    if human and name == HUMAN:
        return name
    try:
        size = search_size(name)
        make_bot(name)
    except OptionError as error:
        raise bad(str(error)) from None
    if size is not None and size[1] > limits.search_n:
        kind = size[0]
        raise bad(f"bot '{name}': this server searches at most {kind}:{limits.search_n}")
    return name


def searching(bots: list[str]) -> bool:
    return any(is_search_bot(b) for b in bots if b != HUMAN)
