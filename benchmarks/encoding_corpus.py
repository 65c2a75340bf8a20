"""Short business texts in fifteen languages, each encoded in the legacy encodings its writers' tools still save
(issue 40, item 6), and how many of them the text extraction decodes exactly right.

Usage: .venv/bin/python benchmarks/encoding_corpus.py [--json benchmarks/encoding_corpus.json]

The texts are Python strings written for this corpus (ordinary business prose: letters, invoices, notices), encoded
here on every run, so the corpus is generated, not a set of committed binary files. The French letter is twenty lines
that read as cp1257 before issue 40, as the tester's did. Each (text, encoding) case is decoded by
workloads.documents.extraction.text.decode_text as an upload is: with no region preferred, as an organisation on the
default time zone (UTC: Western European) has it, as one in the language's own region has it, and as one in each of
the corpus's other regions has it. A decoding is right when it gives back exactly the text written. Prints a Markdown
table; tests/workloads/documents/extraction/test_the_regions_encodings_are_preferred.py checks the same cases.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

FRENCH = """Objet : renouvellement du contrat de maintenance pour l'année à venir
Madame, Monsieur,
Nous vous remercions de la confiance que vous accordez à notre société depuis déjà trois ans.
Le contrat actuel arrive à échéance le 31 décembre ; sa reconduction coûte 4 850 € hors taxes.
Ce tarif comprend la visite préventive trimestrielle et l'intervention sous quarante-huit heures.
Pour la crèche de la rue Pasteur, la première visite est prévue le mardi 14 janvier à 9 h.
Notre technicien, M. Lefèvre, se présentera à l'accueil muni de son badge.
Si vous préférez une autre date, il suffit de répondre à ce courrier avant la fin du mois.
Le paiement s'effectue à trente jours fin de mois, par virement ou par prélèvement.
La réunion de lancement aura lieu à la mairie, salle des fêtes, à 10 h.
Le matériel déjà livré reste à la charge du client jusqu'à la réception définitive.
Une remise de 5 % s'applique dès la deuxième année de contrat.
Le délai de livraison prévu est de quinze jours ouvrés après la commande.
La prochaine facture tiendra compte de l'avoir émis le mois dernier.
Une indemnité forfaitaire de 40 € pour frais de recouvrement s'y ajoute.
Vous trouverez ci-joint le devis détaillé ainsi que les conditions générales de vente.
Nous restons à votre disposition pour tout renseignement complémentaire.
Le service client est joignable du lundi au vendredi, de 8 h 30 à 18 h.
Pour les urgences, un numéro d'astreinte figure au dos de la carte remise lors de l'installation.
Veuillez agréer, Madame, Monsieur, l'expression de nos salutations distinguées.
"""

TEXTS = {
    "French": FRENCH,
    "German": """Sehr geehrte Damen und Herren,
vielen Dank für Ihre Anfrage vom 12. März bezüglich der Büroräume in der Hauptstraße.
Die monatliche Miete beträgt 2.300 € zuzüglich Nebenkosten und gesetzlicher Umsatzsteuer.
Die Kündigungsfrist für beide Vertragsparteien beläuft sich auf drei Monate zum Quartalsende.
Eine Besichtigung ist am Donnerstag um 14 Uhr möglich; bitte bestätigen Sie uns den Termin kurz.
Mit freundlichen Grüßen
Jürgen Weiß, Geschäftsführer
""",
    "Spanish": """Estimado cliente:
Le informamos de que su pedido número 4512 ha salido de nuestro almacén esta mañana.
El importe total asciende a 1.250 € e incluye el envío y la instalación del equipo.
¿Desea que nuestro técnico le llame antes de la visita? Indíquenoslo respondiendo a este mensaje.
La garantía cubre piezas y mano de obra durante dos años a partir de la fecha de entrega.
Atentamente, el equipo de atención al cliente de Compañía Ibérica de Señalización
""",
    "Portuguese": """Prezados senhores,
Confirmamos a receção da vossa encomenda e agradecemos a preferência.
O preço unitário é de 35 € e a entrega será feita até ao final do mês, sem custos adicionais.
A fatura será emitida após a expedição, com pagamento a trinta dias.
Caso pretendam alterar a quantidade, solicitamos que nos informem até quinta-feira.
Com os melhores cumprimentos, João Gonçalves, direção comercial
""",
    "Italian": """Gentile cliente,
la informiamo che la fattura n. 218 relativa al mese di giugno è disponibile nell'area riservata.
L'importo di 980 € dovrà essere saldato entro il 30 luglio tramite bonifico bancario.
Per qualsiasi chiarimento può contattare il nostro ufficio amministrativo, aperto dal lunedì al venerdì.
Ricordiamo che il servizio di assistenza è già incluso nel canone e non comporta costi aggiuntivi.
Cordiali saluti, Niccolò Bertè, responsabile amministrazione
""",
    "Swedish": """Hej!
Tack för er beställning av kontorsmöbler till det nya kontoret i Göteborg.
Leveransen är planerad till vecka 42 och montering ingår i priset på 48 000 kronor.
Fakturan skickas när allt är levererat och betalas inom trettio dagar.
Hör av er om ni behöver ändra leveransadressen eller lägga till fler skrivbord.
Med vänliga hälsningar, Åsa Öberg, kundtjänst
""",
    "English": """Dear customer,
Thank you for renewing your subscription with us for another year.
The annual fee is €1,200, payable within 30 days of the invoice date.
We’ve added two more user licences at no extra charge, as agreed with your account manager.
If you have any questions, please reply to this e-mail or call our support line.
Kind regards, the billing team
""",
    "Polish": """Szanowni Państwo,
w załączeniu przesyłamy fakturę za usługi księgowe wykonane w październiku.
Kwota do zapłaty wynosi 3 450 zł i należy ją uregulować w ciągu czternastu dni.
Prosimy o przelew na rachunek podany na fakturze, z numerem dokumentu w tytule.
W razie pytań nasz dział obsługi klienta jest dostępny od poniedziałku do piątku.
Z wyrazami szacunku, Łukasz Wiśniewski, główny księgowy
""",
    "Czech": """Vážení obchodní partneři,
dovolujeme si vám oznámit, že od prvního ledna se mění ceník našich služeb.
Měsíční paušál za správu počítačové sítě činí nově 12 500 Kč bez daně z přidané hodnoty.
Smlouvu je možné vypovědět písemně s tříměsíční výpovědní lhůtou.
Podrobnosti naleznete v příloze této zprávy nebo u svého obchodního zástupce.
S pozdravem, Jiří Dvořák, vedoucí obchodního oddělení
""",
    "Lithuanian": """Gerbiami klientai,
dėkojame, kad jau ketverius metus naudojatės mūsų paslaugomis.
Sąskaita už spalio mėnesį sudaro 1 250 eurų ir turi būti apmokėta per keturiolika dienų.
Jei norite pakeisti mokėjimo būdą, praneškite mums iki mėnesio pabaigos.
Klientų aptarnavimo skyrius dirba darbo dienomis nuo aštuonių iki septyniolikos valandų.
Pagarbiai, Jonas Kazlauskas, finansų vadovas
""",
    "Turkish": """Sayın müşterimiz,
ekim ayına ait faturanız ekte gönderilmiştir.
Toplam tutar 4.500 TL olup on dört gün içinde ödenmelidir.
Ödeme için banka havalesi veya kredi kartı kullanabilirsiniz.
Sorularınız için müşteri hizmetlerimizle hafta içi her gün iletişime geçebilirsiniz.
Saygılarımızla, Ayşe Yılmaz, muhasebe müdürü
""",
    "Greek": """Αγαπητέ πελάτη,
σας ενημερώνουμε ότι το τιμολόγιο του Οκτωβρίου είναι πλέον διαθέσιμο.
Το ποσό των 850 ευρώ πρέπει να καταβληθεί εντός δεκαπέντε ημερών.
Για οποιαδήποτε απορία, επικοινωνήστε με το λογιστήριο τις εργάσιμες ημέρες.
Με εκτίμηση, Γιώργος Παπαδόπουλος, οικονομικός διευθυντής
""",
    "Russian": """Уважаемые коллеги!
Направляем вам счёт на оплату услуг по техническому обслуживанию за третий квартал.
Сумма к оплате составляет 86 400 рублей, включая налог на добавленную стоимость.
Просим произвести оплату в течение десяти банковских дней с даты выставления счёта.
По всем вопросам обращайтесь в бухгалтерию по телефону или электронной почте.
С уважением, Ирина Петровна Соколова, главный бухгалтер
""",
    "Japanese": """お客様各位
平素より格別のご高配を賜り、厚く御礼申し上げます。
さて、来月一日より事務所を下記の住所へ移転することとなりました。
移転に伴い、電話番号およびファクス番号も変更となります。
ご請求書の送付先につきましても、新しい住所へご変更くださいますようお願い申し上げます。
今後とも変わらぬご愛顧を賜りますよう、よろしくお願い申し上げます。
株式会社山田商事　総務部
""",
    "Chinese": """尊敬的客户：
感谢您一直以来对本公司的信任与支持。
根据合同约定，本季度的服务费用为人民币两万四千元，请于本月三十日前支付。
如需开具增值税专用发票，请将贵公司的开票信息发送至财务部。
我们将继续为您提供优质的产品和服务，如有任何问题，欢迎随时与我们联系。
此致
敬礼
上海华东贸易有限公司　财务部
""",
}

# The encodings each language's files are met in: its Windows code page and its ISO or national one, and UTF-8.
ENCODINGS = {
    "French": ("cp1252", "iso8859_15", "utf-8"),
    "German": ("cp1252", "iso8859_15", "utf-8"),
    "Spanish": ("cp1252", "iso8859_15", "utf-8"),
    "Portuguese": ("cp1252", "iso8859_15", "utf-8"),
    "Italian": ("cp1252", "iso8859_15", "utf-8"),
    "Swedish": ("cp1252", "iso8859_15", "utf-8"),
    "English": ("cp1252", "utf-8"),
    "Polish": ("cp1250", "utf-8"),
    "Czech": ("cp1250", "utf-8"),
    "Lithuanian": ("cp1257", "utf-8"),
    "Turkish": ("cp1254", "utf-8"),
    "Greek": ("cp1253", "iso8859_7", "utf-8"),
    "Russian": ("cp1251", "koi8_r", "utf-8"),
    "Japanese": ("shift_jis", "utf-8"),
    "Chinese": ("gb18030", "utf-8"),
}

# A time zone of each language's region: what an organisation in it would have set (workloads.Organisation.timezone).
REGION_TIME_ZONES = {
    "French": "Europe/Paris", "German": "Europe/Berlin", "Spanish": "Europe/Madrid", "Portuguese": "Europe/Lisbon",
    "Italian": "Europe/Rome", "Swedish": "Europe/Stockholm", "English": "Europe/London", "Polish": "Europe/Warsaw",
    "Czech": "Europe/Prague", "Lithuanian": "Europe/Vilnius", "Turkish": "Europe/Istanbul", "Greek": "Europe/Athens",
    "Russian": "Europe/Moscow", "Japanese": "Asia/Tokyo", "Chinese": "Asia/Shanghai",
}


@dataclass(frozen=True)
class Case:
    language: str
    encoding: str
    text: str

    @property
    def data(self) -> bytes:
        return self.text.encode(self.encoding)

    @property
    def name(self) -> str:
        return f"{self.language} {self.encoding}"

    @property
    def lines(self) -> int:
        return self.text.count("\n")


def cases() -> list[Case]:
    """Every text in every encoding of its language, and one line of the French letter alone (the tester's single
    line of French decoded right; twenty lines did not)."""
    found = [Case(language, encoding, TEXTS[language]) for language in TEXTS for encoding in ENCODINGS[language]]
    one_line = FRENCH.splitlines()[3] + "\n"  # "... sa reconduction coûte 4 850 € hors taxes."
    return found + [Case("French", encoding, one_line) for encoding in ("cp1252", "iso8859_15")]


def decoded_right(case: Case, time_zone: str | None) -> tuple[bool, str | None]:
    """Whether the extraction gives back exactly the text written, and the encoding it names (None: UTF-8), for an
    organisation in `time_zone` (None: no region preferred, as before issue 40)."""
    from workloads.documents.extraction.regions import preferred_encodings
    from workloads.documents.extraction.text import decode_text

    preferred = preferred_encodings(time_zone) if time_zone else ()
    return read_back(case, lambda data: decode_text(data, preferred))


def read_back(case: Case, decode: Callable) -> tuple[bool, str | None]:
    """Whether `decode` (a decode_text, bytes to DecodedText) gives back exactly the text written, and the encoding
    it names; a file it refuses is wrong."""
    from workloads.documents.extraction.datatypes import Skip

    try:
        decoded = decode(case.data)
    except Skip as refused:
        return False, f"refused: {refused}"
    return decoded.text == case.text, decoded.encoding


def measure(found: list[Case] | None = None, time_zones: dict[str, str] = REGION_TIME_ZONES,
            before: Callable | None = None) -> list[dict]:
    """Each case (this corpus's by default) decoded with no region preferred, as an organisation on the default time
    zone (UTC) has it, as one in the language's region has it (`time_zones`: language to zone), and as
    organisations in each other region of `time_zones` have it; with `before`, an earlier decode_text, by that too."""
    zones = sorted(set(time_zones.values()))
    rows = []
    for case in cases() if found is None else found:
        own = time_zones[case.language]
        row = {"language": case.language, "encoding": case.encoding, "lines": case.lines,
               "bytes": len(case.data), "own_time_zone": own}
        if before is not None:
            row["right_before"], row["named_before"] = read_back(case, before)
        for column, time_zone in (("no_preference", None), ("utc", "UTC"), ("own_region", own)):
            row[f"right_{column}"], row[f"named_{column}"] = decoded_right(case, time_zone)
        others = [zone for zone in zones if zone != own]
        row["wrong_in_other_regions"] = [zone for zone in others if not decoded_right(case, zone)[0]]
        row["right_in_other_regions"] = len(others) - len(row["wrong_in_other_regions"])
        row["other_regions"] = len(others)
        rows.append(row)
    return rows


def _cell(right: bool, named: str | None) -> str:
    return f"{'yes' if right else '**no**'} ({named or 'UTF-8'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    rows = measure()
    print("| language | encoding | lines | no region preferred | UTC organisation (Western) | own region "
          "| right in the other regions |")
    print("|---|---|---:|---|---|---|---:|")
    for r in rows:
        print(f"| {r['language']} | {r['encoding']} | {r['lines']} | "
              f"{_cell(r['right_no_preference'], r['named_no_preference'])} | {_cell(r['right_utc'], r['named_utc'])}"
              f" | {_cell(r['right_own_region'], r['named_own_region'])} ({r['own_time_zone']}) | "
              f"{r['right_in_other_regions']} of {r['other_regions']} |")
    totals = {column: sum(r[f"right_{column}"] for r in rows) for column in ("no_preference", "utc", "own_region")}
    others = sum(r["right_in_other_regions"] for r in rows), sum(r["other_regions"] for r in rows)
    print(f"\nright of {len(rows)}: {totals['no_preference']} with no region preferred, {totals['utc']} for a UTC "
          f"organisation, {totals['own_region']} in the language's own region; {others[0]} of {others[1]} decodings "
          f"in another region's organisation")
    if args.json:
        summary = {"benchmark": "encoding_corpus", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   "cases": len(rows), **{f"right_{k}": v for k, v in totals.items()},
                   "right_in_other_regions": others[0], "other_region_decodings": others[1], "rows": rows}
        args.json.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "costplanner.settings")
    main()
