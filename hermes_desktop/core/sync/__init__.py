"""Encrypted backup and two-way sync through storage the user owns (issue 26; design in docs/sync.md).

- crypto.py: the key (passphrase through scrypt, or random with a recovery code) and sealed objects (AES-GCM).
- target.py, webdav.py, s3.py: where objects go (a local folder, a WebDAV server, an S3-compatible bucket), all
  behind one small interface: put (published atomically), get, list, delete.
- backup.py: snapshots of everything that is the user's, their list, preview, restore, retention.
- hlc.py, records.py, engine.py: the per-device append-only change log, merging and the sync run.
- config.py: sync.json (no secrets) and the keyring names `sync:<target>:<name>`.

No Qt here; everything is synchronous and blocking (the window runs it in an executor).
"""
