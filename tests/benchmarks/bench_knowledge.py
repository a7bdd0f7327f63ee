"""Knowledge bases (issue 22): indexing speed and memory, a sync with nothing changed, query latency with BM25 and
with vectors, printed in one run. Not part of the default test run (`make bench` or
`python -m tests.benchmarks bench_knowledge`).

The sizes default to what finishes in a few minutes on a shared 2-core machine and can be raised to the issue's
(`HERMES_BENCH_KB_FILES=10000 HERMES_BENCH_KB_CHUNKS=200000 HERMES_BENCH_KB_VECTORS=200000`):
- index FILES generated Markdown files (English and Chinese paragraphs, ~100 KB each at the issue's 1 GB / 10,000):
  MB/s, files/s and the peak RSS of the process (ru_maxrss);
- a sync with nothing changed over those files (size and mtime only: no file is read);
- BM25 query p50/p99 over CHUNKS chunks (stored directly, the way sync stores them), and as a ratio to the plain
  FTS5 OR of every term of the question measured in the same run (what retrieval did before the AND-first path);
- vector query p50 over VECTORS 384-dimension vectors: numpy over the cached matrix (core/knowledge/vectors.py), its
  first query (reading the matrix) and the pure-Python loop in the same run, as a ratio;
- the window while a base indexes: a 5 ms heartbeat on the Qt event loop, the Knowledge panel shown and fed by the
  sync's throttled progress signal (ui/knowledge_actions.py's wiring), the sync in a worker thread; the longest gap
  and the 99th percentile, against the same heartbeat with nothing indexing.
Targets: peak RSS < 400 MB, no-op sync of 10,000 files < 2 s, BM25 p50 < 30 ms and p99 < 100 ms at 200,000
chunks, vectors p50 < 100 ms, the window's longest stall while indexing < 33 ms.
"""

from __future__ import annotations

import os
import random
import resource
import time
from pathlib import Path

from hermes_desktop.core.knowledge import vectors
from hermes_desktop.core.knowledge.chunking import Chunk
from hermes_desktop.core.knowledge.query import match_expression
from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
from hermes_desktop.core.knowledge.sync import sync_base
from tests.benchmarks.timing import median, ok, percentile, table, temporary_home, timed

FILES = int(os.environ.get("HERMES_BENCH_KB_FILES", "1000"))
FILE_KB = int(os.environ.get("HERMES_BENCH_KB_FILE_KB", "20"))
CHUNKS = int(os.environ.get("HERMES_BENCH_KB_CHUNKS", "50000"))
VECTORS = int(os.environ.get("HERMES_BENCH_KB_VECTORS", "20000"))
# Text with a natural word distribution (Zipf over a 20,000-word vocabulary, as real prose has), so a query's terms
# match some chunks and not all of them; Chinese from the 3,000 most common characters, also Zipf-distributed.
_SYLLABLES = "ka ri to ne mo su la vi de pa go ru me ti sa no be fu li ha".split()
_VOCABULARY = ["".join(random.Random(n).choice(_SYLLABLES) for _ in range(1 + n % 3)) + str(n % 7 or "")
               for n in range(20_000)]
_HANZI = [chr(0x4E00 + (n * 7919) % 20900) for n in range(3000)]
_ZIPF = [1 / (rank + 1) for rank in range(20_000)]
_ZIPF_ZH = [1 / (rank + 1) for rank in range(3000)]
QUERIES = [f"{_VOCABULARY[120]} {_VOCABULARY[900]} {_VOCABULARY[4000]}", f"{_VOCABULARY[50]} {_VOCABULARY[2500]}",
           _HANZI[30] + _HANZI[400] + _HANZI[401], _HANZI[12] + _HANZI[13] + " " + _VOCABULARY[300],
           f"what is {_VOCABULARY[7000]} and {_VOCABULARY[60]}"]


def _text(rng: random.Random, size: int) -> str:
    parts, held = [], 0
    while held < size:
        if rng.random() < 0.3:
            line = "".join(rng.choices(_HANZI, _ZIPF_ZH, k=60)) + "。"
        else:
            line = " ".join(rng.choices(_VOCABULARY, _ZIPF, k=60)) + "."
        parts.append(line)
        held += len(line.encode("utf-8"))
        if rng.random() < 0.2:
            parts.append(f"\n## Section {rng.randint(1, 99)}\n")
    return "# Generated\n\n" + "\n\n".join(parts)


def run() -> None:
    rng = random.Random(22)
    rows: list[tuple[str, str, str, str]] = []
    with temporary_home() as home:
        folder = Path(home) / "docs"
        folder.mkdir()
        total_bytes = 0
        for n in range(FILES):
            path = folder / f"{n // 100:03d}" / f"doc{n}.md"
            path.parent.mkdir(exist_ok=True)
            data = _text(rng, FILE_KB * 1024).encode("utf-8")
            path.write_bytes(data)
            total_bytes += len(data)
        registry = KnowledgeRegistry(Path(home) / "knowledge")
        registry.create("bench", [folder])
        with registry.open("bench") as index:
            started = time.perf_counter()
            result = sync_base(index)
            seconds = time.perf_counter() - started
            peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            rows.append((f"index {FILES:,} files ({total_bytes / 1e6:.0f} MB)", f"{seconds:.1f} s", "", ""))
            rows.append(("  MB/s", f"{total_bytes / 1e6 / seconds:.2f}", "", ""))
            rows.append(("  files/s", f"{result.added / seconds:.1f}", "", ""))
            rows.append(("  peak RSS", f"{peak_mb:.0f} MB", "< 400 MB", ok(peak_mb < 400)))
            started = time.perf_counter()
            again = sync_base(index)
            noop = time.perf_counter() - started
            scaled = noop * 10_000 / max(1, FILES)
            rows.append((f"sync, nothing changed ({FILES:,} files)", f"{noop * 1000:.0f} ms",
                         "< 2 s at 10,000", ok(scaled < 2.0) + f" ({scaled:.2f} s scaled)"))
            assert again.read == []
        # BM25 at CHUNKS chunks: stored directly (as sync stores them), in batches of one "file" of 100 chunks.
        registry.create("chunks", [folder])
        with registry.open("chunks") as index:
            for batch in range(CHUNKS // 100):
                chunks = [Chunk(_text(rng, 600), None, ("Generated",), 150) for _ in range(100)]
                index.store_document(f"synthetic/{batch}.md", size=0, mtime_ns=0, sha256=str(batch), kind="markdown",
                                     pages=None, note="", chunks=chunks)
            cold = timed(lambda: [index.bm25(q, 50) for q in QUERIES], 1)[0] / len(QUERIES)  # counts not cached
            samples = [s for q in QUERIES for s in timed(lambda q=q: index.bm25(q, 50), 20)]
            plain = [s for q in QUERIES for s in timed(lambda q=q: index._rank(match_expression(q), 50), 5)]
            p50, p99 = median(samples), percentile(samples, 99)
            rows.append((f"BM25 query, {CHUNKS:,} chunks, p50 (each of {len(QUERIES)} queries x 20)", f"{p50:.1f} ms",
                         "< 30 ms", ok(p50 < 30)))
            rows.append((f"BM25 query, {CHUNKS:,} chunks, p99", f"{p99:.1f} ms", "< 100 ms", ok(p99 < 100)))
            rows.append(("  first round (document counts not cached yet), mean", f"{cold:.1f} ms", "", ""))
            rows.append(("  plain OR of every term, p50 / p99 (baseline, same run)",
                         f"{median(plain):.1f} / {percentile(plain, 99):.1f} ms", "", ""))
            rows.append(("  p50 ratio to the plain OR", f"{p50 / median(plain):.2f}x", "", ""))
            ids = [row[0] for row in index.db.execute("SELECT id FROM chunks LIMIT ?", (VECTORS,))]
            for start in range(0, len(ids), 5000):
                index.store_vectors("bench", [(chunk_id, [rng.random() for _ in range(384)])
                                              for chunk_id in ids[start:start + 5000]])
            query = [rng.random() for _ in range(384)]
            first = timed(lambda: index.vector_search("bench", query, 50), 1)[0]
            samples = timed(lambda: index.vector_search("bench", query, 50), 20)
            loop = timed(lambda: vectors.python_search(index.db, "bench", query, 50), 2)
            vp50 = median(samples)
            scaled_v = vp50 * 200_000 / max(1, len(ids))
            rows.append((f"vector query, {len(ids):,} x 384, numpy, p50", f"{vp50:.1f} ms",
                         "< 100 ms at 200,000", ok(scaled_v < 100) + f" ({scaled_v:.0f} ms scaled)"))
            rows.append(("  first query (reads the matrix into memory)", f"{first:.0f} ms", "", ""))
            rows.append(("  pure-Python loop (baseline, same run)", f"{median(loop):.0f} ms", "", ""))
            rows.append(("  ratio numpy / loop", f"{vp50 / median(loop):.3f}x", "", ""))
        rows += _window_while_indexing(registry, folder)
    table(rows)


def _window_while_indexing(registry: KnowledgeRegistry, folder: Path) -> list[tuple[str, str, str, str]]:
    """The longest event-loop gap while a base indexes in a worker thread, wired as the window wires it."""
    import threading

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from hermes_desktop.core.knowledge.sync import sync_base
    from hermes_desktop.ui.knowledge_actions import PROGRESS_MS, _SyncSignals
    from hermes_desktop.ui.knowledge_panel import KnowledgePanel

    app = QApplication.instance() or QApplication([])
    panel = KnowledgePanel()
    panel.resize(420, 600)
    panel.show()
    signals = _SyncSignals()
    signals.progress.connect(lambda step: panel.show_progress(step.done, step.total, step.current, step.remaining_s,
                                                              False))
    last = [0.0]

    def progress(step: object) -> None:  # KnowledgeActions._progress_from_worker's throttle
        now = time.monotonic()
        if getattr(step, "current", "") and now - last[0] < PROGRESS_MS / 1000:
            return
        last[0] = now
        signals.progress.emit(step)

    def gaps_while(work: "threading.Thread | None", seconds: float) -> list[float]:
        gaps: list[float] = []
        loop = QEventLoop()
        previous = [time.perf_counter()]

        def beat() -> None:
            now = time.perf_counter()
            gaps.append((now - previous[0]) * 1000)
            previous[0] = now
            if (work is None and sum(gaps) >= seconds * 1000) or (work is not None and not work.is_alive()):
                loop.quit()

        heartbeat = QTimer()
        heartbeat.setInterval(5)
        heartbeat.timeout.connect(beat)
        heartbeat.start()
        if work is not None:
            work.start()
        loop.exec()
        heartbeat.stop()
        return gaps

    idle = gaps_while(None, 2.0)
    registry.create("window", [folder])

    def index() -> None:
        with registry.open("window") as base:
            sync_base(base, progress=progress)

    busy = gaps_while(threading.Thread(target=index, name="bench-sync"), 0)
    app.processEvents()
    panel.close()
    stall, p99 = max(busy), percentile(busy, 99)
    return [(f"window while indexing {FILES:,} files: longest stall", f"{stall:.1f} ms", "< 33 ms", ok(stall < 33)),
            (f"  99th percentile of {len(busy):,} heartbeat gaps", f"{p99:.1f} ms", "", ""),
            ("  idle heartbeat, longest / 99th percentile (baseline, same run)",
             f"{max(idle):.1f} / {percentile(idle, 99):.1f} ms", "", ""),
            ("  longest stall ratio to idle", f"{stall / max(idle):.1f}x", "", "")]


if __name__ == "__main__":
    run()
