"""Dates against their evidence: a stated date whose quotes name only days, months or years it cannot mean."""

from __future__ import annotations

import pytest

from conftest import SEED
from dossier.check.datecheck import can_mean, mentions
from dossier.cli import main
from dossier.model.dateparse import parse_date

RULING = "The court upheld it in a 26 December 2019 ruling, Torres said.\n"


def event(date: str, basis: str = "stated") -> str:
    note = "\ndate_note: Worked out from the ruling." if basis == "inferred" else ""
    return (f"---\ntitle: The ruling\ndate: {date}\ndate_basis: {basis}{note}\nsummary: A ruling.\n"
            "evidence: {date: '[@ap \"in a 26 December 2019 ruling\"]'}\n---\n"
            'A court ruled.[@ap "The court upheld it"]\n')


def test_a_date_whose_evidence_names_another_year_is_a_warning_at_its_line_and_under_strict_an_error(make_site, capsys):
    root = make_site({"seeds/ap.txt": SEED + RULING, "content/events/ruling.md": event("2018-12-26")})
    assert main(["check", "--source", str(root)]) == 0
    expected = ("content/events/ruling.md:3: {}: '2018-12-26' (26 December 2018) is not the date its evidence gives: “in a 26 December 2019 ruling” "
                "names 26 December 2019, another year; correct the date or cite the passage that gives it")
    assert expected.format("warning") in capsys.readouterr().err.splitlines()
    assert main(["check", "--strict", "--source", str(root)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert expected.format("error") in err and err[-1] == "1 error: 1 date its evidence contradicts; --strict makes warnings errors"


@pytest.mark.parametrize("date, basis", [("2019-12-26", "stated"), ("2019-12", "stated"), ("2019-12-20/2019-12-31", "stated"), ("2018-12-26", "inferred")])
def test_a_date_its_evidence_allows_or_an_inferred_one_passes(make_site, capsys, date, basis):
    root = make_site({"seeds/ap.txt": SEED + RULING, "content/events/ruling.md": event(date, basis)})
    assert main(["check", "--strict", "--source", str(root)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("quote, named", [
    ("a 26 December 2019 ruling", [(2019, 12, 26)]),
    ("Feb. 23, the Saturday when Guaidó showed up", [(None, 2, 23)]),
    ("December 26, 2019", [(2019, 12, 26)]),
    ("as of December 2018", [(2018, 12, None)]),
    ("told Reuters in May", [(None, 5, None)]),
    ("they may go, and May 3 came", [(None, 5, 3)]),
    ("dated 2019-02-26T10:00", [(2019, 2, 26)]),
    ("– 26/02/2019", [(2019, 2, 26)]),
    ("el 23 de febrero de 2019", [(2019, 2, 23)]),
    ("1,410 officers in the 1990s", []),
    ("floundered Saturday", []),
    ("since 2019, when", [(2019, None, None)]),
])
def test_the_dates_a_quote_names_outright(quote, named):
    assert [(m.year, m.month, m.day) for m in mentions(quote)] == named


def test_a_date_can_mean_the_days_of_its_span():
    assert can_mean(parse_date("2019-02-23/2019-02-25"), mentions("Feb. 24")[0])
    assert not can_mean(parse_date("2019-02-23/2019-02-25"), mentions("Feb. 26")[0])
    assert can_mean(parse_date("2019-21"), mentions("in April")[0])  # spring 2019
    assert can_mean(parse_date("2019/.."), mentions("in 2024")[0]) and not can_mean(parse_date("2019/.."), mentions("in 2018")[0])
    assert can_mean(parse_date("201X"), mentions("on April 30")[0])
