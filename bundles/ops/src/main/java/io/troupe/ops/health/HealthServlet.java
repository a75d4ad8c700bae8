package io.troupe.ops.health;

import java.io.IOException;
import java.util.function.Function;

import io.troupe.ops.http.JsonResponse;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /health/live} or {@code GET /health/ready}: {@code 200} with the {@link HealthReport} when it is
 * UP, {@code 503} when it is DOWN; the body is the report as JSON either way. {@code HEAD} answers the same
 * status without the body. Open to anybody (see {@link io.troupe.ops.http.AccessPolicy}).
 *
 * <p><b>Threading:</b> Jetty's threads, many at once; each request runs the checks afresh (they read the
 * framework and services, never a runtime thread).
 */
final class HealthServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient RuntimeView view;
    private final transient Function<RuntimeView, HealthReport> checks;

    HealthServlet(RuntimeView view, Function<RuntimeView, HealthReport> checks) {
        this.view = view;
        this.checks = checks;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HealthReport report = checks.apply(view);
        JsonResponse.send(response, report.up() ? HttpServletResponse.SC_OK
                : HttpServletResponse.SC_SERVICE_UNAVAILABLE, report::write);
    }
}
