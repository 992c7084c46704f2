"""Conflicting accounts: a declared record type whose claims are verified like any citation, listed
back on the records they involve, set side by side on their page, and flagged on the rows of a
derivative's page beside its original."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dossier.model.record_types import BUILT_IN
from dossier.pipeline import build, load
from dossier.model.problems import ContentError

COPY_SEED = "Sgt. Jorge Torres drove an armored truck over the bridge.\nEXTRA: a line the copy added\n“We will change the story,” Torres said.\n"
CONFLICT = """\
---
title: Armoured or armored
summary: The copy spells the truck differently.
claims:
  - source: ap
    quote: "drove an armoured truck across the bridge"
    says: An armoured truck, across the bridge.
  - source: ap-copy
    quote: "drove an armored truck over the bridge"
    says: An armored truck, over the bridge.
people: [jorge-torres]
events: [aid-convoy]
---
The two spell it differently.[@ap "drove an armoured truck"][@ap-copy "drove an armored truck"]
"""
FILES = {
    "seeds/ap-copy.txt": COPY_SEED,
    "content/sources/ap-copy.yaml": "title: AP copy\noutlet: A republisher\nlanguage: en\nseed: ap-copy.txt\nderived_from: ap\ninserted_lines: ['EXTRA:']\n",
    "content/conflicts/truck.md": CONFLICT,
}


def html(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


@pytest.fixture
def built(make_site, tmp_path) -> Path:
    out = tmp_path / "site"
    build(make_site(FILES), out)
    return out


def test_conflicts_are_a_declared_type_with_references_listed_back():
    conflicts = BUILT_IN["conflicts"]
    assert conflicts.singular == "conflict" and [f.name for f in conflicts.citing_fields] == ["claims"]
    assert {f.name: f.inverse for f in conflicts.references} == {"people": "Conflicting accounts", "events": "Conflicting accounts"}


def test_a_conflict_loads_with_its_claims(make_site):
    site, problems = load(make_site(FILES))
    assert [p for p in problems if p.severity == "error"] == []
    conflict = site.records["conflicts"]["truck"]
    assert [(c.source, c.says) for c in conflict.claims] == [("ap", "An armoured truck, across the bridge."), ("ap-copy", "An armored truck, over the bridge.")]


def test_a_misquoted_claim_is_an_error_at_its_line_with_every_other_problem(make_site):
    broken = CONFLICT.replace("drove an armored truck over", "drove a red truck over").replace("people: [jorge-torres]", "people: [jorge-toress]")
    root = make_site({**FILES, "content/conflicts/truck.md": broken})
    with pytest.raises(ContentError) as raised:
        build(root, root.parent / "out")
    messages = [str(p) for p in raised.value.problems]
    assert any(m.startswith("content/conflicts/truck.md:9:13: error: quote not found in source 'ap-copy'") for m in messages), messages
    assert any(m.startswith("content/conflicts/truck.md:11: error:") and "jorge-toress" in m for m in messages), messages


def test_a_claim_needs_what_its_source_says(make_site):
    root = make_site({**FILES, "content/conflicts/truck.md": CONFLICT.replace("    says: An armored truck, over the bridge.\n", "")})
    _, problems = load(root)
    assert "content/conflicts/truck.md:8: error: 'claims.1' needs 'says' (a short plain account of what the source says)" in [str(p) for p in problems]


def test_the_records_a_conflict_involves_list_it(built):
    for page in ("people/jorge-torres/index.html", "events/aid-convoy/index.html"):
        text = html(built, page)
        assert re.search(r'<h2 id="conflicts-(people|events)-heading">Conflicting accounts</h2>\s*<ul class="link-list">\s*<li><a href="../../conflicts/truck/">Armoured or armored</a>', text), page
    assert '<a href="../conflicts/truck/">Armoured or armored</a>' in html(built, "conflicts/index.html")


def test_the_conflict_page_sets_each_claim_beside_the_others_and_flags_the_derivative(built):
    page = html(built, "conflicts/truck/index.html")
    claims = re.findall(r'<li class="claim-card( derivative)?">(.*?)</li>', page, re.S)
    assert [bool(derivative) for derivative, _ in claims] == [False, True]
    original, copy = (body for _, body in claims)
    assert 'href="../../sources/ap/#passage-' in original and "An armoured truck, across the bridge." in original
    assert "derivative of The Associated Press" in copy and "An armored truck, over the bridge." in copy
    assert 'href="../../sources/ap-copy/aligned/"' in page  # where each claim falls in the two texts


def test_the_aligned_page_sets_the_copy_beside_its_original_and_flags_the_conflict_on_its_row(built):
    page = html(built, "sources/ap-copy/aligned/index.html")
    rows = re.findall(r'<li class="aligned-row[^"]*" id="row-\d+">(.*?)</li>', page, re.S)
    assert len(rows) == 4  # two lines matched, and the inserted line of each text alone
    truck = next(row for row in rows if "armoured" in row)
    assert 'href="../../../conflicts/truck/">Armoured or armored</a>' in truck
    assert '<mark class="only">armoured</mark>' in truck and '<mark class="only">armored</mark>' in truck
    assert re.search(r"\d+% of the words on both sides", truck)
    inserted = next(row for row in rows if "EXTRA:" in row)
    assert "inserted by the republisher" in inserted and "Not part of the story" in inserted and "conflict" not in inserted
    assert 'href="../../../sources/ap/#paragraph-1">paragraph 1</a>' in truck  # each side links to its paragraph on its source page
    assert 'id="paragraph-1"' in html(built, "sources/ap/index.html")
    assert page.count('lang="en"') >= 2 * len(rows)
    for source in ("sources/ap/index.html", "sources/ap-copy/index.html"):
        assert 'aligned/">Read it beside' in html(built, source)


def test_conflicts_are_exported_with_their_claims(built):
    lines = (built / "data/site.json").read_text(encoding="utf-8")
    conflicts = json.loads(lines)["conflicts"]
    assert conflicts == [{
        "id": "truck", "title": "Armoured or armored", "summary": "The copy spells the truck differently.",
        "claims": [{"source": "ap", "quote": "drove an armoured truck across the bridge", "says": "An armoured truck, across the bridge."},
                   {"source": "ap-copy", "quote": "drove an armored truck over the bridge", "says": "An armored truck, over the bridge."}],
        "people": ["jorge-torres"], "events": ["aid-convoy"], "url": "conflicts/truck/",
    }]
