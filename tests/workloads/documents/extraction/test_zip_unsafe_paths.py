from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_zip


# A parent, an absolute path, a drive letter, a climb with backslashes, a climb in the middle.
UNSAFE = ["../x", "/etc/passwd", "C:\\x", "src\\..\\..\\evil.py", "ok/../../../escape.txt"]


def test_it_rejects_zip_members_that_leave_the_archive():
    entries = extract_file("evil.zip", make_zip({name: "climbs out" for name in UNSAFE} | {"safe.txt": "kept"}), LIMITS)

    assert [(e.name, e.source_path, e.kept, e.detail) for e in entries] == [
        (f"evil.zip/{name}", None, False, "unsafe path (leaves the archive)") for name in UNSAFE
    ] + [("evil.zip/safe.txt", "safe.txt", True, "text")]
    assert all(e.text is None for e in entries[:-1])


def test_it_reads_windows_backslash_separators_inside_the_archive_as_folders():
    entries = extract_file("win.zip", make_zip({"src\\lib\\cart.py": "x = 1\n", ".\\notes.txt": "n"}), LIMITS)

    assert [(e.name, e.source_path, e.text) for e in entries] == [
        ("win.zip/src/lib/cart.py", "src/lib/cart.py", "x = 1\n"),
        ("win.zip/notes.txt", "notes.txt", "n"),
    ]
