"""Search in each language, with Pagefind (https://pagefind.app, pip
``pagefind[bin]``): as soon as a language's pages are rendered into the staging folder
(while the next language renders), and before the folder replaces the output, each
language folder gets its own index, ``<lang>/pagefind/`` (:class:`Indexer`).

One index per language keeps search in the reader's language by construction (a Polish
query can only find Polish pages), and lets a build that renders one language again
(after its catalog changed) index that language alone. Pagefind reads each page's
``lang`` for its word rules; only ``<main data-pagefind-body>`` of the rule pages is
indexed, without the navigation inside it (:data:`EXCLUDE`).

The pages load ``assets/site.js``, which shows the search box (hidden without
JavaScript) and asks the language's ``pagefind.js``.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

import pagefind_bin

from site_builder.errors import UserError
from site_builder.i18n.translator import N_
from site_builder.project import BUNDLE

# Inside the indexed <main>: the ways around the page, not its rules; and the worked
# examples, whose cells would make excerpts of card chips and numbers ("7♥8♥9♥ 44").
EXCLUDE = (".breadcrumbs, .toc, .sheet-link, .pager, .to-top, .printed, .checker form,"
           " .checker-off, .example, .term-defs")
# What the search client needs of Pagefind's bundle; its ready-made user interfaces
# (pagefind-ui.js, -component-ui, -modular-ui, -highlight: about 450 KB per language)
# are not used, and are removed.
KEEP = ("pagefind.js", "pagefind-worker.js", "pagefind-entry.json")
KEEP_SUFFIXES = (".pagefind", ".pf_meta")
KEEP_DIRS = ("index", "fragment", "filter")

# -- what each section adds to the index, out of sight -------------------------------------------
#
# Pagefind folds a letter by dropping its combining marks (NFD), so "dzoker" finds "dżoker";
# a letter without a decomposition keeps its stroke, and "dokladanie" would not find
# "dokładanie", nor "doi" "đổi". Each section therefore gives the index, in an attribute of
# an element under its heading that is never shown (``hidden``), the folded copy of
# each of its words that Pagefind's folding leaves apart, and the words players type for
# what it answers (:data:`PLAYERS_WORDS`). Pagefind shows that text in an excerpt like any
# other; it stands between :data:`OPEN` and :data:`CLOSE`, which the search box cuts out
# (``templates/assets/search-fold.js``, whose table of letters is this one).

#: The letters of the site's languages (and their neighbours) that have no decomposition,
#: folded as a reader types them on a keyboard without them.
LETTERS = {"ł": "l", "đ": "d", "ð": "d", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss",
           "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ƒ": "f", "ɗ": "d"}
_LETTERS = str.maketrans(LETTERS)  # after lower-casing
#: Around the index's own text in an excerpt (brackets that Pagefind does not index).
OPEN, CLOSE = "\u2045", "\u2046"
# A word (a run of letters and digits) that holds a letter beyond ASCII, whole: a match
# starts where its word does and takes the rest of it. Found by the expression, not word
# by word in Python (a tenth of the Python that rendering a Polish page ran).
_FOLDABLE_RE = re.compile(r"[^\W_]*[^\W_\x00-\x7f][^\W_]*")


def strip_marks(text: str) -> str:
    """*text* lower-cased, without combining marks, as Pagefind folds it.

    >>> strip_marks("Dżoker đổi"), fold("Dokładanie đổi")
    ('dzoker đoi', 'dokladanie doi')
    """
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if not unicodedata.combining(c)).lower()


def fold(text: str) -> str:
    """*text* lower-cased, without marks, and with :data:`LETTERS` folded."""
    return strip_marks(text).translate(_LETTERS)


def folded_copies(texts: Iterable[str]) -> list[str]:
    """The folded form of each word of *texts* that Pagefind's folding leaves apart, once,
    in order of first use.

    >>> folded_copies(["Dokładanie kart", "Możesz dokładać", "Đổi joker, đổi!"])
    ['dokladanie', 'dokladac', 'doi']
    """
    out: dict[str, None] = {}
    for text in texts:
        if text.isascii():  # no word of it to fold (most texts of four of the languages)
            continue
        for word in _FOLDABLE_RE.findall(text):
            # its stripped form, folded, if they differ (each word once: see below)
            folded = _folded_copy(word)
            if folded:
                out.setdefault(folded, None)
    return list(out)


# Translators: words and questions players type into search, separated by commas, for the
# meld checker (a form on the melds and first meld pages where readers tap cards and see
# whether their melds are valid). Not shown on the page: write the words players of your
# language use, not a word-for-word translation.
CHECKER_WORDS = N_("check a meld, meld checker, is my meld valid, check my cards")

#: The words players type for what a section answers ("page#section"), by which search
#: finds it: each language's own, in its catalog (a translator writes the words and
#: questions that players of the language use, not a translation word for word).
PLAYERS_WORDS = {
    # Translators: words and questions players type into search, separated by commas, for
    # the section on the deal (how many cards each player gets). Not shown on the page:
    # write the words players of your language use, not a word-for-word translation.
    "setup#the-deal": N_("how many cards, cards each, cards per player, dealing, dealer, "
                         "who deals, who starts, who goes first"),
    # Translators: search words, as above, for the section on laying off.
    "turn#laying-off": N_("lay off, add to a meld, play onto a meld, add cards, "
                          "add to another player's meld"),
    # Translators: search words, as above, for the section on taking the discard.
    "turn#taking-the-discard": N_("pick up the discard, take from the pile"),
    # Translators: search words, as above, for the section on penalty points (the cards
    # left in a hand, a joker among them).
    "scoring#penalty-points": N_("joker left in hand, cards left in hand, minus points"),
    # Translators: search words, as above, for the section on going out.
    "scoring#going-out": N_("go out, out of cards, finish the round, last card, "
                            "the stock runs out, nothing left to draw"),
    # Translators: search words, as above, for the section on the end of the game.
    "scoring#the-end-of-the-game": N_("who wins, winner, game over, how many points to play to, "
                                      "when the game ends"),
    # Translators: search words, as above, for the section on the jokers in melds.
    "melds#jokers": N_("joker, wild card, two jokers in a meld, how many jokers in a meld"),
    # Translators: search words, as above, for the section on sets and sequences.
    "melds#sets-and-sequences": N_("run, straight, group, three of a kind, four of a kind"),
    # Translators: search words, as above, for the section on low and high aces.
    "melds#aces-low-and-high": N_("ace low, ace high, ace after king, ace 2 3, king ace 2"),
    # Translators: search words, as above, for the section on the first meld's threshold.
    "first-meld#the-threshold": N_("opening, how many points to open, minimum to open"),
    # Translators: search words, as above, for the section on when a joker may be exchanged.
    "joker-exchange#when-and-with-which-card": N_("swap a joker, take a joker, replace a joker"),
    # Translators: search words, as above, for the section on the points each card counts.
    "setup#the-points-of-each-card": N_("card values, how much is a card worth, "
                                        "points of a queen, what is an ace worth"),
    # Translators: search words, as above, for the section on a first meld that falls
    # short of the threshold.
    "first-meld#if-the-threshold-is-not-reached": N_("not enough points to open, cannot open, "
                                                     "short of the threshold, "
                                                     "the cards go back to the hand"),
    # Translators: search words, as above, for the section on melds that are not allowed.
    "melds#invalid-melds": N_("not allowed, wrong meld, invalid meld, "
                              "two cards of one suit in a set, gap in a sequence"),
    # Translators: search words, as above, for the section on the short version of the rules
    # (players, cards, a turn, the goal).
    "at-a-glance#the-short-version": N_("how to play, basic rules, quick rules, rules summary, "
                                        "how many players, object of the game"),
    # Translators: search words, as above, for the section on the difference between Rami 40
    # and Rami 51 (keep the numbers).
    "at-a-glance#rami-40-or-rami-51": N_("difference between 40 and 51, rami 40 or rami 51, "
                                         "which version to play"),
    # Translators: search words, as above, for the section on the reference rules and the
    # house rules.
    "at-a-glance#reference-rules-and-house-rules": N_("house rules, official rules, "
                                                      "standard rules, which rules are used"),
    # Translators: search words, as above, for the section on the cards (how many packs and
    # jokers).
    "setup#the-cards": N_("how many decks, how many packs, how many jokers, two decks, "
                          "deck size, same card twice"),
    # Translators: search words, as above, for the section on a turn, step by step (draw,
    # meld, discard).
    "turn#your-turn-step-by-step": N_("what to do on my turn, draw a card, order of play, "
                                      "how a turn works, end of turn"),
    # Translators: search words, as above, for the section on what a player may not do before
    # their first meld.
    "turn#before-your-first-meld": N_("before opening, not opened yet, before my first meld"),
    # Translators: search words, as above, for the section on the first meld in short.
    "first-meld#in-short": N_("how to open, first meld rules, what do I need to open, "
                              "lay down for the first time"),
    # Translators: search words, as above, for the section on the value of each card laid in a
    # first meld.
    "first-meld#the-value-of-each-laid-card": N_("count points to open, how to count the opening, "
                                                 "joker value when opening, ace in the opening"),
    # Translators: search words, as above, for the section on the pure sequence (one without a
    # joker) that a first meld needs in Rami 51.
    "first-meld#the-pure-sequence-in-rami-51": N_("pure run, clean run, natural run, "
                                                  "run without a joker, do I need a pure run"),
    # Translators: search words, as above, for the section on the worked examples of first
    # melds.
    "first-meld#verified-first-melds": N_("opening examples, first meld examples, sample openings"),
    # Translators: search words, as above, for the section on a whole round played step by
    # step.
    "whole-round#the-round": N_("example round, full round, sample game, round step by step"),
    # Translators: search words, as above, for the section on the house rule that counts a
    # laid joker more.
    "variations#house-rules-a-laid-joker-counts-more": N_("joker worth more, fixed joker value, "
                                                          "laid joker points, house rule joker"),
    # Translators: search words, as above, for the section on the variation with two jokers in
    # a meld.
    "variations#two-jokers-per-meld": N_("two jokers in a meld, jokers side by side, "
                                         "more than one joker"),
    # Translators: search words, as above, for the section on the variation with a higher
    # penalty for a joker left in hand.
    "variations#a-higher-joker-penalty": N_("joker penalty, joker in hand costs more, "
                                            "higher penalty for a joker"),
    # Translators: search words, as above, for the section on the variation in which an ace
    # left in hand counts one point.
    "variations#an-ace-in-hand-counts-low": N_("ace in hand one point, ace counts one, "
                                               "low ace penalty"),
    # Translators: search words, as above, for the section on the fixed penalty for a player
    # who has not opened.
    "variations#a-fixed-penalty-before-the-first-meld": N_("never opened, "
                                                           "penalty for not opening, "
                                                           "hundred points, did not open"),
    # Translators: search words, as above, for the section on taking the discard freely,
    # without laying it.
    "variations-discard#free-discard": N_("take the discard freely, keep the discard, "
                                          "take the discard without laying it"),
    # Translators: search words, as above, for the section on the variation with no discard
    # taken in the first round of turns.
    "variations-discard#no-discard-taken-in-the-first-round": N_("discard in the first round, "
                                                                 "take the discard on the first "
                                                                 "turn"),
    # Translators: search words, as above, for the section on the variation with no discard
    # taken by a player who holds one card.
    "variations-discard#no-discard-taken-with-one-card-left": N_("one card left, "
                                                                 "last card in hand, "
                                                                 "take the discard with one card"),
    # Translators: search words, as above, for the section on going out without a final
    # discard.
    "variations-going-out#going-out-without-a-final-discard": N_("go out without discarding, "
                                                                 "no final discard, "
                                                                 "lay the last card"),
    # Translators: search words, as above, for the section on rami sec, going out by laying
    # the whole hand at once.
    "variations-going-out#rami-sec-going-out-all-at-once": N_("rami sec, dry rummy, "
                                                              "lay the whole hand at once, "
                                                              "go out in one turn"),
    # Translators: search words, as above, for the section on the goal of the CardVerse
    # variant.
    "cardverse#goal": N_("cardverse goal, aim of cardverse, object of cardverse"),
    # Translators: search words, as above, for the section on the setup of the CardVerse
    # variant (one pack, no jokers).
    "cardverse#setup": N_("cardverse deal, cardverse deck, one deck, cardverse without jokers"),
    # Translators: search words, as above, for the section on a turn in the CardVerse variant.
    "cardverse#the-flow-of-a-turn-or-a-round": N_("cardverse turn, a turn in cardverse, "
                                                  "discard to win"),
    # Translators: search words, as above, for the section on what is allowed in the CardVerse
    # variant.
    "cardverse#allowed-actions-and-obligations": N_("cardverse moves, allowed in cardverse, "
                                                    "cardverse without opening"),
    # Translators: search words, as above, for the section on scoring in the CardVerse
    # variant.
    "cardverse#scoring": N_("cardverse scoring, cardverse points, points in cardverse"),
    # Translators: search words, as above, for the section on the end of a round and of a game
    # in the CardVerse variant.
    "cardverse#end-of-the-game": N_("cardverse round end, end of a cardverse game, "
                                    "when cardverse ends"),
    # Translators: search words, as above, for the section on the special cases of the
    # CardVerse variant.
    "cardverse#special-cases-and-locked-variations": N_("cardverse special cases, "
                                                        "cardverse exceptions, "
                                                        "cardverse locked options"),
    # Translators: search words, as above, for the section on the computer players and their
    # levels.
    "cardverse#artificial-intelligence": N_("AI, bots, bot difficulty, computer difficulty, "
                                            "easy normal hard"),
    # Translators: search words, as above, for the section on how CardVerse differs from Rami
    # 40 and Rami 51.
    "cardverse-compared#the-rules-side-by-side": N_("cardverse vs rami, "
                                                    "difference between cardverse and rami, "
                                                    "compare cardverse"),
    # Translators: search words, as above, for the section on the game terms of the glossary.
    "glossary#game-terms": N_("glossary, definitions, meaning of words, vocabulary, terms"),
    # Translators: search words, as above, for the section on the words these pages use
    # (seats, rule profiles).
    "glossary#words-these-pages-use": N_("seat, seat number, what is a seat, rule profile"),
    # Translators: search words, as above, for the practice table (a game against the
    # computer in the browser).
    "play#table": N_("play against the computer, practice game, play with bots, "
                     "play online"),
    # Translators: search words, as above, for the score sheet page (a page without
    # sections: the words find the page).
    "score": N_("score sheet, keep score, write down the points, scorekeeper, "
                "points of each round, score pad"),
    # the meld checker, on both pages that have one
    "melds#checker": CHECKER_WORDS,
    "first-meld#checker": CHECKER_WORDS,
    # Translators: search words, as above, for the section of the About page that says where
    # these rules come from.
    "about#where-the-rules-come-from": N_("where the rules come from, who wrote these rules, "
                                          "source of the rules"),
    # Translators: search words, as above, for the section of the About page on how the
    # worked examples are checked by the rules engine.
    "about#how-the-examples-are-checked": N_("are the examples checked, checked examples, "
                                             "verified by a rules engine"),
}
#: The words of a question that its answer need not hold: the question and filler words
#: players type around what they look for ("when can I lay off"). The search box weighs
#: them far below the other words of a query (assets/search-results.js, QUESTION_SHARE):
#: they never sink a match, and still help a players' phrase that starts with one.
# Translators: the question and filler words players of your language type around what they
# look for in a search ("when", "can", "how", "who", "is it", "the"), in lower case and
# separated by spaces. Not shown: a word here counts for little in a search, so list no
# game word.
QUESTION_WORDS = N_("how what when where which who whom whose why can could may might must "
                    "shall should will would do does did is are was be it its i me my you your "
                    "we our they a an the to of in on at for with if there so then about does "
                    "allowed possible")

#: The weight of the players' words: they name what the section is about, as its
#: heading does (Pagefind weighs an h2 at 5, text at 1).
PLAYERS_WEIGHT = 5


def template_words(key: str, gettext: Callable[[str], str]) -> list[tuple[float, str]]:
    """What a page or section drawn by a template, not by the content (the score sheet,
    the practice table: *key* ``page`` or ``page#section``), adds to the index, out of
    sight, as ``(weight, text)`` spans: its players' words.

    >>> template_words("score", lambda message: "bảng điểm, ghi điểm")
    [(5, '⁅ bảng điểm, ghi điểm, diem ⁆')]
    """
    words = _players_words(key, gettext)
    return [(PLAYERS_WEIGHT, _marked(words))] if words else []


def _players_words(key: str, gettext: Callable[[str], str]) -> str:
    """The players' words of *key* in the language of *gettext*, with their folded copies;
    '' for a section without any."""
    words = PLAYERS_WORDS.get(key)
    return ", ".join(_players(gettext(words))) if words else ""


@functools.lru_cache(maxsize=8192)  # a language's words recur on every page
def _folded_copy(word: str) -> str:
    """The folded form of *word* if Pagefind's folding leaves it apart, else ''."""
    stripped = strip_marks(word)
    folded = stripped.translate(_LETTERS)
    return folded if folded != stripped else ""


def index_words(slug: str, blocks: list[Any], gettext: Callable[[str], str]) -> list[Any]:
    """*blocks* (a page's, as the templates take them) with, after each heading and
    before the first, a ``words`` block: what the section adds to the index, as
    ``spans``, each a weight and a text (the heading's folded words weigh as the heading)."""
    sections: list[tuple[Any, list[Any]]] = [(None, [])]
    for block in blocks:
        if block.type == "heading":
            sections.append((block, []))
        else:
            sections[-1][1].append(block)
    out: list[Any] = []
    for heading, items in sections:
        spans: list[tuple[float, str]] = []
        if heading is not None:
            out.append(heading)
            words = _players_words(f"{slug}#{heading.id}", gettext)
            if words:
                spans.append((PLAYERS_WEIGHT, words))
            spans.append((HEADING_WEIGHTS.get(heading.level, 1),
                          " ".join(folded_copies([heading.text.plain]))))
        defined = [t for b in items for t in _defined(b)]
        if defined:  # "**Term**: what it is": the section defines it, below a heading's
            # weight: a rules question goes to the rule's own section, not the glossary's
            spans.append((DEFINED_WEIGHT, " ".join(defined + folded_copies(defined))))
        spans.append((1, " ".join(folded_copies(t.plain for b in items for t in _texts(b)))))
        out.append(Item(type="words", spans=[(w, _marked(t)) for w, t in spans if t]))
        out += items
    return out


#: The weight of the terms a list defines ("**Stock**: the cards ..."), as in the glossary:
#: more than text, less than the heading or the players' words of the section that states
#: the rule ("what is a pure sequence" is answered by the rule, then by the glossary).
DEFINED_WEIGHT = 3

#: Pagefind's own weights of headings (https://pagefind.app/docs/weighting/).
HEADING_WEIGHTS = {1: 7, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2}


_DEFINED_RE = re.compile(r"<strong>([^<]*)</strong>")


def _defined(block: Any) -> list[str]:
    """The terms a list defines, one entry each ("**Stock** (also **pile**): ...")."""
    if block.type != "list":
        return []
    out = []
    for entry in block.entries:
        html = str(entry.html)
        if html.startswith("<strong>"):
            head = html.split(":", 1)[0]
            out += [m for m in _DEFINED_RE.findall(head)]
    return out


def _marked(text: str) -> str:
    return f"{OPEN} {text} {CLOSE}"


def _texts(block: Any) -> list[Any]:
    if block.type in ("heading", "paragraph"):
        return [block.text]
    if block.type == "list":
        return list(block.entries)
    return []  # the worked examples are not indexed (EXCLUDE)


def _players(words: str) -> list[str]:
    """The players' words of a catalog entry, and the folded copy of any that needs one.

    >>> _players("gửi bài, đổi joker")
    ['gửi bài', 'đổi joker', 'doi']
    """
    words_list = [w.strip() for w in words.split(",") if w.strip()]
    return words_list + folded_copies(words_list)


def context(lang: str, path: str, href: Callable[[str], str]) -> dict[str, Any]:
    """The search box of a page of *lang* at *path* (output file); nothing
    for the pages outside the language folders (the chooser, the root 404 page). *href*
    makes a link to an output file from the page."""
    if not path.startswith(f"{lang}/"):
        return {}
    return {"search": {"script": href("assets/site.js"),
                       "bundle": href(f"{lang}/{BUNDLE}/pagefind.js")}}



def available() -> bool:
    return importlib.util.find_spec("pagefind_bin") is not None


MISSING = ("Pagefind is not installed, and the search index cannot be built: "
           "run `.venv/bin/pip install -e .` (it installs pagefind[bin])")


# Why a signal usually reaches Pagefind, for the signals a user can do something about.
_SIGNAL_CAUSES = {"SIGXFSZ": "a file size limit (ulimit -f)", "SIGKILL": "killed, perhaps by "
                  "the out-of-memory killer", "SIGXCPU": "a CPU time limit (ulimit -t)",
                  "SIGSEGV": "a crash", "SIGTERM": "asked to stop"}


def failure(code: int, output: str) -> str:
    """Why Pagefind failed: its exit status, or the signal that ended it (killed
    by a signal, it prints nothing), and what it printed.

    >>> failure(-25, "")
    'pagefind was killed by signal 25 (SIGXFSZ: a file size limit (ulimit -f))'
    >>> failure(1, "Error: no pages")
    'Error: no pages (exit status 1)'
    """
    said = " ".join(output.split())[:500]
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        cause = _SIGNAL_CAUSES.get(name)
        why = f"pagefind was killed by signal {-code} ({name}{': ' + cause if cause else ''})"
        return f"{why}; {said}" if said else why
    return f"{said} (exit status {code})" if said else f"pagefind exited with status {code}"


def _death_signal() -> Callable[[], object] | None:
    """What Pagefind's process runs before it starts (Linux): end it when the build that
    started it ends, however (kill -9), rather than let it write on into a staging folder
    that the next build is deleting (``prctl(PR_SET_PDEATHSIG, SIGKILL)``). Looked up
    here, in the build's process: the child, forked from a process with threads
    (``serve``), only makes the call. None where there is no ``prctl``."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return functools.partial(prctl, 1, int(signal.SIGKILL), 0, 0, 0)


#: Pagefind's environment: its memory allocator (jemalloc, configured by this variable)
#: with one arena instead of one per core and more. At 5,005 pages, one language of 1,001
#: pages peaked at 145 MiB instead of 170 MiB, the same index, in about the same time (a
#: value set in the build's environment is kept).
PAGEFIND_ENV = {"_RJEM_MALLOC_CONF": "narenas:1"}


class Indexer:
    """Pagefind over each language folder of *site_dir*, started as soon as the language is
    rendered (:meth:`add`) and running while the next one renders; :meth:`finish` waits for
    the last and gives the files written, with their size and modification time (as the
    build records); :meth:`close` ends a Pagefind still running (a build that failed).

    At most one Pagefind runs at a time (at 5,005 pages it peaks at about 260 MiB: two at a
    time took the build's peak from 387 to 720 MiB). Running it beside the rendering of the
    next language, on the other core, as Hugo + Pagefind use both cores, took the wall time
    of ``benchmarks/compare.py``'s 1,005 pages from 6.07 to 5.36 s (medians of 3 runs) and
    the tree's peak at 5,005 pages from 299-308 to 316-320 MiB.
    Pagefind's executable is started directly rather than through ``python -m pagefind``,
    which costs a Python start-up per language (on the real site: 0.46 s for the five
    languages through Python, 0.17 s directly)."""

    def __init__(self, site_dir: Path) -> None:
        if not available():
            raise UserError(MISSING)
        self.site_dir = site_dir
        self.written: dict[str, tuple[int, int]] = {}
        self.running: tuple[str, subprocess.Popen[str]] | None = None
        self.die_with_parent = _death_signal()

    def add(self, lang: str) -> None:
        """Index *lang*'s folder, once the Pagefind of the language before has ended."""
        self._wait()
        folder = self.site_dir / lang
        if folder.is_dir():
            self.running = (lang, subprocess.Popen(
                [str(pagefind_bin.get_executable()), "--site", str(folder), "--output-subdir",
                 BUNDLE, "--exclude-selectors", EXCLUDE, "--silent"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env={**PAGEFIND_ENV, **os.environ}, preexec_fn=self.die_with_parent))

    def finish(self) -> dict[str, tuple[int, int]]:
        self._wait()
        return self.written

    def close(self) -> None:
        if self.running is not None:
            _, proc = self.running
            self.running = None
            proc.kill()
            proc.communicate()

    def _wait(self) -> None:
        if self.running is None:
            return
        lang, proc = self.running
        self.running = None
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise UserError(f"pagefind failed on {lang}/: " + failure(
                proc.returncode, err or out))
        bundle = self.site_dir / lang / BUNDLE
        for entry in sorted(bundle.iterdir()):
            if entry.is_dir():
                if entry.name not in KEEP_DIRS:
                    shutil.rmtree(entry)
            elif entry.name not in KEEP and not entry.name.endswith(KEEP_SUFFIXES):
                entry.unlink()
        for file in sorted(bundle.rglob("*")):
            if file.is_file():
                st = os.stat(file)
                self.written[file.relative_to(self.site_dir).as_posix()] = (
                    st.st_size, st.st_mtime_ns)
