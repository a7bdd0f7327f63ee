"""Where the formulas are in a reply: the four delimiters, prices that stay prices, code that is never touched,
and a formula found only once its closing delimiter has arrived (core/markdown_math.py)."""

from __future__ import annotations

import pytest

from hermes_desktop.core.markdown_math import (
    display_span,
    find_math,
    match_at,
    math_url,
    may_hold_math,
    parse_math_url,
    split_source,
)


def sources(text: str) -> list[str]:
    return [span.source for span in find_math(text)]


def test_inline_and_display_in_all_four_forms() -> None:
    text = r"Let $x^2$ and \(y_1\) be; then $$\int_0^1 x\,dx$$ and \[\frac{a}{b}\]."
    spans = find_math(text)
    assert [(s.latex, s.display, s.opener) for s in spans] == [
        ("x^2", False, "$"), ("y_1", False, "\\("), (r"\int_0^1 x\,dx", True, "$$"), (r"\frac{a}{b}", True, "\\[")]
    for span in spans:
        assert text[span.start:span.end] == span.source


@pytest.mark.parametrize("text", [
    "It costs $5 and $10.",
    "costs $3.50",
    "between $5-$10 a month",
    "$20k/$30k",
    "$5, $6, and $7",
    "US$5 and US$10",
    "from $10 and then 5$ more",  # starts with a digit and has prose in it: a price
    "$5 and $10 and x$",  # the first $ after the opening one is no closing one: no formula at all
    "pay $ 5 and $ 10",
    "a lone $",
])
def test_dollar_amounts_are_not_math(text: str) -> None:
    assert find_math(text) == []
    assert not may_hold_math(text) or "$ " in text or "x$" in text


def test_math_after_a_price_is_still_math() -> None:
    assert sources("It costs $5; the area is $x^2$, i.e. $2x$ per $3$ units.") == ["$x^2$", "$2x$", "$3$"]


def test_an_escaped_dollar_is_a_dollar() -> None:
    assert sources(r"\$5 and \$10 but $a$") == ["$a$"]
    assert sources(r"$\$5 + x$") == [r"$\$5 + x$"]  # \$ inside a formula does not close it


def test_code_spans_are_never_touched() -> None:
    assert sources("Use `$HOME` and `$PATH`, or `a$` `$b`.") == []
    assert sources("``$x$ ` still code``, then $y$") == ["$y$"]
    assert sources("an unclosed ` backtick and $z$") == ["$z$"]
    assert match_at("$a `b` c$", 0) is None  # no formula holds a backtick: a code span is never cut by one


def test_unclosed_formulas_are_text_until_the_closing_delimiter_arrives() -> None:
    whole = r"The integral $\int_0^1 x^2\,dx$ is \(\frac13\)."
    for end in range(len(whole)):
        for span in find_math(whole[:end]):
            assert span.end <= end and span.source in whole
    assert sources(whole[:whole.index("dx$") + 2]) == []
    assert sources(whole[:whole.index("dx$") + 3]) == [r"$\int_0^1 x^2\,dx$"]
    assert sources(r"open \(x and $$y") == []


def test_a_blank_line_ends_any_formula() -> None:
    assert sources("$a\n\nb$") == [] and sources("$$a\n\nb$$") == []
    assert sources("$a\nb$") == ["$a\nb$"]


def test_display_formula_on_lines_of_its_own() -> None:
    assert display_span(["$$", r"\int_0^1 x\,dx", "+ c", "$$"], "$$") == "\n\\int_0^1 x\\,dx\n+ c\n"
    assert display_span([r"\[ x^2 \]"], "\\[") == " x^2 "
    assert display_span(["$$", "", "$$"], "$$") is None
    assert display_span(["$$ a", "b `c`", "$$"], "$$") is None


def test_the_url_carries_the_source_and_colour_back() -> None:
    for source in ("$x^2$", r"\(\frac{1}{2}\)", "$$\n\\int f\\,dx\n$$", r"\[\text{é ü 你好}\]"):
        url = math_url(source, "#1f2328")
        assert url.startswith("math:1f2328/") and '"' not in url and " " not in url
        assert parse_math_url(url) == (source, "#1f2328")
        latex, display = split_source(source)
        assert latex in source and len(latex) < len(source) and display == source.startswith(("$$", "\\["))
    assert parse_math_url("https://example.com") is None
    assert parse_math_url("math:000000/%%%") is None


def test_may_hold_math_is_cheap_and_ignores_prices() -> None:
    assert may_hold_math(r"the area $x") and may_hold_math(r"\(") and may_hold_math("$$")
    assert not may_hold_math("It costs $5 and $10.")
