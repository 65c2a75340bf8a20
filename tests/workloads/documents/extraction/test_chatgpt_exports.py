"""ChatGPT's data export, conversations.json: each conversation's messages are the nodes of a tree under "mapping"."""

import json

from workloads.documents.extraction import extract_file

from .builders import LIMITS


def _node(parent, children, role=None, *parts, content_type="text") -> dict:
    """A mapping node; without a role, the empty root node every conversation starts with."""
    message = None
    if role:
        message = {"author": {"role": role, "name": None}, "content": {"content_type": content_type, "parts": parts}}
    return {"message": message, "parent": parent, "children": children}


def _export(*conversations: dict) -> bytes:
    return json.dumps(list(conversations)).encode()


def test_it_reads_each_conversation_from_its_root_under_its_title():
    # Listed leaf first: the order comes from the parent and children links, not from the mapping.
    delivery = {"title": "Delivery question", "mapping": {
        "answer": _node("question", [], "assistant", "Tomorrow at 6am."),
        "picture": _node("system", ["question"], "user", {"content_type": "image_asset_pointer"}),
        "question": _node("picture", ["answer"], "user", "When is the delivery?", {"content_type": "audio"}),
        "system": _node("root", ["picture"], "system", ""),
        "root": _node(None, ["system"]),
    }}
    code = {"title": "Prices", "mapping": {
        "root": _node(None, ["ask"]),
        "ask": _node("root", ["run"], "user", "Sum these", "and round"),
        "run": {"message": {"author": {"role": "tool", "name": "python"},
                            "content": {"content_type": "execution_output", "text": "12.5"}},
                "parent": "ask", "children": ["reply"]},
        "reply": _node("run", [], "assistant", "12.50"),
    }}

    [entry] = extract_file("conversations.json", _export(delivery, code), LIMITS)

    assert (entry.kept, entry.detail) == (True, "JSON transcript, 2 conversations, 4 messages")
    assert entry.text == (
        "# Delivery question\nuser: When is the delivery?\nassistant: Tomorrow at 6am.\n\n"
        "# Prices\nuser: Sum these\n  and round\nassistant: 12.50"
    )


def test_it_follows_the_branch_that_leads_to_the_current_node_or_else_the_latest_edit():
    mapping = {
        "root": _node(None, ["ask"]),
        "ask": _node("root", ["first", "second", "third"], "user", "Name a bread"),
        "first": _node("ask", [], "assistant", "Rye"),
        "second": _node("ask", ["thanks"], "assistant", "Spelt"),
        "thanks": _node("second", [], "user", "Thanks"),
        "third": _node("ask", [], "assistant", "Sourdough"),
    }

    [current, latest] = [
        extract_file("conversations.json", _export(conversation), LIMITS)[0]
        for conversation in ({"mapping": mapping, "current_node": "thanks"}, {"mapping": mapping})
    ]

    assert current.text == "user: Name a bread\nassistant: Spelt\nuser: Thanks"
    assert latest.text == "user: Name a bread\nassistant: Sourdough"


def test_cycles_in_the_links_end_the_walk_and_a_mapping_that_is_all_cycle_is_kept_as_json():
    looped = {"current_node": "b", "mapping": {
        "a": _node(None, ["b"], "user", "Hi"),
        "b": _node("c", ["a"], "assistant", "Hello"),
        "c": _node("b", ["a"], "user", "Never reached"),
    }}
    rootless = {"mapping": {"a": _node("b", ["b"], "user", "Hi"), "b": _node("a", ["a"], "assistant", "Hello")}}

    [entry] = extract_file("conversations.json", _export(looped), LIMITS)
    [kept_whole] = extract_file("conversations.json", _export(rootless), LIMITS)

    assert (entry.detail, entry.text) == ("JSON transcript, 2 messages", "user: Hi\nassistant: Hello")
    assert (kept_whole.kept, kept_whole.detail) == (True, "JSON")
    assert kept_whole.text == json.dumps([rootless], indent=2)


def test_links_and_fields_of_the_wrong_type_read_as_missing():
    mapping = {
        "a": {"message": {"author": 5, "content": {"parts": ["Hi"]}}, "parent": ["x"], "children": ["b", {}]},
        "b": {"message": {"author": None, "content": {"parts": "not a list"}}, "parent": "a", "children": ["c"]},
        "c": {"message": {"content": ["Hello"]}, "parent": "b", "children": "d"},
        "d": _node("c", [], "user", "Never reached"),
    }

    [entry] = extract_file("conversations.json", _export({"title": 7, "mapping": mapping}), LIMITS)

    assert (entry.detail, entry.text) == ("JSON transcript, 1 message", "5: Hi")


def test_a_conversation_longer_than_the_recursion_limit_is_read_in_full():
    count = 3000
    mapping = {str(n): _node(str(n - 1) if n else None, [str(n + 1)], "user", f"m{n}") for n in range(count)}

    [entry] = extract_file("conversations.json", _export({"mapping": mapping}), LIMITS)

    assert entry.detail == f"JSON transcript, {count} messages"
    assert entry.text.splitlines()[-1] == f"user: m{count - 1}"
