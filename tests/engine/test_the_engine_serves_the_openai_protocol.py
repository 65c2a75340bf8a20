"""`python -m engine serve` answers the OpenAI protocol for real (issue 38's test server): a server process on
127.0.0.1 with the test model, asked through the maintained `openai` client. Its answer is the engine's own greedy
answer to the same prompt, its usage counts the tokens the chat template made, and its refusals come back as the
client's typed errors; the key it requires is never echoed."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import openai
import pytest

from engine.core import run_settings
from engine.model.generate import generate

pytestmark = pytest.mark.model

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-test-never-echoed-0042"
MESSAGES = [{"role": "system", "content": "You answer in a few words, quoting the text."},
            {"role": "user", "content": "The monthly service fee is $4,500.\n\nQuestion: What is the monthly fee?"}]


@pytest.fixture(scope="module")
def server():
    """The server process, its base URL, and what it logged."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "serve", "--port", "0"], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "ENGINE_SERVE_API_KEY": KEY})
    first = process.stdout.readline()
    assert "serving" in first, first
    url = first.split(" on ", 1)[1].split(",")[0].strip()
    yield url
    process.terminate()
    logged = first + process.communicate(timeout=30)[0]
    assert KEY not in logged


@pytest.fixture(scope="module")
def client(server):
    return openai.OpenAI(base_url=server, api_key=KEY, max_retries=0, timeout=120)


def test_it_answers_as_the_engine_does_and_counts_the_tokens_it_read(client, smollm2):
    (model,) = client.models.list().data
    assert model.id == smollm2.name

    reply = client.chat.completions.create(model=model.id, messages=MESSAGES, max_tokens=16)

    made = smollm2.tokenizer.apply_chat_template(MESSAGES, add_generation_prompt=True, tokenize=True)
    ids = list(made if isinstance(made, list) else made["input_ids"])
    local = generate(smollm2, ids, run_settings.attention({}), 16)
    assert reply.choices[0].message.content == local.text and "4,500" in local.text
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (len(ids), local.new_tokens)
    assert reply.usage.total_tokens == len(ids) + local.new_tokens
    assert reply.usage.prompt_tokens_details.cached_tokens == 0
    assert reply.choices[0].finish_reason == "stop"


def test_a_wrong_key_is_refused_without_being_echoed(server):
    wrong = openai.OpenAI(base_url=server, api_key="sk-wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as refused:
        wrong.models.list()
    assert refused.value.status_code == 401 and "sk-wrong" not in str(refused.value) and KEY not in str(refused.value)


def test_a_request_past_the_models_positions_is_a_context_length_error(client, smollm2):
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=smollm2.name, messages=MESSAGES, max_tokens=smollm2.max_positions)
    assert refused.value.code == "context_length_exceeded"
    assert f"maximum context length is {smollm2.max_positions} tokens" in str(refused.value)


def test_an_unknown_model_and_bad_messages_are_refused(client):
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="gpt-imaginary", messages=MESSAGES)
    with pytest.raises(openai.BadRequestError, match="role"):
        client.chat.completions.create(model="smollm2-135m-instruct", messages=[{"role": "wizard", "content": "x"}])


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b"\xff\xfe"])
def test_a_malformed_body_gets_a_json_error(server, body):
    request = urllib.request.Request(f"{server}/chat/completions", data=body, method="POST",
                                     headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["error"]["code"] == "invalid_json"
