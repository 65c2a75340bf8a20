"""Every name we store and show is free of control characters, line separators and bidi controls, which could hide
or fake its real ending ("rtl\u202egnp.txt" shows as "rtltxt.png"); they are dropped, as from an upload's own name."""

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_zip

NOTE = " (control characters removed from its name)"


def test_it_drops_control_and_bidi_characters_from_zip_member_names_and_says_so():
    data = make_zip({
        "new\nline.txt": "a",
        "ctrl\x01\x1b[31m.txt": "b",
        "rtl\u202egnp.txt": "c",
        "c1\x85\x9b.txt": "d",
        "para\u2028\u2029graph.txt": "e",
        "isolate\u2066d\u2069.txt": "f",
        "plain.txt": "g",
    })

    entries = extract_file("evil_paths.zip", data, LIMITS)

    assert [(e.name, e.source_path, e.kept, e.detail) for e in entries] == [
        ("evil_paths.zip/newline.txt", "newline.txt", True, "text" + NOTE),
        ("evil_paths.zip/ctrl[31m.txt", "ctrl[31m.txt", True, "text" + NOTE),
        ("evil_paths.zip/rtlgnp.txt", "rtlgnp.txt", True, "text" + NOTE),
        ("evil_paths.zip/c1.txt", "c1.txt", True, "text" + NOTE),
        ("evil_paths.zip/paragraph.txt", "paragraph.txt", True, "text" + NOTE),
        ("evil_paths.zip/isolated.txt", "isolated.txt", True, "text" + NOTE),
        ("evil_paths.zip/plain.txt", "plain.txt", True, "text"),
    ]


def test_it_drops_them_from_the_names_of_skipped_members_too():
    entries = extract_file("a.zip", make_zip({"../up\u202e.txt": "x", "logo\x1b.png": b"\x89PNG\0\0"}), LIMITS)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("a.zip/../up.txt", False, "unsafe path (leaves the archive)" + NOTE),
        ("a.zip/logo.png", False, "unsupported file type .png" + NOTE),
    ]


def test_it_catches_a_path_that_climbs_out_once_they_are_dropped():
    [entry] = extract_file("a.zip", make_zip({".\x01./etc/passwd": "root"}), LIMITS)

    assert (entry.name, entry.source_path, entry.kept) == ("a.zip/../etc/passwd", None, False)
    assert entry.detail == "unsafe path (leaves the archive)" + NOTE


def test_it_drops_them_from_an_uploaded_files_own_name():
    [entry] = extract_file("report\u202efdp.exe\u2069.txt\x85", b"hello", LIMITS)

    assert entry.name == "reportfdp.exe.txt"


def test_names_are_stored_in_one_unicode_form_so_a_mac_zip_names_the_same_document():
    # macOS Finder stores "ü" as "u" and a combining diaeresis; typed or from Windows, it is one character.
    decomposed = "Vertrag Mu\u0308ller.txt"

    [member] = extract_file("mac.zip", make_zip({decomposed: "Notice: 90 days."}), LIMITS)
    [upload] = extract_file(decomposed, b"Notice: 90 days.", LIMITS)

    assert member.name == "mac.zip/Vertrag M\u00fcller.txt" and upload.name == "Vertrag M\u00fcller.txt"
    assert member.detail == upload.detail == "text"  # nothing was removed from the name
