"""The page in a real browser: the server in-process (uvicorn in a thread, on a free port,
over a temporary workspace) and the distribution's headless Chromium driven by Playwright.

Without Chromium the tests are skipped locally; under CI=true they fail instead, since
.ci/run installs it. Each test saves screenshots in a folder under pytest's temporary path,
or in $RULESDSL_SCREENSHOTS when that is set."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
REFUSAL = "Failed to load resource: the server responded with a status of 4"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: .ci/run installs it (.ci/install-chromium)")
    pytest.skip(f"{reason}: install it with .ci/install-chromium (apt-get install chromium)")


@pytest.fixture(scope="session")
def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        _missing("chromium is not installed")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("the playwright package is not installed")
    return path


@dataclass(frozen=True)
class Served:
    url: str
    workspace: Path


@pytest.fixture(scope="package")
def served(tmp_path_factory) -> Iterator[Served]:
    uvicorn = pytest.importorskip("uvicorn")
    from rulesdsl.surfaces.web.app import create_app

    workspace = tmp_path_factory.mktemp("workspace")
    config = uvicorn.Config(create_app(workspace), host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            pytest.fail("the server did not start")
        thread.join(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield Served(f"http://127.0.0.1:{port}/", workspace)
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    folder = os.environ.get("RULESDSL_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="package")
def browser(chromium):
    """One headless Chromium for these tests; Playwright starts it on a fresh temporary
    user-data-dir of its own. Package scope: Playwright's synchronous driver holds an event
    loop in this thread while it runs, so it must stop before tests that run loops of
    their own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _unexpected(message) -> bool:
    """A console error other than the browser's note of a refusal the test asked for (the
    page shows those itself: a 409 on saving, a 422 for a refused card)."""
    refusal = message.text.startswith(REFUSAL)
    return message.type == "error" and not refusal


@pytest.fixture
def page(browser, served):
    """A page of the app in a context of its own (no storage from other tests); it fails the
    test on any error the page logs (a refused inline style or script among them)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if _unexpected(m) else None)
    page.goto(served.url)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert errors == [], errors
