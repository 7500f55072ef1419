"""Editing in the browser: a typo's diagnostic and its fix; saving, a reload, a conflict."""

from __future__ import annotations

from playwright.sync_api import expect

TYPO = """\
profile "house" extends "equal-hands" {
    title "Our kitchen-table rules"
    source "agreed at the table, 2026"

    hand_size players + 1  # integer values are expressions over players
    elimination imediate
    assumed exhaustion play_out "we never settled this"
}
"""


def test_a_typo_shows_its_diagnostic_and_one_click_mends_it(page, screenshots):
    # The page opens on the shipped equal-hands, where the stock never runs out.
    page.click("#side-dead")
    expect(page.locator("#edit-dead li").first).to_contain_text("exhaustion: never comes into play")
    page.click("#side-sheet")
    page.fill("#edit-text", TYPO.replace("imediate", "immediate"))
    expect(page.locator("#edit-sheet .sheet h3")).to_have_text("Our kitchen-table rules")
    page.fill("#edit-text", TYPO)
    diagnostic = page.locator("#edit-diagnostics li.diagnostic").first
    expect(diagnostic).to_contain_text("imediate")
    expect(diagnostic.locator(".where")).to_have_text("6:17")
    expect(diagnostic.locator("pre.caret")).to_contain_text("^~~~~~~~")
    expect(page.locator("#edit-highlight .sq-error")).to_have_text("imediate")
    expect(page.locator("#edit-highlight .tok-option").nth(3)).to_have_text("elimination")
    expect(page.locator("#edit-highlight .tok-comment")).to_contain_text("# integer values")
    expect(page.locator("#edit-side-note")).to_contain_text("The text has errors")
    page.screenshot(path=screenshots / "web-edit.png")

    diagnostic.locator("button.fix-button").click()
    expect(page.locator("#edit-summary")).to_have_text("The profile reads: no problems.")
    assert "elimination immediate\n" in page.input_value("#edit-text")
    expect(page.locator("#edit-diagnostics li")).to_have_count(0)
    expect(page.locator("#edit-sheet .sheet h3")).to_have_text("Our kitchen-table rules")
    expect(page.locator("#edit-side-note")).to_be_hidden()
    expect(page.locator("#edit-sheet .sheet h4").first).to_have_text("Set-up")
    page.select_option("#edit-lang", "uk")
    expect(page.locator("#edit-sheet .sheet h4").first).to_have_text("Підготовка")
    page.click("#side-diff")
    expect(page.locator("#edit-diff table.diff")).to_contain_text("elimination")
    page.click("#side-dead")
    expect(page.locator("#edit-dead")).to_contain_text("Every option and stated rule can act")
    page.screenshot(path=screenshots / "edit-fixed.png")


def test_saved_work_survives_a_reload_and_a_save_from_elsewhere_is_never_overwritten(
    page, served, screenshots
):
    mine = TYPO.replace("imediate", "immediate")
    page.fill("#edit-text", mine)
    page.fill("#edit-name", "kitchen.rules")
    page.click("#edit-save")
    expect(page.locator("#edit-status")).to_have_text("Saved kitchen.rules in the workspace.")
    saved = served.workspace / "kitchen.rules"
    assert saved.read_text() == mine

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#edit-status")).to_have_text("Editing kitchen.rules from the workspace.")
    assert page.input_value("#edit-text") == mine
    assert page.input_value("#edit-name") == "kitchen.rules"

    theirs = mine.replace("immediate", "after_draw")
    saved.write_text(theirs)  # another tab saves the same file meanwhile
    edited = mine.replace("}", "    draw 2\n}")
    page.fill("#edit-text", edited)
    expect(page.locator("#edit-highlight .tok-option").filter(has_text="draw")).to_have_count(1)
    page.click("#edit-save")
    expect(page.locator("#edit-conflict")).to_be_visible()
    expect(page.locator("#edit-conflict-text")).to_contain_text("Your text is still here")
    assert saved.read_text() == theirs
    assert page.input_value("#edit-text") == edited
    page.screenshot(path=screenshots / "edit-conflict.png")

    page.click("#edit-save-copy")
    expect(page.locator("#edit-status")).to_have_text("Saved kitchen-2.rules in the workspace.")
    assert (served.workspace / "kitchen-2.rules").read_text() == edited
    assert saved.read_text() == theirs


def test_text_from_a_profile_is_shown_as_text_never_as_markup(page):
    markup = "<img src=x id=injected><b id=bold>bold</b>"
    page.fill("#edit-text", f'profile "x" {{\n    title "{markup}"\n    folow suit\n}}\n')
    expect(page.locator("#edit-diagnostics li.diagnostic").first).to_contain_text("folow")
    expect(page.locator("#edit-highlight")).to_contain_text(markup)
    page.locator("#edit-diagnostics button.fix-button").first.click()
    expect(page.locator("#edit-sheet .sheet h3")).to_have_text(markup)
    assert page.locator("#injected, #bold").count() == 0


def test_text_typed_while_a_profile_is_on_its_way_is_kept(page):
    held = []
    page.route("**/api/profiles/bicycle", lambda route: held.append(route))
    page.select_option("#edit-source", "shipped:bicycle")
    page.click("#edit-open")
    while not held:
        page.wait_for_timeout(20)
    typed = 'profile "mine" extends "equal-hands" {\n    draw 2\n}\n'
    page.fill("#edit-text", typed)
    held[0].continue_()
    expect(page.locator("#edit-status")).to_contain_text("Kept your text")
    assert page.input_value("#edit-text") == typed


def test_the_page_is_ready_only_once_its_first_text_is_in_the_editor(browser, served):
    context = browser.new_context()
    page = context.new_page()
    held = []
    page.route("**/api/profiles/**", lambda route: held.append(route))
    page.goto(served.url)
    while not held:
        page.wait_for_timeout(20)
    assert page.locator("body[data-ready=true]").count() == 0
    held[0].continue_()
    page.wait_for_selector("body[data-ready=true]")
    assert 'profile "equal-hands"' in page.input_value("#edit-text")
    context.close()
