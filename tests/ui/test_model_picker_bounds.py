"""A server that lists more models than the picker keeps (or names with control characters): the picker shows the
first MAX_MODELS and says how many more were left out (core/model_catalog.py). The real window and picker against
the scripted server's /models over HTTP."""

from __future__ import annotations

from hermes_desktop.core.model_catalog import MAX_MODELS
from tests.ui.test_model_picker import KIND_ROLE, PROFILE_ROLE, model_items, open_picker, providers, second_server, tree  # noqa: F401


def test_the_picker_lists_at_most_max_models_and_says_how_many_more_there_were(make_window, model_server,
                                                                                providers) -> None:  # noqa: F811
    model_server.models = ["scripted-model"] + [f"bulk-{n:05d}" for n in range(MAX_MODELS + 250)] + ["bad\x1bname"]
    h = make_window(configured=False)
    open_picker(h, listing=("main", "bulk-00000"))
    h.wait_until(lambda: not h.window.model_picker.refreshing, what="the lists")
    listed = [name for (profile, name) in model_items(h) if profile == "main"]
    assert len(listed) <= MAX_MODELS + 2  # the profile's model and the hand-typed one come first
    assert "bad\x1bname" not in listed
    view = tree(h)
    main = next(view.topLevelItem(t) for t in range(view.topLevelItemCount())
                if view.topLevelItem(t).data(0, PROFILE_ROLE) == "main"
                and view.topLevelItem(t).data(0, KIND_ROLE) == "profile")
    notes = [main.child(i).text(0) for i in range(main.childCount()) if main.child(i).data(0, KIND_ROLE) == "error"]
    assert notes and notes[0] == f"252 more not listed (at most {MAX_MODELS:,})", notes
