"""JSON and JSONL chat transcripts read as one "speaker: text" line per message; other JSON is kept as JSON text."""

import json

from .datatypes import Skip, plural
from .text import normalise

SPEAKER_KEYS = ("role", "speaker", "author", "from")
CONTENT_KEYS = ("content", "text", "message", "body")
TRANSCRIPT_KEYS = ("messages", "conversation", "transcript")


def read_json(text: str) -> tuple[str, str]:
    # Parsing, rendering and pretty-printing all recurse, so hostile nesting is caught once here.
    try:
        return _read_json(text)
    except RecursionError:
        raise Skip("corrupt JSON: nested too deeply") from None


def read_jsonl(text: str) -> tuple[str, str]:
    try:
        return _read_jsonl(text)
    except RecursionError:
        raise Skip("corrupt JSON: nested too deeply") from None


def _read_json(text: str) -> tuple[str, str]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Skip(f"corrupt JSON: {exc.msg} (line {exc.lineno})") from None
    if isinstance(value, dict):
        value = next((value[key] for key in TRANSCRIPT_KEYS if _is_transcript(value.get(key))), value)
    if _is_transcript(value):
        rendered, count = _render_transcript(value)
        return rendered, f"JSON transcript, {plural(count, 'message')}"
    return normalise(json.dumps(value, indent=2, ensure_ascii=False)), "JSON"


def _read_jsonl(text: str) -> tuple[str, str]:
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise Skip(f"corrupt JSON: {exc.msg} (line {number})") from None
    if _is_transcript(records):
        rendered, count = _render_transcript(records)
        return rendered, f"JSONL transcript, {plural(count, 'message')}"
    # One compact record per line keeps JSONL's shape; ensure_ascii=False turns \u escapes back into readable text.
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    return normalise("\n".join(lines)), f"JSONL, {plural(len(records), 'record')}"


def _is_message(value) -> bool:
    return (
        isinstance(value, dict)
        and any(key in value for key in SPEAKER_KEYS)
        and any(key in value for key in CONTENT_KEYS)
    )


def _is_transcript(value) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_message(item) for item in value)


def _render_transcript(messages: list[dict]) -> tuple[str, int]:
    lines = []
    for message in messages:
        speaker = _speaker(next(message[key] for key in SPEAKER_KEYS if key in message))
        content = _content(next(message[key] for key in CONTENT_KEYS if key in message)).strip()
        # Tool calls and system stubs often carry no text; a bare "assistant:" line would only cost tokens.
        if content:
            lines.append(f"{speaker}: {content}")
    return normalise("\n".join(lines)), len(lines)


def _speaker(value) -> str:
    # Exports such as ChatGPT's use {"author": {"role": "user", "name": null}}.
    if isinstance(value, dict):
        value = value.get("name") or value.get("role")
    return str(value) if value not in (None, "") else "unknown"


def _content(value) -> str:
    # Content may be a plain string, a list of parts ([{"type": "text", "text": ...}]) or {"parts": [...]}.
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(part for part in map(_content, value) if part)
    if isinstance(value, dict):
        key = next((key for key in ("text", "content", "parts", "value") if key in value), None)
        return _content(value[key]) if key else ""
    return json.dumps(value, ensure_ascii=False)
