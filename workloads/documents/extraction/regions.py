"""The legacy text encodings of an organisation's region, which text.decode_text prefers among readings that
charset-normalizer finds close: short text in one Latin code page often reads as plausibly in another ("déjà" as
"déją" in the Baltic cp1257), and only knowing where it was written tells them apart.

The region is the country of the organisation's time zone (its admin sets it for the schedules; tzdata's zone.tab
names each zone's country); a zone with no country (UTC, the default) is taken as the site's language, English, so
Western European. Accept-Language was not used: an upload is read later, by a worker, when the request is gone (and
retried or taken over later still), and API clients seldom send it; the time zone is the organisation's, already
set, and the same for every upload and every member.
"""

from __future__ import annotations

import functools
from importlib import resources

WESTERN = ("cp1252", "iso8859_15")  # Windows' Western code page first: it is the one most files are saved in
CENTRAL = ("cp1250", "iso8859_2")
CYRILLIC = ("cp1251", "koi8_r")
BALTIC = ("cp1257", "iso8859_13")

# Countries whose legacy encodings are not Western European.
_BY_COUNTRY = {
    **dict.fromkeys(("PL", "CZ", "SK", "HU", "SI", "HR", "RO", "AL", "BA"), CENTRAL),
    "RS": ("cp1250", "cp1251"),
    **dict.fromkeys(("RU", "BY", "KZ", "KG", "TJ"), CYRILLIC),
    "UA": ("cp1251", "koi8_u"),
    **dict.fromkeys(("BG", "MK"), ("cp1251",)),
    **dict.fromkeys(("LT", "LV", "EE"), BALTIC),
    **dict.fromkeys(("GR", "CY"), ("cp1253", "iso8859_7")),
    "TR": ("cp1254", "iso8859_9"),
    "IL": ("cp1255", "iso8859_8"),
    **dict.fromkeys(("SA", "AE", "EG", "IQ", "JO", "KW", "LB", "LY", "OM", "QA", "SY", "YE", "BH", "IR"),
                    ("cp1256",)),
    "VN": ("cp1258",),
    "TH": ("cp874",),
    "JP": ("cp932", "shift_jis", "euc_jp"),
    **dict.fromkeys(("CN", "SG"), ("gb18030",)),
    **dict.fromkeys(("TW", "HK", "MO"), ("big5",)),
    "KR": ("cp949", "euc_kr"),
}

def preferred_encodings(time_zone: str) -> tuple[str, ...]:
    """The encodings to prefer for an organisation in `time_zone`: its country's, or Western European ones for a
    country whose legacy encodings are those and for a zone that names no country (UTC), as the site is in English
    (LANGUAGE_CODE) and cp1252 is the code page most legacy files are in."""
    return _BY_COUNTRY.get(_country(time_zone), WESTERN)


def _country(time_zone: str) -> str | None:
    countries, links = _zone_table()  # e.g. "Europe/Warsaw": "PL"; "Poland": "Europe/Warsaw"
    return countries.get(time_zone) or countries.get(links.get(time_zone, ""))


@functools.cache
def _zone_table() -> tuple[dict[str, str], dict[str, str]]:
    """tzdata's zone.tab (zone to country) and its links (an old or merged name to the zone it follows: "Poland",
    "Europe/Kiev"), from the tzdata package, which is there whatever the system has."""
    folder = resources.files("tzdata.zoneinfo")
    countries = {}
    for line in folder.joinpath("zone.tab").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, _, zone = line.split("\t")[:3]
            countries[zone] = code
    links = {}
    for line in folder.joinpath("tzdata.zi").read_text(encoding="utf-8").splitlines():
        if line.startswith("L "):
            _, target, name = line.split()
            links[name] = target
    return countries, links
