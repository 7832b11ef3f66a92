"""What a process that builds more than once (``serve``, a test) keeps from one build to the
next: one :class:`Session`, made by the caller and passed to
:func:`site_builder.build.build` and :func:`~site_builder.build.check`. Nothing else in the
package keeps anything between builds.

A build without a session gets a new one, and reuses nothing. What is never kept: the
printed build date, which each build asks for (a new commit's date is seen at once).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from site_builder.cache import code_version
from site_builder.examples.verify import ENGINE_STEPS
from site_builder.render.pages import LanguageResult
from site_builder.verify import Reuse


@dataclass
class Kept:
    """A language's rendering (its files and what the site-wide files need of it), for the
    next build: a translator's catalog edit renders that language again, not the others."""

    key: str  # what its pages depend on (site_builder.cache.language_keys)
    result: LanguageResult
    files: dict[str, bytes]


@dataclass
class Session:
    """Everything a rebuild reuses.

    * ``code``: the hash of the code (:func:`site_builder.cache.code_version`), asked once:
      the code that runs does not change under a running process. A test that stands for
      an edited engine gives its own.
    * ``verify``: what verifying may take from the last build
      (:class:`site_builder.verify.Reuse`: checked catalogs, template trees, the code's
      messages).
    * ``languages``: each language's last rendering, used again where its key
      (:func:`site_builder.cache.language_keys`) is unchanged.
    * ``engine_steps``: the engine's work that each build's examples may do together, in
      search steps (a test gives a small one). Not kept: each build has all of
      it anew.
    """

    code: str | None = None
    engine_steps: int = ENGINE_STEPS
    verify: Reuse = field(default_factory=Reuse)
    languages: dict[str, Kept] = field(default_factory=dict)

    def code_version(self) -> str:
        if self.code is None:
            self.code = code_version()
        return self.code

    def kept(self, keys: dict[str, str], languages: list[str]) -> dict[str, Kept]:
        """The languages of the last build whose inputs (*keys*) are unchanged."""
        return {lang: k for lang, k in self.languages.items()
                if lang in languages and keys.get(lang) == k.key}
