"""Geometry of one transcript row: where each document, label and clickable link goes.

A row's layout depends only on its item's visible state and the width, so it is
computed once and cached (see delegate.py). Message text is laid out as one
QTextDocument per Markdown block; documents are cached by (block, width, font), so
while a reply streams only its last block is laid out again.

A reply's thinking (items.thinking_state) is a toggle line ("▾ Thinking… 4 s", "▸ Thought for 12 s") above
its text and, when open, the reasoning as plain muted text beside a thin rule. While it streams only its last
LIVE_THINKING_CHARS characters are laid out (the whole of it is shown once it is finished).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QTextDocument, QTextOption

from hermes_desktop.ui import design
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui import words
from hermes_desktop.ui.chat.items import (
    DENIED,
    DONE,
    FAILED,
    INTERRUPTED,
    PENDING,
    RUNNING,
    WAITING,
    BannerItem,
    Item,
    MessageItem,
    NoticeItem,
    RememberedItem,
    SummaryItem,
    ToolCardItem,
    thinking_display,
    thinking_seconds,
    thinking_state,
)
from hermes_desktop.ui.chat.markdown_render import (
    is_list_block, references_of, render_block, set_copy_label, split_blocks_at,
)
from hermes_desktop.ui.citations import link_citations
from hermes_desktop.ui.chat.model import note_heading, remembered_text

# One column grid for every row (ui/design.py): boxes start CHAT_MARGIN from the left and end CHAT_MARGIN from the
# right (the user bubble too), with the same padding inside the bubble and the cards.
MARGIN_X = design.CHAT_MARGIN
PAD_Y = design.ROW_GAP
BLOCK_GAP = design.BLOCK_GAP
BUBBLE_PAD = design.BOX_PAD
FOOTER_H = 22.0
CARD_PAD = design.BOX_PAD
LINK_ICON = 12  # the icon before a footer link (Copy, Edit, Fork, Regenerate)
LINK_ICONS = frozenset({"copy", "edit", "fork", "regenerate"})

def _copy_label(item: Any) -> str:
    """A message's Copy link, which says "Copied" for a moment after a click (issue 24: nothing said it worked)."""
    if getattr(item, "copied", False):
        return QCoreApplication.translate("Transcript", "Copied", "a message's Copy link, just after the click")
    return QCoreApplication.translate("Transcript", "Copy")
RESULT_PREVIEW_LINES = 24
USER_BUBBLE_RATIO = 0.78
LIVE_THINKING_CHARS = 4000
THINKING_INDENT = design.BOX_PAD  # a quote (thinking, an open summary) is inset one box padding


@dataclass
class DocPart:
    origin: QPointF
    doc: QTextDocument
    code: str | None = None  # for a code block: what its Copy link copies
    muted: bool = False  # drawn in the muted colour (a reply's thinking)


@dataclass
class TextPart:
    rect: QRectF
    text: str
    role: str  # header | muted | status | link | badge | name | tag
    colour: str = ""
    icon: str = ""  # a link's icon (ui/icons.py), drawn before its text


@dataclass
class Hit:
    rect: QRectF
    action: str
    payload: Any = None
    hover_only: bool = False


@dataclass
class ImagePart:
    """An attached image's thumbnail under a user message (painted by the delegate from the stored file)."""

    rect: QRectF
    ref: Any  # AttachmentRef


@dataclass
class RowLayout:
    height: float
    images: list[ImagePart] = field(default_factory=list)
    docs: list[DocPart] = field(default_factory=list)
    texts: list[TextPart] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    background: QRectF | None = None
    background_kind: str = ""  # bubble | card | error | stopped | notice
    hover_texts: list[TextPart] = field(default_factory=list)  # drawn only under the mouse
    rules: list[QRectF] = field(default_factory=list)  # thin bars beside quoted text (a reply's thinking)


class DocumentCache:
    """QTextDocuments by (html, width, font): a finished block is laid out once per width.

    800 documents are a few screens of rows (the delegate also keeps the layouts of the last rows painted);
    3,000 held ~65 MB after scrolling through a 10,000-message session (tests/benchmarks/bench_window.py)."""

    def __init__(self, capacity: int = 800) -> None:
        self._docs: OrderedDict[tuple[str, int, str, bool], QTextDocument] = OrderedDict()
        self._capacity = capacity

    def get(self, html: str, width: float, font: QFont, *, plain: bool = False) -> QTextDocument:
        key = (html, int(width), font.key(), plain)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        doc = QTextDocument()
        doc.setDefaultFont(font)
        doc.setDocumentMargin(0)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        doc.setDefaultTextOption(option)
        if plain:
            doc.setPlainText(html)
        else:
            if "math:" in html:  # a reply's formulas are images (math_images.py, imported on the first one)
                from hermes_desktop.ui.chat.math_images import add_math_images

                doc.setHtml(add_math_images(doc, html, font, width))
            else:
                doc.setHtml(html)
        doc.setTextWidth(max(40.0, width))
        self._docs[key] = doc
        if len(self._docs) > self._capacity:
            self._docs.popitem(last=False)
        return doc

    def clear(self) -> None:
        self._docs.clear()


def signature(item: Item) -> tuple[Any, ...]:
    """Everything about an item that changes its layout."""
    if isinstance(item, MessageItem):
        thinking = (thinking_state(item), len(item.reasoning), item.reasoning_ms, item.thinking,
                    thinking_seconds(item) if item.thinking else None) if item.reasoning else ()
        return ("m", item.role, len(item.text), item.text[-64:], item.streaming, item.interrupted, len(item.attachments), item.versions,
                thinking_display(), thinking, item.copied, item.continues)
    if isinstance(item, ToolCardItem):
        elapsed = item.elapsed()
        return ("c", item.status, item.args_open, item.result_open, item.show_all, len(item.result or ""),
                item.impact, item.decided_by, None if elapsed is None else round(elapsed, 1))
    if isinstance(item, BannerItem):
        return ("b", item.message, item.actions, item.level)
    if isinstance(item, SummaryItem):
        return ("s", item.open, item.covered_messages, item.tokens, item.text)
    if isinstance(item, RememberedItem):
        return ("r", item.statements, item.state)
    return ("n", item.text)


@dataclass
class _StablePrefix:
    """The laid-out start of a streaming reply that can no longer change (all but its last blocks)."""

    width: float
    palette: Any
    chars: int  # text[:chars] is laid out
    tail: str  # its last characters, to notice a text that did not just grow
    parts: list[DocPart]
    y: float
    top: float = 0.0  # where the text started: the thinking section above it can change height (it collapses)
    references: tuple = ()  # the link definitions it was rendered with: a new one re-renders the blocks citing it


class RowLayouter:
    def __init__(self, font: QFont) -> None:
        set_copy_label(QCoreApplication.translate("Transcript", "Copy", "a code block's link"))
        self.docs = DocumentCache()
        self._prefixes: dict[str, _StablePrefix] = {}
        self.set_font(font)

    def set_font(self, font: QFont) -> None:
        self.font = QFont(font)
        self.small = design.small(font)
        self.bold_small = QFont(self.small)
        self.bold_small.setBold(True)
        self.italic_small = QFont(self.small)  # made here, not while painting
        self.italic_small.setItalic(True)
        self.mono = QFont("monospace")
        self.mono.setStyleHint(QFont.StyleHint.Monospace)
        self.mono.setPointSizeF(self.small.pointSizeF())
        self.metrics = QFontMetricsF(self.font)
        self.small_metrics = QFontMetricsF(self.small)
        self.bold_small_metrics = QFontMetricsF(self.bold_small)
        self.docs.clear()
        self._prefixes.clear()

    # ------------------------------------------------------------------ estimates
    def estimate(self, item: Item, width: float) -> float:
        """A cheap height for rows not laid out yet (never painted): no documents are built."""
        if not isinstance(item, MessageItem):
            return self.layout(item, width).height
        inner = max(80.0, width - 2 * MARGIN_X - (2 * BUBBLE_PAD if item.role == "user" else 0))
        per_line = max(8.0, inner / max(1.0, self.metrics.averageCharWidth()))
        lines = 0
        for line in item.text.split("\n"):
            wide = sum(1 for ch in line if ord(ch) > 0x2E80)
            lines += max(1, math.ceil((len(line) + wide) / per_line))
        header = 0.0 if item.role == "user" or item.continues else self.small_metrics.height() + 4
        if item.role == "assistant" and thinking_state(item) != "none":
            header += self.small_metrics.height() + 4  # the thinking toggle; an open section is laid out exactly
        return PAD_Y * 2 + header + lines * self.metrics.lineSpacing() + FOOTER_H + (2 * BUBBLE_PAD if item.role == "user" else 0)

    # ------------------------------------------------------------------ layouts
    def layout(self, item: Item, width: float) -> RowLayout:
        if isinstance(item, MessageItem):
            return self._user(item, width) if item.role == "user" else self._assistant(item, width)
        if isinstance(item, ToolCardItem):
            return self._card(item, width)
        if isinstance(item, BannerItem):
            return self._banner(item, width)
        if isinstance(item, SummaryItem):
            return self._summary(item, width)
        if isinstance(item, RememberedItem):
            return self._remembered(item, width)
        return self._notice(item, width)

    def _footer(self, layout: RowLayout, y: float, actions: list[tuple[str, str]], *, right: float | None, left: float) -> None:
        x = left
        spans = []
        for label, action in actions:
            w = self.small_metrics.horizontalAdvance(label) + (LINK_ICON + design.XS if action in LINK_ICONS else 0)
            spans.append((label, action, w))
        total = sum(w for _, _, w in spans) + design.LINK_GAP * (len(spans) - 1)
        if right is not None:
            x = right - total
        for label, action, w in spans:
            rect = QRectF(x, y + 3, w, self.small_metrics.height())
            layout.hover_texts.append(TextPart(rect, label, "link", icon=action if action in LINK_ICONS else ""))
            layout.hits.append(Hit(rect, action, hover_only=True))
            x += w + design.LINK_GAP

    def _user(self, item: MessageItem, width: float) -> RowLayout:
        available = max(120.0, (width - 2 * MARGIN_X) * USER_BUBBLE_RATIO) - 2 * BUBBLE_PAD
        doc = self.docs.get(item.text, available, self.font, plain=True)
        text_w = min(available, doc.idealWidth() + 1)
        if text_w < available:
            doc = self.docs.get(item.text, text_w, self.font, plain=True)
        bubble_w = text_w + 2 * BUBBLE_PAD
        bubble_h = doc.size().height() + 2 * BUBBLE_PAD
        left = width - MARGIN_X - bubble_w
        layout = RowLayout(height=PAD_Y + bubble_h + FOOTER_H + PAD_Y / 2)
        layout.background = QRectF(left, PAD_Y, bubble_w, bubble_h)
        layout.background_kind = "bubble"
        layout.docs.append(DocPart(QPointF(left + BUBBLE_PAD, PAD_Y + BUBBLE_PAD), doc))
        attached = self._attachments(layout, item, PAD_Y + bubble_h, width)
        layout.height += attached
        self._footer(layout, PAD_Y + bubble_h + attached, [(_copy_label(item), "copy"), (QCoreApplication.translate("Transcript", "Edit"), "edit"), (QCoreApplication.translate("Transcript", "Fork"), "fork")],
                     right=width - MARGIN_X, left=left)
        self._versions(layout, item, PAD_Y + bubble_h + attached, left)
        return layout

    def _attachments(self, layout: RowLayout, item: MessageItem, y: float, width: float) -> float:
        """Thumbnails (images) and name chips (files) under a user message, right-aligned; click opens. Returns
        the height they take."""
        if not item.attachments:
            return 0.0
        right, gap = width - MARGIN_X, 6.0
        sized = []
        for ref in item.attachments:
            if getattr(ref, "kind", "") == "image":
                sized.append((ref, *_thumb_size(getattr(ref, "width", None), getattr(ref, "height", None))))
            else:
                sized.append((ref, self.small_metrics.horizontalAdvance(ref.name) + 20, self.small_metrics.height() + 8))
        lines: list[list[tuple[Any, float, float]]] = [[]]
        for entry in sized:  # in order, wrapped to the row's width
            used = sum(w for _, w, _ in lines[-1]) + gap * len(lines[-1])
            if lines[-1] and used + entry[1] > right - MARGIN_X:
                lines.append([])
            lines[-1].append(entry)
        top = y + 6
        for line in lines:  # each line right-aligned, first attachment leftmost
            x = right - (sum(w for _, w, _ in line) + gap * (len(line) - 1))
            row_h = max(h for _, _, h in line)
            for ref, w, h in line:
                rect = QRectF(x, top + row_h - h, w, h)
                if getattr(ref, "kind", "") == "image":
                    layout.images.append(ImagePart(rect, ref))
                else:
                    layout.texts.append(TextPart(rect, ref.name, "button"))
                layout.hits.append(Hit(rect, "open_attachment", ref))
                x += w + gap
            top += row_h + gap
        return top - gap - y

    def _versions(self, layout: RowLayout, item: MessageItem, y: float, x: float) -> None:
        """"‹ 2/3 ›" under a message that was edited or regenerated: each version leads to its own branch."""
        if len(item.versions) < 2:
            return
        index = item.version_index
        h = self.small_metrics.height()
        label = f"{index + 1}/{len(item.versions)}"
        for text, target in (("‹", index - 1), (label, None), ("›", index + 1)):
            w = self.small_metrics.horizontalAdvance(text) + 8
            rect = QRectF(x, y + 3, w, h)
            if target is None:
                layout.texts.append(TextPart(rect, text, "muted"))
            elif 0 <= target < len(item.versions):
                layout.texts.append(TextPart(rect, text, "link"))
                layout.hits.append(Hit(rect, "version", item.versions[target]))
            else:
                layout.texts.append(TextPart(rect, text, "muted"))
            x += w

    def _assistant(self, item: MessageItem, width: float) -> RowLayout:
        inner = max(80.0, width - 2 * MARGIN_X)
        layout = RowLayout(height=0)
        # A later round of the turn (after its tool cards) sits under the first round's header, as close to the
        # card above as cards are to each other.
        y = PAD_Y / 2 if item.continues else self._reply_header(item, layout, PAD_Y, inner)
        y = self._thinking(item, layout, y, inner)
        y = self._blocks(item, layout, y, inner, width)
        if item.interrupted:
            label = QCoreApplication.translate("Transcript", "interrupted — the reply stopped here")
            layout.texts.append(TextPart(QRectF(MARGIN_X, y, inner, self.small_metrics.height()), label, "tag"))
            y += self.small_metrics.height() + 2
        if not item.streaming and (item.text or not item.reasoning):
            versions_width = 0.0
            if len(item.versions) > 1:
                self._versions(layout, item, y, MARGIN_X)
                versions_width = 90.0
            self._footer(layout, y, [(_copy_label(item), "copy"), (QCoreApplication.translate("Transcript", "Regenerate"), "regenerate"), (QCoreApplication.translate("Transcript", "Fork"), "fork")],
                         right=None, left=MARGIN_X + versions_width)
        # A reply that only thought (before its tool calls) has no text to copy: no footer gap under it.
        layout.height = y + (0 if item.reasoning and not item.text and not item.streaming else FOOTER_H) + PAD_Y / 2
        return layout

    def _reply_header(self, item: MessageItem, layout: RowLayout, y: float, inner: float) -> float:
        """The line that heads a turn's reply: "Hermes", the model that wrote it in small plain text, "writing…" while
        it streams; returns the y below it. A long model name is elided in the middle (its start and its version
        both matter), so "writing…" always shows."""
        height = self.small_metrics.height()
        name = QCoreApplication.translate("Transcript", "Hermes")
        name_w = self.bold_small_metrics.horizontalAdvance(name) + 1
        layout.texts.append(TextPart(QRectF(MARGIN_X, y, name_w, height), name, "header"))
        writing = "  ·  " + QCoreApplication.translate("Transcript", "writing…") if item.streaming else ""
        room = inner - name_w - self.small_metrics.horizontalAdvance(writing)
        rest = writing
        if item.model:
            model = self.small_metrics.elidedText("  ·  " + item.model, Qt.TextElideMode.ElideMiddle, max(0.0, room))
            rest = model + writing
        if rest:
            layout.texts.append(TextPart(QRectF(MARGIN_X + name_w, y, max(0.0, inner - name_w), height), rest, "muted"))
        return y + height + 4

    def _thinking(self, item: MessageItem, layout: RowLayout, y: float, inner: float) -> float:
        """The reply's "Thinking" section: a toggle line, and the reasoning below it when open."""
        state = thinking_state(item)
        if state == "none":
            return y
        seconds = thinking_seconds(item)
        if item.thinking:
            label = QCoreApplication.translate("Transcript", "Thinking…")
            if seconds:
                label += " " + QCoreApplication.translate("Transcript", "{0} s").format(seconds)
        elif seconds is not None:
            label = QCoreApplication.translate("Transcript", "Thought for {0} s").format(seconds)
        else:
            label = QCoreApplication.translate("Transcript", "Thinking")
        label = ("▾ " if state == "open" else "▸ ") + label
        height = self.small_metrics.height()
        rect = QRectF(MARGIN_X, y, self.small_metrics.horizontalAdvance(label) + 4, height)
        layout.texts.append(TextPart(rect, label, "link"))
        layout.hits.append(Hit(rect, "toggle_thinking"))
        y += height + 4
        if state == "open":
            # While it streams only the tail is shown: cut before stripping, not the whole thought on every flush.
            raw = item.reasoning[-(LIVE_THINKING_CHARS + 64):] if item.thinking else item.reasoning
            text = raw.strip()
            if item.thinking and len(text) > LIVE_THINKING_CHARS:
                text = "…" + text[-LIVE_THINKING_CHARS:]
            elif item.thinking and len(raw) < len(item.reasoning):
                text = "…" + text
            doc = self.docs.get(text, inner - THINKING_INDENT, self.small, plain=True)
            layout.docs.append(DocPart(QPointF(MARGIN_X + THINKING_INDENT, y), doc, muted=True))
            layout.rules.append(QRectF(MARGIN_X + 3, y, 2, doc.size().height()))
            y += doc.size().height() + BLOCK_GAP + 2
        return y

    def _blocks(self, item: MessageItem, layout: RowLayout, y: float, inner: float, width: float) -> float:
        """Lay out the message's Markdown blocks. While it streams, the blocks before the last two are
        kept from the previous layout, so each update costs the new text, not the whole reply."""
        palette = themes.current().markdown
        text = item.text
        references = references_of(text)  # `[1]: …` anywhere in the message serves `[x][1]` in every block
        prefix = self._prefixes.get(item.key)
        if prefix is not None and not (prefix.width == width and prefix.palette is palette and len(text) >= prefix.chars
                                       and text[prefix.chars - len(prefix.tail):prefix.chars] == prefix.tail
                                       and prefix.top == y and prefix.references == references):
            prefix = None
        top = y
        start = prefix.chars if prefix else 0
        if prefix:
            layout.docs.extend(prefix.parts)
            y = prefix.y
        blocks = split_blocks_at(text[start:]) or ([(0, "")] if item.streaming else [])
        stable_chars, stable_parts, stable_y = start, list(prefix.parts) if prefix else [], y
        for index, (offset, block) in enumerate(blocks):
            if item.streaming and index == len(blocks) - 2 and index > 0 and not is_list_block(blocks[index - 1][1]):
                stable_chars, stable_parts, stable_y = start + offset, list(layout.docs), y
            rendered = render_block(link_citations(block) if item.role == "assistant" else block, palette, references)
            doc = self.docs.get(rendered.html, inner, self.font)
            layout.docs.append(DocPart(QPointF(MARGIN_X, y), doc, rendered.code))
            y += doc.size().height() + BLOCK_GAP
        if item.streaming:
            self._prefixes[item.key] = _StablePrefix(width, palette, stable_chars, text[max(0, stable_chars - 32):stable_chars],
                                                     stable_parts, stable_y, top, references)
        else:
            self._prefixes.pop(item.key, None)
        return y

    def _card(self, card: ToolCardItem, width: float) -> RowLayout:
        theme = themes.current()
        left, inner = MARGIN_X, max(120.0, width - 2 * MARGIN_X)
        layout = RowLayout(height=0)
        y = PAD_Y / 2 + CARD_PAD
        x = left + CARD_PAD
        line_h = self.small_metrics.height()
        badge = words.risk_name(card.risk)
        badge_w = self.small_metrics.horizontalAdvance(badge) + 12
        layout.texts.append(TextPart(QRectF(x, y, badge_w, line_h + 2), badge, "badge", theme.risk_colour(card.risk)))
        x += badge_w + 8
        name_w = self.bold_small_metrics.horizontalAdvance(card.name)
        layout.texts.append(TextPart(QRectF(x, y, name_w + 2, line_h + 2), card.name, "name"))
        x += name_w + 10
        source = words.source_short(card.source)
        source_w = self.small_metrics.horizontalAdvance(source) + 2
        layout.texts.append(TextPart(QRectF(x, y, source_w, line_h + 2), source, "muted"))
        status, colour = self._status(card)
        status_w = self.small_metrics.horizontalAdvance(status) + 2
        status_x = left + inner - CARD_PAD - status_w
        if x + source_w + 8 > status_x:  # a narrow column: the status gets a line of its own, not drawn over the name
            y += line_h + 4
            status_x = left + CARD_PAD
        layout.texts.append(TextPart(QRectF(status_x, y, status_w, line_h + 2), status, "status", colour))
        y += line_h + 8
        if card.impact:
            doc = self.docs.get(card.impact, inner - 2 * CARD_PAD, self.small, plain=True)
            layout.docs.append(DocPart(QPointF(left + CARD_PAD, y), doc))
            y += doc.size().height() + 6
        problem = words.tool_error_text(card.result, card.source)  # the model's English result, said for the user
        if problem:
            doc = self.docs.get(problem, inner - 2 * CARD_PAD, self.small, plain=True)
            layout.docs.append(DocPart(QPointF(left + CARD_PAD, y), doc))
            y += doc.size().height() + 6
        if card.status == WAITING:
            y = self._approval_buttons(layout, card, y, left)
        y = self._toggle(layout, y, ("▾ " if card.args_open else "▸ ") + QCoreApplication.translate("Transcript", "Arguments"), "toggle_args", left)
        if card.args_open:
            doc = self.docs.get(card.arguments, inner - 3 * CARD_PAD, self.mono, plain=True)
            layout.docs.append(DocPart(QPointF(left + 2 * CARD_PAD, y), doc))
            y += doc.size().height() + 6
        if card.result is not None:
            size = len(card.result)
            # A call that never ran has no result of its own, only the note the model is sent about it.
            label = words.result_label(size, note=card.status == INTERRUPTED)
            y = self._toggle(layout, y, ("▾ " if card.result_open else "▸ ") + label, "toggle_result", left)
            if card.result_open:
                lines = card.result.split("\n")
                shown = card.result if card.show_all or len(lines) <= RESULT_PREVIEW_LINES else \
                    "\n".join(lines[:RESULT_PREVIEW_LINES])
                doc = self.docs.get(shown, inner - 3 * CARD_PAD, self.mono, plain=True)
                layout.docs.append(DocPart(QPointF(left + 2 * CARD_PAD, y), doc))
                y += doc.size().height() + 6
                if shown is not card.result and shown != card.result:
                    y = self._toggle(layout, y, words.show_all_label(len(lines)), "show_all",
                                     left + CARD_PAD)
        y += CARD_PAD - 4
        layout.background = QRectF(left, PAD_Y / 2, inner, y - PAD_Y / 2)
        layout.background_kind = "card"
        layout.height = y + PAD_Y / 2
        return layout

    def _approval_buttons(self, layout: RowLayout, card: ToolCardItem, y: float, left: float) -> float:
        """The dialog's choices on the card too, so a call can be decided from the transcript."""
        x = left + CARD_PAD
        choices = [("deny", QCoreApplication.translate("Transcript", "Deny")), ("allow_once", QCoreApplication.translate("Transcript", "Allow once")), ("allow_session", QCoreApplication.translate("Transcript", "Allow for this session"))]
        if not card.over_threshold:
            choices.append(("allow_always", QCoreApplication.translate("Transcript", "Always allow")))
        height = self.small_metrics.height() + 6
        for decision, label in choices:
            width = self.small_metrics.horizontalAdvance(label) + 16
            rect = QRectF(x, y, width, height)
            layout.texts.append(TextPart(rect, label, "button"))
            layout.hits.append(Hit(rect, f"approve:{decision}", card.call_id))
            x += width + 8
        return y + height + 8

    def _toggle(self, layout: RowLayout, y: float, label: str, action: str, left: float) -> float:
        rect = QRectF(left + CARD_PAD, y, self.small_metrics.horizontalAdvance(label) + 4, self.small_metrics.height())
        layout.texts.append(TextPart(rect, label, "link"))
        layout.hits.append(Hit(rect, action))
        return y + self.small_metrics.height() + 6

    def _status(self, card: ToolCardItem) -> tuple[str, str]:
        theme = themes.current()
        elapsed = card.elapsed()
        if card.status == WAITING:
            return QCoreApplication.translate("Transcript", "waiting for your approval"), theme.risk_write
        if card.status == PENDING:
            return QCoreApplication.translate("Transcript", "queued"), theme.muted
        if card.status == RUNNING:
            return words.running_status(elapsed), theme.accent
        if card.status == DONE:
            return words.done_status(elapsed, card.decision, card.decided_by), theme.risk_read
        if card.status in (FAILED, "timed out"):
            return words.status_word(card.status), theme.risk_destructive
        if card.status == DENIED:
            return words.denied_status(card.decided_by), theme.risk_destructive
        if card.status == INTERRUPTED:  # the reply was cut off while the model wrote this call
            return words.status_word(INTERRUPTED), theme.risk_write
        return words.status_word(card.status), theme.muted

    def _banner(self, banner: BannerItem, width: float) -> RowLayout:
        left, inner = MARGIN_X, max(120.0, width - 2 * MARGIN_X)
        doc = self.docs.get(banner.message, inner - 2 * CARD_PAD, self.font, plain=True)
        layout = RowLayout(height=0)
        y = PAD_Y / 2 + CARD_PAD
        layout.docs.append(DocPart(QPointF(left + CARD_PAD, y), doc))
        y += doc.size().height() + 8
        x = left + CARD_PAD
        for action in banner.actions:
            label = _action_label(action)
            w = self.small_metrics.horizontalAdvance(label) + 4
            rect = QRectF(x, y, w, self.small_metrics.height())
            layout.texts.append(TextPart(rect, label, "link"))
            layout.hits.append(Hit(rect, f"banner:{action}"))
            x += w + 18
        if banner.actions:
            y += self.small_metrics.height() + 4
        y += CARD_PAD - 4
        layout.background = QRectF(left, PAD_Y / 2, inner, y - PAD_Y / 2)
        layout.background_kind = "error" if banner.level == "error" else "stopped"
        layout.height = y + PAD_Y / 2
        return layout

    def _summary(self, card: SummaryItem, width: float) -> RowLayout:
        """The card at the cut: a toggle heading, what it stands for, and (open) the summary the model is sent."""
        left, inner = MARGIN_X, max(120.0, width - 2 * MARGIN_X)
        layout = RowLayout(height=0)
        y = PAD_Y / 2 + CARD_PAD
        heading = ("▾ " if card.open else "▸ ") + QCoreApplication.translate("Transcript",
                                                                             "Earlier conversation (summarised)")
        line_h = self.small_metrics.height()
        rect = QRectF(left + CARD_PAD, y, self.small_metrics.horizontalAdvance(heading) + 6, line_h)
        layout.texts.append(TextPart(rect, heading, "link"))
        layout.hits.append(Hit(rect, "toggle_summary"))
        y += line_h + 4
        note = QCoreApplication.translate(
            "Transcript", "The {0} messages above reach the model as this summary ({1} tokens); the conversation "
            "itself is unchanged.").format(f"{card.covered_messages:,}", f"{card.tokens:,}")
        doc = self.docs.get(note, inner - 2 * CARD_PAD, self.small, plain=True)
        layout.docs.append(DocPart(QPointF(left + CARD_PAD, y), doc, muted=True))
        y += doc.size().height() + 4
        if card.open:
            palette = themes.current().markdown
            top = y
            card_references = references_of(card.text)
            for _, block in split_blocks_at(card.text):
                rendered = render_block(block, palette, card_references)
                doc = self.docs.get(rendered.html, inner - 3 * CARD_PAD, self.small)
                layout.docs.append(DocPart(QPointF(left + 2 * CARD_PAD, y), doc))
                y += doc.size().height() + 4
            layout.rules.append(QRectF(left + CARD_PAD + 3, top, 2, max(0.0, y - top - 4)))
        y += CARD_PAD - 4
        layout.background = QRectF(left, PAD_Y / 2, inner, y - PAD_Y / 2)
        layout.background_kind = "summary"
        layout.height = y + PAD_Y / 2
        return layout

    def _remembered(self, item: RememberedItem, width: float) -> RowLayout:
        """ "Remembered: …" with Undo and a way to the Memory tab; after Undo, that it was forgotten."""
        left, inner = MARGIN_X, max(120.0, width - 2 * MARGIN_X)
        layout = RowLayout(height=0)
        y = PAD_Y / 2 + CARD_PAD
        doc = self.docs.get(remembered_text(item), inner - 2 * CARD_PAD, self.small, plain=True)
        layout.docs.append(DocPart(QPointF(left + CARD_PAD, y), doc, muted=item.state == "undone"))
        y += doc.size().height() + 4
        links = [] if item.state in ("undone", "undoing") else [
            ("undo_remembered", QCoreApplication.translate("Transcript", "Undo")),
            ("show_memories", QCoreApplication.translate("Transcript", "Show in the Memory tab"))]
        x = left + CARD_PAD
        for action, label in links:
            w = self.small_metrics.horizontalAdvance(label) + 4
            rect = QRectF(x, y, w, self.small_metrics.height())
            layout.texts.append(TextPart(rect, label, "link"))
            layout.hits.append(Hit(rect, action))
            x += w + 18
        if links:
            y += self.small_metrics.height() + 2
        y += CARD_PAD - 4
        layout.background = QRectF(left, PAD_Y / 2, inner, y - PAD_Y / 2)
        layout.background_kind = "remembered"
        layout.height = y + PAD_Y / 2
        return layout

    def _notice(self, notice: NoticeItem, width: float) -> RowLayout:
        inner = max(120.0, width - 2 * MARGIN_X)
        text = f"{note_heading(notice.note_of)}\n\n{notice.text}" if notice.note_of else notice.text
        doc = self.docs.get(text, inner - 2 * CARD_PAD, self.small, plain=True)
        layout = RowLayout(height=doc.size().height() + 2 * PAD_Y)
        layout.docs.append(DocPart(QPointF(MARGIN_X + CARD_PAD, PAD_Y), doc))
        layout.background_kind = "notice"
        if notice.note_of:
            # An imported note sits in a box, so its text never reads as the app's own words.
            layout.background = QRectF(MARGIN_X, PAD_Y / 2, inner, doc.size().height() + PAD_Y)
        return layout


def _action_label(action: str) -> str:
    """A banner's link, one literal per action (lupdate sees each)."""
    return {
        "retry": QCoreApplication.translate("Transcript", "Retry"),
        "open_provider_settings": QCoreApplication.translate("Transcript", "Open provider settings"),
        "new_session_with_summary": QCoreApplication.translate("Transcript", "Start a new session with a summary"),
    }.get(action, action)


THUMB_H = 96.0
THUMB_MAX_W = 160.0


def _thumb_size(width: int | None, height: int | None) -> tuple[float, float]:
    """A thumbnail's size: 96 px high, at most 160 wide, keeping the image's shape."""
    if not width or not height:
        return THUMB_H, THUMB_H
    w, h = THUMB_H * width / height, THUMB_H
    if w > THUMB_MAX_W:
        w, h = THUMB_MAX_W, THUMB_MAX_W * height / width
    return max(24.0, w), max(24.0, h)
