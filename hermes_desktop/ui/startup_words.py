"""What the window says about a start-up problem, in the user's language.

The engine's start-up problems — settings.json unreadable, the session database damaged, read-only or its
backup skipped, the keyring locked or failing, mcp.json unreadable or partly wrong, the workspace or skills folder
not creatable — arrive as strings (`Runtime.problems`, `MCPConfig.problems`), most of them `CodedText`
(core/coded.py) with a code and parameters. Each code becomes one whole translated sentence here; paths, names,
numbers and a system's own English error message stay data, quoted inside the sentence (“…”).

Two problems are still plain f-strings made in core/runtime.py (the workspace and the skills folder could not be
created); they are recognised by their fixed English wording until runtime.py gives them codes (that file is
outside this change). Anything else unknown is quoted inside a translated frame, so the error bar never shows a
bare English sentence in a Chinese window.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Mapping

from PySide6.QtCore import QCoreApplication

from hermes_desktop.core.coded import code_of

_RUNTIME_FOLDERS = (
    ("workspace_not_created", re.compile(r"^The workspace folder (?P<path>.+) could not be created: (?P<error>.*)$",
                                         re.DOTALL)),
    ("skills_folder_not_created", re.compile(r"^The skills folder (?P<path>.+) could not be created: "
                                             r"(?P<error>.*)$", re.DOTALL)),
)


def startup_problem_text(problem: str, runtime: Any = None) -> str:
    """One start-up problem as the window shows it (error bar, MCP tab)."""
    code, params = code_of(problem)
    if not code:
        for name, pattern in _RUNTIME_FOLDERS:
            match = pattern.match(str(problem))
            if match:
                code, params = name, match.groupdict()
                break
    text = coded_text(code, params) if code else None
    if text is not None:
        return text
    return QCoreApplication.translate("StartupWords", "A problem at start: “{0}”").format(str(problem))


def secret_error_text(exc: BaseException) -> str:
    """A keyring failure (core/secrets.SecretStoreError) in the window's language: its message is coded text, and
    `str(exc)` would drop the code (the English sentence once showed in the Chinese window)."""
    message = exc.args[0] if exc.args else str(exc)
    return startup_problem_text(message) if code_of(message)[0] else str(exc)


def coded_text(code: str, params: Mapping[str, Any]) -> str | None:
    """The sentence for a code, or None for a code this module does not know."""
    p = {key: "" if value is None else value for key, value in params.items()}
    if code.startswith("storage_"):
        from hermes_desktop.ui import words

        if code == "storage_other" and p.get("detail"):
            return QCoreApplication.translate(
                "StartupWords", "The session database {path} failed (“{detail}”): {what}.").format(
                path=p.get("path", ""), detail=p["detail"], what=words._consequence(str(p.get("consequence", ""))))
        return words.storage_text(code, p)
    if code == "newer_schema":
        from hermes_desktop.ui import words

        return words.read_only_text(SimpleNamespace(read_only_code=code, read_only_params=p))
    sentences = {
        # settings.json (core/settings.py)
        "settings_unreadable": lambda: QCoreApplication.translate(
            "StartupWords", "Your settings file could not be read (“{error}”). It was kept as {kept} and default "
            "settings were loaded.").format(**_need(p, "error", "kept")),
        "settings_unreadable_left": lambda: QCoreApplication.translate(
            "StartupWords", "Your settings file {path} could not be read (“{error}”) nor set aside. Default settings "
            "are used for now; the file was left as it is.").format(**_need(p, "path", "error")),
        "settings_fields_invalid": lambda: QCoreApplication.translate(
            "StartupWords", "Some values in your settings file {path} are not valid, so their defaults are used: "
            "{fields}. Everything else in the file was loaded; the file was left as it is (fix or remove those values "
            "to stop this message).").format(**_need(p, "path", "fields")),
        # the session database (core/store.py)
        "database_damaged_new": lambda: QCoreApplication.translate(
            "StartupWords", "The session database could not be read: SQLite reports it damaged (“{detail}”). It was "
            "kept as {kept}; Hermes started with an empty history (no backup passed its integrity check).").format(
            **_need(p, "detail", "kept")),
        "database_damaged_restored": lambda: QCoreApplication.translate(
            "StartupWords", "The session database could not be read: SQLite reports it damaged (“{detail}”). It was "
            "kept as {kept}; Hermes started from the backup of {day}.").format(**_need(p, "detail", "kept", "day")),
        "database_damaged_backup_shown": lambda: QCoreApplication.translate(
            "StartupWords", "The session database could not be read: SQLite reports it damaged (“{detail}”). It was "
            "kept as {kept}; the backup of {day} could not be copied in its place and is shown instead.").format(
            **_need(p, "detail", "kept", "day")),
        "no_fts5": lambda: QCoreApplication.translate(
            "StartupWords", "This Python's SQLite has no FTS5; search uses a slower plain-text scan."),
        "wal_not_shown": lambda: QCoreApplication.translate(
            "StartupWords", "The newest changes (kept in the -wal file beside the database) cannot be shown until the "
            "database can be opened normally; they are not lost."),
        "backup_skipped_space": lambda: QCoreApplication.translate(
            "StartupWords", "Today's backup of the session database was skipped: the disk holding {folder} has {free} "
            "KiB free and the backup needs about {needed} KiB. Free some space; the next start makes it.").format(
            folder=p.get("folder", ""), free=f"{int(p.get('free_kib') or 0):,}",
            needed=f"{int(p.get('needed_kib') or 0):,}"),
        # the keyring (core/secrets.py), one sentence per action
        "keyring_locked_read": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring is locked, so Hermes could not read the key. Unlock it and try again."),
        "keyring_locked_save": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring is locked, so Hermes could not save the key. Unlock it and try again."),
        "keyring_locked_delete": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring is locked, so Hermes could not delete the key. Unlock it and try "
            "again."),
        "keyring_failed_read": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring could not read the key (“{error}”). Try again.").format(
            **_need(p, "error")),
        "keyring_failed_save": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring could not save the key (“{error}”). Try again.").format(
            **_need(p, "error")),
        "keyring_failed_delete": lambda: QCoreApplication.translate(
            "StartupWords", "The system keyring could not delete the key (“{error}”). Try again.").format(
            **_need(p, "error")),
        # mcp.json (core/mcp/config.py)
        "mcp_config_unreadable": lambda: QCoreApplication.translate(
            "StartupWords", "{path} cannot be read (“{error}”): no MCP server was started and the file was left as it "
            "is.").format(**_need(p, "path", "error")),
        "mcp_config_not_json": lambda: QCoreApplication.translate(
            "StartupWords", "{path} is not valid JSON (line {line}, column {column}: “{error}”): no MCP server was "
            "started and the file was left as it is.").format(**_need(p, "path", "line", "column", "error")),
        "mcp_config_not_object": lambda: QCoreApplication.translate(
            "StartupWords", "{path} does not hold a JSON object: no MCP server was started and the file was left as "
            "it is.").format(**_need(p, "path")),
        "mcp_config_section_not_object": lambda: QCoreApplication.translate(
            "StartupWords", "“{key}” in {path} must be an object of server names.").format(**_need(p, "key", "path")),
        "mcp_config_no_servers": lambda: QCoreApplication.translate(
            "StartupWords", "{path} has no “mcpServers” (or “servers”) object.").format(**_need(p, "path")),
        "mcp_server_twice": lambda: QCoreApplication.translate(
            "StartupWords", "MCP server “{name}” is in both “mcpServers” and “servers”; the one in “{section}” was "
            "skipped.").format(**_need(p, "name", "section")),
        "mcp_server_skipped": lambda: QCoreApplication.translate(
            "StartupWords", "MCP server “{name}” was skipped: “{error}”.").format(**_need(p, "name", "error")),
        "mcp_input_no_id": lambda: QCoreApplication.translate(
            "StartupWords", "Input {number} in mcp.json has no “id”; it was ignored.").format(**_need(p, "number")),
        "mcp_input_as_text": lambda: QCoreApplication.translate(
            "StartupWords", "Input “{id}” in mcp.json: only “promptString” inputs are supported; it is asked as "
            "text.").format(**_need(p, "id")),
        # skill folders (core/skills/discovery.py), shown in the Skills tab after the folder's name
        "skills_root_a_file": lambda: QCoreApplication.translate(
            "StartupWords", "the skills folder is a file, not a folder; no skill in it is loaded"),
        "skills_root_unlisted": lambda: QCoreApplication.translate(
            "StartupWords", "the skills folder cannot be listed (“{error}”); no skill in it is loaded").format(
            **_need(p, "error")),
        "skill_folder_unlisted": lambda: QCoreApplication.translate(
            "StartupWords", "cannot be listed (“{error}”)").format(**_need(p, "error")),
        "skill_folder_not_searched": lambda: QCoreApplication.translate(
            "StartupWords", "no SKILL.md or skill.yaml in it; a folder named “{name}” is not searched further").format(
            **_need(p, "name")),
        "skill_folder_empty": lambda: QCoreApplication.translate(
            "StartupWords", "no SKILL.md or skill.yaml in it, nor in its folders {levels} levels down").format(
            **_need(p, "levels")),
        "skill_folder_empty_scan_stopped": lambda: QCoreApplication.translate(
            "StartupWords", "no SKILL.md or skill.yaml in it, nor in its folders {levels} levels down (the scan "
            "stopped: too many folders in this root)").format(**_need(p, "levels")),
        "skill_not_loaded": lambda: QCoreApplication.translate("StartupWords", "could not be loaded"),
        "skill_folders_more_empty": lambda: QCoreApplication.translate(
            "StartupWords", "{count} more folders in it hold no skill (not listed one by one)").format(
            count=f"{int(p.get('count') or 0):,}"),
        # one skill's files (core/skills/loader.py, manager.py), after the file's name
        "skill_no_name": lambda: QCoreApplication.translate(
            "StartupWords", "no name; using the folder name “{folder}”").format(**_need(p, "folder")),
        "skill_name_spaces": lambda: QCoreApplication.translate(
            "StartupWords", "the name “{name}” has spaces or slashes; using the folder name “{folder}”").format(
            **_need(p, "name", "folder")),
        "skill_name_non_standard": lambda: QCoreApplication.translate(
            "StartupWords", "the name “{name}” is non-standard (the standard allows 1-{most} lowercase letters, digits "
            "and single hyphens), but the skill works, also as /{name}").format(**_need(p, "name", "most")),
        "skill_name_not_folder": lambda: QCoreApplication.translate(
            "StartupWords", "the name “{name}” does not match its folder “{folder}”").format(
            **_need(p, "name", "folder")),
        "skill_no_description": lambda: QCoreApplication.translate(
            "StartupWords", "no description: the model could not know when to use it"),
        "skill_description_long": lambda: QCoreApplication.translate(
            "StartupWords", "the description is {length} characters; the standard allows {most}").format(
            **_need(p, "length", "most")),
        "skill_scripts_linked": lambda: QCoreApplication.translate(
            "StartupWords", "is a link to another folder; its scripts do not run (trust covers only the skill's own "
            "files; copy the scripts into the skill's folder)"),
        "skill_md_spelling": lambda: QCoreApplication.translate(
            "StartupWords", "is spelled “{spelled}”; the standard spells it “SKILL.md” (read anyway)").format(
            **_need(p, "spelled")),
        "skill_file_unreadable": lambda: QCoreApplication.translate(
            "StartupWords", "cannot be read (“{error}”)").format(**_need(p, "error")),
        "skill_no_front_matter": lambda: QCoreApplication.translate(
            "StartupWords", "no YAML front matter (--- … ---) at the top"),
        "skill_front_matter_yaml": lambda: QCoreApplication.translate(
            "StartupWords", "the front matter is not valid YAML (“{error}”)").format(**_need(p, "error")),
        "skill_unquoted_colon": lambda: QCoreApplication.translate(
            "StartupWords", "{keys}: an unquoted “: ” (not valid YAML); read leniently as text. Put the value in "
            "quotes to silence this.").format(**_need(p, "keys")),
        "skill_not_mapping": lambda: QCoreApplication.translate(
            "StartupWords", "is not a mapping of fields"),
        "skill_no_instructions": lambda: QCoreApplication.translate(
            "StartupWords", "no instructions after the front matter"),
        "skill_yaml_unreadable": lambda: QCoreApplication.translate(
            "StartupWords", "cannot be read as YAML (“{error}”)").format(**_need(p, "error")),
        "skill_yaml_no_instructions": lambda: QCoreApplication.translate(
            "StartupWords", "no “prompt” and no instructions.md: the skill has no instructions"),
        "skill_tools_failed": lambda: QCoreApplication.translate(
            "StartupWords", "could not be loaded (“{error}”); its tools are off, the skill's instructions still "
            "work").format(**_need(p, "error")),
        "skill_tool_name": lambda: QCoreApplication.translate(
            "StartupWords", "the tool name “{name}” is not allowed by model APIs (letters A-Z and a-z, digits, _ and "
            "-, at most 64); give it an ASCII name with @tool(name=...); skipped").format(**_need(p, "name")),
        "skill_tool_clash": lambda: QCoreApplication.translate(
            "StartupWords", "the tool “{name}” clashes with an existing tool; skipped").format(**_need(p, "name")),
        # folders (core/runtime.py, recognised by their wording)
        "workspace_not_created": lambda: QCoreApplication.translate(
            "StartupWords", "The workspace folder {path} could not be created (“{error}”). Choose another one in "
            "Settings.").format(**_need(p, "path", "error")),
        "skills_folder_not_created": lambda: QCoreApplication.translate(
            "StartupWords", "The skills folder {path} could not be created (“{error}”). Your own skills cannot be "
            "added until it can.").format(**_need(p, "path", "error")),
    }
    make = sentences.get(code)
    return make() if make is not None else None


def _need(params: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {name: params.get(name, "") for name in names}


def is_whole_file_mcp_problem(problem: str) -> bool:
    """mcp.json could not be used at all (no server started): worth the error bar, not only the MCP tab."""
    return code_of(problem)[0] in ("mcp_config_unreadable", "mcp_config_not_json", "mcp_config_not_object")


def engine_not_started_text(exc: BaseException) -> str:
    """The engine could not start at all (`open_runtime` raised): the window stays open, with this in the error
    bar. A folder that cannot be made or used is named; anything else is quoted."""
    path = getattr(exc, "filename", None)
    if isinstance(exc, OSError) and path:
        return QCoreApplication.translate(
            "StartupWords", "Hermes could not start: the folder {path} cannot be created or used (“{error}”). Your "
            "conversations and settings cannot be opened until it can; check the folder, then restart Hermes "
            "Desktop.").format(path=path, error=exc.strerror or str(exc))
    return QCoreApplication.translate(
        "StartupWords", "Hermes could not start (“{0}”). Details are in the log; restart Hermes Desktop to try "
        "again.").format(f"{type(exc).__name__}: {exc}")


def skill_problem_line(file: str, reason: str) -> str:
    """A Skills-tab problem: the file or folder it is about, then why (worded when the core gave a code; a
    reason without one, such as a YAML parser's message, is shown as the core wrote it)."""
    code, params = code_of(reason)
    worded = coded_text(code, params) if code else None
    return QCoreApplication.translate("StartupWords", "{file}: {reason}", "a skill's file and its problem").format(
        file=file, reason=worded if worded is not None else reason)


def joined_problems(lines: list[str]) -> str:
    """Several problems of one folder on one line, with the language's separator (；in Chinese)."""
    return QCoreApplication.translate("StartupWords", "; ", "between a folder's problems").join(lines)
