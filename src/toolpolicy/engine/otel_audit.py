"""``OtelAuditSink``: each final decision as an OpenTelemetry log record.

For fleets: the decisions of every agent machine travel to the OpenTelemetry collector, and
from there to the log pipeline or SIEM the company already runs. The record's fields become
the log record's attributes under the same names (``tool``, ``behavior``, ``source``,
``reason``, ``matched_rules`` ...; ``arguments`` as a JSON string; empty values left out),
the body is the ``[Permission]`` line, deny is ``WARN`` and everything else ``INFO``.

Needs the ``otel`` extra (``pip install 'toolpolicy[otel]'``); nothing else in toolpolicy
imports OpenTelemetry. Delivery to a collector is asynchronous and best effort, so keep a
JSONL audit file beside it as the evidence (``--audit FILE --audit otlp``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigurationError
from ..core.protocols import AuditRecord

if TYPE_CHECKING:
    from opentelemetry.sdk._logs import LoggerProvider

__all__ = ["OtelAuditSink"]

EVENT_NAME = "toolpolicy.decision"
_MISSING = "OpenTelemetry export needs the otel extra: pip install 'toolpolicy[otel]'"


def _attributes(record: AuditRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.to_json().items():
        if value is None:
            continue
        if isinstance(value, list | tuple):
            out[key] = [str(item) for item in value]
        elif isinstance(value, str | bool | int | float):
            out[key] = value
        else:
            out[key] = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return out


class OtelAuditSink:
    """An audit sink that emits log records through an OpenTelemetry ``LoggerProvider``.

    With no provider, it builds one that exports over OTLP/HTTP to the collector named by
    the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_LOGS_ENDPOINT``
    variables, and ``close()`` flushes and shuts it down.
    """

    __slots__ = ("_logger", "_owned", "_provider", "_severity", "_severity_default")

    def __init__(self, logger_provider: LoggerProvider | None = None) -> None:
        try:
            from opentelemetry._logs import SeverityNumber
        except ImportError:
            raise ConfigurationError(_MISSING) from None
        from .._version import __version__

        self._owned = logger_provider is None
        provider = logger_provider if logger_provider is not None else _otlp_provider()
        self._logger = provider.get_logger("toolpolicy", __version__)
        self._severity = {"deny": SeverityNumber.WARN}
        self._severity_default = SeverityNumber.INFO
        self._provider = provider

    def record(self, record: AuditRecord) -> None:
        """Emit one log record for ``record``."""
        from opentelemetry._logs import LogRecord

        severity = self._severity.get(record.behavior, self._severity_default)
        self._logger.emit(
            LogRecord(
                severity_number=severity,
                severity_text=severity.name,
                body=(
                    f"[Permission] {record.tool}: {record.behavior} ({record.source}) - "
                    f"{record.reason}"
                ),
                attributes=_attributes(record),
                event_name=EVENT_NAME,
            )
        )

    def close(self) -> None:
        """Flush pending records, and shut down a provider this sink built itself."""
        self._provider.force_flush()
        if self._owned:
            self._provider.shutdown()

    def __enter__(self) -> OtelAuditSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _otlp_provider() -> LoggerProvider:
    try:
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
        from opentelemetry.sdk.resources import Resource
    except ImportError:
        raise ConfigurationError(_MISSING) from None
    provider = LoggerProvider(resource=Resource.create({"service.name": "toolpolicy"}))
    provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
    return provider
