"""The score keeper's check (templates/assets/score/check.js) against the engine's
:func:`~site_builder.engine.scoring.check_round`, on the numbers the build hands the page
(:func:`site_builder.render.score.bounds`): every rule set the page offers, every number of
players, random rounds near every bound and the bad-input cases of the build's game tables.
The code and values of every refusal must agree, and so must the totals and winners
(:func:`~site_builder.engine.scoring.game_winners`). The JavaScript runs in one node
process (JSON in, JSON out)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from site_builder import engine
from site_builder.engine.scoring import check_round, game_over, game_winners
from site_builder.render.score import OPTIONS, offered
from site_builder.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "templates" / "assets" / "score" / "check.js"
NODE = shutil.which("node")
PROFILES, _problems, _ = load_profiles(ROOT)
RUNNER = """
import { checkRound, standing } from "./check.mjs";
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => {
  const data = JSON.parse(input);
  const out = data.cases.map(([key, scores]) => checkRound(scores, data.rules[key]));
  const games = data.games.map(([key, rounds, players]) =>
    standing(rounds, players, data.rules[key]));
  process.stdout.write(JSON.stringify({ out, games }));
});
"""


def _cases(rng: random.Random, key: str, rules: dict[str, Any]) -> list[list[int]]:
    """Rounds for *rules*: near each bound, random, and tables no game can reach."""
    cases: list[list[int]] = [[0, 1], [0, 178, 178], [1, 0, 0], [0, 360, 12], [0, 0, 12],
                              [0, -3], [5, 5], [0, 0], [0, 100, 100], [23, 0], [23, 5]]
    for players, per in rules["players"].items():
        n = int(players)
        edges = sorted({0, 1, rules["least"] - 1, rules["least"], rules["least"] + 1,
                        *(m + d for m in per["most"] for d in (-1, 0, 1)),
                        per["least_gain"] - 1, per["least_gain"], 100} - {-1})
        for _ in range(400):
            round_ = [rng.choice(edges) if rng.random() < 0.6 else rng.randint(0, 200)
                      for _ in range(n)]
            if rng.random() < 0.7:
                round_[rng.randrange(n)] = 0
            if not rules["lowest_wins"] and rng.random() < 0.7:
                winner = rng.randrange(n)
                round_ = [rng.choice(edges) if i == winner else 0 for i in range(n)]
            cases.append(round_)
    cases += [[0] * 5, [0]]  # too many and too few players
    return cases


def rules_of(offer: dict[str, Any]) -> engine.RuleSet:
    """The engine's rules of an offered rule set: a profile of content/profiles.toml, or
    one of the game's own options (CardVerse with the ace at 11)."""
    if offer["profile"] in PROFILES:
        return engine.get_rules(offer["game"], **PROFILES[offer["profile"]].overrides)
    options = {key: o for key, _, o in OPTIONS[offer["game"]]}
    return engine.get_rules(offer["game"], **options[offer["profile"]])


def test_the_page_refuses_what_the_engine_refuses(tmp_path: Path) -> None:
    rng = random.Random(37)
    sets = {f"{o['game']}:{o['profile']}": o for o in offered(PROFILES)}
    assert {o["game"] for o in sets.values()} == {"rami40", "rami51", "cardverse"}
    cases = [(key, scores) for key, o in sets.items() for scores in _cases(rng, key, o["rules"])]
    games = []
    for key, o in sets.items():
        for players in range(o["rules"]["min"], o["rules"]["max"] + 1):
            rounds = [[rng.choice([0, 5, 40, 120, 178]) for _ in range(players)]
                      for _ in range(rng.randint(1, 9))]
            games.append((key, rounds, players))
    shutil.copy(CHECK, tmp_path / "check.mjs")
    (tmp_path / "run.mjs").write_text(RUNNER, encoding="utf-8")
    data = {"rules": {k: o["rules"] for k, o in sets.items()}, "cases": cases, "games": games}
    run = subprocess.run([NODE, str(tmp_path / "run.mjs")], input=json.dumps(data),
                         capture_output=True, text=True, check=True, timeout=120)
    answers = json.loads(run.stdout)
    refused = 0
    for (key, scores), got in zip(cases, answers["out"], strict=True):
        problem = check_round(scores, rules_of(sets[key]))
        want = None if problem is None else {k: v for k, v in problem.as_json().items()
                                             if k != "message"}
        assert got == want, (key, scores, got, want)
        refused += problem is not None
    assert 0.2 * len(cases) < refused < 0.9 * len(cases)  # both answers are well exercised
    for (key, rounds, players), got in zip(games, answers["games"], strict=True):
        rules = rules_of(sets[key])
        totals = [sum(r[i] for r in rounds) for i in range(players)]
        over = game_over(totals, rules)
        assert got["totals"] == totals and got["over"] == over
        assert got["winners"] == (list(game_winners(totals, rules)) if over else [])
