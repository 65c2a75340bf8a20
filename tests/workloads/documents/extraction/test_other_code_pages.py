"""Central European, Cyrillic and Greek text in their Windows code pages reads as written, even where
charset-normalizer ranks Windows Western (cp1252) as high: Polish as cp1252 read "25 z³", short Russian "Öåíà"."""

import pytest

from workloads.documents.extraction import extract_file

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


@pytest.mark.parametrize("code_page, text", [
    ("cp1250", "Pracownik przyjął zamówienie i zaczął realizację.\n"),  # "przyj¹³" in cp1252: two signs in a row
    ("cp1250", "Łączna wartość zamówienia wynosi 1 234,56 zł brutto.\n"),
    ("cp1251", "Товар;Цена;Количество\nСтол;1200;2\nСтул;450;6\n"),  # a CSV line's ";" is no sign inside a word
    ("cp1251", "Отдел;Сотрудники\nIT-отдел;5\nHR-отдел;3\n"),  # "IT-отдел" mixes scripts as written
    ("cp1253", "Προϊόν;Τιμή;Ποσότητα\nΤραπέζι;120;2\nΚαρέκλα;45;6\n"),
], ids=["pl-past-tense", "pl-capital", "ru-csv", "ru-compounds", "el-csv"])
def test_short_texts_and_csv_lines_keep_their_code_page(code_page, text):
    [entry] = extract_file("dane.csv", text.encode(code_page), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, f"text ({code_page})", text)


def test_a_table_that_charset_normalizer_refuses_reads_in_its_common_code_page():
    # Tab-separated Russian words and numbers: too "chaotic" for charset-normalizer, which finds no encoding at all.
    goods = ["Стул", "Табурет", "Вешалка", "Кровать", "Ковёр", "Зеркало", "Шкаф", "Полка", "Люстра"]
    cities = ["Пермь", "Сочи", "Тверь", "Уфа", "Москва", "Тула", "Самара", "Курск"]
    rows = [f"{goods[i % 9]}\t{i * 7919 % 9000 + 100}\t{i * 31 % 50 + 1}\t{cities[i * 5 % 8]}" for i in range(60)]
    table = "\n".join(["Товар\tЦена\tКоличество\tСклад", *rows]) + "\n"

    [entry] = extract_file("sklad.tsv", table.encode("cp1251"), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, "text (cp1251)", table)
