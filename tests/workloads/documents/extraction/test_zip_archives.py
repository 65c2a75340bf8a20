import io
import warnings
import zipfile

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_docx, make_pdf, make_zip, make_zip_with_symlink, patch_first_member


def test_it_reads_each_member_like_a_plain_file_in_archive_order():
    data = make_zip({
        "shop/": b"",
        "shop/src/cart.py": "def total():\n    return 0\n",
        "shop/docs/terms.pdf": make_pdf("Terms of sale"),
        "shop/docs/offer.docx": make_docx(["Offer"]),
        "shop/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    })

    entries = extract_file("shop.zip", data, LIMITS)

    assert [(e.name, e.source_path, e.kept, e.detail) for e in entries] == [
        ("shop.zip/shop/src/cart.py", "shop/src/cart.py", True, "text"),
        ("shop.zip/shop/docs/terms.pdf", "shop/docs/terms.pdf", True, "PDF, 1 page"),
        ("shop.zip/shop/docs/offer.docx", "shop/docs/offer.docx", True, "DOCX, 1 paragraph"),
        ("shop.zip/shop/logo.png", "shop/logo.png", False, "unsupported file type .png"),
    ]
    assert [e.text for e in entries[:3]] == ["def total():\n    return 0\n", "Terms of sale", "Offer"]
    assert (entries[0].size_bytes, entries[0].lines) == (26, 2)


def test_it_skips_an_unreadable_zip_as_one_entry():
    [entry] = extract_file("backup.zip", b"PK\x03\x04 truncated garbage", LIMITS)

    assert (entry.name, entry.source_path, entry.kept, entry.detail) == (
        "backup.zip",
        None,
        False,
        "not a readable ZIP archive",
    )


def test_it_skips_a_zip_without_files():
    [entry] = extract_file("empty.zip", make_zip({"only-a-folder/": b""}), LIMITS)

    assert (entry.name, entry.kept, entry.detail) == ("empty.zip", False, "empty: no files in the archive")


def test_it_skips_an_archive_inside_an_archive():
    inner = make_zip({"secret.txt": "nested"})
    entries = extract_file("outer.zip", make_zip({"inner.zip": inner, "vendor/lib.jar": b"jar", "a.txt": "a"}), LIMITS)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("outer.zip/inner.zip", False, "archive inside an archive"),
        ("outer.zip/vendor/lib.jar", False, "archive inside an archive"),
        ("outer.zip/a.txt", True, "text"),
    ]


def test_it_skips_a_symbolic_link_member():
    entries = extract_file("repo.zip", make_zip_with_symlink("config/current", "/etc/passwd"), LIMITS)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("repo.zip/config/current", False, "symbolic link"),
        ("repo.zip/src/app.py", True, "text"),
    ]


def test_it_skips_an_encrypted_member():
    data = patch_first_member(make_zip({"salaries.csv": "ana,5000\n", "readme.txt": "hello"}), flag_bits=0x1)

    entries = extract_file("hr.zip", data, LIMITS)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("hr.zip/salaries.csv", False, "encrypted"),
        ("hr.zip/readme.txt", True, "text"),
    ]


def test_it_reads_stored_members_and_decodes_each_member_on_its_own():
    data = make_zip({"a.txt": "Köln".encode("utf-16"), "b.txt": b"plain"}, compression=zipfile.ZIP_STORED)

    entries = extract_file("mixed.zip", data, LIMITS)

    assert [(e.detail, e.text) for e in entries] == [("text (UTF-16)", "Köln"), ("text", "plain")]


def test_a_zip_listing_a_path_twice_keeps_the_last_copy_as_zip_tools_do():
    # `zip -u` and zipfile's append add a new copy and leave the old one listed: unzip and zipfile read the last.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it is asked to write
        archive.writestr("notes.txt", "first")
        archive.writestr("notes.txt", "second")

    entries = extract_file("dup.zip", buffer.getvalue(), LIMITS)

    assert [(e.name, e.source_path, e.kept, e.text) for e in entries] == [
        ("dup.zip/notes.txt (2)", "notes.txt", False, None),
        ("dup.zip/notes.txt", "notes.txt", True, "second"),
    ]
    assert entries[0].detail == "an older copy: the archive lists this path again later, and ZIP tools read that copy"
