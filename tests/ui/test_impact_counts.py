"""How many files an approval says will go: "1 file", never "1 files" (seen in a new user's walk: "will delete 1 files,
3 bytes in notes"), an empty folder said as such, and the counts in Chinese as whole phrases."""

from __future__ import annotations

from hermes_desktop.ui.words import impact_text


def delete(files: int, folders: int, size: int = 3) -> str:
    return impact_text("delete_folder", {"path": "notes", "files": files, "folders": folders, "bytes": size}, None)


def move(files: int, folders: int) -> str:
    return impact_text("move", {"src": "a", "dst": "b", "is_folder": True, "files": files, "folders": folders,
                                     "bytes": 10}, None)


def test_counts_in_the_singular_and_the_plural(qapp) -> None:
    assert delete(1, 0) == "will delete 1 file, 3 bytes in notes"
    assert delete(3, 0, 300) == "will delete 3 files, 300 bytes in notes"
    assert delete(1, 2) == "will delete 1 file in 2 folders, 3 bytes in notes"
    assert delete(4, 3) == "will delete 4 files in 3 folders, 3 bytes in notes"
    assert delete(0, 0) == "will delete the empty folder notes"
    assert "1 file," in move(1, 0) and "1 files" not in move(1, 0)


def test_the_counts_are_chinese_in_the_chinese_window(qapp) -> None:
    from hermes_desktop.ui.i18n import install_translations

    try:
        assert install_translations(qapp, "zh_CN") == "zh_CN"
        for text in (delete(1, 0), delete(3, 0), delete(1, 2), delete(0, 0)):
            assert "file" not in text and "folder" not in text and "delete" not in text, text
    finally:
        install_translations(qapp, "en")
