"""The region preference for legacy encodings (issue 40, item 6) judged on text the project did not write: Django's
own translations, in the legacy encodings of encoding_corpus.py, decoded before issue 40 and now.

Usage: .venv/bin/python benchmarks/encoding_heldout.py [--json benchmarks/encoding_heldout.json]

The thresholds of text.decode_text's preference (_CLOSE_CHAOS, _CLOSE_COHERENCE) were chosen on encoding_corpus.py,
whose texts were written for it; these are not. For each language, the msgstr lines of the installed Django's .po
files (django/conf/locale/<code>/ and every contrib app's, in path order; translated entries only, not fuzzy ones,
the singular of a plural) give documents of 1, 5 and 20 consecutive translations of one file, a line each: of all
such windows holding a non-ASCII character (an ASCII one reads right in every encoding), DOCUMENTS evenly spaced
ones. No randomness: the same Django gives the same corpus. Each document is encoded in its language's encodings in
encoding_corpus.ENCODINGS (Ukrainian, which that corpus lacks: cp1251 and KOI8-U, its region's) and UTF-8, and
skipped in an encoding that cannot represent it (typographic quotes in Latin-9 or KOI8-R). Each case is decoded as
encoding_corpus.measure decodes its own: before (commit 6521bd4's decode_text, loaded from git), with no region, for
a UTC organisation, in the language's own region and in each other region. Right means exactly the text given back.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import subprocess
import sys
import types
from collections import Counter
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks.encoding_corpus import ENCODINGS, REGION_TIME_ZONES, Case, cases, measure  # noqa: E402

BEFORE = "6521bd4"  # the last commit before issue 40's region preference
LANGUAGES = {
    "French": "fr", "German": "de", "Spanish": "es", "Portuguese": "pt", "Italian": "it", "Swedish": "sv",
    "Polish": "pl", "Czech": "cs", "Lithuanian": "lt", "Turkish": "tr", "Greek": "el", "Russian": "ru",
    "Ukrainian": "uk", "Japanese": "ja", "Chinese": "zh_Hans",
}  # English is left out: Django's English catalogues are its msgids, untranslated
HELD_OUT_ENCODINGS = {**ENCODINGS, "Ukrainian": ("cp1251", "koi8_u", "utf-8")}
TIME_ZONES = {**REGION_TIME_ZONES, "Ukrainian": "Europe/Kyiv"}
LENGTHS = (1, 5, 20)  # translations a document holds
DOCUMENTS = 4  # of each length, per language
# Closeness margins tried beside text.py's (0.01, 0.05): none, charset-normalizer's own tie, twice as wide.
MARGINS = ((0.0, 0.0), (0.005, 0.02), (0.01, 0.05), (0.02, 0.1))


def _django() -> Path:
    import django

    return Path(django.__file__).parent


def po_files(code: str) -> list[Path]:
    base = _django()
    return sorted([*base.glob(f"conf/locale/{code}/LC_MESSAGES/*.po"),
                   *base.glob(f"contrib/*/locale/{code}/LC_MESSAGES/*.po")])


def translations(path: Path) -> list[str]:
    """The translated msgstrs of a .po file in file order: not the header, not an empty or fuzzy one; for a plural,
    its first form. Read with the stdlib: polib is not a dependency."""
    found = []
    entry: dict[str, list[str]] = {}
    field = None
    fuzzy = False

    def close():
        text = "".join(entry.get("msgstr", []))
        if "".join(entry.get("msgid", [])) and text and not fuzzy:
            found.append(text)

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            field = "msgid"
            entry[field] = [ast.literal_eval(line[len("msgid "):])]
        elif line.startswith(("msgstr ", "msgstr[0] ")):
            field = "msgstr"
            entry[field] = [ast.literal_eval(line.split(" ", 1)[1])]
        elif line.startswith('"') and field is not None:
            entry[field].append(ast.literal_eval(line))
        elif not line:  # an entry ends at a blank line; its flags were before its msgid
            close()
            entry, field, fuzzy = {}, None, False
        else:  # msgid_plural, msgctxt, msgstr[1...], comments
            field = None
    close()
    return found


def documents(code: str) -> list[tuple[str, str]]:
    """(where, text) for DOCUMENTS documents of each length in LENGTHS, from the language's Django catalogues; where
    is the file and its translations' numbers ("conf/locale/cs/LC_MESSAGES/django.po#90-109")."""
    chosen = []
    for length in LENGTHS:
        windows = []
        for path in po_files(code):
            lines = translations(path)
            for start in range(len(lines) - length + 1):
                text = "\n".join(lines[start:start + length]) + "\n"
                if not text.isascii():
                    windows.append((f"{path.relative_to(_django())}#{start + 1}-{start + length}", text))
        chosen += [windows[int((k + 0.5) * len(windows) / DOCUMENTS)] for k in range(DOCUMENTS)]
    return chosen


def corpus() -> list[tuple[str, Case]]:
    """(where, case): every document in every encoding of its language that can represent it."""
    found = []
    for language, code in LANGUAGES.items():
        for where, text in documents(code):
            for encoding in HELD_OUT_ENCODINGS[language]:
                try:
                    text.encode(encoding)
                except UnicodeEncodeError:
                    continue
                found.append((where, Case(language, encoding, text)))
    return found


def decoder_at(commit: str):
    """decode_text as it was at `commit`: its text.py, read from git, run as a module of today's extraction package
    (it imports only Skip from there)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:workloads/documents/extraction/text.py"],
                            capture_output=True, text=True, check=True).stdout
    importlib.import_module("workloads.documents.extraction")
    name = f"workloads.documents.extraction.text_at_{commit}"
    module = types.ModuleType(name)
    module.__package__ = "workloads.documents.extraction"
    sys.modules[name] = module  # dataclasses look their class's module up
    exec(compile(source, f"{commit}:workloads/documents/extraction/text.py", "exec"), module.__dict__)
    return module.decode_text


def totals(rows: list[dict]) -> dict:
    """Right before, with no region, for a UTC organisation and in the own region; and, over the decodings in every
    other region, how many are right and how many were right before and are wrong now."""
    return {"cases": len(rows),
            **{f"right_{column}": sum(r[f"right_{column}"] for r in rows)
               for column in ("before", "no_preference", "utc", "own_region")},
            "right_in_other_regions": sum(r["right_in_other_regions"] for r in rows),
            "other_region_decodings": sum(r["other_regions"] for r in rows),
            "right_before_wrong_in_other_regions": sum(len(r["wrong_in_other_regions"]) for r in rows
                                                       if r["right_before"])}


@contextmanager
def margins(chaos: float, coherence: float):
    """decode_text with other closeness margins for the region's readings, to see how the figures hang on them."""
    from workloads.documents.extraction import text

    kept = text._CLOSE_CHAOS, text._CLOSE_COHERENCE
    text._CLOSE_CHAOS, text._CLOSE_COHERENCE = chaos, coherence
    try:
        yield
    finally:
        text._CLOSE_CHAOS, text._CLOSE_COHERENCE = kept


def sensitivity(corpora: dict[str, tuple[list[Case], dict[str, str]]]) -> list[dict]:
    """The legacy cases of each corpus right for a UTC organisation, in the own region and in the other regions,
    at each of MARGINS (no retuning: the margins in text.py stay as they are)."""
    found = []
    for chaos, coherence in MARGINS:
        for name, (corpus_cases, time_zones) in corpora.items():
            with margins(chaos, coherence):
                rows = measure([c for c in corpus_cases if c.encoding != "utf-8"], time_zones)
            found.append({"chaos": chaos, "coherence": coherence, "corpus": name, "cases": len(rows),
                          **{key: sum(r[key] for r in rows) for key in ("right_utc", "right_own_region",
                                                                         "right_in_other_regions", "other_regions")}})
    return found


def _length(where: str) -> int:
    start, end = where.rsplit("#", 1)[1].split("-")
    return int(end) - int(start) + 1


def _row(label: str, t: dict) -> str:
    return (f"| {label} | {t['cases']} | {t['right_before']} | {t['right_utc']} | {t['right_own_region']} | "
            f"{t['right_in_other_regions']} of {t['other_region_decodings']} | "
            f"{t['right_before_wrong_in_other_regions']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    before = decoder_at(BEFORE)
    found = corpus()
    rows = measure([case for _, case in found], TIME_ZONES, before=before)
    for (where, _), row in zip(found, rows):
        row["document"] = where
    legacy = [r for r in rows if r["encoding"] != "utf-8"]
    written = [r for r in measure(before=before) if r["encoding"] != "utf-8"]
    groups = {"held out, all": rows, "held out, legacy encodings": legacy,
              **{f"held out, legacy, {length}-line documents": [r for r in legacy if _length(r["document"]) == length]
                 for length in LENGTHS},
              "encoding_corpus.py (written for the rule), legacy encodings": written}
    header = ("| {} | cases | right before | after, UTC organisation | after, own region | right in the other "
              "regions | right before, wrong in another region |\n|---|---:|---:|---:|---:|---:|---:|")
    print(header.format("cases"))
    for label, group in groups.items():
        print(_row(label, totals(group)))
    print("\n" + header.format("language, encoding (held out)"))
    by_case = {}
    for r in legacy:
        by_case.setdefault(f"{r['language']} {r['encoding']}", []).append(r)
    for label, group in by_case.items():
        print(_row(label, totals(group)))
    worse = [r for r in rows if r["right_before"] and not (r["right_utc"] and r["right_own_region"])]
    print(f"\nheld out, right before and wrong now for a UTC organisation or in the own region: {len(worse)}")
    for r in worse:
        print(f"  {r['language']} {r['encoding']} {r['document']}: before {r['named_before']}, UTC {r['named_utc']}"
              f" ({'right' if r['right_utc'] else 'wrong'}), own {r['named_own_region']}"
              f" ({'right' if r['right_own_region'] else 'wrong'})")
    lost = Counter((r["language"], zone) for r in rows if r["right_before"] for zone in r["wrong_in_other_regions"])
    print("held out, right before and wrong now in another region, by language and organisation's time zone:")
    print("  " + ", ".join(f"{language} in {zone}: {n}" for (language, zone), n in lost.most_common()))
    margin_rows = sensitivity({"held out": ([case for _, case in found], TIME_ZONES),
                               "encoding_corpus.py": (cases(), REGION_TIME_ZONES)})
    print("\n| margins (chaos, coherence) | corpus | legacy cases | UTC organisation | own region | other regions |")
    print("|---|---|---:|---:|---:|---:|")
    for m in margin_rows:
        print(f"| {m['chaos']}, {m['coherence']} | {m['corpus']} | {m['cases']} | {m['right_utc']} | "
              f"{m['right_own_region']} | {m['right_in_other_regions']} of {m['other_regions']} |")
    if args.json:
        import charset_normalizer
        import django

        summary = {"benchmark": "encoding_heldout", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   "before": f"decode_text of commit {BEFORE}", "django": django.__version__,
                   "charset_normalizer": charset_normalizer.__version__,
                   "by_group": {label: totals(group) for label, group in groups.items()},
                   "by_language_and_encoding": {label: totals(group) for label, group in by_case.items()},
                   "right_before_wrong_in_another_region": {f"{language} in {zone}": n
                                                            for (language, zone), n in lost.most_common()},
                   "margins": margin_rows, "rows": rows}
        args.json.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "costplanner.settings")
    main()
