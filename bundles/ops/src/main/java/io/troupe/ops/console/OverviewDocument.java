package io.troupe.ops.console;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * {@code GET /console/api/overview}: the node at a glance, from one {@link RuntimeSnapshot}.
 *
 * <pre>
 * {"node": {"host", "pid", "server", "cluster", "version", "startedAt"}, "uptimeSeconds", "takenAt",
 *  "actors", "mailboxBacklog", "deadLetters", "stalls",
 *  "workers": {"current", "min", "max", "busy", "stalled", "queued", "busyRatio",
 *              "threads": [{"name", "busyRatio", "busyMillis", "stalled"}]},
 *  "ioLoops": {"busyRatio", "threads": [...]},
 *  "logger":  {"queueBytes", "recordsDropped"},
 *  "plugins": {"swaps", "rollbacks"},
 *  "handlers": [{"name", "actors", "mailboxDepth", "processed", "failures"}]}
 * </pre>
 *
 * Ratios are between 0 and 1 over the runtime's last sampling window (about a second); counts are since the
 * runtime started.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class OverviewDocument implements JsonDocument {

    private final NodeIdentity node;
    private final RuntimeSnapshot snapshot;

    OverviewDocument(NodeIdentity node, RuntimeSnapshot snapshot) {
        this.node = Objects.requireNonNull(node, "node");
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        writeNode(json);
        json.writeNumberField("uptimeSeconds",
                Math.max(0, Duration.between(node.startedAt(), snapshot.takenAt()).toSeconds()));
        json.writeStringField("takenAt", snapshot.takenAt().toString());
        json.writeNumberField("actors", snapshot.actors());
        json.writeNumberField("mailboxBacklog", snapshot.mailboxBacklog());
        json.writeNumberField("deadLetters", snapshot.deadLetters());
        json.writeNumberField("stalls", snapshot.stalls());
        writeWorkers(json, snapshot.workers());
        json.writeObjectFieldStart("ioLoops");
        JsonDocument.number(json, "busyRatio", snapshot.loopsBusyRatio());
        writeThreads(json, snapshot.loops());
        json.writeEndObject();
        json.writeObjectFieldStart("logger");
        json.writeNumberField("queueBytes", snapshot.logQueueBytes());
        json.writeNumberField("recordsDropped", snapshot.logRecordsDropped());
        json.writeEndObject();
        json.writeObjectFieldStart("plugins");
        json.writeNumberField("swaps", snapshot.pluginSwaps());
        json.writeNumberField("rollbacks", snapshot.pluginRollbacks());
        json.writeEndObject();
        json.writeArrayFieldStart("handlers");
        for (HandlerStats handler : snapshot.handlers()) {
            json.writeStartObject();
            json.writeStringField("name", handler.name());
            json.writeNumberField("actors", handler.actors());
            json.writeNumberField("mailboxDepth", handler.mailboxDepth());
            json.writeNumberField("processed", handler.processed());
            json.writeNumberField("failures", handler.failures());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private void writeNode(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("node");
        json.writeStringField("host", node.host());
        json.writeNumberField("pid", node.pid());
        JsonDocument.string(json, "server", node.server());
        JsonDocument.string(json, "cluster", node.cluster());
        json.writeStringField("version", node.version());
        json.writeStringField("startedAt", node.startedAt().toString());
        json.writeEndObject();
    }

    private static void writeWorkers(JsonGenerator json, WorkerPoolStats workers) throws IOException {
        json.writeObjectFieldStart("workers");
        json.writeNumberField("current", workers.current());
        json.writeNumberField("min", workers.min());
        json.writeNumberField("max", workers.max());
        json.writeNumberField("busy", workers.busy());
        json.writeNumberField("stalled", workers.stalled());
        json.writeNumberField("queued", workers.queued());
        JsonDocument.number(json, "busyRatio", workers.busyRatio());
        writeThreads(json, workers.threads());
        json.writeEndObject();
    }

    private static void writeThreads(JsonGenerator json, List<ThreadStats> threads) throws IOException {
        json.writeArrayFieldStart("threads");
        for (ThreadStats thread : threads) {
            json.writeStartObject();
            json.writeStringField("name", thread.name());
            JsonDocument.number(json, "busyRatio", thread.busyRatio());
            json.writeNumberField("busyMillis", thread.busyMillis());
            json.writeBooleanField("stalled", thread.stalled());
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
