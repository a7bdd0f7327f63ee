"""An MCP server asks the user something (elicitation): a form built from its schema, or a web page to open.

The form has one row per field of the requested schema: a line for text (with the format as a hint), numbers and
whole numbers (with their range), a check box for yes/no, a list for one choice, check boxes for several. Required
fields are marked with *, descriptions are shown under their field, defaults are filled in. Accept checks every
field first (the same rules as core/mcp/client_features.py, which checks again) and says what is wrong next to the
field. Decline says no; Cancel, Esc or closing the window is a cancel. Nothing is ever answered for the user.

A URL-mode request shows the domain on its own and the full address, and opens the browser only when the user
presses "Open in browser" (core opens it, after this dialog says accept).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.mcp.client_features import (
    ElicitAction,
    ElicitationAnswer,
    ElicitationRequest,
    FieldKind,
    FormField,
    Problem,
    ProblemCode,
    check_value,
    number_text,
    parse_text,
)
from hermes_desktop.ui import design
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.async_dialog import run_dialog


def _number(value: float | None) -> str:
    return "" if value is None else number_text(value)


class McpElicitationDialog(QDialog):
    def __init__(self, request: ElicitationRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpElicitationDialog")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.request = request
        self.action = ElicitAction.CANCEL  # anything but a button is a cancel
        self.content: dict[str, Any] = {}
        self.inputs: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        theme = themes.current()
        self._error_colour = theme.risk_destructive
        self._muted = theme.muted

        layout = QVBoxLayout(self)
        asker = QLabel(self.tr("The MCP server “{0}” asks:").format(request.server))
        asker.setObjectName("elicitServerLabel")
        asker.setTextFormat(Qt.TextFormat.PlainText)  # a server's name from an imported config: never rich text
        asker.setStyleSheet("font-weight: bold")
        asker.setWordWrap(True)
        layout.addWidget(asker)
        message = QLabel(request.message)
        message.setObjectName("elicitMessageLabel")
        message.setTextFormat(Qt.TextFormat.PlainText)  # the server's words: never rich text or links
        message.setWordWrap(True)
        message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(message)

        buttons = QHBoxLayout()
        self.decline_button = QPushButton(self.tr("Decline"))
        self.decline_button.setObjectName("elicitDeclineButton")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("elicitCancelButton")
        if request.mode == "url":
            self.setWindowTitle(self.tr("Open a page for MCP server “{0}”?").format(request.server))
            self._build_url(layout)
            self.accept_button = QPushButton(self.tr("Open in browser"))
        else:
            self.setWindowTitle(self.tr("MCP server “{0}” asks for information").format(request.server))
            self._build_form(layout)
            self.accept_button = QPushButton(self.tr("Accept"))
        self.accept_button.setObjectName("elicitAcceptButton")
        for button in (self.decline_button, self.cancel_button, self.accept_button):
            button.setAutoDefault(False)
        self.accept_button.setDefault(request.mode != "url")  # Enter in a form submits it (after checking)
        self.problem = QLabel()
        self.problem.setObjectName("elicitProblemLabel")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {self._error_colour}")
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons.addWidget(self.decline_button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.accept_button)
        layout.addLayout(buttons)
        self.decline_button.clicked.connect(self._decline)
        self.cancel_button.clicked.connect(self.reject)
        self.accept_button.clicked.connect(self._accept_if_valid)
        self.setMinimumWidth(520)

    # ------------------------------------------------------------------ building
    def _build_url(self, layout: QVBoxLayout) -> None:
        domain = QLabel(self.tr("It wants you to open a page on {0}").format(self.request.domain))
        domain.setObjectName("elicitDomainLabel")
        domain.setTextFormat(Qt.TextFormat.PlainText)
        domain.setFont(design.title(self.font()))  # the type scale's title step (ui/design.py)
        domain.setWordWrap(True)
        layout.addWidget(domain)
        layout.addWidget(QLabel(self.tr("Full address:")))
        url = QPlainTextEdit(self.request.url)
        url.setObjectName("elicitUrlView")
        url.setReadOnly(True)
        url.setMaximumHeight(80)
        layout.addWidget(url)
        note = QLabel(self.tr("Nothing is opened unless you press “Open in browser”. Check the address first: "
                              "only continue if you trust this site."))
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {self._muted}")
        layout.addWidget(note)

    def _build_form(self, layout: QVBoxLayout) -> None:
        holder = QWidget()
        form = QFormLayout(holder)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for form_field in self.request.fields:
            editor = self._editor(form_field)
            editor.setObjectName(f"elicitField:{form_field.name}")
            self.inputs[form_field.name] = editor
            cell = QWidget()
            column = QVBoxLayout(cell)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(editor)
            if form_field.description:
                help_text = QLabel(form_field.description)
                help_text.setTextFormat(Qt.TextFormat.PlainText)
                help_text.setWordWrap(True)
                help_text.setStyleSheet(f"color: {self._muted}")
                column.addWidget(help_text)
            error = QLabel()
            error.setObjectName(f"elicitError:{form_field.name}")
            error.setWordWrap(True)
            error.setStyleSheet(f"color: {self._error_colour}")
            error.hide()
            column.addWidget(error)
            self.errors[form_field.name] = error
            label = QLabel(form_field.label + (" *" if form_field.required else ""))
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setWordWrap(True)
            label.setBuddy(editor)
            form.addRow(label, cell)
        if any(f.required for f in self.request.fields):
            marker = QLabel(self.tr("* required"))
            marker.setStyleSheet(f"color: {self._muted}")
            form.addRow(marker)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(holder)
        scroll.setMinimumHeight(min(520, holder.sizeHint().height() + 4))  # scrolls only for long forms
        layout.addWidget(scroll, 1)
        if self.inputs:
            next(iter(self.inputs.values())).setFocus()

    def _editor(self, form_field: FormField) -> QWidget:
        kind = form_field.kind
        if kind is FieldKind.BOOLEAN:
            box = QCheckBox(self.tr("Yes"))
            box.setChecked(bool(form_field.default))
            return box
        if kind is FieldKind.CHOICE:
            combo = QComboBox()
            if form_field.default is None:
                combo.addItem(self.tr("(choose one)"), None)
            for option in form_field.options:
                combo.addItem(option.label, option.value)
            if form_field.default is not None:
                combo.setCurrentIndex(max(0, combo.findData(form_field.default)))
            return combo
        if kind is FieldKind.MULTI:
            group = QWidget()
            column = QVBoxLayout(group)
            column.setContentsMargins(0, 0, 0, 0)
            for option in form_field.options:
                box = QCheckBox(option.label)
                box.setObjectName(f"elicitOption:{form_field.name}:{option.value}")
                box.setProperty("optionValue", option.value)
                box.setChecked(option.value in (form_field.default or ()))
                column.addWidget(box)
            return group
        line = QLineEdit()
        if form_field.default is not None:
            line.setText(_number(form_field.default) if kind is not FieldKind.TEXT else str(form_field.default))
        line.setPlaceholderText(self._hint(form_field))
        line.setToolTip(self._hint(form_field))  # the range stays findable when a default fills the line
        return line

    def _hint(self, form_field: FormField) -> str:
        if form_field.kind in (FieldKind.NUMBER, FieldKind.INTEGER):
            low, high = _number(form_field.minimum), _number(form_field.maximum)
            whole = form_field.kind is FieldKind.INTEGER
            if low and high:
                return (self.tr("a whole number from {0} to {1}") if whole else
                        self.tr("a number from {0} to {1}")).format(low, high)
            if low:
                return (self.tr("a whole number, at least {0}") if whole else self.tr("a number, at least {0}")).format(low)
            if high:
                return (self.tr("a whole number, at most {0}") if whole else self.tr("a number, at most {0}")).format(high)
            return self.tr("a whole number") if whole else self.tr("a number")
        return {"email": self.tr("name@example.com"), "uri": self.tr("https://example.com"),
                "date": self.tr("YYYY-MM-DD"), "date-time": self.tr("YYYY-MM-DDTHH:MM")}.get(form_field.format, "")

    # ------------------------------------------------------------------ answers
    def value_of(self, form_field: FormField) -> Any:
        """The field's typed value (None when empty); ValueError(Problem) when the text is not one."""
        editor = self.inputs[form_field.name]
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        if isinstance(editor, QLineEdit):
            return parse_text(form_field, editor.text()) if form_field.kind is not FieldKind.TEXT else (
                editor.text().strip() or None)
        return [box.property("optionValue") for box in editor.findChildren(QCheckBox) if box.isChecked()]

    def problem_text(self, problem: Problem) -> str:
        limit = _number(problem.limit) if isinstance(problem.limit, (int, float)) else str(problem.limit)
        code = problem.code
        if code is ProblemCode.REQUIRED:
            return self.tr("This field is required.")
        if code is ProblemCode.NOT_NUMBER:
            return self.tr("Enter a number.")
        if code is ProblemCode.NOT_INTEGER:
            return self.tr("Enter a whole number.")
        if code is ProblemCode.BELOW_MINIMUM:
            return self.tr("The smallest allowed value is {0}.").format(limit)
        if code is ProblemCode.ABOVE_MAXIMUM:
            return self.tr("The largest allowed value is {0}.").format(limit)
        if code is ProblemCode.TOO_SHORT:
            return self.tr("Enter at least {0} characters.").format(limit)
        if code is ProblemCode.TOO_LONG:
            return self.tr("Enter at most {0} characters.").format(limit)
        if code is ProblemCode.BAD_EMAIL:
            return self.tr("Enter an email address like name@example.com.")
        if code is ProblemCode.BAD_URI:
            return self.tr("Enter an address like https://example.com.")
        if code is ProblemCode.BAD_DATE:
            return self.tr("Enter a date as YYYY-MM-DD.")
        if code is ProblemCode.BAD_DATE_TIME:
            return self.tr("Enter a date and time as YYYY-MM-DDTHH:MM.")
        if code is ProblemCode.TOO_FEW:
            return self.tr("Choose at least {0}.").format(limit)
        if code is ProblemCode.TOO_MANY:
            return self.tr("Choose at most {0}.").format(limit)
        if code is ProblemCode.NOT_BOOLEAN:
            return self.tr("Answer yes or no.")
        if code is ProblemCode.NOT_AN_OPTION:
            return self.tr("Choose one of the options.")
        return self.tr("Enter text.")

    def check(self) -> dict[str, Any] | None:
        """Every field checked and its problem shown; the typed content, or None when something is wrong."""
        content: dict[str, Any] = {}
        first_bad: QWidget | None = None
        for form_field in self.request.fields:
            try:
                value = self.value_of(form_field)
                problem = check_value(form_field, value)
            except ValueError as exc:
                value, problem = None, exc.args[0] if exc.args and isinstance(exc.args[0], Problem) else \
                    Problem(ProblemCode.NOT_TEXT)
            error = self.errors[form_field.name]
            if problem is not None:
                error.setText(self.problem_text(problem))
                error.show()
                first_bad = first_bad or self.inputs[form_field.name]
            else:
                error.hide()
                if value is not None and value != []:
                    content[form_field.name] = value
        if first_bad is not None:
            self.problem.setText(self.tr("Please correct the marked fields."))
            self.problem.show()
            first_bad.setFocus()
            return None
        self.problem.hide()
        return content

    def _accept_if_valid(self) -> None:
        if self.request.mode == "url":
            self.action = ElicitAction.ACCEPT
            self.accept()
            return
        content = self.check()
        if content is None:
            return
        self.content = content
        self.action = ElicitAction.ACCEPT
        self.accept()

    def _decline(self) -> None:
        self.action = ElicitAction.DECLINE
        self.done(QDialog.DialogCode.Rejected)

    def answer(self) -> ElicitationAnswer:
        if self.action is ElicitAction.ACCEPT:
            return ElicitationAnswer(ElicitAction.ACCEPT, dict(self.content) if self.request.mode == "form" else None)
        return ElicitationAnswer(self.action)


class GuiElicitor:
    """The window's Elicitor: one dialog per request (core shows one at a time)."""

    def __init__(self, parent: QWidget) -> None:
        self._parent = parent
        self.dialog: McpElicitationDialog | None = None

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        dialog = McpElicitationDialog(request, self._parent)
        self.dialog = dialog
        try:
            await run_dialog(dialog)
        finally:
            self.dialog = None
            dialog.deleteLater()
        return dialog.answer()
