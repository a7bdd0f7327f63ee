"""`hermes-desktop skills learn SESSION [--turn N] [--yes]`: draft a SKILL.md from a session's turn that ended well
(core/learning/drafting.py), print it with the validator's findings, and save it into the user's skills folder when
the user says yes (y/N on a terminal; without one only with --yes)."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

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
            print(strip_controls(f"error: no session {session_id!r}"), file=sys.stderr)
            return EXIT_USAGE
        try:
            chosen = drafting.choose_turn(runtime.workflow, runtime.store, session_id, turn)
        except drafting.DraftError as exc:
            print(strip_controls(f"error: {exc}"), file=sys.stderr)
            return EXIT_USAGE
        agent = runtime.make_agent()
        if agent.model is None:
            print("error: no model is set up; run the app once or set HERMES_BASE_URL and HERMES_MODEL",
                  file=sys.stderr)
            return EXIT_FAILED

        async def side_request() -> drafting.Draft:
            try:
                return await drafting.draft(agent.model, chosen)
            finally:
                await agent.model.aclose()

        try:
            result = asyncio.run(side_request())
        except drafting.DraftError as exc:
            print(strip_controls(f"error: no draft: {exc}"), file=sys.stderr)
            return EXIT_FAILED
        print(safe_name(f"Draft from: {chosen.request[:200]}"), file=out)
        print(safe_name(f"Path: {chosen.path_text}"), file=out)
        print("-" * 60, file=out)
        print("\n".join(safe_name(line) for line in result.text.splitlines()), file=out)
        print("-" * 60, file=out)
        for problem in result.problems:
            print(safe_name(f"{problem.level}: {problem.file}: {problem.reason}"), file=out)
        if not result.problems:
            print("validator: no findings", file=out)
        if not result.loads:
            print("error: the draft does not load as a skill; nothing was saved", file=sys.stderr)
            return EXIT_FAILED
        if not yes:
            if not stdin.isatty():
                print("error: not saved: no terminal to ask on; run it in a terminal, or add --yes", file=sys.stderr)
                return EXIT_USAGE
            out.write(f"Save it as the skill {result.name}? [y/N] ")
            out.flush()
            if stdin.readline().strip().lower() not in ("y", "yes"):
                print("not saved", file=out)
                return EXIT_FAILED
        try:
            folder = drafting.save(result, runtime.paths.user_skills_dir)
        except (drafting.DraftError, OSError) as exc:
            print(strip_controls(f"error: not saved: {exc}"), file=sys.stderr)
            return EXIT_FAILED
        print(strip_controls(f"saved {folder / 'SKILL.md'}: it is yours (no scripts, nothing to trust) and active "
                             "from the next turn"), file=out)
        return EXIT_OK
    finally:
        if runtime.workflow is not None:
            runtime.workflow.close()
        runtime.drain_usage()
        runtime.store.close()
