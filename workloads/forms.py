"""Forms for the pages: every user-facing input is validated here, before a view acts on it."""

from __future__ import annotations

import functools
import json

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from engine.core import run_settings
from engine.core.probes import DEFAULT_LIMIT as PROBES_TO_GENERATE
from workloads import rules
from workloads.comparisons import model_choices, pricing, starting
from workloads.models import ApiPrice, Endpoint, GpuPrice, Organisation, Probe, Role, Workload, endpoints, periods
from engine.core.run_settings import STRATEGIES
from workloads.models.organisations import (ENDPOINT_MONTH_CAP_HELP, ENDPOINT_RUN_CAP_HELP, MAX_RECIPIENTS,
                                            ROLE_DUTIES, TIME_ZONES, parse_recipients, validate_recipients,
                                            validate_timezone)


def _one_line(value: str) -> None:
    # The API refuses the same (workloads.rules), so either can save what the other created.
    if not rules.is_one_line(value):
        raise forms.ValidationError(rules.ONE_LINE.capitalize() + ".")


def _no_invisible(value: str) -> None:
    # Two names that differ by an invisible character look the same on every page, a price's device or
    # provider with one never matches what it looks like, and a probe's answer with one never matches the
    # model's (scoring reads it as a space); the API refuses them too (schemas.Key, schemas.ProbeIn).
    if found := rules.invisible_character(value):
        raise forms.ValidationError(f"{rules.INVISIBLE.capitalize()} ({found}).")


class WorkloadForm(forms.ModelForm):
    # Limits and rules from workloads.rules, shared with the API's WorkloadIn.
    name = forms.CharField(max_length=rules.NAME_MAX, validators=[_one_line, _no_invisible])
    target_model = forms.ChoiceField(choices=(), help_text="the model every comparison of this workload runs")
    description = forms.CharField(required=False, max_length=rules.DESCRIPTION_MAX,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    expected_volume = forms.IntegerField(min_value=0, max_value=rules.EXPECTED_VOLUME_MAX, initial=0,
                                         help_text="units of work per month: contracts, tickets or thousand lines")
    # One select for the (provider, model) pair, its value the pair as a JSON array: names may hold any visible
    # character, so no separator could split them. A CharField, not a ChoiceField, so that a pair the price book
    # lacks (deleted since the page was drawn) gets the error that lists what it has.
    api = forms.CharField(required=False, label="API model", widget=forms.Select)

    class Meta:
        model = Workload
        fields = ["name", "kind", "description", "expected_volume", "target_model"]

    def __init__(self, *args, organisation: Organisation, **kwargs):
        super().__init__(*args, **kwargs)
        self.organisation = self.instance.organisation = organisation
        # Each model's positions, licence and speed measured on this device, so the choice is made knowing what fits.
        self.fields["target_model"].choices = [(c.name, c.summary) for c in model_choices.choices()]
        self.current_api = (self.instance.api_provider, self.instance.api_model)
        self.initial.setdefault("api", _api_value(*self.current_api) if any(self.current_api) else "")
        self.fields["api"].widget.choices = self._api_choices()
        self.fields["api"].help_text = format_html(
            "the API model this workload would otherwise buy, compared with the local model; add one to "
            '<a href="{}#api-prices">the price book</a> to choose it here', reverse("price_book"))

    def _api_choices(self) -> list[tuple[str, str]]:
        today = periods.today(self.instance)
        choices = [("", "None: no API comparison")]
        for entry in pricing.api_models(self.organisation, today):
            later = f", {entry.since}" if entry.effective_from > today else ""
            choices.append((_api_value(entry.provider, entry.model),
                            f"{entry.provider} {entry.model} — {entry.rates}{later}"))
        # A workload keeps a choice whose entries were deleted until it picks another: the select must not drop it.
        if any(self.current_api) and _api_value(*self.current_api) not in dict(choices):
            choices.append((_api_value(*self.current_api), f"{' '.join(self.current_api)} — not in the price book"))
        return choices

    def clean_api(self) -> tuple[str, str]:
        value = self.cleaned_data["api"]
        try:
            pair = json.loads(value) if value else ["", ""]
        except ValueError:
            pair = None
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(name, str) and rules.is_one_line(name) for name in pair)):
            raise forms.ValidationError("Choose an API model from the list.")
        provider, model = pair
        unchanged = self.instance.pk is not None and (provider, model) == self.current_api
        if not unchanged and (error := pricing.api_choice_error(self.organisation, provider, model)):
            raise forms.ValidationError(f"{error[0].upper()}{error[1:]}: choose one of those, or add it to the "
                                        "price book first.")
        return provider, model

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        # The database's unique constraint includes the organisation, which is not a form field,
        # so the form checks it itself: a duplicate is a form error, not an IntegrityError. A name left as it was
        # passes: workloads named before names were folded ("Sample contracts", "Sample  contracts") stay editable.
        unchanged = self.instance.pk is not None and name == self.instance.name
        if not unchanged and (other := rules.workload_named_alike(self.organisation, name, self.instance)):
            message = rules.name_taken(other)
            raise forms.ValidationError(f"{message[0].upper()}{message[1:]}.")
        return name

    def clean_kind(self) -> str:
        kind = self.cleaned_data["kind"]
        # The kind sets the unit of work its runs are priced per: changing it would relabel their figures
        # ("7 documents" would read "7 contracts") and compare a cost per document with one per contract.
        if self.instance.pk and kind != self.instance.kind and self.instance.runs.exists():
            raise forms.ValidationError(f"Its comparisons are measured per {self.instance.unit}, so the kind cannot "
                                        "change: create a new workload for the other kind.")
        return kind

    def save(self, commit: bool = True) -> Workload:
        self.instance.api_provider, self.instance.api_model = self.cleaned_data["api"]
        return super().save(commit)


def _api_value(provider: str, model: str) -> str:
    return json.dumps([provider, model])


class ProbeForm(forms.ModelForm):
    # Limits and rules from workloads.rules, shared with the API's ProbeIn.
    question = forms.CharField(max_length=rules.QUESTION_MAX, validators=[_no_invisible],
                               widget=forms.Textarea(attrs={"rows": 2}))
    answer = forms.CharField(max_length=rules.ANSWER_MAX, validators=[_one_line, _no_invisible],
                             help_text="a short answer, on one line, as it appears in the documents")

    # Left out, as older forms and scripts leave it, the kind is not chosen ("user").
    kind = forms.ChoiceField(choices=Probe.Kind.choices, required=False, initial=Probe.Kind.USER,
                             help_text="how the documents answer it: the pages and the PDF give each strategy's "
                                       "accuracy per kind")

    class Meta:
        model = Probe
        fields = ["question", "answer", "kind"]

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or Probe.Kind.USER

    def clean(self):
        data = super().clean()
        if not rules.answer_fits_kind(data.get("kind", ""), data.get("answer", "")):
            self.add_error("answer", f"{rules.ABSENT_ANSWER[:1].upper()}{rules.ABSENT_ANSWER[1:]}.")
        return data


class ProbeImportForm(forms.Form):
    file = forms.FileField(help_text="JSON Lines (one {\"question\": ..., \"answer\": ...} a line) or CSV with a "
                                     "first row naming the columns question and answer (kind and source optional)")


class ProbeGenerationForm(forms.Form):
    """How many probes to generate from the documents at most; left empty, the engine's default."""

    BOUNDS = f"Choose a number of probes from 1 to {rules.PROBES_TO_GENERATE_MAX}"
    limit = forms.IntegerField(
        label="Probes to generate", required=False, min_value=1, max_value=rules.PROBES_TO_GENERATE_MAX,
        initial=PROBES_TO_GENERATE, help_text="at most this many, spread over the documents and kinds of question",
        error_messages={"invalid": f"{BOUNDS}: a whole number.", "min_value": f"{BOUNDS}.",
                        "max_value": f"{BOUNDS}."})

    def clean_limit(self) -> int:
        limit = self.cleaned_data["limit"]
        return PROBES_TO_GENERATE if limit is None else limit


def _setting_field(setting: run_settings.Setting) -> forms.Field:
    """A run setting's form field, from engine.core.run_settings' table: its bounds, default, label and help."""
    options = {"initial": setting.default, "required": not setting.optional,
               "label": setting.label[0].upper() + setting.label[1:], "help_text": setting.help}
    if setting.choices:
        return forms.ChoiceField(choices=[(c, run_settings.shown(setting.name, c)) for c in setting.choices],
                                 **options)
    low, high = setting.limits
    field = forms.FloatField if setting.kind is float else forms.IntegerField
    return field(min_value=low, max_value=high, **options)


# The run settings' fields, one per row of the table: a form class built from it, which RunForm extends.
_RunSettingsForm = type("_RunSettingsForm", (forms.Form,), {
    s.name: _setting_field(s) for s in run_settings.SETTINGS})


class RunForm(_RunSettingsForm):
    """What a comparison runs: strategies and the engine's settings, with the model's defaults."""

    field_order = ["strategies", *run_settings.DEFAULTS]
    strategies = forms.MultipleChoiceField(choices=[(s, run_settings.name(s)) for s in STRATEGIES],
                                           initial=starting.DEFAULT_STRATEGIES, widget=forms.CheckboxSelectMultiple)
    # Hidden until a start is refused because every full-context strategy chosen would refuse, or because the run
    # would take hours (ask_to_confirm).
    confirm_refusals = forms.BooleanField(required=False, initial=False, widget=forms.HiddenInput,
                                          label="Start anyway, knowing the full-context strategies will refuse")
    confirm_duration = forms.BooleanField(required=False, initial=False, widget=forms.HiddenInput,
                                          label="Start anyway, knowing how long it takes")

    def clean(self):
        data = super().clean()
        if "chunk_tokens" in data and "chunk_overlap" in data and data["chunk_overlap"] >= data["chunk_tokens"]:
            self.add_error("chunk_overlap", "The overlap must be smaller than the chunk size.")
        return data

    def settings(self) -> dict:
        """The run settings given; an optional one left out is None, which a run takes as its default."""
        return {name: self.cleaned_data[name] if self.cleaned_data[name] != "" else None
                for name in starting.SETTINGS}

    def ask_to_confirm(self, refused: starting.NotConfirmed) -> None:
        """Show why a start needs confirming with a "start anyway" box to tick, for the user to post the form again;
        a box ticked before stays ticked and shown."""
        self.fields[refused.flag].widget = forms.CheckboxInput()
        self.add_error(refused.flag, f"{refused.message}. Tick this box to start it anyway, {refused.consequence}.")
        for flag in ("confirm_refusals", "confirm_duration"):
            if self.cleaned_data.get(flag):
                self.fields[flag].widget = forms.CheckboxInput()


class ReadersForm(forms.Form):
    """Who reads the documents: this worker's engine, the organisation's endpoints, or both, one run each, read side by
    side (workloads.comparisons.batches). The comparison page offers it, at the readers last chosen; a start without
    it (the workload page's form) is read by the engine alone."""

    prefix = "readers"
    shown = forms.BooleanField(required=False, initial=True, widget=forms.HiddenInput)  # a post that offered it
    engine = forms.BooleanField(required=False, initial=True, label="This worker's engine")
    endpoints = forms.ModelMultipleChoiceField(
        queryset=Endpoint.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        help_text="each asks the same questions over the OpenAI protocol, billed from its replies (whole documents "
                  "as one request, read with its own attention)")

    def __init__(self, data=None, *, workload: Workload):
        saved = starting.saved_readers(workload)
        super().__init__(data if data is not None and f"{self.prefix}-shown" in data else None,
                         initial={"engine": saved["engine"], "endpoints": saved["endpoints"]})
        self.fields["endpoints"].queryset = Endpoint.objects.filter(organisation=workload.organisation)

    def clean(self):
        data = super().clean()
        if not data.get("engine") and not data.get("endpoints"):
            raise forms.ValidationError("Choose who reads the documents: this worker's engine, an endpoint, or both.")
        return data

    def readers(self) -> dict:
        """start_run's engine and endpoints: the engine alone when the form was not offered."""
        if not self.is_bound:
            return {"engine": True, "endpoints": []}
        return {"engine": self.cleaned_data["engine"], "endpoints": list(self.cleaned_data["endpoints"])}


class _PriceForm(forms.ModelForm):
    """A price book entry; the organisation comes from the user, never from the form."""

    unique_fields: tuple[str, ...] = ()
    effective_from = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}),
                                     help_text="the first day this price applies")
    # One-line fields, as the API's price schemas want them (workloads.rules), so either can save what the other made.
    source = forms.CharField(max_length=500, validators=[_one_line],
                             help_text="where it comes from: a quote, an invoice, a web page")

    def __init__(self, *args, organisation: Organisation, **kwargs):
        super().__init__(*args, **kwargs)
        self.organisation = organisation

    def clean(self):
        data = super().clean()
        # The unique constraint includes the organisation, which the form's own checks leave out.
        key = {name: data.get(name) for name in (*self.unique_fields, "effective_from")}
        if all(v is not None for v in key.values()) and self._meta.model.objects.filter(
                organisation=self.organisation, **key).exists():
            raise forms.ValidationError("The price book already has an entry for this on that date: delete it first.")
        return data

    def save(self, commit: bool = True):
        self.instance.organisation = self.organisation
        return super().save(commit)


class GpuPriceForm(_PriceForm):
    unique_fields = ("device_class",)
    device_class = forms.CharField(max_length=50, validators=[_one_line, _no_invisible],
                                   help_text='how the device is named: "cpu", "H200", "A100"...')
    per_hour = forms.DecimalField(min_value=0, max_digits=10, decimal_places=4, label="Dollars per hour")

    class Meta:
        model = GpuPrice
        fields = ["device_class", "per_hour", "effective_from", "source"]

    def clean_device_class(self) -> str:
        return pricing.spelled_as_before(self.organisation, self.cleaned_data["device_class"])


class ApiPriceForm(_PriceForm):
    unique_fields = ("provider", "model")
    provider = forms.CharField(max_length=100, validators=[_one_line, _no_invisible])
    model = forms.CharField(max_length=200, validators=[_one_line, _no_invisible],
                            help_text="the API model's name as the provider sells it, e.g. a provider's small "
                                      "model: workloads choose it as the API model they compare against")
    input_per_mtok = forms.DecimalField(min_value=0, max_digits=10, decimal_places=4,
                                        label="Dollars per million input tokens")
    cached_input_per_mtok = forms.DecimalField(required=False, min_value=0, max_digits=10, decimal_places=4,
                                               label="Dollars per million cached input tokens",
                                               help_text="input read from the provider's prompt cache; "
                                                         "leave empty if it has no cache discount you know of")
    output_per_mtok = forms.DecimalField(min_value=0, max_digits=10, decimal_places=4,
                                         label="Dollars per million output tokens")

    class Meta:
        model = ApiPrice
        fields = ["provider", "model", "input_per_mtok", "cached_input_per_mtok", "output_per_mtok",
                  "effective_from", "source"]


class ScheduleForm(forms.ModelForm):
    """When a workload's scheduled comparison fires, and how big a change raises an alert."""

    schedule_hour = forms.IntegerField(min_value=0, max_value=23, label="Hour",
                                       help_text="hour of the day, 0 to 23, in the organisation's time zone")
    alert_cost_percent = forms.FloatField(min_value=0, max_value=10_000, label="Cost alert, percent",
                                          help_text="alert when a strategy's cost rises by more than this")
    alert_accuracy_points = forms.FloatField(min_value=0, max_value=100, label="Accuracy alert, points",
                                             help_text="alert when a strategy's accuracy falls by more than this")

    class Meta:
        model = Workload
        fields = ["schedule", "schedule_hour", "alert_cost_percent", "alert_accuracy_points"]


class OrganisationForm(forms.ModelForm):
    # A select of the IANA names; the validator still refuses anything else posted.
    timezone = forms.CharField(max_length=64, validators=[validate_timezone], label="Time zone",
                               widget=forms.Select(choices=[(z, z) for z in TIME_ZONES]),
                               help_text="scheduled comparisons fire at local hours, and quarters start on local dates")
    summary_recipients = forms.CharField(
        required=False, max_length=4000, validators=[validate_recipients], label="E-mail the PDF summaries to",
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "cfo@example.com"}),
        help_text=f"up to {MAX_RECIPIENTS} addresses, one per line: each scheduled run's PDF summary is mailed "
                  "to them when it is ready")
    # Empty is no cap (None), never $0, which would stop every comparison through an endpoint.
    endpoint_run_cap = forms.DecimalField(required=False, min_value=0, max_digits=10, decimal_places=2,
                                          label="Endpoint spending cap per run, dollars",
                                          help_text=f"{ENDPOINT_RUN_CAP_HELP} Empty: no cap.")
    endpoint_month_cap = forms.DecimalField(required=False, min_value=0, max_digits=10, decimal_places=2,
                                            label="Endpoint spending cap per month, dollars",
                                            help_text=f"{ENDPOINT_MONTH_CAP_HELP} Empty: no cap.")

    class Meta:
        model = Organisation
        fields = ["timezone", "summary_recipients", "endpoint_run_cap", "endpoint_month_cap"]

    def clean_summary_recipients(self) -> str:
        return "\n".join(parse_recipients(self.cleaned_data["summary_recipients"]))


class MemberForm(forms.ModelForm):
    """A new member: the user's own validators check the username and the e-mail address."""

    # ASCII only: "аdmin" with a Cyrillic а would pass for "admin" on every page that names who did what.
    username = forms.CharField(max_length=150, validators=[ASCIIUsernameValidator()],
                               help_text="English letters, digits and @ . + - _ only")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER, help_text="; ".join(
        f"{role.one} {duties}" for role, duties in ROLE_DUTIES.items()))

    class Meta:
        model = get_user_model()
        fields = ["username", "email"]


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


@functools.cache
def unbound_html(form_class: type[forms.BaseForm]) -> SafeString:
    """An empty form's fields as HTML, rendered once per process. The workload page shows three that never change
    between requests (their initial values are the defaults), and rendering their widgets' templates was a sixth
    of the page's CPU; a form with errors is shown on a page of its own, bound, and rendered each time."""
    return mark_safe(str(form_class()))


def instance_html(form_class: type[forms.ModelForm], instance) -> SafeString:
    """A model form of `instance`, unbound, as HTML, rendered once per process for each set of the values its fields
    show: rendering the workload page's schedule form was 7% of the page's CPU, for values that rarely change. The
    values and their types are the key (5 and 5.0 render differently), so a changed one renders again."""
    values = tuple((name, type(value), value) for name in form_class._meta.fields
                   for value in (getattr(instance, name),))
    return _instance_html(form_class, values)


@functools.lru_cache(maxsize=1024)
def _instance_html(form_class: type[forms.ModelForm], values: tuple) -> SafeString:
    instance = form_class._meta.model(**{name: value for name, _, value in values})
    return mark_safe(str(form_class(instance=instance)))


class EndpointForm(forms.ModelForm):
    """An OpenAI-compatible endpoint; the organisation comes from the user, and the key is stored encrypted.
    The API's EndpointIn holds the same rules (workloads.models.endpoints), so either can save what the other did."""

    name = forms.CharField(max_length=endpoints.NAME_MAX, validators=[_one_line, _no_invisible],
                           help_text="how the pages and the runs name it: unique within your organisation, "
                                     "whatever its case")
    # The model's field checks it (endpoints.validate_base_url): http or https, a host, no password, query or fragment.
    base_url = forms.CharField(max_length=endpoints.BASE_URL_MAX, label="Base URL",
                               help_text='where its OpenAI-compatible API answers, up to the /v1: '
                                         '"https://api.openai.com/v1", a vLLM or SGLang server\'s '
                                         '"http://gpu-box:8000/v1", Ollama\'s "http://localhost:11434/v1"')
    model = forms.CharField(max_length=endpoints.MODEL_MAX, validators=[_one_line, _no_invisible],
                            help_text='the model\'s name as the endpoint serves it: "gpt-4o-mini", '
                                      '"Qwen/Qwen2.5-7B-Instruct", "llama3.1:8b"')
    # Never drawn back into the page, not even beside an error (render_value=False): it would sit in the HTML, the
    # browser's cache and history. "new-password" keeps browsers from filling in the user's own saved password.
    api_key = forms.CharField(required=False, strip=False, label="API key",
                              widget=forms.PasswordInput(render_value=False, attrs={
                                  "autocomplete": "new-password", "maxlength": endpoints.API_KEY_MAX}),
                              help_text="empty for a server that needs none (Ollama, a local vLLM); stored encrypted "
                                        "and never shown again, not even to you")
    price = forms.ModelChoiceField(queryset=ApiPrice.objects.none(), required=False, label="Billed at",
                                   empty_label="Nothing: only the device it runs on costs")

    class Meta:
        model = Endpoint
        fields = ["name", "base_url", "model", "price"]

    def __init__(self, *args, organisation: Organisation, **kwargs):
        super().__init__(*args, **kwargs)
        self.organisation = self.instance.organisation = organisation
        # It offers one entry per API model of the price book, as the workload form does, and takes any of the
        # organisation's entries, as the API does; another organisation's is "not one of the available choices".
        price = self.fields["price"]
        price.queryset = ApiPrice.objects.filter(organisation=organisation)
        price.choices = [("", price.empty_label)] + [
            (entry.pk, f"{entry.subject} — {entry.rates}")
            for entry in pricing.api_models(organisation, periods.today(self.instance))]
        price.help_text = format_html('what its tokens are billed at: one of the API models of <a href="{}#api-prices">'
                                      "the price book</a>", reverse("price_book"))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        # The unique constraint includes the organisation, which is not a form field: checked here, as workloads are.
        if other := endpoints.endpoint_named_alike(self.organisation, name):
            raise forms.ValidationError(f'Your organisation already has an endpoint with this name: "{other}".')
        return name

    def clean_api_key(self) -> str:
        key = self.cleaned_data["api_key"]
        if problem := endpoints.api_key_problem(key):
            raise forms.ValidationError(f"The API key {problem}.")
        return key

    def save(self, commit: bool = True) -> Endpoint:
        self.instance.set_api_key(self.cleaned_data["api_key"])
        return super().save(commit)
