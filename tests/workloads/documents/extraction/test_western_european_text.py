"""Windows Western (cp1252) text is decoded exactly, not as the Central European cp1250 it ties with.

charset-normalizer ranks single-byte code pages by chaos and coherence; on a tie it kept the first it tried
(cp1250), which turned "Naïve" into "Naďve". The curly quotes, dashes, "…" and "€" below exist in cp1252 only
in the 0x80-0x9F range that Latin-1 leaves to control characters.

Only ties are settled: where charset-normalizer's ranking clearly prefers another code page (a sentence or two
with few accents can look more like Baltic cp775), its choice stands.
"""

import pytest

from workloads.documents.extraction import extract_file

from .builders import LIMITS

SHORT = "Café Müller … Naïve façade\n"
FRENCH = (
    "Chère Madame, le bail de l’entrepôt situé à Genève est prolongé d’un an. "
    "Le loyer s’élève à 1 250 € par mois, charges comprises ; la caution reste fixée à 3 000 €.\n"
    "« Aucune modification » ne sera acceptée sans l’accord écrit du propriétaire — merci de votre compréhension.\n"
)
GERMAN = (
    "Sehr geehrte Frau Müller, die Gebühr für die Überprüfung beträgt 250 € zzgl. MwSt.\n"
    "„Größere“ Änderungen an der Fassade müssen vorab schriftlich genehmigt werden – bitte beachten Sie das.\n"
)


# Signs beside digits and slashes must not be taken for a wrong code page: "m³/h" is how units are written, and
# cp1250 reads it "mł/h", a word of letters, which once won the tie for that.
UNITS = [
    "Fläche: 80 m²/Büro.\n",
    "Menge 5 m³/h, Wärme.\n",
    "Kühlung auf 4°C, Lüftung 200 m³/h.\n",
    "Büro: 3½ Zimmer, 85 m², Miete 1.200€/Monat.\n",
]


@pytest.mark.parametrize("text", [SHORT, FRENCH, GERMAN, FRENCH + GERMAN, *UNITS],
                         ids=["short", "fr", "de", "fr+de", "m2", "m3", "degrees", "half-euro"])
def test_cp1252_text_is_decoded_exactly(text):
    [entry] = extract_file("brief.txt", text.encode("cp1252"), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, "text (cp1252)", text)


@pytest.mark.parametrize("text", [
    "Příliš žluťoučký kůň úpěl ďábelské ódy. Smlouva o nájmu je podepsána v Praze.\n",
    "Zażółć gęślą jaźń. Umowa najmu została podpisana w Krakowie, opłata wynosi 1200 zł.\n",
], ids=["cs", "pl"])
def test_central_european_cp1250_text_is_still_cp1250(text):
    [entry] = extract_file("smlouva.txt", text.encode("cp1250"), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, "text (cp1250)", text)


def test_other_code_pages_are_left_to_charset_normalizer():
    russian = "Договор аренды подписан в Москве. Арендная плата составляет 1200 рублей.\n"
    greek = "Η σύμβαση μίσθωσης υπογράφηκε στην Αθήνα.\n"

    [cyrillic] = extract_file("dogovor.txt", russian.encode("cp1251"), LIMITS)
    [hellenic] = extract_file("symvasi.txt", greek.encode("cp1253"), LIMITS)

    assert (cyrillic.detail, cyrillic.text) == ("text (cp1251)", russian)
    assert (hellenic.detail, hellenic.text) == ("text (cp1253)", greek)
