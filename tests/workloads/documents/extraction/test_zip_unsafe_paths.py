from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_zip


def test_it_rejects_zip_members_that_leave_the_archive():
    data = make_zip({
        "../x": "parent",
        "/etc/passwd": "absolute",
        "C:\\x": "drive letter",
        "src\\..\\..\\evil.py": "backslash climb",
        "ok/../../../escape.txt": "climb in the middle",
        "safe.txt": "kept",
    })

    entries = extract_file("evil.zip", data, LIMITS)

    assert [(e.name, e.source_path, e.kept, e.detail) for e in entries] == [
        ("evil.zip/../x", None, False, "unsafe path (leaves the archive)"),
        ("evil.zip//etc/passwd", None, False, "unsafe path (leaves the archive)"),
        ("evil.zip/C:\\x", None, False, "unsafe path (leaves the archive)"),
        ("evil.zip/src\\..\\..\\evil.py", None, False, "unsafe path (leaves the archive)"),
        ("evil.zip/ok/../../../escape.txt", None, False, "unsafe path (leaves the archive)"),
        ("evil.zip/safe.txt", "safe.txt", True, "text"),
    ]
    assert all(e.text is None for e in entries[:5])


def test_it_reads_windows_backslash_separators_inside_the_archive_as_folders():
    entries = extract_file("win.zip", make_zip({"src\\lib\\cart.py": "x = 1\n", ".\\notes.txt": "n"}), LIMITS)

    assert [(e.name, e.source_path, e.text) for e in entries] == [
        ("win.zip/src/lib/cart.py", "src/lib/cart.py", "x = 1\n"),
        ("win.zip/notes.txt", "notes.txt", "n"),
    ]
