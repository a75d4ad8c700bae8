package io.troupe.ops.console;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.api.ActorInfo;

/**
 * {@code GET /console/api/actors}: the live actors as a tree, parents before their children (siblings by
 * id), each with its depth and the plugin bundle its code comes from.
 *
 * <pre>
 * {"total": 1204, "shown": 1000, "truncated": true,
 *  "actors": [{"id", "parent", "depth", "name", "tenant", "origin", "mailboxDepth", "mailboxCapacity",
 *              "overflow", "processed", "failures", "rejected", "dropped",
 *              "plugin": {"bundleId", "symbolicName", "version", "revision", "file"} | null}]}
 * </pre>
 *
 * The plugin is the bundle that registered the handler or factory named by the actor's origin; an actor
 * whose origin names none (a child spawned by class) runs the code of its parent's plugin, so it inherits
 * that. An actor whose parent is not in the snapshot (it is not atomic) is shown as a root. With a tenant
 * filter only that tenant's actors count; past the limit the rest is left out and {@code truncated} says so
 * (the page shows "1000 of 1204").
 *
 * <p><b>Threading:</b> immutable once built; any thread.
 */
final class ActorsDocument implements JsonDocument {

    /** The most actors an answer lists unless asked for fewer. */
    static final int DEFAULT_LIMIT = 5000;

    private final List<ActorInfo> actors;
    private final Map<String, PluginCode> byOrigin;
    private final String tenant;
    private final int limit;

    /**
     * @param actors   the runtime's snapshot
     * @param byOrigin the plugin of each handler and factory name
     * @param tenant   only this tenant's actors, or null for all
     * @param limit    the most actors listed, at least 0
     */
    ActorsDocument(List<ActorInfo> actors, Map<String, PluginCode> byOrigin, String tenant, int limit) {
        this.actors = List.copyOf(actors);
        this.byOrigin = Map.copyOf(byOrigin);
        this.tenant = tenant;
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        this.limit = limit;
    }

    /** One actor in tree order. */
    record Row(ActorInfo info, int depth, PluginCode plugin) {
    }

    /** The actors in tree order with their depths and plugins, the filter applied, before the limit. */
    List<Row> rows() {
        Map<Long, ActorInfo> byId = new HashMap<>();
        for (ActorInfo actor : actors) {
            if (tenant == null || tenant.equals(actor.tenant())) {
                byId.put(actor.id(), actor);
            }
        }
        Map<Long, List<ActorInfo>> children = new HashMap<>();
        List<ActorInfo> roots = new ArrayList<>();
        for (ActorInfo actor : byId.values()) {
            if (actor.parentId() != 0 && byId.containsKey(actor.parentId())) {
                children.computeIfAbsent(actor.parentId(), id -> new ArrayList<>()).add(actor);
            } else {
                roots.add(actor);
            }
        }
        Comparator<ActorInfo> byIdOrder = Comparator.comparingLong(ActorInfo::id);
        children.values().forEach(list -> list.sort(byIdOrder));
        roots.sort(byIdOrder.reversed());
        List<Row> rows = new ArrayList<>(byId.size());
        Deque<Row> stack = new ArrayDeque<>();
        for (ActorInfo root : roots) {
            stack.push(new Row(root, 0, byOrigin.get(root.origin())));
        }
        while (!stack.isEmpty()) {
            Row row = stack.pop();
            rows.add(row);
            List<ActorInfo> below = children.getOrDefault(row.info().id(), List.of());
            for (int i = below.size() - 1; i >= 0; i--) {
                ActorInfo child = below.get(i);
                PluginCode own = byOrigin.get(child.origin());
                stack.push(new Row(child, row.depth() + 1, own != null ? own : row.plugin()));
            }
        }
        return rows;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        List<Row> rows = rows();
        int shown = Math.min(limit, rows.size());
        json.writeStartObject();
        json.writeNumberField("total", rows.size());
        json.writeNumberField("shown", shown);
        json.writeBooleanField("truncated", shown < rows.size());
        json.writeArrayFieldStart("actors");
        for (Row row : rows.subList(0, shown)) {
            writeRow(json, row);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeRow(JsonGenerator json, Row row) throws IOException {
        ActorInfo actor = row.info();
        json.writeStartObject();
        json.writeNumberField("id", actor.id());
        json.writeNumberField("parent", actor.parentId());
        json.writeNumberField("depth", row.depth());
        json.writeStringField("name", Objects.toString(actor.name(), ""));
        json.writeStringField("tenant", Objects.toString(actor.tenant(), ""));
        json.writeStringField("origin", Objects.toString(actor.origin(), ""));
        json.writeNumberField("mailboxDepth", actor.mailboxDepth());
        json.writeNumberField("mailboxCapacity", actor.mailboxCapacity());
        json.writeStringField("overflow", String.valueOf(actor.overflow()));
        json.writeNumberField("processed", actor.processed());
        json.writeNumberField("failures", actor.failures());
        json.writeNumberField("rejected", actor.rejected());
        json.writeNumberField("dropped", actor.dropped());
        PluginCode plugin = row.plugin();
        if (plugin == null) {
            json.writeNullField("plugin");
        } else {
            json.writeObjectFieldStart("plugin");
            json.writeNumberField("bundleId", plugin.bundleId());
            json.writeStringField("symbolicName", plugin.symbolicName());
            json.writeStringField("version", plugin.version());
            json.writeNumberField("revision", plugin.revision());
            JsonDocument.string(json, "file", plugin.file());
            json.writeEndObject();
        }
        json.writeEndObject();
    }
}
