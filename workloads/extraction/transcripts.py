"""JSON and JSONL chat transcripts read as one "speaker: text" line per message; other JSON is kept as JSON text.

A file may hold one conversation (a list of messages, one message per JSONL line, or an object with the list under
a transcript key) or several (a JSON list of such objects, or one per JSONL line, as in OpenAI's fine-tuning files).
"""

import json
from typing import NamedTuple

from .datatypes import Skip, plural
from .text import normalise

SPEAKER_KEYS = ("role", "speaker", "author", "from")
CONTENT_KEYS = ("content", "text", "message", "body")
TRANSCRIPT_KEYS = ("messages", "conversation", "transcript")


class Conversation(NamedTuple):
    title: str  # "" when it has none
    messages: list[tuple[str, str]]  # (speaker, content), content possibly empty


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
    conversations = _conversations(value)
    if conversations is None:
        return normalise(json.dumps(value, indent=2, ensure_ascii=False)), "JSON"
    return _render(conversations, "JSON transcript")


def _read_jsonl(text: str) -> tuple[str, str]:
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise Skip(f"corrupt JSON: {exc.msg} (line {number})") from None
    conversations = _conversations(records)
    if conversations is None:
        # One compact record per line keeps JSONL's shape; ensure_ascii=False turns \u escapes back into readable text.
        lines = [json.dumps(record, ensure_ascii=False) for record in records]
        return normalise("\n".join(lines)), f"JSONL, {plural(len(records), 'record')}"
    return _render(conversations, "JSONL transcript")


def _conversations(value) -> list[Conversation] | None:
    """The conversations a parsed file holds, in order; None where it is not laid out as a transcript."""
    if _is_transcript(value):
        return [Conversation("", _messages(value))]
    if isinstance(value, dict):
        value = [value]
    # Every item must be a conversation: a list that only starts like one is data, and is kept whole as JSON.
    if isinstance(value, list) and value and all(_is_conversation(item) for item in value):
        return [_conversation(item) for item in value]
    return None


def _is_message(value) -> bool:
    return (
        isinstance(value, dict)
        and any(key in value for key in SPEAKER_KEYS)
        and any(key in value for key in CONTENT_KEYS)
    )


def _is_transcript(value) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_message(item) for item in value)


def _is_conversation(value) -> bool:
    return isinstance(value, dict) and _transcript(value) is not None


def _transcript(conversation: dict) -> list | None:
    return next((conversation[key] for key in TRANSCRIPT_KEYS if _is_transcript(conversation.get(key))), None)


def _conversation(value: dict) -> Conversation:
    return Conversation(_title(value.get("title")), _messages(_transcript(value)))


def _title(value) -> str:
    # A title is one line of the rendering: line breaks inside it would pass for messages.
    return " ".join(value.split()) if isinstance(value, str) else ""


def _messages(messages: list[dict]) -> list[tuple[str, str]]:
    return [
        (
            _speaker(next(message[key] for key in SPEAKER_KEYS if key in message)),
            _content(next(message[key] for key in CONTENT_KEYS if key in message)),
        )
        for message in messages
    ]


def _render(conversations: list[Conversation], kind: str) -> tuple[str, str]:
    """The conversations' text, each after a blank line and its title, and the detail saying how much was read."""
    blocks = []
    count = 0
    for title, messages in conversations:
        # Tool calls and system stubs often carry no text; a bare "assistant:" line would only cost tokens.
        lines = [f"{speaker}: {content.strip()}" for speaker, content in messages if content.strip()]
        if not lines:
            continue
        count += len(lines)
        # A Markdown heading reads as a title to people and language models alike, and cannot pass for a message.
        blocks.append("\n".join([f"# {title}", *lines] if title else lines))
    conversations_read = [plural(len(blocks), "conversation")] if len(blocks) > 1 else []
    return normalise("\n\n".join(blocks)), ", ".join([kind, *conversations_read, plural(count, "message")])


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
