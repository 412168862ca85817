"""The command line's own error: a mistake in what the user typed."""


class UserError(Exception):
    """Reported as one line on stderr, exit status 2."""
