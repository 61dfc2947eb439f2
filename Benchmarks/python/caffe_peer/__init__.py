"""Python peers of the Caffe worker: the same job (order events in, localized confirmations and
receipts out over ZeroMQ) done the way a strong Python team would, as the benchmark's baseline.

Modules:

- :mod:`caffe_peer.money` — decimal strings and exact minor-unit arithmetic
- :mod:`caffe_peer.menu` — ``config/menu.json`` and pricing an order (with the Swift checks)
- :mod:`caffe_peer.catalog` — the string catalogs, localization fallback, plural variants
- :mod:`caffe_peer.markup` — the inline Markdown subset, compiled templates, styled text
- :mod:`caffe_peer.grammar` — agreement for the menu's terms (English, Spanish)
- :mod:`caffe_peer.backends` — the formatting backends: PyICU and Babel
- :mod:`caffe_peer.render` — confirmations and receipts
- :mod:`caffe_peer.worker` — the ZeroMQ worker loop and its processes, dead letters

Frames, messages and topics come from the repository's Python client (``clients/python``,
``caffe_client``), which ``setup.sh`` installs beside the pinned requirements.
"""
