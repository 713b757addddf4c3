"""The web UI: server-rendered HTML pages served from the API's process (no build step, nothing
loaded from the internet).

Owns: the trace viewer, the traces, sources and records lists and pages, search, review,
artifacts, impact and workflows pages, the offline API docs (/docs), their templates, CSS and the
few lines of script that toggle claim panels.
May import: core, services, the API's shared state. Must not: write to the store (but for the
review form, through services.review).
"""
