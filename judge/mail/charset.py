"""Which charset an undeclared Chinese mail is in: UTF-8, GB18030 or Big5.

Old mail clients in mainland China, Taiwan and Hong Kong send 8-bit text with
no ``charset`` label. Decoding without an error proves little: Big5 bytes
nearly always decode as GB18030 as well (into private-use characters and rare
ideographs), and GBK text often decodes as Big5-HKSCS. :func:`guesses` decodes
with each candidate and ranks the results by how Chinese they read: words the
judge knows (province, power and coast names and order words of the standard
map, :mod:`judge.notation`, traditional folded to simplified) count most, then
the commonest characters of everyday Chinese; private-use characters, rare
ideographs and control characters count against. Pure ASCII is UTF-8.

Used by :func:`judge.mail.message.decode_bytes` for a body whose charset is
missing, unknown, or wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

CANDIDATES = ("utf-8", "gb18030", "big5hkscs")
"""The charsets tried, in the order that breaks a tie."""

# the commonest characters of written Chinese (simplified), then the
# traditional forms of those that differ
_COMMON = frozenset(
    "的一是不了人我在有他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方"
    "多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情"
    "明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给"
    "世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太"
    "量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象"
    "完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济"
    "车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚"
    "请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历"
    "首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音"
    "跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值"
    "仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤"
    "素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担"
    "州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控"
    "税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮"
    "露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康"
    "虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣"
    "择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶"
    # traditional
    "並亂亞佔來個們倫備傳傷僅價優兒內兩別則剛創劃劇劉劍動務勝勞勢區協卻參員問喫單嗎嚴國圍園圖團執堅報場塊壓壞夠夢奧婦媽孫學宮"
    "實審寫寶將專尋對導層屬島師帶幫幹幾廠廣張強彈後從復徵惡愛態慮應懷戰戶採換揮損搖擇擊擔據敗敵數斷於時書會東條業極榮構槍樂樓"
    "標樣樹機檢權歐歡歲歷歸殺氣決沒況減測準溫滅滿漢漸澤濟灣無煙熱營爭爲爾狀獨獲現環產畫異當療發盡監確祕禮稅種稱積筆節範簡紀約"
    "紅納級細終組結絕給統經維網緊線編縣總織繼續羅羣義習聖聞聯聲職聽脫腦腳臉臨臺與興舉舊艦華萬葉藝藥蘇蘭處號衆術衛衝裏補裝見規"
    "視親覺觀計討記設許訴評詞試詩話該認語誤說誰調談請論諾謀謂講謝證識議護讀變讓負財貨責貴買費資賣質趕車軍較載輕輸轉辦農這連進"
    "遊運過達遠適選遺還邊鄉醫釋銀銷錄錢錯鍾鐵長門開間關陣陰陳陸陽隊階際隨險雖雙雜離難雲電靈靜響頂項順須預頓領頭題額願類顧顯風"
    "飛飯養餘馬驗驚體鬥魚魯鮮麗麼黃點黨龍"
)
_WORD = 3        # points per character of a known word of two or more characters
_CHAR = 1        # per common character
_ODD = -2        # per private-use, control or replacement character, or rare ideograph


@lru_cache(maxsize=1)
def _lexicon():
    """The standard map's lexicon: known words (folded to simplified) and the fold."""
    from ..maps import load_map, load_names
    from ..notation.lexicon import lexicon
    from ..notation.names import name_index
    return lexicon(name_index(load_map("standard"), load_names("standard")))


def score(text: str) -> int:
    """How much ``text`` reads as Chinese (higher is better; 0 for no Chinese)."""
    lex = _lexicon()
    s = lex.fold(text)
    longest = min(lex.cjk_max, 8)
    total, i, n = 0, 0, len(s)
    while i < n:
        ch = s[i]
        o = ord(ch)
        if 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or o >= 0x20000:
            for L in range(min(longest, n - i), 1, -1):
                if s[i:i + L] in lex.cjk:
                    total += _WORD * L
                    i += L
                    break
            else:
                total += _CHAR if ch in _COMMON or text[i] in _COMMON else _ODD
                i += 1
            continue
        if 0xE000 <= o <= 0xF8FF or o == 0xFFFD or (o < 0x20 and ch not in "\t\n\r") or 0x80 <= o < 0xA0:
            total += _ODD
        i += 1
    return total


def guesses(data: bytes, tried: Iterable[str] = ()) -> Iterator[str]:
    """The charsets of :data:`CANDIDATES` not in ``tried``, best first: those
    that decode ``data`` without error, by :func:`score` (ties in the order of
    CANDIDATES), then the rest. Lazy: nothing is decoded until the first is
    asked for."""
    left = [c for c in CANDIDATES if c not in set(tried)]
    if data.isascii():
        yield from left
        return
    ranked = []
    for k, c in enumerate(left):
        try:
            ranked.append((-score(data.decode(c)), k, c))
        except UnicodeDecodeError:
            ranked.append((1 << 60, k, c))
    for _, _, c in sorted(ranked):
        yield c
