from django.contrib import admin
from django.urls import include, path

from workloads.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", api.urls),
    path("", include("workloads.urls")),
]
