"""fmt and convert keep how a file lays its text down: its line endings and its byte-order
mark, for every shipped profile in every such form."""

import pytest

from rulesdsl.read.profile import shipped_files
from rulesdsl.read.sources import BOM, TextForm
from rulesdsl.surfaces.main import main

FORMS = [TextForm(newline, bom) for newline in ("\n", "\r\n") for bom in (False, True)]
SHIPPED = shipped_files()


def laid(form: TextForm, text: str) -> bytes:
    return form.marked(form.lines(text)).encode("utf-8")


@pytest.mark.parametrize("form", FORMS, ids=["lf", "lf-bom", "crlf", "crlf-bom"])
def test_fmt_and_convert_keep_line_endings_and_the_mark(tmp_path, capsys, form):
    for shipped in SHIPPED:
        text = shipped.read_text(encoding="utf-8")
        canonical = tmp_path / f"canonical{shipped.suffix}"
        canonical.write_text(text, encoding="utf-8", newline="")
        assert main(["fmt", str(canonical)]) == 0
        expected = canonical.read_text(encoding="utf-8")
        path = tmp_path / shipped.name
        path.write_bytes(laid(form, expected))
        assert main(["fmt", "--check", str(path)]) == 0, shipped.name
        assert main(["fmt", str(path)]) == 0
        assert path.read_bytes() == laid(form, expected), shipped.name
        other = "yaml" if shipped.suffix == ".rules" else "dsl"
        out = tmp_path / f"converted-{shipped.stem}.{other}"
        assert main(["convert", str(path), "--to", other, "-o", str(out)]) == 0
        data = out.read_bytes()
        assert data.startswith(BOM.encode()) == form.bom
        body = data.decode("utf-8").removeprefix(BOM)
        assert body.count("\r\n") == (body.count("\n") if form.newline == "\r\n" else 0)
        capsys.readouterr()


@pytest.mark.parametrize("form", FORMS, ids=["lf", "lf-bom", "crlf", "crlf-bom"])
def test_a_reformatted_file_keeps_its_form(tmp_path, capsys, form):
    path = tmp_path / "p.rules"
    path.write_bytes(laid(form, 'profile "p" extends "equal-hands" {\n    draw   1\n}\n'))
    assert main(["fmt", str(path)]) == 0
    assert path.read_bytes() == laid(form, 'profile "p" extends "equal-hands" {\n    draw 1\n}\n')


def test_the_form_is_the_first_lines():
    assert TextForm.of(b"a\r\nb\n") == TextForm("\r\n", False)
    assert TextForm.of(b"a\nb\r\n") == TextForm("\n", False)
    assert TextForm.of(BOM.encode() + b"x") == TextForm("\n", True)
    assert TextForm.of(b"\r\n") == TextForm("\r\n", False)
    assert TextForm.of(b"") == TextForm("\n", False)
