"""Gather the licences and notices of everything the bundle ships, into packaging/licenses/.

Run by hand when the dependencies change (`python packaging/licenses/collect.py`, in the environment the bundle is
built from); tests/core/test_third_party_notices.py fails when a runtime dependency has no entry. It walks the
runtime requirements of hermes-desktop (no extras: test and bundle tools are not shipped), and for each
distribution copies the licence, copying, notice and authors files its wheel carries into
`third_party/<name>/`, and writes THIRD_PARTY_NOTICES.md with its name, version and licence.

PySide6 and shiboken6 wheels carry no licence file: Qt's notice (qt/NOTICE.md, written by hand) and the GNU LGPL
3.0 with the GNU GPL 3.0 it adds to (both from the system's common-licenses, verbatim) stand for them.
"""

from __future__ import annotations

import importlib.metadata as metadata
import re
import platform
import shutil
import sys
import sysconfig
from pathlib import Path

from packaging.requirements import Requirement

HERE = Path(__file__).parent
THIRD_PARTY = HERE / "third_party"
QT_DISTRIBUTIONS = {"pyside6-essentials", "shiboken6"}
# by_hand/<name>/: the licence of a distribution whose wheel has no file; by_hand/<name>-*/: notices for what a
# wheel ships under another licence (ziamath's STIX Two Math font, OFL). Kept outside third_party/, which is redone.
BY_HAND = HERE / "by_hand"
# A licence file by its name, or any file in a dist-info's licenses/ folder (PEP 639: pypdfium2 keeps its texts in
# licenses/LICENSES/Apache-2.0.txt and the like).
_LICENCE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$|\.dist-info/licenses/.+", re.I)


def key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_closure(root: str = "hermes-desktop") -> dict[str, metadata.Distribution]:
    found: dict[str, metadata.Distribution] = {}

    def walk(name: str) -> None:
        if key(name) in found:
            return
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return  # a requirement for another platform (tzdata on Windows)
        found[key(name)] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                walk(requirement.name)

    walk(root)
    found.pop(key(root), None)
    return found


def licence_of(dist: metadata.Distribution) -> str:
    expression = dist.metadata.get("License-Expression")
    if expression:
        return expression
    classifiers = [c.split("::")[-1].strip() for c in dist.metadata.get_all("Classifier") or []
                   if c.startswith("License ::") and "OSI Approved" != c.split("::")[-1].strip()]
    if classifiers:
        return " / ".join(classifiers)
    text = (dist.metadata.get("License") or "").strip()
    return text.splitlines()[0][:80] if text else "see the files"


def main() -> None:
    if THIRD_PARTY.exists():
        shutil.rmtree(THIRD_PARTY)
    THIRD_PARTY.mkdir()
    rows = []
    for name, dist in sorted(runtime_closure().items()):
        copied = []
        if name not in QT_DISTRIBUTIONS:
            target = THIRD_PARTY / name
            for file in dist.files or []:
                if _LICENCE_FILE.search(str(file)) and not str(file).endswith((".py", ".pyc")):
                    source = Path(dist.locate_file(file))
                    if source.is_file():
                        target.mkdir(exist_ok=True)
                        destination = target / source.name
                        if destination.exists():
                            destination = target / f"{source.parent.name}-{source.name}"
                        shutil.copyfile(source, destination)
                        copied.append(destination.relative_to(HERE).as_posix())
        else:
            copied = ["qt/NOTICE.md", "qt/LGPL-3.0.txt", "qt/GPL-3.0.txt"]
        if not copied and (BY_HAND / name).is_dir():
            copied = [f.relative_to(HERE).as_posix() for f in sorted((BY_HAND / name).iterdir()) if f.is_file()]
        copied += [f.relative_to(HERE).as_posix() for folder in sorted(BY_HAND.glob(f"{name}-*"))
                   for f in sorted(folder.iterdir()) if f.is_file()]
        if not copied:
            sys.exit(f"{name} ships no licence file: add one by hand under by_hand/{name}/")
        rows.append(f"| {dist.metadata['Name']} | {dist.version} | {licence_of(dist)} | {', '.join(copied)} |")
    # The bundle carries the Python interpreter and its standard library too (PSF licence).
    python_licence = Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt"
    if python_licence.is_file():
        (THIRD_PARTY / "python").mkdir()
        shutil.copyfile(python_licence, THIRD_PARTY / "python" / "LICENSE.txt")
        rows.append(f"| Python | {platform.python_version()} | PSF-2.0 | third_party/python/LICENSE.txt |")
    (HERE / "THIRD_PARTY_NOTICES.md").write_text(
        "# Third-party software in Hermes Desktop\n\n"
        "Hermes Desktop itself is MIT-licensed (LICENSE at the top of the source tree and of the bundle). The bundle\n"
        "also carries the software below, each under its own licence, whose texts are in the files named.\n"
        "Qt and PySide6 are used under the GNU LGPL 3.0: see qt/NOTICE.md for what that means for the bundle.\n\n"
        "| Package | Version | Licence | Files |\n| --- | --- | --- | --- |\n" + "\n".join(rows) + "\n",
        encoding="utf-8")
    print(f"{len(rows)} packages")


if __name__ == "__main__":
    main()
