"""The protocol, guarded: whatever the client sends, every request gets exactly one answer
(its result, or an error with a short message), a notification the server cannot act on
is left with a one-line warning at most, and no answer and no line on stderr carries a
traceback.

Each message goes through: its JSON (a body that is not JSON is answered a parse error
when its id can be found), its envelope (a JSON-RPC 2.0 request, notification or
response), the server's state (initialized, not shut down), its params structured
strictly (an integer is an integer, not a string or a float) and then checked against the
documents (`params`), and only then pygls' own handling.
"""

from __future__ import annotations

import enum
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Optional, Union

import attrs
import cattrs
from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    MsgId,
)

from rulesdsl.surfaces.lsp import params
from rulesdsl.surfaces.lsp.documents import shown
from rulesdsl.surfaces.lsp.wire import MAX_MESSAGE, Frame, find_id

logger = logging.getLogger(__name__)

Code = lsp.ErrorCodes
# How long an error's message may be, and how many of a message's faults it names.
MESSAGE_CHARS = 300
FAULTS = 3
# lsprotocol's word on an integer out of its range (`Position.line should be in range
# [0:2147483647], but was -1.`): the field, and the bounds.
IN_RANGE = re.compile(r"\.(\w+) should be in range \[(-?\d+):(-?\d+)\]")
# What Python says when a field is read from a value that is no JSON object.
NO_OBJECT = re.compile(r"not subscriptable|indices must be integers")
# How `_fault` marks a fault of the field's parent (the value holding it is no object).
OF_PARENT = "^"
# Types lsprotocol spells with typing's Union (cattrs matches the very type), taking any
# value for them as it comes.
ID = Union[int, str]  # noqa: UP007
MAYBE_ID = Optional[ID]  # noqa: UP045
MAYBE_TEXT_OR_FLAG = Optional[Union[str, bool]]  # noqa: UP007, UP045
# The notification that ends the server: let through in any state.
ALWAYS = (lsp.EXIT,)


class RequestRefused(Exception):
    """A message the server does not act on: why, and whether to answer (a request)."""

    def __init__(
        self, code: int, message: str, ident: MsgId | None = None, request: bool = False
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ident = ident
        self.request = request and ident is not None


@dataclass(frozen=True)
class Envelope:
    """A message read before its params: a request has a method and an id, a notification
    a method, a response an id."""

    data: dict[str, Any]
    method: str | None
    ident: MsgId | None

    @property
    def request(self) -> bool:
        return self.method is not None and self.ident is not None

    def refused(self, code: int, message: str) -> RequestRefused:
        return RequestRefused(code, message, self.ident, self.request)


class Wrong(TypeError):
    """A value of another JSON type than its field's."""


def strict_converter() -> cattrs.Converter:
    """pygls' converter, with no JSON type taken for another: `"1"` and `1.5` are no
    integer, `1` is no string, `"yes"` is not true, and an id or a token (an integer or a
    string, which lsprotocol takes as it comes) is not a list."""
    converter = default_converter()
    hooks = {
        int: _exactly((int,), "an integer"),
        str: _exactly((str,), "a string"),
        bool: _exactly((bool,), "true or false"),
        ID: _exactly((int, str), "an integer or a string"),
        MAYBE_ID: _exactly((int, str, None), "an integer or a string"),
        MAYBE_TEXT_OR_FLAG: _exactly((str, bool, None), "a string, true or false"),
    }
    for kind, hook in hooks.items():
        converter.register_structure_hook(kind, hook)
    converter.register_structure_hook(float, _number)
    return converter


def _exactly(kinds: tuple[type | None, ...], says: str) -> Callable[[object, object], object]:
    """A hook that lets through only values of exactly these types (None for null)."""
    allowed = tuple(type(None) if kind is None else kind for kind in kinds)

    def structure(value: object, _: object) -> object:
        if type(value) not in allowed:
            raise Wrong(f"must be {says}")
        return value

    return structure


def _number(value: object, _: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Wrong("must be a number")
    return float(value)


def read_envelope(data: object) -> Envelope:
    """The message's kind, method and id; RequestRefused when it is no JSON-RPC 2.0 message."""
    if not isinstance(data, dict):
        raise RequestRefused(Code.InvalidRequest, "the message is no JSON object")
    ident = data.get("id")
    if "id" in data and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        raise RequestRefused(
            Code.InvalidRequest, "the message's id is neither an integer nor a string"
        )
    method = data.get("method")
    envelope = Envelope(data, method if isinstance(method, str) else None, ident)
    request = "method" in data and ident is not None
    if data.get("jsonrpc") != "2.0":
        raise RequestRefused(
            Code.InvalidRequest, 'the message does not say "jsonrpc": "2.0"', ident, request
        )
    if "method" in data and envelope.method is None:
        raise RequestRefused(
            Code.InvalidRequest, "the message's method is no string", ident, request
        )
    if envelope.method is None and ident is None:
        raise RequestRefused(Code.InvalidRequest, "the message has neither a method nor an id")
    return envelope


def faults(error: ClassValidationError) -> str:
    """What is wrong with the message's fields, in the protocol's names: a few of them."""
    said = [_placed(*line.rpartition(" @ ")[::2]) for line in transform_error(error, "", _fault)]
    found = list(dict.fromkeys(said))
    more = len(found) - FAULTS
    return "; ".join(found[:FAULTS]) + (f"; and {more} more" if more > 0 else "")


def _placed(fault: str, path: str) -> str:
    """The fault, after the path of the field it is of."""
    if fault.startswith(OF_PARENT):
        path, fault = path.rpartition(".")[0], fault.removeprefix(OF_PARENT)
    elif fault.startswith("."):
        field, _, fault = fault.partition(" ")
        path += field
    return f"{_json_path(path) or 'params'} {fault}"


def _json_path(path: str) -> str:
    """`.params.text_document.uri` as the message spells it: `params.textDocument.uri`."""
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path.lstrip("."))


def _fault(error: BaseException, kind: type | None) -> str:
    if isinstance(error, KeyError):
        return "is missing"
    if isinstance(error, Wrong):
        return str(error)
    if isinstance(error, TypeError) and NO_OBJECT.search(str(error)):
        return f"{OF_PARENT}must be an object"  # cattrs read a field of a value that is none
    if isinstance(error, TypeError) and str(error).startswith("argument of type"):
        return "must be an object"  # cattrs looked for a field in it
    if isinstance(error, TypeError) and "not iterable" in str(error):
        return "must be a list"
    bounds = IN_RANGE.search(str(error)) if isinstance(error, ValueError) else None
    if bounds:
        field, low, high = bounds.groups()
        return f".{field} must be an integer from {low} to {high}"
    return f"must be {_kind(kind)}"


def _kind(kind: type | None) -> str:
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return "one of " + ", ".join(json.dumps(member.value) for member in kind)
    if isinstance(kind, type) and attrs.has(kind):
        return "an object of the protocol's fields"
    return "a value of the protocol's type"


def _takes_no_params(kind: object) -> bool:
    """Whether messages of the type have no params (`shutdown`): structuring would let any
    through."""
    found = attrs.fields_dict(kind).get("params") if attrs.has(kind) else None
    return found is not None and found.type is type(None)


def one_line(text: str) -> str:
    """A message as an answer or a log carries it: its first line, cut short."""
    first = text.strip().split("\n", 1)[0]
    return first if len(first) <= MESSAGE_CHARS else first[: MESSAGE_CHARS - 1] + "…"


class GuardedProtocol(LanguageServerProtocol):
    """pygls' protocol, with every message checked before it is handled (see the module)."""

    def __init__(self, server: Any, converter: cattrs.Converter) -> None:
        super().__init__(server, converter)
        self.initialized = False

    def receive(self, frame: Frame) -> None:
        """Act on one message as the wire gave it; whatever it holds, answer a request."""
        try:
            self._act(read_envelope(self._json(frame)))
        except RequestRefused as refused:
            self.refuse(refused)

    def _act(self, envelope: Envelope) -> None:
        """Check the message, then handle it. A failure of the server's own is said in one
        line (and answered, to a request), and the server reads on."""
        try:
            if not self._admitted(envelope):
                return
            message = self._structure(envelope)
            if envelope.method is not None:
                self._check(envelope, message.params)
            self.handle_message(message)
        except (RequestRefused, BrokenPipeError):
            raise
        except Exception as error:
            logger.error("%s failed: %s", envelope.method or "a response", error)
            if envelope.request:
                said = f"the server failed: {error}"
                error = lsp.ResponseError(Code.InternalError, said)
                self._send_response(envelope.ident, error=error)
        else:
            self.initialized = self.initialized or envelope.method == lsp.INITIALIZE

    def _json(self, frame: Frame) -> object:
        """The message's JSON; RequestRefused (with the id, when it can be found) when it has
        none."""
        if not frame.whole:
            said = f"the message is {frame.length:,} bytes; it may be {MAX_MESSAGE:,} at most"
            raise RequestRefused(Code.InvalidRequest, said, find_id(frame.body), request=True)
        try:
            return json.loads(frame.body)
        except RecursionError:
            said = "the message is nested too deep"
        except json.JSONDecodeError as error:
            said = f"the message is not JSON: {error}"
        except UnicodeDecodeError:
            said = "the message is not text in UTF-8"
        except ValueError:  # a number of more digits than Python reads
            said = "the message holds a number too long to read"
        raise RequestRefused(Code.ParseError, said, find_id(frame.body), request=True)

    def _admitted(self, envelope: Envelope) -> bool:
        """Whether the server acts on the message in its state: an unknown method, or any
        message before `initialize` or after `shutdown`, is refused (a request) or dropped."""
        method = envelope.method
        if method is None or method in ALWAYS:
            return True
        if not self._known(method):
            if envelope.request:
                raise envelope.refused(Code.MethodNotFound, f"no method {shown(method)}")
            if not method.startswith("$/"):
                logger.warning("%s: no such notification; ignored", shown(method))
            return False
        if method == lsp.INITIALIZE and self.initialized:
            raise envelope.refused(Code.InvalidRequest, "the server is initialized already")
        if method != lsp.INITIALIZE and not self.initialized:
            if envelope.request:
                raise envelope.refused(Code.ServerNotInitialized, "send initialize first")
            return False
        if self._shutdown:
            if envelope.request:
                raise envelope.refused(Code.InvalidRequest, "the server is shut down")
            return False
        return True

    def _known(self, method: str) -> bool:
        features = (self.fm.builtin_features, self.fm.features)
        return method == lsp.CANCEL_REQUEST or any(method in found for found in features)

    def _structure(self, envelope: Envelope) -> Any:
        """The message as the protocol's types; RequestRefused when a field is missing or wrong."""
        data, method = envelope.data, envelope.method
        if method == lsp.EXIT:
            data = {"jsonrpc": "2.0", "method": method}
        kind = self._type_of(envelope)
        if _takes_no_params(kind) and data.get("params") is not None:
            raise envelope.refused(Code.InvalidParams, f"{method}: params must be left out")
        try:
            return self._converter.structure(data, kind)
        except ClassValidationError as error:
            said = faults(error)
        except Exception:
            said = "the message cannot be read"
        raise envelope.refused(Code.InvalidParams, f"{method or 'a response'}: {said}")

    def _type_of(self, envelope: Envelope) -> Any:
        if envelope.method is None:
            if "error" in envelope.data:
                return lsp.ResponseErrorMessage
            return self._result_types.pop(envelope.ident, None) or JsonRPCResponseMessage
        found = self.get_message_type(envelope.method)
        if found is not None:
            return found
        return JsonRPCRequestMessage if envelope.request else JsonRPCNotification

    def _check(self, envelope: Envelope, message_params: object) -> None:
        """RequestRefused when the params name what the server does not have (see `params`)."""
        workspace = self._workspace if self.initialized else None
        found = params.problem(workspace, envelope.method or "", message_params)
        if found is not None:
            raise envelope.refused(Code.InvalidParams, f"{envelope.method}: {found}")

    def refuse(self, refused: RequestRefused) -> None:
        """Answer a refused request with its error; log any other refused message."""
        if refused.request:
            error = lsp.ResponseError(code=refused.code, message=refused.message)
            self._send_response(refused.ident, error=error)
        elif refused.code == Code.ParseError:
            logger.error("%s", refused.message)
            self._tell(refused.message)
        else:
            logger.warning("%s; ignored", refused.message)

    def _tell(self, message: str) -> None:
        """Show the user an error no answer carries, in one line."""
        said = lsp.ShowMessageParams(type=lsp.MessageType.Error, message=one_line(message))
        self.notify(lsp.WINDOW_SHOW_MESSAGE, said)

    def _send_response(
        self,
        msg_id: MsgId,
        result: Any | None = None,
        error: lsp.ResponseError | None = None,
    ) -> None:
        """Every answer goes out here: an error's message one short line, with no data (pygls
        puts a traceback there)."""
        if error is not None:
            error = lsp.ResponseError(code=error.code, message=one_line(error.message))
        super()._send_response(msg_id, result, error)

    def _send_handler_result(self, future: Future[Any], *, msg_id: MsgId) -> None:
        """Answer a request with its handler's result; a handler's failure is an internal
        error, said in one line (logged), never with its traceback."""
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            error = lsp.ResponseError(code=lsp.LSPErrorCodes.RequestCancelled, message="cancelled")
            self._send_response(msg_id, error=error)
            return
        failure = future.exception()
        if failure is None:
            self._send_response(msg_id, result=future.result())
        elif isinstance(failure, JsonRpcException):
            self._send_response(msg_id, error=failure.to_response_error())
        else:
            logger.error("request %s failed: %s", msg_id, failure)
            said = f"the server failed: {failure}"
            self._send_response(msg_id, error=lsp.ResponseError(Code.InternalError, said))

    def _check_handler_result(self, future: Future[Any]) -> None:
        """A notification's handler failed: said in one line, logged and shown (pygls would
        show the exception's type and text, in as many lines as it has)."""
        failure = None if future.cancelled() else future.exception()
        if failure is not None:
            logger.error("a notification failed: %s", failure)
            self._tell(f"the server failed: {failure}")
