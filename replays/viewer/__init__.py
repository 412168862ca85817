"""The time-travel viewer: the static page (``index.html``, ``viewer.js``, ``viewer.css``), its routes
(``routes``) and the windows of a stored game they read (``browse``)."""
