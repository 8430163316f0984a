"""Chinese order words as players write them: the data the lexicon is built from.

Each row of :data:`ROWS` is ``(words, kind, value, region, source)``:

- ``words``: space-separated; ``简/繁`` gives the simplified and the traditional
  form of one word (the pair also teaches the lexicon to fold those traditional
  characters), a word written once is the same in both scripts;
- ``kind``/``value``: the token it makes (kinds of :mod:`judge.notation.lexicon`;
  ``unit`` with ``"A"``, ``"F"`` or ``None`` for a word that names a unit
  without its type, ``number`` with the number);
- ``region``: ``all``, ``mainland``, ``taiwan`` or ``hongkong`` (Hong Kong and
  Cantonese speakers): where the word is used;
- ``source``: keys of :data:`SOURCES`, space-separated, a section after ``§``.

Words are matched longest-first, so a longer word wins over the shorter words
inside it (``放弃建造`` over ``放弃``, ``坐船`` over ``船``). A word may not also
be a province name (the lexicon refuses such a map).
"""

from __future__ import annotations

SOURCES = {
    "rules-hans": "house-rules text (zh-hans), shared/rules/rules-zh-hans-with-appendices.txt",
    "rules-hant": "classic text (zh-hant), shared/rules/rules-zh-hant.txt",
    "ptt-ntu": "http://www.ptt.cc/bbs/NTU-Fantasy/M.1192197475.A.A35.html "
               "(PTT NTU-Fantasy, Taiwan: Diplomacy簡易規則, orders by mail to the GM)",
    "ptt-fju": "https://webptt.com/m.aspx?n=bbs%2FFJU_ACG%2FM.1231604586.A.7A3.html "
               "(PTT FJU_ACG, Taiwan: repost of the Maxwell BBS Diplomacy board)",
    "tw-trpg": "https://bbs.trpgrc.com/showthread.php?tid=1716 (Taiwan TRPG forum: 強權外交遊戲簡介)",
    "tw-pixnet": "https://mj9981168.pixnet.net/blog/post/183704445 (Taiwan board-game blog: name table)",
    "hk-fcc": "http://geocities.cmolabs.net/hk.geocities.com/ffyun2000/fcc_dip.html "
              "(Hong Kong: 方潤, 歐洲外交縱橫棋例匯譯)",
    "hk-blog": "http://abyss101.blogspot.com/2010/08/diplomacy.html (Hong Kong, Cantonese: Diplomacy強勢外交簡介)",
    "zhwiki": "http://zh.wikipedia.org/wiki/外交_(遊戲) (強權外交 / 外交风云)",
    "judge": "words this judge read before issue 14 (issue 7), kept",
    "usage-ml": "mainland forum and chat usage (the editor's knowledge; no stored page shows it)",
    "usage-tw": "Taiwan forum usage (the editor's knowledge; no stored page shows it)",
    "usage-hk": "Hong Kong / Cantonese usage (the editor's knowledge; no stored page shows it)",
}

REGIONS = ("all", "mainland", "taiwan", "hongkong")

ROWS: tuple[tuple[str, str, object, str, str], ...] = (
    # ---- units -------------------------------------------------------------------
    ("陆军/陸軍", "unit", "A", "all", "rules-hans §附一 rules-hant"),
    ("军/軍", "unit", "A", "taiwan", "rules-hant §海上運輸"),          # 倫敦軍經英吉利海峽到布列斯特
    ("步兵", "unit", "A", "mainland", "judge"),
    ("大炮/大砲", "unit", "A", "taiwan", "tw-trpg"),                   # 大砲為陸軍、帆船為海軍
    ("舰队/艦隊", "unit", "F", "all", "rules-hans §附一 rules-hant"),
    ("海军/海軍", "unit", "F", "all", "rules-hant §移動的規則 ptt-ntu hk-blog zhwiki"),
    ("舰/艦", "unit", "F", "all", "judge"),
    ("帆船", "unit", "F", "taiwan", "tw-trpg"),
    ("船 战舰/戰艦 军舰/軍艦 舰船/艦船", "unit", "F", "mainland", "usage-ml"),
    ("部队/部隊", "unit", None, "all", "rules-hans §5 hk-fcc"),
    ("单位/單位", "unit", None, "taiwan", "rules-hant §部隊與移動"),
    # words for soldiers (value "a"): an army's; used for a fleet, read as the fleet's order with a note
    ("兵 军队/軍隊 军团/軍團", "unit", "a", "hongkong", "hk-blog"),
    ("队伍/隊伍 人马/人馬", "unit", "a", "mainland", "usage-ml"),
    # ---- move --------------------------------------------------------------------
    ("移动到/移動到 移动/移動 进攻/進攻", "move", None, "all", "rules-hans §附一"),
    ("移入 入 到 进入/進入 攻击/攻擊", "move", None, "taiwan", "rules-hant §移動的書寫法 ptt-fju"),
    ("移动至/移動至 移到 移至 移往 移进/移進 攻打 攻入 进入到/進入到 进军/進軍 进驻/進駐 前往 开往/開往 "
     "开到/開到 转移到/轉移到 至 往 攻 进/進", "move", None, "all", "judge"),
    ("去 打 走 移 向 朝 冲/衝 前进/前進 推进/推進 推进到/推進到 挺进/挺進 进发/進發 开进/開進 调往/調往 "
     "调到/調到 调至/調至 派往 出击/出擊 杀入/殺入 杀向/殺向 打到 打进/打進 侵入 入侵 占领/佔領 攻占/攻佔 "
     "夺取/奪取 拿下", "move", None, "mainland", "usage-ml"),
    ("行军/行軍", "move", None, "taiwan", "ptt-ntu"),                  # 春季行軍: the move phase
    ("移防 开赴/開赴", "move", None, "taiwan", "usage-tw"),
    ("行", "move", None, "hongkong", "hk-blog"),                     # 陸軍只可以響地面行
    ("行去 入去 冲去/衝去", "move", None, "hongkong", "usage-hk"),
    # ---- hold --------------------------------------------------------------------
    ("防守", "hold", None, "all", "rules-hans §附一"),
    ("防御/防禦", "hold", None, "mainland", "rules-hans §9"),
    ("固守", "hold", None, "taiwan", "rules-hant §移動與支援"),
    ("停驻/停駐 留守", "hold", None, "taiwan", "ptt-ntu"),
    ("留守", "hold", None, "hongkong", "hk-fcc"),
    ("驻守/駐守 守卫/守衛 坚守/堅守 原地防守 原地不动/原地不動 不动/不動 待命 停留 驻扎/駐紮 守", "hold", None,
     "all", "judge"),
    ("原地 原地待命 原地驻守/原地駐守 按兵不动/按兵不動 驻防/駐防 驻留/駐留 守住 守着/守著 待机/待機 保持不动/保持不動 "
     "不移动/不移動 别动/別動 留在 守家", "hold", None, "mainland", "usage-ml"),
    ("唔郁 唔动/唔動 企定 企住", "hold", None, "hongkong", "usage-hk"),
    # ---- support -----------------------------------------------------------------
    ("支援", "support", None, "all", "rules-hans §附一 rules-hant hk-fcc"),
    ("支持 协助/協助 援助", "support", None, "all", "judge"),
    ("帮/幫 帮助/幫助 帮忙/幫忙 配合 掩护/掩護 助攻 协防/協防 支撑/支撐", "support", None, "mainland", "usage-ml"),
    ("撑/撐 撑住/撐住 帮手/幫手", "support", None, "hongkong", "usage-hk"),
    # ---- convoy ------------------------------------------------------------------
    ("运输/運輸", "convoy", None, "all", "rules-hans §附一 rules-hant"),
    ("送 运送/運送", "convoy", None, "taiwan", "rules-hant §海上運輸"),
    ("护航/護航", "convoy", None, "hongkong", "hk-fcc"),
    ("护送/護送 输送/輸送 载运/載運 运/運", "convoy", None, "all", "judge"),
    ("载/載 运兵/運兵 渡 摆渡/擺渡 接送 搭载/搭載", "convoy", None, "mainland", "usage-ml"),
    # ---- the route of a convoyed army: via a sea, or by convoy -----------------------
    ("经/經", "via", None, "all", "rules-hans §12 rules-hant §海上運輸"),
    ("经过/經過 经由/經由 途经/途經 通过/通過", "via", None, "all", "judge"),
    ("取道 借道", "via", None, "mainland", "usage-ml"),
    ("海上运输/海上運輸", "via_convoy", None, "all", "rules-hans §12 rules-hant §海上運輸"),
    ("海运/海運 经海运/經海運 经运输/經運輸 经由运输/經由運輸 由运输/由運輸 通过运输/通過運輸 被运输/被運輸 "
     "海路 经海路/經海路 经护航/經護航 经由护航/經由護航 由护航/由護航 通过护航/通過護航 被护航/被護航",
     "via_convoy", None, "all", "judge"),
    ("坐船 乘船 渡海 走海路", "via_convoy", None, "mainland", "usage-ml"),
    ("搭船", "via_convoy", None, "taiwan", "usage-tw"),
    # ---- retreat -----------------------------------------------------------------
    ("撤退到 撤退", "retreat", None, "all", "rules-hans §附一"),
    ("撤入", "retreat", None, "mainland", "rules-hans §10"),
    ("撤退至 撤到 撤至 撤往 退到 退至 退往 退入 撤", "retreat", None, "all", "judge"),
    ("退 后撤/後撤 后退/後退 退守 撤回 撤离/撤離 逃到 逃往 逃去 退去 撤去", "retreat", None, "mainland", "usage-ml"),
    ("退返 缩返/縮返", "retreat", None, "hongkong", "usage-hk"),
    # ---- disband -----------------------------------------------------------------
    ("解散", "disband", None, "all", "rules-hans §附一 rules-hant"),
    ("溃散/潰散", "disband", None, "hongkong", "hk-blog"),             # 撤退及潰散
    ("遣散 移除 撤除 拆除 裁撤 删除/刪除 解编/解編", "disband", None, "all", "judge"),
    ("拆 拆掉 删掉/刪掉 裁掉 裁减/裁減 去掉 除去 拿掉 砍掉 撤编/撤編 解体/解體 消散", "disband", None,
     "mainland", "usage-ml"),
    ("销毁/銷毀 毁掉/毀掉 撤销/撤銷 复员/復員 退役 裁军/裁軍 丢弃/丟棄 舍弃/捨棄 解除 解甲", "disband", None,
     "mainland", "usage-ml"),                                          # issue 18: more everyday verbs
    # ---- build -------------------------------------------------------------------
    ("建造", "build", None, "all", "rules-hans §附一"),
    ("生产/生產", "build", None, "all", "rules-hans §11 rules-hant"),
    ("增加 新增 摆/擺", "build", None, "taiwan", "rules-hant §單位數目調整的規定"),
    ("建立 新建 组建/組建 增建 招募 建 造", "build", None, "all", "judge"),
    ("补/補 补充/補充 添 征召/徵召 征兵/徵兵 招兵 募兵 造兵", "build", None, "mainland", "usage-ml"),
    # ---- waive -------------------------------------------------------------------
    ("不要增加", "waive", None, "all", "rules-hans §11 rules-hant §單位數目調整的規定"),
    ("放弃建造/放棄建造 放弃生产/放棄生產 放弃/放棄 弃权/棄權 不建造 不生产/不生產 不建", "waive", None, "all", "judge"),
    ("不造 不补/不補 不增加 不新增 暂不建造/暫不建造 跳过/跳過", "waive", None, "mainland", "usage-ml"),
    # ---- priority lists ------------------------------------------------------------
    ("优先/優先", "priority", None, "all", "rules-hans §附一"),
    ("顺序/順序 优先顺序/優先順序", "priority", None, "all", "judge"),
    # ---- list separators -----------------------------------------------------------
    ("和", "sep", None, "all", "rules-hans §附一"),
    ("与/與 及 以及 跟 同 并/並 或 或者 然后/然後 其次", "sep", None, "all", "judge"),
    # ---- numbers (waive 2) ---------------------------------------------------------
    ("一", "number", 1, "all", "usage-ml"),
    ("二 两/兩", "number", 2, "all", "usage-ml"),
    ("三", "number", 3, "all", "usage-ml"),
    ("四", "number", 4, "all", "usage-ml"),
    ("五", "number", 5, "all", "usage-ml"),
    # ---- words that carry nothing for the order --------------------------------------
    ("的 在 位于/位於 于/於 之 提供 将/將 把 请/請 上", "filler", None, "all", "judge"),
    ("从/從 由 驻/駐 处于/處於 新 本回合 这回合/這回合 此回合 这次/這次 本次 该/該 "
     "这/這 那 我的 我方 一支 一个/一個 一队/一隊 一艘 一只/一隻 个/個 支 次 任何 了 吧 啊 啦 呀 哦 喔 "
     "名额/名額 机会/機會", "filler", None, "mainland", "usage-ml"),
    ("省 省份", "filler", None, "all", "rules-hant §遊戲地圖"),         # 每一國之內又分為若干省份
    ("地区/地區 区域/區域 区块/區塊 海域", "filler", None, "all", "rules-hans §2 rules-hant §遊戲地圖"),
    ("一带/一帶 港 城 市", "filler", None, "all", "usage-ml"),
    ("喺 嘅 咗 啲 囉", "filler", None, "hongkong", "usage-hk"),
    # an army escorted by a fleet (伦敦陆军由北海舰队护送到挪威, 乘北海舰队, 在北海舰队护航下): issue 18
    ("被 乘 搭乘 随/隨 跟随/跟隨 下 就地 自行", "filler", None, "mainland", "usage-ml"),
)


# Traditional -> simplified for characters no pair above or in a names file
# teaches (kept from issue 7; single characters, so folding keeps positions).
T2S = dict(zip(
    "陸軍艦隊動進擊衛禦運輸產經優與棄權護駐堅離過個從將於請順續選擇並來團戰區窩澤開茲圖義獅師條門邊島歐傳內為組協轉駐載軍餘刪幹後裡裏處撥準備編乾連",
    "陆军舰队动进击卫御运输产经优与弃权护驻坚离过个从将于请顺续选择并来团战区窝泽开兹图义狮师条门边岛欧传内为组协转驻载军余删干后里里处拨准备编干连"))


def pairs(words: str) -> list[tuple[str, str]]:
    """``"陆军/陸軍 军"`` -> ``[("陆军", "陸軍"), ("军", "军")]``."""
    out = []
    for w in words.split():
        hans, _, hant = w.partition("/")
        out.append((hans, hant or hans))
    return out
