"""The main text of an HTML page, not its navigation: headings, paragraphs, lists and tables, in order.

A small stdlib `HTMLParser` pass (linear in the page; no dependency): the contents of `script`, `style`, `nav`,
`header`, `footer`, `aside`, `form`, `noscript`, `template`, `svg`, `iframe`, and of elements whose role is
navigation/banner/contentinfo/search or whose id or class names a menu, sidebar, breadcrumb, cookie banner or footer,
are left out. When the page has a `<main>` or `<article>`, only what is inside it is kept. Headings `h1`–`h6` start
sections with a heading path; the `<title>` heads the document when the page has no heading.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hermes_desktop.core.documents.model import Section

_SKIP = frozenset("script style nav header footer aside form noscript template svg iframe button select "
                  "object canvas".split())
_ROLES = frozenset("navigation banner contentinfo search complementary menu menubar".split())
_NOISE = re.compile(r"(^|[\s_-])(nav|navbar|navigation|menu|sidebar|breadcrumbs?|cookie|footer|masthead|"
                    r"site-header|skip-link|toolbar|share|social|advert|ads)([\s_-]|$)", re.I)
_BLOCK = frozenset("p div li ul ol table tr section article main blockquote pre br dd dt dl figcaption h1 h2 h3 h4 "
                   "h5 h6 td th hr".split())
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped here, main here)
        self.skip = 0
        self.main = 0
        self.saw_main = False
        self.title: list[str] = []
        self.in_title = False
        self.heading: list[str] | None = None
        self.heading_level = 0
        # (in main?, heading level or 0, text) pieces in document order; "\n\n" marks a block break
        self.pieces: list[tuple[bool, int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if tag == "title":
            self.in_title = True
            return
        if tag in _VOID:
            if tag in ("br", "hr") and not self.skip:
                self.pieces.append((self.main > 0, 0, "\n"))
            return
        names = " ".join(v or "" for k, v in attrs if k in ("id", "class"))
        role = next((v or "" for k, v in attrs if k == "role"), "").lower()
        skipped = tag in _SKIP or role in _ROLES or bool(_NOISE.search(names)) or \
            any(k == "hidden" or (k == "aria-hidden" and v == "true") for k, v in attrs)
        main = tag in ("main", "article") or role == "main"
        self.stack.append((tag, skipped, main))
        self.skip += skipped
        self.main += main
        self.saw_main = self.saw_main or (main and not self.skip)
        if re.fullmatch(r"h[1-6]", tag) and not self.skip:
            self.heading, self.heading_level = [], int(tag[1])
        elif tag in _BLOCK and not self.skip:
            self.pieces.append((self.main > 0, 0, "\n\n"))
        if tag in ("td", "th") and not self.skip:
            self.pieces.append((self.main > 0, 0, " | "))

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if tag == "title":
            self.in_title = False
            return
        if tag in _VOID or not any(t == tag for t, _, _ in self.stack):
            return  # a stray end tag
        while self.stack:  # close what was left open inside (<p> without </p>)
            open_tag, skipped, main = self.stack.pop()
            self.skip -= skipped
            self.main -= main
            if open_tag == tag:
                break
        if re.fullmatch(r"h[1-6]", tag) and self.heading is not None:
            title = " ".join("".join(self.heading).split())
            if title:
                self.pieces.append((self.main > 0 or self._inside_main(), self.heading_level, title))
            self.heading = None
        elif tag in _BLOCK and not self.skip:
            self.pieces.append((self.main > 0, 0, "\n\n"))

    def _inside_main(self) -> bool:
        return any(m for _, _, m in self.stack)

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
            return
        if self.skip:
            return
        if self.heading is not None:
            self.heading.append(data)
            return
        self.pieces.append((self.main > 0, 0, data))


def html_sections(html: str) -> list[Section]:
    parser = _Extractor()
    parser.feed(html)
    parser.close()
    keep = [(level, text) for in_main, level, text in parser.pieces if in_main or not parser.saw_main]
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    title = " ".join("".join(parser.title).split())
    if title and not any(level for level, _ in keep):
        path.append((0, title))
    body: list[str] = []

    def close() -> None:
        text = "".join(body)
        paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
        joined = "\n\n".join(p for p in paragraphs if p)
        if joined:
            sections.append(Section(joined, None, tuple(t for _, t in path)))
        body.clear()

    for level, text in keep:
        if level:
            close()
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, text))
        else:
            body.append(text)
    close()
    return sections
