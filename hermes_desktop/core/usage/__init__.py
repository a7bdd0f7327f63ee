"""Usage and cost: what every model request the app made cost, in tokens and, where a price is known, money.

- counts.py: one request's tokens as the server reported them (`usage` of the last chunk: prompt_tokens,
  cached tokens in OpenAI's, DeepSeek's or Moonshot's field, completion_tokens, reasoning_tokens), or estimated.
- scope.py: which session a request belongs to when its caller did not say (a context variable a turn sets).
- recorder.py: the sink the model client calls once per request; writes on the store executor, never waits.
- ledger.py: the `usage_records` table (migration 11): insert, and the grouped rows a report is made from.
- prices.py: the price table shipped with the app and the user's edits (per million tokens, USD or CNY).
- config.py: `usage.json` in the config folder: the user's prices and the monthly budget.
- report.py: pure functions from grouped rows and prices to totals per day, month, model, session, assistant; CSV.
- budget.py: the month's spend against the budget (ok, near, over).

Qt-free. The window's Usage view (ui/usage_*.py) and `hermes-desktop usage` (commands/usage.py) read the same
reports. Design and decisions: docs/usage.md.
"""
