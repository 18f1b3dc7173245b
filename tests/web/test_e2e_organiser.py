"""The organiser's page in a browser (``rummykit serve --organiser``): the address the server printed
shows every table, its key leaves the address bar, and closing a table tells its player why."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from tests.web.pages import Pages, seeded_table

SERVER_ARGS = ("--organiser",)
ISOLATE, END = "\u2068", "\u2069"
"""A label is set among the page's words isolated (first strong isolate … pop directional isolate)."""


def organiser_address(module_server: Any) -> str:
    """The organiser's address as ``rummykit serve`` printed it at its start."""
    found = re.search(r"organiser's page is (http://\S+/#organise=[A-Za-z0-9_-]+)", module_server.output())
    assert found, module_server.output()
    return found.group(1)


def organiser_page(pages: Pages, module_server: Any) -> tuple[Any, dict[str, str]]:
    """The organiser's page in German, loaded, and the headers that show its key."""
    organiser = pages.open(locale="de-DE")
    organiser.goto(organiser_address(module_server))
    organiser.wait_for_selector("#organise #create-form #preset option[value=gin]", state="attached")
    key = organiser.evaluate("sessionStorage.getItem('rummykit:organiser')")
    return organiser, {"Authorization": f"Bearer {key}"}


def organised_table(organiser: Any, pages: Pages, headers: dict[str, str], **spec: Any) -> tuple[str, Any]:
    """A table the organiser makes (``spec``) and the page of the pupil Ada, seated there and waiting."""
    made = organiser.request.post(f"{pages.base}/api/organiser/tables", data=spec, headers=headers)
    code: str = made.json()["code"]
    pupil = pages.open(locale="de-DE")
    pupil.goto(f"{pages.base}/?table={code}")
    pupil.fill("#join-name", "Ada")
    pupil.click("#btn-name-join")
    pupil.wait_for_selector("#waiting:not(.hidden)")
    return code, pupil


def play_out_gin(pupil: Any, web: Any) -> None:
    """The pupil plays the started gin hand (a match of one) to its end: a knock as soon as one is legal."""
    pupil.wait_for_function("S.state && S.state.table.status === 'playing' && S.state.view !== null")
    rng = random.Random(3)
    for _ in range(400):
        pupil.wait_for_function("S.state.match.is_over || S.state.legal.length > 0")
        if pupil.evaluate("S.state.match.is_over"):
            return
        legal: list[str] = pupil.evaluate("S.state.legal")
        knocks = [a for a in legal if a.startswith("knock")]
        web.act_and_wait(pupil, knocks[0] if knocks else rng.choice(legal))
    pytest.fail("the gin hand did not end")


def put_away(pupil: Any, pages: Pages, code: str) -> Any:
    """Close the pupil's page (the tablet is put away) once the server knows it gone from table
    ``code`` (a closed page's connection ends a moment later); the browser context, to come back in."""
    context = pupil.context
    pupil.close()
    for _ in range(100):
        if not context.request.get(f"{pages.base}/api/tables/{code}").json()["seats"][0]["connected"]:
            return context
        time.sleep(0.05)
    pytest.fail("the server still counts the closed page as connected")


def test_the_organiser_sees_a_practice_table_and_closes_it(pages: Pages, module_server: Any) -> None:
    player = pages.open()
    seeded_table(player, pages.base, "german", 5, seats=3, bot="random", name="Pia")
    code = player.evaluate("S.code")
    organiser = pages.open()
    organiser.goto(organiser_address(module_server))
    row = organiser.locator("#organise-tables tbody tr", has_text=code)
    row.wait_for()
    assert organiser.url.endswith("/?organise")  # the key is not left in the address bar
    text = row.inner_text()
    assert "German Rummy" in text and "by link only" in text and "playing" in text and "Pia 0" in text
    assert row.locator("a", has_text="Watch").get_attribute("href") == f"/?table={code}&watch=1"
    organiser.reload()  # the key is kept for the tab
    row.wait_for()
    organiser.once("dialog", lambda dialog: dialog.accept())
    row.locator("button", has_text="Close").click()
    rows = "[...document.querySelectorAll('#organise-tables tbody tr')]"
    organiser.wait_for_function(f"{rows}.some((r) => r.textContent.includes('closed'))")
    assert row.locator("button").count() == 0  # an ended table cannot be closed again
    player.wait_for_function("S.state.table.status === 'closed'")
    player.wait_for_function("document.body.innerText.includes('the organiser closed this table')")


def test_a_wrong_key_shows_no_table(pages: Pages) -> None:
    player = pages.open()
    seeded_table(player, pages.base, "gin", 6, name="Tom")
    code = player.evaluate("S.code")
    stranger = pages.open(locale="de-DE")
    stranger.goto(f"{pages.base}/#organise=guessed")
    stranger.wait_for_selector("#organise-error:not(.hidden)")
    assert "Seite der Spielleitung" in stranger.inner_text("#organise-error")
    assert code not in stranger.inner_text("body")


def test_the_organiser_makes_tables_and_a_pupil_joins_by_the_link(
    pages: Pages, module_server: Any, tmp_path: Any
) -> None:
    organiser = pages.open()
    organiser.goto(organiser_address(module_server))
    organiser.wait_for_selector("#organise #create-form #preset option[value=gin]", state="attached")
    assert organiser.locator("#create-form input[name=name]").is_hidden()  # the organiser takes no seat
    organiser.select_option("#preset", "gin")
    organiser.fill("#create-form input[name=bots]", "0")
    organiser.fill("#create-form input[name=count]", "2")
    organiser.click("#btn-create")
    boxes = organiser.locator("#organise-tables .join-box")
    organiser.wait_for_function("document.querySelectorAll('#organise-tables .join-box').length === 2")
    codes = boxes.locator(".big-code").all_inner_texts()
    link = boxes.first.locator(".join-link").inner_text()
    assert link == f"{pages.base}/?table={codes[0]}"
    row = organiser.locator("#organise-tables tbody tr", has_text=codes[0])
    start = row.locator("button", has_text="Start")
    assert start.is_disabled()  # nobody sits there yet
    # A pupil opens the link from the board, gives a name and waits for the organiser.
    pupil = pages.open()
    pupil.goto(link)
    pupil.fill("#join-name", "Ada")
    pupil.click("#btn-name-join")
    pupil.wait_for_selector("#waiting:not(.hidden)")
    pupil.wait_for_function("S.seat === 0")
    assert pupil.locator("#btn-start").is_hidden()  # seat 1, but no host
    assert pupil.inner_text("#wait-note") == "The organiser starts this table."
    row.filter(has_text="Ada").wait_for()
    assert start.is_enabled()
    organiser.screenshot(path=str(tmp_path / "organiser-1280.png"), full_page=True)
    organiser.click("#btn-start-all")
    told = "Started: 1. Still waiting for players: 1."
    organiser.wait_for_function("t => $('#organise-started').textContent === t", arg=told)
    pupil.wait_for_selector("#game:not(.hidden)")
    pupil.wait_for_function("S.state.table.status === 'playing' && S.state.view !== null")
    row.filter(has_text="playing").wait_for()
    phone = pages.open(viewport={"width": 390, "height": 844})
    phone.goto(organiser_address(module_server))
    phone.wait_for_selector("#organise-tables .join-box")
    phone.screenshot(path=str(tmp_path / "organiser-390.png"), full_page=True)
    print(f"screenshots: {tmp_path}")


def test_the_organiser_labels_the_tables_and_the_pupils_see_them(pages: Pages, module_server: Any) -> None:
    """The class is told "Rot 1" and "Rot 2", not two codes: the organiser gives the tables a label
    (numbered when several are made at once), shown above each code on the organiser's list, in the
    waiting room and in the table's header, as text (markup typed into it is shown, not run)."""
    organiser = pages.open(locale="de-DE")
    organiser.goto(organiser_address(module_server))
    organiser.wait_for_selector("#organise #create-form #preset option[value=gin]", state="attached")
    assert organiser.inner_text("#organise-label span") == "Bezeichnung (am Tisch zu sehen)"
    assert organiser.get_attribute("#create-form input[name=label]", "placeholder") == "Gruppe A"
    organiser.select_option("#preset", "gin")
    organiser.fill("#create-form input[name=bots]", "0")
    organiser.fill("#create-form input[name=count]", "2")
    organiser.fill("#create-form input[name=label]", "<i>Rot</i>")
    organiser.click("#btn-create")
    labels = "[...document.querySelectorAll('#organise-tables .table-label')].map((e) => e.textContent)"
    organiser.wait_for_function(f"{labels}.filter((l) => l.startsWith('<i>Rot</i>')).length === 2")
    assert organiser.evaluate(labels)[-2:] == ["<i>Rot</i> 1", "<i>Rot</i> 2"]
    assert organiser.locator("#organise-tables i").count() == 0  # shown as text, never as markup
    box = organiser.locator("#organise-tables .join-box", has_text="<i>Rot</i> 2")
    code = box.locator(".big-code").inner_text()

    pupil = pages.open(viewport={"width": 360, "height": 640}, locale="de-DE", has_touch=True)
    pupil.goto(f"{pages.base}/?table={code}")
    pupil.fill("#join-name", "Ada")
    pupil.click("#btn-name-join")
    pupil.wait_for_selector("#waiting:not(.hidden)")
    assert pupil.inner_text("#waiting h2") == f"Warten auf Mitspieler · {code} · {ISOLATE}<i>Rot</i> 2{END}"
    row = organiser.locator("#organise-tables tbody tr", has_text="Ada")
    row.wait_for()
    row.locator("button", has_text="Starten").click()
    pupil.wait_for_selector("#game:not(.hidden)")
    pupil.wait_for_function("S.state.table.status === 'playing'")
    assert pupil.inner_text("#table-info").startswith(f"{ISOLATE}<i>Rot</i> 2{END} · {code} · ")
    assert pupil.locator("#table-info i").count() == 0
    wide = pupil.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide


def test_the_organiser_opens_the_rematch_and_the_pupil_is_moved_there(
    pages: Pages, module_server: Any, web: Any
) -> None:
    """After the class's matches the organiser presses one button: the pupil's page goes to their seat
    at the rematch (the same label), which starts at once, and the organiser's list says where."""
    organiser, bearer = organiser_page(pages, module_server)
    spec = {"preset": "gin", "seats": 2, "seed": 4, "bots": [{"kind": "random"}], "label": "Tisch am Fenster"}
    code, pupil = organised_table(organiser, pages, bearer, **spec)
    row = organiser.locator("#organise-tables tbody tr", has_text="Ada")
    row.locator("button", has_text="Starten").click()
    play_out_gin(pupil, web)
    pupil.wait_for_selector("#overlay:not(.hidden) #match-over")
    assert "Revanche (du behältst deinen Platz)" in pupil.inner_text("#overlay")
    organiser.wait_for_selector("#btn-rematch-all:not(.hidden)", timeout=15000)
    organiser.click("#btn-rematch-all")
    organiser.wait_for_function("$('#organise-started').textContent === 'Revanchen eröffnet: 1.'")
    pupil.wait_for_function(f"S.code && S.code !== '{code}' && S.state && S.state.table.status === 'playing'")
    new = pupil.evaluate("S.code")
    assert pupil.evaluate("S.seat") == 0
    assert pupil.inner_text("#table-info").startswith(f"{ISOLATE}Tisch am Fenster{END} · {new} · ")
    organiser.locator("#organise-tables tbody tr", has_text=f"Revanche an {new}").wait_for()
    assert organiser.locator("#btn-rematch-all").is_hidden()  # one rematch per table


# The x of each character of the code in the header, in the order of the text.
CODE_XS = """(code) => {
  const node = document.querySelector('#table-info').firstChild, at = node.textContent.indexOf(code);
  return [...code].map((_, i) => {
    const range = document.createRange();
    range.setStart(node, at + i); range.setEnd(node, at + i + 1);
    return range.getBoundingClientRect().x;
  });
}"""


def test_a_right_to_left_label_leaves_the_code_after_it_as_it_is(pages: Pages, module_server: Any) -> None:
    """A Hebrew label ending in a number carried the digits of the code after it into its own direction:
    "קבוצה 1 · 3HY4KJ" showed as "3 · 1 קבוצה HY4KJ", and a pupil read the code wrong. The label is
    isolated: the code's characters stand left to right, after the label."""
    headers = {"Authorization": f"Bearer {organiser_address(module_server).split('#organise=')[1]}"}
    pupil = pages.open()
    code = ""
    for _ in range(40):  # a code that begins with a digit (the digit went over to the label's side)
        made = pupil.request.post(f"{pages.base}/api/organiser/tables", headers=headers,
                                  data={"preset": "gin", "seats": 2, "label": "קבוצה 1"})  # fmt: skip
        assert made.status == 201, made.text()
        code = made.json()["code"]
        if code[0].isdigit():
            break
    assert code[0].isdigit(), code
    pupil.goto(f"{pages.base}/?table={code}")
    pupil.fill("#join-name", "Ada")
    pupil.click("#btn-name-join")
    pupil.wait_for_selector("#waiting:not(.hidden)")
    assert pupil.request.post(f"{pages.base}/api/organiser/tables/{code}/start", headers=headers).ok
    pupil.wait_for_function("S.state && S.state.table.status === 'playing'")
    xs = pupil.evaluate(CODE_XS, code)
    label_right = pupil.evaluate(
        """() => {
        const node = document.querySelector('#table-info').firstChild, range = document.createRange();
        range.setStart(node, 0); range.setEnd(node, node.textContent.indexOf('·'));
        return range.getBoundingClientRect().right; }"""
    )
    assert xs == sorted(xs) and xs[0] > label_right, (xs, label_right)


def test_the_organiser_renames_a_table_from_the_keyboard_and_the_pupil_sees_it(
    pages: Pages, module_server: Any
) -> None:
    """A wrong group typed at the making is put right from the list: the table's Rename button (named
    for a screen reader with the table's code) asks for the new label, which the waiting pupil's page
    shows at once; a refused label is said in the page's language and changes nothing."""
    organiser, bearer = organiser_page(pages, module_server)
    code, pupil = organised_table(organiser, pages, bearer, preset="gin", seats=2, label="Gruppe A")
    assert pupil.inner_text("#waiting h2").endswith(f" · {ISOLATE}Gruppe A{END}")
    rename = organiser.get_by_role("button", name=f"Bezeichnung von Tisch {code} ändern")
    rename.wait_for()
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept("Gruppe B")

    organiser.once("dialog", answer)
    rename.focus()
    organiser.keyboard.press("Enter")
    renamed = f"document.querySelector('#waiting h2').textContent.endsWith(' · {ISOLATE}Gruppe B{END}')"
    pupil.wait_for_function(renamed)
    assert asked and asked[0].startswith(f"Bezeichnung von Tisch {code}")
    box = organiser.locator("#organise-tables .join-box", has_text=code)
    organiser.wait_for_function(
        f"[...document.querySelectorAll('.join-box')].some((b) => b.textContent.startsWith('Gruppe B{code}'))"
    )
    assert "Gruppe B" in box.inner_text()
    organiser.once("dialog", lambda dialog: dialog.accept("G" * 25))
    organiser.get_by_role("button", name=f"Bezeichnung von Tisch {code} ändern").click()
    organiser.wait_for_selector("#organise-error:not(.hidden)")
    assert "höchstens 24 Zeichen" in organiser.inner_text("#organise-error")
    assert pupil.inner_text("#waiting h2").endswith(f" · {ISOLATE}Gruppe B{END}")


def rematch_with_the_pupil_away(
    pages: Pages, module_server: Any, web: Any
) -> tuple[Any, dict[str, str], str, str, Any]:
    """A pupil (Ada) plays a gin table the organiser made to its end and puts the tablet away; then
    the organiser opens the rematch: the organiser's page, its key's header, the old and the new
    table's codes, and the pupil's browser context (to open the old link again)."""
    organiser, bearer = organiser_page(pages, module_server)
    spec = {"preset": "gin", "seats": 2, "seed": 4, "bots": [{"kind": "random"}]}
    code, pupil = organised_table(organiser, pages, bearer, **spec)
    organiser.request.post(f"{pages.base}/api/organiser/tables/{code}/start", headers=bearer)
    play_out_gin(pupil, web)
    context = put_away(pupil, pages, code)
    rematches = organiser.request.post(f"{pages.base}/api/organiser/rematch", headers=bearer)
    return organiser, bearer, code, rematches.json()["rematches"][0]["code"], context


def test_a_pupil_away_at_the_rematch_is_taken_to_their_seat_on_coming_back(
    pages: Pages, module_server: Any, web: Any
) -> None:
    """A pupil who closed the page after the match, before the organiser opened the rematch, opens the
    old table's link again: the page goes to their seat kept at the rematch."""
    organiser, _, code, new, context = rematch_with_the_pupil_away(pages, module_server, web)
    assert organiser.request.get(f"{pages.base}/api/tables/{new}").json()["status"] == "waiting"  # for Ada
    back = context.new_page()
    back.goto(f"{pages.base}/?table={code}")
    back.wait_for_function(f"S.code === '{new}' && S.seat === 0 && S.state && S.state.table.code === '{new}'")
    assert back.evaluate("S.state.table.seats[0].name") == "Ada"


def test_a_pupil_whose_kept_seat_was_freed_is_told_the_organiser_s_rematch(
    pages: Pages, module_server: Any, web: Any
) -> None:
    """The organiser freed the seat kept for a pupil who was away: reopening the old table, the pupil
    stays there and is told where the class plays on, as the organiser's (the page said the host
    had opened it, at a table that has none)."""
    organiser, bearer, code, new, context = rematch_with_the_pupil_away(pages, module_server, web)
    freed = organiser.request.post(
        f"{pages.base}/api/organiser/tables/{new}/remove", data={"seat": 0, "name": "Ada"}, headers=bearer
    )
    assert freed.ok, freed.text()
    back = context.new_page()
    back.goto(f"{pages.base}/?table={code}")
    told = f"Die Spielleitung hat eine Revanche an Tisch {new} eröffnet."
    back.wait_for_function(f"document.body.innerText.includes({told!r})")
    assert back.evaluate("S.code") == code
