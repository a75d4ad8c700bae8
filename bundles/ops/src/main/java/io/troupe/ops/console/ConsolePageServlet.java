package io.troupe.ops.console;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The console's page: {@code /console} answers {@code index.html}, {@code /console/static/<name>} the
 * stylesheet and the script beside it, all from this bundle's {@code io/troupe/ops/console/static/}. They
 * hold no data (the script reads the JSON API), so the HTTP context lets them through without the token and
 * the page shows its login form when the API answers 401.
 *
 * <p>The Content-Security-Policy allows nothing but this origin: no inline script, no request elsewhere, no
 * framing.
 *
 * <p><b>Threading:</b> the container's threads, concurrently; stateless.
 */
final class ConsolePageServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** The resources' folder, relative to this class. */
    static final String FOLDER = "static/";
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon");

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String servletPath = request.getServletPath();
        String info = request.getPathInfo();
        String name;
        if (info == null || info.equals("/")) {
            name = servletPath.endsWith("/static") ? null : "index.html";
        } else {
            name = servletPath.endsWith("/static") && NAME.matcher(info.substring(1)).matches()
                    ? info.substring(1) : null;
        }
        URL resource = name == null ? null : ConsolePageServlet.class.getResource(FOLDER + name);
        String type = name == null ? null : TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        if (resource == null || type == null) {
            ConsoleApiServlet.refuse(response, ConsoleApiException.notFound("no console file at "
                    + request.getRequestURI()));
            return;
        }
        byte[] body;
        try (InputStream in = resource.openStream()) {
            body = in.readAllBytes();
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(type);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
