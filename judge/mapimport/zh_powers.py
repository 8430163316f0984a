"""Chinese names of the variants' powers that the standard map lacks (a
power the standard map has takes its names from there; a Classic-map
variant's power named for a province, Chaos's, takes that province's).
``{power's English name: (simplified, traditional)}``; the importer
(:func:`judge.mapimport.build._names`) writes them into ``names.json``."""

ZH_POWERS: dict[str, tuple[str, str]] = {
    # Ancient Mediterranean
    "Carthage": ("迦太基", "迦太基"),
    "Egypt": ("埃及", "埃及"),
    "Greece": ("希腊", "希臘"),
    "Persia": ("波斯", "波斯"),
    "Rome": ("罗马", "羅馬"),
    # Modern
    "Britain": ("英国", "英國"),
    "Poland": ("波兰", "波蘭"),
    "Spain": ("西班牙", "西班牙"),
    "Ukraine": ("乌克兰", "烏克蘭"),
    # Youngstown
    "China": ("中国", "中國"),
    "India": ("印度", "印度"),
    "Japan": ("日本", "日本"),
    # Hundred
    "Burgundy": ("勃艮第", "勃艮第"),
}
