"""A held-out-style workload longer than SmolLM2's 8,192 positions: two licence texts with three planted facts.

Usage: .venv/bin/python benchmarks/long_workload.py OUT_FOLDER
then:  .venv/bin/python -m engine compare --model NAME --docs OUT_FOLDER/*.txt --probes OUT_FOLDER/probes.jsonl \
           --strategies full_dense_cached,full_index_share_cached,retrieval,chunked --json benchmarks/long_workload-NAME.json

GPL-3.0 and Apache-2.0 (samples/contracts) are real text no fact comes from; one fee, one notice period and one
account manager are planted in them, near the start, the middle and the end (about 11K tokens in all). SmolLM2 must
refuse every whole-document strategy; the default Qwen2.5-Coder-0.5B (32,768 positions) runs them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "contracts"
FACTS = [  # (document, where in it, the sentence, the probe)
    ("gpl-3.0.txt", 0.1, "Under the Harbour Freight schedule, the monthly service fee is $4,817.",
     {"question": "What is the monthly service fee under the Harbour Freight schedule?", "answer": "$4,817"}),
    ("gpl-3.0.txt", 0.6, "Either party may end the Harbour Freight schedule with 75 days of written notice.",
     {"question": "How many days of written notice end the Harbour Freight schedule?", "answer": "75"}),
    ("apache-2.0.txt", 0.8, "The account manager for the Harbour Freight schedule is Priya Okafor.",
     {"question": "Who is the account manager for the Harbour Freight schedule?", "answer": "Priya Okafor"}),
]


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    texts = {name: (SAMPLES / name).read_text(encoding="utf-8") for name, *_ in FACTS}
    for name, where, sentence, _ in sorted(FACTS, key=lambda f: -f[1]):  # from the end, so earlier offsets hold
        text = texts[name]
        at = text.index("\n\n", int(len(text) * where))
        texts[name] = f"{text[:at]}\n\n{sentence}{text[at:]}"
    for name, text in texts.items():
        (out / name).write_text(text, encoding="utf-8")
    probes = [{**probe, "kind": "retrieval", "source": name} for name, _, _, probe in FACTS]
    (out / "probes.jsonl").write_text("".join(json.dumps(p) + "\n" for p in probes), encoding="utf-8")
    print(f"wrote {len(texts)} documents and {len(probes)} probes to {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
