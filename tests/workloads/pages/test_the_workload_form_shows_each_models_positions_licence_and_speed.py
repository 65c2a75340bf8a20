"""The workload form's model choice shows each model's positions, licence and the speed measured on this device at
provision time (speed.json beside its weights), and offers the 32K-position Qwen2.5-Coder-0.5B first, as the
default for a new workload."""

import re

from django.urls import reverse

from engine.core.catalogue import QWEN_05B, SMOLLM2, model_dir
from engine.core.stored_speed import stored_speed


def test_each_model_option_says_its_positions_licence_and_measured_speed(alice_client, alice):
    page = alice_client.get(reverse("workload_create")).content.decode()
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', page)
    models = [(value, label) for value, label in options if value in (QWEN_05B.display_name, SMOLLM2.display_name)]
    assert [value for value, _ in models] == [QWEN_05B.display_name, SMOLLM2.display_name]  # the default first
    for (value, label), model, positions in zip(models, (QWEN_05B, SMOLLM2), ("32,768", "8,192"), strict=True):
        speed = stored_speed(model_dir(model))
        assert speed is not None, f"{value} was provisioned without its speed: run `make model`"
        assert f"{positions} positions, Apache-2.0, reads {speed['prefill_tokens_per_second']:,.0f} tokens/s" in label
        assert f"measured {speed['measured_on']}" in label and speed["device"] in label


def test_a_new_workload_targets_qwen_unless_smollm2_is_chosen(alice_client, alice):
    page = alice_client.get(reverse("workload_create")).content.decode()
    first = re.search(r'<select name="target_model"[^>]*>\s*<option value="([^"]+)"', page)
    assert first and first.group(1) == QWEN_05B.display_name
