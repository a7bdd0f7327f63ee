"""A tiny rule-based "model" for trying the app by hand and for screenshots and benchmarks.

It answers over the scripted server like a real model would: it calls `calculate`
for arithmetic, `get_current_time` for the time, `list_directory` for files,
`activate_skill` when the message names a skill in the catalog (then reads its first resource),
summarises tool results, and otherwise replies with a little Markdown.
"""

from __future__ import annotations

import json
import re

from tests.support.model_server import (
    MEMORY_PROMPT_OPENING, CallScript, RecordedRequest, ScriptedReply, echo_memories, text_reply, tool_call_reply,
)

_ARITHMETIC = re.compile(r"[\d\.\s\(\)\+\-\*/\^%]{3,}")
_CATALOG_LINE = re.compile(r"^- ([a-z0-9][a-z0-9-]*): ", re.M)
_MEMORY_HEADING = "## What you remember about the user"
_FORGET = re.compile(r"\bforget (?:what i said |everything )?(?:about )?(?:the |my )?(.+?)[.!?]*$|忘(?:掉|记)(?:我说的)?(?:关于)?(.+?)(?:的事)?[。！]*$",
                     re.I)
_RECALL = re.compile(r"what do you (?:remember|know) about (?:me|my )?(.*?)[?.!]*$|你记得(.*?)[吗？?]*$", re.I)


def demo_responder(request: RecordedRequest) -> ScriptedReply:
    messages = request.messages
    last = messages[-1] if messages else {"role": "user", "content": ""}
    if "Write a title" in request.system_prompt:
        asked = str(last.get("content") or "").split("\n")[1] if "\n" in str(last.get("content")) else ""
        return text_reply(" ".join(asked.split()[:5]).rstrip("?") or "Conversation")
    if request.system_prompt.startswith(MEMORY_PROMPT_OPENING):  # memory extraction: keep each candidate
        return echo_memories(request)
    tools = set(request.tool_names)
    if last.get("role") == "tool" and last.get("name") in ("remember", "recall", "forget"):
        return _memory_result(last)
    if last.get("role") == "tool":
        return _after_skill_tool(last, tools, request.system_prompt) or _summarise(last)
    text = str(last.get("content") or "")
    named = [n for n in _CATALOG_LINE.findall(request.system_prompt)
             if n in text.lower() or n.replace("-", " ") in text.lower()]
    if "activate_skill" in tools and named and f"## Skill: {named[0]} (active)" not in request.system_prompt:
        return tool_call_reply(CallScript("activate_skill", {"name": named[0]}), delay_s=0.01)
    forgetting, recalling = _FORGET.search(text.strip()), _RECALL.search(text.strip())
    if "forget" in tools and forgetting:
        return tool_call_reply(CallScript("forget", {"query": (forgetting.group(1) or forgetting.group(2)).strip()}),
                               delay_s=0.01)
    if "recall" in tools and recalling:
        return tool_call_reply(CallScript("recall", {"query": (recalling.group(1) or recalling.group(2) or
                                                               "me").strip() or "me"}), delay_s=0.01)
    expression = max(_ARITHMETIC.findall(text), key=len, default="").strip().rstrip("?=")
    if "calculate" in tools and re.search(r"\d\s*[\+\-\*/\^]", expression or ""):
        return tool_call_reply(CallScript("calculate", {"expression": expression}), delay_s=0.01)
    if "get_current_time" in tools and re.search(r"\btime\b|几点|时间", text, re.I):
        return tool_call_reply(CallScript("get_current_time", {}), delay_s=0.01)
    deleting = re.search(r"\bdelete (?:the )?([\w./-]+)", text, re.I)
    if "delete_path" in tools and deleting:
        return tool_call_reply(CallScript("delete_path", {"path": deleting.group(1)}),
                               text=f"I'll delete `{deleting.group(1)}` as you asked.", delay_s=0.01)
    if "list_directory" in tools and re.search(r"\bfiles?\b|folder|文件", text, re.I):
        return tool_call_reply(CallScript("list_directory", {"path": "."}), delay_s=0.01)
    if re.search(r"\btable\b|表格", text, re.I):
        reply = ("## Quarterly summary\n\n| Quarter | Revenue | Change |\n|---|---:|---:|\n| Q1 | 1,200 | — |\n"
                 "| Q2 | 1,450 | +20.8% |\n| Q3 | 1,390 | −4.1% |\n\n- Revenue peaked in **Q2**\n- Q3 dipped slightly\n\n"
                 "> Numbers are illustrative.")
        return text_reply(reply, chunk_size=4, delay_s=0.005)
    if _MEMORY_HEADING in request.system_prompt:  # show that memories reached the request, with their sources
        remembered = [line[2:] for line in request.system_prompt.split(_MEMORY_HEADING, 1)[1].splitlines()
                      if line.startswith("- ")]
        if remembered:
            return text_reply("From what you told me before:\n\n" + "\n".join(f"- {r}" for r in remembered[:3]) +
                              f"\n\nYou said:\n\n> {text}", chunk_size=3, delay_s=0.005)
    if re.search(r"[\u4e00-\u9fff]", text):
        reply = f"你好！你说的是：\n\n> {text}\n\n我是演示模型，可以**计算**、查看**时间**和列出**文件**。"
    else:
        reply = (f"You said:\n\n> {text}\n\nI am the demo model. Try asking me to **calculate** `(12+34)*5`, "
                 "for the **time**, or to list your **files**.\n\n```python\nprint('hello from Hermes')\n```")
    return text_reply(reply, chunk_size=3, delay_s=0.005)


def _after_skill_tool(tool_message: dict, tools: set[str], system_prompt: str = "") -> ScriptedReply | None:
    """After activate_skill: read the skill's first resource (if any); after that, say what the skill asks for."""
    try:
        data = json.loads(str(tool_message.get("content") or ""))
    except ValueError:
        data = None
    if isinstance(data, dict) and "skill" in data and "instructions" in data:
        if data.get("resources") and "read_skill_resource" in tools:
            return tool_call_reply(CallScript("read_skill_resource", {"name": data["skill"],
                                                                      "path": data["resources"][0]}), delay_s=0.01)
        # The instructions are in the system message once the skill is active (activate_skill only says so).
        heading = f"## Skill: {data['skill']} (active)\n"
        section = system_prompt.split(heading, 1)[1].split("\n## Skill: ", 1)[0] if heading in system_prompt \
            else str(data["instructions"])
        steps = "\n".join(f"> {line}" for line in section.strip().splitlines()[:8])
        return text_reply(f"I am using the **{data['skill']}** skill. Its instructions begin:\n\n{steps}",
                          chunk_size=3, delay_s=0.005)
    if tool_message.get("name") == "read_skill_resource":
        lines = "\n".join(f"> {line}" for line in str(tool_message.get("content") or "").splitlines()[:10])
        return text_reply(f"Following the skill's guide:\n\n{lines}\n\nPaste your notes and I will write it in "
                          "this format.", chunk_size=3, delay_s=0.005)
    return None


def _memory_result(tool_message: dict) -> ScriptedReply:
    try:
        data = json.loads(str(tool_message.get("content") or ""))
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    if data.get("status") == "denied":
        reply = "You declined, so I did not forget anything."
    elif data.get("status") == "forgotten":
        reply = "Forgotten:\n\n" + "\n".join(f"- {s}" for s in data.get("statements", []))
    elif "memories" in data:
        found = data["memories"]
        reply = ("I remember:\n\n" + "\n".join(f"- {m['statement']} ({m['source']})" for m in found)) if found \
            else "I don't remember anything about that."
    elif data.get("status") == "remembered":
        reply = f"I'll remember: {data.get('statement')}"
    else:
        reply = str(data.get("message") or "Nothing to do.")
    return text_reply(reply, chunk_size=3, delay_s=0.005)


def _summarise(tool_message: dict) -> ScriptedReply:
    name = tool_message.get("name", "the tool")
    content = str(tool_message.get("content") or "")
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    if isinstance(data, dict) and "result" in data and "expression" in data:
        reply = f"`{data['expression']}` = **{data['result']}**"
    elif isinstance(data, dict) and data.get("status") == "denied":
        reply = "You declined that action, so I did not do it. How would you like to proceed?"
    elif isinstance(data, dict) and "iso" in data:
        reply = f"It is **{data['iso']}** ({data.get('weekday', '')})."
    else:
        reply = f"Here is what `{name}` returned:\n\n```\n{content[:1500]}\n```"
    return text_reply(reply, chunk_size=3, delay_s=0.005)
