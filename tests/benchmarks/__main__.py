"""Run every benchmark (or the ones named on the command line) and print their tables."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ["bench_store", "bench_window", "bench_ask", "bench_skills", "bench_mcp", "bench_memory", "bench_knowledge",
              "bench_assistants", "bench_sync"]


def main(names: list[str]) -> int:
    for name in names or BENCHMARKS:
        module = importlib.import_module(f"tests.benchmarks.{name}")
        print(f"\n=== {name} ===")
        module.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
