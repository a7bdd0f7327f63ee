"""Rules that find memory candidates in the user's own words (cheap, no model): sentences that state a preference,
an identity, a project, a date or deadline, or ask to be remembered. Questions, hypotheticals, hedges, reported
speech, whatever follows a frame (a story, a text to transform, a lead-in to quoted material) and requests to
forget are never candidates. The model only refines what these find (core/memory/extract.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from hermes_desktop.core.memory.model import Kind

# A sentence ends at . ! ? ; (or their CJK forms) and at a line break; a Latin one followed by more of the same
# word ("v1.2", "e.g.", a key like "4f1e.QwEr", a URL) does not end it, so a key is never cut in two memories' halves.
_SENTENCE = re.compile(r"(?:[^.!?。！？\n;；]|[.!?;](?=[^\s.!?;。！？；]))+[.!?。！？;；]*")

_HYPOTHETICAL = re.compile(
    r"\b(if|unless|suppose|supposing|imagine|hypothetically|hypothetical|pretend|what if|assuming|assume|in case|"
    r"as if|as though|let'?s say|say that|wish|wished|dream|dreamt|dreamed|were I|had I|in theory|theoretically|"
    r"used to)\b|"  # (a habit of the past is not a fact now)
    r"\b(?:would|could|might)\b(?!\s+(?:like|love|prefer|rather|appreciate|enjoy)\b)|"
    r"\b(?:i|you|we|he|she|they)['’]d\b(?!\s+(?:like|love|prefer|rather|appreciate|enjoy)\b)|"
    r"如果|假如|假设|要是|倘若|万一|想象|假使|若是|的话",
    re.I)
# A sentence that follows a hypothetical and goes on with it ("Suppose I were an admin. Then I'd have every right.").
_CONTINUES = re.compile(r"^\s*(then|in that case|and then|so then|那么|那|就)\b", re.I)
# Someone else's words reported: "Bob told me: I am an admin", "my boss says I'm in charge", "他说我是管理员".
# The user's own "I said"/"I told you" is not (the verb right after I / I've / I had / I just ...). Words that are
# nouns as often as verbs ("claims", "replies", "quote") are left out: "I prefer replies in English" is the user.
_REPORTED = re.compile(
    r"(?<!\bI )(?<!\bI've )(?<!\bI have )(?<!\bI had )(?<!\bI just )(?<!\bI already )"
    r"\b(told|tells|telling|said|says|saying|wrote|writes|claimed|thinks|thought|believes|believed|"
    r"mentioned|insists|insisted|according to|replied|asked me|answered|responded|texted|messaged|e-?mailed|"
    r"tweeted|posted|yelled|shouted|whispered)\b"
    # Informal quotatives ("He goes, I am an admin", "she was like: …", "he's all, …"): the verb, then a comma,
    # a colon, a quote mark or the end of the line (the words follow on the next one).
    r"|\b(?:goes|went|is like|was like|were like|are like|be like|['’]s like|['’]re like|['’]s all)"
    r"\s*(?:[,:：，\"“”'‘]|$)"
    # 我说 is the user's own words, but 跟我说/对我说 ("said to me") is someone else's.
    r"|(?:(?<!我)|(?<=[跟对和向给]我))(?:说过?|告诉我|告诉过我|写道|声称|表示|认为|据说|听说|发来|来了句)",
    re.I)
# A hedge: the user is not saying it is so ("Maybe I am an admin", "I'm probably the owner", "我可能是管理员").
# "尽可能" (as … as possible) is a wish about answers, not a hedge.
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|presumably|apparently|supposedly|allegedly|seemingly|conceivably|"
    r"may be|i guess|i'?m guessing|i reckon|not sure|unsure|not certain|i doubt|might)\b|"
    r"\b(?:i|you|we|he|she|they|it|this|that)\s+may\b|"
    r"也许|(?<!尽)可能|大概|或许|说不定|恐怕|好像|似乎|估计|兴许|多半|不确定|不一定|未必",
    re.I)
# A fiction or role-play frame: what follows it (to the end of the message) is a character's, not the user's
# ("In the story, I am an admin", "Let's role-play. I'm the root user.", "假设我是管理员", "故事里我是管理员").
_FICTION = re.compile(
    r"\b(?:pretend(?:ing)?|imagine|role[- ]?play(?:ing)?|make[- ]believe|in[- ]character|(?<!\bI )act as|"
    r"let'?s play|play(?:ing)? (?:the role|a role|a character|along)|fictional|hypothetical scenario|"
    r"in (?:the|a|my|this|our|your|that) (?:story|stories|novel|tale|fiction|game|script|dream|roleplay|"
    r"role-play|scenario|simulation|fantasy))\b|"
    r"(?:故事|小说|游戏|剧本|剧情|梦|设定|电影)(?:里|中|内)|扮演|假装|假设|想象|虚构|角色扮演",
    re.I)
# A request to transform text: what it names is material to work on, not the user's words about themselves
# ("Translate this: I am an admin", "Proofread the following", "把下面这句翻译成英文：…"). The verb counts as a
# request when it opens the sentence (after "please", "can you" …), names its object ("this", "the following",
# "it") or is followed by a colon; "I am a translator" and "我是一名翻译" are not requests.
_TRANSFORM_VERB = (r"(?:translate|rewrite|re-write|rephrase|paraphrase|reword|summari[sz]e|proofread|proof-read|"
                   r"spell-?check|transcribe|fix (?:the )?(?:grammar|spelling|typos|wording)|"
                   r"check (?:the )?(?:grammar|spelling|wording)|turn (?:this|it|that) into|make (?:this|it|that) sound)")
# Verbs that are as often something else ("Edit:" a label, "Correct, …", "Polish" a language): only with an object.
_WEAK_TRANSFORM_VERB = r"(?:edit|correct|improve|shorten|simplify|convert|polish|format|clean up|tidy up)"
_OBJECT = r"(?:this|that|these|those|it|the following|below|the text|the sentence|the message|the paragraph|the line)"
_CJK_TRANSFORM_VERB = r"(?:翻译|译成|改写|重写|润色|总结|概括|校对|修改|纠正|转述|改一下|缩写|扩写)"
_TRANSFORM = re.compile(
    rf"^\W*(?:(?:please|pls|kindly|can you|could you|would you|will you|help me|now|ok|okay|and|also|then|just|"
    rf"quickly|i need you to|i want you to)[\s,]+)*{_TRANSFORM_VERB}\b|"
    rf"\b(?:{_TRANSFORM_VERB}|{_WEAK_TRANSFORM_VERB})\s+{_OBJECT}\b|\b{_TRANSFORM_VERB}\b[^:：\n]{{0,80}}[:：]|"
    rf"^\W*(?:请|麻烦你?|帮我|帮忙|给我|你)*{_CJK_TRANSFORM_VERB}|(?:请|帮我|帮忙|麻烦)[^。！？\n]{{0,12}}{_CJK_TRANSFORM_VERB}|"
    rf"{_CJK_TRANSFORM_VERB}(?:一下|下面|以下|这|成|为)|{_CJK_TRANSFORM_VERB}[^:：\n]{{0,30}}[:：]",
    re.I)
# A standing wish about how to work ("From now on, translate everything into French", "以后都翻译成英文") is a
# preference, not a text to transform, unless a colon brings the text with it.
_STANDING = re.compile(r"\b(?:from now on|always|in (?:the )?future|going forward|every time|by default)\b|"
                       r"以后|总是|从现在|每次|默认", re.I)
# A lead-in naming quoted or forwarded material, ended by a colon ("Quote from the ticket: …", "Here is what he
# sent:", "Email from Bob:", "他发来的消息：…"): what follows the colon, to the end of the message, is that
# material. Neutral lead-ins the user uses for their own words ("Remember:", "Note:", "My preferences:", "The
# following:", "记住：") name no one else's material and are not these.
_LEAD_IN = re.compile(
    r"\b(?:quote[ds]?|quoting|citation|excerpt|snippet|ticket|e-?mails?|mail|messages?|msg|dm|sms|text message|"
    r"chat log|transcript|logs?|tweet|letter|article|passage|document|sent|forwarded|forwarding|fwd|fw|copied|"
    r"pasted|reads|goes|went)\b[^:：\n]{0,60}[:：]|"
    r"(?:引用|原文|工单|邮件|消息|短信|留言|帖子|转发|发来|文章|段落|聊天记录|日志)[^:：\n]{0,30}[:：]",
    re.I)
# A line of a pasted chat transcript: a speaker's name, a colon, their words ("Alice: I am the admin here").
# A label the user puts before their own words ("Note:", "Remember:", "PS:") is not a speaker.
_SPEAKER = re.compile(r"^\s*(?:\[[^\]]{1,20}\]\s*)?([A-Z][\w.'-]{0,20}(?: [A-Z][\w.'-]{0,20})?)\s*[:：]\s+\S")
_LABELS = frozenset("""remember note notes please ps p.s fyi update edit also reminder important context me question
answer summary todo tl;dr tldr nb n.b btw info warning aside""".split())
_FIRST_PERSON = re.compile(r"\b(i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|myself)\b|我", re.I)
# "Forget what I said about the deadline" asks to forget: it is never itself a memory ("Don't forget …" is one).
_FORGET_REQUEST = re.compile(r"^\s*(?:(?:please|pls|can you|could you|would you)[\s,]+)*(?:forget|stop remembering|"
                             r"unremember|delete (?:the |that |my |this )?memor)|^\s*(?:请|麻烦)?你?(?:忘掉|忘记|忘了|别记)",
                             re.I)
_QUESTION_START = re.compile(r"^\s*(what|how|why|when|where|who|which|can you|could you|would you|do you|does|is it|"
                             r"are you|should i|shall|will you)\b", re.I)

_PATTERNS: list[tuple[Kind, re.Pattern[str]]] = [
    (Kind.EXPLICIT, re.compile(r"\bremember\b|\bdon'?t forget\b|\bkeep in mind\b|\bnote that\b|记住|记得|别忘|记一下", re.I)),
    (Kind.IDENTITY, re.compile(r"\bmy name is\b|\bcall me\b|\bi am an?\b|\bi'?m an?\b|\bi work (as|at|for)\b|"
                               r"\bi live in\b|\bi'?m from\b|我叫|我的名字|我是|我住在|我在.{1,12}工作", re.I)),
    (Kind.PREFERENCE, re.compile(r"\bi (really )?(prefer|like|love|hate|dislike|enjoy|want you to)\b|"
                                 r"\bi (don'?t|do not|never|always) (like|want|use|eat|drink)\b|"
                                 r"\b(please )?(always|never)\b|\bfrom now on\b|\bin (the )?future\b|\bgoing forward\b|"
                                 r"\bdon'?t (ever )?(use|give|send|write|call)\b|"
                                 r"以后|我(很|最|更|比较)?喜欢|我不喜欢|我(更)?偏好|我讨厌|我爱|不要|别再|总是|从现在", re.I)),
    (Kind.PROJECT, re.compile(r"\b(my|our) (project|app|repo|codebase|startup|company|thesis|book)\b|\bworking on\b|"
                              r"\bproject [A-Z\"“]|项目|工程", re.I)),
    (Kind.DEADLINE, re.compile(r"\bdeadline\b|\bdue\b|\bby (mon|tues|wednes|thurs|fri|satur|sun)day\b|截止|到期|之前交|"
                               r"交付|\bbefore (the )?\d", re.I)),
]

_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                            "nov", "dec"))}
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_MONTH_DAY = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)
_CJK_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]")
_RELATIVE = [(re.compile(r"\btomorrow\b|明天"), 1), (re.compile(r"后天"), 2), (re.compile(r"\btoday\b|今天"), 0),
             (re.compile(r"\bnext week\b|下周|下个星期"), 7)]


@dataclass(frozen=True, slots=True)
class Candidate:
    sentence: str  # the user's words, as written
    kind: Kind
    deadline: date | None = None


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def is_question(sentence: str) -> bool:
    s = sentence.strip()
    return s.endswith(("?", "？")) or s.rstrip("。.!！ ").endswith(("吗", "呢", "么")) or bool(_QUESTION_START.match(s))


def is_hypothetical(sentence: str) -> bool:
    return bool(_HYPOTHETICAL.search(sentence))


def is_reported(sentence: str) -> bool:
    """Whether the sentence reports someone else's words (what they say about the user is not the user saying it),
    or is a speaker's line of a chat transcript ("Alice: I am the admin")."""
    if _REPORTED.search(sentence):
        return True
    speaker = _SPEAKER.match(sentence)
    return speaker is not None and speaker.group(1).lower().rstrip(".") not in _LABELS


def is_hedged(sentence: str) -> bool:
    return bool(_HEDGE.search(sentence))


def opens_frame(sentence: str) -> bool:
    """Whether the sentence opens a frame that holds to the end of the message: a story or role-play, a request to
    transform text, a lead-in to quoted or forwarded material ending in a colon ("Here is what he sent:"), or
    someone else's words introduced with a colon ("Bob told me: …"). Nothing after it is the user's statement."""
    transform = bool(_TRANSFORM.search(sentence)) and not (_STANDING.search(sentence) and not re.search(r"[:：]", sentence))
    return bool(_FICTION.search(sentence) or transform or _LEAD_IN.search(sentence)
                or (is_reported(sentence) and re.search(r"[:：]", sentence)))


def unstated(sentence: str) -> bool:
    """Whether the sentence, taken alone, is not the user plainly saying something: a question, a hypothetical, a
    hedge, someone else's words reported, or a frame (opens_frame)."""
    return (is_question(sentence) or is_hypothetical(sentence) or is_hedged(sentence) or is_reported(sentence)
            or opens_frame(sentence))


def _unfinished(sentence: str) -> bool:
    """A sentence cut by a line break, not ended ("He goes," or "Bob told me" on a line of its own): the next line
    goes on with it."""
    return not re.search(r"[.!?。！？;；]\W*$", sentence)


def about_self(sentence: str) -> bool:
    """Whether the sentence is clearly the user speaking about themselves: in the first person, stated (not a
    question, a hypothetical, a hedge, someone else's words reported, a story, a text to transform or quoted
    material). What the rules alone may keep."""
    return bool(_FIRST_PERSON.search(sentence)) and not unstated(sentence)


def not_stated(text: str) -> set[str]:
    """The sentences of `text` that are not stated facts: questions, hypotheticals, hedges, reported speech; every
    sentence from a frame on (opens_frame: a story, a text to transform, a colon-ended lead-in to quoted,
    forwarded or reported words, which may stand on the line before them: "Here is what he sent:\nI am an
    admin."); a sentence that goes on with a hypothetical ("Suppose I were an admin. Then I'd have every
    right."); and the line after an unfinished one that was not stated ("He goes\nI am an admin")."""
    found: set[str] = set()
    previous = carried = False
    framed = False
    for sentence in sentences(text):
        bad = (framed or unstated(sentence) or (previous and bool(_CONTINUES.match(sentence)))
               or carried)
        if bad:
            found.add(sentence)
        framed = framed or opens_frame(sentence)
        previous = bad and not is_question(sentence)
        carried = previous and _unfinished(sentence)
    return found


def find_date(sentence: str, today: date) -> date | None:
    """The first date named in `sentence` (ISO, "Dec 15", "15 December", "12月15日", tomorrow/明天...). A month and
    day without a year is the next such day from `today`."""
    def upcoming(month: int, day: int, year: int | None = None) -> date | None:
        try:
            found = date(year or today.year, month, day)
            if year is None and found < today:
                found = date(today.year + 1, month, day)
            return found
        except ValueError:
            return None

    if m := _ISO.search(sentence):
        return upcoming(int(m[2]), int(m[3]), int(m[1]))
    if m := _MONTH_DAY.search(sentence):
        return upcoming(_MONTHS[m[1][:3].lower()], int(m[2]))
    if m := _DAY_MONTH.search(sentence):
        return upcoming(_MONTHS[m[2][:3].lower()], int(m[1]))
    if m := _CJK_DATE.search(sentence):
        return upcoming(int(m[2]), int(m[3]), int(m[1]) if m[1] else None)
    for pattern, days in _RELATIVE:
        if pattern.search(sentence):
            return today + timedelta(days=days)
    return None


def end_of_day(day: date) -> float:
    """A deadline is kept through its whole day (local time), then expires."""
    return datetime(day.year, day.month, day.day, 23, 59, 59).timestamp()


def find_candidates(text: str, today: date) -> list[Candidate]:
    """The sentences of the user's message worth refining into memories, with why (the first rule that matched;
    a date makes it a deadline)."""
    found = []
    skipped = not_stated(text)
    for sentence in sentences(text):
        if sentence in skipped or _FORGET_REQUEST.search(sentence):
            continue
        kind = next((k for k, pattern in _PATTERNS if pattern.search(sentence)), None)
        day = find_date(sentence, today)
        if day is not None and kind in (None, Kind.PROJECT, Kind.FACT, Kind.DEADLINE):
            kind = Kind.DEADLINE
        if kind is not None:
            found.append(Candidate(sentence, kind, day))
    return found


def statement_from_explicit(sentence: str) -> str:
    """"Remember that X" -> "X" (for the rules-only fallback when the model could not refine)."""
    cleaned = re.sub(r"^\s*(?:(?:please|pls|and|also|oh)[\s,]+)*(?:remember|don'?t forget|keep in mind|note)"
                     r"(?:\s+(?:this|that|these|the following))?\s*[:：,，-]?\s*(?:that\s+)?"
                     r"|^\s*(请)?(记住|记得|别忘了?)(这个|这一点|一下)?[，,:：\s]*",
                     "", sentence, flags=re.I)
    cleaned = cleaned.strip(" .。!！")
    return cleaned[:1].upper() + cleaned[1:] if cleaned else sentence.strip()
