"""`rulesdsl serve` as a real process: it prints its address, answers there, and stops."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from rulesdsl.surfaces.web.app import STATIC

ADDRESS = re.compile(r"rulesdsl serve: (http://127\.0\.0\.1:(\d+)/) \(workspace (.+)\)")


def test_serve_on_a_free_port_answers_then_stops(tmp_path: Path):
    command = [sys.executable, "-m", "rulesdsl.surfaces", "serve", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--workspace", str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        line = process.stdout.readline()
        found = ADDRESS.fullmatch(line.strip())
        assert found, line
        address, port, workspace = found.groups()
        assert int(port) > 0 and Path(workspace) == tmp_path.resolve()
        with urllib.request.urlopen(address + "api/meta", timeout=30) as answer:
            assert json.load(answer)["workspace"] == str(tmp_path.resolve())
        assert _page_type(address) == (
            "text/html; charset=utf-8" if (STATIC / "index.html").is_file() else "none"
        )
    finally:
        process.terminate()
        assert process.wait(timeout=30) is not None
        process.stdout.close()


def _page_type(address: str) -> str:
    """The type of the page at the address; `none` when the server says it has none."""
    try:
        with urllib.request.urlopen(address, timeout=30) as page:
            return page.headers["content-type"]
    except urllib.error.HTTPError as error:
        assert error.code == 404 and "not installed" in json.load(error)["error"]
        return "none"


def test_serve_refuses_a_port_in_use(tmp_path: Path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "rulesdsl.surfaces", "serve", "--port", str(port)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr


def test_serve_without_the_web_extra_says_what_to_install(tmp_path: Path):
    code = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from rulesdsl.surfaces.main import main; sys.exit(main(['serve', '--port', '0']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and "install rulesdsl[web]" in done.stderr
