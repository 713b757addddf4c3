"""The web UI: server-rendered HTML pages served from the API's process (no build step).

Owns: the trace viewer, the source and search pages, the list of recent traces, their templates,
CSS and the few lines of script that toggle claim panels.
May import: core, services, the API's shared state. Must not: write to the store.
"""
