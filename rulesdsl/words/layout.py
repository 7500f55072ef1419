"""Reports laid out for the width they have: cells kept whole, plain text off a terminal."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

PIPED_WIDTH = 100
"""The width of a report written to a file or a pipe, unless one is asked for."""

LABEL_MIN = 22
"""The narrowest a table's wrapping first column may become before the table is restacked."""

# Rich's SIMPLE_HEAD in ASCII: a row of dashes under the header, nothing else.
_PLAIN_BOX = "    \n    \n -- \n    \n    \n    \n    \n    \n"


@dataclass(frozen=True)
class Page:
    """Where a report is printed: its width, and whether it is plain (no colour, ASCII only)."""

    width: int
    plain: bool = True

    @classmethod
    def for_stdout(cls, width: int | None = None, most: int | None = None) -> Page:
        """The terminal's width on a terminal, else PIPED_WIDTH, at most `most` (prose reads
        best at a measure); `width`, when given, overrides all of these."""
        terminal = sys.stdout.isatty()
        if width is None:
            width = shutil.get_terminal_size().columns if terminal else PIPED_WIDTH
            width = min(width, most or width)
        return cls(width, plain=not terminal)

    def console(self) -> Console:
        import io

        from rich.console import Console

        return Console(
            file=io.StringIO(),
            width=self.width,
            force_terminal=not self.plain,
            no_color=self.plain,
            color_system=None if self.plain else "auto",
            highlight=False,
            emoji=False,
            markup=False,
            legacy_windows=False,
        )

    def render(self, parts: Sequence[Any]) -> str:
        """The renderables (tables, texts, strings) one after another, as text."""
        console = self.console()
        with console.capture() as captured:
            for part in parts:
                console.print(part)
        return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table | None:
        """A table whose cells after the first column are never broken; the first column
        wraps at spaces (down to LABEL_MIN) to make room. None when even that does not fit."""
        full = self._table(headers, rows, None)
        natural = self._measure(full)
        if natural <= self.width:
            return full
        from rich.cells import cell_len

        first = max(cell_len(cell) for cell in [headers[0], *(row[0] for row in rows)])
        room = first - (natural - self.width)
        if room < LABEL_MIN:
            return None
        return self._table(headers, rows, room)

    def _table(
        self, headers: Sequence[str], rows: Sequence[Sequence[str]], first_width: int | None
    ) -> Table:
        from rich import box
        from rich.table import Table
        from rich.text import Text

        table = Table(
            box=box.Box(_PLAIN_BOX, ascii=True) if self.plain else box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            collapse_padding=True,
            header_style="" if self.plain else "bold",
        )
        table.add_column(Text(headers[0]), max_width=first_width, overflow="fold")
        for header in headers[1:]:
            table.add_column(Text(header), justify="right", no_wrap=True)
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        return table

    def _measure(self, table: Table) -> int:
        from rich.measure import Measurement

        console = self.console()
        wide = console.options.update_width(10_000)
        return Measurement.get(console, wide, table).maximum


def text(content: str) -> Any:
    """A paragraph for `Page.render`: wrapped at spaces, never read as markup."""
    from rich.text import Text

    return Text(content)


def wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """Lines of at most `width` characters, never splitting a word (a word longer than
    the line stands alone on its own), `first` before the first line, `rest` before the
    others."""
    return textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
