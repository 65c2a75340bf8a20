"""The organisation's page: its time zone, who gets the PDF summaries and what comparisons through its endpoints may
spend, and its members with their roles.

Everyone in the organisation reads it; only admins change it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from workloads.formatting import dollars
from workloads.forms import MemberForm, OrganisationForm, RoleForm
from workloads.models import Membership, Role
from workloads.models.organisations import ROLE_DUTIES
from workloads.organisations import access, members
from workloads.views.methods import form_page
from workloads.views.outcomes import refusal_shown


def _page(request: HttpRequest, organisation, *, form=None, member_form=None, status: int = 200) -> HttpResponse:
    memberships = organisation.memberships.select_related("user").order_by(Lower("user__username"))
    return render(request, "workloads/organisation_form.html", {
        "organisation": organisation,
        "form": form or OrganisationForm(instance=organisation),
        "member_form": member_form or MemberForm(),
        "roles": [(role.label, ROLE_DUTIES[role]) for role in Role],
        "members": [(m, RoleForm(initial={"role": m.role}, auto_id=f"id_%s_{m.pk}")) for m in memberships],
    }, status=status)


@login_required
@form_page
@never_cache  # an admin's copy can hold a set-password link
def organisation_edit(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, access.organisation_of(request.user))
    organisation = access.organisation_of(request.user, Role.ADMIN)
    form = OrganisationForm(request.POST, instance=organisation)
    if not form.is_valid():
        return _page(request, organisation, form=form, status=400)
    form.save(commit=False).save(update_fields=OrganisationForm.Meta.fields)
    who = ", ".join(organisation.recipients) or "nobody"
    messages.success(request, f"Saved: {organisation.name}'s schedules now fire in {organisation.timezone}, "
                              f"and their PDF summaries are e-mailed to {who}. Endpoint spending caps: "
                              f"{dollars(organisation.endpoint_run_cap, 'none')} per run, "
                              f"{dollars(organisation.endpoint_month_cap, 'none')} per month.")
    return redirect("organisation_edit")


@login_required
@require_POST
def member_add(request: HttpRequest) -> HttpResponse:
    organisation = access.organisation_of(request.user, Role.ADMIN)
    form = MemberForm(request.POST)
    membership = None
    if form.is_valid():
        try:
            membership = members.add_member(organisation, form.cleaned_data["username"], form.cleaned_data["email"],
                                            Role(form.cleaned_data["role"]))
        except ValidationError as exc:  # the username taken in another case, say
            form.add_error(None, exc)
    if membership is None:
        return _page(request, organisation, member_form=form, status=400)
    messages.success(request, f"Added {membership.user.get_username()} as {Role(membership.role).one}. "
                              + _link_sentence(membership.user))
    return redirect("organisation_edit")


def _link_sentence(user) -> str:
    now = timezone.now()
    valid = timeuntil(now + dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT), now)
    return f"Send them this link to set their password; it works once, for {valid}: {members.password_link(user)}"


def _membership(request: HttpRequest, pk: int) -> Membership:
    organisation = access.organisation_of(request.user, Role.ADMIN)
    return get_object_or_404(Membership.objects.select_related("user"), pk=pk, organisation=organisation)


@login_required
@require_POST
def member_role(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Role: {form.errors['role'][0]}")
        return redirect("organisation_edit")
    role = Role(form.cleaned_data["role"])
    with refusal_shown(request):
        members.change_role(membership, role)
        messages.success(request, f"{membership.user.get_username()} is now {role.one}.")
    return redirect("organisation_edit")


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    try:
        members.remove_member(membership)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
        return redirect("organisation_edit")
    messages.success(request, f"Removed {membership.user.get_username()}: they can no longer log in or use their "
                              "API tokens. What they did keeps their name.")
    if membership.user_id == request.user.pk:
        return redirect("login")
    return redirect("organisation_edit")


@login_required
@require_POST
def member_link(request: HttpRequest, pk: int) -> HttpResponse:
    """A new set-password link for a member who has not set a password yet: theirs was lost, or is too old.

    Never for a member who has one: an admin could then sign in as them.
    """
    membership = _membership(request, pk)
    with refusal_shown(request):
        members.manageable(membership)
        messages.success(request, _link_sentence(membership.user))
    return redirect("organisation_edit")
