"""Who sees what: every query for a user's data starts from their organisation."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from workloads.models import ComparisonRun, Organisation, Workload


def organisation_of(user) -> Organisation:
    """The user's organisation; a user without one may see nothing."""
    membership = getattr(user, "membership", None) if user.is_authenticated else None
    if membership is None:
        raise PermissionDenied("you are not a member of any organisation")
    return membership.organisation


def workload_for(user, pk: int) -> Workload:
    """The workload if it belongs to the user's organisation; 404 otherwise (its existence is not revealed)."""
    return get_object_or_404(Workload, pk=pk, organisation=organisation_of(user))


def run_for(user, pk: int) -> ComparisonRun:
    return get_object_or_404(ComparisonRun.objects.select_related("workload"), pk=pk,
                             workload__organisation=organisation_of(user))
