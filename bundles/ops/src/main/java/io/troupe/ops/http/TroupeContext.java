package io.troupe.ops.http;

import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.function.Supplier;

import org.osgi.service.servlet.context.ServletContextHelper;
import org.osgi.service.servlet.whiteboard.HttpWhiteboardConstants;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The servlet context {@value #NAME} at {@code /}, which every servlet of the ops bundle selects
 * ({@code osgi.http.whiteboard.context.select=(osgi.http.whiteboard.context.name=troupe)}): it admits a
 * request by the {@link AccessPolicy} and the admin token of the {@link AdminTokenFile}, before any servlet
 * runs.
 *
 * <p>A refused request gets {@code 401} with {@code WWW-Authenticate: Bearer realm="troupe"} (or {@code 403}
 * for a console request missing its CSRF header) and a JSON body
 * {@code {"error":"unauthorized","message":"..."}}.
 *
 * <p><b>Threading:</b> {@link #handleSecurity} runs on the servlet container's threads, many at once; it reads
 * the token file's last reading ({@link AdminTokenFile#current()}) and keeps no state of its own.
 */
public final class TroupeContext extends ServletContextHelper {

    /** The context's name, for servlets' context selection. */
    public static final String NAME = "troupe";
    /** The filter a servlet of this context gives as {@code osgi.http.whiteboard.context.select}. */
    public static final String SELECT = "(osgi.http.whiteboard.context.name=" + NAME + ")";

    private final Supplier<AdminTokenFile> tokenFile;

    TroupeContext(Supplier<AdminTokenFile> tokenFile) {
        this.tokenFile = tokenFile;
    }

    @Override
    public boolean handleSecurity(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessPolicy.Decision decision = AccessPolicy.decide(request.getMethod(), pathOf(request),
                request.getHeader("Authorization"), cookie(request), request.getHeader(AccessPolicy.CONSOLE_HEADER),
                tokenFile.get().current());
        if (decision.allowed()) {
            return true;
        }
        if (decision.verdict() == AccessPolicy.Verdict.METHOD_NOT_ALLOWED) {
            JsonResponse.error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "method_not_allowed",
                    decision.message());
        } else if (decision.verdict() == AccessPolicy.Verdict.FORBIDDEN) {
            JsonResponse.error(response, HttpServletResponse.SC_FORBIDDEN, "forbidden", decision.message());
        } else {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"troupe\"");
            JsonResponse.error(response, HttpServletResponse.SC_UNAUTHORIZED, "unauthorized", decision.message());
        }
        return false;
    }

    /**
     * Whiteboard properties of a servlet of this context at {@code patterns}: every servlet of the ops bundle
     * registers with these, so that the token check runs before it.
     */
    public static Dictionary<String, Object> servletProperties(String name, String... patterns) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_NAME, name);
        properties.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_PATTERN, patterns);
        properties.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_CONTEXT_SELECT, SELECT);
        return properties;
    }

    /** The request's path inside the endpoint, decoded and normalised by the container. */
    static String pathOf(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return path.isEmpty() ? "/" : path;
    }

    private static String cookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return null;
        }
        for (Cookie cookie : cookies) {
            if (AccessPolicy.COOKIE.equals(cookie.getName())) {
                return cookie.getValue();
            }
        }
        return null;
    }
}
