"""Offline play: the installable app (web app manifest, service worker), Pyodide served from the npm package the
install fetched, the bundle of taash's pure modules it runs (:mod:`~taash.web.offline.bundle`), the engine that
answers a table's messages in the browser (:mod:`~taash.web.offline.engine`), and the upload of finished offline
matches (:mod:`~taash.web.offline.routes`). See docs/offline.md."""
