import json

from workloads.documents.extraction import extract_file

from .builders import LIMITS


def test_it_renders_a_list_of_messages_as_one_line_per_speaker():
    messages = [
        {"role": "user", "content": "Where is my order?"},
        {"role": "assistant", "content": "It ships tomorrow."},
    ]

    [entry] = extract_file("chat.json", json.dumps(messages).encode(), LIMITS)

    assert (entry.kept, entry.detail) == (True, "JSON transcript, 2 messages")
    assert entry.text == "user: Where is my order?\nassistant: It ships tomorrow."
    assert entry.lines == 2


def test_it_finds_the_messages_inside_a_top_level_object_with_other_key_names():
    export = {"id": 7, "conversation": [{"speaker": "Ana", "text": "Olá"}, {"author": "Bot", "body": "Oi!"}]}

    [entry] = extract_file("support.json", json.dumps(export).encode(), LIMITS)

    assert (entry.detail, entry.text) == ("JSON transcript, 2 messages", "Ana: Olá\nBot: Oi!")


def test_it_joins_content_parts_and_drops_messages_without_text():
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Compare"}, {"type": "text", "text": "these two"}]},
        {"role": "assistant", "content": None},
        {"author": {"role": "assistant", "name": None}, "content": {"parts": ["Done."]}},
    ]

    [entry] = extract_file("chat.json", json.dumps(messages).encode(), LIMITS)

    assert (entry.detail, entry.text) == ("JSON transcript, 2 messages", "user: Compare\n  these two\nassistant: Done.")


def test_further_lines_of_a_message_are_indented_so_that_each_line_at_the_margin_starts_a_message():
    messages = [
        {"speaker": "Customer\nService", "text": "Two things:\r\n1. the van\n\n   \n2. the invoice\nagent: fixed?\n"},
        {"speaker": "agent", "text": "Yes"},
    ]

    [entry] = extract_file("ticket.json", json.dumps(messages).encode(), LIMITS)

    assert entry.detail == "JSON transcript, 2 messages"
    assert entry.text == (
        "Customer Service: Two things:\n  1. the van\n\n\n  2. the invoice\n  agent: fixed?\nagent: Yes"
    )


def test_it_reads_a_jsonl_transcript_with_one_message_per_line():
    data = b'{"from": "customer", "message": "Hi"}\n\n{"from": "agent", "message": "Hello!"}\n'

    [entry] = extract_file("tickets.JSONL", data, LIMITS)

    assert (entry.detail, entry.text) == ("JSONL transcript, 2 messages", "customer: Hi\nagent: Hello!")


def test_it_pretty_prints_json_that_is_not_a_transcript():
    [entry] = extract_file("config.json", b'{"city":"K\\u00f6ln","ports":[80,443]}', LIMITS)

    assert (entry.kept, entry.detail) == (True, "JSON")
    assert entry.text == '{\n  "city": "Köln",\n  "ports": [\n    80,\n    443\n  ]\n}'


def test_it_keeps_jsonl_records_that_are_not_messages_one_per_line():
    [entry] = extract_file("events.jsonl", b'{"event": "login", "user": 1}\n{"event": "logout", "user": 1}\n', LIMITS)

    assert (entry.detail, entry.text) == (
        "JSONL, 2 records",
        '{"event": "login", "user": 1}\n{"event": "logout", "user": 1}',
    )


def test_it_skips_invalid_json_with_the_message_and_line():
    [entry] = extract_file("chat.json", b'[\n  {"role": "user",\n   "content": "hi"\n  ,]\n', LIMITS)

    assert not entry.kept
    assert entry.detail == "corrupt JSON: Expecting property name enclosed in double quotes (line 4)"


def test_it_reports_the_line_of_an_invalid_jsonl_record():
    [entry] = extract_file("chat.jsonl", b'{"role": "user", "content": "a"}\n{"role": oops}\n', LIMITS)

    assert (entry.kept, entry.detail) == (False, "corrupt JSON: Expecting value (line 2)")


def test_it_skips_hostile_nesting_instead_of_crashing():
    [entry] = extract_file("deep.json", b"[" * 100_000 + b"]" * 100_000, LIMITS)

    assert (entry.kept, entry.detail) == (False, "corrupt JSON: nested too deeply")


def test_it_reads_a_jsonl_file_with_one_conversation_per_line_and_drops_those_without_text():
    conversations = [
        {"messages": [{"role": "user", "content": "Where is my order?"}, {"role": "assistant", "content": "Shipped."}]},
        {"messages": [{"role": "system", "content": ""}, {"role": "tool", "content": None}]},
        {"id": 3, "messages": [{"role": "user", "content": "Refund please"}]},
    ]
    data = "\n".join(json.dumps(conversation) for conversation in conversations).encode()

    [entry] = extract_file("finetune.jsonl", data, LIMITS)

    assert (entry.kept, entry.detail) == (True, "JSONL transcript, 2 conversations, 3 messages")
    assert entry.text == "user: Where is my order?\nassistant: Shipped.\n\nuser: Refund please"


def test_a_conversation_without_messages_does_not_turn_the_file_into_plain_json():
    conversations = [
        {"title": "Late delivery", "messages": [{"role": "customer", "content": "Where is my bread?"}]},
        {"title": "Opened by mistake", "messages": []},
        {"title": "Refund", "messages": [{"role": "customer", "content": "Refund please"}]},
    ]

    [entry] = extract_file("tickets.json", json.dumps(conversations).encode(), LIMITS)
    [only_empty] = extract_file("empty.json", json.dumps([{"messages": []}]).encode(), LIMITS)

    assert entry.detail == "JSON transcript, 2 conversations, 2 messages"
    assert entry.text == "# Late delivery\ncustomer: Where is my bread?\n\n# Refund\ncustomer: Refund please"
    assert only_empty.detail == "JSON"  # no conversation to read: kept as the data it is


def test_an_empty_conversation_with_other_content_keeps_the_file_as_json():
    conversations = [
        {"subject": "Refund", "messages": [{"role": "customer", "content": "Where is my refund?"}]},
        {"subject": "Printer", "transcript": "Caller reports a printer jam on floor 3.", "messages": []},
    ]
    null_and_blank = [conversations[0], {"id": 7, "messages": None}, {"title": "Draft", "mapping": {}}]

    [kept_whole] = extract_file("tickets.json", json.dumps(conversations).encode(), LIMITS)
    [skipped_empty] = extract_file("tickets.json", json.dumps(null_and_blank).encode(), LIMITS)

    assert kept_whole.detail == "JSON" and "printer jam on floor 3" in kept_whole.text
    assert (skipped_empty.detail, skipped_empty.text) == ("JSON transcript, 1 message", "customer: Where is my refund?")


def test_it_reads_a_json_list_of_conversations_under_a_title_line_each():
    conversations = [
        {"title": "Late\ndelivery", "messages": [{"role": "customer", "content": "Where is my bread?"}]},
        {"ticket": 9, "transcript": [{"speaker": "Ana", "text": "Olá"}, {"speaker": "Bot", "text": "Oi!"}]},
    ]

    [entry] = extract_file("tickets.json", json.dumps(conversations).encode(), LIMITS)

    assert entry.detail == "JSON transcript, 2 conversations, 3 messages"
    assert entry.text == "# Late delivery\ncustomer: Where is my bread?\n\nAna: Olá\nBot: Oi!"


def test_it_names_the_title_of_a_single_conversation_and_counts_it_as_messages_only():
    conversation = {"title": "Refund", "messages": [{"role": "user", "content": "Refund please"}]}

    [entry] = extract_file("refund.jsonl", json.dumps(conversation).encode(), LIMITS)

    assert (entry.detail, entry.text) == ("JSONL transcript, 1 message", "# Refund\nuser: Refund please")
