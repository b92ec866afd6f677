"""The web server: tables, guests, websockets, the browser client (``taash serve``)."""
