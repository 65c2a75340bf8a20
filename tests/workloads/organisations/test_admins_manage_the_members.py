"""An admin adds members with a role and a link to set their password, changes roles and removes members;
an organisation always keeps an admin."""

import re
import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import ApiToken, Membership, Role
from workloads.organisations import members

NEW_PASSWORD = "a long enough new password 42"


def _add(client, **fields):
    return client.post(reverse("member_add"), {"username": "dora", "email": "dora@acme.example", "role": "viewer"}
                       | fields, follow=True)


def test_a_new_member_sets_a_password_with_the_link_and_logs_in(alice_client, acme):
    page = html(_add(alice_client))

    assert "Added dora as a viewer. Send them this link to set their password; it works once, for 3 days" in page
    dora = User.objects.get(username="dora")
    assert dora.membership.organisation == acme and dora.membership.role == Role.VIEWER
    assert not dora.has_usable_password() and dora.email == "dora@acme.example"
    link = re.search(re.escape(settings.SITE_URL) + r"(/accounts/reset/[^\s<]+/)", page).group(1)

    browser = Client()
    form = browser.get(link, follow=True)
    assert "Set your password" in html(form)
    done = browser.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
                        follow=True)
    assert "Your password is set" in html(done)
    # Through the login form, as dora would (sign-ins are throttled per address, which Client.login has not got).
    assert browser.post(reverse("login"), {"username": "dora", "password": NEW_PASSWORD}).status_code == 302
    assert "This link no longer works" in html(Client().get(link, follow=True))


@pytest.mark.parametrize("fields, error", [
    ({"username": ""}, "This field is required."),
    ({"username": "d" * 151}, "Ensure this value has at most 150 characters"),
    ({"username": "<script>alert(1)</script>"}, "Enter a valid username."),
    ({"username": "dora smith"}, "Enter a valid username."),
    ({"username": "\uff21\uff2c\uff29\uff23\uff25"}, "Enter a valid username."),  # fullwidth ALICE
    ({"username": "\u0430lice"}, "Enter a valid username."),  # a Cyrillic а: looks like alice on every page
    ({"username": "ALICE"}, "the username &#x27;ALICE&#x27; is taken: choose another"),
    ({"username": "alice"}, "A user with that username already exists."),
    ({"email": "not-an-address"}, "Enter a valid email address."),
    ({"role": "owner"}, "Select a valid choice. owner is not one of the available choices."),
    ({"role": ""}, "This field is required."),
])
def test_a_bad_new_member_is_refused_and_nothing_is_saved(alice_client, fields, error):
    users = User.objects.count()
    response = _add(alice_client, **fields)
    assert response.status_code == 400
    assert error in html(response)
    assert User.objects.count() == users


def test_the_last_admin_can_neither_leave_nor_step_down(alice_client, alice, bob):
    own = alice.membership
    page = html(alice_client.post(reverse("member_role", args=[own.pk]), {"role": "member"}, follow=True))
    assert "alice is Acme&#x27;s only admin: make someone else an admin first" in page
    page = html(alice_client.post(reverse("member_remove", args=[own.pk]), follow=True))
    assert "alice is Acme&#x27;s only admin" in page
    own.refresh_from_db()
    assert own.role == Role.ADMIN and User.objects.get(pk=alice.pk).is_active

    alice_client.post(reverse("member_role", args=[bob.membership.pk]), {"role": "admin"})
    page = html(alice_client.post(reverse("member_role", args=[own.pk]), {"role": "member"}, follow=True))
    assert "alice is now a member." in page
    assert alice_client.post(reverse("organisation_edit"), {"timezone": "Asia/Tokyo"}).status_code == 403


def test_a_removed_member_can_no_longer_log_in_or_use_a_token(alice_client, bob, workload):
    token = ApiToken.issue(bob)
    bobs = Client()
    bobs.force_login(bob)

    page = html(alice_client.post(reverse("member_remove", args=[bob.membership.pk]), follow=True))

    assert "Removed bob: they can no longer log in or use their API tokens" in page
    assert not Membership.objects.filter(user=bob).exists()
    assert not User.objects.get(pk=bob.pk).is_active
    assert bobs.get(reverse("dashboard")).status_code == 302  # to the login page
    assert Client().get("/api/workloads", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_a_new_link_only_for_a_member_without_a_password(alice_client, bob):
    _add(alice_client)
    dora = Membership.objects.get(user__username="dora")
    page = html(alice_client.post(reverse("member_link", args=[dora.pk]), follow=True))
    assert "Send them this link to set their password" in page
    page = html(alice_client.post(reverse("member_link", args=[bob.membership.pk]), follow=True))
    assert "bob has set a password already" in page and "/accounts/reset/" not in page


def test_another_organisations_admin_cannot_touch_acmes_members(charlie_client, bob):
    for name, data in (("member_role", {"role": "viewer"}), ("member_remove", {}), ("member_link", {})):
        assert charlie_client.post(reverse(name, args=[bob.membership.pk]), data).status_code == 404
    bob.membership.refresh_from_db()
    assert bob.membership.role == Role.MEMBER and User.objects.get(pk=bob.pk).is_active


@pytest.mark.django_db(transaction=True)
def test_two_admins_stepping_down_at_once_leave_one_admin(alice, bob):
    members.change_role(bob.membership, Role.ADMIN)
    first_holds_its_locks = threading.Event()
    refused = []

    def first():
        with transaction.atomic():
            members.change_role(Membership.objects.get(user=alice), Role.MEMBER)
            first_holds_its_locks.set()
            threading.Event().wait(0.5)  # the second now waits for this transaction's locks
        connection.close()

    def second():
        first_holds_its_locks.wait()
        try:
            members.change_role(Membership.objects.get(user=bob), Role.MEMBER)
        except Exception as exc:  # noqa: BLE001  (what it raised is the result)
            refused.append(exc)
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [str(exc) for exc in refused] == ["[\"bob is Acme's only admin: make someone else an admin first\"]"]
    assert sorted(Membership.objects.values_list("user__username", "role")) == [("alice", "member"), ("bob", "admin")]


def test_a_removed_members_set_password_link_stops_working(alice_client):
    page = html(_add(alice_client))
    link = re.search(re.escape(settings.SITE_URL) + r"(/accounts/reset/[^\s<]+/)", page).group(1)
    alice_client.post(reverse("member_remove", args=[Membership.objects.get(user__username="dora").pk]))
    assert "This link no longer works" in html(Client().get(link, follow=True))


def test_a_weak_password_is_refused(alice_client):
    link = re.search(re.escape(settings.SITE_URL) + r"(/accounts/reset/[^\s<]+/)", html(_add(alice_client))).group(1)
    browser = Client()
    form = browser.get(link, follow=True).redirect_chain[-1][0]
    page = html(browser.post(form, {"new_password1": "a", "new_password2": "a"}))
    assert "This password is too short" in page
    assert not User.objects.get(username="dora").has_usable_password()


def test_the_servers_own_staff_are_not_managed_by_an_organisations_admins(alice_client, acme):
    root = User.objects.create_superuser("root", "root@example.com", None)  # no password: createsuperuser --noinput
    own = Membership.objects.create(user=root, organisation=acme, role=Role.MEMBER)
    assert "administers this server" in html(alice_client.get(reverse("organisation_edit")))
    for name, data in (("member_link", {}), ("member_role", {"role": "viewer"}), ("member_remove", {})):
        page = html(alice_client.post(reverse(name, args=[own.pk]), data, follow=True))
        assert "root administers this server: only the server&#x27;s own admin pages change them" in page
        assert "/accounts/reset/" not in page
    own.refresh_from_db()
    assert own.role == Role.MEMBER and User.objects.get(pk=root.pk).is_active


def test_no_password_reset_by_mail_that_an_admin_could_redirect(client, db):
    assert client.get("/accounts/password_reset/").status_code == 404


def test_usernames_are_unique_whatever_their_case_in_the_database(alice):
    with pytest.raises(IntegrityError, match="workloads_username_any_case"), transaction.atomic():
        User.objects.create(username="ALICE")


def test_a_form_sent_without_its_security_token_says_so(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post(reverse("member_add"), {"username": "dora", "role": "viewer"})
    assert response.status_code == 403
    assert "The form was not sent" in html(response) and not User.objects.filter(username="dora").exists()
