"""The organisation's endpoints: OpenAI-compatible servers a comparison can call instead of the local model.

Every member reads the list; only admins add and delete them. No page shows any part of a key, only whether one is
set: to change a key, an admin deletes the endpoint and adds it again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from workloads.forms import EndpointForm
from workloads.models import Endpoint, Role
from workloads.organisations import access
from workloads.views.methods import read_only


def _page(request: HttpRequest, organisation, *, form=None, status: int = 200) -> HttpResponse:
    return render(request, "workloads/endpoints.html", {
        "organisation": organisation,
        "endpoints": Endpoint.objects.filter(organisation=organisation).select_related("price"),
        "form": form or EndpointForm(organisation=organisation),
    }, status=status)


@login_required
@read_only
def endpoints(request: HttpRequest) -> HttpResponse:
    return _page(request, access.organisation_of(request.user))


@login_required
@require_POST
@sensitive_post_parameters("api_key")  # kept out of the error reports Django mails for a crash
def endpoint_create(request: HttpRequest) -> HttpResponse:
    organisation = access.organisation_of(request.user, Role.ADMIN)
    form = EndpointForm(request.POST, organisation=organisation)
    endpoint = None
    if form.is_valid():
        endpoint = form.save(commit=False)
        endpoint.created_by = request.user
        try:
            with transaction.atomic():
                endpoint.save()
        except IntegrityError:  # a concurrent request added the name since the form checked it
            form.add_error("name", "Your organisation already has an endpoint with this name.")
            endpoint = None
    if endpoint is None:
        return _page(request, organisation, form=form, status=400)
    key = "its key stored encrypted" if endpoint.key_set else "no key"
    messages.success(request, f"Added the endpoint {endpoint}, with {key}.")
    return redirect("endpoints")


@login_required
@require_POST
def endpoint_delete(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = get_object_or_404(Endpoint, pk=pk, organisation=access.organisation_of(request.user, Role.ADMIN))
    endpoint.delete()
    messages.success(request, f"Deleted the endpoint {endpoint}, and its key with it.")
    return redirect("endpoints")
