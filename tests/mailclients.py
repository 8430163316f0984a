"""Mail as each client builds it: replies and forwards of the judge's mail
(issue 18). Used by tests/test_mail_clients.py (the corpus in
tests/data/mail/clients, made by ``python tests/mailclients.py``, and the
by-mail test that answers the judge's real confirmation in each style).

:data:`STYLES`: one :class:`Style` per client and quoting style: its headers
(X-Mailer, User-Agent), MIME layout (plain, HTML only, or both as
multipart/alternative), charset and transfer encoding, ``format=flowed``,
and how its plain and HTML parts quote the mail answered (or carry the mail
forwarded). Each names its source: the public test mails of the reply-parsing
libraries (talon: tests/fixtures/standard_replies and html_replies;
quotequail: tests/files; mail-parser-reply and email-reply-parser:
test/emails; crisp-oss/email-reply-parser: test/fixtures), RFC 3676, and
public mailing-list and issue-tracker archives where Chinese clients' answers
are quoted whole (GitHub notification replies from QQ Mail, Foxmail, 163).
Only the structure is taken (separators, header words, containers); every
text is ours.
"""

from __future__ import annotations

import html as htmllib
import json
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

JUDGE = "judge@example.test"
CORPUS = Path(__file__).parent / "data" / "mail" / "clients"


@dataclass(frozen=True)
class Original:
    """The mail answered or forwarded."""
    sender: str            # display name
    address: str
    to: str
    date_en: str           # as English clients write it
    date_zh: str           # as Chinese clients write it
    subject: str
    text: str


@dataclass(frozen=True)
class Style:
    client: str
    name: str
    source: str
    layout: str = "alternative"        # plain | html | alternative
    charset: str = "utf-8"
    cte: str | None = None              # None: the library's choice
    flowed: bool = False
    headers: tuple = ()
    plain: object = None                # (new, original) -> plain text
    html: object = None                 # (new, original) -> HTML
    forward: bool = False
    subject_prefix: str = "Re: "
    disposition: str | None = None      # Content-Disposition of the text parts (Mutt writes "inline")


def esc(text: str) -> str:
    return htmllib.escape(text, quote=False)


def br(text: str) -> str:
    return "<br>\n".join(esc(x) for x in text.split("\n"))


def divs(text: str) -> str:
    return "\n".join(f"<div>{esc(x) or '<br>'}</div>" for x in text.split("\n"))


def quoted(text: str) -> str:
    return "\n".join((f"> {x}" if x else ">") for x in text.split("\n"))


# ---- plain-text quoting styles --------------------------------------------------------
def p_outlook(new, o):
    return (f"{new}\n\n________________________________\nFrom: {o.sender} <{o.address}>\nSent: {o.date_en}\n"
            f"To: {o.to}\nSubject: {o.subject}\n\n{o.text}\n")


def p_outlook_mailto(new, o):      # talon outlook.eml: no rule, "[mailto:…]"
    return (f"{new}\n\nFrom: {o.address} [mailto:{o.address}]\nSent: {o.date_en}\nTo: {o.to}\n"
            f"Subject: {o.subject}\n\n{o.text}\n")


def p_outlook_zh(new, o):
    return (f"{new}\n\n________________________________\n发件人: {o.sender} <{o.address}>\n发送时间: {o.date_zh}\n"
            f"收件人: {o.to}\n主题: {o.subject}\n\n{o.text}\n")


def p_outlook_zht(new, o):
    return (f"{new}\n\n________________________________\n寄件者: {o.sender} <{o.address}>\n寄件日期: {o.date_zh}\n"
            f"收件者: {o.to}\n主旨: {o.subject}\n\n{o.text}\n")


def p_aol(new, o):
    return (f"{new}\n\n\n\n-----Original Message-----\nFrom: {o.sender} <{o.address}>\nTo: {o.to}\n"
            f"Sent: {o.date_en}\nSubject: {o.subject}\n\n\n{o.text}\n")


def p_yahoo_classic(new, o):
    return (f"{new}\n\n----- Original Message -----\nFrom: {o.sender} <{o.address}>\nTo: {o.to}\n"
            f"Sent: {o.date_en}\nSubject: {o.subject}\n\n{quoted(o.text)}\n")


def p_oe_zht(new, o):
    return (f"{new}\n\n----- 原始郵件 ----- \n寄件者: \"{o.sender}\" <{o.address}>\n收件者: <{o.to}>\n"
            f"傳送日期: {o.date_zh}\n主旨: {o.subject}\n\n\n{quoted(o.text)}\n")


def p_yahoo(new, o):
    return f"{new}\n\n    On {o.date_en}, {o.sender} <{o.address}> wrote:\n\n\n{o.text}\n"


def p_gmail(new, o):     # Gmail wraps the attribution before the address
    return f"{new}\n\nOn {o.date_en} {o.sender} <\n{o.address}> wrote:\n\n{quoted(o.text)}\n"


def p_gmail_zh(new, o):
    return f"{new}\n\n{o.sender} <{o.address}> 于{o.date_zh}写道：\n\n{quoted(o.text)}\n"


def p_gmail_zht(new, o):
    return f"{new}\n\n{o.sender} <{o.address}> 於 {o.date_zh}寫道：\n\n{quoted(o.text)}\n"


def p_apple(new, o):
    return f"{new}\n\n> On {o.date_en}, {o.sender} <{o.address}> wrote:\n> \n{quoted(o.text)}\n"


def p_apple_zh(new, o):
    return f"{new}\n\n> {o.date_zh}，{o.sender} <{o.address}> 写道：\n> \n{quoted(o.text)}\n"


def p_iphone(new, o):
    return f"{new}\n\nOn {o.date_en}, {o.sender} <{o.address}> wrote:\n\n{quoted(o.text)}\n"


def p_bottom(new, o):    # Thunderbird and Apple Mail, the answer below the quote
    return f"On {o.date_en}, {o.sender} wrote:\n{quoted(o.text)}\n\n{new}\n"


def p_thunderbird(new, o):
    return f"{new}\n\nOn {o.date_en}, {o.sender} wrote:\n{quoted(o.text)}\n"


def p_inline(new, o):    # a reply between the quoted lines: only the lines without ">" are new
    first, _, rest = o.text.partition("\n")
    return f"On {o.date_en}, {o.sender} wrote:\n> {first}\n\n{new}\n\n{quoted(rest)}\n"


def p_qq(new, o):
    return (f"{new}\n\n\n------------------ 原始邮件 ------------------\n发件人: \"{o.sender}\"<{o.address}>;\n"
            f"发送时间: {o.date_zh}\n收件人: \"{o.to}\"<{o.to}>;\n\n主题: {o.subject}\n\n\n\n{o.text}\n")


def p_qq_ios(new, o):
    return (f"{new}\n\n\n------------------ Original ------------------\nFrom: {o.sender} <{o.address}>\n"
            f"Date: {o.date_en}\nTo: {o.to}\nSubject: {o.subject}\n\n\n{o.text}\n")


def p_qq_new(new, o):    # QQ Mail's newer quote: "Original", then From:/Sent Time:
    return f"{new}\n\n         Original\n         \n       \nFrom:{o.sender} <{o.address}>\nSent Time:{o.date_en}\n\n{o.text}\n"


def p_163(new, o):
    return f"{new}\n\n在 {o.date_zh}，\"{o.sender}\" <{o.address}> 写道：\n{quoted(o.text)}\n"


def p_mailmaster(new, o):
    return (f"{new}\n\n---- 回复的原邮件 ----\n| 发件人 | {o.sender}<{o.address}> |\n| 日期 | {o.date_zh} |\n"
            f"| 收件人 | {o.to} |\n| 主题 | {o.subject} |\n{o.text}\n")


def p_foxmail(new, o):
    return (f"{new}\n\n\n \n发件人： {o.sender}\n发送时间： {o.date_zh}\n收件人： {o.to}\n"
            f"主题： {o.subject}\n{o.text}\n")


def p_windows_mail(new, o):
    return (f"{new}\n\nSent from Mail for Windows\n\nFrom: {o.sender}\nSent: {o.date_en}\nTo: {o.to}\n"
            f"Subject: {o.subject}\n\n{o.text}\n")


def p_mutt(new, o):
    return f"{new}\n\nOn Tue, Jan 07, 2025 at 09:30:00AM +0800, {o.sender} wrote:\n{quoted(o.text)}\n"


def p_k9(new, o):
    return f"{new}\n--\nSent from my Android device with K-9 Mail.\n\nOn {o.date_en}, {o.sender} <{o.address}> wrote:\n{quoted(o.text)}\n"


# ---- forwards ---------------------------------------------------------------------------
def p_gmail_fwd(new, o):
    return (f"{new}\n\n---------- Forwarded message ---------\nFrom: {o.sender} <{o.address}>\n"
            f"Date: {o.date_en}\nSubject: {o.subject}\nTo: <{o.to}>\n\n\n{o.text}\n")


def p_gmail_fwd_zh(new, o):
    return (f"{new}\n\n---------- 转发的邮件 ---------\n发件人： {o.sender} <{o.address}>\n"
            f"Date: {o.date_zh}\nSubject: {o.subject}\nTo: <{o.to}>\n\n\n{o.text}\n")


def p_thunderbird_fwd(new, o):
    return (f"{new}\n\n\n-------- Forwarded Message --------\nSubject: \t{o.subject}\nDate: \t{o.date_en}\n"
            f"From: \t{o.sender} <{o.address}>\nTo: \t{o.to}\n\n\n\n{o.text}\n")


def p_apple_fwd(new, o):
    return (f"{new}\n\nBegin forwarded message:\n\nFrom: {o.sender} <{o.address}>\nSubject: {o.subject}\n"
            f"Date: {o.date_en}\nTo: {o.to}\n\n{o.text}\n")


def p_163_fwd(new, o):
    return (f"{new}\n\n\n-------- 转发邮件信息 --------\n发件人：\"{o.sender}\" <{o.address}>\n发送日期：{o.date_zh}\n"
            f"收件人：{o.to}\n主题：{o.subject}\n\n{o.text}\n")


# ---- HTML quoting styles -----------------------------------------------------------------
MSO_HEAD = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta http-equiv="Content-Type" '
            'content="text/html; charset={cs}"><style><!-- p.MsoNormal {{margin:0cm;font-size:11.0pt}} '
            '--></style></head><body lang="EN-US" link="#0563C1"><div class="WordSection1">')


def h_outlook(new, o, cs="utf-8", keys=("From", "Sent", "To", "Subject")):
    body = "".join(f'<p class="MsoNormal">{esc(x) or "<o:p>&nbsp;</o:p>"}<o:p></o:p></p>' for x in new.split("\n"))
    values = (f"{o.sender} &lt;{o.address}&gt;", o.date_en if keys[0] == "From" else o.date_zh, o.to, o.subject)
    head = "<br>\n".join(f"<b>{k}:</b> {v}" for k, v in zip(keys, values))
    orig = "".join(f'<p class="MsoNormal">{esc(x)}<o:p></o:p></p>' for x in o.text.split("\n"))
    return (MSO_HEAD.format(cs=cs) + body + '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
            '<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in">'
            f'<p class="MsoNormal"><b>{head}</b><o:p></o:p></p></div></div>'
            f'<p class="MsoNormal"><o:p>&nbsp;</o:p></p>{orig}</div></body></html>')


def h_outlook_zh(new, o):
    return h_outlook(new, o, "gb2312", ("发件人", "发送时间", "收件人", "主题"))


def h_outlook_com(new, o):
    return ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style type="text/css" '
            'style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr">'
            f'<div style="font-family: Calibri, Arial, Helvetica, sans-serif; font-size: 12pt;">{divs(new)}</div>'
            '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
            '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
            f'color="#000000"><b>From:</b> {esc(o.sender)} &lt;{o.address}&gt;<br><b>Sent:</b> {o.date_en}<br>'
            f'<b>To:</b> {o.to}<br><b>Subject:</b> {esc(o.subject)}</font><div>&nbsp;</div></div>'
            f'<div class="BodyFragment"><font size="2"><span style="font-size:11pt;"><div class="PlainText">'
            f'{br(o.text)}</div></span></font></div></body></html>')


def h_gmail(new, o):
    return (f'<div dir="ltr">{br(new)}</div><br><div class="gmail_quote gmail_quote_container">'
            f'<div dir="ltr" class="gmail_attr">On {o.date_en} {esc(o.sender)} &lt;<a href="mailto:{o.address}">'
            f'{o.address}</a>&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px '
            f'0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">{br(o.text)}</blockquote></div>')


def h_gmail_signature(new, o):
    return (f'<div dir="ltr">{br(new)}<br clear="all"><div><br></div><span class="gmail_signature_prefix">-- </span>'
            '<br><div dir="ltr" class="gmail_signature" data-smartmail="gmail_signature">Alice Liddell<br>'
            'Wonderland Diplomacy Club</div></div><br><div class="gmail_quote gmail_quote_container">'
            f'<div dir="ltr" class="gmail_attr">On {o.date_en} {esc(o.sender)} &lt;{o.address}&gt; wrote:<br>'
            f'</div><blockquote class="gmail_quote">{br(o.text)}</blockquote></div>')


def h_gmail_fwd(new, o):
    return (f'<div dir="ltr">{br(new)}<br><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" '
            'class="gmail_attr">---------- Forwarded message ---------<br>From: <strong class="gmail_sendername" '
            f'dir="auto">{esc(o.sender)}</strong> <span dir="auto">&lt;<a href="mailto:{o.address}">{o.address}'
            f'</a>&gt;</span><br>Date: {o.date_en}<br>Subject: {esc(o.subject)}<br>To: &lt;<a>{o.to}</a>&gt;<br>'
            f'</div><br><br><div dir="ltr">{br(o.text)}</div></div></div>')


def h_apple(new, o):
    return ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body '
            'style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">'
            f'{divs(new)}<div><br><blockquote type="cite"><div>On {o.date_en}, {esc(o.sender)} &lt;'
            f'{o.address}&gt; wrote:</div><br class="Apple-interchange-newline"><div><div>{br(o.text)}</div>'
            '</div></blockquote></div><br></body></html>')


def h_iphone(new, o, tagline="Sent from my iPhone"):
    return ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
            f'<body dir="auto">{divs(new)}<div dir="ltr"><br><div dir="ltr">{esc(tagline)}</div>'
            f'<div dir="ltr"><br><blockquote type="cite">On {o.date_en}, {esc(o.sender)} &lt;{o.address}&gt; '
            f'wrote:<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">{br(o.text)}</div>'
            '</blockquote></div></body></html>')


def h_iphone_zh(new, o):
    return h_iphone(new, o, "发自我的iPhone")


def h_thunderbird(new, o):
    return ('<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv="Content-Type" content="text/html; '
            f'charset=UTF-8">\n  </head>\n  <body>\n    <p>{br(new)}</p>\n    <div class="moz-cite-prefix">On '
            f'{o.date_en}, {esc(o.sender)} wrote:<br>\n    </div>\n    <blockquote type="cite" cite="mid:1@x">'
            f'\n      <pre class="moz-quote-pre" wrap="">{esc(o.text)}</pre>\n    </blockquote>\n'
            '    <div class="moz-signature">-- <br>\n      Bob, Brest</div>\n  </body>\n</html>\n')


def h_thunderbird_fwd(new, o):
    return ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head><body>'
            f'<p>{br(new)}</p><div class="moz-forward-container"><br><br>-------- Forwarded Message --------'
            '<table class="moz-email-headers-table" cellspacing="0" cellpadding="0" border="0"><tbody>'
            f'<tr><th valign="BASELINE" nowrap="nowrap" align="RIGHT">Subject: </th><td>{esc(o.subject)}</td></tr>'
            f'<tr><th valign="BASELINE" nowrap="nowrap" align="RIGHT">Date: </th><td>{o.date_en}</td></tr>'
            f'<tr><th valign="BASELINE" nowrap="nowrap" align="RIGHT">From: </th><td>{esc(o.sender)} '
            f'<a class="moz-txt-link-rfc2396E" href="mailto:{o.address}">&lt;{o.address}&gt;</a></td></tr>'
            f'<tr><th valign="BASELINE" nowrap="nowrap" align="RIGHT">To: </th><td>{o.to}</td></tr></tbody></table>'
            f'<br><br><pre class="moz-quote-pre" wrap="">{esc(o.text)}</pre></div></body></html>')


def h_yahoo(new, o):
    return ('<html><head></head><body><div class="ydp5c1b yahoo-style-wrap" style="font-family:Helvetica Neue, '
            f'Helvetica, Arial, sans-serif;font-size:16px;">{divs(new)}</div><div id="yahoo_quoted_8372" '
            'class="yahoo_quoted"><div style="font-family:\'Helvetica Neue\', Helvetica, Arial, sans-serif;'
            f'font-size:13px;color:#26282a;"><div>On {o.date_en}, {esc(o.sender)} &lt;{o.address}&gt; wrote:'
            f'</div><div><br></div><div><br></div><div><div dir="ltr">{br(o.text)}</div></div></div></div>'
            '</body></html>')


def h_qq(new, o):
    return (f'<div>{br(new)}</div><div><br></div><div><br></div><div style="font-size: 12px;font-family: Arial '
            'Narrow;padding:2px 0 2px 0;">------------------&nbsp;原始邮件&nbsp;------------------</div>'
            '<div style="font-size: 12px;background:#efefef;padding:8px;">'
            f'<div><b>发件人:</b>&nbsp;"{esc(o.sender)}"&lt;{o.address}&gt;;</div>'
            f'<div><b>发送时间:</b>&nbsp;{o.date_zh}</div><div><b>收件人:</b>&nbsp;"{o.to}"&lt;{o.to}&gt;;<wbr>'
            f'</div><div></div><div><b>主题:</b>&nbsp;{esc(o.subject)}</div></div><div><br></div>{br(o.text)}')


def h_qq_new(new, o):
    return (f'<p>{br(new)}</p><div><br></div><article style="line-height: 1.43;"><div style="display:flex;'
            'align-items:center;padding-top:8px" contenteditable="false"><div style="color:#959DA6;font-size:12px;'
            'line-height:30px">原始邮件</div><hr style="flex-grow:1"></div><table data-uneditable="true">'
            f'<tbody><tr><td><div><span>发件人:</span><span>{esc(o.sender)}</span> <span>&lt;{o.address}&gt;'
            f'</span></div><div><span>发送时间:</span><span>{o.date_zh}</span></div></td></tr></tbody></table>'
            f'<div><br></div><div>{br(o.text)}</div></article>')


def h_163(new, o):
    return (f'<div style="line-height:1.7;color:#000000;font-size:14px;font-family:Arial">{divs(new)}</div>'
            f'<div id="divNeteaseMailCard"></div><br><pre><br>在 {o.date_zh}，"{esc(o.sender)}" &lt;{o.address}'
            '&gt; 写道：</pre><blockquote id="isReplyContent" style="PADDING-LEFT: 1ex; MARGIN: 0px 0px 0px 0.8ex; '
            f'BORDER-LEFT: #ccc 1px solid">{br(o.text)}</blockquote><br><br><span title="neteasefooter"><p>&nbsp;'
            '</p></span>')


def h_mailmaster(new, o):
    return (f'<div>{br(new)}</div><div><br></div><div style="font-size:12px;color:#959DA6">发自网易邮箱大师</div>'
            '<div class="J-reply ntes-mailmaster-quote" style="padding-top: 1px"><div style="margin:2em 0 1em">'
            '---- 回复的原邮件 ----</div><div style="margin-bottom:1em;font-size:12px"><table><tr><td>发件人</td>'
            f'<td>{esc(o.sender)} &lt;{o.address}&gt;</td></tr><tr><td>日期</td><td>{o.date_zh}</td></tr>'
            f'<tr><td>主题</td><td>{esc(o.subject)}</td></tr></table></div><div>{br(o.text)}</div></div>')


def h_foxmail(new, o):
    return ('<html><head><meta http-equiv="content-type" content="text/html; charset=GB2312"><style>body { '
            'line-height: 1.5; }</style></head><body>'
            f'<div><span></span>{br(new)}</div><hr style="width: 210px; height: 1px;" color="#b5c4df" size="1" '
            'align="left"><div><span><div style="MARGIN: 10px; FONT-FAMILY: verdana; FONT-SIZE: 10pt"><div>'
            'wang@foxmail.com</div></div></span></div><blockquote style="margin-Top: 0px; margin-Bottom: 0px; '
            'margin-Left: 0.5em; margin-Right: inherit"><div>&nbsp;</div><div style="border:none;border-top:solid '
            '#B5C4DF 1.0pt;padding:3.0pt 0cm 0cm 0cm"><div style="PADDING-RIGHT: 8px; PADDING-LEFT: 8px; FONT-SIZE: '
            f'12px;FONT-FAMILY:tahoma;COLOR:#000000; BACKGROUND: #efefef; PADDING-TOP: 8px"><div><b>发件人：</b>'
            f'&nbsp;<a href="mailto:{o.address}">{esc(o.sender)}</a></div><div><b>发送时间：</b>&nbsp;{o.date_zh}'
            f'</div><div><b>收件人：</b>&nbsp;{o.to}</div><div><b>主题：</b>&nbsp;{esc(o.subject)}</div></div></div>'
            f'<div>{br(o.text)}</div></blockquote></body></html>')


def h_proton(new, o):
    return (f'<div style="font-family: Arial, sans-serif; font-size: 14px;">{br(new)}</div><div style="font-family:'
            ' Arial, sans-serif; font-size: 14px;"><br></div><div class="protonmail_signature_block" style="font-'
            'family: Arial, sans-serif; font-size: 14px;"><div class="protonmail_signature_block-proton">Sent with '
            '<a href="https://proton.me/" target="_blank">Proton Mail</a> secure email.</div></div><div style="font-'
            'family: Arial, sans-serif; font-size: 14px;"><br></div><div class="protonmail_quote">On '
            f'{o.date_en}, {esc(o.sender)} &lt;{o.address}&gt; wrote:<br><br><blockquote class="protonmail_quote" '
            f'type="cite">{br(o.text)}</blockquote><br></div>')


def h_yahoo_tw(new, o):     # Yahoo奇摩 (Taiwan): the Yahoo container, the attribution in Chinese
    return (f'<html><head></head><body><div class="ydp1 yahoo-style-wrap">{divs(new)}</div><div '
            'id="ydp2yahoo_quoted_123" class="yahoo_quoted"><div style="font-size:13px;color:#26282a;"><div>'
            f'{esc(o.sender)} &lt;{o.address}&gt; 於 {o.date_zh} 寫道：</div><div><br></div><div><div dir="ltr">'
            f'{br(o.text)}</div></div></div></div></body></html>')


# ---- the clients ----------------------------------------------------------------------------
def _h(name, value):
    return (name, value)


OUTLOOK = (_h("X-Mailer", "Microsoft Outlook 16.0"), _h("Thread-Index", "AQHbYAbCdEfGhIjK"),
           _h("Content-Language", "en-us"))
STYLES: dict[str, Style] = {s.name: s for s in (
    Style("Outlook desktop", "outlook_plain", "talon tests/fixtures/standard_replies/outlook.eml; crisp-oss "
          "test/fixtures/email_original_message.txt", layout="plain", headers=OUTLOOK, plain=p_outlook_mailto),
    Style("Outlook desktop", "outlook", "quotequail tests/files/outlook_forward.html (border-top header div); "
          "talon tests/fixtures/html_replies/ms_outlook_2010.html", headers=OUTLOOK, plain=p_outlook, html=h_outlook),
    Style("Outlook desktop", "outlook_html_only", "talon tests/fixtures/html_replies/ms_outlook_2007.html",
          layout="html", headers=OUTLOOK, html=h_outlook),
    Style("Outlook desktop (zh-CN)", "outlook_zh", "mail-parser-reply mailparser_reply/constants.py (zh header "
          "words); Outlook 2016 zh-CN", charset="gb2312", cte="base64", headers=OUTLOOK, plain=p_outlook_zh,
          html=h_outlook_zh),
    Style("Outlook desktop (zh-TW)", "outlook_zht", "Outlook 2016 zh-TW: 寄件者/寄件日期/收件者/主旨", layout="plain",
          charset="big5", cte="quoted-printable", headers=OUTLOOK, plain=p_outlook_zht),
    Style("Outlook desktop", "outlook_fwd", "quotequail tests/files/outlook_forward.html", headers=OUTLOOK,
          plain=p_outlook, html=h_outlook, forward=True, subject_prefix="FW: "),
    Style("Outlook.com", "outlook_com", "talon tests/fixtures/html_replies/hotmail.html; FreeScout tests "
          "(divRplyFwdMsg)", layout="html", headers=(_h("X-MS-Has-Attach", ""), _h("X-MS-TNEF-Correlator", "")),
          html=h_outlook_com),
    Style("Outlook.com", "outlook_com_fwd", "Outlook.com forward: divRplyFwdMsg with subject FW:", layout="html",
          html=h_outlook_com, forward=True, subject_prefix="Fw: "),
    Style("Windows Mail", "windows_mail", "crisp-oss test/fixtures/email_sent_from.txt", layout="plain",
          plain=p_windows_mail),
    Style("Gmail", "gmail", "talon tests/fixtures/html_replies/gmail.html; quotequail tests/files/gmail_reply.html;"
          " crisp-oss test/fixtures/email_gmail_split_line_from.txt", headers=(_h("X-Gm-Message-State", "AOJu0Y"),),
          plain=p_gmail, html=h_gmail),
    Style("Gmail", "gmail_signature", "Gmail with a signature (gmail_signature) above the quote",
          headers=(_h("X-Gm-Message-State", "AOJu0Y"),), plain=p_gmail, html=h_gmail_signature),
    Style("Gmail", "gmail_fwd", "quotequail tests/files/gmail_forward.html", plain=p_gmail_fwd, html=h_gmail_fwd,
          forward=True, subject_prefix="Fwd: "),
    Style("Gmail (zh-CN)", "gmail_zh", "Gmail in simplified Chinese: 于…写道：", layout="plain", plain=p_gmail_zh),
    Style("Gmail (zh-TW)", "gmail_zht", "Gmail in traditional Chinese: … 於 …寫道：", layout="plain",
          plain=p_gmail_zht),
    Style("Gmail (zh-CN)", "gmail_fwd_zh", "Gmail in simplified Chinese: ---------- 转发的邮件 ---------",
          layout="plain", plain=p_gmail_fwd_zh, forward=True, subject_prefix="Fwd: "),
    Style("Yahoo Mail", "yahoo", "quotequail tests/files/yahoo_reply_unescaped_address.html (yahoo_quoted)",
          headers=(_h("X-Mailer", "WebService/1.1.23040 YMailNorrin"),), plain=p_yahoo, html=h_yahoo),
    Style("Yahoo Mail", "yahoo_classic", "issue 18: Yahoo's ----- Original Message -----", layout="plain",
          headers=(_h("X-Mailer", "YahooMailClassic/15.1"),), plain=p_yahoo_classic),
    Style("AOL Mail", "aol", "talon tests/fixtures/standard_replies/aol.eml", layout="plain",
          headers=(_h("X-Mailer", "AOL Webmail 35786-STANDARD"),), plain=p_aol),
    Style("Apple Mail", "apple_flowed", "RFC 3676 §4 (format=flowed, DelSp); talon tests/fixtures/standard_replies/"
          "apple_mail.eml", layout="plain", flowed=True, cte="quoted-printable",
          headers=(_h("X-Mailer", "Apple Mail (2.3774.300.61.1.2)"),), plain=p_apple),
    Style("Apple Mail", "apple_html", "quotequail tests/files/apple_reply.html", cte="quoted-printable",
          flowed=True, headers=(_h("X-Mailer", "Apple Mail (2.3774.300.61.1.2)"),), plain=p_apple, html=h_apple),
    Style("Apple Mail", "apple_bottom", "bottom-posting (answer below the quote)", layout="plain", flowed=True,
          headers=(_h("X-Mailer", "Apple Mail (2.3774.300.61.1.2)"),), plain=p_bottom),
    Style("Apple Mail", "apple_fwd", "quotequail tests/files/apple_forward.html (Begin forwarded message:)",
          layout="plain", flowed=True, headers=(_h("X-Mailer", "Apple Mail (2.3774.300.61.1.2)"),),
          plain=p_apple_fwd, forward=True, subject_prefix="Fwd: "),
    Style("Apple Mail (zh-CN)", "apple_zh", "Apple Mail in simplified Chinese: …，… 写道：", layout="plain",
          flowed=True, cte="base64", headers=(_h("X-Mailer", "Apple Mail (2.3774.300.61.1.2)"),), plain=p_apple_zh),
    Style("iPhone Mail", "iphone", "talon tests/fixtures/standard_replies/iphone.eml; quotequail tests/files/"
          "ios_mail_reply_unescaped_address.html", cte="quoted-printable",
          headers=(_h("X-Mailer", "iPhone Mail (22B91)"),), plain=lambda n, o: p_iphone(n + "\n\nSent from my iPhone", o),
          html=h_iphone),
    Style("iPhone Mail (zh-CN)", "iphone_zh", "iOS Mail in Chinese: 发自我的iPhone", layout="html", cte="base64",
          headers=(_h("X-Mailer", "iPhone Mail (22B91)"),), html=h_iphone_zh),
    Style("Thunderbird", "thunderbird", "mail-parser-reply test/emails/email_1_1.txt; Thunderbird sends "
          "format=flowed", layout="plain", flowed=True, headers=(_h("User-Agent", "Mozilla Thunderbird"),),
          plain=p_thunderbird),
    Style("Thunderbird", "thunderbird_html", "talon tests/fixtures/html_replies/thunderbird.html (moz-cite-prefix)",
          layout="html", headers=(_h("User-Agent", "Mozilla Thunderbird"),), html=h_thunderbird),
    Style("Thunderbird", "thunderbird_bottom", "bottom-posting, Thunderbird's default for plain text",
          layout="plain", flowed=True, headers=(_h("User-Agent", "Mozilla Thunderbird"),), plain=p_bottom),
    Style("Thunderbird", "thunderbird_inline", "an inline answer between quoted lines (email-reply-parser "
          "test/emails/email_1_8.txt)", layout="plain", headers=(_h("User-Agent", "Mozilla Thunderbird"),),
          plain=p_inline),
    Style("Thunderbird", "thunderbird_fwd", "quotequail tests/files/thunderbird_forward.html", layout="html",
          headers=(_h("User-Agent", "Mozilla Thunderbird"),), html=h_thunderbird_fwd, forward=True,
          subject_prefix="Fwd: "),
    Style("NeoMutt", "mutt", "Mutt's and NeoMutt's sendlib: every text part has Content-Disposition: inline; "
          "attribution \"On %d, %n wrote:\"", layout="plain", headers=(_h("User-Agent", "NeoMutt/20240425"),),
          plain=p_mutt, disposition="inline"),
    Style("NeoMutt", "mutt_alternative", "NeoMutt with $send_multipart_alternative: text/plain and text/html, "
          "both inline", headers=(_h("User-Agent", "NeoMutt/20240425"),), plain=p_mutt,
          html=lambda n, o: f"<p>{br(esc(n))}</p><p>On Tue, Jan 07, 2025, {esc(o.sender)} wrote:</p>"
                            f"<blockquote>{br(esc(o.text))}</blockquote>", disposition="inline"),
    Style("K-9 Mail", "k9", "crisp-oss test/fixtures/email_multi_word_sent_from_my_mobile_device.txt",
          layout="plain", headers=(_h("User-Agent", "K-9 Mail for Android"),), plain=p_k9),
    Style("QQ Mail", "qq", "GitHub notification replies from QQ Mail (------------------ 原始邮件 -----------------"
          "-, 发件人/发送时间/收件人/主题)", charset="gb18030", cte="base64",
          headers=(_h("X-QQ-MIME", "TCMime 1.0 by Tencent"), _h("X-Mailer", "QQMail 2.x")), plain=p_qq, html=h_qq),
    Style("QQ Mail", "qq_fwd", "QQ Mail forward: the same separator, subject 转发：", charset="gb18030",
          cte="base64", headers=(_h("X-QQ-MIME", "TCMime 1.0 by Tencent"), _h("X-Mailer", "QQMail 2.x")),
          plain=p_qq, html=h_qq, forward=True, subject_prefix="转发："),
    Style("QQ Mail for iOS", "qq_ios", "issue 18: ------------------ Original ------------------", layout="plain",
          headers=(_h("X-Mailer", "QQMail iPhone"),), plain=p_qq_ios),
    Style("QQ Mail", "qq_new", "FreeScout tests (QQ Mail's newer quote: Original / Sent Time)",
          headers=(_h("X-QQ-MIME", "TCMime 1.0 by Tencent"),), plain=p_qq_new, html=h_qq_new),
    Style("Foxmail", "foxmail", "GitHub notification replies from Foxmail; Foxmail 7.2 HTML (short rule above the "
          "signature, border-top header div)", layout="html", charset="gb2312", cte="base64",
          headers=(_h("X-Mailer", "Foxmail 7.2.25.254[cn]"),), html=h_foxmail),
    Style("Foxmail", "foxmail_plain", "Foxmail 7.2 plain text", layout="plain", charset="gbk", cte="base64",
          headers=(_h("X-Mailer", "Foxmail 7.2.25.254[cn]"),), plain=p_foxmail),
    Style("163 Mail", "163", "FreeScout tests (NetEase webmail: isReplyContent); a GitHub-indexed NetEase sample",
          charset="gbk", cte="base64", headers=(_h("X-Mailer", "Coremail Webmail Server Version XT5.0.14"),
                                                 _h("X-NTES-SC", "AL_Qu2")), plain=p_163, html=h_163),
    Style("163 Mail", "163_fwd", "NetEase webmail forward: -------- 转发邮件信息 --------", layout="plain",
          charset="gbk", headers=(_h("X-Mailer", "Coremail Webmail Server Version XT5.0.14"),), plain=p_163_fwd,
          forward=True, subject_prefix="Fw:"),
    Style("NetEase Mail Master", "mailmaster", "FreeScout tests (ntes-mailmaster-quote, ---- 回复的原邮件 ----)",
          charset="utf-8", headers=(_h("X-Mailer", "MailMaster 5.1"),), plain=lambda n, o: p_mailmaster(
              n + "\n\n发自网易邮箱大师", o), html=h_mailmaster),
    Style("Outlook Express (zh-TW)", "oe_big5", "Outlook Express / Windows Live Mail in Taiwan: ----- 原始郵件 -----",
          layout="plain", charset="big5", cte="8bit",
          headers=(_h("X-Mailer", "Microsoft Windows Live Mail 16.4.3528.331"), _h("X-MimeOLE", "Produced By "
                                                                                    "Microsoft MimeOLE V16.4")),
          plain=p_oe_zht),
    Style("Yahoo奇摩 (Taiwan)", "yahoo_tw", "Yahoo Mail in Taiwan (yahoo_quoted, … 於 … 寫道：), Big5", layout="html",
          charset="big5", cte="base64", headers=(_h("X-Mailer", "WebService/1.1 YahooMailTW"),), html=h_yahoo_tw),
    Style("Proton Mail", "proton", "FreeScout tests (protonmail_quote)", layout="html", html=h_proton),
)}


def build(style: Style, frm: str, new: str, original: Original, subject: str | None = None,
          message_id: str = "<c1@clients.example>", in_reply_to: str | None = None) -> bytes:
    """The raw mail ``frm`` sends to the judge in ``style``: ``new`` written
    now, ``original`` quoted (or forwarded) the client's way."""
    m = EmailMessage()
    m["From"], m["To"] = frm, JUDGE
    m["Subject"] = subject if subject is not None else style.subject_prefix + original.subject.removeprefix("Re: ")
    m["Date"], m["Message-ID"] = "Tue, 07 Jan 2025 09:30:00 +0800", message_id
    if in_reply_to and not style.forward:
        m["In-Reply-To"] = m["References"] = in_reply_to
    for k, v in style.headers:
        m[k] = v
    params = {"format": "flowed", "delsp": "yes"} if style.flowed else {}
    if style.layout in ("plain", "alternative"):
        text = style.plain(new, original)
        if style.flowed:
            text = flow(text)
        m.set_content(text, charset=style.charset, cte=style.cte, params=params, disposition=style.disposition)
        if style.layout == "alternative":
            m.add_alternative(style.html(new, original), subtype="html", charset=style.charset,
                              cte=style.cte or "quoted-printable", disposition=style.disposition)
    else:
        m.set_content(style.html(new, original), subtype="html", charset=style.charset, cte=style.cte,
                      disposition=style.disposition)
    return m.as_bytes(policy=SMTP)


def flow(text: str, width: int = 40) -> str:
    """``text`` as ``format=flowed; delsp=yes`` (RFC 3676 §4.2): lines longer
    than ``width`` broken at spaces, each soft break a trailing space (the
    space of the break kept, DelSp deletes the one added); quoted lines keep
    their ``>`` on every piece; ``From`` and leading spaces stuffed."""
    out = []
    for line in text.split("\n"):
        prefix = ""
        while line.startswith(">"):
            prefix += ">"
            line = line[1:]
        if prefix and line.startswith(" "):
            line = line[1:]
        pieces = []
        while len(line) > width and " " in line[1:width]:
            cut = line.rfind(" ", 1, width)
            pieces.append(line[:cut + 1] + " ")      # the break's space kept, one added for DelSp
            line = line[cut + 1:]
        pieces.append(line.rstrip(" ") if line.strip() != "--" else line)
        for piece in pieces:
            if piece.startswith((" ", "From ", ">")) or (prefix and piece):
                piece = " " + piece
            out.append(prefix + piece)
    return "\n".join(out)


def attached(frm: str, new: str, inner: bytes, subject: str = "orders") -> bytes:
    """Thunderbird's "Forward As Attachment": the mail attached whole
    (message/rfc822), a line of text above it."""
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = frm, JUDGE, f"Fwd: {subject}"
    m["Date"], m["Message-ID"] = "Tue, 07 Jan 2025 09:30:00 +0800", "<att@clients.example>"
    m["User-Agent"] = "Mozilla Thunderbird"
    m.set_content(new)
    from email import message_from_bytes, policy
    m.add_attachment(message_from_bytes(inner, policy=policy.default), filename="orders.eml")
    return m.as_bytes(policy=SMTP)


# ---- the corpus ------------------------------------------------------------------------------
CONFIRM_EN = """> SIGNON g1 ********
Signed on to game "g1" as England.

Orders of England for game "g1", Spring 1901 Movement (S1901M), as they stand:
  F Lon - Nth
  F Edi - Nwg
  A Lvp - Yor
Every unit of England has an order.
Deadline: Fri 10 Jan 2025 20:00 UTC.

-- 
Diplomacy Judge <judge@example.test>
Send HELP for the list of commands."""

CONFIRM_ZH = """> 登录 g1 ********
已登录游戏“g1”，身份：英国。

英国在游戏“g1”1901年春季行动阶段（S1901M）的命令，现为：
  伦敦舰队移动到北海
  爱丁堡舰队移动到挪威海
  利物浦陆军移动到约克
英国的每支部队都有命令。

-- 
外交裁判 <judge@example.test>"""

CONFIRM_ZHT = """> 登入 g1 ********
已登入遊戲「g1」，身分：英國。

英國在遊戲「g1」1901年春季行動階段（S1901M）的命令，現為：
  倫敦艦隊移動到北海
  愛丁堡艦隊移動到挪威海
  利物浦陸軍移動到約克
英國的每支部隊都有命令。

-- 
外交裁判 <judge@example.test>"""


def judge_mail(text: str, subject: str = "Re: orders") -> Original:
    return Original("Diplomacy Judge", JUDGE, "alice@example.org", "Mon, Jan 6, 2025 at 10:00 AM",
                    "2025年1月6日 10:00", subject, text)


def earlier_mail(text: str) -> Original:
    """A mail of the player's own, first sent to a wrong address (forwarded)."""
    return Original("Alice", "alice@example.org", "wrong@example.org", "Mon, Jan 6, 2025 at 9:00 AM",
                    "2025年1月6日 09:00", "orders", text)


BODY = {"en": ["SIGNON g1 pw-england", "F Lon - Eng", "F Edi - Nth", "A Lvp - Wal"],
        "zh": ["登录 g1 pw-england", "伦敦舰队移动到英吉利海峡", "爱丁堡舰队移动到北海", "利物浦陆军移动到威尔士"],
        "zht": ["登入 g1 pw-england", "倫敦艦隊移動到英吉利海峽", "愛丁堡艦隊移動到北海", "利物浦陸軍移動到威爾斯"]}
COURTESY = {"en": (["Hi judge,"], ["Thanks!", "Alice"]), "zh": (["裁判好，"], ["谢谢！"]),
            "zht": (["大家好："], ["謝謝！"])}
CONFIRM = {"en": CONFIRM_EN, "zh": CONFIRM_ZH, "zht": CONFIRM_ZHT}


@dataclass(frozen=True)
class Case:
    """One corpus mail: its file stem, style, language, and what the judge
    must read (``text``: the non-blank lines) and note (``notes``: codes)."""
    stem: str
    style: str
    lang: str = "en"
    courtesy: bool = True
    long_line: bool = False
    nested: bool = False
    extra_notes: tuple = ()


def _cases() -> list[Case]:
    zh = {"outlook_zh": "zh", "outlook_zht": "zht", "gmail_zh": "zh", "gmail_zht": "zht", "gmail_fwd_zh": "zh",
          "apple_zh": "zh", "iphone_zh": "zh", "qq": "zh", "qq_fwd": "zh", "qq_ios": "zh", "qq_new": "zh",
          "foxmail": "zh", "foxmail_plain": "zh", "163": "zh", "163_fwd": "zh", "mailmaster": "zh",
          "oe_big5": "zht", "yahoo_tw": "zht"}
    cases = [Case(name, name, zh.get(name, "en"), courtesy=name not in ("outlook_plain", "qq_ios", "yahoo_classic"),
                  long_line=name in ("apple_flowed", "thunderbird", "apple_bottom"))
             for name in STYLES]
    cases += [Case("gmail_reply_to_reply", "gmail", nested=True), Case("outlook_reply_to_reply", "outlook", nested=True),
              Case("qq_reply_to_reply", "qq", "zh", nested=True),
              Case("outlook_en_to_zh", "outlook", "zh"), Case("gmail_html_only", "gmail_signature", courtesy=False)]
    return cases


def _new(case: Case) -> tuple[str, list[str]]:
    body = list(BODY[case.lang])
    if case.long_line:
        body[3] = "A Liverpool supports F Edinburgh - North Sea" if case.lang == "en" else body[3]
    greet, close = COURTESY[case.lang] if case.courtesy else ([], [])
    style = STYLES[case.style]
    if style.forward:
        return "Sent these to the wrong address first:" if case.lang == "en" else "之前发错地址了：", body
    return "\n".join(greet + ([""] if greet else []) + body + ([""] if close else []) + close), body


def make(case: Case) -> tuple[bytes, dict]:
    """The raw mail of ``case`` and its entry in corpus.json."""
    style = STYLES[case.style]
    if case.style == "gmail_signature" and case.stem == "gmail_html_only":
        style = Style(style.client, "gmail_html_only", style.source + "; HTML only", layout="html",
                      headers=style.headers, html=style.html)
    new, body = _new(case)
    notes = []
    if style.forward:
        original = earlier_mail("\n".join(body))
        text = [new] + body
        notes.append("forward_read")
    else:
        confirm = CONFIRM[case.lang]
        if case.nested:
            confirm += "\n\nOn Sun, Jan 5, 2025 at 9:00 PM Alice <alice@example.org> wrote:\n> SIGNON g1 x\n> F Lon - Nth"
        original = judge_mail(confirm)
        text = body
        notes.append("quoted_not_read")
    if style.layout == "html":
        notes.insert(0, "html_only")
    passed = bool(case.courtesy and not style.forward) or style.name in (
        "windows_mail", "k9", "iphone", "iphone_zh", "mailmaster", "gmail_signature", "gmail_html_only",
        "thunderbird_html", "foxmail", "proton")
    if style.name == "gmail_signature" and style.layout != "html":
        passed = bool(case.courtesy)
    if passed:
        notes.append("passed_over")
    raw = build(style, "Alice <alice@example.org>", new, original, in_reply_to="<judge-1@example.test>")
    entry = {"file": f"{case.stem}.eml", "client": style.client, "style": style.name, "layout": style.layout,
             "charset": style.charset, "flowed": style.flowed, "kind": "forward" if style.forward else "reply",
             "lang": case.lang, "source": style.source, "text": text, "notes": notes}
    return raw, entry


def corpus() -> list[tuple[bytes, dict]]:
    out = [make(c) for c in _cases()]
    inner = build(STYLES["gmail"], "Alice <alice@example.org>", "\n".join(BODY["en"]), judge_mail(CONFIRM_EN))
    out.append((attached("Alice <alice@example.org>", "Here are my orders, attached.", inner),
                {"file": "thunderbird_attached.eml", "client": "Thunderbird", "style": "attached", "layout": "plain",
                 "charset": "utf-8", "flowed": False, "kind": "attached", "lang": "en",
                 "source": "Thunderbird Forward As Attachment (message/rfc822)",
                 "text": ["Here are my orders, attached."], "notes": ["attached_mail"]}))
    return out


def write_corpus() -> None:
    CORPUS.mkdir(parents=True, exist_ok=True)
    for old in CORPUS.glob("*.eml"):
        old.unlink()
    index = []
    for raw, entry in corpus():
        (CORPUS / entry["file"]).write_bytes(raw)
        index.append(entry)
    (CORPUS / "corpus.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_corpus()
