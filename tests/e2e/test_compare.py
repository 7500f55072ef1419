"""Comparing in the browser: the charts drawn, and the table's figures those of
`rulesdsl compare --json` for the same profiles, hands, bots and seed."""

from __future__ import annotations

import json
import math
import re
from urllib.parse import urljoin

from playwright.sync_api import expect

from rulesdsl.surfaces.main import main

PROFILES = ["equal-hands", "instant-elimination"]
HANDS = 200
SEED = 5
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]\d+)?")


def cli_json(capsys) -> str:
    capsys.readouterr()
    args = ["compare", *PROFILES, "--hands", str(HANDS), "--seed", str(SEED), "--json"]
    assert main(args) == 0
    return capsys.readouterr().out


def shown(text: str) -> list[float]:
    """The mean and interval a cell shows, as numbers: `35.0% (22.1..50.5)` or `5.55 (5.3..6)`."""
    return [float(n) for n in NUMBER.findall(text)]


def agrees(figure: float, value: float, share: bool) -> bool:
    """Whether `figure` is `value` as the table rounds it: a share to 0.1 point, else to
    three significant figures."""
    if share:
        return abs(figure - 100 * value) <= 0.05 + 1e-9
    if value == 0:
        return figure == 0
    step = 10 ** (math.floor(math.log10(abs(value))) - 2)
    return abs(figure - value) <= step / 2 + 1e-9


def test_a_comparison_draws_its_charts_and_shows_the_command_lines_figures(
    page, screenshots, capsys
):
    page.click("#tab-compare")
    for box in page.locator("#compare-profiles input").all():
        box.set_checked(box.get_attribute("value") in {f"shipped:{p}" for p in PROFILES})
    page.fill("#compare-hands", str(HANDS))
    page.fill("#compare-seed", str(SEED))
    page.click("#compare-run")
    expect(page.locator("#compare-status")).to_have_text("Done.", timeout=60_000)
    expect(page.locator("#compare-progress")).to_have_attribute("value", str(HANDS))
    expect(page.locator("#chart-seats rect.bar")).to_have_count(4 * len(PROFILES))
    expect(page.locator("#chart-lengths polyline")).to_have_count(len(PROFILES))
    expect(page.locator("#chart-coverage rect.bar").first).to_be_visible()
    page.screenshot(path=screenshots / "web-compare.png")

    expected = cli_json(capsys)
    data = json.loads(expected)
    rows = page.locator("#compare-table tbody tr")
    expect(rows).to_have_count(len(data["metrics"]))
    for metric in data["metrics"]:
        row = page.locator(f"#compare-table tr[data-metric='{metric['name']}']")
        expect(row.locator("th")).to_have_text(metric["label"])
        for label in PROFILES:
            e = data["profiles"][label]["metrics"][metric["name"]]
            figures = shown(row.locator(f"td[data-profile='{label}']").inner_text())
            wanted = [e["mean"], e["low"], e["high"]]
            assert len(figures) == 3, (metric, figures)
            assert all(
                agrees(f, v, metric["share"]) for f, v in zip(figures, wanted, strict=True)
            ), (
                metric["name"],
                label,
                figures,
                wanted,
            )

    download = page.request.get(urljoin(page.url, page.get_attribute("#compare-json", "href")))
    assert download.text() == expected
    csv = page.request.get(urljoin(page.url, page.get_attribute("#compare-csv", "href")))
    assert csv.text().startswith("kind,profile,other,metric,mean,low,high,n,clear,note\n")


def test_cancel_stops_a_comparison_even_before_its_job_is_named_and_search_bounds_hands(page):
    page.click("#tab-compare")
    held = []
    page.route("**/api/compare", lambda route: held.append(route))  # held back: no job yet
    # A cancel takes effect at once, its worker ended mid-task: 2,000 hands stop short.
    hands = 2000
    page.fill("#compare-hands", str(hands))
    page.click("#compare-run")
    expect(page.locator("#compare-run")).to_be_disabled()
    page.click("#compare-cancel")
    expect(page.locator("#compare-status")).to_have_text("Cancelling…")
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#compare-status")).to_have_text("Cancelled.", timeout=60_000)
    expect(page.locator("#compare-run")).to_be_enabled()
    expect(page.locator("#compare-result")).to_be_hidden()
    assert float(page.get_attribute("#compare-progress", "value")) < hands

    most = page.evaluate("fetch('/api/meta').then(r => r.json()).then(m => m.limits.search_hands)")
    page.select_option("#compare-good", "pimc:10")
    expect(page.locator("#compare-hands")).to_have_value(str(most))
    expect(page.locator("#compare-status")).to_contain_text("With a search bot")


def choose(page, profiles: list[str]) -> None:
    """On the Compare tab, just `profiles` checked."""
    chosen = {f"shipped:{p}" for p in profiles}
    page.click("#tab-compare")
    for box in page.locator("#compare-profiles input").all():
        box.set_checked(box.get_attribute("value") in chosen)


def compared(page, capsys, hands: int, *options: str) -> dict:
    """Run the comparison chosen on `hands` hands and the seed: its JSON, checked to be
    what `rulesdsl compare` prints with `options` for the same choices."""
    page.fill("#compare-hands", str(hands))
    page.fill("#compare-seed", str(SEED))
    page.click("#compare-run")
    expect(page.locator("#compare-status")).to_have_text("Done.", timeout=60_000)
    shown = page.request.get(urljoin(page.url, page.get_attribute("#compare-json", "href")))
    data = json.loads(shown.text())
    capsys.readouterr()
    args = [*data["profiles"], "--hands", str(hands), "--seed", str(SEED), *options, "--json"]
    assert main(["compare", *args]) == 0
    assert shown.text() == capsys.readouterr().out
    return data


def test_the_baseline_picked_is_the_profile_the_others_are_measured_against(page, capsys):
    choose(page, [*PROFILES, "seven-card-hands"])
    expect(page.locator("#compare-baseline option")).to_have_count(3)
    page.select_option("#compare-baseline", "shipped:seven-card-hands")
    data = compared(page, capsys, 50, "--baseline", "seven-card-hands")
    assert data["baseline"] == "seven-card-hands"
    expect(page.locator("#compare-verdicts li")).to_have_text(data["summary"])
    headings = page.locator("#compare-pairs h2")
    expect(headings).to_have_count(2)
    for heading in headings.all():
        expect(heading).to_contain_text("\N{MINUS SIGN} seven-card-hands, paired")


def test_asked_which_rule_caused_what_the_page_says_it_as_compare_attribute_does(page, capsys):
    choose(page, ["equal-hands", "no-trumps"])
    page.set_checked("#compare-attribute", True)
    data = compared(page, capsys, 50, "--attribute")
    expect(page.locator("#compare-attribution li")).to_have_text(data["attribution_summary"])
    expect(page.locator("#compare-attribution li").first).to_contain_text("which rule caused what")
