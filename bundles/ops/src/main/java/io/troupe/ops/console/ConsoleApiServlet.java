package io.troupe.ops.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's JSON API under {@code /console/api/}: the views (GET), the event stream and the actions
 * (POST). The HTTP context has checked the admin token before a request gets here.
 *
 * <pre>
 *   GET  overview | actors[?tenant=T&amp;limit=N] | plugins | tenants | deadletters | log[?lines=N] | history
 *   GET  events                                   text/event-stream, an "update" event each second
 *   POST plugins/{file}/undeploy | plugins/{file}/rollback | actors/{id}/stop | tenants/{tenant}/disconnect
 * </pre>
 *
 * Every answer is JSON ({@code application/json; charset=utf-8}, not cached); a refusal is
 * {@code {"error": code, "message": ...}} with its status ({@link ConsoleApiException}), a 405 with the
 * {@code Allow} header.
 *
 * <p><b>Threading:</b> the container's threads, concurrently; the servlet keeps no state of its own.
 */
final class ConsoleApiServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApiServlet.class);
    private static final List<String> VIEWS = List.of("/overview", "/actors", "/plugins", "/tenants", "/deadletters",
            "/log", "/history", "/events");

    private final transient ConsoleViews views;
    private final transient ConsoleActions actions;
    private final transient EventStream events;

    ConsoleApiServlet(ConsoleViews views, ConsoleActions actions, EventStream events) {
        this.views = Objects.requireNonNull(views, "views");
        this.actions = Objects.requireNonNull(actions, "actions");
        this.events = Objects.requireNonNull(events, "events");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = path(request);
        try {
            if (path.equals("/events")) {
                events.open(request, response);
                return;
            }
            answer(response, HttpServletResponse.SC_OK, view(request, path));
        } catch (ConsoleApiException e) {
            refuse(response, e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = path(request);
        try {
            answer(response, HttpServletResponse.SC_OK, action(request, path));
        } catch (ConsoleApiException e) {
            refuse(response, e);
        }
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        refuse(response, notAllowed(request, path(request)));
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        refuse(response, notAllowed(request, path(request)));
    }

    private JsonDocument view(HttpServletRequest request, String path) throws ConsoleApiException {
        switch (path) {
            case "/overview":
                return views.overview();
            case "/actors":
                return views.actors(blankToNull(request.getParameter("tenant")),
                        intParameter(request, "limit", ActorsDocument.DEFAULT_LIMIT, 0, Integer.MAX_VALUE));
            case "/plugins":
                return views.plugins();
            case "/tenants":
                return views.tenants();
            case "/deadletters":
                return views.deadLetters();
            case "/history":
                return views.history();
            case "/log":
                try {
                    return views.log(intParameter(request, "lines", LogTail.DEFAULT_LINES, 1, LogTail.MAX_LINES));
                } catch (IOException e) {
                    throw ConsoleApiException.internal("cannot read the log: " + e.getMessage());
                }
            default:
                if (actionPath(path) != null) {
                    throw ConsoleApiException.methodNotAllowed("GET", "/console/api" + path, "POST");
                }
                throw unknown(path);
        }
    }

    private JsonDocument action(HttpServletRequest request, String path) throws ConsoleApiException {
        String[] action = actionPath(path);
        if (action == null) {
            if (VIEWS.contains(path)) {
                throw ConsoleApiException.methodNotAllowed("POST", "/console/api" + path, "GET");
            }
            throw unknown(path);
        }
        String who = "an administrator from " + request.getRemoteAddr();
        return switch (action[0] + "/" + action[2]) {
            case "plugins/undeploy" -> actions.undeploy(action[1], who);
            case "plugins/rollback" -> actions.rollback(action[1], who);
            case "actors/stop" -> actions.stopActor(action[1], who);
            case "tenants/disconnect" -> actions.disconnect(action[1], who);
            default -> throw unknown(path);
        };
    }

    /** {@code [collection, name, verb]} of an action's path such as {@code /plugins/counter.jar/undeploy}, or null. */
    static String[] actionPath(String path) {
        String[] parts = path.split("/", -1);
        if (parts.length != 4 || !parts[0].isEmpty() || parts[2].isEmpty()) {
            return null;
        }
        String verb = parts[3];
        boolean known = switch (parts[1]) {
            case "plugins" -> verb.equals("undeploy") || verb.equals("rollback");
            case "actors" -> verb.equals("stop");
            case "tenants" -> verb.equals("disconnect");
            default -> false;
        };
        return known ? new String[] {parts[1], parts[2], verb} : null;
    }

    private static ConsoleApiException notAllowed(HttpServletRequest request, String path) {
        String allowed = actionPath(path) != null ? "POST" : "GET";
        return ConsoleApiException.methodNotAllowed(request.getMethod(), "/console/api" + path, allowed);
    }

    private static ConsoleApiException unknown(String path) {
        return ConsoleApiException.notFound("no console API at /console/api" + path + "; the views are "
                + String.join(", ", VIEWS) + " (GET), the actions plugins/{file}/undeploy, plugins/{file}/rollback, "
                + "actors/{id}/stop and tenants/{tenant}/disconnect (POST)");
    }

    private static String path(HttpServletRequest request) {
        String info = request.getPathInfo();
        return info == null ? "/" : info;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** The integer parameter {@code name}, {@code otherwise} when absent. */
    static int intParameter(HttpServletRequest request, String name, int otherwise, int min, int max)
            throws ConsoleApiException {
        String text = request.getParameter(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        int value;
        try {
            value = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw ConsoleApiException.badRequest("parameter " + name + " = '" + text + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw ConsoleApiException.badRequest("parameter " + name + " = " + value + " is outside " + min + ".."
                    + max);
        }
        return value;
    }

    private static void answer(HttpServletResponse response, int status, JsonDocument document) throws IOException {
        byte[] body;
        try {
            body = document.bytes();
        } catch (UncheckedIOException | IllegalStateException e) {
            LOG.warn("A console view could not be written", e);
            refuse(response, ConsoleApiException.internal("the view could not be written: " + e.getMessage()));
            return;
        }
        write(response, status, body);
    }

    static void refuse(HttpServletResponse response, ConsoleApiException e) throws IOException {
        if (e.status() == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
            response.setHeader("Allow", e.getMessage().endsWith("POST") ? "POST" : "GET");
        }
        JsonDocument error = json -> {
            json.writeStartObject();
            json.writeStringField("error", e.code());
            json.writeStringField("message", e.getMessage());
            json.writeEndObject();
        };
        write(response, e.status(), error.bytes());
    }

    private static void write(HttpServletResponse response, int status, byte[] body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
