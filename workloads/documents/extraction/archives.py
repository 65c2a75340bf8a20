"""ZIP archives of a codebase or a folder of documents: limits, unsafe members, .git/ and .gitignore.

Nothing is ever written to disk; member paths are checked anyway because they become document names and
because a path leaving the archive is a sign of a hostile upload.
"""

import dataclasses
import functools
import io
import posixpath
import re
import stat
import zipfile
from collections.abc import Callable

from pathspec import GitIgnoreSpec

from .datatypes import HIDDEN_CHARACTERS, Extracted, Limits, Skip, human_size, skipped, too_large, visible
from .readers import extension, read_document

NESTED_ARCHIVE_EXTENSIONS = frozenset({".zip", ".tar", ".gz", ".tgz", ".7z", ".rar", ".jar", ".whl"})
GIT_CONFIGURATION_FILES = frozenset({".gitignore", ".gitattributes", ".gitmodules", ".git"})
_DRIVE_LETTER = re.compile(r"^[A-Za-z]:")
_PIECE = 2**20  # bytes decompressed at a time while counting


@dataclasses.dataclass(frozen=True)
class Pending:
    """One entry of an upload, named before it is read: reading it (`read()`) decompresses and reads only it."""

    name: str  # the entry's name before it is made unique and kept within the length limit
    read: Callable[[], Extracted]


def read_zip(archive_name: str, data: bytes, limits: Limits) -> list[Pending]:
    """One entry per member, or a single skipped entry for the whole archive: never half an archive.

    Every check that can refuse the whole archive runs here, before any member is read for its text: the headers'
    counts and sizes, then the bytes the members really decompress to, counted a piece at a time. So the members
    can then be read one at a time, each one's bytes and text let go before the next, and none can still refuse
    the archive. Names are neither unique nor limited in length yet: extract_file sees to both.
    """
    if len(data) > limits.max_file_bytes:
        return [_refused(archive_name, len(data), too_large(len(data), limits.max_file_bytes))]
    # zipfile raises a range of exception types for damaged central directories; all mean "unreadable".
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception:
        return [_refused(archive_name, len(data), "not a readable ZIP archive")]
    try:
        return _plan_members(archive_name, archive, limits)
    except Skip as skip:
        return [_refused(archive_name, len(data), str(skip))]


def _refused(archive_name: str, size: int, reason: str) -> Pending:
    return Pending(archive_name, lambda: skipped(archive_name, None, size, reason))


_SUPERSEDED = "an older copy: the archive lists this path again later, and ZIP tools read that copy"


def _plan_members(archive_name: str, archive: zipfile.ZipFile, limits: Limits) -> list[Pending]:
    members = [(info, _safe_path(info.filename)) for info in archive.infolist() if not _is_directory(info)]
    if not members:
        raise Skip("empty: no files in the archive")
    if len(members) > limits.max_archive_members:
        raise Skip(f"too many files: {len(members)} files, limit {limits.max_archive_members}")
    declared = sum(info.file_size for info, _ in members)
    if declared > limits.max_archive_bytes:
        raise Skip(f"too large once unpacked: {human_size(declared)}, limit {human_size(limits.max_archive_bytes)}")
    reader = _MemberReader(archive_name, archive, limits)
    reader.load_gitignores(members)
    entries: list[Pending | _Group] = []
    groups: dict[str, _Group] = {}
    to_read = []
    last = {path: index for index, (_, path) in enumerate(members) if path}
    for index, (info, path) in enumerate(members):
        name = f"{archive_name}/{path or visible(info.filename)}"
        if path and last[path] != index:  # an archive updated in place lists a path again; the last copy counts
            entries.append(Pending(name, functools.partial(skipped, name, path, info.file_size, _SUPERSEDED)))
            continue
        hidden = _hidden_directory(path, reader.ignores) if path else None
        if hidden is None:
            entries.append(Pending(name, functools.partial(reader.read, info, path)))
            to_read.append((info, path))
            continue
        directory, reason = hidden
        if directory not in groups:
            groups[directory] = _Group(f"{archive_name}/{directory}/", f"{directory}/", reason)
            entries.append(groups[directory])
        groups[directory].add(info.file_size)
    reader.count_unpacked(to_read)
    return [Pending(e.name, e.result) if isinstance(e, _Group) else e for e in entries]


class _MemberReader:
    """Reads members one by one, after counting the bytes they really decompress to.

    The count cannot be understated by lying headers, unlike the declared sizes checked up front.
    """

    def __init__(self, archive_name: str, archive: zipfile.ZipFile, limits: Limits):
        self.archive_name = archive_name
        self.archive = archive
        self.limits = limits
        self.ignores = _GitIgnores()
        self.decompressed = 0

    def load_gitignores(self, members: list[tuple[zipfile.ZipInfo, str | None]]) -> None:
        for info, path in members:
            if not path or posixpath.basename(path) != ".gitignore" or ".git" in path.split("/")[:-1]:
                continue
            if _is_symlink(info) or _is_encrypted(info) or info.file_size > self.limits.max_file_bytes:
                continue
            # A damaged .gitignore only means fewer files are ignored; the member is reported as git configuration.
            try:
                data = self._read_bounded(info)
            except Exception:
                continue
            self._count(len(data))
            self.ignores.add(posixpath.dirname(path), data.decode("utf-8", errors="replace"))

    def count_unpacked(self, members: list[tuple[zipfile.ZipInfo, str | None]]) -> None:
        """Decompress the members that will be read, a piece at a time and keeping nothing, to count their bytes:
        raises Skip, for the whole archive, when they pass the archive limit. Costs a second decompression, so
        that reading can then hold one member at a time."""
        for info, path in members:
            if self._skip_reason(info, path):
                continue
            try:
                with self.archive.open(info) as stream:
                    left = self.limits.max_file_bytes + 1  # a member past the file limit is skipped, not read on
                    while left and (piece := stream.read(min(left, _PIECE))):
                        left -= len(piece)
                        self._count(len(piece))
            except Skip:
                raise
            except Exception:  # unreadable members are skipped one by one when read
                continue

    def read(self, info: zipfile.ZipInfo, path: str | None) -> Extracted:
        entry = self._read(info, path)
        if HIDDEN_CHARACTERS.search(info.filename):  # say why the name differs from the one in the archive
            return dataclasses.replace(entry, detail=f"{entry.detail} (control characters removed from its name)")
        return entry

    def _read(self, info: zipfile.ZipInfo, path: str | None) -> Extracted:
        name = f"{self.archive_name}/{path or visible(info.filename)}"
        reason = self._skip_reason(info, path)
        if reason:
            return skipped(name, path, info.file_size, reason)
        try:
            data = self._read_bounded(info)
        except NotImplementedError:
            return skipped(name, path, info.file_size, "compressed with a method we cannot read")
        except Exception as exc:
            return skipped(name, path, info.file_size, f"damaged inside the archive ({str(exc) or type(exc).__name__})")
        if len(data) > self.limits.max_file_bytes:
            limit = human_size(self.limits.max_file_bytes)
            return skipped(name, path, info.file_size, f"too large once unpacked: over {limit}")
        return read_document(name, path, data, self.limits)

    def _skip_reason(self, info: zipfile.ZipInfo, path: str | None) -> str | None:
        if path is None:
            return "unsafe path (leaves the archive)"
        if posixpath.basename(path) in GIT_CONFIGURATION_FILES:
            return "git configuration"
        if self.ignores.ignores(path, is_dir=False):
            return "ignored by .gitignore"
        if _is_symlink(info):
            return "symbolic link"
        if _is_encrypted(info):
            return "encrypted"
        if extension(path) in NESTED_ARCHIVE_EXTENSIONS:
            return "archive inside an archive"
        if info.file_size > self.limits.max_file_bytes:
            return too_large(info.file_size, self.limits.max_file_bytes)
        return None

    def _read_bounded(self, info: zipfile.ZipInfo) -> bytes:
        # Headers can lie about sizes (zip bombs): never decompress more than one byte past the per-file limit.
        with self.archive.open(info) as stream:
            return stream.read(self.limits.max_file_bytes + 1)

    def _count(self, size: int) -> None:
        """Raises Skip, for the whole archive, once the running total passes the archive limit."""
        self.decompressed += size
        if self.decompressed > self.limits.max_archive_bytes:
            limit = human_size(self.limits.max_archive_bytes)
            raise Skip(f"too large once unpacked: over {limit} (the archive's headers understate it)")


@dataclasses.dataclass
class _Group:
    """Members under one ignored directory, reported as a single entry (node_modules/ can hold 20,000 files)."""

    name: str
    source_path: str
    reason: str
    files: int = 0
    size_bytes: int = 0

    def add(self, size: int) -> None:
        self.files += 1
        self.size_bytes += size

    def result(self) -> Extracted:
        count = f"{self.files} file{'' if self.files == 1 else 's'}"
        return skipped(self.name, self.source_path, self.size_bytes, f"{self.reason} ({count})")


class _GitIgnores:
    """Every .gitignore in the archive, each relative to its own directory; deeper ones override, as in git."""

    def __init__(self):
        self._specs: list[tuple[str, GitIgnoreSpec]] = []
        self._directories: dict[str, bool] = {}

    def add(self, base: str, text: str) -> None:
        self._specs.append((base, GitIgnoreSpec.from_lines(text.splitlines())))
        self._specs.sort(key=lambda spec: spec[0].count("/") + bool(spec[0]))

    def ignores(self, path: str, is_dir: bool) -> bool:
        if is_dir:
            if path not in self._directories:
                self._directories[path] = self._match(path, "/")
            return self._directories[path]
        return self._match(path, "")

    def _match(self, path: str, suffix: str) -> bool:
        ignored = False
        for base, spec in self._specs:
            if base and not path.startswith(base + "/"):
                continue
            include = spec.check_file(path[len(base) + 1 if base else 0:] + suffix).include
            if include is not None:
                ignored = include
        return ignored


def _hidden_directory(path: str, ignores: _GitIgnores) -> tuple[str, str] | None:
    """The top-most directory above path that is .git or ignored; git never looks inside either, so neither do we."""
    parts = path.split("/")
    for depth in range(1, len(parts)):
        directory = "/".join(parts[:depth])
        if parts[depth - 1] == ".git":
            return directory, "git metadata"
        if ignores.ignores(directory, is_dir=True):
            return directory, "ignored by .gitignore"
    return None


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16)


def _is_encrypted(info: zipfile.ZipInfo) -> bool:
    return bool(info.flag_bits & 0x1)


def _is_directory(info: zipfile.ZipInfo) -> bool:
    return info.filename.replace("\\", "/").endswith("/")


def _safe_path(filename: str) -> str | None:
    """The member path with "/" separators, or None when it is absolute, has a drive letter or climbs out with "..".

    Backslashes are read as separators (some Windows tools write them), so "..\\x" is caught like "../x". Control
    characters are dropped first, as from every name we show, so that ".\\x01./x" is caught like "../x" too.
    """
    path = visible(filename).replace("\\", "/")
    if path.startswith("/") or _DRIVE_LETTER.match(path):
        return None
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)
