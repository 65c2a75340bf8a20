from django.db import migrations

INDEX = "workloads_username_any_case"


class Migration(migrations.Migration):
    """Usernames unique whatever their case, in the database: admins of two organisations adding "Dora" and
    "dora" at the same moment cannot both succeed, and one person cannot pass for another by case. Django's
    own unique constraint on auth_user compares case too. An expression index, which PostgreSQL and SQLite
    (the embedded default) both have; it fails on a database that already holds such twins, which an admin
    must then rename first."""

    dependencies = [("workloads", "0010_membership_roles"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunSQL(f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username))",
                          reverse_sql=f"DROP INDEX {INDEX}"),
    ]
