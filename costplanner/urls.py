from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from workloads.api import api

# Django's account pages, but not its e-mailed password reset: an admin chooses a member's e-mail address,
# so a reset mailed there would let them take over a colleague who has a password. A member without one
# gets a set-password link from an admin instead (workloads.organisations.members).
accounts = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]

handler400 = "workloads.views.bad_request.bad_request"


def favicon(request):
    """Browsers ask for /favicon.ico whatever a page links: send them to the icon among the static files (not
    permanently: its address carries a content hash once the static files are collected)."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    path("api/", api.urls),
    path("favicon.ico", favicon),
    path("", include("workloads.urls")),
]
