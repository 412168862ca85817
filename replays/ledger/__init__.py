"""The ledger: the application service that loads a game, takes one decision and saves it, in one transaction
(``application``), with logs in and out of it and branches (``imports``), the access tokens and answered
requests it keeps (``access``), the games a process is playing (``live``), what it raises (``errors``) and
its structured log lines (``logs``)."""
