"""The name check: every capitalised run of words in a stored text (and every 'Name, 27') that no
record's name or alias covers is a warning, for an editor to add the person it names or to say that
it names none (not_people in content/site.yaml). The settings (name_check) turn it off, skip the
texts of some sources, or make --strict fail on it; by default it is advisory: a warning even under
--strict, since a capitalised phrase ("Executive Director", "Once Upon") is often no one. A plain run
prints the first few and a count (print_problems' brief form); `check --names` and --strict print
every one.
"""

from __future__ import annotations

import re
import unicodedata

from .link import Site, record_line
from ..model.problems import Problem, did_you_mean
from ..model.schema import Source
from ..model.settings import NameCheck
from ..model.slug import fold_id, letter_class
from ..text.passages import SeedText

KIND = "name no record covers"
SHOWN = 5  # how many of them a plain run prints (print_problems' brief form)
MORE = "`dossier check --names` lists every one; name_check in content/site.yaml turns the check off or skips a source's text"
ADVICE = "add a person (or an alias), list it under not_people in content/site.yaml, or scope the check there (name_check)"
UPPER, LOWER = letter_class(str.isupper), letter_class(str.islower)
NAME_WORD = rf"{UPPER}{LOWER}+(?:-{UPPER}{LOWER}+)?"  # a capital then small letters, in any alphabet
LEADING_WORDS = {"The", "A", "An", "As", "When", "While", "If", "But", "And", "In", "On", "For", "After", "Before", "Some", "Even", "Like", "Then", "Now", "So", "Although", "Asked", "Among", "During", "With", "Sgt", "Gen", "Col", "Lt", "Mr", "Ms", "Mrs"}
FULL_NAME = re.compile(rf"\b{NAME_WORD}(?:\s+(?:de\s+|del\s+|la\s+)?{NAME_WORD}){{1,5}}\b")
NAME_WITH_AGE = re.compile(rf"\b({NAME_WORD}), \d{{1,2}}\b")


def names_in_text(text: str) -> list[tuple[int, str]]:
    """Return (line, name) for every capitalised run of two or more words, and 'Name, 27' forms."""
    found = []
    for number, line in enumerate(unicodedata.normalize("NFC", text).split("\n"), start=1):
        for match in FULL_NAME.finditer(line):
            words = match.group(0).split()
            while words and words[0] in LEADING_WORDS:
                words.pop(0)
            if len(words) >= 2:
                found.append((number, " ".join(words)))
        found += [(number, m.group(1)) for m in NAME_WITH_AGE.finditer(line)]
    return found


def known_names(site: Site) -> list[str]:
    """Return every name and alias of a person, place or group, and the site's not_people."""
    known: list[str] = []
    for kind in site.model:
        if kind in ("events", "sources", "pages"):
            continue
        for record in site.records[kind].values():
            known += [record.label] + list(getattr(record, "aliases", None) or [])
    return known + list(site.config.not_people)


def settings(site: Site) -> NameCheck:
    """Return the project's settings of the name check (name_check in content/site.yaml), or the defaults."""
    return getattr(site.config, "name_check", None) or NameCheck()


def audited_seeds(site: Site) -> list[tuple[Source, SeedText]]:
    """Return the sources whose stored text is read for names, with that text: none when the project
    turns the check off, and not those it skips (derivatives garble names: their originals are read
    instead)."""
    check = settings(site)
    found = []
    for source in site.records["sources"].values() if check.enabled else []:
        assert isinstance(source, Source)
        seed = site.seeds.get(source.seed)
        if seed is not None and not source.derived_from and source.id not in check.skip:
            found.append((source, seed))
    return found


def uncovered_names(site: Site) -> list[Problem]:
    """Warn about names in the stored articles that no record's name or alias covers, and about
    sources the settings skip that do not exist."""
    return names_not_covered(known_names(site), audited_seeds(site), settings(site).strict) + skipped_unknown(site)


def skipped_unknown(site: Site) -> list[Problem]:
    """Warn about each id under name_check.skip that names no source."""
    sources = site.records["sources"]
    return [Problem(site.config.path, record_line(site.config, "name_check", "skip", index), 0, "warning",
                    f"'{sid}' in name_check.skip is not a source{did_you_mean(sid, sources)}")
            for index, sid in enumerate(settings(site).skip) if sid not in sources]


def names_not_covered(known: list[str], seeds: list[tuple[Source, SeedText]], strict: bool = False) -> list[Problem]:
    """Warn about names in these stored texts that none of the known names covers (advisory, which
    --strict leaves a warning, unless the project makes the check strict)."""
    folded_known = [fold_id(k) for k in known if k]
    problems = []
    for source, seed in seeds:
        reported: set[str] = set()
        for line, name in names_in_text(seed.text):
            folded = fold_id(name)
            if folded in reported:
                continue
            if any(k == folded or f"-{k}-" in f"-{folded}-" or f"-{folded}-" in f"-{k}-" for k in folded_known):
                continue
            reported.add(folded)
            problems.append(Problem(f"seeds/{source.seed}", line, 0, "warning", f"'{name}' is named here but no record covers it: {ADVICE}",
                                    kind=KIND, advisory=not strict))
    return problems
