"""A web page's main text for fetch_url: the article, not the site's navigation, header, footer and sidebars.

Why here and by hand (docs/providers.md has the whole judgement): trafilatura (Apache-2.0 since 1.8) is the best
general extractor, but it brings lxml, justext, htmldate, courlan and more (tens of MB in the bundle, and a C
parser fed hostile HTML in-process); selectolax (MIT) parses fast but has no main-content rule, so the rule
would be ours anyway. Most pages today say where their parts are, and this reads what they say:
- the parts that are not content: `nav`, `aside`, `footer`, a `header` outside the article, `form`, `dialog`,
  and elements whose ARIA role (navigation, banner, contentinfo, complementary, search, menu, …) or whose id /
  class words (nav, menu, breadcrumb, sidebar, cookie, footer, …) say so, are left out with all they contain;
- when the page marks its content (`main`, `article`, role="main"), only that is read;
- when what is left is nearly nothing (under 80 characters and under a quarter of the page: a page that is all
  links, or one that marks everything as a menu), the whole page's text is returned instead, so a page is never
  read as empty because of this rule.
Scripts, styles and templates are never text. Blocks go on their own lines; headings get `#`, list items `- `.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

_BLOCK_TAGS = frozenset({"p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article", "header", "footer",
                         "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "hr", "nav", "main", "aside", "dd",
                         "dt", "figure", "figcaption", "details", "summary"})
_NEVER_TEXT = frozenset({"script", "style", "noscript", "svg", "template", "iframe", "head", "select", "canvas"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"})
_NOT_CONTENT_TAGS = frozenset({"nav", "aside", "footer", "form", "dialog", "menu"})
_NOT_CONTENT_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar",
                                "toolbar", "dialog", "alertdialog"})
_NOT_CONTENT_WORDS = frozenset({"nav", "navbar", "navigation", "menu", "submenu", "breadcrumb", "breadcrumbs", "sidebar",
                                "footer", "cookie", "cookies", "consent", "masthead", "topbar", "skip", "skiplink",
                                "share", "sharing", "social", "newsletter", "advert", "advertisement", "related"})
_MAIN_TAGS = frozenset({"main", "article"})
# Main text shorter than this, and shorter than a quarter of the page, means the rule found nothing worth reading
# alone: the whole page's text is returned instead.
_MIN_MAIN_CHARS = 80


@dataclass(slots=True)
class _Open:
    tag: str
    not_content: bool
    main: bool
    never_text: bool


def _words(value: str | None) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", (value or "").lower()) if w}


class _PageReader(HTMLParser):
    """Streams the page once, keeping three texts: everything, everything but the non-content parts, and the
    marked main content (without its non-content parts)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.all: list[str] = []
        self.content: list[str] = []
        self.main: list[str] = []
        self.title: list[str] = []
        self.saw_main = False
        self._stack: list[_Open] = []
        self._not_content = self._in_main = self._never = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
            return
        values = dict(attrs)
        role = (values.get("role") or "").strip().lower()
        words = _words(values.get("id")) | _words(values.get("class"))
        is_main = tag in _MAIN_TAGS or role in ("main", "article")
        not_content = (tag in _NOT_CONTENT_TAGS or role in _NOT_CONTENT_ROLES or bool(words & _NOT_CONTENT_WORDS)
                       or (tag == "header" and not self._in_main)
                       or values.get("aria-hidden") == "true" or "hidden" in values)
        if is_main and not self._not_content:
            not_content = False  # <article class="post related-x">: the page said it is the content
            self.saw_main = True
        if tag not in _VOID:
            opened = _Open(tag, not_content, is_main, tag in _NEVER_TEXT)
            self._stack.append(opened)
            self._not_content += opened.not_content
            self._in_main += opened.main
            self._never += opened.never_text
        if tag in _BLOCK_TAGS:
            self._text("\n")
            if tag == "li":
                self._text("- ")
            elif tag in ("h1", "h2", "h3"):
                self._text("#" * int(tag[1]) + " ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS:
            self._text("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
            return
        if any(opened.tag == tag for opened in self._stack):
            # Close up to the matching tag: elements left open inside it (<p>, <li>) end with it.
            while self._stack:
                opened = self._stack.pop()
                self._not_content -= opened.not_content
                self._in_main -= opened.main
                self._never -= opened.never_text
                if opened.tag == tag:
                    break
        if tag in _BLOCK_TAGS:
            self._text("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.append(data)
        else:
            self._text(data)

    def _text(self, text: str) -> None:
        if self._never:
            return
        self.all.append(text)
        if not self._not_content:
            self.content.append(text)
            if self._in_main:
                self.main.append(text)


def _tidy(parts: list[str]) -> str:
    lines = [re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in "".join(parts).split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def main_text(html: str) -> tuple[str, str]:
    """(title, main text) of an HTML page (module docstring)."""
    reader = _PageReader()
    reader.feed(html)
    reader.close()
    title = " ".join("".join(reader.title).split())
    whole = _tidy(reader.all)
    for candidate in ((reader.main if reader.saw_main else []), reader.content):
        text = _tidy(candidate)
        if text and len(text) >= min(_MIN_MAIN_CHARS, len(whole) // 4):
            return title, text
    return title, whole


def html_to_text(html: str) -> tuple[str, str]:
    """(title, readable text): the page's main text. Kept under its old name for the callers that use it."""
    return main_text(html)
