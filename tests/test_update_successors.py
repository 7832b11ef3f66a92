"""``i18n update`` names a correction that a merge would lose: a translation corrected on
one branch, on an msgid that another branch changed (translating the new msgid from the
wording before the correction). After the merge the catalog holds both; update keeps the
new msgid and makes the corrected entry obsolete, so the correction would vanish silently.
A Polish correction of the checker's ambiguity message was lost so."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

PL = "locales/pl/LC_MESSAGES/messages.po"
NEW = ("In “{token}”, the letter {letter} can mean more than one thing here. Write the suit "
       "as a word ({suits}) or a symbol (♣ ♦ ♥ ♠), and a ten as 10.")
OLD = ("In “{token}”, the letter {letter} can mean more than one thing here. Write suits as "
       "symbols (♣ ♦ ♥ ♠) and a ten as 10.")
CORRECTED = ("W „{token}” litera {letter} jest tu niejednoznaczna. Kolory zapisuj symbolami "
             "(♣ ♦ ♥ ♠), a dziesiątkę jako 10.")
BEFORE = ("W „{token}” litera {letter} może tu oznaczać więcej niż jedno. Kolor zapisz słowem "
          "({suits}) albo symbolem (♣ ♦ ♥ ♠), a dziesiątkę jako 10.")


def msgid_line(text: str, words: str) -> int:
    """The line of the msgid keyword (active or obsolete) of the entry whose msgid holds
    *words*."""
    lines = [line.removeprefix("#~ ") for line in text.splitlines()]
    for n, line in enumerate(lines):
        if line.startswith("msgid "):
            rest = [x for x in lines[n + 1:n + 4] if x.startswith('"')]
            if words in "".join(x.split('"', 1)[1].rsplit('"', 1)[0] for x in [line, *rest]):
                return n + 1
    raise AssertionError(words)


def test_update_names_a_correction_that_a_merge_would_lose(project: Path) -> None:
    path = project / PL
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    # as a merge leaves it: the new msgid translated from the old wording, and the old
    # msgid, still active, with the correction (and no obsolete copy of it)
    blocks = [b for b in blocks if not (b.startswith(("#~", "#, python-brace-format\n#~"))
                                         and "Write suits as symbols" in b)]
    at = next(n for n, b in enumerate(blocks) if '"the suit as a word ({suits})' in b)
    blocks[at] = blocks[at].split("msgstr")[0] + f'msgstr "{BEFORE}"'
    blocks.insert(at, f'#, python-brace-format\nmsgid "{OLD}"\nmsgstr "{CORRECTED}"')
    path.write_text("\n\n".join(blocks), encoding="utf-8")
    # and, on its own, a msgid changed as a branch changes one: nothing to say
    page = project / "content" / "joker-exchange.md"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "an exchange never breaks a meld.", "an exchange never breaks the meld."),
        encoding="utf-8")

    result = run_cli("i18n", "update", "--root", str(project))
    assert result.code == 0, result.err
    written = path.read_text(encoding="utf-8")
    said = [line for line in result.err.splitlines() if "made obsolete by this update" in line]
    assert said == [f"{PL}:{msgid_line(written, 'In “{token}”')}: the entry whose msgid this "
                    f"one replaced is made obsolete by this update (line "
                    f"{msgid_line(written, 'Write suits as symbols')}, #~), and its "
                    "translation differs from this one: if it was corrected there (on a "
                    "branch that a merge brought in, say), the correction is lost here; "
                    "compare the two, carry it over, then delete the obsolete entry"]
    assert f"{PL}: updated" in result.out
    assert "#| msgid \"The meld stays valid: an exchange never breaks a meld.\"" in written
