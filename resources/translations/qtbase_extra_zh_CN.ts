<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- Qt's own words that PySide6's qtbase_zh_CN.qm has not caught up with: Qt 6 added mnemonics to these file dialog
     labels ("&Look in:"), and the shipped catalogue still translates the old "Look in:". ui/i18n.py installs this
     after qtbase_zh_CN, so it is looked up first; tests/ui/test_chinese_everywhere.py opens Qt's file dialog. -->
<TS version="2.1" language="zh_CN">
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷方式</translation>
    </message>
</context>
</TS>
