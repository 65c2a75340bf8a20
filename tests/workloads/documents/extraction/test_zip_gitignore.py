from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_zip


def summary(entries):
    return [(e.name, e.kept, e.detail) for e in entries]


def test_it_honours_the_root_gitignore_and_skips_the_gitignore_itself():
    data = make_zip({
        ".gitignore": "*.log\n/secrets.env\n",
        "app.py": "print('hi')\n",
        "debug.log": "noise",
        "secrets.env": "KEY=1",
        "config/secrets.env": "KEY=2",
    })

    assert summary(extract_file("repo.zip", data, LIMITS)) == [
        ("repo.zip/.gitignore", False, "git configuration"),
        ("repo.zip/app.py", True, "text"),
        ("repo.zip/debug.log", False, "ignored by .gitignore"),
        ("repo.zip/secrets.env", False, "ignored by .gitignore"),
        ("repo.zip/config/secrets.env", True, "text"),
    ]


def test_it_applies_a_nested_gitignore_relative_to_its_own_folder_and_lets_it_override_the_root():
    data = make_zip({
        ".gitignore": "*.csv\n",
        "web/.gitignore": "/dist\n!keep.csv\n",
        "web/dist/bundle.js": "minified",
        "web/keep.csv": "a,b\n",
        "web/other.csv": "c,d\n",
        "dist/readme.txt": "not under web/, so not ignored",
    })

    assert summary(extract_file("repo.zip", data, LIMITS)) == [
        ("repo.zip/.gitignore", False, "git configuration"),
        ("repo.zip/web/.gitignore", False, "git configuration"),
        ("repo.zip/web/dist/", False, "ignored by .gitignore (1 file)"),
        ("repo.zip/web/keep.csv", True, "text"),
        ("repo.zip/web/other.csv", False, "ignored by .gitignore"),
        ("repo.zip/dist/readme.txt", True, "text"),
    ]


def test_it_honours_a_gitignore_inside_a_single_top_level_folder_like_github_zips():
    data = make_zip({
        "shop-main/": b"",
        "shop-main/.gitignore": "build/\n.env\n",
        "shop-main/src/cart.py": "x = 1\n",
        "shop-main/build/out.js": "compiled",
        "shop-main/.env": "SECRET=1",
    })

    assert summary(extract_file("shop-main.zip", data, LIMITS)) == [
        ("shop-main.zip/shop-main/.gitignore", False, "git configuration"),
        ("shop-main.zip/shop-main/src/cart.py", True, "text"),
        ("shop-main.zip/shop-main/build/", False, "ignored by .gitignore (1 file)"),
        ("shop-main.zip/shop-main/.env", False, "ignored by .gitignore"),
    ]


def test_it_collapses_an_ignored_node_modules_folder_into_one_entry_under_the_top_most_ignored_folder():
    members = {".gitignore": "node_modules/\n", "index.js": "require('left-pad')\n"}
    for package in range(30):
        members[f"node_modules/pkg{package}/index.js"] = "module.exports = 1;\n"
        members[f"node_modules/pkg{package}/node_modules/dep/index.js"] = "module.exports = 2;\n"
    members["src/main.js"] = "main()\n"

    entries = extract_file("app.zip", make_zip(members), LIMITS)

    assert summary(entries) == [
        ("app.zip/.gitignore", False, "git configuration"),
        ("app.zip/index.js", True, "text"),
        ("app.zip/node_modules/", False, "ignored by .gitignore (60 files)"),
        ("app.zip/src/main.js", True, "text"),
    ]
    collapsed = entries[2]
    assert (collapsed.source_path, collapsed.text, collapsed.lines) == ("node_modules/", None, 0)
    assert collapsed.size_bytes == 30 * len("module.exports = 1;\n") + 30 * len("module.exports = 2;\n")


def test_it_always_ignores_the_git_folder_even_without_a_gitignore():
    data = make_zip({
        "repo/.git/HEAD": "ref: refs/heads/main\n",
        "repo/.git/objects/ab/cdef": b"\x78\x9c\x00binary",
        "repo/README": "Shop\n",
        "repo/.git/config": "[core]\n",
    })

    assert summary(extract_file("repo.zip", data, LIMITS)) == [
        ("repo.zip/repo/.git/", False, "git metadata (3 files)"),
        ("repo.zip/repo/README", True, "text"),
    ]


def test_it_does_not_let_a_gitignore_inside_the_git_folder_apply():
    data = make_zip({".git/info/.gitignore": "*.py\n", "app.py": "x = 1\n"})

    assert summary(extract_file("repo.zip", data, LIMITS)) == [
        ("repo.zip/.git/", False, "git metadata (1 file)"),
        ("repo.zip/app.py", True, "text"),
    ]


def test_it_cannot_re_include_a_file_whose_folder_is_ignored_as_in_git():
    data = make_zip({".gitignore": "logs/\n!logs/keep.log\n", "logs/keep.log": "kept?", "logs/other.log": "x"})

    assert summary(extract_file("repo.zip", data, LIMITS)) == [
        ("repo.zip/.gitignore", False, "git configuration"),
        ("repo.zip/logs/", False, "ignored by .gitignore (2 files)"),
    ]
