"""The time-travel viewer in a real headless Chromium (Debian's chromium and chromium-driver, driven by
selenium): the board shows what ``state --at V`` says, the keys move through the log, a live game is
followed, and a player's page never holds the opponent's hand. Screenshots go to tests/artifacts/.

Chromium must be installed (``.ci/run`` installs it): these tests fail, never skip, without it.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from mtg_ledger.core.redact import JUDGE, view
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.ledger.access import JUDGE_HOLDER, issue
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.viewer.browse import find
from mtg_ledger.replays.ledger.play import play_scenario
from mtg_ledger.replays.scenario import load
from tests.service_server import bearer, new_game, server

ARTIFACTS = Path(__file__).parents[1] / "artifacts"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    assert shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER), "install Debian's chromium and chromium-driver (.ci/run does)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], UUID, dict[str, str], list[dict[str, Any]]]]:
    """The contract's example scenario played into a store, with tokens for its players and its judge."""
    db = tmp_path_factory.mktemp("viewer") / "viewer.sqlite"
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    scenario = json.loads(examples.path("contract_example").read_text())
    scenario["players"][1]["hand"].append("Hill Giant")  # bob never casts it: it stays hidden from alice all game
    path = db.parent / "scenario.json"
    path.write_text(json.dumps(scenario))
    ledger = Ledger(env=store)
    game = play_scenario(ledger, load(str(path)))
    tokens, records = issue(str(game), ["alice", "bob", JUDGE_HOLDER])
    ledger.save(*records)
    events = list(ledger.event_maps(game))
    ledger.close()
    yield store, game, tokens, events


@pytest.fixture(scope="module")
def url(stored: tuple[dict[str, str], UUID, dict[str, str], list[dict[str, Any]]]) -> Iterator[str]:
    with server(stored[0]) as base:
        yield base


def wait_for(condition: Callable[[], Any], seconds: float = 15) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = condition()
        except Exception:  # noqa: BLE001 - the page is still drawing
            found = None
        if found:
            return found
        assert time.monotonic() < deadline, "the page never showed it"
        time.sleep(0.05)


def at_version(driver: webdriver.Chrome, version: int, total: int) -> None:
    label = f"event {version} of {total}"
    try:
        wait_for(lambda: driver.find_element(By.ID, "version-label").text == label)
    except AssertionError:
        shown = driver.find_element(By.ID, "version-label").text, driver.find_element(By.ID, "status").text
        raise AssertionError(f"the page shows {shown!r}, not {label!r}") from None
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "#timeline .event.current").get_attribute("data-v") == str(version))


def board(driver: webdriver.Chrome) -> dict[str, Any]:
    """What the page shows, read from its HTML: life, each player's permanents, the stack, the step."""
    players = {}
    for section in driver.find_elements(By.CSS_SELECTOR, "#players .player"):
        name = section.get_attribute("data-player")
        life = section.find_element(By.CSS_SELECTOR, ".life").get_attribute("data-life")
        objects = sorted(int(li.get_attribute("data-object")) for li in section.find_elements(By.CSS_SELECTOR, ".card"))
        players[name] = (int(life), objects)
    stack = [int(li.get_attribute("data-object")) for li in driver.find_elements(By.CSS_SELECTOR, "#stack li[data-object]")]
    step = driver.find_element(By.CSS_SELECTOR, ".step-name").get_attribute("data-step") or None
    return {"players": players, "stack": sorted(stack), "step": step}


def expected(state: dict[str, Any]) -> dict[str, Any]:
    players = {
        name: (p["life"], sorted(b["object"] for b in state["battlefield"] if b["controller"] == name))
        for name, p in state["players"].items()
    }
    return {"players": players, "stack": sorted(s["object"] for s in state["stack"]), "step": state["step"]}


def shot(driver: webdriver.Chrome, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def test_the_board_shows_what_state_at_says_at_every_version_it_is_opened_at(browser: webdriver.Chrome, url: str, stored: Any) -> None:
    store, game, tokens, events = stored
    ledger = Ledger(env=store)
    try:
        for version in (5, 22, 40, len(events) - 3, len(events)):
            browser.get(f"{url}/games/{game}/viewer#token={tokens[JUDGE_HOLDER]}&v={version}")
            at_version(browser, version, len(events))
            assert board(browser) == expected(view(ledger.state(game, version), JUDGE))
            assert "#token=" not in browser.current_url  # the token leaves the address bar once read
        shot(browser, "viewer-judge")
    finally:
        ledger.close()


def test_the_keys_move_one_event_one_step_and_to_either_end(browser: webdriver.Chrome, url: str, stored: Any) -> None:
    store, game, tokens, events = stored
    total = len(events)
    browser.get(f"{url}/games/{game}/viewer#token={tokens[JUDGE_HOLDER]}&v=30")
    at_version(browser, 30, total)
    page = browser.find_element(By.TAG_NAME, "body")
    page.send_keys(Keys.ARROW_RIGHT)
    at_version(browser, 31, total)
    page.send_keys(Keys.ARROW_LEFT)
    page.send_keys(Keys.ARROW_LEFT)
    at_version(browser, 29, total)
    page.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # pressed faster than the states arrive: none is lost
    at_version(browser, 32, total)
    page.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    at_version(browser, 29, total)
    ledger = Ledger(env=store)
    try:
        next_step = find(ledger, game, 29, step_boundary=True)
        page.send_keys(Keys.ARROW_DOWN)  # 500.1: the next step begins
        assert next_step is not None
        at_version(browser, next_step, total)
        assert events[next_step - 1]["type"] == "StepBegan"
        assert board(browser) == expected(view(ledger.state(game, next_step), JUDGE))
    finally:
        ledger.close()
    page.send_keys(Keys.HOME)
    at_version(browser, 1, total)
    page.send_keys(Keys.END)
    at_version(browser, total, total)


def test_a_player_s_page_never_holds_the_opponent_s_hand_cards_402_3(browser: webdriver.Chrome, url: str, stored: Any) -> None:
    store, game, tokens, events = stored
    bolt = next(e["v"] for e in events if e["type"] == "SpellCast" and e["card"] == "Lightning Bolt")
    for version in (1, 12, bolt - 1, len(events)):
        browser.get(f"{url}/games/{game}/viewer#token={tokens['alice']}&v={version}")
        at_version(browser, version, len(events))
        assert "Hill Giant" not in browser.page_source  # in bob's hand all game: alice sees a count only
        if version < bolt:
            assert "Lightning Bolt" not in browser.find_element(By.ID, "board").text  # not yet cast: hidden
        assert "alice's view" in browser.find_element(By.ID, "status").text
        assert "hidden card" in browser.find_element(By.CSS_SELECTOR, "[data-player=bob] .zones").text
    shot(browser, "viewer-alice")
    browser.get(f"{url}/games/{game}/viewer#token={tokens['alice']}&v={bolt}")
    at_version(browser, bolt, len(events))
    assert "Lightning Bolt" in browser.page_source  # once cast, the spell is public (on the stack)


def test_a_game_in_progress_is_followed_live_as_decisions_are_posted(browser: webdriver.Chrome, url: str) -> None:
    setup = json.loads(examples.path("contract_example").read_text())
    setup.pop("actions")
    game, tokens = new_game(url, setup)
    state = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()
    browser.get(f"{url}/games/{game}/viewer#token={tokens['judge']}")
    at_version(browser, state["version"], state["version"])
    for _ in range(3):
        decision = httpx.get(f"{url}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
        answer = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[decision["player"]]), json={"action": "pass"})
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        at_version(browser, version, version)  # new events appear without reloading the page
    shot(browser, "viewer-live")


def test_a_finished_game_shows_how_it_ended_and_never_its_unplayed_steps_as_skipped_104(browser: webdriver.Chrome, url: str) -> None:
    setup = json.loads(examples.path("contract_example").read_text())
    setup.pop("actions")
    game, tokens = new_game(url, setup)
    conceded = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["bob"]), json={"action": "concede"})
    assert conceded.status_code == 200, conceded.text
    final = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()
    assert final["ended"] and final["winner"] == "alice"
    browser.get(f"{url}/games/{game}/viewer#token={tokens['judge']}")
    at_version(browser, final["version"], final["version"])
    ribbon = wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#ribbon .game-over")).text
    assert ribbon == "game over: alice wins: the last opponent conceded (rule 104.3a)"
    steps = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#ribbon .step")]
    assert not any("skipped" in s for s in steps), steps  # the steps after the end were never played, not skipped
    assert "cleanup" not in steps and final["step"] in [s.replace(" ", "_") for s in steps]
    changes = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#changes li")]
    assert changes[0] == ribbon and "nothing on the board" not in changes
    shot(browser, "viewer-finished")


def test_the_step_control_follows_the_game_shown(browser: webdriver.Chrome, url: str, stored: Any) -> None:
    store, game, tokens, events = stored
    main = next(e["v"] for e in events if e["type"] == "StepBegan" and e["step"] == "precombat_main")
    browser.get(f"{url}/games/{game}/viewer#token={tokens[JUDGE_HOLDER]}&v={main}")
    at_version(browser, main, len(events))
    select = browser.find_element(By.CSS_SELECTOR, "#jump select[name=step]")
    wait_for(lambda: select.get_attribute("value") == "precombat_main")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)  # the next step: the control moves with it
    wait_for(lambda: select.get_attribute("value") not in ("precombat_main", ""))
    assert select.get_attribute("value") == board(browser)["step"]


def test_a_card_s_oracle_text_is_shown_when_its_name_is_focused_or_hovered(browser: webdriver.Chrome, url: str, stored: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    from mtg_ledger.replays.cards import live_pool

    _, game, tokens, events = stored
    browser.get(f"{url}/games/{game}/viewer#token={tokens[JUDGE_HOLDER]}&v={len(events)}")
    at_version(browser, len(events), len(events))
    names = browser.find_elements(By.CSS_SELECTOR, "#players [data-card]")
    assert names, "no card name on the board"
    first, last = names[0], names[-1]
    browser.execute_script("arguments[0].focus()", first)
    oracle = live_pool().definitions[first.get_attribute("data-card")]["oracle"].splitlines()[0]
    wait_for(lambda: oracle in browser.find_element(By.ID, "card-text").text)
    ActionChains(browser).move_to_element(last).perform()
    name = last.get_attribute("data-card")
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#card-text h3").text.startswith(name))
    shot(browser, "viewer-card-text")
