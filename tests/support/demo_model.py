"""A tiny rule-based "model" for trying the app by hand and for screenshots and benchmarks.

It answers over the scripted server like a real model would, in the language the user wrote in (English or
Chinese), by calling the app's real tools with proper arguments:

- write a file ("write hello.txt saying hi", "写一个 hello.txt，内容是 你好"), make a folder ("make a folder notes",
  "新建文件夹 notes"), move or rename ("move a.txt to b.txt", "把 a.txt 移动到 b.txt"), delete ("delete hello.txt",
  "删除 hello.txt"), fetch a page ("fetch https://example.com", "获取 https://…"), list files ("list my files",
  "列出文件"), the time ("what time is it", "现在几点"), arithmetic ("12*7", "计算 12*7");
- memory: remember ("remember that I prefer tea", "记住我喜欢喝茶"), recall ("what do you remember about me?",
  "你记得我什么？") and forget ("forget tea", "忘掉喝茶");
- attachments: describes attached images (format and size, read from the image's header) and files (name, lines,
  first lines), since it sees the request's image parts and attached-file blocks;
- skills: `activate_skill` when the message names a skill in the catalog, then `read_skill_resource` on the file
  that fits the request ("fill in a PDF form" -> the pdf skill's forms.md, spelled as its instructions spell it),
  part after part to its end;
- any offered tool by its exact name: "call mcp_files_add with {"a": 2, "b": 3}", "调用 mcp_files_echo {…}" (so an
  MCP server's tools can be tried with the demo);
After a tool result it says in one sentence what happened, or that it was not done when the user declined.
Anything else gets a short reply listing what to try. `demo_title` makes a session title from the first message
(e.g. "Write hello.txt", "删除 hello.txt"); the scripted server uses it for this responder instead of its constant.
"""

from __future__ import annotations

import base64
import json
import re
import struct
from dataclasses import dataclass, replace
from typing import Any

from hermes_desktop.core.memory.rules import sentences
from tests.support.model_server import (
    MEMORY_PROMPT_OPENING, CallScript, RecordedRequest, ScriptedReply, echo_memories, text_reply, tool_call_reply,
)

_ARITHMETIC = re.compile(r"[\d\.\s\(\)\+\-\*/\^%]{3,}")
_CATALOG_LINE = re.compile(r"^- ([a-z0-9][a-z0-9-]*): ", re.M)
_MEMORY_HEADING = "## What you remember about the user"
_FORGET = re.compile(r"\bforget (?:what i said |everything )?(?:about )?(?:the |my )?(.+?)[.!?]*$|"
                     r"忘(?:掉|记)(?:我说的)?(?:关于)?(.+?)(?:的事)?[。！]*$", re.I)
_RECALL = re.compile(r"what do you (?:remember|know) about (?:me|my )?(.*?)[?.!]*$|你(?:还)?记得(.*?)[吗？?]*$", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_URL = re.compile(r"https?://[^\s，。、；！？）)\"'<>`]+", re.I)

_FILE = r"(?P<{0}>[\w.~/\\-]+\.[A-Za-z0-9]{{1,8}})"  # a file name with an extension (Chinese letters allowed)
_ANY = r"[`'\"“‘]?(?P<{0}>[^\s`'\"“”‘’，,：:；;。！!？?]+?)[`'\"”’]?"  # a name without spaces, quotes dropped
_END = r"[\s.!?。！？]*$"
_POLITE = re.compile(r"^(?:(?:please|pls|can you|could you|would you|kindly|hey|ok|okay)[\s,]+)+|"
                     r"^(?:请你?|麻烦你?|帮我|请帮我|帮忙|你能|能不能|可以)+", re.I)


def _rule(*parts: str, flags: int = 0) -> re.Pattern[str]:
    """One request pattern, from its parts (the name slots are `_FILE`/`_ANY` filled with a group name)."""
    return re.compile("".join(parts) + _END, flags | re.S)


_EN = {
    "write": [_rule(r"^(?:write|create|make|save)\s+(?:a\s+|the\s+|new\s+)*",
                    r"(?:(?:text\s+)?file\s+(?:called\s+|named\s+)?", _ANY.format("path"),
                    "|", _FILE.format("file"), ")",
                    r"(?:\s+(?:saying|that says|which says|with the text|with text|with content|containing|with)",
                    r"\s*[:：]?\s*(?P<content>.+?))?", flags=re.I),
              _rule(r"^write\s+(?P<content>.+?)\s+(?:to|into|in)\s+(?:the\s+)?(?:file\s+)?", _FILE.format("file"),
                    flags=re.I)],
    "make_directory": [_rule(r"^(?:make|create|add|new)\s+(?:a\s+|the\s+|new\s+)*(?:folder|directory|dir)\s+",
                             r"(?:called\s+|named\s+)?", _ANY.format("path"), flags=re.I)],
    "move_path": [_rule(r"^(?:move|rename)\s+(?:the\s+)?(?:file\s+|folder\s+)?", _ANY.format("src"),
                        r"\s+(?:to|into|as)\s+(?:the\s+)?(?:folder\s+)?", _ANY.format("dst"), flags=re.I)],
    "delete_path": [_rule(r"^(?:delete|remove|erase|trash)\s+(?:the\s+)?(?:file\s+|folder\s+|directory\s+)?",
                          _ANY.format("path"), flags=re.I)],
    "remember": [re.compile(r"^remember\s+(?:that\s+)?(?P<what>.+?)[\s.!]*$", re.I)],
}
_ZH = {
    "write": [_rule(r"^(?:写|新建|创建|建)(?:一个|个|一份)?(?:新的)?(?:文本)?(?:文件)?\s*(?:叫|名为|叫做)?\s*",
                    _FILE.format("file"),
                    r"\s*[，,]?\s*(?:(?:内容是|内容为|内容|写上|写着|写入|里面写)\s*[：:]?\s*(?P<content>.+?))?"),
              _rule(r"^把\s*(?P<content>.+?)\s*写(?:入|进|到)\s*", _FILE.format("file"))],
    "make_directory": [_rule(r"^(?:新建|创建|建立|建)(?:一个|个)?(?:新的)?(?:文件夹|目录)\s*[，,：:]?\s*(?:叫|名为|叫做)?\s*",
                             _ANY.format("path"))],
    "move_path": [_rule(r"^把\s*", _ANY.format("src"), r"\s*(?:移动|移|挪|重命名|改名|放)(?:到|为|成|进)\s*",
                        _ANY.format("dst")),
                  _rule(r"^(?:移动|重命名)\s*", _ANY.format("src"), r"\s*(?:到|为|成)\s*", _ANY.format("dst"))],
    "delete_path": [_rule(r"^(?:删除|删掉|删去|删)\s*(?:文件夹|文件|目录)?\s*", _ANY.format("path"))],
    "remember": [re.compile(r"^记住(?:一下)?\s*[：:，,]?\s*(?P<what>.+?)[\s。！!]*$")],
}

_DEFAULT_CONTENT = {"en": "Hello from Hermes!\n", "zh": "你好，来自 Hermes！\n"}


def is_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


@dataclass(frozen=True)
class Intent:
    tool: str
    args: dict[str, Any]
    title: str  # a session title for a conversation that starts with this request


def _clean(name: str | None) -> str:
    return (name or "").strip().strip("`'\"“”‘’").rstrip(".,，。!！?？")


def understand(text: str, tools: set[str] | None = None) -> Intent | None:
    """The tool call a request asks for, or None. `tools`: the tools offered (None: any)."""
    zh = is_chinese(text)
    said = _POLITE.sub("", text.strip()).strip()

    def offered(name: str) -> bool:
        return tools is None or name in tools

    forgetting, recalling = _FORGET.search(said), _RECALL.search(said)
    if offered("forget") and forgetting:
        query = (forgetting.group(1) or forgetting.group(2)).strip()
        return Intent("forget", {"query": query}, f"忘掉{query}" if zh else f"Forget {query}")
    if offered("recall") and recalling:
        query = re.sub(r"^(?:关于)?我(?:的)?|什么|哪些|吗$", "", (recalling.group(1) or recalling.group(2) or "").strip())
        query = query.strip(" 的？?") or "me"
        return Intent("recall", {"query": query}, "你记得什么" if zh else "What you remember")
    rules = _ZH if zh else _EN
    for tool in ("remember", "make_directory", "move_path", "write", "delete_path"):
        name = "write_file" if tool == "write" else tool
        for pattern in rules[tool]:
            found = pattern.search(said)
            if not found or not offered(name):
                continue
            groups = found.groupdict()
            if tool == "remember":
                what = groups["what"].strip()
                # The quote is the user's whole sentence, as the memory extraction after the turn quotes it too,
                # so the two keep one memory (core/memory/store.py `same_as`).
                quote = next((s for s in sentences(text.strip()) if what in s), what)
                return Intent("remember", {"statement": what, "quote": quote},
                              f"记住{what}"[:20] if zh else f"Remember {what}"[:50])
            if tool == "write":
                path = _clean(groups.get("file") or groups.get("path"))
                content = (groups.get("content") or "").strip().strip("`'\"“”‘’")
                content = content + "\n" if content else _DEFAULT_CONTENT["zh" if zh else "en"]
                return Intent("write_file", {"path": path, "content": content},
                              f"写入 {path}" if zh else f"Write {path}")
            if tool == "make_directory":
                path = _clean(groups["path"])
                return Intent(name, {"path": path}, f"新建文件夹 {path}" if zh else f"New folder {path}")
            if tool == "move_path":
                src, dst = _clean(groups["src"]), _clean(groups["dst"])
                return Intent(name, {"src": src, "dst": dst}, f"移动 {src} 到 {dst}" if zh else f"Move {src} to {dst}")
            path = _clean(groups["path"])
            return Intent(name, {"path": path}, f"删除 {path}" if zh else f"Delete {path}")
    url = _URL.search(said)
    if url and offered("fetch_url"):
        address = url.group(0).rstrip(".,;:!?")
        host = re.sub(r"^https?://", "", address).split("/")[0]
        return Intent("fetch_url", {"url": address}, f"获取 {host}" if zh else f"Fetch {host}")
    expression = max(_ARITHMETIC.findall(said.replace("×", "*").replace("÷", "/")), key=len, default="")
    expression = expression.strip().rstrip("?=")
    if offered("calculate") and re.search(r"\d\s*[\+\-\*/\^]\s*[\d(]", expression):
        return Intent("calculate", {"expression": expression}, f"计算 {expression}" if zh else f"Calculate {expression}")
    if offered("get_current_time") and re.search(r"\btime\b|\bwhat day\b|\bdate\b|几点|时间|日期|星期几", said, re.I):
        return Intent("get_current_time", {}, "现在几点" if zh else "The time now")
    if offered("list_directory") and re.search(r"\bfiles?\b|\bfolders?\b|\bworkspace\b|文件|列出|目录", said, re.I):
        return Intent("list_directory", {"path": "."}, "列出文件" if zh else "List my files")
    return None


def demo_title(request: RecordedRequest) -> ScriptedReply:
    """A title for the session made from its first message (the app sends "User:\\n<text>\\n\\nAssistant:\\n…")."""
    content = str((request.messages[-1] if request.messages else {}).get("content") or "")
    asked = content.split("User:\n", 1)[-1].split("\n\nAssistant:\n", 1)[0]
    return text_reply(title_for(asked))


def title_for(text: str) -> str:
    text = text.split("[Attached file: ", 1)[0].strip()
    intent = understand(text)
    if intent is not None:
        return intent.title
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    first = _POLITE.sub("", first).strip().rstrip("?？.。!！")
    if not first:
        return "附件" if "[Attached file" in text else "Conversation"
    if is_chinese(first):
        return first[:16]
    words = first.split()[:6]
    return " ".join([words[0][:1].upper() + words[0][1:]] + words[1:])[:60]


def demo_responder(request: RecordedRequest) -> ScriptedReply:
    """The demo's answer to any request, with usage counted from the request and the reply as a server would
    (about 4 characters a token, one a Chinese character, 765 an image), so the context meter grows with the chat."""
    return _counted(_answer(request), request)


def _tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    return cjk + (len(text) - cjk + 3) // 4


def _counted(reply: ScriptedReply, request: RecordedRequest) -> ScriptedReply:
    body = request.body if isinstance(request.body, dict) else {}
    images = 0

    def without_images(content: Any) -> Any:
        nonlocal images
        if not isinstance(content, list):
            return content
        images += sum(1 for p in content if isinstance(p, dict) and p.get("type") == "image_url")
        return [p for p in content if not (isinstance(p, dict) and p.get("type") == "image_url")]

    sent = [{**m, "content": without_images(m.get("content"))} for m in body.get("messages") or []]
    prompt = _tokens(json.dumps([sent, body.get("tools") or []], ensure_ascii=False)) + 765 * images
    written = []
    for event in reply.events:
        try:
            chunk = json.loads(event)
        except ValueError:
            continue
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            written.append(str(delta.get("content") or ""))
            written += [str((c.get("function") or {}).get("arguments") or "") for c in delta.get("tool_calls") or []]
    events = list(reply.events)
    for n in range(len(events) - 1, -1, -1):
        try:
            chunk = json.loads(events[n])
        except ValueError:
            continue
        if isinstance(chunk, dict) and chunk.get("usage"):
            completion = max(1, _tokens("".join(written)))
            chunk["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion}
            events[n] = json.dumps(chunk, ensure_ascii=False)
            break
    return replace(reply, events=events)


def _answer(request: RecordedRequest) -> ScriptedReply:
    messages = request.messages
    last = messages[-1] if messages else {"role": "user", "content": ""}
    if request.system_prompt.startswith("Write a title"):
        return demo_title(request)
    if request.system_prompt.startswith(MEMORY_PROMPT_OPENING):  # memory extraction: keep each candidate
        return echo_memories(request)
    tools = set(request.tool_names)
    zh = is_chinese(_user_text(_last_user(messages)))
    if last.get("role") == "tool" and last.get("name") in ("remember", "recall", "forget"):
        return _memory_result(last, zh)
    if last.get("role") == "tool":
        return (_after_skill_tool(last, tools, messages, request.system_prompt) or
                _summarise(last, _call_arguments(messages, last), zh))
    text = _user_text(last)
    typed = text.split("[Attached file: ", 1)[0].strip()
    images = [p for p in last.get("content") or [] if isinstance(p, dict) and p.get("type") == "image_url"] \
        if isinstance(last.get("content"), list) else []
    if images or "[Attached file: " in text:
        return _describe_attachments(text, images, zh)
    named = [n for n in _CATALOG_LINE.findall(request.system_prompt)
             if n in typed.lower() or n.replace("-", " ") in typed.lower()]
    if "activate_skill" in tools and named and f"## Skill: {named[0]} (active)" not in request.system_prompt:
        return tool_call_reply(CallScript("activate_skill", {"name": named[0]}), delay_s=0.01)
    named_tool = _named_tool(typed, tools)
    if named_tool is not None:
        return tool_call_reply(CallScript(*named_tool), delay_s=0.01)
    follow_up = _follow_up(typed, messages)
    if "calculate" in tools and follow_up:
        return tool_call_reply(CallScript("calculate", {"expression": follow_up}), delay_s=0.01)
    intent = understand(typed, tools)
    if intent is not None:
        preface = _preface(intent, zh)
        return tool_call_reply(CallScript(intent.tool, intent.args), text=preface + "\n\n" if preface else "",
                               delay_s=0.01)
    if re.search(r"\btable\b|表格", typed, re.I):
        reply = ("## Quarterly summary\n\n| Quarter | Revenue | Change |\n|---|---:|---:|\n| Q1 | 1,200 | — |\n"
                 "| Q2 | 1,450 | +20.8% |\n| Q3 | 1,390 | −4.1% |\n\n- Revenue peaked in **Q2**\n- Q3 dipped slightly\n\n"
                 "> Numbers are illustrative.")
        return text_reply(reply, chunk_size=4, delay_s=0.005)
    if _MEMORY_HEADING in request.system_prompt:  # show that memories reached the request, with their sources
        memory_layer = request.system_prompt.split(_MEMORY_HEADING, 1)[1].split("\n## ", 1)[0]  # not the summary
        remembered = [line[2:] for line in memory_layer.splitlines() if line.startswith("- ")]
        if remembered:
            opening = "根据你之前告诉我的：" if zh else "From what you told me before:"
            said = "你说：" if zh else "You said:"
            return text_reply(f"{opening}\n\n" + "\n".join(f"- {r}" for r in remembered[:3]) +
                              f"\n\n{said}\n\n> {typed}", chunk_size=3, delay_s=0.005)
    return text_reply(_help(typed, zh), chunk_size=3, delay_s=0.005)


_FOLLOW_UP = re.compile(r"^(?:and\s+|then\s+|now\s+)?"
                        r"(?P<op>times|multiplied by|plus|minus|divided by|乘以|乘|加上|加|减去|减|除以|除)"
                        r"\s*(?P<n>\d+(?:\.\d+)?)\s*(?:呢)?[?？.。!！]*$", re.I)
_OPERATORS = {"times": "*", "multiplied by": "*", "乘以": "*", "乘": "*", "plus": "+", "加上": "+", "加": "+",
              "minus": "-", "减去": "-", "减": "-", "divided by": "/", "除以": "/", "除": "/"}


def _follow_up(text: str, messages: list[dict]) -> str | None:
    """"and times 2?" / "再乘以 2": the last calculation's result, worked on again (None when there is none)."""
    found = _FOLLOW_UP.search(_POLITE.sub("", text.strip()).removeprefix("再").strip())
    if not found:
        return None
    for message in reversed(messages):
        if message.get("role") == "tool" and message.get("name") == "calculate":
            try:
                result = json.loads(str(message.get("content") or "")).get("result")
            except (ValueError, AttributeError):
                return None
            return f"{result}{_OPERATORS[found.group('op').lower()]}{found.group('n')}" if result is not None else None
    return None


def _help(text: str, zh: bool) -> str:
    if zh:
        return (f"你说的是：\n\n> {text}\n\n我是演示模型，只按简单的规则回答。可以试试：\n\n"
                "- 写一个 hello.txt，内容是 你好\n- 新建文件夹 notes\n- 把 hello.txt 移动到 notes/hello.txt\n"
                "- 删除 hello.txt\n- 获取 https://example.com\n- 记住我喜欢喝茶 · 你记得我什么？ · 忘掉喝茶\n"
                "- 现在几点 · 计算 12*7 · 列出文件 · 给我一个表格\n- 附上一张图片或一个文件，问我它是什么")
    return (f"You said:\n\n> {text}\n\nI am the demo model and follow simple rules. Try:\n\n"
            "- write hello.txt saying hi\n- make a folder notes\n- move hello.txt to notes/hello.txt\n"
            "- delete hello.txt\n- fetch https://example.com\n"
            "- remember that I prefer tea · what do you remember about me? · forget tea\n"
            "- what time is it · calculate `(12+34)*5` · list my files · show me a table\n"
            "- attach an image or a file and ask what it is\n\n```python\nprint('hello from Hermes')\n```")


def _preface(intent: Intent, zh: bool) -> str:
    args = intent.args
    en = {"write_file": f"I'll write `{args.get('path')}`.",
          "make_directory": f"I'll create the folder `{args.get('path')}`.",
          "move_path": f"I'll move `{args.get('src')}` to `{args.get('dst')}`.",
          "delete_path": f"I'll delete `{args.get('path')}` as you asked.",
          "fetch_url": f"I'll fetch {args.get('url')}."}
    cn = {"write_file": f"我来写入 `{args.get('path')}`。", "make_directory": f"我来新建文件夹 `{args.get('path')}`。",
          "move_path": f"我来把 `{args.get('src')}` 移动到 `{args.get('dst')}`。",
          "delete_path": f"我来删除 `{args.get('path')}`。", "fetch_url": f"我来获取 {args.get('url')}。"}
    return (cn if zh else en).get(intent.tool, "")


def _user_text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return str(content or "")


def _last_user(messages: list[dict]) -> dict:
    return next((m for m in reversed(messages) if m.get("role") == "user"), {})


def _call_arguments(messages: list[dict], tool_message: dict) -> dict[str, Any]:
    """The arguments of the call a tool result answers (from the assistant message that made it)."""
    for message in reversed(messages):
        for call in message.get("tool_calls") or []:
            if call.get("id") == tool_message.get("tool_call_id"):
                try:
                    args = json.loads((call.get("function") or {}).get("arguments") or "{}")
                except ValueError:
                    return {}
                return args if isinstance(args, dict) else {}
    return {}


# ---------------------------------------------------------------- attachments

def _image_info(part: dict) -> tuple[str, int, int, int]:
    """(format, width, height, bytes) of an image part, read from the image's own header."""
    url = str((part.get("image_url") or {}).get("url") or "")
    mime, _, data64 = url.partition(";base64,")
    try:
        data = base64.b64decode(data64)
    except ValueError:
        data = b""
    kind = mime.removeprefix("data:image/").upper() or "image"
    width = height = 0
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
    elif data[:6] in (b"GIF87a", b"GIF89a"):
        width, height = struct.unpack("<HH", data[6:10])
    elif data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                break
            marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                height, width = struct.unpack(">HH", data[i + 5:i + 9])
                break
            i += 2 + length
    return kind, width, height, len(data)


def _describe_attachments(text: str, images: list[dict], zh: bool) -> ScriptedReply:
    lines: list[str] = []
    for part in images:
        kind, width, height, size = _image_info(part)
        kb = max(1, round(size / 1024))
        lines.append(f"- 一张 {kind} 图片，{width}×{height} 像素，约 {kb} KB" if zh else
                     f"- an image: {kind}, {width}×{height} px, about {kb} KB")
    for found in re.finditer(r"\[Attached file: (\"(?:[^\"\\]|\\.)*\")\]\n(`{3,})[^\n]*\n(.*?)\n\2", text, re.S):
        name = json.loads(found.group(1))
        body = found.group(3)
        first = next((line.strip() for line in body.splitlines() if line.strip()), "")[:120]
        count, words = len(body.splitlines()), len(body.split())
        lines.append(f"- 文件 **{name}**：{count} 行，{words} 个词，开头是：“{first}”" if zh else
                     f"- the file **{name}**: {count} lines, {words} words; it begins “{first}”")
    if zh:
        reply = "我收到了：\n\n" + "\n".join(lines) + "\n\n（我是演示模型，能读出大小和开头，但看不懂图片的内容。）"
    else:
        reply = ("You attached:\n\n" + "\n".join(lines) +
                 "\n\n(I am the demo model: I can read sizes and the first lines, not what a picture shows.)")
    return text_reply(reply, chunk_size=3, delay_s=0.005)


# ---------------------------------------------------------------- after a tool

def _guide_for(skill: str, resources: list[str], asked: str, system_prompt: str) -> str:
    """The resource a model would read for this request: the one whose name shares a word with the user's message
    ("fill in a PDF form" -> forms.md), spelled as the skill's instructions spell it (the pdf skill says FORMS.md for
    forms.md); else the first that is not a licence."""
    words = {w.rstrip("s") for w in re.findall(r"[a-z]{3,}", asked.lower())}
    words |= {english for chinese, english in (("表单", "form"), ("表格", "form"), ("参考", "reference")) if chinese in asked}
    instructions = system_prompt.split(f"## Skill: {skill} (active)", 1)[-1]

    def stem(path: str) -> set[str]:
        return {w.rstrip("s") for w in re.findall(r"[a-z]{3,}", path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower())}

    chosen = next((r for r in resources if stem(r) & words), None)
    chosen = chosen or next((r for r in resources if not r.upper().startswith(("LICENSE", "LICENCE"))), resources[0])
    written = re.search(re.escape(chosen), instructions, re.I)
    return written.group(0) if written else chosen


_NEXT_PART = re.compile(r"\(this part: [\d,]+-(?P<end>[\d,]+) of (?P<total>[\d,]+)\)\. To read on")


def _after_skill_tool(tool_message: dict, tools: set[str], messages: list[dict],
                      system_prompt: str) -> ScriptedReply | None:
    """After activate_skill: read the resource that fits the request; a long one is read on, part by part, to its
    end; after that, say what was read and how it begins."""
    try:
        data = json.loads(str(tool_message.get("content") or ""))
    except ValueError:
        data = None
    if isinstance(data, dict) and "skill" in data and "instructions" in data:
        if data.get("resources") and "read_skill_resource" in tools:
            path = _guide_for(data["skill"], list(data["resources"]), _user_text(_last_user(messages)), system_prompt)
            return tool_call_reply(CallScript("read_skill_resource", {"name": data["skill"], "path": path}),
                                   delay_s=0.01)
        steps = "\n".join(f"> {line}" for line in str(data["instructions"]).splitlines()[:8])
        return text_reply(f"I am using the **{data['skill']}** skill. Its instructions begin:\n\n{steps}",
                          chunk_size=3, delay_s=0.005)
    if tool_message.get("name") == "read_skill_resource":
        content = str(tool_message.get("content") or "")
        args = _call_arguments(messages, tool_message)
        more = _NEXT_PART.search(content[-400:])
        if more and "read_skill_resource" in tools:
            return tool_call_reply(CallScript("read_skill_resource", {
                "name": args.get("name", ""), "path": args.get("path", ""),
                "offset": int(more.group("end").replace(",", ""))}), delay_s=0.01)
        parts = [m for m in messages if m.get("role") == "tool" and m.get("name") == "read_skill_resource" and
                 _call_arguments(messages, m).get("path") == args.get("path")]
        first = str(parts[0].get("content") or "") if parts else content
        total = re.search(r" of ([\d,]+)\]$", content.strip())
        size = total.group(1) if total else f"{len(first):,}"
        opening = first.split("\n```", 1)[0]  # up to its first code block, which a quote would cut open
        lines = "\n".join(f"> {line}" for line in opening.splitlines()[:10])
        return text_reply(f"I read `{args.get('path', '')}` from the **{args.get('name', '')}** skill in full "
                          f"({size} characters, {len(parts) or 1} part{'s' if len(parts) > 1 else ''}). "
                          f"It begins:\n\n{lines}\n\nTell me what to do and I will follow it.",
                          chunk_size=3, delay_s=0.005)
    return None


_NAMED_TOOL = re.compile(r"^(?:use|call|run|调用|使用)\s*(?:the\s+)?(?:tool\s+)?`?(?P<name>[A-Za-z0-9_.-]+)`?"
                         r"(?:\s+(?:with\s+)?(?P<args>\{.*\}))?[\s.。]*$", re.I | re.S)


def _named_tool(text: str, tools: set[str]) -> tuple[str, dict[str, Any]] | None:
    """"call mcp_files_add with {"a": 2, "b": 3}" / "调用 mcp_files_echo {"text": "你好"}": any offered tool by its
    exact name (an MCP server's, say), with JSON arguments; None when it names no offered tool or the JSON is bad."""
    found = _NAMED_TOOL.match(_POLITE.sub("", text.strip()).strip())
    if not found or found.group("name") not in tools:
        return None
    try:
        args = json.loads(found.group("args") or "{}")
    except ValueError:
        return None
    return (found.group("name"), args) if isinstance(args, dict) else None


def _memory_result(tool_message: dict, zh: bool = False) -> ScriptedReply:
    try:
        data = json.loads(str(tool_message.get("content") or ""))
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    if data.get("status") == "denied":
        reply = "你拒绝了，所以我什么也没有忘掉。" if zh else "You declined, so I did not forget anything."
    elif data.get("status") == "forgotten":
        reply = ("已忘掉：" if zh else "Forgotten:") + "\n\n" + "\n".join(f"- {s}" for s in data.get("statements", []))
    elif "memories" in data:
        found = data["memories"]
        if found:
            reply = ("我记得：" if zh else "I remember:") + "\n\n" + \
                "\n".join(f"- {m['statement']} ({m['source']})" for m in found)
        else:
            reply = "关于这个，我什么也不记得。" if zh else "I don't remember anything about that."
    elif data.get("status") == "remembered":
        reply = f"好的，我记住了：{data.get('statement')}" if zh else f"I'll remember: {data.get('statement')}"
    else:
        reply = str(data.get("message") or ("没什么可做的。" if zh else "Nothing to do."))
    return text_reply(reply, chunk_size=3, delay_s=0.005)


_WEEKDAYS = dict(zip(("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
                     ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")))
_DECLINED = {
    "write_file": ("You declined, so I did not write `{path}`.", "你拒绝了，所以我没有写入 `{path}`。"),
    "make_directory": ("You declined, so I did not create the folder `{path}`.", "你拒绝了，所以我没有新建文件夹 `{path}`。"),
    "move_path": ("You declined, so I did not move `{src}`; it is where it was.", "你拒绝了，所以我没有移动 `{src}`，它还在原处。"),
    "delete_path": ("You declined, so I did not delete `{path}`; it is still there.", "你拒绝了，所以我没有删除 `{path}`，它还在。"),
}


def _summarise(tool_message: dict, args: dict[str, Any], zh: bool = False) -> ScriptedReply:
    name = str(tool_message.get("name") or "the tool")
    content = str(tool_message.get("content") or "")
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    fill = {"path": args.get("path", ""), "src": args.get("src", ""), "dst": args.get("dst", "")}
    if isinstance(data, dict) and data.get("status") == "denied" and "no one to ask" in str(data.get("message")):
        reply = ("这需要你的批准，但这里没有人可以询问，所以我没有做。请在窗口或终端中运行，以便批准。" if zh else
                 "That needs your approval and there was no one to ask here, so I did not do it. Run it in the window "
                 "or a terminal where you can approve it.")
    elif isinstance(data, dict) and data.get("status") == "denied" and "did not answer" in str(data.get("message")):
        reply = ("你没有及时回答批准的问题，所以我没有做。还需要我做吗？" if zh else
                 "You did not answer the approval question in time, so I did not do it. Do you still want it?")
    elif isinstance(data, dict) and data.get("status") == "denied":
        en, cn = _DECLINED.get(name, ("You declined that action, so I did not do it. How would you like to proceed?",
                                      "你拒绝了这个操作，所以我没有做。接下来想怎么办？"))
        reply = (cn if zh else en).format(**fill)
    elif isinstance(data, dict) and "error" in data:
        reply = f"没有成功：{data['error']}" if zh else f"That did not work: {data['error']}"
    elif isinstance(data, dict) and "result" in data and "expression" in data:
        reply = f"`{data['expression']}` = **{data['result']}**"
    elif isinstance(data, dict) and "iso" in data:
        reply = f"现在是 **{data['iso']}**（{_WEEKDAYS.get(data.get('weekday', ''), '')}）。" if zh else \
            f"It is **{data['iso']}** ({data.get('weekday', '')})."
    elif isinstance(data, dict) and data.get("status") in ("cancelled", "not_run", "interrupted", "dry_run"):
        reply = str(data.get("message") or data.get("would") or data.get("status"))
    elif name in ("write_file", "make_directory", "move_path", "delete_path"):
        reply = _file_done(name, content, fill, zh)
    elif name == "fetch_url":
        reply = _fetched(content, args, zh)
    elif name == "list_directory":
        reply = ("工作区里有：" if zh else "In your workspace:") + f"\n\n```\n{content[:1500]}\n```"
    else:
        reply = (f"`{name}` 返回了：" if zh else f"Here is what `{name}` returned:") + f"\n\n```\n{content[:1500]}\n```"
    return text_reply(reply, chunk_size=3, delay_s=0.005)


def _file_done(name: str, result: str, fill: dict[str, str], zh: bool) -> str:
    """One sentence from a file tool's own result line ("created hello.txt (3 bytes)", "moved a.txt to b.txt")."""
    size = re.search(r"\(([^)]*)\)\s*$", result)
    if not zh:
        return f"Done: {result}."
    size_text = ""
    if size and "replaced" not in size.group(1):
        counted = re.sub(r"(\d[\d,]*) files?", r"\1 个文件", size.group(1))
        counted = re.sub(r"(\d[\d,]*) folders?", r"\1 个文件夹", counted)
        size_text = "（" + counted.replace(", ", "，").replace("bytes", "字节") + "）"
    if name == "write_file":
        return f"好了，已{'覆盖' if result.startswith('overwrote') else '写入'} `{fill['path']}`{size_text}。"
    if name == "make_directory":
        return f"文件夹 `{fill['path']}` 已经存在。" if "already" in result else f"好了，已新建文件夹 `{fill['path']}`。"
    if name == "move_path":
        return f"好了，已把 `{fill['src']}` 移动到 `{fill['dst']}`。" + ("（替换了原有的文件）" if "replaced" in result else "")
    return f"好了，已删除 `{fill['path']}`{size_text}。"


def _fetched(content: str, args: dict[str, Any], zh: bool) -> str:
    head, _, body = content.partition("\n\n")
    title = next((line[7:] for line in head.splitlines() if line.startswith("Title: ")), "")
    status = next((line[8:] for line in head.splitlines() if line.startswith("Status: ")), "?")
    first = " ".join(body.split())[:300]
    url = args.get("url", "")
    if zh:
        return (f"已获取 {url}（状态 {status}）" + (f"，标题是 **{title}**" if title else "") +
                (f"。开头是：\n\n> {first}" if first else "。页面没有文字。"))
    return (f"I fetched {url} (status {status})" + (f"; its title is **{title}**" if title else "") +
            (f". It begins:\n\n> {first}" if first else ". The page has no text."))


demo_responder.title_responder = demo_title  # type: ignore[attr-defined]  # the server's titles for this responder
