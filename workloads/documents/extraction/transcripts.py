"""JSON and JSONL chat transcripts read as one "speaker: text" line per message; other JSON is kept as JSON text.

A file may hold one conversation (a list of messages, one message per JSONL line, or an object with the list under
a transcript key) or several (a JSON list of such objects, or one per JSONL line, as in OpenAI's fine-tuning files).
ChatGPT's export (conversations.json) is a list of conversations whose messages are the nodes of a tree: see
_chatgpt_messages.
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
    # Every item must be a conversation: a list that only starts like one is data, and is kept whole as JSON. A
    # conversation with no messages yet (a ticket opened and closed unanswered) is one too, with nothing to read.
    if (isinstance(value, list) and any(_is_conversation(item) for item in value)
            and all(_is_conversation(item) or _is_empty_conversation(item) for item in value)):
        return [_conversation(item) for item in value if _is_conversation(item)]
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
    return isinstance(value, dict) and (_transcript(value) is not None or _is_chatgpt_conversation(value))


def _is_empty_conversation(value) -> bool:
    """A conversation with nothing said: its messages [] or null (its mapping {} in ChatGPT's export), beside
    nothing but one-line metadata (an id, a title, a date). Anything more, say a "transcript" string beside empty
    "messages", is content that skipping the conversation would lose, so the file is then kept as JSON."""
    if not isinstance(value, dict):
        return False
    empty = [key for key in (*TRANSCRIPT_KEYS, "mapping") if key in value and value[key] in ([], {}, None)]
    rest = {key: item for key, item in value.items() if key not in empty}
    return (bool(empty) and not any(key in (*TRANSCRIPT_KEYS, *CONTENT_KEYS) for key in rest)
            and all(_is_metadata(item) for item in rest.values()))


def _is_metadata(value) -> bool:
    return value is None or isinstance(value, bool | int | float) or (
        isinstance(value, str) and len(value) <= 200 and "\n" not in value)


def _is_chatgpt_conversation(value: dict) -> bool:
    """{"title": ..., "mapping": {id: {"message": {...} or null, "parent": id, "children": [id, ...]}}, ...}"""
    mapping = value.get("mapping")
    return (
        isinstance(mapping, dict)
        and bool(mapping)
        and all(_is_chatgpt_node(node) for node in mapping.values())
        and _root(mapping) is not None
    )


def _is_chatgpt_node(value) -> bool:
    return isinstance(value, dict) and "message" in value and isinstance(value["message"], dict | None)


def _transcript(conversation: dict) -> list | None:
    return next((conversation[key] for key in TRANSCRIPT_KEYS if _is_transcript(conversation.get(key))), None)


def _conversation(value: dict) -> Conversation:
    transcript = _transcript(value)
    messages = _messages(transcript) if transcript is not None else _chatgpt_messages(value)
    return Conversation(_title(value.get("title")), messages)


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


def _chatgpt_messages(conversation: dict) -> list[tuple[str, str]]:
    """The messages from the root down, in the order they were written.

    Editing a message or regenerating an answer forks the tree: a node then has several children. The branch the
    user last saw leads to "current_node"; without one, the last child is the latest version. Links are followed
    only to nodes not yet visited, so a cycle in a hostile file ends the walk instead of looping.
    """
    mapping = conversation["mapping"]
    current_branch = _ancestors(mapping, _node_id(conversation.get("current_node"), mapping))
    messages = []
    node_id = _root(mapping)
    visited = set()
    while node_id is not None and node_id not in visited:
        visited.add(node_id)
        node = mapping[node_id]
        message = node["message"]
        if message is not None:
            messages.append((_speaker(message.get("author")), _chatgpt_text(message.get("content"))))
        children = node.get("children")
        children = [child for child in children if _node_id(child, mapping)] if isinstance(children, list) else []
        node_id = next((child for child in children if child in current_branch), children[-1] if children else None)
    return messages


def _root(mapping: dict) -> str | None:
    # A mapping where every node has a parent in it is all cycle, with no first message to start from.
    return next((node_id for node_id, node in mapping.items() if _node_id(node.get("parent"), mapping) is None), None)


def _ancestors(mapping: dict, node_id: str | None) -> set[str]:
    """node_id and the nodes above it, up to the root or to the first node seen twice."""
    ancestors = set()
    while node_id is not None and node_id not in ancestors:
        ancestors.add(node_id)
        node_id = _node_id(mapping[node_id].get("parent"), mapping)
    return ancestors


def _node_id(value, mapping: dict) -> str | None:
    # Ids are JSON object keys, so strings; anything else (a list would not even hash) links to nothing.
    return value if isinstance(value, str) and value in mapping else None


def _chatgpt_text(content) -> str:
    # Text parts are strings; images, audio and files are objects among them. Code, its output, browsing results and
    # reasoning come as other content types, without parts: tool traffic, not what was said.
    parts = content.get("parts") if isinstance(content, dict) else None
    return "\n".join(part for part in parts if isinstance(part, str)) if isinstance(parts, list) else ""


def _render(conversations: list[Conversation], kind: str) -> tuple[str, str]:
    """The conversations' text, each after a blank line and its title, and the detail saying how much was read."""
    blocks = []
    count = 0
    for title, messages in conversations:
        # Tool calls and system stubs often carry no text; a bare "assistant:" line would only cost tokens.
        lines = [_message(speaker, content) for speaker, content in messages if content.strip()]
        if not lines:
            continue
        count += len(lines)
        # A Markdown heading reads as a title to people and language models alike, and cannot pass for a message.
        blocks.append("\n".join([f"# {title}", *lines] if title else lines))
    conversations_read = [plural(len(blocks), "conversation")] if len(blocks) > 1 else []
    return normalise("\n\n".join(blocks)), ", ".join([kind, *conversations_read, plural(count, "message")])


def _message(speaker: str, content: str) -> str:
    """The message as "speaker: text", with the text's further lines indented by two spaces.

    Every line at the margin then starts a message (or titles a conversation), so a person skimming and a language
    model reading tell the turns apart at a glance, and a message that quotes "agent: ..." on a line of its own
    cannot pass for a turn. Two spaces a line cost little next to repeating the speaker on each line. Blank lines
    inside a message stay empty rather than carry trailing spaces; the indented line after one shows it goes on.
    """
    first, *rest = content.strip().splitlines()
    return "\n".join([f"{speaker}: {first}", *(f"  {line}" if line.strip() else "" for line in rest)])


def _speaker(value) -> str:
    # Exports such as ChatGPT's use {"author": {"role": "user", "name": null}}.
    if isinstance(value, dict):
        value = value.get("name") or value.get("role")
    # A speaker is the start of a line: line breaks inside a name would pass for messages.
    speaker = " ".join(str(value).split()) if value is not None else ""
    return speaker or "unknown"


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
