"""project-doctor's tool: a quick, read-only survey of a project folder."""

from __future__ import annotations

import os
from collections import Counter

from hermes_desktop.skill_api import tool

MANIFESTS = {
    "pyproject.toml": "Python (pyproject)", "setup.py": "Python (setuptools)", "requirements.txt": "Python (pip)",
    "package.json": "JavaScript/TypeScript (npm)", "Cargo.toml": "Rust (Cargo)", "go.mod": "Go modules",
    "pom.xml": "Java (Maven)", "build.gradle": "Java/Kotlin (Gradle)", "Gemfile": "Ruby (Bundler)",
    "composer.json": "PHP (Composer)", "CMakeLists.txt": "C/C++ (CMake)", "Makefile": "Make",
    "Dockerfile": "Docker", "docker-compose.yml": "Docker Compose", ".github": "GitHub workflows",
}
SKIP = {".git", "node_modules", "__pycache__", ".venv", "venv", "dist", "build", "target", ".mypy_cache"}
MAX_FILES = 20_000


@tool(risk="read", timeout=30)
def inspect_project(path: str = ".", ctx=None) -> dict:
    """Survey a project folder in the workspace: file types, recognised manifest files, top-level layout,
    README start, largest files and likely problems. Read-only."""
    root = ctx.workspace.resolve(path)
    if not root.is_dir():
        raise ValueError(f"{path} is not a folder")
    extensions: Counter[str] = Counter()
    largest: list[tuple[int, str]] = []
    files = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP]
        for name in names:
            files += 1
            if files > MAX_FILES:
                break
            full = os.path.join(folder, name)
            extensions[os.path.splitext(name)[1].lower() or "(none)"] += 1
            try:
                largest.append((os.path.getsize(full), os.path.relpath(full, root)))
            except OSError:
                continue
    top = sorted(os.listdir(root))
    readme = next((n for n in top if n.lower().startswith("readme")), None)
    readme_start = ""
    if readme:
        with open(os.path.join(root, readme), encoding="utf-8", errors="replace") as handle:
            readme_start = handle.read(1500)
    warnings = []
    if not readme:
        warnings.append("no README at the top level")
    if not any(n.lower().startswith(("license", "licence", "copying")) for n in top):
        warnings.append("no licence file at the top level")
    if not any(n.lower() in ("tests", "test", "spec", "__tests__") for n in top):
        warnings.append("no top-level tests folder")
    if any(n == ".env" or n.endswith((".pem", ".key")) for n in top):
        warnings.append("credential-looking files at the top level (.env, *.pem, *.key)")
    return {
        "folder": ctx.workspace.relative(root),
        "files": files if files <= MAX_FILES else f"more than {MAX_FILES}",
        "file_types": dict(extensions.most_common(12)),
        "manifests": {name: MANIFESTS[name] for name in top if name in MANIFESTS},
        "top_level": [n + ("/" if os.path.isdir(os.path.join(root, n)) else "") for n in top[:60]],
        "readme": readme,
        "readme_start": readme_start,
        "largest_files": [{"path": p, "bytes": size} for size, p in sorted(largest, reverse=True)[:5]],
        "warnings": warnings,
    }
