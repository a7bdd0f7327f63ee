"""One glossary for the window and the command line: docs/glossary.md's rejected words appear in no translation of
the Qt catalogue (.ts) or the gettext catalog (.po), and the terms users say are the ones used (Token, 服务商,
撤销, 右侧面板, 不用记忆)."""

from __future__ import annotations

from tests.support.glossary import glossary_problems, po_pairs, rules, ts_pairs


def test_the_window_uses_the_glossarys_words() -> None:
    problems = glossary_problems(ts_pairs())
    assert not problems, "\n".join(problems)


def test_the_command_line_uses_the_glossarys_words() -> None:
    problems = glossary_problems(po_pairs())
    assert not problems, "\n".join(problems)


def test_the_words_users_say() -> None:
    window = dict(ts_pairs())
    assert window["Revoke"] == "撤销" and window["Revoke all"] == "全部撤销" and window["Undo"] == "撤销"
    assert window["Inspector"] == "右侧面板" and window["Show inspector"] == "显示右侧面板"
    assert window["Incognito"] == "不用记忆" and "无痕" not in "".join(window.values())
    assert window["{0} tokens"] == "{0} 个 Token" and window["Max output tokens"] == "最大输出 Token 数"
    assert window["Provider"] == "服务商" and window["Providers"] == "服务商"
    assert window["Allow once"] == "批准一次" and window["Deny"] == "拒绝" and window["Fork"] == "分支"
    terminal = dict(po_pairs())
    assert terminal["Provider"] == "服务商"
    assert terminal["their schemas add about {0:,} tokens to every request"].endswith("个 Token")


def test_the_check_reads_the_table_and_catches_a_rejected_word() -> None:
    found = rules()
    assert {rule.wanted for rule in found} >= {"Token", "服务商", "撤销", "右侧面板", "不用记忆", "对话"}
    assert glossary_problems([("{0} tokens", "{0} 个词元")], found)
    assert glossary_problems([("Default provider", "默认提供方")], found)
    assert not glossary_problems([("Sign in through the identity provider", "通过身份提供方登录")], found)
    assert not glossary_problems([("Signed in (tokens in the system keyring)", "已登录（令牌在系统密钥环中）")], found)
    assert glossary_problems([("{0} tokens", "{0} 个令牌")], found), "令牌 is the sign-in sense only"
    assert not glossary_problems([("max_tokens: {tokens}", "max_tokens：{tokens}")], found), "data is not a word"
    assert glossary_problems([("Revoke", "吊销")], found)
