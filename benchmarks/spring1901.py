"""Spring 1901 orders for all seven powers, shared by the mail benchmarks."""

ORDERS = {
    "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "France": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao", "Germany": "A Ber - Kie\nA Mun - Ruh\nF Kie - Den",
    "Italy": "A Ven H\nA Rom - Apu\nF Nap - Ion",
    "Russia": "A War - Gal\nA Mos - Ukr\nF Sev - Bla\nF Stp/sc - Bot",
    "Turkey": "F Ank - Bla\nA Con - Bul\nA Smy - Con",
}
