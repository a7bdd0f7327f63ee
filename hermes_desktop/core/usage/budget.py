"""The month's spend against the monthly budget: ok, near (at or past `warn_at` of it) or over."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hermes_desktop.core.usage.config import Budget


class BudgetState(StrEnum):
    NONE = "none"  # no budget set
    OK = "ok"
    NEAR = "near"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class BudgetStatus:
    state: BudgetState
    spent: float = 0.0  # this month, in the budget's currency
    amount: float = 0.0
    currency: str = ""

    @property
    def share(self) -> float:
        return self.spent / self.amount if self.amount else 0.0


def status(budget: Budget | None, spent_by_currency: dict[str, float]) -> BudgetStatus:
    """`spent_by_currency`: this month's priced spend per currency (report.MonthTotals.cost)."""
    if budget is None:
        return BudgetStatus(BudgetState.NONE)
    spent = spent_by_currency.get(budget.currency, 0.0)
    if spent > budget.amount:
        state = BudgetState.OVER
    elif spent >= budget.amount * budget.warn_at:
        state = BudgetState.NEAR
    else:
        state = BudgetState.OK
    return BudgetStatus(state, spent, budget.amount, budget.currency)
