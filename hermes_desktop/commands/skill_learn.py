"""`hermes-desktop skills learn SESSION [--turn N] [--yes]`: draft a SKILL.md from a session's turn that ended well
(core/learning/drafting.py), print it with the validator's findings, and save it into the user's skills folder when
the user says yes (y/N on a terminal; without one only with --yes)."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def learn(session_id: str, *, turn: int | None, yes: bool, stdin: TextIO | None = None,
          out: TextIO | None = None) -> int:
    from hermes_desktop.core.learning import drafting
    from hermes_desktop.core.runtime import open_runtime
    from hermes_desktop.core.terminal_text import safe_name, strip_controls

    stdin, out = stdin or sys.stdin, out or sys.stdout
    runtime = open_runtime()
    try:
        if runtime.store.get_session(session_id) is None:
            print(strip_controls(_("error: {0}").format(_("no session {0}").format(repr(session_id)))), file=sys.stderr)
            return EXIT_USAGE
        try:
            chosen = drafting.choose_turn(runtime.workflow, runtime.store, session_id, turn)
        except drafting.DraftError as exc:
            print(strip_controls(_("error: {0}").format(exc)), file=sys.stderr)
            return EXIT_USAGE
        agent = runtime.make_agent()
        if agent.model is None:
            print(_("error: {0}").format(_("no model is set up; run the app once or set HERMES_BASE_URL and HERMES_MODEL")),
                  file=sys.stderr)
            return EXIT_FAILED

        async def side_request() -> drafting.Draft:
            # The session's own side-task model (its assistant's or provider's), as the window uses: the
            # session's requests never go to another provider.
            try:
                model = await runtime.side_client(session_id) or agent.model
                return await drafting.draft(model, chosen)
            finally:
                await agent.model.aclose()
                if runtime.session_models is not None:
                    await runtime.session_models.aclose()

        try:
            result = asyncio.run(side_request())
        except drafting.DraftError as exc:
            print(strip_controls(_("error: no draft: {0}").format(exc)), file=sys.stderr)
            return EXIT_FAILED
        print(safe_name(_("Draft from: {0}").format(chosen.request[:200])), file=out)
        print(safe_name(_("Path: {0}").format(chosen.path_text)), file=out)
        print("-" * 60, file=out)
        print("\n".join(safe_name(line) for line in result.text.splitlines()), file=out)
        print("-" * 60, file=out)
        for problem in result.problems:
            print(safe_name(f"{problem.level}: {problem.file}: {problem.reason}"), file=out)
        if not result.problems:
            print(_("validator: no findings"), file=out)
        if not result.loads:
            print(_("error: {0}").format(_("the draft does not load as a skill; nothing was saved")), file=sys.stderr)
            return EXIT_FAILED
        if not yes:
            if not stdin.isatty():
                print(_("error: {0}").format(_("not saved: no terminal to ask on; run it in a terminal, or add --yes")),
                      file=sys.stderr)
                return EXIT_USAGE
            out.write(_("Save it as the skill {0}? [y/N] ").format(result.name))
            out.flush()
            if stdin.readline().strip().lower() not in ("y", "yes"):
                print(_("not saved"), file=out)
                return EXIT_FAILED
        try:
            folder = drafting.save(result, runtime.paths.user_skills_dir)
        except (drafting.DraftError, OSError) as exc:
            print(strip_controls(_("error: not saved: {0}").format(exc)), file=sys.stderr)
            return EXIT_FAILED
        print(strip_controls(_("saved {0}: it is yours (no scripts, nothing to trust) and active from the next turn")
                             .format(folder / "SKILL.md")), file=out)
        return EXIT_OK
    finally:
        runtime.close()
