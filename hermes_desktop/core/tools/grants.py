"""Session grants: "Allow for this session" covers the kind of effect the user was shown, nothing more.

A grant used to be keyed by the tool alone, so allowing `write_file` to *create* a new file for the session also
let it *overwrite* one, and allowing a delete of two files let the next delete take two hundred (below the
threshold) without a word. A grant is now keyed by the tool (its rule key: name and source identity), the call's
measured risk, and the kind of effect its impact names (`Impact.code`: `create_file`, `overwrite_file`, `move`,
`move_replacing`, `delete_file`, `delete_folder`, ...; a tool without an impact code has the empty kind, so for
it risk alone separates the kinds). A destructive grant also has a ceiling: it covers calls that touch at most as
many files as the largest call the user allowed for that kind (deleting 5 files allowed does not allow 19).

What a grant never does: lift the destructive threshold (core/tools/approval.py asks again above it whatever was
granted) or outlive the session it was given in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hermes_desktop.core.tools.spec import Risk

if TYPE_CHECKING:
    from hermes_desktop.core.tools.approval import ApprovalRequest


@dataclass(frozen=True, slots=True)
class GrantKind:
    """What one session grant is for: a tool (rule key), a risk, and a kind of effect."""

    session_id: str
    rule_key: str
    risk: Risk
    effect: str  # the impact's code ("" when the tool names none)


def grant_kind(request: "ApprovalRequest") -> GrantKind:
    return GrantKind(request.session_id, request.rule_key, request.risk, request.impact_code)


@dataclass
class SessionGrants:
    """The "allow for this session" answers given so far, by kind; for each, the most files a call of it touched."""

    _granted: dict[GrantKind, int] = field(default_factory=dict)

    def grant(self, request: "ApprovalRequest") -> None:
        kind = grant_kind(request)
        self._granted[kind] = max(self._granted.get(kind, 0), request.impact_files)

    def covers(self, request: "ApprovalRequest") -> bool:
        """Whether an earlier grant in this session covers `request`: the same tool, risk and kind of effect, and for
        a destructive call no more files than were allowed."""
        ceiling = self._granted.get(grant_kind(request))
        if ceiling is None:
            return False
        return request.risk is not Risk.DESTRUCTIVE or request.impact_files <= ceiling

    def forget_session(self, session_id: str) -> None:
        self._granted = {kind: files for kind, files in self._granted.items() if kind.session_id != session_id}

    def __len__(self) -> int:
        return len(self._granted)
