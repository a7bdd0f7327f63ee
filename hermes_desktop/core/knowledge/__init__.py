"""Knowledge bases: the user's own documents, indexed on this machine, searched in Chinese and English, cited.

registry.py (which bases exist, which a session uses), index.py (one SQLite file per base: chunks, FTS5, vectors),
chunking.py (structure-aware chunks), sync.py (incremental, crash-safe indexing), query.py (question -> FTS5),
search.py (BM25 + vectors by RRF), embeddings.py (OpenAI-compatible /embeddings), service.py (the Retrieval layer
and the `search_knowledge` tool). Readers are shared with attachments: core/documents/. See docs/knowledge.md.
"""
