"""Order notation: text <-> orders, in English and Chinese."""
