"""A stacked bar chart drawn with QPainter: tokens (four kinds) or cost per day, or per model.

Why QPainter and not pyqtgraph (docs/usage.md has the whole judgement): the view needs one kind of chart, stacked
bars with a legend and tooltips, in the app's two themes. pyqtgraph would bring numpy (~25 MB installed, ~0.15 s
to import) for that, and its look (its own axes, fonts, background) has to be re-themed item by item to match the
rest of the window; its strengths (fast plots of millions of points, zoom and pan) are not needed for at most a
few hundred bars. Drawing them is about 200 lines, uses the window's own font and colours (ui/theme.py), and
needs no new dependency. Qt Charts is not in PySide6-Essentials.

Days run left to right as vertical bars (every n-th date labelled, so labels never overlap); models run top to
bottom as horizontal bars (their names are long). Hovering a bar shows its numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from hermes_desktop.ui import theme as themes

SERIES_COLOURS = {
    "light": ("#2f6feb", "#9ec5fe", "#bf8700", "#8250df"),
    "dark": ("#4493f8", "#a5d6ff", "#d29922", "#a371f7"),
}


@dataclass(frozen=True, slots=True)
class Bar:
    label: str  # under (or beside) the bar
    values: tuple[float, ...]  # one per series, stacked in this order
    tooltip: str = ""


class UsageChart(QWidget):
    """Set `series` (their names, for the legend), then `set_bars`. `horizontal` for per-model charts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageChart")
        self.setMinimumHeight(220)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.series: list[str] = []
        self.bars: list[Bar] = []
        self.horizontal = False
        self.value_text = lambda v: f"{v:,.0f}"
        self.empty_text = ""
        self._hit: list[tuple[QRectF, Bar]] = []

    def sizeHint(self) -> QSize:
        return QSize(640, 280)

    def set_bars(self, series: list[str], bars: list[Bar], *, horizontal: bool = False) -> None:
        self.series, self.bars, self.horizontal = series, bars, horizontal
        self.setAccessibleDescription(", ".join(f"{b.label}: {self.value_text(sum(b.values))}" for b in bars[:40]))
        self.update()

    def colours(self) -> list[QColor]:
        palette = SERIES_COLOURS["dark" if themes.current().dark else "light"]
        return [QColor(palette[i % len(palette)]) for i in range(len(self.series))]

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event: QPaintEvent) -> None:
        theme = themes.current()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(theme.base))
        metrics = QFontMetrics(self.font())
        self._hit = []
        area = QRectF(self.rect()).adjusted(8, 8, -8, -8)
        legend_h = self._paint_legend(painter, area, metrics, theme) if len(self.series) > 1 else 0
        area.setTop(area.top() + legend_h)
        top = max((sum(b.values) for b in self.bars), default=0.0)
        if not self.bars or top <= 0:
            painter.setPen(QColor(theme.muted))
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter, self.empty_text)
            painter.end()
            return
        scale_top = _nice_ceiling(top)
        if self.horizontal:
            self._paint_horizontal(painter, area, metrics, theme, scale_top)
        else:
            self._paint_vertical(painter, area, metrics, theme, scale_top)
        painter.end()

    def _paint_legend(self, painter: QPainter, area: QRectF, metrics: QFontMetrics, theme: themes.Theme) -> float:
        x = area.left()
        box = metrics.height() * 0.7
        for name, colour in zip(self.series, self.colours()):
            painter.fillRect(QRectF(x, area.top() + (metrics.height() - box) / 2, box, box), colour)
            x += box + 4
            painter.setPen(QColor(theme.text))
            painter.drawText(QPointF(x, area.top() + metrics.ascent()), name)
            x += metrics.horizontalAdvance(name) + 16
        return metrics.height() + 8

    def _paint_vertical(self, painter: QPainter, area: QRectF, metrics: QFontMetrics, theme: themes.Theme,
                        scale_top: float) -> None:
        ticks = [scale_top * i / 4 for i in range(5)]
        axis_w = max(metrics.horizontalAdvance(self.value_text(t)) for t in ticks) + 8
        plot = QRectF(area.left() + axis_w, area.top() + metrics.height() / 2, area.width() - axis_w,
                      area.height() - metrics.height() * 2)
        self._grid(painter, plot, ticks, scale_top, metrics, theme, vertical=True)
        slot = plot.width() / len(self.bars)
        width = max(1.0, min(slot * 0.7, 48.0))
        label_w = max(metrics.horizontalAdvance(b.label) for b in self.bars) + 8
        every = max(1, int(-(-label_w // slot)))
        colours = self.colours()
        for n, bar in enumerate(self.bars):
            x = plot.left() + slot * n + (slot - width) / 2
            y = plot.bottom()
            for value, colour in zip(bar.values, colours):
                h = plot.height() * value / scale_top
                if h > 0:
                    painter.fillRect(QRectF(x, y - h, width, h), colour)
                y -= h
            self._hit.append((QRectF(plot.left() + slot * n, plot.top(), slot, plot.height()), bar))
            if n % every == 0:
                painter.setPen(QColor(theme.muted))
                centre = plot.left() + slot * n + slot / 2
                text_w = metrics.horizontalAdvance(bar.label)
                left = min(max(centre - text_w / 2, plot.left()), plot.right() - text_w)
                painter.drawText(QPointF(left, plot.bottom() + metrics.ascent() + 4), bar.label)

    def _paint_horizontal(self, painter: QPainter, area: QRectF, metrics: QFontMetrics, theme: themes.Theme,
                          scale_top: float) -> None:
        ticks = [scale_top * i / 4 for i in range(5)]
        names = [metrics.elidedText(b.label, Qt.TextElideMode.ElideMiddle, int(area.width() * 0.3)) for b in self.bars]
        label_w = max(metrics.horizontalAdvance(n) for n in names) + 10
        plot = QRectF(area.left() + label_w, area.top(), area.width() - label_w - metrics.horizontalAdvance(
            self.value_text(scale_top)) / 2, area.height() - metrics.height() - 4)
        self._grid(painter, plot, ticks, scale_top, metrics, theme, vertical=False)
        slot = plot.height() / len(self.bars)
        thickness = max(2.0, min(slot * 0.7, 28.0))
        colours = self.colours()
        for n, (bar, name) in enumerate(zip(self.bars, names)):
            y = plot.top() + slot * n + (slot - thickness) / 2
            x = plot.left()
            for value, colour in zip(bar.values, colours):
                w = plot.width() * value / scale_top
                if w > 0:
                    painter.fillRect(QRectF(x, y, w, thickness), colour)
                x += w
            painter.setPen(QColor(theme.text))
            painter.drawText(QRectF(area.left(), plot.top() + slot * n, label_w - 6, slot),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, name)
            self._hit.append((QRectF(area.left(), plot.top() + slot * n, area.width(), slot), bar))

    def _grid(self, painter: QPainter, plot: QRectF, ticks: list[float], scale_top: float, metrics: QFontMetrics,
              theme: themes.Theme, *, vertical: bool) -> None:
        pen = QPen(QColor(theme.card_border))
        pen.setWidthF(1.0)
        for tick in ticks:
            text = self.value_text(tick)
            painter.setPen(pen)
            if vertical:
                y = plot.bottom() - plot.height() * tick / scale_top
                painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
                painter.setPen(QColor(theme.muted))
                painter.drawText(QRectF(plot.left() - 200 - 6, y - metrics.height() / 2, 200, metrics.height()),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
            else:
                x = plot.left() + plot.width() * tick / scale_top
                painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
                painter.setPen(QColor(theme.muted))
                w = metrics.horizontalAdvance(text)
                painter.drawText(QPointF(min(x - w / 2, plot.right() - w / 2), plot.bottom() + metrics.ascent() + 4),
                                 text)

    # ------------------------------------------------------------------ tooltips
    def event(self, event) -> bool:  # type: ignore[no-untyped-def]
        if event.type() == event.Type.ToolTip and isinstance(event, QHelpEvent):
            bar = self.bar_at(QPointF(event.pos()))
            if bar is not None and bar.tooltip:
                QToolTip.showText(event.globalPos(), bar.tooltip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def bar_at(self, point: QPointF) -> Bar | None:
        return next((bar for rect, bar in self._hit if rect.contains(point)), None)


def _nice_ceiling(value: float) -> float:
    """The top of the axis: four equal steps of 1, 2 or 5 × 10^n that reach `value` (round tick labels)."""
    import math

    if value <= 0:
        return 1.0
    quarter = value / 4
    power = 10 ** math.floor(math.log10(quarter))
    for step in (1, 2, 5, 10):
        if step * power >= quarter:
            return 4 * step * power
    return 40 * power
