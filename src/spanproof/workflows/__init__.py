"""Durable orchestration of the services (SPEC §3, §5, §5.7, §8) on DBOS Transact.

Owns: the workflows (ingestion per source, record verification per record and attempt, the
impact walk), their queues and limits, the engine's launch, and the status view.
May import: services, core and the pure packages. The engine SDK (``dbos``) is imported only
here (an import-linter contract). Must not build adapters or read Settings: entry points pass
an :class:`~spanproof.workflows.runtime.Runtime` and an
:class:`~spanproof.workflows.engine.EngineConfig` built by ``bootstrap``.
"""

from spanproof.workflows.engine import EngineConfig, QueueLimits, running, system_database_url
from spanproof.workflows.runtime import Runtime

__all__ = ["EngineConfig", "QueueLimits", "Runtime", "running", "system_database_url"]
