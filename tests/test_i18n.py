"""Dates and numbers in each language of the site (dossier/i18n.py)."""

import pytest

from dossier.model.dateparse import parse_date
from dossier.model.i18n import display_date, number

CASES = [
    # EDTF, English (as dates.py shows it), Spanish
    ("2019", "2019", "2019"),
    ("2019-02", "February 2019", "febrero de 2019"),
    ("2019-02-23", "23 February 2019", "23 de febrero de 2019"),
    ("2019-03~", "c. March 2019", "c. marzo de 2019"),
    ("2019-03?", "March 2019 (uncertain)", "marzo de 2019 (incierta)"),
    ("2019-03%", "c. March 2019 (uncertain)", "c. marzo de 2019 (incierta)"),
    ("2019-02-23/2019-02-25", "23–25 February 2019", "23–25 de febrero de 2019"),
    ("2019-02-28/2019-03-02", "28 February – 2 March 2019", "28 de febrero – 2 de marzo de 2019"),
    ("2019-02/2019-03", "February–March 2019", "febrero–marzo de 2019"),
    ("2019-05/2019-12", "May–December 2019", "mayo–diciembre de 2019"),
    ("2018/2019", "2018–2019", "2018–2019"),
    ("2018-12-30/2019-01-02", "30 December 2018 – 2 January 2019", "30 de diciembre de 2018 – 2 de enero de 2019"),
    ("2019-03~/2019-05", "c. March 2019 – May 2019", "c. marzo de 2019 – mayo de 2019"),
    ("201X", "2010s", "década de 2010"),
    ("19XX", "20th century", "siglo XX"),
    ("20XX", "21st century", "siglo XXI"),
    ("16XX~", "c. 17th century", "c. siglo XVII"),
    ("1XXX", "1000–1999", "1000–1999"),
    ("-01XX", "-199 to -100", "-199 a -100"),
    ("2019-21", "Spring 2019", "primavera de 2019"),
    ("2019-23", "Autumn 2019", "otoño de 2019"),
    ("2019-21/2019-22", "Spring–Summer 2019", "primavera–verano de 2019"),
    ("2019-21~/2019-22", "c. Spring 2019 – Summer 2019", "c. primavera de 2019 – verano de 2019"),
    ("2019/..", "from 2019", "desde 2019"),
    ("../2019-04", "until April 2019", "hasta abril de 2019"),
    ("2004-06-01/", "1 June 2004 – ?", "1 de junio de 2004 – ?"),
    ("/2006", "? – 2006", "? – 2006"),
    ("1984?/2004%", "1984 (uncertain) – c. 2004 (uncertain)", "1984 (incierta) – c. 2004 (incierta)"),
    ("-0044-03-15", "15 March -44", "15 de marzo de -44"),
    ("0000", "0", "0"),
    ("Y170000002", "170,000,002", "170.000.002"),
    ("1999-01-XX", "January 1999", "enero de 1999"),
    ("2019-04-30T05:00:00", "30 April 2019, 05:00", "30 de abril de 2019, 05:00"),
    ("2004-01-01T10:10:10Z", "1 January 2004, 10:10:10 UTC", "1 de enero de 2004, 10:10:10 UTC"),
    ("2004-01-01T10:10:10+05:00", "1 January 2004, 10:10:10 UTC+05:00", "1 de enero de 2004, 10:10:10 UTC+05:00"),
]


@pytest.mark.parametrize("text, english, spanish", CASES)
def test_every_precision_in_both_languages(text, english, spanish):
    date = parse_date(text)
    assert display_date(date, "en") == english == date.display()
    assert display_date(date, "es") == spanish


@pytest.mark.parametrize("value, english, spanish", [(7, "7", "7"), (270, "270", "270"), (1410, "1,410", "1.410"), (10002, "10,002", "10.002")])
def test_numbers_in_both_languages(value, english, spanish):
    assert (number(value, "en"), number(value, "es")) == (english, spanish)
