"""Playing in the browser: a card played, a refused card shown with its rule, a replay."""

from __future__ import annotations

import json
from urllib.parse import urljoin

from playwright.sync_api import expect


def deal(page, profile: str, seed: int, bots: list[str]) -> None:
    page.click("#tab-play")
    page.select_option("#play-profile", f"shipped:{profile}")
    page.fill("#play-players", str(len(bots)))
    page.dispatch_event("#play-players", "change")
    for seat, bot in enumerate(bots):
        page.select_option(f"#play-bot-{seat}", bot)
    page.fill("#play-seed-input", str(seed))
    page.click("#play-start")
    expect(page.locator("#play-seed")).to_have_text(str(seed))


def test_a_refused_card_names_its_rule_and_a_legal_one_is_played(page, screenshots):
    # Seed 7: the bots lead diamonds and hearts are trumps; seat 0 holds 8C, 7D, KH, AH.
    deal(page, "bicycle", 7, ["human", "lowest", "lowest", "lowest"])
    expect(page.locator("#play-trump svg.card")).to_have_attribute("data-card", "KH")
    expect(page.locator("#play-stock-count")).to_have_text("36")
    expect(page.locator("#play-trick svg.card")).to_have_count(3)
    refused = page.locator("#play-hand button.card-button.refused")
    expect(refused).to_have_count(1)
    expect(refused).to_have_attribute("data-card", "8C")
    refused.hover()
    tooltip = page.locator("#play-tooltip")
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("refused by follow")
    expect(tooltip).to_contain_text("follow suit or play a trump")
    page.screenshot(path=screenshots / "web-play.png")

    refused.click()
    expect(page.locator("#play-message")).to_contain_text("8C is refused by follow")
    expect(page.locator("#play-hand button.card-button")).to_have_count(4)

    page.click("#play-hand button.card-button[data-card='7D']")
    expect(page.locator("#play-hand button.card-button[data-card='7D']")).to_have_count(0)
    expect(page.locator("#play-log")).to_contain_text("seat 0 (you) plays 7D")


def test_a_hand_of_a_match_replays_step_by_step_downloads_as_a_trace_and_the_next_is_dealt(
    page, screenshots
):
    page.click("#tab-play")
    page.check("#play-match")
    deal(page, "equal-hands", 11, ["human", "heuristic", "random", "pimc:10"])
    for _ in range(60):
        if page.locator("#play-after").is_visible():
            break
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/move")):
            page.locator("#play-hand button.card-button.legal").first.click()
        page.wait_for_function(
            "() => document.querySelector('#play-hand button.legal')"
            " || document.querySelector('#play-after:not([hidden])')"
        )
    expect(page.locator("#play-after")).to_be_visible()
    expect(page.locator("#play-message")).to_contain_text("the hand")
    steps = int(page.get_attribute("#replay-slider", "max")) + 1
    assert steps > 4
    page.click("#replay-prev")
    expect(page.locator("#replay-step")).to_have_text(f"step {steps - 1} of {steps}")
    page.fill("#replay-slider", "0")
    expect(page.locator("#replay-step")).to_have_text(f"step 1 of {steps}")
    page.click("#replay-next")
    expect(page.locator("#replay-step")).to_have_text(f"step 2 of {steps}")
    page.screenshot(path=screenshots / "play-replay.png")
    href = page.get_attribute("#play-trace", "href")
    trace = page.request.get(urljoin(page.url, href))
    assert trace.ok
    assert "attachment" in trace.headers["content-disposition"]
    events = [json.loads(line)["event"] for line in trace.text().splitlines()]
    assert events[0] == "deal"
    assert "hand_end" in events

    page.click("#play-next")
    expect(page.locator("#play-info")).to_contain_text("Hand 2")
    expect(page.locator("#play-info")).to_contain_text("Points")
