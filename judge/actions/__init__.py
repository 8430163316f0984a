"""What the one writer does for the ``judge …`` commands that change the
store: the actions (:mod:`.registry`) and their runner (:mod:`.runner`).
The command-line front (:mod:`judge.commands`) only hands work items over."""
