"""Sentences a new user met on a first walk through memory and MCP sign-in: "Forgets 1 memories" (one memory is
singular) and "It needs you to sign in (“it needs you to sign in (HTTP 401)”)" (the core's generic reason quoted
inside the same sentence). A specific reason is still quoted."""

from __future__ import annotations

from types import SimpleNamespace

from hermes_desktop.ui.words import impact_text, mcp_detail


def test_one_memory_to_forget_is_singular_and_several_are_counted() -> None:
    one = impact_text("forget_memories", {"memories": [{"id": 2, "statement": "The Apollo report is due Friday."}]},
                      None)
    assert one == "Forgets 1 memory: #2 “The Apollo report is due Friday.”"
    two = impact_text("forget_memories", {"memories": [{"id": 2, "statement": "a"}, {"id": 3, "statement": "b"}]},
                      None)
    assert two == "Forgets 2 memories: #2 “a”; #3 “b”"


def test_needs_sign_in_says_it_once() -> None:
    def detail(reason: str) -> str:
        return mcp_detail(SimpleNamespace(detail_code="needs_sign_in",
                                          detail_params={"reason": reason, "server": "remote"}))

    assert detail("it needs you to sign in (HTTP 401)") == \
        "It needs you to sign in (HTTP 401): sign in from the MCP tab or with hermes-desktop mcp login remote"
    assert detail("it needs you to sign in") == \
        "It needs you to sign in: sign in from the MCP tab or with hermes-desktop mcp login remote"
    specific = detail("the authorization server refused the identity assertion: invalid_grant")
    assert specific.startswith("It needs you to sign in (“the authorization server refused the identity assertion")


def test_remembered_statements_that_end_a_sentence_are_not_followed_by_a_semicolon() -> None:
    from hermes_desktop.ui.chat.items import RememberedItem
    from hermes_desktop.ui.chat.model import remembered_text

    two = RememberedItem(memory_ids=(1, 2), statements=("I prefer short answers in bullet points.",
                                                         "The Apollo project is due on Friday 11 December."))
    assert remembered_text(two) == ("Remembered: I prefer short answers in bullet points. The Apollo project is due "
                                    "on Friday 11 December.")
    bare = RememberedItem(memory_ids=(1, 2), statements=("Prefers tea", "Works at Acme"))
    assert remembered_text(bare) == "Remembered: Prefers tea; Works at Acme"
