<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Activity</name>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="91"/>
        <source>Context {0} / {1} tokens</source>
        <translation>上下文 {0} / {1} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="98"/>
        <source>Model round {0} · {1}</source>
        <translation>第 {0} 轮模型请求 · {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="99"/>
        <source>tool calling: {0}</source>
        <translation>工具调用方式：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="114"/>
        <source>Side request: {purpose} · {model}</source>
        <translation>辅助请求：{purpose} · {model}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="116"/>
        <source>{0:,} tokens in, {1:,} out (estimated)</source>
        <translation>输入 {0:,} 个 Token，输出 {1:,} 个（估算）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="117"/>
        <source>{0:,} tokens in, {1:,} out</source>
        <translation>输入 {0:,} 个 Token，输出 {1:,} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="124"/>
        <location filename="../../hermes_desktop/ui/activity.py" line="134"/>
        <source>{tool} ({risk})</source>
        <translation>{tool}（{risk}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="126"/>
        <location filename="../../hermes_desktop/ui/activity.py" line="342"/>
        <source>arguments: {0}</source>
        <translation>参数：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="138"/>
        <source>{decision} by {who}</source>
        <translation>{decision}（{who}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="146"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="148"/>
        <source>decision: {decision}; result: {size} characters ({cut} cut)</source>
        <translation>决定：{decision}；结果：{size} 个字符（截去 {cut} 个）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="152"/>
        <source>decision: {decision}; result: {size} characters</source>
        <translation>决定：{decision}；结果：{size} 个字符</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="156"/>
        <source>error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="160"/>
        <source>Summarising {0} earlier messages (the request waits)</source>
        <translation>正在总结之前的 {0} 条消息（请求等待中）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="165"/>
        <source>made now by {0}</source>
        <translation>由 {0} 刚刚生成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="166"/>
        <source>made earlier by {0}</source>
        <translation>由 {0} 早先生成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="167"/>
        <source>Earlier conversation: {0} messages sent as a {1}-token summary</source>
        <translation>之前的对话：{0} 条消息以 {1} 个 Token 的摘要发送</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="174"/>
        <source>Memory: {0} recalled</source>
        <translation>记忆：想起 {0} 条</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="180"/>
        <source>Workflow memory: a past path offered (from &apos;{0}&apos;)</source>
        <translation>工作流记忆：提供了以往的步骤（来自“{0}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="182"/>
        <source>Earlier request: {0}
Path: {1}</source>
        <translation>以往的请求：{0}
步骤：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="192"/>
        <source>Error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="200"/>
        <source>Stopped: {0}</source>
        <translation>已停止：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="214"/>
        <source>{0} tokens in, {1} out ({2} of them reasoning)</source>
        <translation>输入 {0} 个 Token，输出 {1} 个（其中思考 {2} 个）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="218"/>
        <source>reasoning tokens: {0}</source>
        <translation>思考 Token：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="221"/>
        <source>{0} tokens in, {1} out</source>
        <translation>输入 {0} 个 Token，输出 {1} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="224"/>
        <source>first token after {0} s</source>
        <translation>首个 Token 用时 {0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="226"/>
        <source>{0} s</source>
        <translation>{0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="227"/>
        <source> — </source>
        <comment>before a round&apos;s numbers</comment>
        <translation> — </translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="228"/>
        <source>, </source>
        <comment>between a round&apos;s numbers</comment>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="269"/>
        <source>interrupted, not run (the reply was cut off)</source>
        <translation>已中断，未运行（回复被截断）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="270"/>
        <source>{outcome} · {seconds} s</source>
        <translation>{outcome} · {seconds} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="276"/>
        <source>system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="277"/>
        <source>tool schemas</source>
        <translation>工具定义</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="278"/>
        <source>skill catalog</source>
        <translation>技能目录</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="279"/>
        <source>active skills</source>
        <translation>已启用的技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="280"/>
        <source>tool rules</source>
        <translation>工具规则</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="281"/>
        <source>assistant&apos;s instructions</source>
        <translation>助手的指令</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="282"/>
        <source>memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="283"/>
        <source>summary the session began with</source>
        <translation>对话开头的摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="284"/>
        <source>earlier conversation (summary)</source>
        <translation>之前的对话（摘要）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="285"/>
        <source>history</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="286"/>
        <source>this turn</source>
        <translation>本轮</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="287"/>
        <source>attachments</source>
        <translation>附件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="298"/>
        <source>{layer}: {tokens}</source>
        <translation>{layer}：{tokens}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="302"/>
        <source>layers sum to {0}; total scaled to the server&apos;s count</source>
        <translation>各层合计 {0}；总数已按服务器的计数换算</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="305"/>
        <source>skills: {0} listed, {1} more searchable with find_skills</source>
        <translation>技能：列出 {0} 个，另有 {1} 个可用 find_skills 搜索</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="308"/>
        <source>skills: all {0} listed</source>
        <translation>技能：全部 {0} 个已列出</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="310"/>
        <source>{0} older messages left out</source>
        <translation>省略了 {0} 条较早的消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="330"/>
        <source>{0} tokens ({1} of them reasoning)</source>
        <translation>{0} 个 Token（其中思考 {1} 个）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="333"/>
        <source>{0} tokens</source>
        <translation>{0} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="335"/>
        <source>{0} characters</source>
        <translation>{0} 个字符</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="336"/>
        <source>Model reply {0} — {1} (interrupted)</source>
        <translation>模型回复 {0} — {1}（已中断）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="337"/>
        <source>Model reply {0} — {1}</source>
        <translation>模型回复 {0} — {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/activity.py" line="351"/>
        <source>result: {0} characters</source>
        <translation>结果：{0} 个字符</translation>
    </message>
</context>
<context>
    <name>AddModelDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="487"/>
        <source>Add a model</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="488"/>
        <source>A model name {0} accepts, as its documentation writes it (for example one its server does not list). It is kept with the provider and used for this session.</source>
        <translation>{0} 接受的模型名称，按其文档的写法填写（例如服务器未列出的模型）。它会保存在该服务商下，并用于本对话。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="494"/>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="497"/>
        <source>Add and use</source>
        <translation>添加并使用</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="356"/>
        <source>{0} (fork)</source>
        <comment>a forked conversation&apos;s title</comment>
        <translation>{0}（分支）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="357"/>
        <source>Untitled</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="831"/>
        <source>active in this session</source>
        <translation>本对话中已启用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="831"/>
        <source>available</source>
        <translation>可用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="833"/>
        <source>code not trusted</source>
        <translation>代码未受信任</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="835"/>
        <source>replaces the {0} skill of the same name</source>
        <translation>替换了同名的{0}技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="847"/>
        <source>Hides the skill of the same name in {0}</source>
        <translation>覆盖了 {0} 中的同名技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="862"/>
        <source>Needs MCP server {0}: configured</source>
        <translation>需要 MCP 服务器 {0}：已在配置中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="863"/>
        <source>Needs MCP server {0}: not configured in mcp.json</source>
        <translation>需要 MCP 服务器 {0}：mcp.json 中未配置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="865"/>
        <source>Needs command {0}: found</source>
        <translation>需要命令 {0}：已找到</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="866"/>
        <source>Needs command {0}: not found on PATH</source>
        <translation>需要命令 {0}：在 PATH 中未找到</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="871"/>
        <source>bundled</source>
        <translation>内置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="871"/>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="871"/>
        <source>~/.agents</source>
        <translation>~/.agents</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/controller.py" line="872"/>
        <source>~/.claude</source>
        <translation>~/.claude</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="39"/>
        <source>Allow this action?</source>
        <translation>批准此操作吗？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="46"/>
        <source>Hermes wants to run:</source>
        <translation>Hermes 想要运行：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="55"/>
        <source>{level} — {explanation}</source>
        <translation>{level} — {explanation}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="73"/>
        <source>Asked again: this changed on disk after it was allowed. Before, it was: {0}</source>
        <translation>再次询问：批准之后磁盘上的情况变了。之前是：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="76"/>
        <source>This is a large change, so Hermes asks even if you allowed this tool before.</source>
        <translation>这是一次较大的改动，所以即使你之前批准过此工具，Hermes 仍会询问。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="82"/>
        <source>The model said: “{0}”</source>
        <translation>模型说：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="87"/>
        <source>Session: {0}</source>
        <translation>对话：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="92"/>
        <source>The tool call&apos;s arguments</source>
        <translation>工具调用的参数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="97"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="98"/>
        <source>Allow once</source>
        <translation>批准一次</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="99"/>
        <source>Allow for this session</source>
        <translation>本对话内批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="103"/>
        <source>Allow this tool for the rest of this conversation, for this kind of change only: allowing it to create a file does not allow it to overwrite one, and allowing it to delete some files does not allow it to delete more.</source>
        <translation>在本对话剩余时间内批准此工具，但仅限这一类更改：批准它新建文件并不批准它覆盖文件，批准它删除一些文件也不批准它删除更多文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="106"/>
        <source>Always allow this tool</source>
        <translation>始终批准此工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="121"/>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="152"/>
        <source>Files to be deleted:</source>
        <translation>将删除的文件：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="158"/>
        <source>… and {0} more</source>
        <translation>……还有 {0} 个文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="170"/>
        <source>… and {0} more characters</source>
        <translation>……还有 {0} 个字符</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="172"/>
        <source>Text to be written:</source>
        <translation>将写入的文字：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="193"/>
        <source>{key}: {path}  →  {resolved}</source>
        <translation>{key}：{path}  →  {resolved}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="196"/>
        <source>{key}: {path}  →  refused: {reason}</source>
        <translation>{key}：{path}  →  已拒绝：{reason}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/approval.py" line="200"/>
        <source>On disk:</source>
        <translation>磁盘上的位置：</translation>
    </message>
</context>
<context>
    <name>AssistantActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="65"/>
        <source>Assistant of this chat</source>
        <translation>本对话的助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="66"/>
        <source>The assistant of this chat: its instructions, model and tools (Ctrl+Shift+A to change)</source>
        <translation>本对话的助手：它的指令、模型和工具（按 Ctrl+Shift+A 更换）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="133"/>
        <source>The assistant change was not saved: {0}</source>
        <translation>助手的更改未能保存：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="140"/>
        <source>all enabled tools</source>
        <translation>所有已启用的工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="142"/>
        <source>no tools</source>
        <translation>不使用工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="174"/>
        <source>Or start with:</source>
        <translation>或者从这些开始：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="187"/>
        <source>More…</source>
        <translation>更多…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="190"/>
        <source>Every assistant, with search (Ctrl+Shift+A)</source>
        <translation>所有助手，可搜索（Ctrl+Shift+A）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="231"/>
        <source>This chat&apos;s next message goes to {0}.</source>
        <translation>本对话的下一条消息将交给{0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="244"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="248"/>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="31"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="252"/>
        <source>Skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="262"/>
        <source>Switch this chat&apos;s assistant…</source>
        <translation>更换本对话的助手…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="268"/>
        <source>Assistant for the new chat…</source>
        <translation>新对话的助手…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="281"/>
        <source>Prompts, assistants and skills…</source>
        <translation>提示词、助手和技能…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="345"/>
        <source>{0} (copy)</source>
        <translation>{0}（副本）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="355"/>
        <source>Deleted “{0}”.</source>
        <translation>已删除“{0}”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="401"/>
        <source>Another assistant already has this name.</source>
        <translation>已有同名的助手。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="406"/>
        <source>Saved “{0}”.</source>
        <translation>已保存“{0}”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="414"/>
        <source>Export assistant</source>
        <translation>导出助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="415"/>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="423"/>
        <source>The assistant was not exported: {0}</source>
        <translation>助手未能导出：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="425"/>
        <source>Exported to {0}.</source>
        <translation>已导出到 {0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="440"/>
        <source>The assistants were not imported: {0}</source>
        <translation>助手未能导入：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_actions.py" line="443"/>
        <source>Imported {0} assistant(s).</source>
        <translation>已导入 {0} 个助手。</translation>
    </message>
</context>
<context>
    <name>AssistantEditor</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="66"/>
        <source>New assistant</source>
        <translation>新建助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="66"/>
        <source>Edit assistant</source>
        <translation>编辑助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="77"/>
        <source>What this assistant does and how it answers (Markdown). Variables: {date}, {language}, {workspace}.</source>
        <translation>这个助手做什么、如何回答（Markdown）。可用变量：{date}、{language}、{workspace}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="82"/>
        <source>One starter prompt per line (shown in an empty chat)</source>
        <translation>每行一个开场提示词（显示在空白对话中）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="88"/>
        <source>The default provider</source>
        <translation>默认服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="95"/>
        <source>The provider&apos;s model</source>
        <translation>服务商的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="98"/>
        <source>The chat&apos;s provider</source>
        <translation>对话的服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="104"/>
        <source>Same as the chat (titles, summaries, memory)</source>
        <translation>与对话相同（标题、摘要、记忆）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="111"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="115"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="191"/>
        <source>Provider&apos;s setting</source>
        <translation>服务商的设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="115"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="116"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="116"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="125"/>
        <source>Knowledge base names, separated by commas</source>
        <translation>知识库名称，用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="126"/>
        <source>Use and record memory</source>
        <translation>使用并记录记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="135"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="232"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="136"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="232"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="137"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="232"/>
        <source>Instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="138"/>
        <source>Starter prompts</source>
        <translation>开场提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="141"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="142"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="166"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="143"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="144"/>
        <source>Top P</source>
        <translation>Top P</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="145"/>
        <source>Max output tokens</source>
        <translation>最大输出 Token 数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="146"/>
        <source>Reasoning effort</source>
        <translation>思考强度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="147"/>
        <source>Side-task provider</source>
        <translation>辅助任务服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="148"/>
        <source>Side-task model</source>
        <translation>辅助任务模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="151"/>
        <source>The assistant may use only what is ticked. Your approval rules still apply: writes and deletes still ask you.</source>
        <translation>助手只能使用勾选的项目。你的批准规则依然有效：写入和删除仍会先询问你。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="156"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="158"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="161"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="165"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="167"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_editor.py" line="233"/>
        <source>Emoji</source>
        <translation>表情符号</translation>
    </message>
</context>
<context>
    <name>AssistantImportDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="57"/>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="102"/>
        <source>Import assistants</source>
        <translation>导入助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="62"/>
        <source>A file, or the URL of a Cherry Studio assistant list</source>
        <translation>文件，或 Cherry Studio 助手列表的 URL</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="64"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="67"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="70"/>
        <source>Hermes, Cherry Studio and NextChat (mask) files are read.</source>
        <translation>可读取 Hermes、Cherry Studio 和 NextChat（面具）文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="79"/>
        <source>Give them the tools they ask for</source>
        <translation>授予它们所请求的工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="83"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="103"/>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="115"/>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="120"/>
        <source>This file cannot be imported: {0}</source>
        <translation>无法导入此文件：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="133"/>
        <source>Asks for: {0}</source>
        <translation>请求：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/assistant_import.py" line="135"/>
        <source>{0} assistant(s) from a {1} file will be added.</source>
        <translation>将从 {1} 文件添加 {0} 个助手。</translation>
    </message>
</context>
<context>
    <name>AssistantPanel</name>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="59"/>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="60"/>
        <source>Search assistants</source>
        <translation>搜索助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="63"/>
        <source>Assistants</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="67"/>
        <source>Use in this chat</source>
        <translation>在本对话中使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="68"/>
        <source>This chat&apos;s next message goes to this assistant (Enter)</source>
        <translation>本对话的下一条消息交给这个助手（Enter）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="69"/>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="70"/>
        <source>Make an assistant with its own instructions, model and tools</source>
        <translation>创建一个有自己指令、模型和工具的助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="71"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="72"/>
        <source>Change this assistant (a built-in one is saved as your copy) (F2)</source>
        <translation>修改这个助手（内置助手会另存为你的副本）（F2）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="73"/>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="74"/>
        <source>Save a copy to change (Ctrl+D)</source>
        <translation>保存一份副本以便修改（Ctrl+D）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="75"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="76"/>
        <source>Delete this assistant (Delete); you can undo it for a moment</source>
        <translation>删除这个助手（Delete）；片刻内可以撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="77"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="78"/>
        <source>Add assistants from a file or a URL (Hermes, Cherry Studio, NextChat)</source>
        <translation>从文件或 URL 添加助手（Hermes、Cherry Studio、NextChat）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="79"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="80"/>
        <source>Save this assistant as a JSON file</source>
        <translation>把这个助手保存为 JSON 文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="81"/>
        <source>Prompts…</source>
        <translation>提示词…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="82"/>
        <source>Saved prompts with {{blanks}}: type / in the message box to use one</source>
        <translation>带 {{空白}} 的已保存提示词：在消息框中输入 / 即可使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="86"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="130"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="131"/>
        <source>Mine</source>
        <translation>我的</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="132"/>
        <source>Gallery</source>
        <translation>助手库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="143"/>
        <source>{emoji} {name}: {description} ({tools})</source>
        <translation>{emoji} {name}：{description}（{tools}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/assistant_panel.py" line="153"/>
        <source>No assistant matches “{0}”.</source>
        <translation>没有与“{0}”匹配的助手。</translation>
    </message>
</context>
<context>
    <name>BroadWorkspace</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/workspace.py" line="23"/>
        <source>Use this folder as the workspace?</source>
        <translation>将此文件夹用作工作区？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/workspace.py" line="24"/>
        <source>{0}

Hermes&apos;s file tools read any file in the workspace without asking, and change files there with your approval. A project folder is safer.</source>
        <translation>{0}

Hermes 的文件工具会不经询问读取工作区中的任何文件，并在你批准后修改其中的文件。使用一个项目文件夹更安全。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/workspace.py" line="28"/>
        <source>Use it anyway</source>
        <translation>仍然使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/workspace.py" line="31"/>
        <source>Don&apos;t use it</source>
        <translation>不使用</translation>
    </message>
</context>
<context>
    <name>ChatInput</name>
    <message>
        <location filename="../../hermes_desktop/ui/chat/input.py" line="30"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/input.py" line="39"/>
        <source>Message Hermes…  (Enter to send, Shift+Enter for a new line)</source>
        <translation>给 Hermes 发消息…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
</context>
<context>
    <name>ChatPane</name>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="92"/>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="319"/>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="93"/>
        <source>Attach images, PDFs or text files (or drop or paste them here)</source>
        <translation>附加图片、PDF 或文本文件（也可拖放或粘贴到这里）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="123"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="125"/>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="130"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="132"/>
        <source>Stop the reply</source>
        <translation>停止回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="133"/>
        <source>Stop (Esc)</source>
        <translation>停止（Esc）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="221"/>
        <source>Not sent: {0} cannot see images. Remove {1}, or pick a model that can (or set Images to Yes in the provider&apos;s settings).</source>
        <translation>未发送：{0} 无法识别图片。请移除 {1}，或选择能识别图片的模型（也可在服务商设置中把“图片”设为“是”）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="240"/>
        <source>Not sent: {0} files are attached; one message takes at most {1}. Remove some, or send them over several messages.</source>
        <translation>未发送：附加了 {0} 个文件，一条消息最多 {1} 个。请移除一些，或分几条消息发送。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="243"/>
        <source>Not sent: the attached files hold {0} characters of text; one message takes at most {1}. Remove some, or copy them into the workspace for the agent to read in pages.</source>
        <translation>未发送：附加文件共有 {0} 个字符的文本，一条消息最多 {1} 个。请移除一些，或把它们复制到工作区，让 Hermes 分页读取。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="246"/>
        <source>Not sent: the attachments are more than this model&apos;s context window leaves room for. Remove some, or copy them into the workspace for the agent to read in pages.</source>
        <translation>未发送：附件超出了此模型上下文窗口能容纳的范围。请移除一些，或把它们复制到工作区，让 Hermes 分页读取。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="253"/>
        <source>Editing your message — Enter sends it as a new branch (the old one is kept); Esc cancels.</source>
        <translation>正在编辑你的消息 — Enter 将其作为新分支发送（旧的会保留）；Esc 取消。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="320"/>
        <source>Images, PDFs and text (*.png *.jpg *.jpeg *.gif *.webp *.bmp *.pdf *.txt *.md *.csv *.json *.py *.js *.ts *.html *.css *.yaml *.yml *.toml *.xml *.log *.sql *.sh *.c *.cpp *.h *.rs *.go *.java);;All files (*)</source>
        <translation>图片、PDF 和文本 (*.png *.jpg *.jpeg *.gif *.webp *.bmp *.pdf *.txt *.md *.csv *.json *.py *.js *.ts *.html *.css *.yaml *.yml *.toml *.xml *.log *.sql *.sh *.c *.cpp *.h *.rs *.go *.java);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="383"/>
        <source>{0}: not attached: {1}</source>
        <translation>{0}：未附加：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="389"/>
        <source>{0} is a link to {1}</source>
        <translation>{0} 是指向 {1} 的链接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="393"/>
        <source>{0}: this PDF has no text layer (scanned pages?), so no text could be extracted.</source>
        <translation>{0}：此 PDF 没有文本层（可能是扫描页），无法提取文字。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="396"/>
        <source>{0}: only the first {1} of {2} characters are sent. Copy it to the workspace to let the agent read the rest in pages.</source>
        <translation>{0}：只发送前 {1} 个字符（共 {2} 个）。把它复制到工作区，Hermes 就能分页读取其余部分。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="434"/>
        <source>Copy to workspace</source>
        <translation>复制到工作区</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="435"/>
        <source>Only the first part is sent. Copy the whole file into the workspace so the agent can read it in pages.</source>
        <translation>只发送了开头部分。把整个文件复制到工作区，Hermes 就能分页读取它。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="443"/>
        <source>Remove {0}</source>
        <translation>移除 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="444"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="489"/>
        <source>{0} is no longer stored.</source>
        <translation>{0} 已不再保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="497"/>
        <source>{0} was not opened: only images, PDFs and text files are opened from here, since other kinds of file could run a program.</source>
        <translation>{0} 未打开：这里只打开图片、PDF 和文本文件，因为其他类型的文件可能会运行程序。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/pane.py" line="502"/>
        <source>{0} could not be opened: {1}</source>
        <translation>无法打开 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../hermes_desktop/ui/chat/view.py" line="25"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>CitationDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="31"/>
        <source>Source [{0}]</source>
        <translation>来源 [{0}]</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="45"/>
        <source>Open document</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="52"/>
        <source>[{0}] does not match a passage given to the model in this turn (the model may have written it without a source).</source>
        <translation>[{0}] 与本轮发给模型的任何段落都不对应（模型可能在没有来源的情况下写了它）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="57"/>
        <source>Document: {0}</source>
        <translation>文档：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="59"/>
        <source>Page {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="62"/>
        <source>Heading: {0}</source>
        <translation>标题：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/citation_dialog.py" line="63"/>
        <source>Knowledge base: {0}</source>
        <translation>知识库：{0}</translation>
    </message>
</context>
<context>
    <name>ErrorBar</name>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="90"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/launch.py" line="59"/>
        <source>Something went wrong inside Hermes: {0}: {1}. Details are in the log.</source>
        <translation>Hermes 内部出错：{0}：{1}。详细信息见日志。</translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/export_actions.py" line="38"/>
        <source>Choose your Obsidian vault&apos;s folder</source>
        <translation>选择你的 Obsidian 库所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/export_actions.py" line="44"/>
        <source>Export session</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/export_actions.py" line="54"/>
        <source>Not exported: {0}</source>
        <translation>未导出：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/export_actions.py" line="57"/>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="86"/>
        <source>Inspector</source>
        <translation>右侧面板</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="89"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="102"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="90"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="257"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="90"/>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="90"/>
        <source>Approval</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="111"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="166"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="168"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="397"/>
        <source>Use in this session</source>
        <translation>在本对话中使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="169"/>
        <source>Trust its code…</source>
        <translation>信任其代码…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="173"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="189"/>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="174"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="187"/>
        <source>Open skills folder</source>
        <translation>打开技能文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="113"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="205"/>
        <source>Activity</source>
        <translation>活动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="112"/>
        <source>MCP</source>
        <translation>MCP</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="114"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="115"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="116"/>
        <source>Assistants</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="176"/>
        <source>Install from URL…</source>
        <translation>从网址安装…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="178"/>
        <source>Browse collections…</source>
        <translation>浏览技能合集…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="180"/>
        <location filename="../../hermes_desktop/ui/inspector.py" line="473"/>
        <source>Save as skill…</source>
        <translation>存为技能…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="182"/>
        <source>Learning…</source>
        <translation>学习记录…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="185"/>
        <source>No skills installed</source>
        <translation>尚未安装技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="186"/>
        <source>Put skill folders (SKILL.md or skill.yaml) in the skills folder, then press Reload.</source>
        <translation>把技能文件夹（含 SKILL.md 或 skill.yaml）放进技能文件夹，然后点“重新加载”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="212"/>
        <source>Nothing yet</source>
        <translation>暂无活动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="213"/>
        <source>Send a message: each turn&apos;s model calls, tool calls and context budget appear here.</source>
        <translation>发送一条消息后，每一轮的模型调用、工具调用和上下文预算都会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="292"/>
        <source>Approval rule for {0}</source>
        <translation>{0} 的批准规则</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="297"/>
        <source>JSON schema</source>
        <translation>参数结构（JSON Schema）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="308"/>
        <source>Built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="310"/>
        <source>Skills (load on demand)</source>
        <translation>技能（按需加载）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="312"/>
        <source>Skill: {0}</source>
        <translation>技能：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="314"/>
        <source>MCP: {0}</source>
        <translation>MCP：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="318"/>
        <source>read</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="318"/>
        <source>write</source>
        <translation>写入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="318"/>
        <source>destructive</source>
        <translation>危险</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="323"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="323"/>
        <source>Always allow</source>
        <translation>始终批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="324"/>
        <source>Ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="324"/>
        <source>Never allow</source>
        <translation>从不批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="374"/>
        <source>Not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="376"/>
        <source>Not loaded: {0}</source>
        <translation>未加载：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="383"/>
        <source>No skills installed. Put skill folders (SKILL.md or skill.yaml) in the skills folder and press Reload.</source>
        <translation>尚未安装技能。把技能文件夹（SKILL.md 或 skill.yaml）放进技能文件夹，然后点“重新加载”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="396"/>
        <source>Stop using in this session</source>
        <translation>在本对话中停用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="413"/>
        <source>Nothing yet. Send a message: each turn&apos;s model calls, tool calls and context budget appear here; select one to find it in the chat.</source>
        <translation>还没有内容。发送一条消息后，每一轮的模型调用、工具调用和上下文预算都会显示在这里；选中一项即可在对话中找到它。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="423"/>
        <source>Earlier turns: rebuilt from the saved conversation</source>
        <translation>较早的轮次：根据保存的对话重建</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="425"/>
        <source>Earlier turns are rebuilt from the saved conversation: their timings, context sizes and approval decisions were not kept.</source>
        <translation>较早的轮次是根据保存的对话重建的：它们的耗时、上下文大小和批准决定没有保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/inspector.py" line="441"/>
        <source>[{0}]</source>
        <comment>how a turn ended</comment>
        <translation>（{0}）</translation>
    </message>
</context>
<context>
    <name>KnowledgeActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="171"/>
        <source>Choose a folder for a knowledge base</source>
        <translation>为知识库选择一个文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="189"/>
        <source>New knowledge base</source>
        <translation>新建知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="190"/>
        <source>Name of the knowledge base for {0}:</source>
        <translation>{0} 的知识库名称：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="201"/>
        <source>The knowledge base was not made: {0}</source>
        <translation>未能创建知识库：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="211"/>
        <source>Remove this knowledge base?</source>
        <translation>移除此知识库吗？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="212"/>
        <source>This deletes the index of “{0}” (its passages and vectors). The folders and their files are not touched; you can add them again.</source>
        <translation>这会删除“{0}”的索引（其中的段落和向量）。文件夹及其中的文件不受影响，你可以再次添加它们。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="214"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="224"/>
        <source>The knowledge base was not removed: {0}</source>
        <translation>未能移除知识库：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="238"/>
        <source>The knowledge base cannot be read: {0}</source>
        <translation>无法读取知识库：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="249"/>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="253"/>
        <source>The settings were not saved: {0}</source>
        <translation>设置未保存：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="271"/>
        <source>The choice was not saved: {0}</source>
        <translation>未能保存此选择：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="326"/>
        <source>{0}: {1} new, {2} changed, {3} removed, {4} unchanged</source>
        <translation>{0}：新增 {1} 个，更改 {2} 个，移除 {3} 个，未变 {4} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="329"/>
        <source>, {0} could not be read</source>
        <translation>，{0} 个无法读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="331"/>
        <source>Stopped: {0}</source>
        <translation>已停止：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="335"/>
        <source>{0}: the sync stopped: {1}</source>
        <translation>{0}：同步已停止：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="350"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_actions.py" line="350"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>KnowledgePanel</name>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="62"/>
        <source>protected by a password</source>
        <translation>受密码保护</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="63"/>
        <source>no text layer (scanned pages?)</source>
        <translation>没有文本层（可能是扫描页）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="64"/>
        <source>too large</source>
        <translation>文件过大</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="65"/>
        <source>permission denied</source>
        <translation>没有读取权限</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="66"/>
        <location filename="../../hermes_desktop/ui/words.py" line="1011"/>
        <source>not text, or an encoding that could not be detected</source>
        <translation>不是文本，或无法识别其编码</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="67"/>
        <source>not a regular file (a pipe or device)</source>
        <translation>不是普通文件（管道或设备）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="68"/>
        <source>a link that points out of the folder</source>
        <translation>指向文件夹之外的链接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="69"/>
        <source>took too long to read</source>
        <translation>读取耗时过长</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="70"/>
        <source>needs too much memory to read</source>
        <translation>读取需要的内存过多</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="71"/>
        <source>damaged or not readable</source>
        <translation>已损坏或无法读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="72"/>
        <source>not a format that can be read</source>
        <translation>不是可读取的格式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="73"/>
        <source>gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="74"/>
        <source>a credential location, which Hermes never reads</source>
        <translation>凭据存放位置，Hermes 从不读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="75"/>
        <source>a folder (attach files one by one)</source>
        <translation>文件夹（请逐个附加文件）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="77"/>
        <source>could not be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="149"/>
        <source>Knowledge bases</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="153"/>
        <source>Tick a knowledge base to use it in this conversation: its best passages go to the model with each message, cited as [1], [2]…</source>
        <translation>勾选知识库即可在本对话中使用：每条消息都会附上其中最相关的段落发给模型，并以 [1]、[2]… 标注引用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="159"/>
        <source>Sync progress</source>
        <translation>同步进度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="164"/>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="277"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="165"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="166"/>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="170"/>
        <source>Files that could not be read</source>
        <translation>无法读取的文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="173"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="174"/>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="175"/>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="177"/>
        <source>Chunks…</source>
        <translation>分块…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="179"/>
        <source>Chunk size and overlap of the selected knowledge base</source>
        <translation>所选知识库的分块大小和重叠</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="180"/>
        <source>No knowledge bases yet. Add a folder of PDFs, Word files or notes: Hermes indexes it on this computer and finds passages in Chinese and English.</source>
        <translation>还没有知识库。添加一个包含 PDF、Word 文件或笔记的文件夹：Hermes 会在这台电脑上为它建立索引，并用中文和英文查找段落。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="221"/>
        <source>Use in this conversation</source>
        <translation>在本对话中使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="239"/>
        <source>cannot be read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="241"/>
        <source>never synced</source>
        <translation>从未同步</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="242"/>
        <source>{0} documents · {1} chunks · last sync {2}</source>
        <translation>{0} 个文档 · {1} 个片段 · 上次同步 {2}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="244"/>
        <source>{0} could not be read</source>
        <translation>{0} 个无法读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="246"/>
        <source>{0} vectors ({1})</source>
        <translation>{0} 个向量（{1}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="269"/>
        <source>, about {0} s left</source>
        <translation>，约剩 {0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="270"/>
        <source>{0} of {1} files{2}</source>
        <translation>{0} / {1} 个文件{2}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="274"/>
        <source>Paused: {0}</source>
        <translation>已暂停：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_panel.py" line="277"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>KnowledgePicker</name>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="55"/>
        <source>Knowledge · {0}</source>
        <translation>知识库 · {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="55"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="59"/>
        <source>This conversation uses: {0}</source>
        <translation>此对话使用：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="61"/>
        <source>This conversation uses no knowledge base. Choose which ones it searches.</source>
        <translation>此对话未使用知识库。选择要搜索的知识库。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="63"/>
        <source>No knowledge bases yet: add a folder in the Knowledge tab.</source>
        <translation>还没有知识库：请在“知识库”标签页中添加文件夹。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="65"/>
        <source>Knowledge bases for this conversation</source>
        <translation>此对话使用的知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="73"/>
        <source>No knowledge bases yet</source>
        <translation>还没有知识库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="85"/>
        <source>cannot be read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_picker.py" line="89"/>
        <source>Manage knowledge bases…</source>
        <translation>管理知识库…</translation>
    </message>
</context>
<context>
    <name>KnowledgeSettings</name>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="21"/>
        <source>A chunk has {0} to {1} tokens.</source>
        <translation>每个分块为 {0} 到 {1} 个 Token。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="24"/>
        <source>The overlap is 0 to half a chunk ({0} tokens).</source>
        <translation>重叠为 0 到半个分块（{0} 个 Token）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="26"/>
        <source>These settings cannot be used.</source>
        <translation>无法使用这些设置。</translation>
    </message>
</context>
<context>
    <name>KnowledgeSettingsDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="33"/>
        <source>Chunk settings of “{0}”</source>
        <translation>“{0}”的分块设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="34"/>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="50"/>
        <source>Tokens per chunk</source>
        <translation>每个分块的 Token 数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="35"/>
        <source>Overlap between chunks (tokens)</source>
        <translation>分块之间的重叠（Token）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="41"/>
        <source>Passages are cut at headings, paragraphs and sentences, up to this size; the overlap repeats whole sentences between neighbouring chunks. After a change, the next sync reads and chunks every file again.</source>
        <translation>段落按标题、段落和句子切分，最大不超过此大小；重叠部分在相邻分块之间重复完整的句子。更改后，下次同步会重新读取并切分每个文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/knowledge_settings.py" line="51"/>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
</context>
<context>
    <name>Learning</name>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="32"/>
        <source>Open a conversation first: a skill is saved from one of its tasks.</source>
        <translation>请先打开一个对话：技能是从对话中的某个任务保存的。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="37"/>
        <source>Nothing to save as a skill: no task in this conversation used tools and ended well (or learning is off).</source>
        <translation>没有可存为技能的任务：此对话中没有使用了工具并顺利完成的任务（或学习已关闭）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="42"/>
        <source>No model is set up to draft the skill.</source>
        <translation>尚未设置可用于起草技能的模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="44"/>
        <source>Drafting a skill from this task…</source>
        <translation>正在根据此任务起草技能…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="48"/>
        <source>No draft: {0}</source>
        <translation>未能起草：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="56"/>
        <source>The skill was not saved.</source>
        <translation>技能未保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="59"/>
        <source>Saved the skill {0}: it is yours and active from the next message.</source>
        <translation>已保存技能 {0}：它属于你，从下一条消息起生效。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="73"/>
        <source>This turn used no tools (or learning was off): there is no path to save.</source>
        <translation>这一轮没有使用工具（或学习已关闭）：没有可保存的做法。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="77"/>
        <source>This turn did not end well, so it is not saved as a skill.</source>
        <translation>这一轮没有顺利完成，所以不会存为技能。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="115"/>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="152"/>
        <source>Save as skill…</source>
        <translation>存为技能…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/learning_actions.py" line="154"/>
        <source>This task took {0} steps and ended well: keep it as a skill to do it the same way next time.</source>
        <translation>此任务用了 {0} 步并顺利完成：存为技能，下次可以用同样的方法完成。</translation>
    </message>
</context>
<context>
    <name>LearningDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="46"/>
        <source>Learning from finished tasks</source>
        <translation>从已完成的任务中学习</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="48"/>
        <source>Offer earlier successful paths to the model as hints</source>
        <translation>把以前成功的做法作为提示提供给模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="52"/>
        <source>Paths stay on this computer. A path that failed, was denied or undone is never offered; sessions with memory off record nothing.</source>
        <translation>这些记录只保存在这台电脑上。失败、被拒绝或被撤销的做法永远不会被提供；关闭记忆的对话不做任何记录。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="59"/>
        <source>{0}  ·  succeeded {1} times</source>
        <translation>{0}  ·  成功 {1} 次</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="65"/>
        <source>No suggestions yet: a task that succeeds three times in the same way is suggested here.</source>
        <translation>暂无建议：以同样方式成功三次的任务会在这里推荐。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="67"/>
        <source>Draft a skill…</source>
        <translation>起草技能…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="71"/>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="98"/>
        <source>Recorded paths</source>
        <translation>已记录的做法</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="74"/>
        <source>ended well</source>
        <translation>顺利完成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="74"/>
        <source>not offered: {0}</source>
        <translation>不会提供：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="83"/>
        <source>No paths recorded yet.</source>
        <translation>尚无记录。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="84"/>
        <source>Forget this path</source>
        <translation>忘掉这条记录</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="95"/>
        <source>Suggested skills</source>
        <translation>推荐的技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="108"/>
        <source>the task did not finish ({0})</source>
        <translation>任务没有完成（{0}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="110"/>
        <source>a tool&apos;s error was left unresolved ({0})</source>
        <translation>工具出错后没有解决（{0}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="111"/>
        <source>a call was denied</source>
        <translation>有一次调用被拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="111"/>
        <source>the reply was regenerated</source>
        <translation>回复被重新生成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/learning.py" line="112"/>
        <source>you said it was wrong</source>
        <translation>你说结果不对</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="190"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="817"/>
        <source>context %p%</source>
        <translation>上下文 %p%</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="246"/>
        <source>When Hermes asks before using a tool</source>
        <translation>Hermes 在使用工具前何时询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="247"/>
        <source>Ask before changes</source>
        <translation>改动前询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="247"/>
        <source>Always ask</source>
        <translation>始终询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="248"/>
        <source>Trusted</source>
        <translation>信任模式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="248"/>
        <source>Chat only</source>
        <translation>仅聊天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="251"/>
        <source>Dry run</source>
        <translation>模拟运行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="253"/>
        <source>Write and delete tools report what they would do, and do nothing</source>
        <translation>写入和删除类工具只报告将要做什么，不实际执行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="270"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="49"/>
        <location filename="../../hermes_desktop/ui/main_window.py" line="271"/>
        <source>New session</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="53"/>
        <source>Search all sessions</source>
        <translation>搜索所有对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="54"/>
        <source>Focus the message box</source>
        <translation>聚焦输入框</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="55"/>
        <source>Send / new line</source>
        <translation>发送 / 换行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="56"/>
        <source>Stop the reply (or cancel editing)</source>
        <translation>停止回复（或取消编辑）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="57"/>
        <source>Copy the last reply</source>
        <translation>复制最后一条回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="58"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="59"/>
        <source>Choose the model for this session</source>
        <translation>选择本对话的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="75"/>
        <source>Double-click a message</source>
        <translation>双击消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="75"/>
        <source>Select and copy its text</source>
        <translation>选择并复制其文本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="274"/>
        <source>Export session as Markdown…</source>
        <translation>将对话导出为 Markdown…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="275"/>
        <source>Export session as JSON…</source>
        <translation>将对话导出为 JSON…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="61"/>
        <location filename="../../hermes_desktop/ui/main_window.py" line="279"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="50"/>
        <source>New session with an assistant (search, Enter)</source>
        <translation>用某个助手新建对话（搜索，Enter）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="51"/>
        <source>Change this chat&apos;s assistant</source>
        <translation>更换本对话的助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="52"/>
        <source>In an empty message box: saved prompts, assistants, skills</source>
        <translation>在空的消息框中：已保存的提示词、助手、技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="60"/>
        <source>Usage and cost: tokens and spend per day, model and session</source>
        <translation>用量与费用：按天、模型和对话查看 Token 与花费</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="62"/>
        <source>Rename the selected session</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="63"/>
        <source>Menu key / Shift+F10 in the session list</source>
        <translation>在对话列表中按菜单键 / Shift+F10</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="64"/>
        <source>The session&apos;s menu (rename, pin, fork, export, delete)</source>
        <translation>该对话的菜单（重命名、置顶、分支、导出、删除）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="65"/>
        <source>Delete in the session list</source>
        <translation>在对话列表中按 Delete</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="66"/>
        <source>Delete the selected session (Undo brings it back)</source>
        <translation>删除所选对话（可撤销）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="67"/>
        <source>Menu key / Shift+F10</source>
        <translation>菜单键 / Shift+F10</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="68"/>
        <source>Actions for the selected message (copy, edit, fork, regenerate, tool details, allow or deny)</source>
        <translation>所选消息的操作（复制、编辑、分支、重新生成、工具详情、批准或拒绝）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="70"/>
        <source>Up / Down in the conversation</source>
        <translation>在对话中按上 / 下</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="70"/>
        <source>Select a message</source>
        <translation>选择一条消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="71"/>
        <source>F4 in the Tools list</source>
        <translation>在工具列表中按 F4</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="72"/>
        <source>Change the selected tool&apos;s approval rule</source>
        <translation>更改所选工具的批准规则</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="73"/>
        <source>F2 / Del / Enter / Ctrl+P / Ctrl+H in the Memory list</source>
        <translation>“记忆”列表中的 F2 / Del / Enter / Ctrl+P / Ctrl+H</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="74"/>
        <source>Edit, delete, go to the source, pin or unpin, history of the selected memory</source>
        <translation>编辑、删除、转到出处、置顶或取消置顶、查看所选记忆的历史</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="235"/>
        <source>Tokens this session has used so far: every request&apos;s input and output added up (not the size of the context)</source>
        <translation>本对话迄今用掉的 Token：每次请求的输入与输出之和（不是上下文的大小）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="239"/>
        <source>Context budget used</source>
        <translation>已用的上下文预算</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="245"/>
        <source>Approval mode</source>
        <translation>批准模式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="264"/>
        <source>context –</source>
        <translation>上下文 –</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="265"/>
        <source>Context budget used by the last request: shown once this session sends one</source>
        <translation>上一次请求占用的上下文预算：本对话发出请求后显示</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="272"/>
        <source>New session with assistant…</source>
        <translation>用助手新建对话…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="276"/>
        <source>Export session as Word…</source>
        <translation>将对话导出为 Word…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="277"/>
        <source>Export session to an Obsidian vault…</source>
        <translation>将对话导出到 Obsidian 库…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="280"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="281"/>
        <source>Copy last reply</source>
        <translation>复制最后一条回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="282"/>
        <source>Focus message box</source>
        <translation>聚焦输入框</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="283"/>
        <source>Search sessions</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="285"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="286"/>
        <source>Choose model…</source>
        <translation>选择模型…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="290"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="291"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="294"/>
        <source>Follow system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="294"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="294"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="301"/>
        <source>Usage and cost…</source>
        <translation>用量与费用…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="303"/>
        <source>Show inspector</source>
        <translation>显示右侧面板</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="307"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="308"/>
        <location filename="../../hermes_desktop/ui/main_window.py" line="992"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="463"/>
        <source>The key could not be saved: {0}</source>
        <translation>无法保存密钥：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="467"/>
        <source>Connected to {0}. Ready to chat.</source>
        <translation>已连接到 {0}，可以开始聊天了。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="503"/>
        <source>No application could open it. It is at: {0}</source>
        <translation>没有应用可以打开它。它位于：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="558"/>
        <source>Trust this skill&apos;s code?</source>
        <translation>信任此技能的代码吗？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="559"/>
        <source>The skill “{0}” contains code ({1}) that will run on this computer with your permissions. Trust it only if you trust where it came from. Any later change to its files asks again.

Folder: {2}</source>
        <translation>技能“{0}”包含代码（{1}），它会以你的权限在这台电脑上运行。只有在你信任其来源时才信任它。之后其文件的任何改动都会再次询问。

文件夹：{2}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="562"/>
        <source>Trust and load</source>
        <translation>信任并加载</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="572"/>
        <source>Not trusted: the files of skill “{0}” changed while you were asked. Look at them again and trust it again.</source>
        <translation>未信任：在询问你的同时，技能“{0}”的文件被改动了。请再看一遍这些文件，然后重新信任它。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="632"/>
        <source>{0:,} tokens</source>
        <translation>{0:,} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="753"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="754"/>
        <source>Deleted “{0}”</source>
        <translation>已删除“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="819"/>
        <source>{0:,} of {1:,} tokens; {2} older messages left out</source>
        <translation>{0:,} / {1:,} 个 Token；省略了 {2} 条较早的消息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="865"/>
        <source>{0} could not be copied into the workspace: {1}</source>
        <translation>无法把 {0} 复制到工作区：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="868"/>
        <source>(The whole file is in the workspace as {0}; read it in pages.)</source>
        <translation>（完整文件已放在工作区，名为 {0}；请分页读取。）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="870"/>
        <source>Copied {0} into the workspace.</source>
        <translation>已把 {0} 复制到工作区。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="906"/>
        <source>Writing a summary for the new session…</source>
        <translation>正在为新对话撰写摘要…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="912"/>
        <source>Could not write the summary: {0}</source>
        <translation>无法撰写摘要：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="948"/>
        <source>Copied the last reply</source>
        <translation>已复制最后一条回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="996"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="996"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>McpActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="84"/>
        <source>This conversation&apos;s MCP servers could not be read: {0}</source>
        <translation>无法读取此对话的 MCP 服务器设置：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="120"/>
        <source>The conversation&apos;s MCP servers were not saved: {0}</source>
        <translation>此对话的 MCP 服务器设置未保存：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="123"/>
        <source>Every MCP server is on in this conversation.</source>
        <translation>此对话已启用全部 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="124"/>
        <source>No MCP server is on in this conversation.</source>
        <translation>此对话未启用任何 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="125"/>
        <source>MCP servers on in this conversation: {0}</source>
        <translation>此对话启用的 MCP 服务器：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="208"/>
        <source>The prompt could not be fetched: {0}</source>
        <translation>无法获取提示词：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="226"/>
        <source>Signing in to “{0}” through your organization’s identity provider…</source>
        <translation>正在通过你所在组织的身份提供方登录“{0}”…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="229"/>
        <source>Sign in to “{0}” in your browser; Hermes waits for it to come back.</source>
        <translation>请在浏览器中登录“{0}”；Hermes 正在等待浏览器返回。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="236"/>
        <source>No browser could be opened. To sign in to “{0}”, open this address in a browser on this computer: {1}</source>
        <translation>无法打开浏览器。要登录“{0}”，请在这台电脑的浏览器中打开此地址：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="243"/>
        <source>Sign-in to “{0}” did not complete: {1}</source>
        <translation>登录“{0}”未完成：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="246"/>
        <source>Signed in to “{0}”.</source>
        <translation>已登录“{0}”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="248"/>
        <source>“{0}” did not ask for sign-in.</source>
        <translation>“{0}”不需要登录。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="259"/>
        <source>Sign-out of “{0}” did not complete: {1}</source>
        <translation>退出“{0}”的登录未完成：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="261"/>
        <source>Signed out of “{0}”.</source>
        <translation>已退出“{0}”的登录。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="267"/>
        <source>Remove MCP server?</source>
        <translation>移除 MCP 服务器吗？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="268"/>
        <source>Remove “{0}” from mcp.json? Its tools go away; secrets stay in the keyring.</source>
        <translation>从 mcp.json 中移除“{0}”吗？它的工具会随之消失；密钥仍保留在系统密钥环中。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="269"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_actions.py" line="297"/>
        <source>The secret could not be saved: {0}</source>
        <translation>无法保存该密钥：{0}</translation>
    </message>
</context>
<context>
    <name>McpElicitationDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="69"/>
        <source>The MCP server “{0}” asks:</source>
        <translation>MCP 服务器“{0}”询问：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="83"/>
        <source>Decline</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="85"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="88"/>
        <source>Open a page for MCP server “{0}”?</source>
        <translation>为 MCP 服务器“{0}”打开网页？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="90"/>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="92"/>
        <source>MCP server “{0}” asks for information</source>
        <translation>MCP 服务器“{0}”请求信息</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="94"/>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="117"/>
        <source>It wants you to open a page on {0}</source>
        <translation>它想让你打开 {0} 上的网页</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="123"/>
        <source>Full address:</source>
        <translation>完整地址：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="129"/>
        <source>Nothing is opened unless you press “Open in browser”. Check the address first: only continue if you trust this site.</source>
        <translation>除非你按下“在浏览器中打开”，否则不会打开任何网页。请先核对地址：只有信任此网站时才继续。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="167"/>
        <source>* required</source>
        <translation>* 必填</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="182"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="188"/>
        <source>(choose one)</source>
        <translation>（请选择）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="217"/>
        <source>a whole number from {0} to {1}</source>
        <translation>{0} 到 {1} 之间的整数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="218"/>
        <source>a number from {0} to {1}</source>
        <translation>{0} 到 {1} 之间的数字</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="220"/>
        <source>a whole number, at least {0}</source>
        <translation>整数，至少 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="220"/>
        <source>a number, at least {0}</source>
        <translation>数字，至少 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="222"/>
        <source>a whole number, at most {0}</source>
        <translation>整数，至多 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="222"/>
        <source>a number, at most {0}</source>
        <translation>数字，至多 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="223"/>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="223"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="224"/>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="224"/>
        <source>https://example.com</source>
        <translation>https://example.com</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="225"/>
        <source>YYYY-MM-DD</source>
        <translation>YYYY-MM-DD</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="225"/>
        <source>YYYY-MM-DDTHH:MM</source>
        <translation>YYYY-MM-DDTHH:MM</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="244"/>
        <source>This field is required.</source>
        <translation>此项为必填项。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="246"/>
        <source>Enter a number.</source>
        <translation>请输入数字。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="248"/>
        <source>Enter a whole number.</source>
        <translation>请输入整数。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="250"/>
        <source>The smallest allowed value is {0}.</source>
        <translation>允许的最小值为 {0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="252"/>
        <source>The largest allowed value is {0}.</source>
        <translation>允许的最大值为 {0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="254"/>
        <source>Enter at least {0} characters.</source>
        <translation>请至少输入 {0} 个字符。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="256"/>
        <source>Enter at most {0} characters.</source>
        <translation>最多输入 {0} 个字符。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="258"/>
        <source>Enter an email address like name@example.com.</source>
        <translation>请输入电子邮件地址，例如 name@example.com。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="260"/>
        <source>Enter an address like https://example.com.</source>
        <translation>请输入网址，例如 https://example.com。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="262"/>
        <source>Enter a date as YYYY-MM-DD.</source>
        <translation>请按 YYYY-MM-DD 格式输入日期。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="264"/>
        <source>Enter a date and time as YYYY-MM-DDTHH:MM.</source>
        <translation>请按 YYYY-MM-DDTHH:MM 格式输入日期和时间。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="266"/>
        <source>Choose at least {0}.</source>
        <translation>请至少选择 {0} 项。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="268"/>
        <source>Choose at most {0}.</source>
        <translation>最多选择 {0} 项。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="270"/>
        <source>Answer yes or no.</source>
        <translation>请回答是或否。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="272"/>
        <source>Choose one of the options.</source>
        <translation>请从选项中选择。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="273"/>
        <source>Enter text.</source>
        <translation>请输入文本。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_elicitation.py" line="296"/>
        <source>Please correct the marked fields.</source>
        <translation>请更正标出的字段。</translation>
    </message>
</context>
<context>
    <name>McpImportDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="61"/>
        <source>Import MCP servers</source>
        <translation>导入 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="76"/>
        <source>{0} (not found)</source>
        <translation>{0}（未找到）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="78"/>
        <source>A file…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="79"/>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="73"/>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="83"/>
        <source>Import from</source>
        <translation>导入来源</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="93"/>
        <source>Servers in the source and what happens to each</source>
        <translation>来源中的服务器及各自的处理方式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="94"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="94"/>
        <source>What happens</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="94"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="113"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="140"/>
        <source>Choose a file in the mcpServers or VS Code servers shape.</source>
        <translation>请选择 mcpServers 或 VS Code servers 格式的文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="147"/>
        <source>Import MCP servers from</source>
        <translation>从以下文件导入 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="148"/>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="168"/>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="175"/>
        <source>Cannot import: {0}. Nothing was changed.</source>
        <translation>无法导入：{0}。未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="189"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="189"/>
        <source>Replace (changed)</source>
        <translation>替换（有变化）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="190"/>
        <source>Identical: skipped</source>
        <translation>相同：跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="190"/>
        <source>Invalid: skipped</source>
        <translation>无效：跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="202"/>
        <source>Warning: {0}</source>
        <translation>警告：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="205"/>
        <source>Sends your environment variables {0}: imported only if you tick it</source>
        <translation>会发送你的环境变量 {0}：只有勾选后才会导入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="208"/>
        <source>Differs in: {0}</source>
        <translation>不同之处：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="210"/>
        <source>Secret in {0} goes to the keyring as ${{secret:{1}}}</source>
        <translation>{0} 中的密钥将存入系统密钥环，写作 ${{secret:{1}}}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="222"/>
        <source>Tick to replace the server mcp.json has under this name</source>
        <translation>勾选以替换 mcp.json 中同名的服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="224"/>
        <source>Tick to import it and let it send the environment variables named in Details</source>
        <translation>勾选后导入它，并允许它发送“详情”中列出的环境变量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="229"/>
        <source>From: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="235"/>
        <source>{0} secret(s) found in the file move to the system keyring; mcp.json only gets ${{secret:…}} references.</source>
        <translation>文件中发现 {0} 个密钥，将移入系统密钥环；mcp.json 中只写入 ${{secret:…}} 引用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="237"/>
        <source>{0} secret(s) found in the file are NOT copied: there is no secure keyring ({1}). mcp.json gets ${{secret:…}} references; set each value with “Set secret…”.</source>
        <translation>文件中发现的 {0} 个密钥不会被复制：没有安全的系统密钥环（{1}）。mcp.json 中写入 ${{secret:…}} 引用；请用“设置密钥…”逐个设置其值。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="269"/>
        <source>{0} to add, {1} to replace, {2} identical, {3} invalid</source>
        <translation>添加 {0} 个，替换 {1} 个，相同 {2} 个，无效 {3} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="294"/>
        <source>The servers could not be imported: {0}. mcp.json was not changed.</source>
        <translation>服务器无法导入：{0}。mcp.json 未被更改。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="306"/>
        <source>Imported 1 new MCP server.</source>
        <translation>已导入 1 个新的 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="307"/>
        <source>Imported {0} new MCP servers.</source>
        <translation>已导入 {0} 个新的 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="309"/>
        <source>Replaced 1 MCP server.</source>
        <translation>已替换 1 个 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="310"/>
        <source>Replaced {0} MCP servers.</source>
        <translation>已替换 {0} 个 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_import.py" line="311"/>
        <source>Imported MCP servers: {0} new, {1} replaced.</source>
        <translation>已导入 MCP 服务器：新增 {0} 个，替换 {1} 个。</translation>
    </message>
</context>
<context>
    <name>McpInputDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="23"/>
        <source>Value for MCP server “{0}”</source>
        <translation>MCP 服务器“{0}”所需的值</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="27"/>
        <source>The configuration of MCP server “{0}” asks for a value (${{input:{1}}}). Its words, not Hermes&apos;:</source>
        <translation>MCP 服务器“{0}”的配置要求填写一个值（${{input:{1}}}）。以下是配置里的原话，不是 Hermes 说的：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="43"/>
        <source>${{input:{0}}} in mcp.json</source>
        <translation>mcp.json 中的 ${{input:{0}}}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="44"/>
        <source>Asked once: it is kept in the system keyring and used each time the server starts. “Set secret…” changes it later.</source>
        <translation>只询问一次：它保存在系统密钥环中，服务器每次启动时使用。之后可用“设置密钥…”修改。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="46"/>
        <source>No secure keyring ({0}): the value is kept in memory until Hermes closes.</source>
        <translation>没有安全的系统密钥环（{0}）：该值仅保存在内存中，直到 Hermes 关闭。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_input.py" line="47"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>McpPanel</name>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="81"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="85"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="86"/>
        <source>Set secret…</source>
        <translation>设置密钥…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="87"/>
        <source>Store a ${secret:NAME} value this server needs in the system keyring</source>
        <translation>把此服务器需要的 ${secret:NAME} 值保存到系统密钥环</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="83"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="84"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="124"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="88"/>
        <source>Use a prompt…</source>
        <translation>使用提示词…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="89"/>
        <source>Fill one of this server&apos;s prompt templates into the message box</source>
        <translation>把此服务器的一个提示词模板填入输入框</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="90"/>
        <source>Sign in…</source>
        <translation>登录…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="91"/>
        <source>Open this server&apos;s sign-in page in your browser; the tokens are kept in the system keyring</source>
        <translation>在浏览器中打开此服务器的登录页面；令牌保存在系统密钥环中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="93"/>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="94"/>
        <source>Forget this server&apos;s sign-in (its tokens in the system keyring)</source>
        <translation>清除此服务器的登录（系统密钥环中的令牌）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="102"/>
        <source>The selected server&apos;s log</source>
        <translation>所选服务器的日志</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="127"/>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="139"/>
        <source>Import servers…</source>
        <translation>导入服务器…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="128"/>
        <source>Bring servers over from Claude Desktop, Cursor, VS Code, LM Studio, Windsurf or a file</source>
        <translation>从 Claude Desktop、Cursor、VS Code、LM Studio、Windsurf 或文件中导入服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="129"/>
        <source>Reload mcp.json</source>
        <translation>重新加载 mcp.json</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="130"/>
        <source>Edit mcp.json</source>
        <translation>编辑 mcp.json</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="131"/>
        <source>Open logs</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="136"/>
        <source>No MCP servers yet</source>
        <translation>还没有 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="137"/>
        <source>MCP servers give Hermes more tools: add one, or import them from another app.</source>
        <translation>MCP 服务器为 Hermes 提供更多工具：添加一个，或从其他应用导入。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="138"/>
        <source>Add server…</source>
        <translation>添加服务器…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="168"/>
        <source>{0} tools</source>
        <translation>{0} 个工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="168"/>
        <source>1 tool</source>
        <translation>1 个工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="170"/>
        <source>~{0} tokens per request</source>
        <translation>每次请求约 {0} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="172"/>
        <source>1 prompt</source>
        <translation>1 个提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="173"/>
        <source>{0} prompts</source>
        <translation>{0} 个提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="177"/>
        <source>Last log line: {0}</source>
        <translation>日志最后一行：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="179"/>
        <source>Off in this conversation</source>
        <translation>此对话中已关闭</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="193"/>
        <source>No MCP servers. Press “Add…”, or “Edit mcp.json” to paste servers in the “mcpServers” format other clients use.</source>
        <translation>没有 MCP 服务器。点“添加…”，或点“编辑 mcp.json”粘贴其他客户端通用的“mcpServers”格式的服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="202"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="202"/>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="203"/>
        <source>restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="203"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="204"/>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="204"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="205"/>
        <source>needs sign-in</source>
        <translation>需要登录</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="215"/>
        <source>{0} (as {1})</source>
        <translation>{0}（作为 {1}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="216"/>
        <source>Not offered to the model, their names clash with another tool&apos;s once made safe: {0}</source>
        <translation>未提供给模型，因为这些名称转成安全名称后与另一个工具重名：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="224"/>
        <source>Tools offered again on trial after {0} failed calls in a row; the next call decides. Last error: {1}</source>
        <translation>连续 {0} 次调用失败后，工具已重新提供以试用；下一次调用决定是否恢复。最后的错误：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="226"/>
        <source>Tools withheld from the model after {0} failed calls in a row; one trial call from {1}, or press Restart. Last error: {2}</source>
        <translation>连续 {0} 次调用失败，工具已暂不提供给模型；{1} 起允许一次试用调用，或按“重启”。最后的错误：{2}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="233"/>
        <source>Press “Sign in…” to open its sign-in page in your browser.</source>
        <translation>按“登录…”在浏览器中打开它的登录页面。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="235"/>
        <source>Signed in (tokens in the system keyring)</source>
        <translation>已登录（令牌在系统密钥环中）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="275"/>
        <source>Select a server to see its log.</source>
        <translation>选择一个服务器以查看其日志。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="282"/>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="288"/>
        <source>Log of “{0}”</source>
        <translation>“{0}”的日志</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="283"/>
        <source>This server connects over the network: it has no log here.</source>
        <translation>此服务器通过网络连接，这里没有它的日志。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="284"/>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="289"/>
        <source>Nothing logged yet.</source>
        <translation>暂无日志。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_panel.py" line="287"/>
        <source>Log of “{0}” (last {1} lines)</source>
        <translation>“{0}”的日志（最后 {1} 行）</translation>
    </message>
</context>
<context>
    <name>McpPromptDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="15"/>
        <source>Prompt from MCP server “{0}”</source>
        <translation>来自 MCP 服务器“{0}”的提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="30"/>
        <source>Put in the message box</source>
        <translation>放入输入框</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="44"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="50"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="51"/>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_prompt.py" line="70"/>
        <source>Fill in: {0}</source>
        <translation>请填写：{0}</translation>
    </message>
</context>
<context>
    <name>McpSamplingDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="30"/>
        <source>MCP server “{0}” wants to use your model</source>
        <translation>MCP 服务器“{0}”想使用你的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="40"/>
        <source>The MCP server “{0}” asks your model ({1}) to answer the messages below. Only what is shown here is sent: nothing from your conversations, and no tools.</source>
        <translation>MCP 服务器“{0}”请求你的模型（{1}）回答下面的消息。只会发送这里显示的内容：不包含你的任何对话，也不提供工具。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="59"/>
        <source>Reply (you can edit it before sending):</source>
        <translation>回复（发送前可以编辑）：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="76"/>
        <source>Refuse</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="78"/>
        <source>Generate reply</source>
        <translation>生成回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="80"/>
        <source>Send reply</source>
        <translation>发送回复</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="100"/>
        <source>System prompt:</source>
        <translation>系统提示词：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="102"/>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="102"/>
        <source>Assistant:</source>
        <translation>助手：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="105"/>
        <source>[{0} image(s), sent to the model]</source>
        <translation>[{0} 张图片，会发送给模型]</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="110"/>
        <source>Max tokens: {0} requested, {1} allowed.</source>
        <translation>最大 Token 数：请求 {0}，允许 {1}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="113"/>
        <source>Model hints (the answer comes from your model): {0}</source>
        <translation>模型提示（回答来自你的模型）：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="116"/>
        <source>cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="116"/>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="116"/>
        <source>intelligence</source>
        <translation>能力</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="117"/>
        <source>Priorities: {0}</source>
        <translation>优先级：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="120"/>
        <source>The server asked to include context from your sessions; none is included.</source>
        <translation>服务器请求附带你对话中的上下文；不会附带任何内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="132"/>
        <source>Generating a reply with {0}…</source>
        <translation>正在用 {0} 生成回复…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="141"/>
        <source>The model failed: {0}</source>
        <translation>模型出错：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_sampling.py" line="142"/>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>McpSecretDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="51"/>
        <source>Secret for MCP server “{0}”</source>
        <translation>MCP 服务器“{0}”的密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="56"/>
        <source>paste the value</source>
        <translation>粘贴值</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="57"/>
        <source>It is stored in the system keyring, never in mcp.json.</source>
        <translation>它保存在系统密钥环中，绝不会写入 mcp.json。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="58"/>
        <source>No secure keyring ({0}): the value is kept in memory until Hermes closes.</source>
        <translation>没有安全的系统密钥环（{0}）：该值只保存在内存中，直到 Hermes 关闭。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="59"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_secret.py" line="59"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>McpServerDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="61"/>
        <source>Edit MCP server</source>
        <translation>编辑 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="61"/>
        <source>Add MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="64"/>
        <source>e.g. files</source>
        <translation>例如 files</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="67"/>
        <source>Program on this computer (stdio)</source>
        <translation>这台电脑上的程序（stdio）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="68"/>
        <source>Web address (Streamable HTTP)</source>
        <translation>网址（Streamable HTTP）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="78"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="80"/>
        <source>Disabled (keep it here, but do not start it)</source>
        <translation>停用（保留在这里，但不启动）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="92"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="93"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="94"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="95"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="96"/>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="97"/>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="98"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="99"/>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/mcp_server.py" line="100"/>
        <source>Timeout per call</source>
        <translation>每次调用的超时</translation>
    </message>
</context>
<context>
    <name>McpSessionButton</name>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="46"/>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="97"/>
        <source>MCP servers in this conversation</source>
        <translation>此对话的 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="67"/>
        <source>MCP: all</source>
        <translation>MCP：全部</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="69"/>
        <source>MCP {0}/{1}</source>
        <translation>MCP {0}/{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="72"/>
        <source>MCP servers on in this conversation: {0} of {1}. Their tools add about {2} tokens to every request.</source>
        <translation>此对话启用了 {1} 个 MCP 服务器中的 {0} 个。它们的工具每次请求约增加 {2} 个 Token。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="75"/>
        <source>Turning the others off saves about {0} tokens per request.</source>
        <translation>关闭其余服务器，每次请求约可节省 {0} 个 Token。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="76"/>
        <source>Click to choose.</source>
        <translation>点击进行选择。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="101"/>
        <source>{0} (disabled in mcp.json)</source>
        <translation>{0}（已在 mcp.json 中停用）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="103"/>
        <source>{0}  ·  ~{1} tokens per request</source>
        <translation>{0}  ·  每次请求约 {1} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="112"/>
        <source>Every server (also ones added later)</source>
        <translation>全部服务器（包括以后添加的）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="114"/>
        <source>Follow mcp.json: every enabled server is on, and a server added later comes on by itself</source>
        <translation>跟随 mcp.json：所有已启用的服务器都开启，以后添加的服务器也会自动开启</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/mcp_session_menu.py" line="117"/>
        <source>None in this conversation</source>
        <translation>此对话不使用任何服务器</translation>
    </message>
</context>
<context>
    <name>MemoryActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="74"/>
        <source>Incognito</source>
        <translation>不用记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="76"/>
        <source>Don&apos;t use or record memory in this conversation</source>
        <translation>此对话不使用也不记录记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="77"/>
        <source>Don&apos;t use or record memory in this conversation: nothing is recalled into it, nothing said in it is remembered</source>
        <translation>此对话不使用也不记录记忆：不会调用任何记忆，其中说的话也不会被记住</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="84"/>
        <source>Incognito: this conversation does not use or record memory.</source>
        <translation>不用记忆：此对话既不使用也不记录记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="86"/>
        <source>Use memory again</source>
        <translation>重新使用记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="186"/>
        <source>used only with the server in HERMES_BASE_URL</source>
        <translation>仅用于 HERMES_BASE_URL 指定的服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="188"/>
        <source>used only with local-only providers</source>
        <translation>仅用于标为仅本地的服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="189"/>
        <source>not used with the server in HERMES_BASE_URL</source>
        <translation>不用于 HERMES_BASE_URL 指定的服务器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="210"/>
        <source>The memory was not changed: {0}</source>
        <translation>记忆未更改：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="219"/>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="220"/>
        <source>What Hermes remembers (your words stay as they were: “{0}”)</source>
        <translation>Hermes 记住的内容（你的原话保持不变：“{0}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="221"/>
        <source>What Hermes remembers</source>
        <translation>Hermes 记住的内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="238"/>
        <source>Add a memory</source>
        <translation>添加记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="239"/>
        <source>What should Hermes remember? (a short fact, e.g. “Prefers answers in British English”)</source>
        <translation>Hermes 应该记住什么？（一条简短的事实，例如“回答时使用英式英语”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="260"/>
        <source>The memory was not deleted: {0}</source>
        <translation>记忆未删除：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="265"/>
        <source>Deleted “{0}”</source>
        <translation>已删除“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="266"/>
        <source>Deleted {0} memories</source>
        <translation>已删除 {0} 条记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="289"/>
        <source>Wipe all memories?</source>
        <translation>清除全部记忆？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="290"/>
        <source>This deletes all {0} memories Hermes keeps, long-term and short-term, with their history. It cannot be undone. Your conversations are not changed.</source>
        <translation>这会删除 Hermes 保存的全部 {0} 条记忆（长期和短期）及其历史，且无法撤销。你的对话不会改变。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="292"/>
        <source>Wipe all memories</source>
        <translation>清除全部记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="300"/>
        <source>The memories were not wiped: {0}</source>
        <translation>记忆未清除：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="306"/>
        <source>All memories were wiped.</source>
        <translation>已清除全部记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="316"/>
        <source>The conversation this memory came from was deleted.</source>
        <translation>这条记忆来自的对话已被删除。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="329"/>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="335"/>
        <source>Memory history</source>
        <translation>记忆历史</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="330"/>
        <source>Newest first. A newer memory on the same subject replaces the older one; the older ones are kept here and are no longer given to the model.</source>
        <translation>最新的在前。同一主题的新记忆会取代旧记忆；旧记忆保留在这里，不再提供给模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="340"/>
        <source>forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="341"/>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="340"/>
        <source>replaced</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="341"/>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="404"/>
        <source>Could not forget it: {0}</source>
        <translation>无法遗忘：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="487"/>
        <source>The conversation&apos;s memory switch was not saved: {0}</source>
        <translation>对话的记忆开关未保存：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="498"/>
        <source>This conversation does not use or record memory.</source>
        <translation>此对话不使用也不记录记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_actions.py" line="499"/>
        <source>This conversation uses memory again.</source>
        <translation>此对话重新使用记忆。</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="84"/>
        <source>d MMM</source>
        <translation>M月d日</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="85"/>
        <source>d MMM yyyy</source>
        <translation>yyyy年M月d日</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="109"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="110"/>
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="112"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="124"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="369"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="125"/>
        <source>Change what this memory says (F2)</source>
        <translation>修改这条记忆的内容（F2）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="126"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="348"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="370"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="127"/>
        <source>A pinned memory is always offered to the model and never expires (Ctrl+P)</source>
        <translation>置顶的记忆总会提供给模型，且永不过期（Ctrl+P）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="128"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="375"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="129"/>
        <source>Delete this memory (Delete); you can undo it for a moment</source>
        <translation>删除这条记忆（Delete）；短时间内可以撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="130"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="372"/>
        <source>Go to source</source>
        <translation>转到出处</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="131"/>
        <source>Open the conversation and the message it came from (Enter)</source>
        <translation>打开它来自的对话和消息（Enter）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="132"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="374"/>
        <source>History…</source>
        <translation>历史…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="133"/>
        <source>The older memories on the same subject this one replaced (Ctrl+H)</source>
        <translation>这条记忆取代的同一主题的旧记忆（Ctrl+H）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="134"/>
        <source>Wipe all…</source>
        <translation>全部清除…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="135"/>
        <source>Delete every memory (asks first)</source>
        <translation>删除所有记忆（会先询问）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="136"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="137"/>
        <source>Write a memory yourself (long-term, used in every conversation)</source>
        <translation>自己写一条记忆（长期，在每个对话中使用）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="141"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="183"/>
        <source>Memory is off (Settings › Memory): nothing is recalled or remembered. What was remembered before is kept and listed here.</source>
        <translation>记忆已关闭（设置 › 记忆）：不会调入也不会记住任何内容。之前记住的内容仍保留并列在这里。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="197"/>
        <source>Long-term</source>
        <translation>长期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="198"/>
        <source>Short-term</source>
        <translation>短期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="199"/>
        <source>No longer used (replaced or expired)</source>
        <translation>不再使用（已被取代或已过期）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="214"/>
        <source>Created {0}</source>
        <translation>创建于 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="220"/>
        <source>The newest {0} of {1} memories are listed. Search to find the others.</source>
        <translation>列出了最新的 {0} 条记忆（共 {1} 条）。搜索可找到其他记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="228"/>
        <source>No memory matches “{0}”.</source>
        <translation>没有与“{0}”匹配的记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="230"/>
        <source>No memories yet.

Memory keeps short facts you tell Hermes — preferences, your projects, deadlines — so later conversations can use them. Say “remember that …” in a chat, state a preference (“I prefer …”), or press Add…; each memory shows here with your own words and where you said them, and you can edit, pin or delete it.

A conversation with “Don&apos;t use or record memory” on (its context menu, or the switch in the status bar) leaves no trace here.</source>
        <translation>还没有记忆。

记忆保存你告诉 Hermes 的简短事实——偏好、你的项目、截止日期——以便之后的对话使用。在对话中说“记住……”、说出偏好（“我喜欢……”），或点击“添加…”；每条记忆都会连同你的原话和出处显示在这里，你可以编辑、置顶或删除它。

开启了“不使用也不记录记忆”的对话（在其右键菜单或状态栏的开关中设置）不会在这里留下任何痕迹。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="254"/>
        <source>added by you, {0}</source>
        <translation>由你添加，{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="254"/>
        <source>added by you</source>
        <translation>由你添加</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="256"/>
        <source>from a deleted conversation, {0}</source>
        <translation>来自已删除的对话，{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="257"/>
        <source>from a deleted conversation</source>
        <translation>来自已删除的对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="258"/>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="259"/>
        <source>from “{0}”, {1}</source>
        <translation>来自“{0}”，{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="259"/>
        <source>from “{0}”</source>
        <translation>来自“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="264"/>
        <source>replaced by a newer memory</source>
        <translation>已被更新的记忆取代</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="266"/>
        <source>forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="268"/>
        <source>expired {0}</source>
        <translation>{0}已过期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="270"/>
        <source>until {0}</source>
        <translation>有效至{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="279"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="313"/>
        <source>replaces {0} earlier</source>
        <translation>取代了 {0} 条旧记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="288"/>
        <source>Pinned: {0}</source>
        <translation>置顶：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="306"/>
        <source>pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="348"/>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="370"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/memory_panel.py" line="385"/>
        <source>Memory actions</source>
        <translation>记忆操作</translation>
    </message>
</context>
<context>
    <name>MemorySettingsPage</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="26"/>
        <source>Hermes keeps short facts you tell it (preferences, projects, deadlines), each with your own words and where you said them, and gives the relevant ones to the model in later conversations. You see, edit and delete them in the Memory tab.</source>
        <translation>Hermes 会保存你告诉它的简短事实（偏好、项目、截止日期），每条都附有你的原话和出处，并在之后的对话中把相关的提供给模型。你可以在“记忆”标签页中查看、编辑和删除它们。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="31"/>
        <source>Use memory: recall memories in conversations and remember new ones</source>
        <translation>使用记忆：在对话中调入记忆并记住新内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="35"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="36"/>
        <source>When off, nothing is recalled or recorded; what was remembered before stays until you delete it. A single conversation can also be kept out of memory (its context menu).</source>
        <translation>关闭后不会调入也不会记录任何内容；之前记住的内容会保留，直到你删除。也可以只让某个对话不使用记忆（在其右键菜单中设置）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="42"/>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="48"/>
        <source>Providers that receive memories</source>
        <translation>可使用记忆的服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="49"/>
        <source>Memories are yours, whichever provider you told them to: each provider ticked here gets the relevant ones. Untick one to keep all of them from it; what you tell it is still remembered for the others. A server set with HERMES_BASE_URL never gets them.</source>
        <translation>记忆属于你，无论你是对哪个服务商说的：这里勾选的服务商都会收到相关的记忆。取消勾选，它就收不到任何记忆；你对它说的话仍会被记住，供其他服务商使用。用 HERMES_BASE_URL 设置的服务器永远收不到记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="59"/>
        <source>Short-term memory half-life in days</source>
        <translation>短期记忆的半衰期（天）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="61"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="65"/>
        <source>Short-term half-life</source>
        <translation>短期记忆半衰期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="66"/>
        <source>A short-term memory counts half as much after this many days, a quarter after twice as many. Long-term and pinned memories do not fade.</source>
        <translation>短期记忆经过这么多天后权重减半，两倍天数后为四分之一。长期记忆和置顶的记忆不会衰减。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="72"/>
        <source>Memory token budget per request</source>
        <translation>每次请求的记忆 Token 预算</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="75"/>
        <source> tokens</source>
        <translation> 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="78"/>
        <source>Room in each request</source>
        <translation>每次请求中的占用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/memory_settings.py" line="101"/>
        <source>No provider is set up yet.</source>
        <translation>还没有设置服务商。</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="86"/>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="87"/>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="89"/>
        <source>Open {0}</source>
        <translation>打开 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="91"/>
        <source>Hide thinking</source>
        <translation>隐藏思考过程</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="92"/>
        <source>Show thinking</source>
        <translation>显示思考过程</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="95"/>
        <source>Open link {0}</source>
        <translation>打开链接 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="98"/>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="99"/>
        <source>Copy code block {0}</source>
        <translation>复制代码块 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/keyboard.py" line="218"/>
        <source>Message actions</source>
        <translation>消息操作</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="74"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="84"/>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="124"/>
        <source>No model set up</source>
        <translation>尚未设置模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="125"/>
        <source>Set up a provider to chat</source>
        <translation>设置一个服务商即可开始对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="130"/>
        <source>chosen for this session</source>
        <translation>为本对话选择</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="130"/>
        <source>the default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="131"/>
        <source>Model for this session: {0} ({1}). Click or press Ctrl+Shift+M to change it.</source>
        <translation>本对话的模型：{0}（{1}）。点击或按 Ctrl+Shift+M 更换。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="207"/>
        <source>The model choice could not be saved: {0}</source>
        <translation>无法保存所选模型：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="215"/>
        <source>This session uses {0} · {1} from its next message.</source>
        <translation>本对话从下一条消息起使用 {0} · {1}。</translation>
    </message>
</context>
<context>
    <name>ModelPickerPopup</name>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="244"/>
        <source>Model for this session</source>
        <translation>本对话的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="251"/>
        <source>Filter models…</source>
        <translation>筛选模型…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="264"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="266"/>
        <source>Ask every provider&apos;s server for its models again</source>
        <translation>重新向每个服务商的服务器获取模型列表</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="269"/>
        <source>Applies to this session from its next message.</source>
        <translation>从下一条消息起用于本对话。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="328"/>
        <source>Default: {0} · {1}</source>
        <translation>默认：{0} · {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="329"/>
        <source>Follow the default model (the active provider&apos;s); new sessions use it</source>
        <translation>跟随默认模型（当前服务商的模型）；新对话使用它</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="342"/>
        <source>Could not list models: {0}</source>
        <translation>无法获取模型列表：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="351"/>
        <source>{0} more not listed (at most {1})</source>
        <translation>另有 {0} 个未列出（最多 {1} 个）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="353"/>
        <source>The server listed more models than the picker keeps, or names that are too long or hold control characters. Type a model by hand with “Add model…”.</source>
        <translation>服务器列出的模型多于选择器保留的数量，或有名称过长、含控制字符。可用“添加模型…”手动输入模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="364"/>
        <source>{0} (profile&apos;s model)</source>
        <translation>{0}（服务商的模型）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="366"/>
        <source>{0} (added by hand)</source>
        <translation>{0}（手动添加）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="370"/>
        <source>Add model…</source>
        <translation>添加模型…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="376"/>
        <source>No providers yet: set one up in Settings.</source>
        <translation>还没有服务商：请在设置中添加。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="389"/>
        <source>{0} — listing models…</source>
        <translation>{0} — 正在获取模型…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="391"/>
        <source>{0} — not listed yet</source>
        <translation>{0} — 尚未获取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="392"/>
        <source>{0} — {1} listed {2}</source>
        <translation>{0} — {2}获取了 {1} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="396"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="398"/>
        <source>{0} min ago</source>
        <translation>{0} 分钟前</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="400"/>
        <source>{0} h ago</source>
        <translation>{0} 小时前</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/model_picker.py" line="401"/>
        <source>{0} days ago</source>
        <translation>{0} 天前</translation>
    </message>
</context>
<context>
    <name>PromptFillDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_fill.py" line="18"/>
        <source>Fill in “{0}”</source>
        <translation>填写“{0}”</translation>
    </message>
</context>
<context>
    <name>PromptLibraryDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="43"/>
        <source>Prompt library</source>
        <translation>提示词库</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="55"/>
        <source>The prompt. {{name}} marks a blank that is asked when it is used.</source>
        <translation>提示词内容。{{名称}} 表示使用时要填写的空白。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="65"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="68"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="71"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="75"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="76"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="77"/>
        <source>Text</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="103"/>
        <source> (built-in)</source>
        <translation>（内置）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="133"/>
        <source>Blanks asked when it is used: {0}</source>
        <translation>使用时要填写的空白：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="143"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="156"/>
        <source>A prompt with this name already exists.</source>
        <translation>已有同名的提示词。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/prompt_library.py" line="157"/>
        <source>A prompt needs a name and a text.</source>
        <translation>提示词需要名称和内容。</translation>
    </message>
</context>
<context>
    <name>QuickPicker</name>
    <message>
        <location filename="../../hermes_desktop/ui/quick_picker.py" line="49"/>
        <source>Quick picker</source>
        <translation>快速选择</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/quick_picker.py" line="53"/>
        <source>Choices</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/quick_picker.py" line="55"/>
        <source>↑↓ to move · Enter to choose · Esc to close</source>
        <translation>↑↓ 移动 · Enter 选择 · Esc 关闭</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/quick_picker.py" line="98"/>
        <source>Nothing matches “{0}”.</source>
        <translation>没有与“{0}”匹配的项。</translation>
    </message>
</context>
<context>
    <name>QuitBackupNotice</name>
    <message>
        <location filename="../../hermes_desktop/ui/quit_backup.py" line="29"/>
        <source>Hermes</source>
        <translation>Hermes</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/quit_backup.py" line="30"/>
        <source>Backing up before quitting…</source>
        <translation>退出前正在备份…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/quit_backup.py" line="31"/>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
</context>
<context>
    <name>SessionSidebar</name>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="86"/>
        <source>Search sessions</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="88"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="90"/>
        <source>New session</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="91"/>
        <source>New session (Ctrl+N)</source>
        <translation>新建对话（Ctrl+N）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="98"/>
        <source>Sessions</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="115"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="141"/>
        <source>No conversations yet</source>
        <translation>还没有对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="141"/>
        <source>Type a message to start one; it is kept here.</source>
        <translation>输入一条消息即可开始；对话会保存在这里。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="145"/>
        <source>Try other words: the search looks through the text of every conversation.</source>
        <translation>换个词试试：搜索会查找所有对话的文字。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="196"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="197"/>
        <source>Incognito: does not use or record memory</source>
        <translation>不用记忆：既不使用也不记录记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="213"/>
        <source>No conversations yet.
Type a message below to start one;
it is kept here.</source>
        <translation>还没有对话。
在下方输入消息即可开始，
对话会保存在这里。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="335"/>
        <source>Pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="335"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="335"/>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="336"/>
        <source>Previous 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="336"/>
        <source>Older</source>
        <translation>更早</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="425"/>
        <source>Word…</source>
        <translation>Word…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="426"/>
        <source>Obsidian vault…</source>
        <translation>Obsidian 库…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="465"/>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="466"/>
        <source>Hermes</source>
        <translation>Hermes</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="467"/>
        <source>tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="468"/>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="469"/>
        <source>note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="145"/>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="346"/>
        <source>No matches</source>
        <translation>没有匹配项</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="84"/>
        <source>Search (Ctrl+K)</source>
        <translation>搜索（Ctrl+K）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="85"/>
        <source>Search the text of all sessions (Ctrl+K or Ctrl+F)</source>
        <translation>搜索所有对话的文本（Ctrl+K 或 Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="357"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="412"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="414"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="414"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="416"/>
        <source>Fork</source>
        <translation>分支</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="417"/>
        <source>Don&apos;t use or record memory</source>
        <translation>不使用也不记录记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="422"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="423"/>
        <source>Markdown…</source>
        <translation>Markdown…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="424"/>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sidebar.py" line="428"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="84"/>
        <source>Ask before changing anything (recommended)</source>
        <translation>任何改动前都询问（推荐）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="85"/>
        <source>Always ask, even before reading</source>
        <translation>始终询问，读取前也问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="86"/>
        <source>Trusted: only ask before deleting or overwriting</source>
        <translation>信任模式：只在删除或覆盖前询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="87"/>
        <source>Chat only: no tools at all</source>
        <translation>仅聊天：不使用任何工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="95"/>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="474"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="98"/>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="136"/>
        <source>Providers</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="99"/>
        <source>General</source>
        <translation>通用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="100"/>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="117"/>
        <source>Your data</source>
        <translation>你的数据</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="143"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="144"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="145"/>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="146"/>
        <source>Use this one</source>
        <translation>使用这个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="147"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="192"/>
        <source>No providers yet: add one.</source>
        <translation>还没有服务商：添加一个吧。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="196"/>
        <source>HERMES_BASE_URL / HERMES_MODEL are set in the environment and override the active profile while they are.</source>
        <translation>环境变量中设置了 HERMES_BASE_URL / HERMES_MODEL，设置期间它们会覆盖当前的配置。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="243"/>
        <source>{0} (copy)</source>
        <translation>{0}（副本）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="262"/>
        <source>Deleted {0} and its key.</source>
        <translation>已删除 {0} 及其密钥。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="276"/>
        <source>The key was not saved: {0}</source>
        <translation>密钥未保存：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="291"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="288"/>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="297"/>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="351"/>
        <source>Workspace folder</source>
        <translation>工作区文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="104"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="110"/>
        <source>Backup &amp;&amp; sync</source>
        <translation>备份与同步</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="116"/>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="171"/>
        <source>{0}, side tasks: {1}</source>
        <translation>{0}，辅助任务：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="173"/>
        <source>{0}, local only</source>
        <translation>{0}，仅本地</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="178"/>
        <source>Titles, summaries and memory: {0}</source>
        <translation>标题、摘要和记忆：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="292"/>
        <source>Choose the workspace folder</source>
        <translation>选择工作区文件夹</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="299"/>
        <source>HERMES_WORKSPACE is set and wins while it is.</source>
        <translation>已设置 HERMES_WORKSPACE，设置期间以它为准。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="306"/>
        <source>Tools and approvals</source>
        <translation>工具与批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="309"/>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="316"/>
        <source>Follow system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="309"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="309"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="313"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="320"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="321"/>
        <source>A new language applies when Hermes starts again.</source>
        <translation>新的语言会在 Hermes 下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="324"/>
        <source>Show while it streams, then collapse</source>
        <translation>生成时显示，之后折叠</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="325"/>
        <source>Always show</source>
        <translation>始终显示</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="325"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="330"/>
        <source>Model&apos;s thinking</source>
        <translation>模型的思考过程</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="331"/>
        <source>Also load skills from {0} (shared with other apps)</source>
        <translation>同时从 {0} 加载技能（与其他应用共享）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="336"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="337"/>
        <source>Also load skills from {0} (Claude Code&apos;s folder)</source>
        <translation>同时从 {0} 加载技能（Claude Code 的文件夹）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="384"/>
        <source>Rules you set for single tools. They override the approval mode; a destructive call that touches more than 20 files or 50 MB asks even when its tool is always allowed.</source>
        <translation>你为单个工具设置的规则。它们优先于批准模式；涉及超过 20 个文件或 50 MB 的危险调用，即使该工具被设为始终批准，也会询问。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="389"/>
        <source>Approval rules</source>
        <translation>批准规则</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="390"/>
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="393"/>
        <source>Revoke all</source>
        <translation>全部撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="400"/>
        <source>fetch_url never opens addresses on your own network or this computer (a router, a NAS, a local server) unless their host is listed here. Separate hosts with commas; add :port to allow one port only.</source>
        <translation>除非主机列在这里，fetch_url 绝不打开你自己网络上或本机上的地址（路由器、NAS、本地服务器）。多个主机用逗号分隔；加上 :端口 则只允许该端口。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="406"/>
        <source>Hosts on your network that fetch_url may open</source>
        <translation>fetch_url 可以打开的你网络上的主机</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="407"/>
        <source>e.g. nas.local, 192.168.1.20:8080</source>
        <translation>例如 nas.local, 192.168.1.20:8080</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="429"/>
        <source>Not a host name or host:port: {0}. Nothing was changed.</source>
        <translation>不是主机名，也不是“主机名＋端口”：{0}。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="434"/>
        <source>fetch_url may open these hosts on your network: {0}.</source>
        <translation>fetch_url 现在可以打开你网络上的这些主机：{0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="435"/>
        <source>fetch_url opens no address on your network now.</source>
        <translation>fetch_url 现在不打开你网络上的任何地址。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="439"/>
        <source>always allowed</source>
        <translation>始终批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="439"/>
        <source>always asks</source>
        <translation>始终询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="440"/>
        <source>never allowed</source>
        <translation>从不批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="446"/>
        <source>{tool}  —  {rule}   ({source})</source>
        <translation>{tool}  —  {rule}（{source}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="451"/>
        <source>No rules: every tool follows the approval mode.</source>
        <translation>没有规则：所有工具都遵循批准模式。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="473"/>
        <source>Sessions (hermes.db) and backups</source>
        <translation>对话（hermes.db）和备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="475"/>
        <source>Logs and the audit log of every tool call</source>
        <translation>日志以及每次工具调用的审计日志</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="476"/>
        <source>Workspace (files the agent may use, notes)</source>
        <translation>工作区（Hermes 可以使用的文件、笔记）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="484"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="485"/>
        <source>Open the folder: {0}</source>
        <translation>打开文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="489"/>
        <source>API keys are kept in the system keyring ({0}).</source>
        <translation>API 密钥保存在系统密钥环中（{0}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/settings.py" line="491"/>
        <source>No secure keyring was found ({0}): API keys are kept in memory for this run only. Set HERMES_API_KEY to supply one on every start.</source>
        <translation>没有找到安全的系统密钥环（{0}）：API 密钥只在本次运行期间保存在内存中。设置 HERMES_API_KEY 可以在每次启动时提供密钥。</translation>
    </message>
</context>
<context>
    <name>SetupBar</name>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="115"/>
        <source>No model is set up yet. You can read your sessions; set up a provider to chat.</source>
        <translation>尚未设置模型。你可以查看对话；设置服务商后即可聊天。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/main_window.py" line="118"/>
        <source>Set up a model…</source>
        <translation>设置模型…</translation>
    </message>
</context>
<context>
    <name>SetupDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="88"/>
        <source>Connect a model</source>
        <translation>连接模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="88"/>
        <source>Edit provider</source>
        <translation>编辑服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="95"/>
        <source>Hermes works with any OpenAI-compatible service, in the cloud or on this computer. Pick one, paste a key if it needs one, and test the connection.</source>
        <translation>Hermes 可以使用任何兼容 OpenAI 的服务，无论在云端还是在这台电脑上。选择一个，如需要就粘贴密钥，然后测试连接。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="97"/>
        <source>Provider settings.</source>
        <translation>服务商设置。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="101"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="226"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="108"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="227"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="112"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="228"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="117"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="229"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="119"/>
        <source>Stored in the keyring — leave empty to keep it</source>
        <translation>已保存在系统密钥环中 — 留空则保持不变</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="120"/>
        <source>Paste your API key</source>
        <translation>粘贴你的 API 密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="121"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="503"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="128"/>
        <source>No secure keyring was found on this computer ({0}). The key will be kept in memory for this run only and never written to a file. To supply it on every start, set the HERMES_API_KEY environment variable.</source>
        <translation>这台电脑上没有找到安全的系统密钥环（{0}）。密钥只会在本次运行期间保存在内存中，绝不会写入文件。若要每次启动都提供密钥，请设置环境变量 HERMES_API_KEY。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="131"/>
        <source>no backend</source>
        <translation>无后端</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="139"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="307"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="139"/>
        <source>Native tool calls</source>
        <translation>原生工具调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="140"/>
        <source>Text tool calls (for models without native support)</source>
        <translation>文本工具调用（用于不支持原生工具调用的模型）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="145"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="150"/>
        <source>provider default</source>
        <translation>服务商默认值</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="154"/>
        <source>Advanced settings</source>
        <translation>高级设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="171"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="172"/>
        <source>Tool calling</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="173"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="174"/>
        <source>Max output tokens</source>
        <translation>最大输出 Token 数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="175"/>
        <source>Context window (tokens)</source>
        <translation>上下文窗口（Token）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="178"/>
        <source>Embedding model for memory</source>
        <translation>用于记忆的嵌入模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="179"/>
        <source>None: memories are recalled by their words</source>
        <translation>无：按记忆的文字召回</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="180"/>
        <source>An embedding model this provider serves (for example text-embedding-3-small): memories are also recalled by meaning, through the provider&apos;s /embeddings endpoint. Nothing is downloaded.</source>
        <translation>此服务商提供的嵌入模型（例如 text-embedding-3-small）：记忆也会按含义召回，通过服务商的 /embeddings 端点。不会下载任何内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="183"/>
        <source>Embedding model (memory)</source>
        <translation>嵌入模型（记忆）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="186"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="190"/>
        <source>Side-task model</source>
        <translation>辅助任务模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="187"/>
        <source>None: the chat&apos;s own model</source>
        <translation>无：使用对话自己的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="188"/>
        <source>A cheaper model of this provider for titles, summaries and memory extraction; the chat itself keeps its model.</source>
        <translation>此服务商的一个更便宜的模型，用于标题、摘要和记忆提取；对话本身仍使用它自己的模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="191"/>
        <source>Conversations stay local</source>
        <translation>对话只留在本地</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="193"/>
        <source>For a model on this computer or your own network. A conversation it answered in is then never sent to another provider (only to providers also marked local only), and what you told it is not recalled for other providers.</source>
        <translation>用于运行在本机或你自己网络中的模型。它回答过的对话不会再发给其他服务商（只会发给同样标为仅本地的服务商），你告诉它的内容也不会在其他服务商那里被回忆起来。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="197"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="198"/>
        <source>Local only</source>
        <translation>仅本地</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="202"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="215"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="218"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="218"/>
        <source>Not now</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="300"/>
        <source>Reasoning and images</source>
        <translation>思考与图片</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="307"/>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="308"/>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="310"/>
        <source>Sends a reply&apos;s reasoning back with its tool calls (DeepSeek&apos;s thinking mode requires it). Automatic: for providers known to need it, or once the server asks for it.</source>
        <translation>把回复的思考内容随其工具调用一起回传（DeepSeek 的思考模式要求这样做）。自动：用于已知需要它的服务商，或在服务器要求之后。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="316"/>
        <source>Send reasoning back</source>
        <translation>回传思考内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="320"/>
        <source>Sent as reasoning_effort, for models that accept it</source>
        <translation>作为 reasoning_effort 发送，适用于接受该参数的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="321"/>
        <source>Default (not sent)</source>
        <translation>默认（不发送）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="322"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="322"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="322"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="324"/>
        <source>Reasoning effort</source>
        <translation>思考强度</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="335"/>
        <source>Extra request parameters</source>
        <translation>额外请求参数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="339"/>
        <source>Automatic (from the model&apos;s name)</source>
        <translation>自动（根据模型名称）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="340"/>
        <source>Yes: the model reads images</source>
        <translation>是：模型能读取图片</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="341"/>
        <source>No: text only</source>
        <translation>否：仅文本</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="343"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="347"/>
        <source>Forget what was learned</source>
        <translation>忘记已学到的设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="368"/>
        <source>A JSON object merged into every request (for example {&quot;enable_thinking&quot;: true}). Not for keys: the API key field keeps those in the keyring.</source>
        <translation>一个合并进每个请求的 JSON 对象（例如 {&quot;enable_thinking&quot;: true}）。不要用于密钥：API 密钥栏会把密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="378"/>
        <source>Not a JSON object: write it in braces, {…}.</source>
        <translation>不是 JSON 对象：请写在花括号 {…} 中。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="380"/>
        <source>Hermes sets {0} itself; remove it from the extra parameters.</source>
        <translation>{0} 由 Hermes 自行设置；请从额外参数中删除。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="383"/>
        <source>“{0}” looks like a key or password. Keys go in the API key field, which keeps them in the keyring; settings.json is not the place for them.</source>
        <translation>“{0}”看起来像密钥或密码。密钥应填在 API 密钥栏，它会保存在系统密钥环中；settings.json 不是存放它的地方。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="385"/>
        <source>Not valid JSON: {0}</source>
        <translation>不是有效的 JSON：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="391"/>
        <source>the server wants the reasoning sent back</source>
        <translation>服务器要求回传思考内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="393"/>
        <source>the model refused images</source>
        <translation>模型拒绝了图片</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="394"/>
        <source>Learned from the server: {0}.</source>
        <translation>从服务器学到：{0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="401"/>
        <source>What was learned will be forgotten when you save.</source>
        <translation>保存后将忘记已学到的设置。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="424"/>
        <source>Discard your changes?</source>
        <translation>放弃你的更改？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="425"/>
        <source>The provider settings you entered are not saved yet. Close the dialog and discard them?</source>
        <translation>你输入的服务商设置尚未保存。要关闭对话框并放弃这些设置吗？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="426"/>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="429"/>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="495"/>
        <source>Get a key at {0}</source>
        <translation>在 {0} 获取密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="497"/>
        <source>A local server usually needs no key; leave it empty.</source>
        <translation>本地服务器通常不需要密钥，留空即可。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="503"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="570"/>
        <source>Testing…</source>
        <translation>测试中…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="591"/>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="593"/>
        <source>Use {0}</source>
        <translation>使用 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="596"/>
        <source>Use text tool calls</source>
        <translation>使用文本工具调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="616"/>
        <source>Changed. Test again to be sure, or save.</source>
        <translation>已更改。再测试一次以确认，或直接保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="637"/>
        <source>The base URL must start with http:// or https://.</source>
        <translation>基础 URL 必须以 http:// 或 https:// 开头。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="259"/>
        <source>Choose a model.</source>
        <translation>请选择一个模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/setup.py" line="642"/>
        <source>The extra request parameters are not saved until they are a valid JSON object.</source>
        <translation>额外请求参数须是有效的 JSON 对象才能保存。</translation>
    </message>
</context>
<context>
    <name>SkillCollectionsDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="33"/>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="41"/>
        <source>Skill collections</source>
        <translation>技能合集</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="38"/>
        <source>Search collections</source>
        <translation>搜索合集</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="44"/>
        <source>Add your own collections in {0}. Being listed is not trust: what a collection holds is shown before it is installed, and its code does not run until you trust it.</source>
        <translation>可以在 {0} 中添加你自己的合集。列在这里并不代表可信：安装前会先显示合集的内容，其中的代码在你信任之前不会运行。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="54"/>
        <source>Install…</source>
        <translation>安装…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="68"/>
        <source>{0} is too large: skipped</source>
        <translation>{0} 太大：已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="69"/>
        <source>{0} could not be read ({2}): skipped</source>
        <translation>无法读取 {0}（{2}）：已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="70"/>
        <source>{0} has no &quot;collections&quot; list: skipped</source>
        <translation>{0} 中没有 &quot;collections&quot; 列表：已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="71"/>
        <source>{0}: entry {1} is not an object: skipped</source>
        <translation>{0}：第 {1} 项不是对象：已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="72"/>
        <source>{0}: entry {1} needs a name and an https URL: skipped</source>
        <translation>{0}：第 {1} 项需要名称和 https 网址：已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_collections.py" line="86"/>
        <source>No collection matches.</source>
        <translation>没有匹配的合集。</translation>
    </message>
</context>
<context>
    <name>SkillDraftDialog</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="37"/>
        <source>Save as skill</source>
        <translation>存为技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="41"/>
        <source>Drafted from: {0}</source>
        <translation>起草自：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="56"/>
        <source>Save skill</source>
        <translation>保存技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="84"/>
        <source>The validator found nothing to change.</source>
        <translation>检查未发现需要修改的地方。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="85"/>
        <source>(no name)</source>
        <translation>（无名称）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="86"/>
        <source>Skill name: {0}</source>
        <translation>技能名称：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="90"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="90"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/skill_draft.py" line="99"/>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
</context>
<context>
    <name>SkillInstall</name>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="22"/>
        <source> (ref {0})</source>
        <translation>（版本 {0}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="24"/>
        <source>, folder {0}</source>
        <translation>，文件夹 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="25"/>
        <source>Source: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="26"/>
        <source>Pinned to: {0}</source>
        <translation>固定到：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="27"/>
        <source>Installs as {0}/ with {1} skill(s):</source>
        <translation>安装为 {0}/，包含 {1} 个技能：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="33"/>
        <source>needs {0} {1}</source>
        <translation>需要 {0} {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="36"/>
        <source>code {0}  SHA-256 {1}</source>
        <translation>代码 {0}  SHA-256 {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="41"/>
        <source>Its code does not run until you trust it (Trust its code… in the Skills tab).</source>
        <translation>在你信任之前，其代码不会运行（技能标签页中的“信任其代码…”）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="59"/>
        <source>Install skills from a URL</source>
        <translation>从网址安装技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="60"/>
        <source>A git repository (https://host/owner/repo, …/tree/REF/folder) or an https URL of a .zip:</source>
        <translation>git 仓库（https://host/owner/repo、…/tree/REF/folder）或 .zip 的 https 网址：</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="68"/>
        <source>Fetching {0}…</source>
        <translation>正在获取 {0}…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="72"/>
        <source>give a URL; a folder or zip on disk goes into the skills folder (Open skills folder)</source>
        <translation>请输入网址；磁盘上的文件夹或 zip 请放入技能文件夹（打开技能文件夹）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="77"/>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="90"/>
        <source>Not installed: {0}</source>
        <translation>未安装：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="80"/>
        <source>Install these skills?</source>
        <translation>安装这些技能？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="81"/>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="85"/>
        <source>Not installed.</source>
        <translation>未安装。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/skill_install_actions.py" line="95"/>
        <source>Installed {0} into {1}</source>
        <translation>已将 {0} 安装到 {1}</translation>
    </message>
</context>
<context>
    <name>StartupWords</name>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="45"/>
        <source>A problem at start: “{0}”</source>
        <translation>启动时出现问题：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="62"/>
        <source>The session database {path} failed (“{detail}”): {what}.</source>
        <translation>对话数据库 {path} 出错（“{detail}”）：{what}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="72"/>
        <source>Your settings file could not be read (“{error}”). It was kept as {kept} and default settings were loaded.</source>
        <translation>无法读取你的设置文件（“{error}”）。原文件已保留为 {kept}，并已载入默认设置。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="75"/>
        <source>Your settings file {path} could not be read (“{error}”) nor set aside. Default settings are used for now; the file was left as it is.</source>
        <translation>无法读取你的设置文件 {path}（“{error}”），也无法把它移到一旁。目前使用默认设置；该文件保持原样。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="78"/>
        <source>Some values in your settings file {path} are not valid, so their defaults are used: {fields}. Everything else in the file was loaded; the file was left as it is (fix or remove those values to stop this message).</source>
        <translation>设置文件 {path} 中有些值无效，已改用默认值：{fields}。文件中的其余内容都已载入；文件本身保持原样（修正或删除这些值后，此消息将不再出现）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="83"/>
        <source>The session database could not be read: SQLite reports it damaged (“{detail}”). It was kept as {kept}; Hermes started with an empty history (no backup passed its integrity check).</source>
        <translation>无法读取对话数据库：SQLite 报告它已损坏（“{detail}”）。原文件已保留为 {kept}；Hermes 以空的历史记录启动（没有备份通过完整性检查）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="87"/>
        <source>The session database could not be read: SQLite reports it damaged (“{detail}”). It was kept as {kept}; Hermes started from the backup of {day}.</source>
        <translation>无法读取对话数据库：SQLite 报告它已损坏（“{detail}”）。原文件已保留为 {kept}；Hermes 已从 {day} 的备份启动。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="90"/>
        <source>The session database could not be read: SQLite reports it damaged (“{detail}”). It was kept as {kept}; the backup of {day} could not be copied in its place and is shown instead.</source>
        <translation>无法读取对话数据库：SQLite 报告它已损坏（“{detail}”）。原文件已保留为 {kept}；{day} 的备份无法复制到原位置，因此改为直接显示该备份。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="94"/>
        <source>This Python&apos;s SQLite has no FTS5; search uses a slower plain-text scan.</source>
        <translation>此 Python 的 SQLite 不支持 FTS5；搜索将使用较慢的纯文本扫描。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="96"/>
        <source>The newest changes (kept in the -wal file beside the database) cannot be shown until the database can be opened normally; they are not lost.</source>
        <translation>最新的更改（保存在数据库旁的 -wal 文件中）要等数据库能正常打开后才能显示；它们并未丢失。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="99"/>
        <source>Today&apos;s backup of the session database was skipped: the disk holding {folder} has {free} KiB free and the backup needs about {needed} KiB. Free some space; the next start makes it.</source>
        <translation>已跳过今天的对话数据库备份：{folder} 所在的磁盘只剩 {free} KiB 可用空间，而备份大约需要 {needed} KiB。请腾出一些空间；下次启动时会进行备份。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="105"/>
        <source>The system keyring is locked, so Hermes could not read the key. Unlock it and try again.</source>
        <translation>系统密钥环已锁定，Hermes 无法读取密钥。请解锁后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="107"/>
        <source>The system keyring is locked, so Hermes could not save the key. Unlock it and try again.</source>
        <translation>系统密钥环已锁定，Hermes 无法保存密钥。请解锁后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="109"/>
        <source>The system keyring is locked, so Hermes could not delete the key. Unlock it and try again.</source>
        <translation>系统密钥环已锁定，Hermes 无法删除密钥。请解锁后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="112"/>
        <source>The system keyring could not read the key (“{error}”). Try again.</source>
        <translation>系统密钥环无法读取密钥（“{error}”）。请重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="115"/>
        <source>The system keyring could not save the key (“{error}”). Try again.</source>
        <translation>系统密钥环无法保存密钥（“{error}”）。请重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="118"/>
        <source>The system keyring could not delete the key (“{error}”). Try again.</source>
        <translation>系统密钥环无法删除密钥（“{error}”）。请重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="122"/>
        <source>{path} cannot be read (“{error}”): no MCP server was started and the file was left as it is.</source>
        <translation>无法读取 {path}（“{error}”）：没有启动任何 MCP 服务器，该文件保持原样。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="125"/>
        <source>{path} is not valid JSON (line {line}, column {column}: “{error}”): no MCP server was started and the file was left as it is.</source>
        <translation>{path} 不是有效的 JSON（第 {line} 行，第 {column} 列：“{error}”）：没有启动任何 MCP 服务器，该文件保持原样。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="128"/>
        <source>{path} does not hold a JSON object: no MCP server was started and the file was left as it is.</source>
        <translation>{path} 中不是一个 JSON 对象：没有启动任何 MCP 服务器，该文件保持原样。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="131"/>
        <source>“{key}” in {path} must be an object of server names.</source>
        <translation>{path} 中的“{key}”必须是以服务器名称为键的对象。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="133"/>
        <source>{path} has no “mcpServers” (or “servers”) object.</source>
        <translation>{path} 中没有“mcpServers”（或“servers”）对象。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="135"/>
        <source>MCP server “{name}” is in both “mcpServers” and “servers”; the one in “{section}” was skipped.</source>
        <translation>MCP 服务器“{name}”同时出现在“mcpServers”和“servers”中；已跳过“{section}”中的那个。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="138"/>
        <source>MCP server “{name}” was skipped: “{error}”.</source>
        <translation>已跳过 MCP 服务器“{name}”：“{error}”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="140"/>
        <source>Input {number} in mcp.json has no “id”; it was ignored.</source>
        <translation>mcp.json 中的第 {number} 个输入项没有“id”，已忽略。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="142"/>
        <source>Input “{id}” in mcp.json: only “promptString” inputs are supported; it is asked as text.</source>
        <translation>mcp.json 中的输入项“{id}”：只支持“promptString”类型的输入，将以文本方式询问。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="146"/>
        <source>the skills folder is a file, not a folder; no skill in it is loaded</source>
        <translation>技能文件夹是一个文件而不是文件夹；其中的技能都不会被载入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="148"/>
        <source>the skills folder cannot be listed (“{error}”); no skill in it is loaded</source>
        <translation>无法列出技能文件夹的内容（“{error}”）；其中的技能都不会被载入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="151"/>
        <source>cannot be listed (“{error}”)</source>
        <translation>无法列出其内容（“{error}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="153"/>
        <source>no SKILL.md or skill.yaml in it; a folder named “{name}” is not searched further</source>
        <translation>其中没有 SKILL.md 或 skill.yaml；名为“{name}”的文件夹不会继续向下搜索</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="156"/>
        <source>no SKILL.md or skill.yaml in it, nor in its folders {levels} levels down</source>
        <translation>其中及其下 {levels} 层的文件夹里都没有 SKILL.md 或 skill.yaml</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="159"/>
        <source>no SKILL.md or skill.yaml in it, nor in its folders {levels} levels down (the scan stopped: too many folders in this root)</source>
        <translation>其中及其下 {levels} 层的文件夹里都没有 SKILL.md 或 skill.yaml（扫描已停止：此根目录下的文件夹太多）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="162"/>
        <source>could not be loaded</source>
        <translation>无法载入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="163"/>
        <source>{count} more folders in it hold no skill (not listed one by one)</source>
        <translation>其中另有 {count} 个文件夹不含技能（不逐一列出）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="167"/>
        <source>no name; using the folder name “{folder}”</source>
        <translation>没有名称；改用文件夹名“{folder}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="169"/>
        <source>the name “{name}” has spaces or slashes; using the folder name “{folder}”</source>
        <translation>名称“{name}”含有空格或斜杠；改用文件夹名“{folder}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="172"/>
        <source>the name “{name}” is non-standard (the standard allows 1-{most} lowercase letters, digits and single hyphens), but the skill works, also as /{name}</source>
        <translation>名称“{name}”不合规范（规范允许 1-{most} 个小写字母、数字和单个连字符），但技能仍可使用，也可用 /{name} 调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="175"/>
        <source>the name “{name}” does not match its folder “{folder}”</source>
        <translation>名称“{name}”与其文件夹“{folder}”不一致</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="178"/>
        <source>no description: the model could not know when to use it</source>
        <translation>没有描述：模型无法知道何时使用它</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="180"/>
        <source>the description is {length} characters; the standard allows {most}</source>
        <translation>描述有 {length} 个字符；规范允许 {most} 个</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="183"/>
        <source>is a link to another folder; its scripts do not run (trust covers only the skill&apos;s own files; copy the scripts into the skill&apos;s folder)</source>
        <translation>是指向另一个文件夹的链接；其中的脚本不会运行（信任只涵盖技能自己的文件；请把脚本复制到技能的文件夹中）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="186"/>
        <source>is spelled “{spelled}”; the standard spells it “SKILL.md” (read anyway)</source>
        <translation>拼写为“{spelled}”；规范写法是“SKILL.md”（仍会读取）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="189"/>
        <source>cannot be read (“{error}”)</source>
        <translation>无法读取（“{error}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="191"/>
        <source>no YAML front matter (--- … ---) at the top</source>
        <translation>顶部没有 YAML 头信息（--- … ---）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="193"/>
        <source>the front matter is not valid YAML (“{error}”)</source>
        <translation>头信息不是有效的 YAML（“{error}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="195"/>
        <source>{keys}: an unquoted “: ” (not valid YAML); read leniently as text. Put the value in quotes to silence this.</source>
        <translation>{keys}：含有未加引号的“: ”（不是有效的 YAML）；已宽松地按文本读取。给值加上引号即可消除此提示。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="198"/>
        <source>is not a mapping of fields</source>
        <translation>不是字段的映射</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="200"/>
        <source>no instructions after the front matter</source>
        <translation>头信息之后没有指令</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="202"/>
        <source>cannot be read as YAML (“{error}”)</source>
        <translation>无法按 YAML 读取（“{error}”）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="204"/>
        <source>no “prompt” and no instructions.md: the skill has no instructions</source>
        <translation>没有“prompt”，也没有 instructions.md：该技能没有指令</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="206"/>
        <source>could not be loaded (“{error}”); its tools are off, the skill&apos;s instructions still work</source>
        <translation>无法载入（“{error}”）；其工具已停用，技能的指令仍然有效</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="209"/>
        <source>the tool name “{name}” is not allowed by model APIs (letters A-Z and a-z, digits, _ and -, at most 64); give it an ASCII name with @tool(name=...); skipped</source>
        <translation>工具名“{name}”不被模型 API 接受（只能用 A-Z、a-z、数字、_ 和 -，最多 64 个）；请用 @tool(name=...) 给它一个 ASCII 名称；已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="212"/>
        <source>the tool “{name}” clashes with an existing tool; skipped</source>
        <translation>工具“{name}”与已有工具重名；已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="215"/>
        <source>The workspace folder {path} could not be created (“{error}”). Choose another one in Settings.</source>
        <translation>无法创建工作区文件夹 {path}（“{error}”）。请在设置中选择其他文件夹。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="218"/>
        <source>The skills folder {path} could not be created (“{error}”). Your own skills cannot be added until it can.</source>
        <translation>无法创建技能文件夹 {path}（“{error}”）。在能创建它之前，无法添加你自己的技能。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="240"/>
        <source>Hermes could not start: the folder {path} cannot be created or used (“{error}”). Your conversations and settings cannot be opened until it can; check the folder, then restart Hermes Desktop.</source>
        <translation>Hermes 无法启动：文件夹 {path} 无法创建或使用（“{error}”）。在此之前无法打开你的对话和设置；请检查该文件夹，然后重新启动 Hermes Desktop。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="244"/>
        <source>Hermes could not start (“{0}”). Details are in the log; restart Hermes Desktop to try again.</source>
        <translation>Hermes 无法启动（“{0}”）。详细信息见日志；请重新启动 Hermes Desktop 再试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="254"/>
        <source>{file}: {reason}</source>
        <comment>a skill&apos;s file and its problem</comment>
        <translation>{file}：{reason}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/startup_words.py" line="260"/>
        <source>; </source>
        <comment>between a folder&apos;s problems</comment>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>SyncActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="36"/>
        <source>Wrong passphrase or recovery code: it does not open this target&apos;s backups. Nothing was changed.</source>
        <translation>密码短语或恢复码不正确：无法打开此位置的备份。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="39"/>
        <source>An object on the storage failed its check (changed or damaged) and was skipped: {0}</source>
        <translation>存储上的一个对象未通过校验（被改动或已损坏），已跳过：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="42"/>
        <source>The storage is full: nothing was lost; free space there, then sync again. ({0})</source>
        <translation>存储空间已满：没有丢失任何内容；请在那里腾出空间后再同步。（{0}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="45"/>
        <source>The server refused the user name or password (use an app password for Nextcloud and 坚果云).</source>
        <translation>服务器拒绝了用户名或密码（Nextcloud 和坚果云请使用应用密码）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="48"/>
        <source>No system keyring is available, so the sync key cannot be kept. Nothing was saved.</source>
        <translation>没有可用的系统密钥环，无法保存同步密钥。没有保存任何内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="50"/>
        <source>Sync or backup failed: {0}</source>
        <translation>同步或备份失败：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="76"/>
        <source>Sync status</source>
        <translation>同步状态</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="109"/>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="136"/>
        <source>Sync: problem (see Settings › Backup &amp; sync)</source>
        <translation>同步：出现问题（见 设置 › 备份与同步）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="112"/>
        <source>Not synced yet</source>
        <translation>尚未同步</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="116"/>
        <source>Synced {0} · {1} pending</source>
        <translation>已同步 {0} · {1} 项待上传</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="117"/>
        <source>Synced {0}</source>
        <translation>已同步 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="126"/>
        <source>A backup or sync is already running.</source>
        <translation>已有备份或同步正在进行。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="129"/>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="151"/>
        <source>Synced: {0} change(s) merged, {1} batch(es) sent.</source>
        <translation>已同步：合并了 {0} 项更改，发送了 {1} 批。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="154"/>
        <source>{0} conversation(s) were continued on two devices: both continuations are kept as branches.</source>
        <translation>{0} 个对话在两台设备上都有后续：两条后续都保留为分支。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="156"/>
        <source>Skipped: {0}</source>
        <translation>已跳过：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="165"/>
        <source>Backed up: {0} sessions, {1} attachments.</source>
        <translation>已备份：{0} 个对话，{1} 个附件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/sync_actions.py" line="176"/>
        <source>Restored {0} sessions; what was here before is kept in sync-safety. Restart Hermes to reload everything.</source>
        <translation>已恢复 {0} 个对话；原有内容保存在 sync-safety 中。请重新启动 Hermes 以重新载入全部内容。</translation>
    </message>
</context>
<context>
    <name>SyncSettingsPage</name>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="50"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="54"/>
        <source>A folder (external disk)</source>
        <translation>文件夹（外部磁盘）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="54"/>
        <source>WebDAV</source>
        <translation>WebDAV</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="55"/>
        <source>S3-compatible storage</source>
        <translation>S3 兼容存储</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="58"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="61"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="64"/>
        <source>User / access key</source>
        <translation>用户名 / 访问密钥 ID</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="71"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="74"/>
        <source>Bucket</source>
        <translation>存储桶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="79"/>
        <source>Password / secret key</source>
        <translation>密码 / 私有访问密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="83"/>
        <source>Empty: a random key with a recovery code</source>
        <translation>留空：使用随机密钥并生成恢复码</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="84"/>
        <source>Passphrase or recovery code</source>
        <translation>密码短语或恢复码</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="86"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="89"/>
        <source>Save and set up</source>
        <translation>保存并设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="98"/>
        <source>When and how many</source>
        <translation>频率与保留数量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="102"/>
        <source>Only when I click</source>
        <translation>仅在我点击时</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="102"/>
        <source>Every hour</source>
        <translation>每小时</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="102"/>
        <source>Every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="114"/>
        <source>Keep daily</source>
        <translation>保留每日</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="116"/>
        <source>weekly</source>
        <translation>每周</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="119"/>
        <source>Also back up when Hermes quits</source>
        <translation>退出 Hermes 时也备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="121"/>
        <source>At most two minutes; Skip, or a failure, never keeps Hermes from quitting.</source>
        <translation>最多两分钟；点“跳过”或备份失败都不会妨碍 Hermes 退出。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="131"/>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="135"/>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="138"/>
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="141"/>
        <source>Refresh list</source>
        <translation>刷新列表</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="144"/>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="147"/>
        <source>Sync now</source>
        <translation>立即同步</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="164"/>
        <source>Show…</source>
        <translation>查看…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="225"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="225"/>
        <source>Attachments</source>
        <translation>附件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="226"/>
        <source>Downloading</source>
        <translation>正在下载</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="226"/>
        <source>Merging</source>
        <translation>正在合并</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="226"/>
        <source>Uploading</source>
        <translation>正在上传</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="238"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="244"/>
        <source>Connected: {0}</source>
        <translation>已连接：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="251"/>
        <source>Checking the storage and making the key…</source>
        <translation>正在检查存储并生成密钥…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="262"/>
        <source>Set up. Write down this recovery code: with it (or the passphrase) a new computer can restore your backups.
{0}</source>
        <translation>设置完成。请记下这个恢复码：凭它（或密码短语）可以在新电脑上恢复你的备份。
{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="271"/>
        <source>{0} — cannot be opened: {1}</source>
        <translation>{0} — 无法打开：{1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="273"/>
        <source>{0} — {1}: {2} sessions, {3} messages, {4} attachments</source>
        <translation>{0} — {1}：{2} 个对话，{3} 条消息，{4} 个附件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="288"/>
        <source>1 change was made on two devices at once; the newer one was kept.</source>
        <translation>有 1 处改动在两台设备上同时发生；保留了较新的那一个。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="289"/>
        <source>{0} changes were made on two devices at once; the newer one was kept each time.</source>
        <translation>有 {0} 处改动在两台设备上同时发生；每处都保留了较新的那一个。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="294"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="294"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="294"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="295"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="296"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="296"/>
        <source>pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="296"/>
        <source>trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="297"/>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="297"/>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="297"/>
        <source>content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="298"/>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="300"/>
        <source>this computer&apos;s change was kept</source>
        <translation>保留了这台电脑上的改动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="301"/>
        <source>the other device&apos;s change was kept</source>
        <translation>保留了另一台设备上的改动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="302"/>
        <source>{0} “{1}”, {2}: {3} ({4})</source>
        <translation>{0}“{1}”的{2}：{3}（{4}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="310"/>
        <source>Changed on two devices</source>
        <translation>在两台设备上都有改动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="317"/>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="327"/>
        <source>The same thing was changed on two devices before they synced. Each device keeps the newer change; the other one is listed here.</source>
        <translation>同一内容在两台设备同步之前都被改动了。每台设备都保留较新的改动，另一个列在这里。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="350"/>
        <source>Choose a backup in the list first.</source>
        <translation>请先在列表中选择一个备份。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="362"/>
        <source>Restore the backup of {0} from {1}?

It holds {2} sessions, {3} messages, {4} memories and {5} attachments.

This replaces the history, settings.json and mcp.json here. A backup of what is here now is made first (in the data folder&apos;s sync-safety).</source>
        <translation>要恢复来自 {1}、时间为 {0} 的备份吗？

其中有 {2} 个对话、{3} 条消息、{4} 条记忆和 {5} 个附件。

这会替换此处的历史记录、settings.json 和 mcp.json。恢复前会先备份此处现有的内容（在数据文件夹的 sync-safety 中）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="368"/>
        <source>Restore backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/dialogs/sync_settings.py" line="369"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="642"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="643"/>
        <source>Open provider settings</source>
        <translation>打开服务商设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="644"/>
        <source>Start a new session with a summary</source>
        <translation>带着摘要开始新对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="66"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="65"/>
        <source>Copied</source>
        <comment>a message&apos;s Copy link, just after the click</comment>
        <translation>已复制</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="196"/>
        <source>Copy</source>
        <comment>a code block&apos;s link</comment>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="277"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="277"/>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="351"/>
        <source>Fork</source>
        <translation>分支</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="362"/>
        <source>Hermes</source>
        <translation>Hermes</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="365"/>
        <source>writing…</source>
        <translation>正在回复…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="343"/>
        <source>interrupted — the reply stopped here</source>
        <translation>已中断 — 回复停在这里</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="351"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="382"/>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="384"/>
        <source>{0} s</source>
        <translation>{0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="386"/>
        <source>Thought for {0} s</source>
        <translation>已思考（用时 {0} 秒）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="388"/>
        <source>Thinking</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="477"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="506"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="506"/>
        <source>Allow once</source>
        <translation>批准一次</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="506"/>
        <source>Allow for this session</source>
        <translation>本对话内批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="508"/>
        <source>Always allow</source>
        <translation>始终批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="528"/>
        <source>waiting for your approval</source>
        <translation>等待你的批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="530"/>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="571"/>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="608"/>
        <source>Earlier conversation (summarised)</source>
        <translation>之前的对话（已总结）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="578"/>
        <source>The {0} messages above reach the model as this summary ({1} tokens); the conversation itself is unchanged.</source>
        <translation>上面的 {0} 条消息以这份总结（{1} 个 Token）发给模型；对话本身没有改动。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="609"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/layout.py" line="610"/>
        <source>Show in the Memory tab</source>
        <translation>在“记忆”标签页中显示</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="334"/>
        <source>Summarising earlier conversation…</source>
        <translation>正在总结之前的对话…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="572"/>
        <source>Imported “{role}” message: shown here, never sent to the model</source>
        <translation>导入的“{role}”消息：仅在此显示，从不发送给模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="589"/>
        <source>Forgotten (undone): {0}</source>
        <translation>已遗忘（已撤销）：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="591"/>
        <source>Could not undo; still remembered: {0}</source>
        <translation>无法撤销；仍记得：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/chat/model.py" line="592"/>
        <source>Remembered: {0}</source>
        <translation>已记住：{0}</translation>
    </message>
</context>
<context>
    <name>UsageActions</name>
    <message>
        <location filename="../../hermes_desktop/ui/usage_actions.py" line="42"/>
        <source>Monthly budget</source>
        <translation>每月预算</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_actions.py" line="88"/>
        <source>Spend this month against the budget set in Settings › Usage. Only models with a price count.</source>
        <translation>本月花费与 设置 › 用量 中预算的对比。只计算有价格的模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_actions.py" line="95"/>
        <source>Usage is not available: the history is not open.</source>
        <translation>用量不可用：历史记录未打开。</translation>
    </message>
</context>
<context>
    <name>UsageSettingsPage</name>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="40"/>
        <source>Hermes counts the tokens of every request it sends, titles, summaries and memory included, from the provider&apos;s own figures. With a price, it shows what they cost; a model without a price shows tokens only. Prices are per million tokens in the provider&apos;s currency; check them on the provider&apos;s price page.</source>
        <translation>Hermes 按服务商自己返回的数字统计它发出的每个请求的 Token，包括标题、摘要和记忆。有价格的模型会显示费用；没有价格的模型只显示 Token 数。价格按每百万 Token 计，使用服务商的币种；请在服务商的价格页面核对。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="46"/>
        <source>Warn me in the status bar when this month&apos;s spend nears a budget</source>
        <translation>本月花费接近预算时在状态栏提醒我</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="50"/>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="76"/>
        <source>Monthly budget</source>
        <translation>每月预算</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="55"/>
        <source>Budget currency</source>
        <translation>预算币种</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="60"/>
        <source>Warn at this share of the budget</source>
        <translation>达到预算的这个比例时提醒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="71"/>
        <source>warn at</source>
        <translation>提醒比例</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="77"/>
        <source>Spend in the other currency is listed beside it, never converted.</source>
        <translation>另一种币种的花费会单独列出，不做换算。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="89"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="89"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="89"/>
        <source>Cached input</source>
        <translation>缓存输入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="90"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="90"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="90"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="100"/>
        <source>Model name, as the provider spells it</source>
        <translation>模型名称，与服务商的写法一致</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="101"/>
        <source>Model to add a price for</source>
        <translation>要添加价格的模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="102"/>
        <source>Add price</source>
        <translation>添加价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="105"/>
        <source>Remove price</source>
        <translation>移除价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="108"/>
        <source>Use shipped price</source>
        <translation>使用内置价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="120"/>
        <source>usage.json could not be read, so the shipped prices apply (saving here writes a new file): {0}</source>
        <translation>无法读取 usage.json，因此使用内置价格（在此保存会写入新文件）：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="126"/>
        <source>Prices per million tokens</source>
        <translation>每百万 Token 价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="143"/>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="211"/>
        <source>yours</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="143"/>
        <source>shipped</source>
        <translation>内置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="145"/>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="162"/>
        <source>Currency of {0}</source>
        <translation>{0} 的币种</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="187"/>
        <source>Not saved: the price of {0} must be numbers of 0 or more ({1}).</source>
        <translation>未保存：{0} 的价格必须是大于或等于 0 的数字（{1}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="192"/>
        <source>Type the input and the output price of {0}.</source>
        <translation>请输入 {0} 的输入价格和输出价格。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="195"/>
        <source>Saved the price of {0}.</source>
        <translation>已保存 {0} 的价格。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="205"/>
        <source>Type the model&apos;s name first.</source>
        <translation>请先输入模型名称。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="217"/>
        <source>Type the prices of {0} per million tokens.</source>
        <translation>请输入 {0} 每百万 Token 的价格。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="224"/>
        <source>{0} has no price now: its tokens are counted without a cost.</source>
        <translation>{0} 现在没有价格：只统计 Token，不计费用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="231"/>
        <source>{0} uses the shipped price again (if there is one).</source>
        <translation>{0} 重新使用内置价格（如果有）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="246"/>
        <source>Usage is not available: the history is not open.</source>
        <translation>用量不可用：历史记录未打开。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_settings.py" line="251"/>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
</context>
<context>
    <name>UsageView</name>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="36"/>
        <source>{0}M</source>
        <translation>{0}M</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="38"/>
        <source>{0}K</source>
        <translation>{0}K</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="55"/>
        <source>{0} + no price</source>
        <translation>{0} + 无价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="56"/>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="62"/>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="63"/>
        <source>Titles</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="64"/>
        <source>Session summaries</source>
        <translation>对话摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="65"/>
        <source>Context summaries</source>
        <translation>上下文摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="66"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="67"/>
        <source>Skill drafts</source>
        <translation>技能草稿</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="68"/>
        <source>MCP sampling</source>
        <translation>MCP 采样</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="69"/>
        <source>Embeddings</source>
        <translation>嵌入向量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="70"/>
        <source>Connection tests</source>
        <translation>连接测试</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="72"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="76"/>
        <source>This month</source>
        <translation>本月</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="77"/>
        <source>Last month</source>
        <translation>上个月</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="78"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="79"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="80"/>
        <source>This year</source>
        <translation>今年</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="81"/>
        <source>Chosen days</source>
        <translation>自选日期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="85"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="208"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="85"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="208"/>
        <source>Cached input</source>
        <translation>缓存输入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="86"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="209"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="86"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="209"/>
        <source>Reasoning</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="97"/>
        <source>{0}
Input {1} (cached {2})
Output {3} (reasoning {4})
{5} requests · {6}</source>
        <translation>{0}
输入 {1}（缓存 {2}）
输出 {3}（思考 {4}）
{5} 个请求 · {6}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="110"/>
        <source>Usage and cost</source>
        <translation>用量与费用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="118"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="149"/>
        <source>Period</source>
        <translation>时间段</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="123"/>
        <source>First day</source>
        <translation>开始日期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="123"/>
        <source>Last day</source>
        <translation>结束日期</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="130"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="155"/>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="131"/>
        <source>Tokens per day</source>
        <translation>每日 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="132"/>
        <source>Tokens per model</source>
        <translation>各模型 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="133"/>
        <source>Cost per day</source>
        <translation>每日费用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="136"/>
        <source>Currency of the cost chart</source>
        <translation>费用图表的币种</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="139"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="142"/>
        <source>Prices and budget…</source>
        <translation>价格与预算…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="170"/>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="266"/>
        <source>No model requests in this period.</source>
        <translation>这段时间没有模型请求。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="173"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="174"/>
        <source>Session</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="175"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="176"/>
        <source>Month</source>
        <translation>月份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="177"/>
        <source>For</source>
        <translation>用途</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="178"/>
        <source>By model</source>
        <translation>按模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="179"/>
        <source>Biggest sessions</source>
        <translation>用量最大的对话</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="180"/>
        <source>By assistant</source>
        <translation>按助手</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="181"/>
        <source>By month</source>
        <translation>按月</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="182"/>
        <source>By purpose</source>
        <translation>按用途</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="188"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="208"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="209"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="258"/>
        <source>The usage could not be read: {0}</source>
        <translation>无法读取用量：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="269"/>
        <source>{0} requests · input {1} tokens (cached {2}) · output {3} tokens (reasoning {4}) · cost {5}</source>
        <translation>{0} 个请求 · 输入 {1} Token（缓存 {2}）· 输出 {3} Token（思考 {4}）· 费用 {5}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="274"/>
        <source>No price for {0}: their tokens are counted, without a cost (set a price in Settings › Usage).</source>
        <translation>{0} 没有价格：只统计 Token，不计费用（可在 设置 › 用量 中设置价格）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="277"/>
        <source>{0} requests came without the server&apos;s own count and are estimated.</source>
        <translation>{0} 个请求没有服务器自己的计数，为估算值。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="282"/>
        <source>usage.json could not be read, so the shipped prices apply: {0}</source>
        <translation>无法读取 usage.json，因此使用内置价格：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="296"/>
        <source>(no session)</source>
        <translation>（无对话）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="298"/>
        <source>(no assistant)</source>
        <translation>（无助手）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="352"/>
        <source>Export usage as CSV</source>
        <translation>将用量导出为 CSV</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="353"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="363"/>
        <source>The CSV was not written: {0}</source>
        <translation>CSV 未写入：{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="365"/>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="374"/>
        <source>Over budget: {0} of {1} this month</source>
        <translation>超出预算：本月已用 {0}，预算 {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/usage_view.py" line="375"/>
        <source>Near budget: {0} of {1} this month ({2}%)</source>
        <translation>接近预算：本月已用 {0}，预算 {1}（{2}%）</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="161"/>
        <source>What shall we do?</source>
        <translation>今天想做点什么？</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="162"/>
        <source>Hermes can calculate, read and organise files in your workspace, keep notes and read web pages — and asks before it changes anything.</source>
        <translation>Hermes 可以计算、读取和整理工作区里的文件、记笔记、阅读网页——改动任何东西之前都会先问你。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="167"/>
        <source>List the files in my workspace</source>
        <translation>列出我工作区里的文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="168"/>
        <source>Write notes.txt with three ideas for the weekend</source>
        <translation>写一个 notes.txt，列出周末的三个点子</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="169"/>
        <source>Calculate 2340 * 0.15</source>
        <translation>计算 2340 * 0.15</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="177"/>
        <location filename="../../hermes_desktop/ui/empty_state.py" line="204"/>
        <source>Put this in the message box</source>
        <translation>填入消息框</translation>
    </message>
</context>
<context>
    <name>Words</name>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="28"/>
        <source>{0} bytes</source>
        <translation>{0} 字节</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="32"/>
        <source>{0} {1}</source>
        <comment>a size and its unit</comment>
        <translation>{0} {1}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="39"/>
        <source>{0} minutes</source>
        <translation>{0} 分钟</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="40"/>
        <source>{0} s</source>
        <translation>{0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="64"/>
        <source>{files} files in {folders} folders, {size}</source>
        <translation>{folders} 个文件夹中的 {files} 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="57"/>
        <source>{files} files, {size}</source>
        <translation>{files} 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="87"/>
        <source>read</source>
        <comment>risk level</comment>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="88"/>
        <source>write</source>
        <comment>risk level</comment>
        <translation>写入</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="89"/>
        <source>destructive</source>
        <comment>risk level</comment>
        <translation>危险</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="90"/>
        <source>unknown risk</source>
        <comment>risk level</comment>
        <translation>未知风险</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="95"/>
        <source>only reads</source>
        <translation>只读取，不做更改</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="96"/>
        <source>creates or changes files</source>
        <translation>会创建或更改文件</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="97"/>
        <source>can delete or overwrite data</source>
        <translation>可能删除或覆盖数据</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="98"/>
        <source>treated as destructive</source>
        <translation>按危险操作处理</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="103"/>
        <source>{level} — {explanation}</source>
        <comment>risk level and what it means</comment>
        <translation>{level} — {explanation}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="110"/>
        <source>From a built-in tool</source>
        <translation>来自内置工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="112"/>
        <source>From the skills system</source>
        <translation>来自技能系统</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="114"/>
        <source>From the skill “{0}”</source>
        <translation>来自技能“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="117"/>
        <source>From the MCP server “{0}” ({1})</source>
        <translation>来自 MCP 服务器“{0}”（{1}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="118"/>
        <source>From the MCP server “{0}”</source>
        <translation>来自 MCP 服务器“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="119"/>
        <source>From “{0}”</source>
        <translation>来自“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="125"/>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="127"/>
        <source>skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="129"/>
        <source>skill {0}</source>
        <translation>技能 {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="131"/>
        <source>MCP {0}</source>
        <translation>MCP {0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="159"/>
        <source>will create {path} ({size})</source>
        <translation>将创建 {path}（{size}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="162"/>
        <source>will overwrite {path} ({old}) with {new}</source>
        <translation>将用 {new} 的内容覆盖 {path}（原为 {old}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="165"/>
        <source>will create folder {path}</source>
        <translation>将创建文件夹 {path}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="167"/>
        <source>will move {src} ({what}) to {dst}</source>
        <translation>将把 {src}（{what}）移动到 {dst}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="170"/>
        <source>will move {src} ({what}) to {dst}, replacing the existing file ({old})</source>
        <translation>将把 {src}（{what}）移动到 {dst}，并替换那里已有的文件（{old}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="174"/>
        <source>will delete {path} ({size})</source>
        <translation>将删除 {path}（{size}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="184"/>
        <source>will save a new note “{title}” ({size}) in {folder}</source>
        <translation>将在 {folder} 中保存新笔记“{title}”（{size}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="187"/>
        <source>will replace note “{title}” ({old}) with {new}</source>
        <translation>将用 {new} 的内容替换笔记“{title}”（原为 {old}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="190"/>
        <source>will download {url}</source>
        <translation>将下载 {url}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="192"/>
        <source>Forgets nothing: memory is off for this conversation.</source>
        <translation>不会忘记任何内容：本对话已关闭记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="198"/>
        <source>Forgets nothing: no memory matches.</source>
        <translation>不会忘记任何内容：没有匹配的记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="199"/>
        <source>#{id} “{statement}”</source>
        <comment>one memory in a list</comment>
        <translation>#{id}“{statement}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="204"/>
        <source>Forgets {count} memories: {list}</source>
        <translation>将忘记 {count} 条记忆：{list}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="201"/>
        <source>; </source>
        <comment>list separator</comment>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="56"/>
        <source>1 file, {size}</source>
        <translation>1 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="59"/>
        <source>1 file in 1 folder, {size}</source>
        <translation>1 个文件夹中的 1 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="61"/>
        <source>1 file in {folders} folders, {size}</source>
        <translation>{folders} 个文件夹中的 1 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="63"/>
        <source>{files} files in 1 folder, {size}</source>
        <translation>1 个文件夹中的 {files} 个文件，共 {size}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="74"/>
        <source>title</source>
        <comment>side request</comment>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="75"/>
        <source>summary for a new session</source>
        <comment>side request</comment>
        <translation>新对话的摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="76"/>
        <source>summary of older messages</source>
        <comment>side request</comment>
        <translation>较早消息的摘要</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="77"/>
        <source>memory extraction</source>
        <comment>side request</comment>
        <translation>提取记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="78"/>
        <source>skill draft</source>
        <comment>side request</comment>
        <translation>技能草稿</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="79"/>
        <source>MCP server&apos;s request</source>
        <comment>side request</comment>
        <translation>MCP 服务器的请求</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="80"/>
        <source>connection test</source>
        <comment>side request</comment>
        <translation>连接测试</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="148"/>
        <source>Note: another name in this folder looks the same as “{name}”: this one is written {written}, the other {others}.</source>
        <translation>注意：此文件夹中另有一个名称看起来与“{name}”相同：这个写作 {written}，另一个写作 {others}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="179"/>
        <source>will delete the empty folder {path}</source>
        <translation>将删除空文件夹 {path}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="181"/>
        <source>will delete {what} in {path}</source>
        <translation>将删除 {path} 中的 {what}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="194"/>
        <source>Forgets nothing: this provider gets no memories.</source>
        <translation>不会忘记任何记忆：这个服务商不使用记忆。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="203"/>
        <source>Forgets 1 memory: {list}</source>
        <translation>将忘记 1 条记忆：{list}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="207"/>
        <source>runs {command} from skill {skill}, in {folder}, with your permissions</source>
        <translation>将以你的权限在 {folder} 中运行技能 {skill} 的 {command}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="211"/>
        <source>cannot run: {0}</source>
        <translation>无法运行：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="213"/>
        <source>Impact unknown: its check failed ({0}).</source>
        <translation>影响未知：预检失败（{0}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="215"/>
        <source>The tool describes it as: “{0}”</source>
        <translation>该工具的说明：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="217"/>
        <source>Calls “{tool}” on the MCP server “{server}”; Hermes cannot tell in advance what it changes.</source>
        <translation>将调用 MCP 服务器“{server}”上的“{tool}”；Hermes 无法预先知道它会更改什么。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="224"/>
        <source>No impact estimate for this tool.</source>
        <translation>此工具没有影响评估。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="233"/>
        <location filename="../../hermes_desktop/ui/words.py" line="234"/>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="235"/>
        <source>rule: never allow</source>
        <translation>规则：从不批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="236"/>
        <source>rule: always allow</source>
        <translation>规则：始终批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="237"/>
        <source>chat-only mode</source>
        <translation>仅聊天模式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="238"/>
        <source>read-only call</source>
        <translation>只读调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="239"/>
        <source>trusted mode</source>
        <translation>信任模式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="240"/>
        <location filename="../../hermes_desktop/ui/words.py" line="252"/>
        <source>allowed for this conversation</source>
        <translation>本对话内已批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="241"/>
        <source>nobody to ask</source>
        <translation>无人可询问</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="242"/>
        <source>no answer in time</source>
        <translation>未及时回答</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="243"/>
        <source>error while asking</source>
        <translation>询问时出错</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="244"/>
        <location filename="../../hermes_desktop/ui/words.py" line="320"/>
        <source>dry run</source>
        <translation>模拟运行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="251"/>
        <source>allowed once</source>
        <translation>已批准一次</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="253"/>
        <source>always allowed</source>
        <translation>始终批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="254"/>
        <location filename="../../hermes_desktop/ui/words.py" line="261"/>
        <location filename="../../hermes_desktop/ui/words.py" line="295"/>
        <location filename="../../hermes_desktop/ui/words.py" line="316"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="255"/>
        <source>allowed</source>
        <translation>已批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="260"/>
        <source>denied ({0})</source>
        <comment>who denied the call</comment>
        <translation>已拒绝（{0}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="268"/>
        <location filename="../../hermes_desktop/ui/words.py" line="296"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="270"/>
        <source>done in {0} s</source>
        <translation>用时 {0} 秒完成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="272"/>
        <source>done · {decision} ({who})</source>
        <translation>完成 · {decision}（{who}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="274"/>
        <source>done in {seconds} s · {decision} ({who})</source>
        <translation>用时 {seconds} 秒完成 · {decision}（{who}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="280"/>
        <location filename="../../hermes_desktop/ui/words.py" line="297"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="281"/>
        <source>running {0} s</source>
        <translation>已运行 {0} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="287"/>
        <source>waiting for your approval</source>
        <translation>等待你批准</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="288"/>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="289"/>
        <location filename="../../hermes_desktop/ui/words.py" line="314"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="290"/>
        <location filename="../../hermes_desktop/ui/words.py" line="317"/>
        <location filename="../../hermes_desktop/ui/words.py" line="694"/>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="291"/>
        <location filename="../../hermes_desktop/ui/words.py" line="318"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="292"/>
        <source>skipped (the turn was stopped)</source>
        <translation>已跳过（本轮已停止）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="293"/>
        <source>dry run: not run</source>
        <translation>模拟运行：未实际运行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="294"/>
        <source>interrupted — not run</source>
        <translation>已中断 — 未运行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="303"/>
        <source>Note sent to the model ({0} characters)</source>
        <translation>发给模型的说明（{0} 个字符）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="304"/>
        <source>Result ({0} characters)</source>
        <translation>结果（{0} 个字符）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="308"/>
        <source>Show all ({0} lines)</source>
        <translation>全部显示（{0} 行）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="313"/>
        <source>ok</source>
        <comment>a tool call&apos;s outcome</comment>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="315"/>
        <source>invalid call</source>
        <translation>无效调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="319"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="321"/>
        <source>interrupted, not run</source>
        <translation>已中断，未运行</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="329"/>
        <source>The server said: “{0}”</source>
        <translation>服务器返回：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="342"/>
        <source>The provider rejected the API key ({0}). Check the key in the provider settings.</source>
        <translation>服务商拒绝了 API 密钥（{0}）。请在服务商设置中检查密钥。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="345"/>
        <source>The API key has no access to this model or endpoint ({0}).</source>
        <translation>此 API 密钥无权访问该模型或端点（{0}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="348"/>
        <source>The provider says the account is out of quota or credit ({0}).</source>
        <translation>服务商表示账户的额度或余额已用完（{0}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="353"/>
        <source>The provider is limiting how fast requests may come ({status}). Try again in {wait}.</source>
        <translation>服务商正在限制请求频率（{status}）。请在 {wait}后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="357"/>
        <source>The provider is limiting how fast requests may come ({0}). Wait a moment and try again.</source>
        <translation>服务商正在限制请求频率（{0}）。请稍等片刻再试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="362"/>
        <source>The model server had an error ({0}).</source>
        <translation>模型服务器出错（{0}）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="373"/>
        <source>The model wrote a tool call the server could not accept. Try again; the model usually writes it right the next time.</source>
        <translation>模型写出的工具调用未被服务器接受。请重试；模型下一次通常能写对。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="377"/>
        <source>The reply reached the model&apos;s output limit. What arrived is kept; raise the profile&apos;s maximum output tokens for longer replies.</source>
        <translation>回复已达到模型的输出上限。已收到的内容会保留；如需更长的回复，请调高该配置的最大输出 Token 数。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="381"/>
        <source>The model does not accept native tool calls.</source>
        <translation>该模型不接受原生工具调用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="383"/>
        <source>The server at {host} does not offer the model “{model}”.</source>
        <translation>{host} 上的服务器不提供模型“{model}”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="386"/>
        <source>The server at {0} has no chat endpoint at this URL (404). Check the base URL (many servers need it to end in /v1).</source>
        <translation>{0} 上的服务器在此网址没有聊天端点（404）。请检查基础 URL（很多服务器要求以 /v1 结尾）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="390"/>
        <source>The model server at {0} did not answer in time.</source>
        <translation>{0} 上的模型服务器未能及时响应。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="392"/>
        <source>The model server stopped sending the reply and timed out. What arrived is kept.</source>
        <translation>模型服务器中途停止发送回复并已超时。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="395"/>
        <source>The connection dropped while the reply was streaming. What arrived is kept.</source>
        <translation>回复传输过程中连接中断。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="398"/>
        <source>Can&apos;t reach the model server at {0}. Check that it is running and that the base URL is right.</source>
        <translation>无法连接到 {0} 上的模型服务器。请确认它正在运行，并且基础 URL 正确。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="402"/>
        <source>The model server sent a reply Hermes could not read. What arrived is kept.</source>
        <translation>模型服务器发来的回复 Hermes 无法读取。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="405"/>
        <source>The model server reported an error while streaming.</source>
        <translation>模型服务器在传输回复时报告了错误。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="408"/>
        <source>The conversation is too long for this model&apos;s context window. Start a new conversation with a summary, or use a model with a larger context.</source>
        <translation>对话太长，超出了此模型的上下文窗口。请用摘要开始新对话，或改用上下文更大的模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="414"/>
        <source>Something went wrong inside Hermes ({0}). Your message is saved; the details are in the log.</source>
        <translation>Hermes 内部出错（{0}）。你的消息已保存；详细信息在日志中。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="418"/>
        <source>No model is set up yet. Add a provider (base URL, model and key) in settings; your message is saved.</source>
        <translation>尚未设置模型。请在设置中添加服务商（基础 URL、模型和密钥）；你的消息已保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="422"/>
        <source>This conversation was held with {held}, which you marked local-only, so it is not sent to {other}. Switch back to {held} (or another local-only provider) in the model picker, or start a new conversation for this provider. Your message is saved.</source>
        <translation>这个对话是与 {held} 进行的，你已将它标为仅本地，所以不会发给 {other}。请在模型选择器中切回 {held}（或其他仅本地的服务商），或为这个服务商新建一个对话。你的消息已保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="428"/>
        <source>Stopped: this turn reached its time limit of {0} (turn_deadline_s in the settings&apos; limits). What arrived so far is kept; send a message to continue.</source>
        <translation>已停止：本轮达到了 {0} 的时间上限（设置中限制项的 turn_deadline_s）。已收到的内容会保留；发送消息即可继续。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="432"/>
        <source>This conversation is busy: another Hermes window or command is running a turn in it, and it did not finish within {0}. Nothing was sent or saved; try again when it has finished.</source>
        <translation>此对话正忙：另一个 Hermes 窗口或命令正在其中进行一轮对话，且未在 {0} 内结束。没有发送或保存任何内容；请在它结束后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="444"/>
        <source>The provider refused the API key.</source>
        <translation>服务商拒绝了 API 密钥。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="445"/>
        <source>The provider is limiting requests.</source>
        <translation>服务商正在限制请求频率。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="446"/>
        <source>The model server had an error.</source>
        <translation>模型服务器出错。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="447"/>
        <source>Can&apos;t reach the model server.</source>
        <translation>无法连接到模型服务器。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="448"/>
        <source>The model server did not answer in time.</source>
        <translation>模型服务器未能及时响应。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="449"/>
        <source>The reply stopped half-way. What arrived is kept.</source>
        <translation>回复中途停止。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="450"/>
        <source>The conversation is too long for this model.</source>
        <translation>对话太长，超出了此模型的上下文窗口。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="451"/>
        <source>The server does not offer this model.</source>
        <translation>服务器不提供此模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="452"/>
        <source>The model server sent a reply Hermes could not read.</source>
        <translation>模型服务器发来的回复 Hermes 无法读取。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="453"/>
        <source>The model server refused the request.</source>
        <translation>模型服务器拒绝了请求。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="454"/>
        <source>No model provider is set up yet.</source>
        <translation>尚未设置模型服务商。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="455"/>
        <source>The conversation could not be saved.</source>
        <translation>无法保存对话。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="456"/>
        <source>Something went wrong inside Hermes.</source>
        <translation>Hermes 内部出错。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="457"/>
        <source>Something went wrong.</source>
        <translation>出错了。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="459"/>
        <source>Details: “{0}”</source>
        <translation>详细信息：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="466"/>
        <location filename="../../hermes_desktop/ui/words.py" line="490"/>
        <source>nothing was saved</source>
        <translation>未保存任何内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="467"/>
        <source>your message was not saved</source>
        <translation>你的消息未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="468"/>
        <source>the reply was not saved</source>
        <translation>回复未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="469"/>
        <source>the tool result was not saved</source>
        <translation>工具结果未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="470"/>
        <source>the message was not saved</source>
        <translation>消息未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="471"/>
        <source>the change was not saved</source>
        <translation>更改未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="472"/>
        <source>the new conversation was not saved</source>
        <translation>新对话未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="473"/>
        <source>the latest part of the reply was not saved</source>
        <translation>回复的最新部分未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="475"/>
        <source>your edited message was not saved</source>
        <translation>你编辑的消息未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="476"/>
        <source>your message and its attachments were not saved</source>
        <translation>你的消息及其附件未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="478"/>
        <source>the conversation summary was not saved</source>
        <translation>对话摘要未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="480"/>
        <source>the attachment was not saved</source>
        <translation>附件未保存</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="481"/>
        <source>the history is open read-only and nothing new can be saved</source>
        <translation>历史记录以只读方式打开，无法保存新内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="483"/>
        <source>the history cannot be shown and nothing can be saved</source>
        <translation>无法显示历史记录，也无法保存任何内容</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="485"/>
        <source>today&apos;s backup of the session database was skipped</source>
        <translation>已跳过今天的对话数据库备份</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="487"/>
        <source>start-up housekeeping (interrupted replies, the expired trash) was postponed</source>
        <translation>启动时的整理工作（中断的回复、过期的回收站）已推迟</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="489"/>
        <source>“{0}”</source>
        <comment>a consequence only known in English</comment>
        <translation>“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="498"/>
        <source>The disk holding {path} is full: {what}. Free some space and try again.</source>
        <translation>存放 {path} 的磁盘已满：{what}。请释放一些空间后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="501"/>
        <source>{path} is on read-only storage or is write-protected: {what}. Make it writable, then restart Hermes Desktop.</source>
        <translation>{path} 位于只读存储上或处于写保护状态：{what}。请将其设为可写，然后重新启动 Hermes Desktop。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="505"/>
        <source>The disk holding {path} reported an I/O error: {what}. Check the disk, then try again.</source>
        <translation>存放 {path} 的磁盘报告了输入输出错误：{what}。请检查磁盘后重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="509"/>
        <source>Hermes is not allowed to read or write {path}: {what}. Check the permissions of the file and its folder.</source>
        <translation>Hermes 无权读写 {path}：{what}。请检查该文件及其文件夹的权限。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="513"/>
        <source>{path} is locked by another program: {what}. Close that program or wait, then try again.</source>
        <translation>{path} 被其他程序锁定：{what}。请关闭该程序或稍候再试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="517"/>
        <source>{path} is damaged: {what}. Restart Hermes Desktop to recover it from a backup.</source>
        <translation>{path} 已损坏：{what}。请重新启动 Hermes Desktop，从备份中恢复。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="520"/>
        <source>The session database {path} failed: {what}.</source>
        <translation>对话数据库 {path} 出错：{what}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="527"/>
        <source>The session database was made by a newer version of Hermes Desktop (schema {version}, this app knows {known}). It is open read-only: update Hermes Desktop to keep chatting.</source>
        <translation>对话数据库由更新版本的 Hermes Desktop 创建（结构版本 {version}，本应用只认识到 {known}）。它已以只读方式打开：请更新 Hermes Desktop 以继续聊天。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="543"/>
        <source>• Skill “{name}”: {tokens} tokens — stop using skill {name} in this session (Skills tab)</source>
        <translation>• 技能“{name}”：{tokens} 个 Token — 在本对话中停用技能 {name}（“技能”页）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="631"/>
        <source>The server refused the conversation&apos;s earlier tool calls without their reasoning (it said: “{0}”). Hermes sends them as text from now on and tried again.</source>
        <translation>服务器拒绝了对话中不带思考内容的早先工具调用（它说：“{0}”）。Hermes 今后会把它们作为文本发送，并已重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="787"/>
        <source>It stopped. {0}</source>
        <translation>已停止运行。{0}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="797"/>
        <source>It stopped. {reason} Restarting in {delay} s.</source>
        <translation>已停止运行。{reason}{delay} 秒后重新启动。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="833"/>
        <source>The command {0} was not found. Install uv, which brings uvx (for example: pip install uv), then press Restart.</source>
        <translation>找不到命令 {0}。请安装 uv，它自带 uvx（例如：pip install uv），然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="835"/>
        <source>The command {0} was not found. Install uv (for example: pip install uv), then press Restart.</source>
        <translation>找不到命令 {0}。请安装 uv（例如：pip install uv），然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="837"/>
        <source>The command {0} was not found. Install Node.js, which brings npx (your system&apos;s package, e.g. apt install npm, or the Node.js installer), then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Node.js，它自带 npx（用系统的软件包，例如 apt install npm，或 Node.js 安装程序），然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="839"/>
        <source>The command {0} was not found. Install Node.js, which brings npm, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Node.js，它自带 npm，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="841"/>
        <source>The command {0} was not found. Install Node.js, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Node.js，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="843"/>
        <source>The command {0} was not found. Install Bun, which brings bunx, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Bun，它自带 bunx，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="845"/>
        <source>The command {0} was not found. Install Deno, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Deno，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="847"/>
        <source>The command {0} was not found. Install pipx (for example: pip install pipx), then press Restart.</source>
        <translation>找不到命令 {0}。请安装 pipx（例如：pip install pipx），然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="849"/>
        <source>The command {0} was not found. Install Docker and start it, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Docker 并启动它，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="851"/>
        <location filename="../../hermes_desktop/ui/words.py" line="853"/>
        <source>The command {0} was not found. Install Python 3, or give the full path of the Python to use, then press Restart.</source>
        <translation>找不到命令 {0}。请安装 Python 3，或写明要使用的 Python 的完整路径，然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="855"/>
        <source>The command {0} was not found.</source>
        <translation>找不到命令 {0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="813"/>
        <source>It did not start within {0} s (its startTimeout).</source>
        <translation>它没有在 {0} 秒内启动（它的 startTimeout）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="814"/>
        <source>It did not answer `initialize` within {0} s (its startTimeout).</source>
        <translation>它没有在 {0} 秒内响应 `initialize`（它的 startTimeout）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="816"/>
        <source>It did not list its tools within {0} s (its startTimeout).</source>
        <translation>它没有在 {0} 秒内列出它的工具（它的 startTimeout）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="819"/>
        <source>It wrote something that is not MCP on its standard output: {0}. A server may write only JSON-RPC messages there; logs belong on stderr.</source>
        <translation>它在标准输出上写了不属于 MCP 的内容：{0}。服务器只能在那里写 JSON-RPC 消息；日志应写到 stderr。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="823"/>
        <source>It did not answer in time.</source>
        <translation>它没有及时响应。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="825"/>
        <source>The connection closed.</source>
        <translation>连接已关闭。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="916"/>
        <source>The current date and time, in your time zone or in a given IANA time zone.</source>
        <translation>当前日期和时间，按你所在的时区或指定的 IANA 时区。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="917"/>
        <source>Works out an arithmetic expression exactly, e.g. (12+34)*5 or sqrt(2)*pi.</source>
        <translation>精确计算算式，例如 (12+34)*5 或 sqrt(2)*pi。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="918"/>
        <source>Lists a folder in the workspace (names, sizes, dates).</source>
        <translation>列出工作区中某个文件夹的内容（名称、大小、日期）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="919"/>
        <source>Reads a text file in the workspace, a range of lines or a page at a time.</source>
        <translation>读取工作区中的文本文件，可按行范围或分页读取。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="920"/>
        <source>Finds files in the workspace by name pattern and, if asked, by text they contain.</source>
        <translation>按文件名模式在工作区中查找文件，也可以按文件内容查找。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="921"/>
        <source>Creates or overwrites a text file in the workspace (making folders as needed).</source>
        <translation>在工作区中新建或覆盖文本文件（需要时自动创建文件夹）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="922"/>
        <source>Creates a folder (and its parents) in the workspace.</source>
        <translation>在工作区中新建文件夹（连同上级文件夹）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="923"/>
        <source>Moves or renames a file or folder inside the workspace.</source>
        <translation>在工作区内移动或重命名文件、文件夹。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="924"/>
        <source>Deletes a file, or a folder with everything in it, inside the workspace, for good.</source>
        <translation>永久删除工作区内的文件，或文件夹及其中的全部内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="925"/>
        <source>Lists your notes (titles, newest first).</source>
        <translation>列出你的笔记（标题，最新的在前）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="926"/>
        <source>Reads one note by its title.</source>
        <translation>按标题读取一篇笔记。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="927"/>
        <source>Saves a Markdown note under a title (replacing a note with the same title).</source>
        <translation>以某个标题保存 Markdown 笔记（同名笔记会被替换）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="928"/>
        <source>Downloads a public web page (http/https) and returns its readable text. Addresses on your own network are refused unless listed in Settings.</source>
        <translation>下载公开网页（http/https）并返回其中可读的文字。除非在设置中列出，否则拒绝访问你本地网络中的地址。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="930"/>
        <source>Reads the rest of a long tool result.</source>
        <translation>读取较长工具结果的其余部分。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="931"/>
        <source>Remembers something you said about yourself, your preferences or your projects, in your own words, for later conversations.</source>
        <translation>记住你说过的关于你自己、你的偏好或你的项目的话（用你的原话），供以后的对话使用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="933"/>
        <source>Searches what Hermes remembers about you from earlier conversations.</source>
        <translation>搜索 Hermes 从之前的对话中记住的关于你的内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="934"/>
        <source>Forgets memories you want gone; you are asked first and see which ones.</source>
        <translation>忘记你不想保留的记忆；会先问你，并列出是哪几条。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="935"/>
        <source>Searches the knowledge bases used in this conversation (your own documents) and cites the passages it uses.</source>
        <translation>搜索本对话使用的知识库（你自己的文档），并注明所用段落的出处。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="937"/>
        <source>Loads a skill when your task matches its description.</source>
        <translation>当你的任务符合某个技能的描述时，加载该技能。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="938"/>
        <source>Reads a file that comes with a skill, a page at a time.</source>
        <translation>分页读取技能附带的文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="939"/>
        <source>Searches the installed skills that the catalog does not list, by keywords.</source>
        <translation>按关键词搜索技能目录中未列出的已安装技能。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="940"/>
        <source>Surveys a project folder in the workspace: file types, manifest files, layout, README, largest files and likely problems. Read-only.</source>
        <translation>概览工作区中的项目文件夹：文件类型、清单文件、目录结构、README、最大的文件和可能的问题。只读。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="951"/>
        <source>Plans and carries out a tidy-up of a folder in the workspace (grouping files into folders by type, project or date, renaming them consistently), showing the plan first and asking before each change.</source>
        <translation>规划并整理工作区中的文件夹（按类型、项目或日期把文件归入文件夹，统一命名），先给出计划，每次改动前都会询问。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="954"/>
        <source>Turns a pasted meeting transcript or rough notes into structured meeting notes (summary, decisions, action items with owners and dates, open questions) and saves them as a note.</source>
        <translation>把粘贴的会议记录或草稿整理成结构化的会议纪要（摘要、决定、带负责人和日期的待办事项、待解决的问题），并保存为笔记。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="957"/>
        <source>Looks at a project folder in the workspace and explains what it is: its purpose, languages and frameworks, structure, how to build and test it, and anything that looks missing or broken.</source>
        <translation>查看工作区中的项目文件夹并说明它是什么：用途、语言和框架、结构、如何构建和测试，以及看起来缺失或有问题的地方。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="960"/>
        <source>Researches a question on the web: reads a few relevant pages, compares what they say, and writes a short summary with its sources, saved as a note.</source>
        <translation>在网上调研一个问题：阅读几个相关网页，比较它们的说法，写一份注明来源的简短总结，并保存为笔记。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1000"/>
        <source>Refused: {path} is outside the workspace ({root}).</source>
        <translation>已拒绝：{path} 不在工作区（{root}）内。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1002"/>
        <source>{path} does not exist.</source>
        <translation>{path} 不存在。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1004"/>
        <source>{path} is a folder, not a file.</source>
        <translation>{path} 是文件夹，不是文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1006"/>
        <source>{path} is not a folder.</source>
        <translation>{path} 不是文件夹。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1008"/>
        <source>{path} is a binary file, not text.</source>
        <translation>{path} 是二进制文件，不是文本。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1013"/>
        <source>{path} already exists and is a file.</source>
        <translation>{path} 已存在，而且是一个文件。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1015"/>
        <source>Division by zero.</source>
        <translation>除数为零。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1017"/>
        <source>The expression is empty.</source>
        <translation>算式为空。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1019"/>
        <source>Unknown time zone {zone}.</source>
        <translation>未知的时区 {zone}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1021"/>
        <source>There is no note titled “{title}”.</source>
        <translation>没有标题为“{title}”的笔记。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1023"/>
        <source>{tool} did not finish within {seconds} s and was stopped.</source>
        <translation>{tool} 未在 {seconds} 秒内完成，已被停止。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="1024"/>
        <source>The tool reported an error: “{0}”</source>
        <translation>工具报告了错误：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="539"/>
        <source>• Skill catalog: {0} tokens — disable activate_skill in the Tools tab, or remove skills you do not use</source>
        <translation>• 技能目录：{0} 个 Token — 在“工具”页停用 activate_skill，或移除不用的技能</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="364"/>
        <source>The model server refused the request ({0}). Check this provider&apos;s model and extra parameters in Settings, or pick another model; then press Retry.</source>
        <translation>模型服务器拒绝了请求（{0}）。请在设置中检查此服务商的模型和额外参数，或换一个模型，然后点“重试”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="368"/>
        <source>{0} refused this conversation&apos;s earlier replies even with their tool calls sent as text. Switch this conversation back to the model that wrote them, start a new conversation, or turn off thinking mode for this provider; then press Retry.</source>
        <translation>即使把工具调用作为文本发送，{0} 仍拒绝了此对话中早先的回复。请把此对话切换回写下这些回复的模型、开始新对话，或为此服务商关闭思考模式，然后点“重试”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="547"/>
        <source>• MCP server “{name}”: {tokens} tokens — turn it off (MCP tab or mcp.json)</source>
        <translation>• MCP 服务器“{name}”：{tokens} 个 Token — 将其关闭（“MCP”页或 mcp.json）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="551"/>
        <source>• Built-in tools: {0} tokens — disable the tools you do not need in the Tools tab</source>
        <translation>• 内置工具：{0} 个 Token — 在“工具”页停用不需要的工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="554"/>
        <source>• Memory: {0} tokens — turn memory off in Settings</source>
        <translation>• 记忆：{0} 个 Token — 在设置中关闭记忆</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="556"/>
        <source>• This turn: {0} tokens — your message and this turn&apos;s tool results: shorten the message or split the task</source>
        <translation>• 本轮：{0} 个 Token — 你的消息和本轮的工具结果：请缩短消息或拆分任务</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="559"/>
        <source>• “{name}”: {tokens} tokens</source>
        <translation>•“{name}”：{tokens} 个 Token</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="563"/>
        <source>Not sent: this request needs about {needed} tokens before any history, but the model&apos;s context window ({window} tokens, less its reply reserve) leaves {available}. Turn something off to make room; your message is saved.</source>
        <translation>未发送：不计历史，此请求就需要约 {needed} 个 Token，而模型的上下文窗口（{window} 个 Token，扣除为回复预留的部分）只剩 {available} 个。请关闭一些内容腾出空间；你的消息已保存。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="592"/>
        <source>The provider is limiting requests; retrying in {delay} s (attempt {attempt} of {of}).</source>
        <translation>服务商正在限制请求频率；{delay} 秒后重试（第 {attempt} 次，共 {of} 次）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="595"/>
        <source>The model server had an error; retrying in {delay} s (attempt {attempt} of {of}).</source>
        <translation>模型服务器出错；{delay} 秒后重试（第 {attempt} 次，共 {of} 次）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="598"/>
        <source>Can&apos;t reach the model server; retrying in {delay} s (attempt {attempt} of {of}).</source>
        <translation>无法连接到模型服务器；{delay} 秒后重试（第 {attempt} 次，共 {of} 次）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="601"/>
        <source>The model server did not answer in time; retrying in {delay} s (attempt {attempt} of {of}).</source>
        <translation>模型服务器未能及时响应；{delay} 秒后重试（第 {attempt} 次，共 {of} 次）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="604"/>
        <source>The request failed; retrying in {delay} s (attempt {attempt} of {of}).</source>
        <translation>请求失败；{delay} 秒后重试（第 {attempt} 次，共 {of} 次）。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="614"/>
        <source>The conversation is too long for the model; retrying with less history.</source>
        <translation>对话对模型来说太长；正在用较少的历史重试。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="617"/>
        <source>Waiting for another Hermes window or command to finish its turn in this conversation (at most {0})…</source>
        <translation>正在等待另一个 Hermes 窗口或命令结束它在此对话中的这一轮（最多 {0}）…</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="621"/>
        <source>The reply reached the maximum output length and was cut off.</source>
        <translation>回复达到了最大输出长度，已被截断。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="623"/>
        <source>The model&apos;s reply ended inside its thinking, with no separate answer: open its thinking to read what it wrote.</source>
        <translation>模型的回复在思考过程中结束，没有单独的答案：展开它的思考即可查看它写了什么。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="627"/>
        <source>The server wants the model&apos;s reasoning sent back with its tool calls (it said: “{0}”). From now on Hermes sends it back with tool calls for this provider.</source>
        <translation>服务器要求把模型的思考内容随工具调用一起回传（服务器返回：“{0}”）。从现在起，Hermes 会对此服务商随工具调用回传思考内容。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="635"/>
        <source>This model does not accept native tool calls; Hermes switched to the text tool-call format for it.</source>
        <translation>该模型不接受原生工具调用；Hermes 已为它改用文本格式的工具调用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="638"/>
        <source>The earlier conversation could not be summarised (“{error}”), so {count} older messages were left out of this request instead. Your history is unchanged.</source>
        <translation>无法总结之前的对话（“{error}”），因此本次请求省略了 {count} 条较早的消息。你的历史记录保持不变。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="643"/>
        <source>About this conversation&apos;s model: “{0}”</source>
        <translation>关于本对话的模型：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="646"/>
        <source>Knowledge search without vectors this time: {0}.</source>
        <translation>本次知识库搜索未使用向量：{0}。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="655"/>
        <source>Stopped after {0} model round trips in one turn. Send a message to let the agent continue.</source>
        <translation>本轮已进行 {0} 次模型请求，已停止。发送消息即可让 Hermes 继续。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="659"/>
        <source>Stopped: the agent asked for {tool} with the same arguments {count} times in a row. Tell it what to do differently.</source>
        <translation>已停止：Hermes 连续 {count} 次用相同参数调用 {tool}。请告诉它换一种做法。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="663"/>
        <source>Stopped: {tool} failed {count} times in a row. Check the errors above and tell the agent how to proceed.</source>
        <translation>已停止：{tool} 连续失败 {count} 次。请查看上面的错误，并告诉 Hermes 接下来怎么做。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="668"/>
        <source>Stopped: the reply passed the output limit of {0} characters. What arrived is kept, and its tool calls were not run.</source>
        <translation>已停止：回复超过了 {0} 个字符的输出上限。已收到的内容会保留，其中的工具调用没有运行。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="671"/>
        <source>Stopped: the reply passed the output limit of {0} characters. What arrived is kept.</source>
        <translation>已停止：回复超过了 {0} 个字符的输出上限。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="675"/>
        <source>Stopped. What arrived so far is kept.</source>
        <translation>已停止。已收到的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="682"/>
        <source>native</source>
        <comment>tool calling</comment>
        <translation>原生</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="683"/>
        <source>text format</source>
        <comment>tool calling</comment>
        <translation>文本格式</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="684"/>
        <source>no tools</source>
        <comment>tool calling</comment>
        <translation>不提供工具</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="690"/>
        <source>API key refused</source>
        <translation>API 密钥被拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="691"/>
        <source>rate limited</source>
        <translation>请求频率受限</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="692"/>
        <source>server error</source>
        <translation>服务器错误</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="693"/>
        <source>cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="695"/>
        <source>reply cut off</source>
        <translation>回复中断</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="696"/>
        <source>context too long</source>
        <translation>上下文过长</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="697"/>
        <source>model not found</source>
        <translation>找不到模型</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="698"/>
        <source>unreadable reply</source>
        <translation>回复无法读取</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="699"/>
        <source>request refused</source>
        <translation>请求被拒绝</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="700"/>
        <source>not set up</source>
        <translation>尚未设置</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="701"/>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="702"/>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="708"/>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="709"/>
        <source>stopped by you</source>
        <translation>已由你停止</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="710"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="711"/>
        <source>too many round trips</source>
        <translation>请求轮次过多</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="712"/>
        <source>the same call repeated</source>
        <translation>重复相同的调用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="713"/>
        <source>repeated failures</source>
        <translation>多次失败</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="714"/>
        <source>output limit reached</source>
        <translation>达到输出上限</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="725"/>
        <source>Connected: {model} answered in {ms} ms.</source>
        <translation>已连接：{model} 在 {ms} 毫秒内作出响应。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="728"/>
        <source>The base URL must start with http:// or https://.</source>
        <translation>基础 URL 必须以 http:// 或 https:// 开头。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="730"/>
        <source>Nothing answers at {url}, but {suggested} works. Use that URL.</source>
        <translation>{url} 没有响应，但 {suggested} 可以使用。请改用该网址。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="733"/>
        <source>The server does not list the model “{model}”. Pick one of the {count} it offers.</source>
        <translation>服务器没有列出模型“{model}”。请从它提供的 {count} 个模型中选择一个。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="737"/>
        <source>Choose a model.</source>
        <translation>请选择一个模型。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="739"/>
        <source>The model answers, but does not accept native tool calls. Use the text tool-call format for it.</source>
        <translation>模型能作出响应，但不接受原生工具调用。请为它使用文本格式的工具调用。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="749"/>
        <source>Qwen (DashScope)</source>
        <translation>通义千问（DashScope）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="750"/>
        <source>Moonshot / Kimi</source>
        <translation>月之暗面 / Kimi</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="751"/>
        <source>Zhipu GLM</source>
        <translation>智谱 GLM</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="753"/>
        <source>Ollama (local)</source>
        <translation>Ollama（本地）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="754"/>
        <source>LM Studio (local)</source>
        <translation>LM Studio（本地）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="755"/>
        <source>Custom (vLLM, other OpenAI-compatible)</source>
        <translation>自定义（vLLM 或其他兼容 OpenAI 的服务）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="763"/>
        <source>Custom server</source>
        <translation>自定义服务</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="771"/>
        <source>still starting after {waited} s; its startTimeout is {limit} s</source>
        <translation>已启动 {waited} 秒仍未就绪；它的 startTimeout 为 {limit} 秒</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="776"/>
        <source>It needs you to sign in{status}: sign in from the MCP tab or with hermes-desktop mcp login {server}</source>
        <translation>需要你登录{status}：请在“MCP”页登录，或运行 hermes-desktop mcp login {server}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="780"/>
        <source>It needs you to sign in (“{reason}”): sign in from the MCP tab or with hermes-desktop mcp login {server}</source>
        <translation>需要你登录（“{reason}”）：请在“MCP”页登录，或运行 hermes-desktop mcp login {server}</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="784"/>
        <source>The server refused the request: “{0}”</source>
        <translation>服务器拒绝了请求：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="788"/>
        <source>It stopped: “{0}”</source>
        <translation>已停止运行：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="790"/>
        <source>{variable} in {where} has no value, so the server was not started. Set it (for a ${{secret:…}}, with Set secret…) and press Restart.</source>
        <translation>{where} 中的 {variable} 没有值，因此服务器未启动。请为它设置值（${{secret:…}} 可用“设置密钥…”设置），然后按“重启”。</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="799"/>
        <source>It stopped (“{reason}”); restarting in {delay} s</source>
        <translation>已停止运行（“{reason}”）；{delay} 秒后重新启动</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="864"/>
        <source>d MMM</source>
        <comment>a memory&apos;s day (Qt date format)</comment>
        <translation>M月d日</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="867"/>
        <source>{statement} (added by you, {day})</source>
        <translation>{statement}（由你添加，{day}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="869"/>
        <source>{statement} (from a deleted conversation, {day})</source>
        <translation>{statement}（来自已删除的对话，{day}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="872"/>
        <source>{statement} (from a conversation, {day})</source>
        <translation>{statement}（来自一个对话，{day}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="874"/>
        <source>{statement} (from “{title}”, {day})</source>
        <translation>{statement}（来自“{title}”，{day}）</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="881"/>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="890"/>
        <source>Secret Service: GNOME Keyring or KeePassXC</source>
        <translation>Secret Service：GNOME 密钥环或 KeePassXC</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="891"/>
        <source>KDE Wallet</source>
        <translation>KDE 钱包</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="892"/>
        <source>macOS Keychain</source>
        <translation>macOS 钥匙串</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="893"/>
        <source>Windows Credential Manager</source>
        <translation>Windows 凭据管理器</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="894"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="901"/>
        <source>no system keyring is available</source>
        <translation>没有可用的系统密钥环</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="903"/>
        <source>the keyring backend does not store secrets securely</source>
        <translation>该密钥环后端不能安全地保存密钥</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="905"/>
        <source>the keyring backend cannot be used here</source>
        <translation>该密钥环后端在这里无法使用</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="906"/>
        <source>the keyring reported: “{0}”</source>
        <translation>密钥环报告：“{0}”</translation>
    </message>
    <message>
        <location filename="../../hermes_desktop/ui/words.py" line="907"/>
        <source>no keyring backend</source>
        <translation>没有密钥环后端</translation>
    </message>
</context>
</TS>
