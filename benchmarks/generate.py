"""Write a synthetic but realistic dossier project: N people, events, places, groups and sources,
with stored texts, verbatim citations, cross-links and about 400 words per page.

Deterministic: the same N always gives the same bytes.  python benchmarks/generate.py N FOLDER
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

WORDS = (
    "the of and to in a that for on with as was by at from his her their border soldiers guard army "
    "officer said told government opposition bridge aid convoy night morning week month year city town "
    "river shelter family children wife son daughter mother father brother sister money food medicine "
    "hospital hotel road truck bus car phone message call meeting minister president colonel sergeant "
    "captain general lieutenant commander police militia unit barracks base post checkpoint crossing "
    "country capital province state region village street house room camp office ministry embassy "
    "interview report story article letter statement decision plan option choice fear hope anger "
    "hunger salary pay wage price inflation crisis protest march rally clash violence injury death "
    "escape flight journey arrival departure return visit stay wait leave cross fled deserted joined "
    "refused ordered promised asked answered explained described remembered recalled believed feared "
    "hoped wanted needed tried managed decided agreed denied confirmed announced reported estimated "
    "quietly slowly quickly later earlier before after during while since until because although "
    "many few several some most every each other another new old young small large long short "
    "first last next early late good bad hard easy poor rich safe dangerous open closed free"
).split()
FIRST = "Ana Luis Maria Jose Carlos Rosa Pedro Elena Jorge Lucia Miguel Sofia Diego Carmen Rafael Julia Andres Paula Victor Laura".split()
LAST = "Gomez Torres Parra Ramirez Perez Mejia Nunez Munoz Zambrano Bautista Henao Superlano Garcia Lopez Diaz Castro Rojas Vargas Herrera Medina".split()


def sentence(rng: random.Random, low: int = 8, high: int = 20) -> str:
    """Return one sentence of vocabulary words."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


def seed_text(rng: random.Random, words: int) -> str:
    """Return a stored article of about this many words, in paragraphs of a few sentences."""
    paragraphs, count = [], 0
    while count < words:
        paragraph = " ".join(sentence(rng) for _ in range(rng.randint(2, 5)))
        paragraphs.append(paragraph)
        count += len(paragraph.split())
    return "\n\n".join(paragraphs) + "\n"


def quote_from(rng: random.Random, text: str) -> str:
    """Return a verbatim run of 5 to 12 words from a stored text."""
    words = text.split()
    start = rng.randrange(0, len(words) - 12)
    return " ".join(words[start:start + rng.randint(5, 12)]).replace('"', "")


def marker(rng: random.Random, sources: list[str], seeds: dict[str, str]) -> str:
    """Return a citation marker as a single-quoted YAML value, for a fact's evidence."""
    source = rng.choice(sources)
    return "'[@" + source + ' "' + quote_from(rng, seeds[source]).replace("'", "''") + "\"]'"


def evidence(rng: random.Random, sources: list[str], seeds: dict[str, str], facts: dict[str, list[str] | None]) -> str:
    """Return an `evidence:` block citing each fact: a list field's values one by one, a single value
    (a list of None) directly. A project's facts carry evidence, as the documentary's do."""
    lines = ["evidence:"]
    for name, values in facts.items():
        if values == [None]:
            lines.append(f"  {name}: {marker(rng, sources, seeds)}")
        else:
            cited = ", ".join(f"{value}: {marker(rng, sources, seeds)}" for value in values)
            lines.append(f"  {name}: {{{cited}}}")
    return "\n".join(lines) + "\n"


def body(rng: random.Random, sources: list[str], seeds: dict[str, str], targets: list[str], words: int = 400) -> str:
    """Return a Markdown body of about this many words with links, every sentence citing a passage
    (as a real project's do: an uncited sentence is a warning, and under --strict an error)."""
    paragraphs, count = [], 0
    while count < words:
        sentences = []
        for _ in range(rng.randint(3, 5)):
            text = sentence(rng)
            if rng.random() < 0.35:
                link = rng.choice(targets)
                text = text[:-1] + f" near [[{link}]]."
            source = rng.choice(sources)
            text += f'[@{source} "{quote_from(rng, seeds[source])}"]'
            sentences.append(text)
            count += len(text.split())
        paragraphs.append(" ".join(sentences))
        if rng.random() < 0.2:
            paragraphs.append("## " + sentence(rng, 2, 5)[:-1])
    return "\n\n".join(paragraphs) + "\n"


def generate(n: int, out: Path) -> None:
    """Write a project of about n records into out (replacing it)."""
    rng = random.Random(n)
    if out.exists():
        shutil.rmtree(out)
    n_sources, n_places, n_groups = max(4, n // 50), max(3, n // 50), max(3, n // 100)
    n_people = (n - n_sources - n_places - n_groups) // 2
    n_events = n - n_sources - n_places - n_groups - n_people
    sources = [f"source-{i:05d}" for i in range(n_sources)]
    places = [f"place-{i:05d}" for i in range(n_places)]
    groups = [f"group-{i:05d}" for i in range(n_groups)]
    people = [f"{FIRST[i % 20].lower()}-{LAST[i // 20 % 20].lower()}-{i:05d}" for i in range(n_people)]
    events = [f"event-{i:05d}" for i in range(n_events)]
    files: dict[str, str] = {"content/site.yaml": "title: Synthetic dossier\ndescription: A generated project for benchmarks.\nlanguage: en\n"}
    seeds = {s: seed_text(rng, rng.randint(1500, 3000)) for s in sources}
    for s in sources:
        files[f"seeds/{s}.txt"] = seeds[s]
        files[f"content/sources/{s}.yaml"] = (
            f'title: "Report number {s[-5:]} on the border"\noutlet: Outlet {int(s[-5:]) % 7}\nbyline: [{rng.choice(FIRST)} {rng.choice(LAST)}]\n'
            f"published: 2019-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}\nlanguage: en\nseed: {s}.txt\n"
            f'notes: |\n  {sentence(rng)} {sentence(rng)}[@{s} "{quote_from(rng, seeds[s])}"]\n'
        )
    everyone = people + events + places + groups
    for i, p in enumerate(places):
        inside = f"located_in: {places[i // 10]}\n" + evidence(rng, sources, seeds, {"located_in": [None]}) if i >= 10 else ""
        files[f"content/places/{p}.md"] = f"---\nname: Place {i}\nkind: town\nsummary: {sentence(rng, 6, 10)}\n{inside}---\n" + body(rng, sources, seeds, everyone, 150)
    for i, g in enumerate(groups):
        part = f"part_of: {groups[i // 10]}\n" + evidence(rng, sources, seeds, {"part_of": [None]}) if i >= 10 else ""
        files[f"content/groups/{g}.md"] = f"---\nname: Group {i}\nkind: armed force\nsummary: {sentence(rng, 6, 10)}\n{part}---\n" + body(rng, sources, seeds, everyone, 150)
    for i, p in enumerate(people):
        name = f"{FIRST[i % 20]} {LAST[i // 20 % 20]} {i}"
        age = ""
        if rng.random() < 0.3:
            s = rng.choice(sources)
            age = f'age: {{years: {rng.randint(19, 60)}, as_of: "2019", source: {s}, quote: "{quote_from(rng, seeds[s])}"}}\n'
        role, group, where = rng.choice(['sergeant', 'captain', 'officer', 'driver']), rng.choice(groups), sorted(set(rng.sample(places, 2)))
        cited = evidence(rng, sources, seeds, {"roles": [role], "affiliations": [group], "places": where, "status": [None]})
        files[f"content/people/{p}.md"] = (
            f"---\nname: {name}\naliases: [{name}]\nsummary: {sentence(rng, 8, 16)}\nroles: [{role}]\n"
            f"affiliations: [{group}]\nplaces: [{', '.join(where)}]\n{age}status: {rng.choice(['Defected', 'In Colombia', 'Unknown'])}\n{cited}---\n"
            + body(rng, sources, seeds, everyone)
        )
    for e in events:
        year, month, day = rng.randint(2013, 2020), rng.randint(1, 12), rng.randint(1, 28)
        date = rng.choice([f"{year}-{month:02d}-{day:02d}"] * 4 + [f"{year}-{month:02d}", f"{year}-{month:02d}~", f"{year}"])
        figure = ""
        if rng.random() < 0.3:
            s = rng.choice(sources)
            figure = f'figures:\n  - {{label: Fled, value: "{rng.randint(10, 900)}", source: {s}, quote: "{quote_from(rng, seeds[s])}"}}\n'
        who, where, group = sorted(set(rng.sample(people, 3))), rng.choice(places), rng.choice(groups)
        cited = evidence(rng, sources, seeds, {"date": [None], "people": who, "places": [where], "groups": [group]})
        files[f"content/events/{e}.md"] = (
            f"---\ntitle: {sentence(rng, 3, 7)[:-1]}\ndate: {date}\npeople: [{', '.join(who)}]\n"
            f"places: [{where}]\ngroups: [{group}]\ntags: [{rng.choice(['aid', 'border', 'defection'])}]\nsummary: {sentence(rng, 8, 16)}\n{figure}{cited}---\n"
            + body(rng, sources, seeds, everyone)
        )
    files["content/pages/home.md"] = "---\ntitle: Synthetic dossier\n---\n<!-- editorial -->\n" + sentence(rng) + "\n"
    files["content/pages/about.md"] = "---\ntitle: About\n---\n<!-- editorial -->\n" + sentence(rng) + "\n"
    for relative, text in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    generate(int(sys.argv[1]), Path(sys.argv[2]))
