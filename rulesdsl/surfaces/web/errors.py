"""The API's refusals: a status and one message, as `{"error": message}` (with any other
fields the page needs, such as the current version of a file)."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request the server refuses: the HTTP status, what was wrong, and extra fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **self.extra}


def bad(message: str, **extra: Any) -> ApiError:
    return ApiError(400, message, **extra)


def not_found(message: str) -> ApiError:
    return ApiError(404, message)
