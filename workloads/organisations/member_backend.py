"""Django's ModelBackend, reading a signed-in user together with their membership and organisation.

Every page needs all three (the role checks, the organisation's data and time zone): read in turn, they were two
queries on every request, and the ORM's SQL for each was a measurable part of a page's CPU under load
(benchmarks/page_cpu.py). One join reads them at once; a user without a membership is read all the same.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class MemberBackend(ModelBackend):
    def get_user(self, user_id):
        users = get_user_model()._default_manager.select_related("membership__organisation")
        user = users.filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
