"""Skills: folders that teach the agent a kind of task, loaded only when a task needs them.

- `model`: what a skill is (both formats), and its problems.
- `loader`: read one folder (`skill.yaml` or `SKILL.md`), leniently, recording every problem.
- `discovery`: scan the bundled, user and ~/.agents/skills folders; later roots override earlier.
- `trust`: code from a skill that is not bundled runs only after the user trusts that exact content.
- `code`: import a trusted skill's `tools.py` and turn its `@tool` functions into ToolSpecs.
- `manager`: the catalog, activation per session, and what each request carries.
"""
