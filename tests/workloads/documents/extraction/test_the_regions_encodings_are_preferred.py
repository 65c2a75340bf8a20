"""Text in a legacy encoding reads as written when charset-normalizer's readings are close: the organisation's region
(its time zone's country; Western European for UTC) decides. The tester's twenty lines of French in cp1252 read as
cp1257 ("déją", "ą la crčche") with no region preferred; benchmarks/encoding_corpus.py measures every case."""

import pytest

from benchmarks.encoding_corpus import FRENCH, REGION_TIME_ZONES, Case, cases
from workloads.documents.extraction import Limits, extract_file
from workloads.documents.extraction.regions import WESTERN, preferred_encodings
from workloads.documents.extraction.text import decode_text

from .builders import LIMITS

IN_PARIS = Limits(max_file_bytes=LIMITS.max_file_bytes, max_archive_members=LIMITS.max_archive_members,
                  max_archive_bytes=LIMITS.max_archive_bytes, preferred_encodings=WESTERN)


def test_twenty_lines_of_french_in_cp1252_read_as_written_in_a_western_region():
    data = FRENCH.encode("cp1252")
    assert FRENCH.count("\n") == 20 and decode_text(data).encoding == "cp1257"  # the tester's case, no region

    [entry] = extract_file("contrat.txt", data, IN_PARIS)

    assert (entry.kept, entry.detail, entry.text) == (True, "text (cp1252)", FRENCH)
    assert all(word in entry.text.split() for word in ("coûte", "crèche", "déjà", "à"))


def test_latin_9s_euro_sign_is_not_read_as_the_currency_sign():
    [entry] = extract_file("contrat.txt", FRENCH.encode("iso8859_15"), IN_PARIS)

    assert (entry.detail, entry.text) == ("text (iso8859_15)", FRENCH)


@pytest.mark.parametrize("case", [c for c in cases() if c.encoding != "utf-8"], ids=lambda c: f"{c.name}-{c.lines}")
def test_every_legacy_text_of_the_corpus_reads_as_written_in_its_own_region(case: Case):
    decoded = decode_text(case.data, preferred_encodings(REGION_TIME_ZONES[case.language]))

    assert decoded.text == case.text


# Lithuanian in cp1257 needs its region: with a Western one (or none) cp1250's reading is as plausible and wins.
NEEDS_ITS_REGION = {("Lithuanian", "cp1257")}


@pytest.mark.parametrize("case", [c for c in cases() if (c.language, c.encoding) not in NEEDS_ITS_REGION],
                         ids=lambda c: f"{c.name}-{c.lines}")
def test_an_organisation_on_utc_reads_the_corpus_as_written(case: Case):
    # Turkish in cp1254 among them: cp1252's reading is as clean, but far less coherent, so not close enough.
    assert decode_text(case.data, preferred_encodings("UTC")).text == case.text


@pytest.mark.parametrize("time_zone, encodings", [
    ("UTC", WESTERN), ("Europe/Paris", WESTERN), ("America/New_York", WESTERN),
    ("Europe/Warsaw", ("cp1250", "iso8859_2")), ("Poland", ("cp1250", "iso8859_2")),  # a link to Europe/Warsaw
    ("Europe/Prague", ("cp1250", "iso8859_2")), ("Europe/Moscow", ("cp1251", "koi8_r")),
    ("Europe/Kiev", ("cp1251", "koi8_u")), ("Europe/Vilnius", ("cp1257", "iso8859_13")),
    ("Asia/Tokyo", ("cp932", "shift_jis", "euc_jp")), ("Asia/Shanghai", ("gb18030",)),
])
def test_a_time_zone_names_its_countrys_encodings(time_zone, encodings):
    assert preferred_encodings(time_zone) == encodings


def test_an_unknown_encoding_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="unknown encoding 'cp9999'"):
        Limits(max_file_bytes=1, max_archive_members=1, max_archive_bytes=1, preferred_encodings=("cp9999",))
