"""Central European, Cyrillic and Greek text in their Windows code pages reads as written, even where
charset-normalizer ranks Windows Western (cp1252) as high: Polish as cp1252 read "25 z³", short Russian "Öåíà"."""

import pytest

from workloads.extraction import extract_file

from .builders import LIMITS

TEXTS = {
    "cp1250": "Umowa dostawy chleba. Cena za skrzynkę wynosi 25 zł, płatność w ciągu 30 dni.\n",
    "cp1251": "Цена: 250 руб.\n",
    "cp1253": "Σύμβαση προμήθειας ψωμιού. Η τιμή ανά κιβώτιο είναι 25 ευρώ.\n",
}


@pytest.mark.parametrize("code_page", TEXTS)
def test_text_in_another_windows_code_page_reads_as_written(code_page):
    [entry] = extract_file("umowa.txt", TEXTS[code_page].encode(code_page), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, f"text ({code_page})", TEXTS[code_page])
