package io.troupe.ops.console;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorRef;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.admin.TenantSessions;
import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.DeployFolder;

/**
 * The console's actions ({@code POST /console/api/...}; the HTTP context has checked the admin token and,
 * for a cookie, the CSRF header):
 *
 * <pre>
 *   plugins/{file}/undeploy    deletes deploy/{file}, as troupe:remove does; the host uninstalls the bundle
 *   plugins/{file}/rollback    copies the previous jar the console kept ({@link PluginRevisions}) over
 *                              deploy/{file}, as troupe:update does; the host updates the bundle in place
 *   actors/{id}/stop           stops the actor (children first)
 *   tenants/{tenant}/disconnect  closes the tenant's sessions (BYE); it stays configured
 * </pre>
 *
 * Each answers a small JSON document saying what was done; the host applies plugin changes within a second or
 * so (the plugins view and the history show the outcome). A refusal is a {@link ConsoleApiException} with the
 * status and a message naming the plugin, actor or tenant and the reason. Every action is logged.
 *
 * <p><b>Threading:</b> servlet threads, concurrently. {@link DeployFolder} serialises the folder's changes;
 * the runtime and the sessions service are thread-safe. Nothing here blocks on a runtime thread.
 */
final class ConsoleActions {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleActions.class);

    private final TroupeRuntime runtime;
    private final PluginCatalog catalog;
    private final PluginRevisions revisions;
    private final PluginHistory history;
    private final Supplier<TenantSessions> sessions;

    ConsoleActions(TroupeRuntime runtime, PluginCatalog catalog, PluginRevisions revisions, PluginHistory history,
                   Supplier<TenantSessions> sessions) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.revisions = Objects.requireNonNull(revisions, "revisions");
        this.history = Objects.requireNonNull(history, "history");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
    }

    /** Deletes the plugin's jar from the deploy folder. */
    JsonDocument undeploy(String name, String who) throws ConsoleApiException {
        DeployFolder folder = folder();
        try {
            DeployFolder.Removed removed = folder.remove(name);
            String file = removed.target().getFileName().toString();
            String what = removed.removed() == null ? "an unreadable jar" : removed.removed().toString();
            LOG.info("Console: deploy/{} ({}) undeployed by {}", file, what, who);
            history.action(PluginHistory.Kind.UNDEPLOY, file, removed.removed() == null ? null
                    : removed.removed().symbolicName(), removed.removed() == null ? null : removed.removed().version(),
                    null, "by " + who);
            return json -> {
                json.writeStartObject();
                json.writeStringField("action", "undeploy");
                json.writeStringField("file", file);
                json.writeStringField("removed", what);
                json.writeStringField("message", "deploy/" + file + " deleted; the host stops and uninstalls "
                        + what + " within a second or so");
                json.writeEndObject();
            };
        } catch (DeployException e) {
            throw refused("undeploy " + name, e);
        }
    }

    /** Puts the jar that ran before the current one back into the deploy folder. */
    JsonDocument rollback(String name, String who) throws ConsoleApiException {
        DeployFolder folder = folder();
        String file;
        try {
            file = DeployFolder.fileName(name);
        } catch (DeployException e) {
            throw refused("roll back " + name, e);
        }
        PluginRevisions.Kept previous = revisions.previous(file).orElseThrow(() -> ConsoleApiException.conflict(
                "deploy/" + file + " has no earlier revision to roll back to: the console keeps the jar that ran "
                        + "before the current one only for updates it saw while running"));
        Optional<String> installed = catalog.rows().stream()
                .filter(row -> row.file().equals(file) && row.bundleId() >= 0)
                .map(PluginRow::symbolicName).filter(Objects::nonNull).findFirst();
        try {
            DeployFolder.Updated updated = folder.update(file, previous.jar(), installed);
            String from = updated.previous() == null ? "an unreadable jar" : updated.previous().toString();
            String to = updated.replacement().toString();
            LOG.info("Console: deploy/{} rolled back from {} to {} by {}", file, from, to, who);
            history.action(PluginHistory.Kind.ROLLBACK, file, updated.replacement().symbolicName(),
                    updated.previous() == null ? null : updated.previous().version(), updated.replacement().version(),
                    "by " + who);
            return json -> {
                json.writeStartObject();
                json.writeStringField("action", "rollback");
                json.writeStringField("file", file);
                json.writeStringField("from", from);
                json.writeStringField("to", to);
                json.writeStringField("sha256", updated.sha256());
                json.writeStringField("message", "deploy/" + file + " holds " + to + " again; the host updates the "
                        + "bundle in place within a second or so (the plugins view shows the outcome)");
                json.writeEndObject();
            };
        } catch (DeployException e) {
            throw refused("roll back deploy/" + file, e);
        }
    }

    /** Stops the actor with the id {@code idText}. */
    JsonDocument stopActor(String idText, String who) throws ConsoleApiException {
        long id;
        try {
            id = Long.parseLong(idText);
        } catch (NumberFormatException e) {
            throw ConsoleApiException.badRequest("an actor id is a number, not '" + idText + "'");
        }
        ActorRef actor = runtime.lookup(id).orElseThrow(() -> ConsoleApiException.notFound(
                "no live actor has the id " + id));
        String name = actor.name();
        runtime.stop(actor);
        LOG.info("Console: actor {} ({}) stopped by {}", id, name, who);
        return json -> {
            json.writeStartObject();
            json.writeStringField("action", "stop");
            json.writeNumberField("id", id);
            json.writeStringField("name", String.valueOf(name));
            json.writeStringField("message", "actor " + id + " (" + name + ") is stopping, its children first");
            json.writeEndObject();
        };
    }

    /** Closes the sessions of {@code tenant}. */
    JsonDocument disconnect(String tenant, String who) throws ConsoleApiException {
        TenantSessions service = sessions.get();
        if (service == null) {
            throw ConsoleApiException.unavailable("the message server does not run, so no tenant has sessions");
        }
        int closed;
        try {
            closed = service.disconnect(tenant);
        } catch (IllegalArgumentException e) {
            throw ConsoleApiException.notFound("no tenant '" + tenant + "' is configured");
        }
        LOG.info("Console: tenant '{}' disconnected by {}: {} session(s) told BYE", tenant, who, closed);
        return json -> {
            json.writeStartObject();
            json.writeStringField("action", "disconnect");
            json.writeStringField("tenant", tenant);
            json.writeNumberField("sessions", closed);
            json.writeStringField("message", closed + " session(s) of tenant '" + tenant + "' told BYE ("
                    + TenantSessions.DISCONNECTED + "); its clients may connect again");
            json.writeEndObject();
        };
    }

    private DeployFolder folder() throws ConsoleApiException {
        return catalog.folder().orElseThrow(() -> ConsoleApiException.unavailable(
                "there is no deploy folder: the framework property troupe.deploy.dir is not set (bin/troupe sets it)"));
    }

    /** A refusal of the deploy folder's rules as the console's error. */
    static ConsoleApiException refused(String action, DeployException e) {
        String message = "cannot " + action + ": " + e.detail();
        return switch (e.code()) {
            case DeployException.BAD_REQUEST -> ConsoleApiException.badRequest(message);
            case DeployException.NO_PLUGIN -> ConsoleApiException.notFound(message);
            case DeployException.DEPLOY_UNAVAILABLE -> ConsoleApiException.unavailable(message);
            case DeployException.IO_ERROR -> ConsoleApiException.internal(message);
            default -> ConsoleApiException.conflict(message);
        };
    }
}
