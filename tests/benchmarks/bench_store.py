"""Session store: append, search and open latencies at scale, against the original JSON-rewrite design.

Measured in one run on this machine, in a temporary data directory:
- append latency p50/p99 with 100,000 messages already stored;
- search latency p50 over those 100,000 messages, English and Chinese queries;
- open a 10,000-message session: its first 50 and last 50 messages;
- the original design (one JSON file per session, rewritten on every save) at 10,000
  messages, and the ratio of its save time to an append.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.store import open_store
from tests.benchmarks.timing import median, ok, percentile, table, temporary_home, timed

TOTAL = 100_000
SESSIONS = 10
PER_SESSION = TOTAL // SESSIONS
ENGLISH = ("budget report meeting travel python error deploy invoice garden recipe weather music contract schedule "
           "database backup server network design review").split()
CHINESE = ["数据库", "备份", "会议", "预算", "旅行", "天气", "合同", "设计", "服务器", "网络", "报告", "音乐", "花园", "日程"]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(ENGLISH) if rng.random() < 0.6 else rng.choice(CHINESE) for _ in range(rng.randint(8, 40))]
    return " ".join(words)


def run() -> None:
    rng = random.Random(7)
    with temporary_home() as home:
        store = open_store(app_paths()).store
        print(f"loading {TOTAL:,} messages in {SESSIONS} sessions ...", flush=True)
        for s in range(SESSIONS):
            rows = []
            for n in range(PER_SESSION - (100 if s == 0 else 0)):
                role = "user" if n % 2 == 0 else "assistant"
                rows.append((n + 1, n or None, NewMessage(role, _sentence(rng), finish_reason="stop" if n % 2 else None),
                             time.time(), time.time()))
            store.import_session(session_id=f"s{s}", fields={"title": f"session {s}"}, messages=rows, head=None)

        # append latency, one transaction each, with ~100k messages stored
        appends = timed(lambda: store.append_message("s0", NewMessage("user", _sentence(rng))), 100)
        total = store._db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]

        english = [rng.choice(ENGLISH) for _ in range(40)]
        chinese = [rng.choice(CHINESE)[:2] for _ in range(40)]
        search_en = [timed(lambda q=q: store.search(q, limit=50), 1)[0] for q in english]
        search_zh = [timed(lambda q=q: store.search(q, limit=50), 1)[0] for q in chinese]

        first50 = timed(lambda: store.messages_range("s1", 0, 50), 30)
        last50 = timed(lambda: store.recent_messages("s1", 50), 30)
        whole = timed(lambda: store.messages("s1"), 5)

        # the original design: the whole session rewritten as JSON on every save
        messages = [{"role": m.role, "content": m.content} for m in store.messages("s1")]
        session_file = Path(home) / "session.json"

        def json_save() -> None:
            data = {"session_id": "s1", "model": "m", "messages": messages, "metadata": {}, "created_at": 0,
                    "updated_at": time.time()}
            tmp = session_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            tmp.replace(session_file)

        json_saves = timed(json_save, 20)
        store.close()

    append_p50, append_p99 = percentile(appends, 50), percentile(appends, 99)
    print(f"\n{total:,} messages stored; latencies in milliseconds\n")
    table([
        ("append p50", f"{append_p50:.3f}", "", ""),
        ("append p99", f"{append_p99:.3f}", "< 5", ok(append_p99 < 5)),
        ("search p50, English", f"{median(search_en):.2f}", "< 50", ok(median(search_en) < 50)),
        ("search p50, Chinese (2 chars)", f"{median(search_zh):.2f}", "< 50", ok(median(search_zh) < 50)),
        ("open 10k session: first 50", f"{median(first50):.2f}", "", ""),
        ("open 10k session: last 50", f"{median(last50):.2f}", "< 20", ok(median(last50) < 20)),
        ("load whole 10k session", f"{median(whole):.1f}", "", ""),
        ("JSON rewrite per save, 10k messages", f"{median(json_saves):.1f}", "", ""),
        ("JSON rewrite / SQLite append (p50)", f"{median(json_saves) / append_p50:.0f}x", "", ""),
    ])



if __name__ == "__main__":
    run()
