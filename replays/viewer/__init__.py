"""The time-travel viewer: the static page (``index.html``, ``viewer.js``, ``viewer.css``) and the windows
of a stored game it reads (``browse``); the HTTP service serves both (``replays.service.viewer_routes``)."""
