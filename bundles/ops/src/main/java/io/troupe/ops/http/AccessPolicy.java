package io.troupe.ops.http;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who may have a request of the HTTP endpoint: the rule behind {@link TroupeContext#handleSecurity}, kept
 * apart from the servlet API so that it is tested alone.
 *
 * <ul>
 * <li>{@code TRACE}: nobody, on any path (it would echo the cookie or the token back);</li>
 * <li>{@code /health} and everything under it: anybody (orchestrators probe without credentials);</li>
 * <li>{@code POST /console/login}: anybody (it checks the token itself and sets the console's cookie);</li>
 * <li>{@code GET} or {@code HEAD} of the console's page, {@code /console} and {@code /console/static/*}: anybody
 *     (a page, a stylesheet and a script, no data; the page shows its login form when the API answers 401);</li>
 * <li>everything else: a request with {@code Authorization: Bearer <admin token>}, or with the console's
 *     cookie {@value #COOKIE} whose value the token derives ({@link AdminToken#cookieValue()}). A request
 *     that changes something ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) authenticated by the
 *     cookie alone must also carry {@code X-Troupe-Console: 1}, which a page of another site cannot add to a
 *     request without the browser asking this endpoint first (and it answers no such preflight): the
 *     defence against cross-site request forgery.</li>
 * </ul>
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class AccessPolicy {

    /** The console's session cookie. */
    public static final String COOKIE = "troupe_admin";
    /** The header a state-changing request authenticated by the cookie must carry, with the value {@code 1}. */
    public static final String CONSOLE_HEADER = "X-Troupe-Console";
    /** The open paths' prefix. */
    public static final String HEALTH = "/health";
    /** Where the console posts the token to get its cookie. */
    public static final String LOGIN = "/console/login";
    /** The console's page; its stylesheet and script are under {@value #CONSOLE_STATIC}. */
    public static final String CONSOLE_PAGE = "/console";
    /** The prefix of the console page's own files. */
    public static final String CONSOLE_STATIC = "/console/static/";

    private static final String BEARER = "bearer ";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /** What the policy decided, and for a refusal, the message the client gets. */
    public enum Verdict {
        /** An open path: no credentials needed. */
        OPEN,
        /** Credentials given and right. */
        ADMITTED,
        /** No credentials, wrong ones, or no usable token on the server's side. */
        UNAUTHORIZED,
        /** A state-changing request by cookie without the console's header. */
        FORBIDDEN,
        /** {@code TRACE}, on any path: it would echo the request's headers (cookie, token) back to a script. */
        METHOD_NOT_ALLOWED
    }

    /** A decision: the verdict and, for a refusal, why. Immutable. */
    public record Decision(Verdict verdict, String message) {

        /** Whether the request may go on to its servlet. */
        public boolean allowed() {
            return verdict == Verdict.OPEN || verdict == Verdict.ADMITTED;
        }
    }

    private AccessPolicy() {
    }

    /**
     * Decides about one request.
     *
     * @param method        the HTTP method
     * @param path          the request's path inside the endpoint, decoded and normalised (servlet path and
     *                      path info)
     * @param authorization the {@code Authorization} header, or null
     * @param cookie        the value of the {@value #COOKIE} cookie, or null
     * @param consoleHeader the value of the {@value #CONSOLE_HEADER} header, or null
     * @param token         the admin token now, empty when the token file holds none
     */
    public static Decision decide(String method, String path, String authorization, String cookie,
            String consoleHeader, Optional<AdminToken> token) {
        if ("TRACE".equalsIgnoreCase(method)) {
            return new Decision(Verdict.METHOD_NOT_ALLOWED, "TRACE is not served");
        }
        if (isOpen(method, path)) {
            return new Decision(Verdict.OPEN, null);
        }
        if (token.isEmpty()) {
            return new Decision(Verdict.UNAUTHORIZED, "the admin token file holds no usable token (see the log)");
        }
        String bearer = bearer(authorization);
        if (bearer != null) {
            return token.get().matches(bearer) ? new Decision(Verdict.ADMITTED, null)
                    : new Decision(Verdict.UNAUTHORIZED, "wrong admin token");
        }
        if (cookie != null) {
            if (!token.get().matchesCookie(cookie)) {
                return new Decision(Verdict.UNAUTHORIZED, "the console session has expired: log in again");
            }
            if (!SAFE_METHODS.contains(method.toUpperCase(Locale.ROOT)) && !"1".equals(consoleHeader)) {
                return new Decision(Verdict.FORBIDDEN, method + " by the console's cookie needs the header "
                        + CONSOLE_HEADER + ": 1");
            }
            return new Decision(Verdict.ADMITTED, null);
        }
        return new Decision(Verdict.UNAUTHORIZED, "this path needs the admin token: Authorization: Bearer <token> "
                + "(the token is in the file named by tokenFile in etc/io.troupe.http.cfg, etc/admin.token by "
                + "default)");
    }

    /** Whether {@code path} is open to anybody for {@code method}. */
    static boolean isOpen(String method, String path) {
        if (path.equals(HEALTH) || path.startsWith(HEALTH + "/")) {
            return true;
        }
        if (("GET".equalsIgnoreCase(method) || "HEAD".equalsIgnoreCase(method)) && isConsolePage(path)) {
            return true;
        }
        return path.equals(LOGIN) && "POST".equalsIgnoreCase(method);
    }

    /** The console's page and its files: no data, so that a browser without the cookie gets the login form. */
    static boolean isConsolePage(String path) {
        return path.equals(CONSOLE_PAGE) || path.equals(CONSOLE_PAGE + "/")
                || (path.startsWith(CONSOLE_STATIC) && path.length() > CONSOLE_STATIC.length());
    }

    /** The credentials of a {@code Bearer} authorization, or null for none or another scheme. */
    static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.length() <= BEARER.length() || !value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return value.substring(BEARER.length()).strip();
    }
}
