package io.troupe.ops.console;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.client.deploy.DeployStatus;

/**
 * {@code GET /console/api/plugins}: the plugins of the deploy folder and their swap history, newest first.
 *
 * <pre>
 * {"folder": "/opt/troupe/deploy",
 *  "plugins": [{"file", "fileExists", "bundleId", "symbolicName", "version", "state", "revision",
 *               "handlers": [..], "factories": [..], "rollbackTo",
 *               "outcome": {"outcome", "version", "runningVersion", "reason", "time", "refused"} | null}],
 *  "history": [{"sequence", "time", "file", "symbolicName", "kind", "from", "to", "reason"}]}
 * </pre>
 *
 * {@code kind} is one of installed, updated, uninstalled (bundle events), running, rolled-back, failed (the
 * host's outcomes, with its reason) and undeploy, rollback (an administrator's actions from the console, with
 * who in {@code reason}); {@code bundleId} is -1 for a jar no bundle was installed from.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class PluginsDocument implements JsonDocument {

    private final String folder;
    private final List<PluginRow> plugins;
    private final List<PluginHistory.Entry> history;

    PluginsDocument(String folder, List<PluginRow> plugins, List<PluginHistory.Entry> history) {
        this.folder = folder;
        this.plugins = List.copyOf(plugins);
        this.history = List.copyOf(history);
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        JsonDocument.string(json, "folder", folder);
        json.writeArrayFieldStart("plugins");
        for (PluginRow plugin : plugins) {
            writePlugin(json, plugin);
        }
        json.writeEndArray();
        json.writeArrayFieldStart("history");
        for (PluginHistory.Entry entry : history) {
            json.writeStartObject();
            json.writeNumberField("sequence", entry.sequence());
            json.writeStringField("time", entry.time().toString());
            JsonDocument.string(json, "file", entry.file());
            JsonDocument.string(json, "symbolicName", entry.symbolicName());
            json.writeStringField("kind", entry.kind().toString());
            JsonDocument.string(json, "from", entry.from());
            JsonDocument.string(json, "to", entry.to());
            JsonDocument.string(json, "reason", entry.reason());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writePlugin(JsonGenerator json, PluginRow plugin) throws IOException {
        json.writeStartObject();
        json.writeStringField("file", plugin.file());
        json.writeBooleanField("fileExists", plugin.fileExists());
        json.writeNumberField("bundleId", plugin.bundleId());
        JsonDocument.string(json, "symbolicName", plugin.symbolicName());
        JsonDocument.string(json, "version", plugin.version());
        json.writeStringField("state", plugin.state());
        json.writeNumberField("revision", plugin.revision());
        strings(json, "handlers", plugin.handlers());
        strings(json, "factories", plugin.factories());
        JsonDocument.string(json, "rollbackTo", plugin.rollbackTo());
        DeployStatus outcome = plugin.outcome();
        if (outcome == null) {
            json.writeNullField("outcome");
        } else {
            json.writeObjectFieldStart("outcome");
            json.writeStringField("outcome", outcome.outcome().toString());
            JsonDocument.string(json, "version", outcome.version().orElse(null));
            JsonDocument.string(json, "runningVersion", outcome.runningVersion().orElse(null));
            JsonDocument.string(json, "reason", outcome.reason().orElse(null));
            json.writeStringField("time", outcome.time().toString());
            json.writeBooleanField("refused", plugin.refused());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void strings(JsonGenerator json, String name, List<String> values) throws IOException {
        json.writeArrayFieldStart(name);
        for (String value : values) {
            json.writeString(Objects.requireNonNull(value));
        }
        json.writeEndArray();
    }
}
