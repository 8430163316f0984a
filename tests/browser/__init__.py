"""Helpers of the archive and web tests: a small self-made game
(:mod:`.sample`), a droidippy record played as a game, and headless Chromium
driven by Selenium (:mod:`.chromium`)."""
